/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_floor_f32 - float FLOOR (reference_ops::Floor, std::floor): floorf(x).
 */
#include "math_loops.h"

ta_status ta_floor_f32(const ta_unary_params *p, const float *in, float *out) {
  TA_UNARY_F32(floorf);
}
