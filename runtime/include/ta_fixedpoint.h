/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_fixedpoint.h - the fixed-point arithmetic every integer kernel
 * shares (static inline, C99).  Each function reproduces one function of
 * gemmlowp's fixedpoint.h or TFLite's kernels/internal/common.{h,cc} bit
 * for bit, for int32 raw values:
 *
 *   ta_srdhm          SaturatingRoundingDoublingHighMul
 *   ta_rdbpot         RoundingDivideByPOT
 *   ta_sat_shl        SaturatingRoundingMultiplyByPOT<+e> (saturating << e)
 *   ta_rounding_half_sum  RoundingHalfSum
 *   ta_requant        MultiplyByQuantizedMultiplier, double or single rounding
 *                     (ta_requant_fixed), or ONNX Runtime's float
 *                     requantization (ta_requant_ort)
 *   ta_requant_le1    MultiplyByQuantizedMultiplierSmallerThanOneExp
 *   ta_requant_ge1    MultiplyByQuantizedMultiplierGreaterThanOne
 *   ta_exp_on_negative_values_5   exp_on_negative_values for Q5.26 input
 *   ta_one_over_one_plus_x        one_over_one_plus_x_for_x_in_0_1
 *   ta_get_reciprocal             GetReciprocal
 *
 * Where TFLite relies on two's-complement wrap-around (x * (1 << s)), the
 * helpers compute in unsigned arithmetic so the result is the same and
 * the C code has no undefined behaviour.
 */
#ifndef TA_FIXEDPOINT_H
#define TA_FIXEDPOINT_H

#include <stdint.h>

#include "ta_types.h"

#if defined(__GNUC__)
#define TA_INLINE static __inline__ __attribute__((always_inline))
#else
#define TA_INLINE static inline
#endif

/* Keeps a function out of line: a kernel's inner function gets the
 * registers to itself, and a path shared by several entry points is
 * one copy. */
#if defined(__GNUC__)
#define TA_NOINLINE __attribute__((noinline))
#else
#define TA_NOINLINE
#endif

/* Two's-complement wrapping helpers (defined behaviour in C). */
TA_INLINE int32_t ta_wrap_add(int32_t a, int32_t b) {
  return (int32_t)((uint32_t)a + (uint32_t)b);
}
TA_INLINE int32_t ta_wrap_sub(int32_t a, int32_t b) {
  return (int32_t)((uint32_t)a - (uint32_t)b);
}
TA_INLINE int32_t ta_wrap_shl(int32_t a, int s) {
  return (int32_t)((uint32_t)a << s);
}

/* SaturatingRoundingDoublingHighMul: (a * b + nudge) / 2^31 truncated,
 * nudge 2^30 or 1 - 2^30 by the product's sign; INT32_MIN * INT32_MIN
 * saturates to INT32_MAX.  For a product p < 0 the truncated quotient
 * -floor((2^30 - 1 - p) / 2^31) equals floor((p + 2^30) / 2^31), so one
 * arithmetic shift of p + 2^30 gives both signs (SMLAL and two shifts
 * on Arm, no division fix-up). */
TA_INLINE int32_t ta_srdhm(int32_t a, int32_t b) {
  if (a == b && a == INT32_MIN)
    return INT32_MAX;
  return (int32_t)(((int64_t)a * (int64_t)b + ((int64_t)1 << 30)) >> 31);
}

/* RoundingDivideByPOT: x / 2^e rounded to nearest, ties away from zero;
 * 0 <= e <= 31. */
TA_INLINE int32_t ta_rdbpot(int32_t x, int e) {
  int32_t mask = (int32_t)(((int64_t)1 << e) - 1);
  int32_t remainder = x & mask;
  int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> e) + (remainder > threshold ? 1 : 0);
}

