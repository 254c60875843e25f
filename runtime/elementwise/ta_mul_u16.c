/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_mul_u16 - uint16 MUL with broadcasting (ONNX Mul of uint16):
 * out = a * b modulo 2^16, the product wrapping around as ONNX Runtime's
 * unsigned arithmetic does.  The operands are widened to uint32_t first, so
 * that C's promotion to int cannot overflow.
 */
#include "math_loops.h"

#define TA_OP(a, b) ((uint16_t)((uint32_t)(a) * (uint32_t)(b)))
ta_status ta_mul_u16(const ta_bcast *shape, const uint16_t *in1, const uint16_t *in2,
                     uint16_t *out) {
  TA_RAW_BINARY(TA_OP);
}
