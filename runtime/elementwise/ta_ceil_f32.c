/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_ceil_f32 - float CEIL (reference_ops::Ceil, std::ceil): ceilf(x).
 */
#include "math_loops.h"

ta_status ta_ceil_f32(const ta_unary_params *p, const float *in, float *out) {
  TA_UNARY_F32(ceilf);
}