/* SaturatingRoundingMultiplyByPOT with a positive exponent 1 <= e <= 30. */
TA_INLINE int32_t ta_sat_shl(int32_t x, int e) {
  int32_t threshold = (int32_t)(((int32_t)1 << (31 - e)) - 1);
  if (x > threshold)
    return INT32_MAX;
  if (x < -threshold)
    return INT32_MIN;
  return ta_wrap_shl(x, e);
}

/* RoundingHalfSum: (a + b) / 2 rounded to nearest, ties away from zero. */
TA_INLINE int32_t ta_rounding_half_sum(int32_t a, int32_t b) {
  int64_t sum = (int64_t)a + (int64_t)b;
  int64_t sign = sum >= 0 ? 1 : -1;
  return (int32_t)((sum + sign) / 2);
}

/* MultiplyByQuantizedMultiplier, TFLite Micro's default (double rounding):
 * RoundingDivideByPOT(SRDHM(x << left, mult), right), in fewer steps.
 *  - SRDHM's nudge-and-truncate equals floor((a * m + 2^30) / 2^31) for
 *    either sign of the product (the negative nudge 1 - 2^30 followed by
 *    truncation towards zero is that floor); only INT32_MIN * INT32_MIN
 *    (saturating) needs a test.
 *  - RoundingDivideByPOT(r, e) equals floor((2r + 2^e - 1 + (r >= 0)) /
 *    2^(e+1)) for every e >= 0 (for e >= 1 this is floor((r + 2^(e-1) -
 *    (r < 0)) / 2^e), half away from zero; the doubling keeps e = 0 exact
 *    without a branch).
 * Checked against the literal gemmlowp definitions in
 * tests/kernels/test_quant.c. */
TA_INLINE int32_t ta_rdbpot_fast(int32_t r, int e) {
  return (int32_t)((2 * (int64_t)r + (((int64_t)1 << e) - 1) + (r >= 0)) >> (e + 1));
}

/* The usual case, a right shift e = -shift >= 1 and mult >= 0, in one
 * step.  With P = x * mult and q = floor((P + 2^30) / 2^31) (SRDHM),
 * RoundingDivideByPOT(q, e) = floor((q + 2^(e-1) - [q < 0]) / 2^e), and
 * nested floor divisions merge (floor(floor(a / b) / c) = floor(a / (b c))):
 *
 *   result = floor((P + 2^30 + 2^(30+e) - [q < 0] 2^31) / 2^(31+e)).
 *
 * q < 0 means P < -2^30; using x < 0 instead only differs for
 * -2^30 <= P < 0, where both forms give 0 (P + 2^30 + 2^(30+e) - 2^31 is
 * then in [0, 2^(31+e)) for e >= 1).  One multiply-accumulate with a
 * sign-dependent constant and one shift (on a 32-bit core: SMLAL and an
 * arithmetic shift of the high word). */
/* 2^30 + 2^(30+e), the rounding constant of ta_requant_double_rs() (a
 * kernel computes it once per channel). */
TA_INLINE int64_t ta_requant_rs_round(int e) {
  /* In 32-bit halves, cheaper on 32-bit cores than a 64-bit shift. */
  const uint32_t lo = e >= 2 ? UINT32_C(0x40000000) : UINT32_C(0xC0000000);
  const uint32_t hi = e >= 2 ? (uint32_t)1 << (e - 2) : 0;
  return (int64_t)(((uint64_t)hi << 32) | lo);
}

TA_INLINE int32_t ta_requant_double_rsc(int32_t x, int32_t mult, int e, int64_t round) {
  const int64_t v = (int64_t)x * mult + round - ((int64_t)(x < 0) << 31);
  return (int32_t)(v >> 32) >> (e - 1); /* (v >> (31 + e)), 31 + e >= 32 */
}

TA_INLINE int32_t ta_requant_double_rs(int32_t x, int32_t mult, int e) {
  return ta_requant_double_rsc(x, mult, e, ta_requant_rs_round(e));
}

