/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_tanh_f32 - float TANH (reference_ops::Tanh): tanhf(x).
 */
#include <math.h>

#include "ta_kernels.h"

ta_status ta_tanh_f32(const ta_unary_params *p, const float *in, float *out) {
  if (p->size < 0)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < p->size; i++) {
    const float x = in[i];
    out[i] = tanhf(x);
  }
  return TA_OK;
}
