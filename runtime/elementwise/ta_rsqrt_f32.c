/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_rsqrt_f32 - float RSQRT (TFLM: 1.f / std::sqrt(f)): 1 / sqrtf(x).
 */
#include "math_loops.h"

#define RSQRT(x) (1.0f / sqrtf(x))
ta_status ta_rsqrt_f32(const ta_unary_params *p, const float *in, float *out) {
  TA_UNARY_F32(RSQRT);
}
