/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cast.h - the element conversions of CAST (private to runtime/cast/),
 * as C++'s static_cast does them on the hosts TFLite runs on:
 *   integer -> float: the nearest float;
 *   float -> integer: truncation toward zero to int32 (saturated beyond
 *     int32, NaN -> 0, where C++ leaves it undefined), then as int32 ->
 *     the narrower type;
 *   integer -> integer: two's complement wrap-around.
 */
#ifndef TA_CAST_H
#define TA_CAST_H

#include <math.h>
#include <string.h>

#include "ta_kernels.h"

static inline int32_t ta_f32_to_i32(float x) {
  if (x != x)
    return 0;
  if (x >= 2147483648.0f)
    return INT32_MAX;
  if (x <= -2147483648.0f)
    return INT32_MIN;
  return (int32_t)x;
}

static inline int8_t ta_wrap_s8(int32_t v) { return (int8_t)(uint8_t)(uint32_t)v; }
static inline uint8_t ta_wrap_u8(int32_t v) { return (uint8_t)(uint32_t)v; }
static inline int16_t ta_wrap_s16(int32_t v) { return (int16_t)(uint16_t)(uint32_t)v; }

/* IEEE binary16 (float16, kept as its 16 bits) -> float: exact. */
static inline float ta_f16_to_f32(uint16_t h) {
  const int e = (h >> 10) & 31;
  const int f = h & 1023;
  float v;
  if (e == 31)
    v = f ? NAN : HUGE_VALF;
  else /* subnormal f * 2^-24, normal (1024 + f) * 2^(e - 25) */
    v = ldexpf((float)(e ? (f | 1024) : f), (e ? e : 1) - 25);
  return (h & 0x8000) ? -v : v;
}

/* double -> float16, to nearest, ties to even (numpy's astype(float16));
 * from 65520 on infinity, NaN a quiet NaN.  A float converts exactly to
 * double first, so this is float -> float16 too. */
static inline uint16_t ta_f64_to_f16(double x) {
  if (x != x)
    return 0x7e00;
  const uint16_t sign = signbit(x) ? 0x8000 : 0;
  const double a = fabs(x);
  if (a >= 65520.0)
    return sign | 0x7c00;
  int e;
  (void)frexp(a, &e);
  int E = e - 1; /* a in [2^E, 2^(E + 1)) */
  if (E < -14)
    E = -14; /* subnormals: units of 2^-24 */
  const double q = ldexp(a, 10 - E); /* a in units of the last place, < 2048 */
  double f = floor(q);
  const double d = q - f;
  if (d > 0.5 || (d == 0.5 && fmod(f, 2.0) != 0.0))
    f += 1.0;
  int32_t m = (int32_t)f;
  if (m >= 2048) {
    m >>= 1;
    E++;
  }
  if (m < 1024)
    return (uint16_t)(sign | m); /* zero or subnormal */
  if (E > 15)
    return sign | 0x7c00;
  return (uint16_t)(sign | ((E + 15) << 10) | (m - 1024));
}

#endif
