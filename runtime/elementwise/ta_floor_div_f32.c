/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_floor_div_f32 - float FLOOR_DIV with broadcasting (reference FloorDiv):
 * floor(a / b) with the quotient computed in double, then rounded to float.
 */
#include "math_loops.h"

static inline float floor_div(float a, float b) { return (float)floor((double)a / (double)b); }

ta_status ta_floor_div_f32(const ta_bcast *shape, const float *in1, const float *in2,
                           float *out) {
  TA_RAW_BINARY(floor_div);
}
