/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_minimum_u16 - uint16 MINIMUM with broadcasting (ONNX Min of uint16):
 * out = ((a) < (b) ? (a) : (b)).
 */
#include "math_loops.h"

#define TA_OP(a, b) ((a) < (b) ? (a) : (b))
ta_status ta_minimum_u16(const ta_bcast *shape, const uint16_t *in1, const uint16_t *in2,
                         uint16_t *out) {
  TA_RAW_BINARY(TA_OP);
}
