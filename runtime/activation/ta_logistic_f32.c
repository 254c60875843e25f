/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_logistic_f32 - float LOGISTIC (reference_ops::Logistic float):
 * 1 beyond x > 16.619047, exp(x) below x < -9, else 1 / (1 + exp(-x)),
 * in float.
 */
#include <math.h>

#include "ta_kernels.h"

ta_status ta_logistic_f32(const ta_unary_params *p, const float *in, float *out) {
  if (p->size < 0)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < p->size; i++) {
    const float x = in[i];
    out[i] = x > 16.619047164916992188f ? 1.0f
             : x < -9.0f                 ? expf(x)
                                         : 1.0f / (1.0f + expf(-x));
  }
  return TA_OK;
}
