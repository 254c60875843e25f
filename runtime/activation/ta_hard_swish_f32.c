/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_hard_swish_f32 - float HARD_SWISH (reference_ops::HardSwish):
 * x * min(6, max(0, x + 3)) / 6, in that order.
 */
#include <math.h>

#include "ta_kernels.h"

ta_status ta_hard_swish_f32(const ta_unary_params *p, const float *in, float *out) {
  if (p->size < 0)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < p->size; i++) {
    const float x = in[i];
    out[i] = x * fminf(6.0f, fmaxf(0.0f, x + 3.0f)) / 6.0f;
  }
  return TA_OK;
}