/* The same in the form of SMMLAR (the high word of a * b + c 2^32 +
 * 2^31), for multipliers in [2^30, 2^31) - all that QuantizeMultiplier
 * gives but 0.  With M = 2 mult - 2^32 (an int32),
 *
 *   SMMLAR(x, M, c) + x = c + floor((2 x mult + 2^31) / 2^32)
 *                       = c + floor((x mult + 2^30) / 2^31) = c + q,
 *
 * q being SRDHM's floor form above, and the merged floors give
 *
 *   ta_requant_double_rs(x, mult, e) = (q - [x < 0] + 2^(e-1)) >> e,
 *
 * so c = 2^(e-1): SMMLAR, ADD, SUB, ASR on a core with the DSP extension
 * (ta_dsp.h), the additions wrapping harmlessly as long as the sum
 * itself fits (ta_requant_mmla_ok()).  A zero multiplier (0 whatever
 * the shift) is computed as multiplier 2^30, shift -31, which gives 0 for
 * every |x| < 2^31 - 2 (x 2^30 + 2^30 + 2^61 - [x < 0] 2^31 lies in
 * [0, 2^62)).  Checked against gemmlowp's literal steps in
 * tests/kernels/test_quant.c. */
typedef struct {
  int32_t m2;  /* M */
  int32_t add; /* c */
  int32_t e;
} ta_requant_mmla;

TA_INLINE ta_requant_mmla ta_requant_mmla_make(int32_t mult, int32_t shift) {
  ta_requant_mmla r;
  if (mult == 0) { /* gives 0 as (2^30, -31) does for |x| < 2^31 - 2 */
    mult = 1 << 30;
    shift = -31;
  }
  r.m2 = (int32_t)((uint32_t)mult << 1);
  r.e = (int)-shift;
  r.add = (int32_t)(((uint32_t)1 << r.e) >> 1);
  return r;
}

TA_INLINE int32_t ta_requant_double_mmla(int32_t x, const ta_requant_mmla *r) {
  const uint32_t hi = (uint32_t)(int32_t)(((int64_t)x * r->m2 + INT64_C(0x80000000)) >> 32);
  return (int32_t)(hi + (uint32_t)r->add + (uint32_t)x - ((uint32_t)x >> 31)) >> r->e;
}

/* Whether ta_requant_double_mmla() gives ta_requant_double() for every
 * accumulator of magnitude at most bound. */
TA_INLINE int ta_requant_mmla_ok(uint32_t bound, int32_t mult, int32_t shift) {
  const uint32_t m = mult ? (uint32_t)mult : UINT32_C(1) << 30; /* 0 as (2^30, -31) */
  const uint32_t e1 = mult ? (uint32_t)(-1 - shift) : 30;        /* e - 1 */
  if (bound >= UINT32_C(0x80000000) || m >> 30 != 1 || e1 > 30)
    return 0;
  /* |q| <= bound * mult / 2^31 + 1, plus 2^(e-1) and the 1 of [x < 0]. */
  const uint32_t q = (uint32_t)(((uint64_t)bound * m) >> 31);
  return q + 2 + (UINT32_C(1) << e1) < UINT32_C(0x80000000);
}

/* Whether every channel of a convolution fits the SMMLAR form: double
 * rounding, fewer than 2^16 taps, and each channel's requantization
 * exact for accumulators up to |bias[c]| + taps * 2^14 (int8 times int8
 * products, the column widened from int8).  q->mmla is ignored.  The
 * compiler stores the answer in ta_quant.mmla (lower_nn.c); code that
 * calls the kernels itself sets it from this. */
TA_INLINE int ta_quant_mmla_ok(const ta_quant *q, int32_t channels, const int32_t *bias,
                               int32_t taps) {
  if (q->rounding != TA_ROUND_DOUBLE || taps >= (1 << 16))
    return 0;
  const uint32_t dot = (uint32_t)taps << 14;
  const int32_t step = q->per_channel ? 1 : 0;
  const int32_t *mult = q->multiplier, *shift = q->shift;
  for (int32_t c = 0; c < channels; c++, mult += step, shift += step) {
    const uint32_t b = bias[c] < 0 ? 0u - (uint32_t)bias[c] : (uint32_t)bias[c];
    if (!ta_requant_mmla_ok(b + dot, *mult, *shift))
      return 0;
  }
  return 1;
}

