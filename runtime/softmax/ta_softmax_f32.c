/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_softmax_f32 - float SOFTMAX over rows of p->depth elements.
 *
 * Matches tflite::reference_ops::Softmax (float): max of the row,
 * e = expf((x - max) * beta) stored in the output while summing in order,
 * then out = e / sum.
 */
#include <float.h>
#include <math.h>

#include "ta_kernels.h"

ta_status ta_softmax_f32(const ta_softmax_params *p, const float *in, float *out) {
  if (p->outer < 0 || p->depth < 0)
    return TA_ERR_ARG;
  const int32_t depth = p->depth;
  const float beta = p->beta;
  for (int32_t r = 0; r < p->outer; r++) {
    const float *x = in + (size_t)r * (size_t)depth;
    float *y = out + (size_t)r * (size_t)depth;
    float mx = -FLT_MAX;
    for (int32_t c = 0; c < depth; c++)
      mx = mx < x[c] ? x[c] : mx;
    float sum = 0.0f;
    for (int32_t c = 0; c < depth; c++) {
      const float e = expf((x[c] - mx) * beta);
      y[c] = e;
      sum += e;
    }
    for (int32_t c = 0; c < depth; c++)
      y[c] = y[c] / sum;
  }
  return TA_OK;
}
