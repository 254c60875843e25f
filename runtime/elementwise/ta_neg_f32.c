/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_neg_f32 - float NEG (reference_ops::Negate): -x.
 */
#include "math_loops.h"

#define NEG(x) (-(x))
ta_status ta_neg_f32(const ta_unary_params *p, const float *in, float *out) {
  TA_UNARY_F32(NEG);
}
