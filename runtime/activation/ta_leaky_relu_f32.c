/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_leaky_relu_f32 - float LEAKY_RELU (reference_ops::LeakyRelu):
 * x > 0 ? x : x * alpha.
 */
#include <math.h>

#include "ta_kernels.h"

ta_status ta_leaky_relu_f32(const ta_unary_params *p, const float *in, float *out) {
  if (p->size < 0)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < p->size; i++) {
    const float x = in[i];
    out[i] = x > 0.0f ? x : x * p->alpha;
  }
  return TA_OK;
}