/* ta_quant.mmla's bit saying that a ta_conv2d_fold_dsp_s8 call gets the
 * filter packed by ta_pack_rows_s8() and, instead of the folded
 * bias, the records of ta_pack_records() (ta_pack.h); the
 * DSP path runs only with it.  The compiler sets it with bit 0 (mmla 3)
 * for every ungrouped int8 CONV_2D whose channels fit. */
#define TA_MMLA_RECORDS 2

/* ta_quant.mmla's bit saying that a call of the 3 x 3 DSP path of
 * ta_depthwise_conv2d_fold_s8 (which doubles its weights) gets, instead
 * of the folded bias, the records of ta_pack_records_doubled()
 * (ta_pack.h); that path runs only with it.  The compiler sets it with
 * bit 0 for the ops it lowers to that path. */
#define TA_MMLA_DOUBLED 4

/* With TA_MMLA_RECORDS, ta_fully_connected_fold_dsp_s8's records hold
 * one multiplier, addend and shift for every row (ta_pack_records_fc(),
 * ta_pack.h). */
#define TA_MMLA_SHARED 8

TA_INLINE int32_t ta_requant_double(int32_t x, int32_t mult, int32_t shift) {
  if (shift < 0 && shift >= -31 && mult >= 0)
    return ta_requant_double_rs(x, mult, (int)-shift);
  const int left = shift > 0 ? (int)shift : 0;
  const int right = shift > 0 ? 0 : (int)-shift;
  const int32_t a = ta_wrap_shl(x, left);
  int32_t r;
  if (a == INT32_MIN && mult == INT32_MIN)
    r = INT32_MAX;
  else
    r = (int32_t)(((int64_t)a * mult + ((int64_t)1 << 30)) >> 31);
  return right ? ta_rdbpot_fast(r, right) : r; /* a shift of 0 rounds nothing */
}

/* Whether every one of `channels` requantizations (one if per tensor)
 * is double rounding with a right shift of 1..31 and a non-negative
 * multiplier, or a zero multiplier: the form ta_requant_double_rs()
 * computes in one step (the Arm DSP path of ta_fully_connected_fold_s8). */
TA_INLINE int ta_quant_rs_ok(const ta_quant *q, int32_t channels) {
  const int32_t n = q->per_channel ? channels : 1;
  if (q->rounding != TA_ROUND_DOUBLE)
    return 0;
  for (int32_t c = 0; c < n; c++)
    if (q->multiplier[c] != 0 &&
        (q->shift[c] > -1 || q->shift[c] < -31 || q->multiplier[c] < 0))
      return 0;
  return 1;
}

/* MultiplyByQuantizedMultiplier with TFLITE_SINGLE_ROUNDING:
 * (x * mult + 2^(30 - shift)) >> (31 - shift); -31 <= shift <= 30. */
TA_INLINE int32_t ta_requant_single(int32_t x, int32_t mult, int32_t shift) {
  int total = 31 - (int)shift;
  int64_t round = (int64_t)1 << (total - 1);
  int64_t r = ((int64_t)x * (int64_t)mult + round) >> total;
  return (int32_t)r;
}

/* f rounded to the nearest integer, ties to even, clamped to +-2^30
 * (NaN gives -2^30). */
TA_INLINE int32_t ta_round_even_f32(float f) {
  if (!(f > -1073741824.0f))
    return -1073741824;
  if (f > 1073741824.0f)
    return 1073741824;
  int32_t i = (int32_t)f; /* toward zero */
  const float r = f - (float)i; /* the fraction, exact */
  if (r > 0.5f || (r >= 0.5f && (i & 1))) /* above a half, or a half and odd */
    i++;
  else if (r < -0.5f || (r <= -0.5f && (i & 1)))
    i--;
  return i;
}

