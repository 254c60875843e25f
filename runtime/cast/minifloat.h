/* SPDX-License-Identifier: Apache-2.0 */
/*
 * minifloat.h - ONNX's small number types, element by element (private
 * to runtime/cast/), as ONNX's reference implementation converts them:
 *
 *   bfloat16       the top 16 bits of a float32; from float32 to nearest,
 *                  ties to even, NaN -> 0x7fc0.
 *   float8e4m3fn   bias 7, no infinity, NaN = s.1111.111, max 448.
 *   float8e4m3fnuz bias 8, no infinity, no -0, NaN = 0x80, max 240.
 *   float8e5m2     bias 15, IEEE-like: infinity s.11111.00, max 57344,
 *                  NaN from float -> s.11111.10.
 *   float8e5m2fnuz bias 16, no infinity, no -0, NaN = 0x80, max 57344.
 *   float8e8m0     an exponent only: 2^(code - 127), 0xff = NaN; from
 *                  float32 by the float's exponent field, plus one when
 *                  round_mode "up" and any mantissa bit is set, or
 *                  "nearest" and the top mantissa bit is set ("down":
 *                  never); beyond 0xfe and infinity: 0xfe when
 *                  saturating, else NaN.
 *   float4e2m1     bias 1, values 0, 0.5, 1, 1.5, 2, 3, 4, 6; no
 *                  infinity or NaN: beyond 6 (and infinity) +-6, NaN ->
 *                  0x8.
 *   int4, uint4, int2, uint2  from a float: truncated toward zero (as
 *                  every float -> integer CAST, cast.h), then the low 4 or
 *                  2 bits (two's complement wrap-around, as ONNX's
 *                  reference writes -9 as int4 7).
 *
 * Float -> float8 rounds the exact value to nearest, ties to even, with
 * subnormals.  A result beyond the largest finite value (after rounding)
 * and infinity become the largest finite value when saturate is set;
 * otherwise infinity (e5m2) or NaN (the others).  NaN stays NaN.  The
 * fnuz types write -0 (and negative values rounding to 0) as 0.
 *
 * Packing (ONNX's): 4-bit elements two to a byte, element 2i in the low
 * nibble; 2-bit elements four to a byte, element 4i + j in bits 2j..2j+1;
 * the unused bits of the last byte are 0.
 */
#ifndef TA_MINIFLOAT_H
#define TA_MINIFLOAT_H

#include "cast.h"

/* The float8 and float4 layouts: exponent bits, mantissa bits, bias, and
 * how the all-ones exponent and NaN are spelled. */
enum { TA_MF_IEEE, TA_MF_FN, TA_MF_FNUZ, TA_MF_FINITE };

typedef struct {
  int ebits, mbits, bias, kind;
} ta_minifloat;

static const ta_minifloat ta_mf_e4m3fn = {4, 3, 7, TA_MF_FN};
static const ta_minifloat ta_mf_e4m3fnuz = {4, 3, 8, TA_MF_FNUZ};
static const ta_minifloat ta_mf_e5m2 = {5, 2, 15, TA_MF_IEEE};
static const ta_minifloat ta_mf_e5m2fnuz = {5, 2, 16, TA_MF_FNUZ};
static const ta_minifloat ta_mf_e2m1 = {2, 1, 1, TA_MF_FINITE};

/* code -> float: exact. */
static inline float ta_mf_decode(const ta_minifloat *f, uint32_t code) {
  const int nb = f->ebits + f->mbits;
  const uint32_t sign = (code >> nb) & 1;
  const int emax = (1 << f->ebits) - 1;
  const int e = (int)(code >> f->mbits) & emax;
  const int m = (int)code & ((1 << f->mbits) - 1);
  /* NaN keeps its sign bit (fnuz's 0x80 is a negative NaN, as numpy has it) */
  if (f->kind == TA_MF_FNUZ && code == (1u << nb))
    return -NAN;
  if (f->kind == TA_MF_IEEE && e == emax)
    return m ? (sign ? -NAN : NAN) : (sign ? -HUGE_VALF : HUGE_VALF);
  if (f->kind == TA_MF_FN && e == emax && m == (1 << f->mbits) - 1)
    return sign ? -NAN : NAN;
  /* subnormal m * 2^(1 - bias - mbits), normal (2^mbits + m) * 2^(e - bias - mbits) */
  const float v = ldexpf((float)(e ? m | (1 << f->mbits) : m),
                         (e ? e : 1) - f->bias - f->mbits);
  return sign ? -v : v;
}

