/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_pow_f32 - float POW with broadcasting (reference_ops::Pow,
 * std::pow of two floats): powf(a, b).
 */
#include "math_loops.h"

ta_status ta_pow_f32(const ta_bcast *shape, const float *in1, const float *in2, float *out) {
  TA_RAW_BINARY(powf);
}
