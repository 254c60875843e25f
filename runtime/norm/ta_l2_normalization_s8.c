/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_l2_normalization_s8 - int8 L2_NORMALIZATION over the innermost
 * dimension (TFLite Micro's reference_integer_ops::L2Normalization; the
 * output's scale is 1/128, zero point 0): per row the int32 sum of
 * squares of (x - input_zero_point), its inverse square root as a
 * multiplier and shift (GetInvSqrtQuantizedMultiplierExp, below), then
 *   out = clamp(MultiplyByQuantizedMultiplier(x - zp, inv, shift + 7))
 * with TFLM's double rounding.
 */
#include <stddef.h>

#include "ta_fixedpoint.h"
#include "ta_kernels.h"

/* GetInvSqrtQuantizedMultiplierExp(input, reverse_shift -1): 1/sqrt(input)
 * as *mult * 2^(*shift - 31), by gemmlowp fixed point: the input scaled by
 * powers of four into [2^27, 2^29), five Newton-Raphson steps x = 1.5 x -
 * (input / 2) x^3 in Q3.28 (products by SaturatingRoundingDoublingHighMul,
 * rescales by saturating shifts), times sqrt(2)/2. */
static void inv_sqrt(int32_t input, int32_t *mult, int *shift) {
  if (input <= 1) {
    *mult = INT32_MAX;
    *shift = 0;
    return;
  }
  int s = 11;
  while (input >= (1 << 29)) {
    input /= 4;
    ++s;
  }
  const int pairs = (ta_clz32((uint32_t)input) - 1) / 2 - 1;
  s -= pairs;
  input = ta_wrap_shl(input, 2 * pairs);
  const int32_t half_input = ta_rdbpot(input >> 1, 1);
  const int32_t half_three = (1 << 28) + (1 << 27);
  int32_t x = 1 << 28; /* 1.0 in Q3.28 */
  for (int i = 0; i < 5; i++) {
    const int32_t x3 = ta_sat_shl(ta_srdhm(ta_srdhm(x, x), x), 6);
    x = ta_sat_shl(ta_wrap_sub(ta_srdhm(half_three, x), ta_srdhm(half_input, x3)), 3);
  }
  x = ta_srdhm(x, 1518500250); /* sqrt(2) / 2 in Q0.31 */
  if (s < 0) {
    x = ta_wrap_shl(x, -s);
    s = 0;
  }
  *mult = x;
  *shift = -s;
}

ta_status ta_l2_normalization_s8(int32_t outer, int32_t depth, int32_t input_zero_point,
                                 const int8_t *in, int8_t *out) {
  if (outer < 0 || depth < 0 || depth > 65536)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < outer; i++) {
    const int8_t *x = in + (size_t)i * (size_t)depth;
    int32_t acc = 0;
    for (int32_t c = 0; c < depth; c++) {
      const int32_t v = x[c] - input_zero_point;
      acc += v * v;
    }
    int32_t mult;
    int shift;
    inv_sqrt(acc, &mult, &shift);
    for (int32_t c = 0; c < depth; c++) {
      const int32_t v = ta_requant_double(x[c] - input_zero_point, mult, shift + 7);
      out[(size_t)i * (size_t)depth + (size_t)c] = (int8_t)ta_clamp_i32(v, -128, 127);
    }
  }
  return TA_OK;
}