/* float -> code, to nearest (ties to even), saturating or not (above). */
static inline uint32_t ta_mf_encode(const ta_minifloat *f, float x, int saturate) {
  const int nb = f->ebits + f->mbits;
  const uint32_t sign = signbit(x) ? 1u << nb : 0u;
  const int emax = (1 << f->ebits) - 1;
  const uint32_t mmask = (1u << f->mbits) - 1;
  uint32_t max; /* the largest finite magnitude */
  if (f->kind == TA_MF_IEEE)
    max = ((uint32_t)(emax - 1) << f->mbits) | mmask;
  else if (f->kind == TA_MF_FN)
    max = ((uint32_t)emax << f->mbits) | (mmask - 1);
  else
    max = ((uint32_t)emax << f->mbits) | mmask;
  const uint32_t nan = f->kind == TA_MF_FNUZ     ? 1u << nb
                       : f->kind == TA_MF_FN     ? sign | ((1u << nb) - 1)
                       : f->kind == TA_MF_IEEE   ? sign | ((uint32_t)emax << f->mbits) | (1u << (f->mbits - 1))
                                                 : 1u << nb; /* float4e2m1 */
  const uint32_t over = saturate || f->kind == TA_MF_FINITE ? sign | max
                        : f->kind == TA_MF_IEEE ? sign | ((uint32_t)emax << f->mbits)
                                                : nan;
  if (x != x)
    return nan;
  if (isinf(x))
    return over;
  const double a = fabs((double)x);
  uint32_t mag = 0;
  if (a > 0.0) {
    int e;
    (void)frexp(a, &e);
    int E = e - 1; /* a in [2^E, 2^(E + 1)) */
    if (E < 1 - f->bias)
      E = 1 - f->bias; /* subnormals: units of 2^(1 - bias - mbits) */
    if (E > emax + 1 - f->bias)
      return over; /* far beyond the range (and q below would be huge) */
    const double q = ldexp(a, f->mbits - E); /* in units of the last place */
    double r = floor(q);
    const double d = q - r;
    if (d > 0.5 || (d == 0.5 && fmod(r, 2.0) != 0.0))
      r += 1.0;
    uint32_t mant = (uint32_t)r;
    if (mant >= 2u << f->mbits) {
      mant >>= 1;
      E++;
    }
    if (mant < 1u << f->mbits)
      mag = mant; /* zero or subnormal */
    else
      mag = ((uint32_t)(E + f->bias) << f->mbits) | (mant & mmask);
    if (mag > max)
      return over;
  }
  if (f->kind == TA_MF_FNUZ && mag == 0)
    return 0;
  return sign | mag;
}

static inline uint32_t ta_to_e4m3fn(float x, int sat) { return ta_mf_encode(&ta_mf_e4m3fn, x, sat); }
static inline uint32_t ta_to_e4m3fnuz(float x, int sat) { return ta_mf_encode(&ta_mf_e4m3fnuz, x, sat); }
static inline uint32_t ta_to_e5m2(float x, int sat) { return ta_mf_encode(&ta_mf_e5m2, x, sat); }
static inline uint32_t ta_to_e5m2fnuz(float x, int sat) { return ta_mf_encode(&ta_mf_e5m2fnuz, x, sat); }
static inline uint32_t ta_to_e2m1(float x) { return ta_mf_encode(&ta_mf_e2m1, x, 1); }
static inline float ta_from_e4m3fn(uint32_t c) { return ta_mf_decode(&ta_mf_e4m3fn, c); }
static inline float ta_from_e4m3fnuz(uint32_t c) { return ta_mf_decode(&ta_mf_e4m3fnuz, c); }
static inline float ta_from_e5m2(uint32_t c) { return ta_mf_decode(&ta_mf_e5m2, c); }
static inline float ta_from_e5m2fnuz(uint32_t c) { return ta_mf_decode(&ta_mf_e5m2fnuz, c); }
static inline float ta_from_e2m1(uint32_t c) { return ta_mf_decode(&ta_mf_e2m1, c); }

