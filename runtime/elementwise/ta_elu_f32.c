/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_elu_f32 - float ELU (reference_ops::Elu): x < 0 ? expm1f(x) : x.
 */
#include "math_loops.h"

static inline float elu(float x) { return x < 0.0f ? expm1f(x) : x; }

ta_status ta_elu_f32(const ta_unary_params *p, const float *in, float *out) {
  TA_UNARY_F32(elu);
}