/* ONNX Runtime's requantization (MlasRequantizeOutput, x86): the int32
 * accumulator converted to float32, times the float32 scale whose bits
 * `mult` holds, rounded to the nearest integer with ties to even (SSE's
 * CVTPS2DQ in its default mode).  The product is clamped to +-2^30
 * first (far outside every output range; MLAS clamps to the output
 * range, which gives the same bytes after the caller's clamp).  The
 * rounding is done by hand: no libm, and no dependence on the FPU's
 * rounding mode beyond the default one for the product itself. */
TA_INLINE int32_t ta_requant_ort(int32_t x, int32_t mult) {
  union {
    int32_t i;
    float f;
  } u;
  u.i = mult;
  return ta_round_even_f32((float)x * u.f);
}

/* TFLite's two roundings only (no float code): for the kernel variants
 * the compiler picks when it knows the rounding is not ONNX Runtime's. */
/*
 * Whether TFLite's double-rounding requantization by (mult, shift), a
 * right shift and a non-negative multiplier (non-decreasing in x), has
 * one value for every sum in [b - dot, b + dot]: then *value is it (of
 * magnitude below 2^28).  Such a channel's output is that value plus
 * the output offset whatever its sum (a zero multiplier, or a shift its
 * sums cannot reach across a rounding step): the DSP paths compute it
 * as a channel of zero weights.
 */
TA_INLINE int ta_requant_const(int32_t b, uint32_t dot, int32_t mult, int32_t shift,
                               int32_t *value) {
  const int64_t lo = (int64_t)b - dot, hi = (int64_t)b + dot;
  if (mult == 0) {
    *value = 0;
    return 1;
  }
  if (mult < 0 || shift >= 0 || shift < -31 || lo < INT32_MIN || hi > INT32_MAX)
    return 0;
  const int32_t v = ta_requant_double((int32_t)lo, mult, shift);
  if (v != ta_requant_double((int32_t)hi, mult, shift) || v >= (1 << 28) || v <= -(1 << 28))
    return 0;
  *value = v;
  return 1;
}

/*
 * A channel whose double-rounding requantization by (mult, shift), a
 * right shift, takes exactly two values over the sums [b - dot, b + dot]:
 * v below a step at t, v + 1 from t on.  Its
 * output is then, for every sum x of the range,
 *
 *   floor((x - [x < 0] + c) / 2^e) + 0 = requant(x) + off,
 *   c = 2^e (v + 1 + off) - (t - [t < 0]),
 *
 * with 2^e at least the distance from t to either end (x - [x < 0] is
 * strictly increasing, so it passes t - [t < 0] exactly at t).  Returns
 * 1 with c and e when every value on the way fits int32, else 0.  The
 * DSP paths use it where the usual form's offset does not fit (a large
 * shift with a large bias): ta_conv2d_fold_dsp_s8 with SMMLAR's
 * multiplier 0 (c + x), the 3 x 3 depthwise path with 2^31 - 1 (c + x
 * for its doubled sums, which must then lie within 2^30 of 0).
 */
