/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_add_u32 - uint32 ADD with broadcasting (ONNX Add of uint32):
 * out = a + b modulo 2^32, the sum wrapping around as ONNX Runtime's
 * unsigned arithmetic does.
 */
#include "math_loops.h"

#define TA_OP(a, b) ((uint32_t)((uint32_t)(a) + (uint32_t)(b)))
ta_status ta_add_u32(const ta_bcast *shape, const uint32_t *in1, const uint32_t *in2,
                     uint32_t *out) {
  TA_RAW_BINARY(TA_OP);
}
