/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_add_u64 - uint64 ADD with broadcasting (ONNX Add of uint64):
 * out = a + b modulo 2^64, the sum wrapping around as ONNX Runtime's
 * unsigned arithmetic does.
 */
#include "math_loops.h"

#define TA_OP(a, b) ((uint64_t)((uint64_t)(a) + (uint64_t)(b)))
ta_status ta_add_u64(const ta_bcast *shape, const uint64_t *in1, const uint64_t *in2,
                     uint64_t *out) {
  TA_RAW_BINARY(TA_OP);
}
