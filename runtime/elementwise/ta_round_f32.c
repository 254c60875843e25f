/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_round_f32 - float ROUND (reference_ops::Round, RoundToNearest): to the nearest
 * integer, halves to the even one (not roundf, which rounds them away
 * from zero).
 */
#include "math_loops.h"

static inline float round_half_even(float x) {
  const float f = floorf(x);
  const float diff = x - f;
  if (diff < 0.5f || (diff == 0.5f && fmodf(f, 2.0f) == 0.0f))
    return f;
  return f + 1.0f;
}

ta_status ta_round_f32(const ta_unary_params *p, const float *in, float *out) {
  TA_UNARY_F32(round_half_even);
}