TA_INLINE int ta_requant_step(int32_t b, uint32_t dot, int32_t mult, int32_t shift, int32_t off,
                              int32_t *c, int32_t *e) {
  const int64_t lo = (int64_t)b - dot, hi = (int64_t)b + dot;
  if (mult <= 0 || shift >= 0 || shift < -31 || lo < INT32_MIN || hi > INT32_MAX)
    return 0;
  const int32_t v = ta_requant_double((int32_t)lo, mult, shift);
  if (ta_requant_double((int32_t)hi, mult, shift) != v + 1)
    return 0;
  int64_t a = lo, t = hi; /* requant(a) = v, requant(t) = v + 1 */
  while (t - a > 1) {
    const int64_t mid = a + (t - a) / 2;
    if (ta_requant_double((int32_t)mid, mult, shift) == v)
      a = mid;
    else
      t = mid;
  }
  int32_t k = 1;
  while (k < 30 && ((INT64_C(1) << k) <= hi - t || (INT64_C(1) << k) < t - lo))
    k++;
  const int64_t t1 = t - (t < 0), cc = (int64_t)(v + 1 + off) * (INT64_C(1) << k) - t1;
  const int64_t lo1 = lo - (lo < 0), hi1 = hi - (hi < 0);
  if (k >= 30 || cc < INT32_MIN || cc > INT32_MAX || lo1 + cc < INT32_MIN || hi1 + cc > INT32_MAX)
    return 0;
  *c = (int32_t)cc;
  *e = k;
  return 1;
}

/* |b| + dot, saturated to 2^32 - 1: the largest magnitude of a sum
 * started at b with products of at most dot in all. */
