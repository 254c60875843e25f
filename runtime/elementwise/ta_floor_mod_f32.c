/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_floor_mod_f32 - float FLOOR_MOD with broadcasting (reference FloorMod):
 * r = fmodf(a, b); r + b when r != 0 and r and b have different signs.
 */
#include "math_loops.h"

static inline float floor_mod(float a, float b) {
  const float r = fmodf(a, b);
  return r != 0.0f && ((b < 0.0f) != (r < 0.0f)) ? r + b : r;
}

ta_status ta_floor_mod_f32(const ta_bcast *shape, const float *in1, const float *in2,
                           float *out) {
  TA_RAW_BINARY(floor_mod);
}
