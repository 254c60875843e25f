/*
 * ta_softmax_table_s8_s16 - int8 SOFTMAX with int16 output as TFLite's builtin
 * kernel computes it (optimized_ops::Softmax<int8_t, int16_t> with the
 * float lookup table of PopulateSoftmaxLookupTable; `--rounding
 * single`): per row of depth values,
 *
 *   max = the largest input, e[x] = table[255 - max + x]
 *         (the compiler fills table[255 - v] = expf(-input_scale * beta * v))
 *   sum = e[x_0] + e[x_1] + ... (float, in order)
 *   inv = 1 / (sum * output_scale)
 *   out = clamp(roundf(e[x] * inv) + output_zero_point, -32768, 32767)
 *
 * (QuantizeSoftmaxOutput<int16_t>: std::round, half away from zero.)
 * Each float operation rounds as written: no fused multiply-add.
 */
#include <math.h>

#include "ta_fixedpoint.h"
#include "ta_fpstrict.h"
#include "ta_kernels.h"

TA_FP_STRICT
ta_status ta_softmax_table_s8_s16(const ta_softmax_u8_params *p, const int8_t *in,
                                  int16_t *out) {
  if (p->outer < 0 || p->depth < 1 || !p->table)
    return TA_ERR_ARG;
  for (int32_t r = 0; r < p->outer; r++, in += p->depth, out += p->depth) {
    int32_t max = -128;
    for (int32_t j = 0; j < p->depth; j++)
      max = in[j] > max ? in[j] : max;
    const float *e = p->table + 255; /* e[x - max], x - max in [-255, 0] */
    float sum = 0.0f;
    for (int32_t j = 0; j < p->depth; j++)
      sum += e[in[j] - max];
    const float inv = 1.0f / (sum * p->output_scale);
    for (int32_t j = 0; j < p->depth; j++) {
      const float prob = roundf(e[in[j] - max] * inv);
      const int32_t q = prob < 2147483648.0f ? (int32_t)prob : INT32_MAX;
      out[j] = (int16_t)ta_clamp_i32(ta_wrap_add(q, p->output_zero_point), -32768, 32767);
    }
  }
  return TA_OK;
}
