/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_softmax_u8 - legacy uint8 SOFTMAX as TFLite's builtin kernel
 * computes it (optimized_ops::Softmax with the float lookup table of
 * PopulateSoftmaxLookupTable): per row of depth values,
 *
 *   max = the largest input, e[x] = table[255 - max + x]
 *         (the compiler fills table[255 - v] = expf(-input_scale * beta * v))
 *   sum = e[x_0] + e[x_1] + ... (float, in order)
 *   inv = 1 / (sum * output_scale)
 *   out = min((int32_t)(e[x] * inv + 0.5f), 255)
 *
 * (TFLite's QuantizeSoftmaxOutput<uint8_t> outside AArch64: truncation
 * of e * inv + 0.5, the zero point - 0 for uint8 - not added.)  Each
 * float operation rounds as written: no fused multiply-add.
 */
#include "ta_fpstrict.h"
#include "ta_kernels.h"

TA_FP_STRICT
ta_status ta_softmax_u8(const ta_softmax_u8_params *p, const uint8_t *in, uint8_t *out) {
  if (p->outer < 0 || p->depth < 1 || !p->table)
    return TA_ERR_ARG;
  for (int32_t r = 0; r < p->outer; r++, in += p->depth, out += p->depth) {
    int32_t max = 0;
    for (int32_t j = 0; j < p->depth; j++)
      max = in[j] > max ? in[j] : max;
    const float *e = p->table + (255 - max);
    float sum = 0.0f;
    for (int32_t j = 0; j < p->depth; j++)
      sum += e[in[j]];
    const float inv = 1.0f / (sum * p->output_scale);
    for (int32_t j = 0; j < p->depth; j++) {
      const float prob = e[in[j]] * inv;
      const float v = prob + 0.5f;
      const int32_t q = v < 2147483648.0f ? (int32_t)v : INT32_MAX;
      out[j] = (uint8_t)(q > 255 ? 255 : q < 0 ? 0 : q);
    }
  }
  return TA_OK;
}
