/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_less_u64 - LESS of uint64 values with broadcasting (ONNX Less of
 * uint64): out = a < b, as a bool byte.
 */
#include "math_loops.h"

#define TA_OP(a, b) ((uint8_t)((a) < (b)))
ta_status ta_less_u64(const ta_bcast *shape, const uint64_t *in1, const uint64_t *in2,
                      uint8_t *out) {
  TA_RAW_BINARY(TA_OP);
}
