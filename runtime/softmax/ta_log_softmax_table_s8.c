/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_log_softmax_table_s8 - int8 LOG_SOFTMAX as TFLite's builtin kernel
 * computes it (optimized_ops::LogSoftmax<int8_t> with the float table of
 * PopulateSoftmaxLookupTable; `--rounding single`); the steps are in
 * ta_kernels_math.h.  Each float operation rounds as written (no fused
 * multiply-add): the integer result depends on it.  std::rint rounds
 * halves to even, as rintf in the default rounding mode.
 */
#include <math.h>
#include <stddef.h>

#include "ta_fpstrict.h"
#include "ta_kernels.h"

TA_FP_STRICT
ta_status ta_log_softmax_table_s8(const ta_log_softmax_table_params *p, const int8_t *in,
                                  int8_t *out) {
  if (p->outer < 0 || p->depth < 1 || !p->table)
    return TA_ERR_ARG;
  const float scale = p->input_scale / p->output_scale;
  for (int32_t row = 0; row < p->outer; row++) {
    const int8_t *x = in + (size_t)row * (size_t)p->depth;
    int8_t *y = out + (size_t)row * (size_t)p->depth;
    int32_t mx = -128;
    for (int32_t c = 0; c < p->depth; c++)
      mx = x[c] > mx ? x[c] : mx;
    /* table[255 - max + x] = exp(input_scale (x - max)) */
    float sum = 0.0f;
    for (int32_t c = 0; c < p->depth; c++)
      sum += p->table[255 - mx + x[c]];
    const float lse = logf(sum);
    const float pre = (p->input_scale * (float)mx + lse) / p->output_scale;
    for (int32_t c = 0; c < p->depth; c++) {
      const float v = rintf(scale * (float)x[c] - pre) + (float)p->output_zero_point;
      y[c] = (int8_t)(!(v > -128.0f) ? -128 : v >= 127.0f ? 127 : (int32_t)v);
    }
  }
  return TA_OK;
}
