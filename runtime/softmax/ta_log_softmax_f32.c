/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_log_softmax_f32 - float LOG_SOFTMAX over the innermost dimension
 * (reference_ops::LogSoftmax): per row of depth values, with m the
 * row's maximum, out = x - m - logf(sum of expf(x - m)).
 */
#include <math.h>

#include "ta_kernels.h"

ta_status ta_log_softmax_f32(const ta_softmax_params *p, const float *in, float *out) {
  if (p->outer < 0 || p->depth < 1)
    return TA_ERR_ARG;
  for (int32_t r = 0; r < p->outer; r++) {
    const float *x = in + (size_t)r * (size_t)p->depth;
    float *y = out + (size_t)r * (size_t)p->depth;
    float m = x[0];
    for (int32_t c = 1; c < p->depth; c++)
      m = x[c] > m ? x[c] : m;
    float sum = 0.0f;
    for (int32_t c = 0; c < p->depth; c++)
      sum += expf(x[c] - m);
    const float log_sum = logf(sum);
    for (int32_t c = 0; c < p->depth; c++)
      y[c] = x[c] - m - log_sum;
  }
  return TA_OK;
}
