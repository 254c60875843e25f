/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_minimum_f16 - float16 MINIMUM with broadcasting (ONNX Min of float16,
 * values held as their IEEE binary16 bits): out = a < b ? a : b, as
 * ta_minimum_f32 on float, the chosen input's bits copied unchanged.
 *
 * The comparison needs no conversion: a binary16 value's magnitude grows
 * with its low 15 bits, so sign and magnitude order the numbers, with
 * +0 and -0 equal.  A NaN (exponent all ones, mantissa non-zero) compares
 * false, as in float, so the second operand is taken.
 */
#include "math_loops.h"

static int is_nan16(uint16_t h) { return (h & 0x7fffu) > 0x7c00u; }

/* The value of h as an integer of the same order: +-magnitude bits. */
static int32_t order16(uint16_t h) {
  int32_t m = (int32_t)(h & 0x7fffu);
  return (h & 0x8000u) ? -m : m;
}

static uint16_t pick(uint16_t a, uint16_t b) {
  return !is_nan16(a) && !is_nan16(b) && order16(a) < order16(b) ? a : b;
}

#define TA_OP(a, b) pick((a), (b))
ta_status ta_minimum_f16(const ta_bcast *shape, const uint16_t *in1, const uint16_t *in2,
                       uint16_t *out) {
  TA_RAW_BINARY(TA_OP);
}
