/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_exp_f32 - float EXP (reference_ops::Exp, std::exp): expf(x).
 */
#include "math_loops.h"

ta_status ta_exp_f32(const ta_unary_params *p, const float *in, float *out) {
  TA_UNARY_F32(expf);
}
