/* SPDX-License-Identifier: Apache-2.0 */
/*
 * quant_common.h - per-element QUANTIZE / DEQUANTIZE arithmetic
 * (private to runtime/quantize/).
 *
 * ta_affine_q: tflite::reference_ops::AffineQuantize,
 *   clamp((int32_t)TfLiteRound(x / scale) + zero_point, lo, hi)
 *   with the division in float and round half away from zero (roundf,
 *   computed without the C library).
 *   Values TFLite cannot convert (beyond int32, NaN) saturate here.
 *   ta_affine_q_double divides in double, as TFLite (not Micro) does
 *   for int16 outputs (ta_quantize_double_f32_s16).
 * ta_requant_q: tflite::reference_ops::Requantize,
 *   clamp(MultiplyByQuantizedMultiplier(q - in_zp, m, s) + out_zp, lo, hi).
 * Dequantize: scale * (q - zero_point) in float; TFLite computes the
 *   product in double and rounds it to float once - the product of a
 *   float and an integer below 2^24 in magnitude is exact in double, so
 *   rounding the float product once gives the same value.
 */
#ifndef TA_QUANT_COMMON_H
#define TA_QUANT_COMMON_H

#include <math.h>

#include "ta_fixedpoint.h"
#include "ta_types.h"

/* Any zero point (TA_AFFINE_Q_LOOP takes ta_affine_near_q below where
 * it lies within +-65536). */
static inline int32_t ta_affine_q(float x, float scale, int32_t zp, int32_t lo, int32_t hi) {
  const float d = x / scale;
  if (d >= -2147483648.0f && d < 2147483648.0f) {
    /* roundf(d) without the library call: truncate (in range here, so a
     * single-precision FPU converts it itself), then step away from zero
     * when the dropped fraction, d - trunc(d) (exact in float), is at
     * least one half.  Equal to roundf for every float d. */
    int32_t i = (int32_t)d;
    const float frac = d - (float)i;
    i += frac >= 0.5f ? 1 : frac <= -0.5f ? -1 : 0;
    const int64_t v = (int64_t)i + zp;
    return v < lo ? lo : v > hi ? hi : (int32_t)v;
  }
  return d > 0.0f ? hi : lo;
}

/* ta_affine_q for a zero point within +-65536, the bounds taken once per
 * call: flo = (lo - zp) - 0.5 and fhi = (hi - zp) + 0.5 (exact in float).
 * A quotient d at or beyond one of them (or NaN) rounds to that side's
 * clamp (a tie there rounds away from zero, out of range or onto the
 * bound); inside, round half away from zero is trunc(2d) - trunc(d):
 * with i = trunc(d) and f = d - i of d's sign, trunc(2d) = 2i + trunc(2f)
 * and trunc(2f) is 1, 0 or -1 as f >= 0.5, |f| < 0.5 or f <= -0.5 (2d
 * is exact, and |2d| < 2^18 here).  No compare of the fraction, no clamp
 * after. */
typedef struct {
  float scale, flo, fhi;
  int32_t zp, lo, hi;
} ta_affine_near;

/* Whether the zero point allows it; then *c for scale, zp, lo, hi. */
TA_INLINE int ta_affine_near_make(ta_affine_near *c, float scale, int32_t zp, int32_t lo,
                                  int32_t hi) {
  if (zp < -65536 || zp > 65536)
    return 0;
  c->scale = scale;
  c->zp = zp;
  c->lo = lo;
  c->hi = hi;
  c->flo = (float)(lo - zp) - 0.5f;
  c->fhi = (float)(hi - zp) + 0.5f;
  return 1;
}

TA_INLINE int32_t ta_affine_near_q(float x, const ta_affine_near *c) {
  const float d = x / c->scale;
  if (!(d > c->flo))
    return c->lo;
  if (!(d < c->fhi))
    return c->hi;
  return (int32_t)(2.0f * d) - (int32_t)d + c->zp;
}

/* out[i] = ta_affine_q(in[i], ...) for i < n, through ta_affine_near_q
 * where the zero point allows (T the output type). */
#define TA_AFFINE_Q_LOOP(T, in, out, n, scale, zp, lo, hi)                       \
  do {                                                                           \
    ta_affine_near c_;                                                           \
    if (ta_affine_near_make(&c_, scale, zp, lo, hi)) {                           \
      for (int32_t i_ = 0; i_ < (n); i_++)                                       \
        (out)[i_] = (T)ta_affine_near_q((in)[i_], &c_);                          \
    } else {                                                                     \
      for (int32_t i_ = 0; i_ < (n); i_++)                                       \
        (out)[i_] = (T)ta_affine_q((in)[i_], scale, zp, lo, hi);                 \
    }                                                                            \
  } while (0)

/* The same with the division in double (TFLite's int16 QUANTIZE). */
static inline int32_t ta_affine_q_double(float x, float scale, int32_t zp, int32_t lo,
                                         int32_t hi) {
  const double r = round((double)x / (double)scale);
  if (r >= -2147483648.0 && r < 2147483648.0) {
    const int64_t v = (int64_t)r + zp;
    return v < lo ? lo : v > hi ? hi : (int32_t)v;
  }
  return r > 0.0 ? hi : lo;
}

static inline int32_t ta_requant_q(int32_t q, const ta_requant_params *p, int32_t lo,
                                   int32_t hi) {
  const int32_t v = ta_requant(q - p->input_zero_point, p->multiplier, p->shift, p->rounding);
  return ta_clamp_i32(ta_wrap_add(v, p->output_zero_point), lo, hi);
}

/* A scale of exactly one (multiplier 2^30, shift 1: SRDHM(2 x, 2^30) = x
 * under either of TFLite's roundings, for |x| <= 2^30), as between int8
 * and uint8 of one scale: the requantization is the offset
 * out_zp - in_zp alone, for 8-bit values. */
static inline int ta_requant_is_offset(const ta_requant_params *p) {
  return p->rounding != TA_ROUND_ORT && p->multiplier == (int32_t)1 << 30 && p->shift == 1;
}

/* The loop of an 8-bit requantization: in to out (type TO) within
 * [lo, hi]. */
#define TA_REQUANT_X8_LOOP(p, in, out, TO, lo, hi)                                      \
  do {                                                                                    \
    if (ta_requant_is_offset(p)) {                                                        \
      const int32_t d = p->output_zero_point - p->input_zero_point;                       \
      for (int32_t i = 0; i < p->size; i++)                                               \
        out[i] = (TO)ta_clamp_i32((int32_t)in[i] + d, lo, hi);                            \
    } else {                                                                              \
      for (int32_t i = 0; i < p->size; i++)                                               \
        out[i] = (TO)ta_requant_q(in[i], p, lo, hi);                                      \
    }                                                                                     \
  } while (0)

#endif
