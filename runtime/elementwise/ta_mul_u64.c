/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_mul_u64 - uint64 MUL with broadcasting (ONNX Mul of uint64):
 * out = a * b modulo 2^64, the product wrapping around as ONNX Runtime's
 * unsigned arithmetic does.
 */
#include "math_loops.h"

#define TA_OP(a, b) ((uint64_t)((uint64_t)(a) * (uint64_t)(b)))
ta_status ta_mul_u64(const ta_bcast *shape, const uint64_t *in1, const uint64_t *in2,
                     uint64_t *out) {
  TA_RAW_BINARY(TA_OP);
}