TA_INLINE uint32_t ta_sum_bound(int32_t b, uint32_t dot) {
  const uint64_t v = (uint64_t)(b < 0 ? 0u - (uint32_t)b : (uint32_t)b) + dot;
  return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

/* Whether the requantization by (mult, shift) of sums up to |b| + dot
 * fits the doubled SMMLAR form with the output offset off inside the
 * rounding addend: twice the bound below 2^31, ta_requant_mmla_ok(),
 * and the result before the shift, q + 2 + 2^(e-1) + |off| 2^e, below
 * 2^31. */
TA_INLINE int ta_requant_mmla_doubled_fits(int32_t b, uint32_t dot, int32_t mult, int32_t shift,
                                           int32_t off) {
  const uint64_t bound = (uint64_t)(b < 0 ? 0u - (uint32_t)b : (uint32_t)b) + dot;
  if (bound >= UINT64_C(0x40000000) || !ta_requant_mmla_ok((uint32_t)bound, mult, shift))
    return 0;
  const uint32_t e = (uint32_t)-shift;
  const uint64_t aoff = (uint64_t)(off < 0 ? -off : off);
  const uint64_t q1 = (bound * (uint32_t)mult) >> 31;
  return q1 + 2 + ((uint64_t)1 << (e - 1)) + (aoff << e) < UINT64_C(0x80000000);
}

TA_INLINE int32_t ta_requant_fixed(int32_t x, int32_t mult, int32_t shift, int32_t rounding) {
  return rounding == TA_ROUND_SINGLE ? ta_requant_single(x, mult, shift)
                                     : ta_requant_double(x, mult, shift);
}

TA_INLINE int32_t ta_requant(int32_t x, int32_t mult, int32_t shift, int32_t rounding) {
  if (rounding == TA_ROUND_ORT)
    return ta_requant_ort(x, mult);
  return ta_requant_fixed(x, mult, shift, rounding);
}

/* MultiplyByQuantizedMultiplierSmallerThanOneExp (shift <= 0).  With
 * double rounding it is RoundingDivideByPOT(SRDHM(x, m), -shift), which is
 * what ta_requant_double computes for shift <= 0. */
TA_INLINE int32_t ta_requant_le1(int32_t x, int32_t mult, int32_t shift, int32_t rounding) {
  return ta_requant(x, mult, shift, rounding);
}

/* MultiplyByQuantizedMultiplierGreaterThanOne (shift >= 0): with double
 * rounding SRDHM(x * 2^shift, m), no final rounding shift. */
TA_INLINE int32_t ta_requant_ge1(int32_t x, int32_t mult, int32_t shift, int32_t rounding) {
  if (rounding == TA_ROUND_SINGLE)
    return ta_requant_single(x, mult, shift);
  return ta_srdhm(ta_wrap_shl(x, (int)shift), mult);
}

/* exp(a) for a in [-1/4, 0), Q0.31 in and out
 * (exp_on_interval_between_negative_one_quarter_and_0_excl). */
TA_INLINE int32_t ta_exp_on_interval(int32_t a) {
  const int32_t constant_term = 1895147668; /* exp(-1/8) */
  const int32_t one_third = 715827883;
  int32_t x = ta_wrap_add(a, 1 << 28); /* a + 1/8 */
  int32_t x2 = ta_srdhm(x, x);
  int32_t x3 = ta_srdhm(x2, x);
  int32_t x4 = ta_srdhm(x2, x2);
  int32_t x4_over_4 = ta_rdbpot(x4, 2);
  int32_t poly = ta_rdbpot(ta_wrap_add(ta_srdhm(ta_wrap_add(x4_over_4, x3), one_third), x2), 1);
  return ta_wrap_add(constant_term, ta_srdhm(constant_term, ta_wrap_add(x, poly)));
}

/* exp_on_negative_values for a Q5.26 input a <= 0; result Q0.31. */
TA_INLINE int32_t ta_exp_on_negative_values_5(int32_t a) {
  const int frac = 26;
  const int32_t quarter = (int32_t)1 << (frac - 2);
  int32_t a_mod = ta_wrap_sub(a & (quarter - 1), quarter);
  int32_t result = ta_exp_on_interval(ta_sat_shl(a_mod, 5)); /* Rescale<0> */
  int32_t remainder = ta_wrap_sub(a_mod, a);
  /* exp(-1/4), exp(-1/2), exp(-1), ... exp(-16), Q0.31: one multiply per
   * bit of the remainder from bit frac - 2 up (a loop: one copy of the
   * multiply in the code). */
  static const int32_t steps[7] = {1672461947, 1302514674, 790015084, 290630308,
                                   39332535,   720401,     242};
  for (int k = 0; k < 7; k++)
    if (remainder & ((int32_t)1 << (frac - 2 + k)))
      result = ta_srdhm(result, steps[k]);
  if (a == 0)
    result = INT32_MAX;
  return result;
}

/* one_over_one_plus_x_for_x_in_0_1: 1 / (1 + a) for a in [0, 1), Q0.31
 * in and out (Newton-Raphson, three steps, in Q2.29). */
TA_INLINE int32_t ta_one_over_one_plus_x(int32_t a) {
  int32_t half_den = ta_rounding_half_sum(a, INT32_MAX);
  int32_t x = ta_wrap_add(1515870810, ta_srdhm(half_den, -1010580540)); /* 48/17 - 32/17 d */
  for (int i = 0; i < 3; i++) {
    int32_t hd_x = ta_srdhm(half_den, x);
    int32_t one_minus = ta_wrap_sub((int32_t)1 << 29, hd_x);
    x = ta_wrap_add(x, ta_sat_shl(ta_srdhm(x, one_minus), 2));
  }
  return ta_sat_shl(x, 1);
}

/* Count of leading zero bits of a 32-bit value (32 for 0). */
TA_INLINE int ta_clz32(uint32_t x) {
#if defined(__GNUC__)
  return x ? __builtin_clz(x) : 32;
#else
  int n = 0;
  if (!x)
    return 32;
  while (!(x & 0x80000000u)) {
    x <<= 1;
    n++;
  }
  return n;
#endif
}

/* GetReciprocal: for x > 0 in Q(int_digits).(31 - int_digits), a Q0.31
 * value s and *bits_over_unit such that 1 / x = s * 2^-bits_over_unit. */
TA_INLINE int32_t ta_get_reciprocal(int32_t x, int int_digits, int *bits_over_unit) {
  int headroom_plus_one = ta_clz32((uint32_t)x);
  *bits_over_unit = int_digits - headroom_plus_one;
  int32_t shifted_minus_one =
      (int32_t)(((uint32_t)x << headroom_plus_one) - ((uint32_t)1 << 31));
  return ta_one_over_one_plus_x(shifted_minus_one);
}

TA_INLINE int32_t ta_clamp_i32(int32_t v, int32_t lo, int32_t hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

#endif
