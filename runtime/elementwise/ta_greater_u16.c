/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_greater_u16 - GREATER of uint16 values with broadcasting (ONNX Greater of
 * uint16): out = a > b, as a bool byte.
 */
#include "math_loops.h"

#define TA_OP(a, b) ((uint8_t)((a) > (b)))
ta_status ta_greater_u16(const ta_bcast *shape, const uint16_t *in1, const uint16_t *in2,
                         uint8_t *out) {
  TA_RAW_BINARY(TA_OP);
}
