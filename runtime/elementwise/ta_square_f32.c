/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_square_f32 - float SQUARE (TFLM: f * f): x * x.
 */
#include "math_loops.h"

#define SQUARE(x) ((x) * (x))
ta_status ta_square_f32(const ta_unary_params *p, const float *in, float *out) {
  TA_UNARY_F32(SQUARE);
}
