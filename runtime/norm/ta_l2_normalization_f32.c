/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_l2_normalization_f32 - float L2_NORMALIZATION over the innermost
 * dimension (TFLite Micro's reference_ops::L2Normalization): per row of
 * depth values the float sum of squares in order, l2 = max(sqrtf(sum),
 * 1e-6f), out = in / l2.
 */
#include <math.h>
#include <stddef.h>

#include "ta_kernels.h"

ta_status ta_l2_normalization_f32(int32_t outer, int32_t depth, const float *in, float *out) {
  if (outer < 0 || depth < 0)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < outer; i++) {
    const float *x = in + (size_t)i * (size_t)depth;
    float sum = 0.0f;
    for (int32_t c = 0; c < depth; c++)
      sum += x[c] * x[c];
    float l2 = sqrtf(sum);
    l2 = l2 > 1e-6f ? l2 : 1e-6f;
    for (int32_t c = 0; c < depth; c++)
      out[(size_t)i * (size_t)depth + (size_t)c] = x[c] / l2;
  }
  return TA_OK;
}