/* float8e8m0; round_mode 0 up, 1 down, 2 nearest. */
static inline uint32_t ta_to_e8m0(float x, int sat, int round_mode) {
  uint32_t b;
  memcpy(&b, &x, 4);
  const uint32_t e = (b >> 23) & 0xff, m = b & 0x7fffff;
  if (x != x)
    return 0xff;
  if (e == 0xff)
    return sat ? 0xfe : 0xff;
  const uint32_t up = round_mode == 0 ? m != 0 : round_mode == 2 ? m >= 0x400000 : 0;
  const uint32_t c = e + up;
  if (c > 0xfe)
    return sat ? 0xfe : 0xff;
  return c;
}

static inline float ta_from_e8m0(uint32_t c) {
  return c == 0xff ? NAN : ldexpf(1.0f, (int)c - 127);
}

/* bfloat16. */
static inline uint32_t ta_to_bf16(float x) {
  uint32_t b;
  memcpy(&b, &x, 4);
  if (x != x)
    return 0x7fc0;
  return (b + 0x7fffu + ((b >> 16) & 1u)) >> 16; /* overflow carries into infinity */
}

static inline float ta_from_bf16(uint32_t c) {
  const uint32_t b = c << 16;
  float x;
  memcpy(&x, &b, 4);
  return x;
}

/* The sub-byte integers: float -> the low bits, bits -> value. */
static inline uint32_t ta_to_s4(float x) {
  const int32_t v = ta_f32_to_i32(x);
  return (uint32_t)v & 15u;
}
static inline uint32_t ta_to_u4(float x) {
  const int32_t v = ta_f32_to_i32(x);
  return (uint32_t)v & 15u;
}
static inline uint32_t ta_to_s2(float x) {
  const int32_t v = ta_f32_to_i32(x);
  return (uint32_t)v & 3u;
}
static inline uint32_t ta_to_u2(float x) {
  const int32_t v = ta_f32_to_i32(x);
  return (uint32_t)v & 3u;
}
static inline int32_t ta_int_s4(uint32_t c) { return (int32_t)(c & 7u) - (int32_t)(c & 8u); }
static inline int32_t ta_int_u4(uint32_t c) { return (int32_t)c; }
static inline int32_t ta_int_s2(uint32_t c) { return (int32_t)(c & 1u) - (int32_t)(c & 2u); }
static inline int32_t ta_int_u2(uint32_t c) { return (int32_t)c; }
static inline float ta_from_s4(uint32_t c) {
  const int32_t v = ta_int_s4(c);
  return (float)v;
}
static inline float ta_from_u4(uint32_t c) {
  const int32_t v = ta_int_u4(c);
  return (float)v;
}
static inline float ta_from_s2(uint32_t c) {
  const int32_t v = ta_int_s2(c);
  return (float)v;
}
static inline float ta_from_u2(uint32_t c) {
  const int32_t v = ta_int_u2(c);
  return (float)v;
}

/* Element i of `bits`-bit codes (2, 4, 8 or 16) at p. */
static inline uint32_t ta_code_get(const void *p, int bits, int32_t i) {
  const unsigned char *b = (const unsigned char *)p;
  if (bits == 16)
    return (uint32_t)b[2 * (size_t)i] | (uint32_t)b[2 * (size_t)i + 1] << 8;
  if (bits == 8)
    return b[i];
  const int per = 8 / bits;
  return (b[i / per] >> (bits * (i % per))) & ((1u << bits) - 1);
}

/* Stores element i; the first element of a byte writes the whole byte
 * (so the last byte's unused bits are 0), the others OR themselves in. */
static inline void ta_code_put(void *p, int bits, int32_t i, uint32_t c) {
  unsigned char *b = (unsigned char *)p;
  if (bits == 16) {
    b[2 * (size_t)i] = (unsigned char)(c & 0xff);
    b[2 * (size_t)i + 1] = (unsigned char)(c >> 8);
    return;
  }
  if (bits == 8) {
    b[i] = (unsigned char)c;
    return;
  }
  const int per = 8 / bits, k = i % per;
  if (k == 0)
    b[i / per] = (unsigned char)c;
  else
    b[i / per] = (unsigned char)(b[i / per] | (c << (bits * k)));
}

/* float -> float16 bits as ta_f64_to_f16(), NaN with its sign kept. */
static inline uint32_t ta_f32_to_f16_bits(float x) {
  if (x != x)
    return signbit(x) ? 0xfe00u : 0x7e00u;
  return ta_f64_to_f16((double)x);
}

static inline float ta_f16_bits_get(const void *p, int32_t i) {
  return ta_f16_to_f32((uint16_t)ta_code_get(p, 16, i));
}

#endif
