/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fixed16.h - gemmlowp's fixed-point logistic and tanh on int16 raw
 * values (private to runtime/activation/), as TFLite's
 * optimized_ops::Logistic / Tanh for int16 use them: FixedPoint<int16_t,
 * 3> (Q3.12) in, FixedPoint<int16_t, 0> (Q0.15) out.
 *
 * gemmlowp's generic templates instantiated for int16: plain + - and
 * unary minus wrap to 16 bits (the C++ code converts an int result back
 * to int16_t), SaturatingRoundingDoublingHighMul, RoundingDivideByPOT and
 * the saturating power-of-two shifts are the int16 forms, the last step of
 * exp on [-1/4, 0) adds with int16 saturation (AddSaturatingIf16Bit), and
 * every int32 constant is rounded to 16 bits (RescaleConstantInitializer:
 * RoundingDivideByPOT(c, 16)).  Masks become plain conditionals.
 */
#ifndef TA_FIXED16_H
#define TA_FIXED16_H

#include <stdint.h>

static inline int16_t ta_w16(int32_t v) { return (int16_t)(uint16_t)(uint32_t)v; }

/* RoundingDivideByPOT for int32 and int16 (the same rule). */
static inline int32_t ta_f16_rdbpot(int32_t x, int e) {
  const int32_t mask = (int32_t)(((int64_t)1 << e) - 1);
  const int32_t remainder = x & mask;
  const int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> e) + (remainder > threshold ? 1 : 0);
}

/* RescaleConstantInitializer<FixedPoint<int16_t, ...>>. */
static inline int16_t ta_f16_const(int32_t c) { return (int16_t)ta_f16_rdbpot(c, 16); }

static inline int16_t ta_f16_srdhm(int16_t a, int16_t b) {
  if (a == b && a == INT16_MIN)
    return INT16_MAX;
  const int32_t ab = (int32_t)a * b;
  const int32_t nudge = ab >= 0 ? (1 << 14) : (1 - (1 << 14));
  return (int16_t)((ab + nudge) / (1 << 15)); /* truncating division */
}

/* SaturatingRoundingMultiplyByPOT<+e> (saturating left shift). */
static inline int16_t ta_f16_sat_shl(int16_t x, int e) {
  const int32_t threshold = (1 << (15 - e)) - 1;
  if (x > threshold)
    return INT16_MAX;
  if (x < -threshold)
    return INT16_MIN;
  return ta_w16((int32_t)x * (1 << e));
}

static inline int16_t ta_f16_rounding_half_sum(int16_t a, int16_t b) {
  const int32_t sum = (int32_t)a + b;
  return (int16_t)((sum + (sum >= 0 ? 1 : -1)) / 2);
}

static inline int16_t ta_f16_sat_add(int16_t a, int16_t b) {
  const int32_t sum = (int32_t)a + b;
  return (int16_t)(sum > 32767 ? 32767 : sum < -32768 ? -32768 : sum);
}

/* exp_on_interval_between_negative_one_quarter_and_0_excl, Q0.15. */
static inline int16_t ta_f16_exp_quarter(int16_t a) {
  const int16_t constant_term = ta_f16_const(1895147668);
  const int16_t one_third = ta_f16_const(715827883);
  const int16_t x = ta_w16(a + (1 << 12)); /* + 1/8 */
  const int16_t x2 = ta_f16_srdhm(x, x);
  const int16_t x3 = ta_f16_srdhm(x2, x);
  const int16_t x4 = ta_f16_srdhm(x2, x2);
  const int16_t x4_over_4 = (int16_t)ta_f16_rdbpot(x4, 2);
  const int16_t poly = (int16_t)ta_f16_rdbpot(
      ta_w16(ta_f16_srdhm(ta_w16(x4_over_4 + x3), one_third) + x2), 1);
  return ta_f16_sat_add(constant_term, ta_f16_srdhm(constant_term, ta_w16(x + poly)));
}

/* exp_on_negative_values for FixedPoint<int16_t, integer_bits> (3 or 4);
 * Q0.15 result. */
static inline int16_t ta_f16_exp_negative(int16_t a, int integer_bits) {
  const int frac = 15 - integer_bits;
  const int16_t quarter = (int16_t)(1 << (frac - 2));
  const int16_t a_mod = ta_w16((a & (quarter - 1)) - quarter);
  int16_t result = ta_f16_exp_quarter(ta_f16_sat_shl(a_mod, integer_bits)); /* Rescale<0> */
  const int16_t remainder = ta_w16(a_mod - a);
  static const int32_t mult[7] = {1672461947, 1302514674, 790015084, 290630308,
                                  39332535,   720401,     242};
  for (int e = -2; e <= 4; e++) /* exp(-2^e), for the bits of the remainder */
    if (integer_bits > e && (remainder & (1 << (frac + e))))
      result = ta_f16_srdhm(result, ta_f16_const(mult[e + 2]));
  if (a == 0)
    result = INT16_MAX;
  return result;
}

/* The Newton-Raphson division both functions share: x ~ 1 / half_den in
 * Q2.13, from half_den = RoundingHalfSum(a, 1) in Q0.15. */
static inline int16_t ta_f16_newton(int16_t half_den) {
  const int16_t c48_17 = ta_f16_const(1515870810), cm32_17 = ta_f16_const(-1010580540);
  int16_t x = ta_w16(c48_17 + ta_f16_srdhm(half_den, cm32_17));
  for (int i = 0; i < 3; i++) {
    const int16_t one_minus = ta_w16((1 << 13) - ta_f16_srdhm(half_den, x));
    x = ta_w16(x + ta_f16_sat_shl(ta_f16_srdhm(x, one_minus), 2)); /* Rescale<2> */
  }
  return x;
}

/* gemmlowp::logistic of a Q3.12 value; Q0.15 result. */
static inline int16_t ta_f16_logistic(int16_t a) {
  if (a == 0)
    return ta_f16_const(1 << 30);
  const int16_t abs_a = a > 0 ? a : ta_w16(-a);
  const int16_t e = ta_f16_exp_negative(ta_w16(-abs_a), 3);
  /* one_over_one_plus_x_for_x_in_0_1: Rescale<0>(ExactMulByPot<-1>(x)). */
  const int16_t pos =
      ta_f16_sat_shl(ta_f16_newton(ta_f16_rounding_half_sum(e, INT16_MAX)), 1);
  return a > 0 ? pos : ta_w16(INT16_MAX - pos);
}

/* gemmlowp::tanh of a Q3.12 value; Q0.15 result.  neg_tanh_on_negative_
 * values reads the same raw value with 4 integer bits (ExactMulByPot<1>). */
static inline int16_t ta_f16_tanh(int16_t a) {
  if (a == 0)
    return 0;
  const int16_t n = a < 0 ? a : ta_w16(-a);
  const int16_t e = ta_f16_exp_negative(n, 4);
  /* one_minus_x_over_one_plus_x_for_x_in_0_1: Rescale<0>(x - 1). */
  const int16_t t = ta_f16_sat_shl(
      ta_w16(ta_f16_newton(ta_f16_rounding_half_sum(e, INT16_MAX)) - (1 << 13)), 2);
  return a < 0 ? ta_w16(-t) : t;
}

#endif
