/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_sqrt_f32 - float SQRT (std::sqrt): sqrtf(x).
 */
#include "math_loops.h"

ta_status ta_sqrt_f32(const ta_unary_params *p, const float *in, float *out) {
  TA_UNARY_F32(sqrtf);
}
