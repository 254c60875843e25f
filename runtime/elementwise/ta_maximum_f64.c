/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_maximum_f64 - float64 MAXIMUM with broadcasting (ONNX Max of double):
 * out = a > b ? a : b, as ta_maximum_f32 on float.
 */
#include "math_loops.h"

#define TA_OP(a, b) ((a) > (b) ? (a) : (b))
ta_status ta_maximum_f64(const ta_bcast *shape, const double *in1, const double *in2,
                       double *out) {
  TA_RAW_BINARY(TA_OP);
}
