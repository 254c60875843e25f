/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_minimum_u32 - uint32 MINIMUM with broadcasting (ONNX Min of uint32):
 * out = ((a) < (b) ? (a) : (b)).
 */
#include "math_loops.h"

#define TA_OP(a, b) ((a) < (b) ? (a) : (b))
ta_status ta_minimum_u32(const ta_bcast *shape, const uint32_t *in1, const uint32_t *in2,
                         uint32_t *out) {
  TA_RAW_BINARY(TA_OP);
}
