/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_erf_f32 - float ERF (ONNX Erf; the error function of C99's erff,
 * as ONNX's reference computes it with the double erf, to within an
 * ulp or so of float32).
 */
#include "math_loops.h"

ta_status ta_erf_f32(const ta_unary_params *p, const float *in, float *out) {
  TA_UNARY_F32(erff);
}
