/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_less_u32 - LESS of uint32 values with broadcasting (ONNX Less of
 * uint32): out = a < b, as a bool byte.
 */
#include "math_loops.h"

#define TA_OP(a, b) ((uint8_t)((a) < (b)))
ta_status ta_less_u32(const ta_bcast *shape, const uint32_t *in1, const uint32_t *in2,
                      uint8_t *out) {
  TA_RAW_BINARY(TA_OP);
}
