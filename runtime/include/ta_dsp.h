/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_dsp.h - helpers for the kernels' paths on Arm cores with the DSP
 * extension (Cortex-M4, M7, M33, M55: __ARM_FEATURE_DSP), internal to
 * the kernel library.  Elsewhere this header defines nothing and the
 * kernels take their portable C paths.
 *
 * The DSP extension multiplies two pairs of int16 in one instruction and
 * adds both products to an accumulator (SMLAD: acc += a.lo * b.lo +
 * a.hi * b.hi).  Int8 data reach that form through SXTB16, which
 * sign-extends bytes 0 and 2 of a word into the two halves of the
 * result; the same on the word rotated by 8 bits gives bytes 1 and 3.
 * Four int8 values x0 x1 x2 x3 thus become the pairs (x0, x2) and
 * (x1, x3): a dot product stays correct as long as both operands are
 * widened the same way, so the kernels keep every int16 buffer in that
 * order ("pair order": within each group of 4, x0 x2 x1 x3).
 *
 * Everything here is an ACLE intrinsic from <arm_acle.h> (part of the
 * compiler) or plain C, except: the SXTB16 with a rotated operand, which
 * GCC's arm_acle.h lacks, is one instruction of inline assembly with GCC
 * and Clang, and so are the hottest inner loops (TA_DSP_GEMM_ASM; define
 * TA_NO_ASM for the C versions, TA_NO_DSP for the portable paths).
 * Loads of int8 data are word loads at any alignment, which the Cortex-M
 * cores allow unless the firmware sets CCR.UNALIGN_TRP.
 */
#ifndef TA_DSP_H
#define TA_DSP_H

/* Little-endian cores only: results are packed into words byte by byte
 * in memory order. */
#if defined(__ARM_FEATURE_DSP) && !defined(__ARM_BIG_ENDIAN) && !defined(TA_NO_DSP)
#define TA_DSP 1

#include <arm_acle.h>
#include <stdint.h>
#include <string.h>

#include "ta_fixedpoint.h"
#include "ta_types.h"

/* Unaligned 32-bit loads and stores (one LDR/STR: M-profile cores with
 * the DSP extension allow unaligned word access). */
static inline uint32_t ta_ld32(const void *p) {
  uint32_t v;
  memcpy(&v, p, 4);
  return v;
}
static inline void ta_st32(void *p, uint32_t v) { memcpy(p, &v, 4); }

/* The same at an address known to be a multiple of 4 (lets the compiler
 * pair loads into LDRD, which needs the alignment). */
#if defined(__GNUC__)
#define TA_ALIGNED4(p) __builtin_assume_aligned((p), 4)
#else
#define TA_ALIGNED4(p) (p)
#endif
static inline uint32_t ta_ld32a(const void *p) {
  uint32_t v;
  memcpy(&v, TA_ALIGNED4(p), 4);
  return v;
}
static inline void ta_st32a(void *p, uint32_t v) { memcpy(TA_ALIGNED4(p), &v, 4); }

/* (sign-extended byte 0, byte 2) and (byte 1, byte 3) of v. */
static inline int32_t ta_sxtb16_even(uint32_t v) { return __sxtb16((int32_t)v); }
static inline int32_t ta_sxtb16_odd(uint32_t v) {
#if defined(__GNUC__)
  int32_t r;
  __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(v));
  return r;
#else
  return __sxtb16((int32_t)((v >> 8) | (v << 24)));
#endif
}

/* The same with a pair of int16 added: (a.lo + byte 0, a.hi + byte 2),
 * (a.lo + byte 1, a.hi + byte 3). */
static inline int32_t ta_sxtab16_even(int32_t a, uint32_t v) {
  return __sxtab16(a, (int32_t)v);
}
static inline int32_t ta_sxtab16_odd(int32_t a, uint32_t v) {
#if defined(__GNUC__)
  int32_t r;
  __asm__("sxtab16 %0, %1, %2, ror #8" : "=r"(r) : "r"(a), "r"(v));
  return r;
#else
  return __sxtab16(a, (int32_t)((v >> 8) | (v << 24)));
#endif
}

/* sum_{i < n4} w[i] (x[i] + x_off) over the first n4 taps (a multiple
 * of 4) of int8 w and x, x_off within [-128, 128] (the offset of an
 * int8 zero point, so x + x_off fits the int16 lanes): per group of 4
 * the input word widened once with its offset added (SXTB16, SADD16),
 * each row's word widened, two SMLADs per row; the sums wrap as
 * TFLite's int32 sums do.  Two rows w0, w1 against the same input, into
 * a[0] and a[1] (the LSTM's gates, the SVDF's feature filters). */
static inline void ta_dot2_off_s8(const int8_t *w0, const int8_t *w1, const int8_t *x,
                                  int32_t x_off, int32_t n4, int32_t a[2]) {
  const int32_t xo2 = (int32_t)((uint16_t)x_off * UINT32_C(0x10001));
  int32_t s0 = 0, s1 = 0;
  for (const int8_t *end = x + n4; x < end; x += 4, w0 += 4, w1 += 4) {
    const uint32_t xv = ta_ld32(x), v0 = ta_ld32(w0), v1 = ta_ld32(w1);
    const int32_t xe = (int32_t)__sadd16(ta_sxtb16_even(xv), xo2);
    const int32_t xd = (int32_t)__sadd16(ta_sxtb16_odd(xv), xo2);
    s0 = __smlad(ta_sxtb16_even(v0), xe, s0);
    s0 = __smlad(ta_sxtb16_odd(v0), xd, s0);
    s1 = __smlad(ta_sxtb16_even(v1), xe, s1);
    s1 = __smlad(ta_sxtb16_odd(v1), xd, s1);
  }
  a[0] = s0;
  a[1] = s1;
}

/* The hottest inner loops are assembly with GCC or Clang (optimizing,
 * no PIC register), as compilers schedule them into more registers than
 * the core has and spill; elsewhere, or with TA_NO_ASM, the same in C. */
#if defined(__GNUC__) && defined(__OPTIMIZE__) && !defined(__PIC__) && !defined(TA_NO_ASM)
#define TA_DSP_GEMM_ASM 1
#endif

/* One channel's requantization plus the output offset, laid out for
 * two LDRD: ta_requant_double_rsc(acc, mult, e, round) + off.  A zero
 * multiplier (a channel whose filter is all zeros) gives off whatever its
 * shift; it is computed as e = 1. */
typedef struct {
  int64_t round; /* ta_requant_rs_round(e) */
  int32_t mult;
  int32_t sh;    /* e - 1, e = -shift in 1..31 */
  int32_t off;
} ta_dsp_rq;

static inline ta_dsp_rq ta_dsp_rq_make(int32_t mult, int32_t shift, int32_t off) {
  /* sh = e - 1 = ~shift; round = 2^30 + 2^(30+e): high word 2^(e-2)
   * (0 for e = 1), low word 2^30 (3 2^30 for e = 1). */
  ta_dsp_rq r;
  const int32_t sh = mult ? ~shift : 0;
  const uint32_t lo = UINT32_C(0x40000000) | (uint32_t)(sh == 0) << 31;
  const uint32_t hi = (UINT32_C(1) << sh) >> 1;
  r.round = (int64_t)(((uint64_t)hi << 32) | lo);
  r.mult = mult;
  r.sh = sh;
  r.off = off;
  return r;
}

/* requant(acc) + off. */
static inline int32_t ta_dsp_requant(int32_t acc, const ta_dsp_rq *r) {
  const int64_t v = (int64_t)acc * r->mult + r->round - ((int64_t)(acc < 0) << 31);
  return ((int32_t)(v >> 32) >> r->sh) + r->off;
}

/* The same in SMMLAR form (ta_requant_double_mmla(), ta_fixedpoint.h):
 * SMMLAR, ADD, SUB, ASR per value, the offset added after.  Only where
 * ta_quant.mmla is set (ta_quant_mmla_ok(), decided by the compiler). */
typedef ta_requant_mmla ta_dsp_rqm;

static inline ta_dsp_rqm ta_dsp_rqm_make(int32_t mult, int32_t shift) {
  return ta_requant_mmla_make(mult, shift);
}

static inline int32_t ta_dsp_requant_m(int32_t acc, const ta_dsp_rqm *r, int32_t off) {
#if defined(__GNUC__)
  int32_t v;
  __asm__("smmlar %0, %1, %2, %3" : "=r"(v) : "r"(acc), "r"(r->m2), "r"(r->add));
  return ((int32_t)((uint32_t)v + (uint32_t)acc - ((uint32_t)acc >> 31)) >> r->e) + off;
#else
  return ta_requant_double_mmla(acc, r) + off;
#endif
}

/* SMMLAR: c + (a * b + 2^31) / 2^32, the 64-bit product rounded to its
 * high word. */
static inline int32_t ta_smmlar(int32_t a, int32_t b, int32_t c) {
#if defined(__GNUC__)
  int32_t r;
  __asm__("smmlar %0, %1, %2, %3" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  return r;
#else
  return (int32_t)((uint32_t)c + (uint32_t)(((int64_t)a * b + INT64_C(0x80000000)) >> 32));
#endif
}

/* SMMULR: (a * b + 2^31) / 2^32, the 64-bit product rounded to its high
 * word (SMMLAR without the accumulator register). */
static inline int32_t ta_smmulr(int32_t a, int32_t b) {
#if defined(__GNUC__)
  int32_t r;
  __asm__("smmulr %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
  return r;
#else
  return (int32_t)(((int64_t)a * b + INT64_C(0x80000000)) >> 32);
#endif
}

/* SSAT: x saturated to n bits (n a constant).  arm_acle.h's ta_ssat()
 * converts the builtin's result implicitly (a -Wsign-conversion warning
 * in GCC 12); the builtin with a cast is the same instruction. */
#define ta_ssat(x, n) ((int32_t)__builtin_arm_ssat((int32_t)(x), (n)))

/* ta_requant_double_mmla() with one SMMLAR: m = {M, c, e} of a record
 * (ta_pack.h; the output offset in c). */
static inline int32_t ta_dsp_requant_rec(int32_t x, const int32_t *m) {
  return (int32_t)((uint32_t)ta_smmlar(x, m[0], m[1]) + (uint32_t)x - ((uint32_t)x >> 31)) >>
         m[2];
}

/* The low half of a, the low half of b as the high half: one PKHBT. */
static inline uint32_t ta_pkhbt(uint32_t a, uint32_t b) {
#if defined(__GNUC__)
  uint32_t r;
  __asm__("pkhbt %0, %1, %2, lsl #16" : "=r"(r) : "r"(a), "r"(b));
  return r;
#else
  return (a & 0xffff) | (b << 16);
#endif
}

/* The high half of a, the high half of b as the low half: one PKHTB. */
static inline uint32_t ta_pkhtb(uint32_t a, uint32_t b) {
#if defined(__GNUC__)
  uint32_t r;
  __asm__("pkhtb %0, %1, %2, asr #16" : "=r"(r) : "r"(a), "r"(b));
  return r;
#else
  return (a & 0xffff0000) | (b >> 16);
#endif
}

/* Four int32 results to four int8 in one word (little-endian, y0
 * first), each saturated to int8. */
static inline uint32_t ta_dsp_sat4(int32_t y0, int32_t y1, int32_t y2, int32_t y3) {
  const uint32_t s0 = (uint32_t)ta_ssat(y0, 8), s1 = (uint32_t)ta_ssat(y1, 8);
  const uint32_t s2 = (uint32_t)ta_ssat(y2, 8), s3 = (uint32_t)ta_ssat(y3, 8);
  return (ta_pkhbt(s0, s2) & UINT32_C(0x00ff00ff)) |
         ((ta_pkhbt(s1, s3) & UINT32_C(0x00ff00ff)) << 8);
}

/* Each int8 of v clamped to [lo, hi], four at a time (SSUB8 sets a flag
 * per byte, SEL picks per byte); lo4, hi4 hold the bounds in every
 * byte.  Only needed when the activation range is narrower than int8's. */
static inline uint32_t ta_dsp_clamp4(uint32_t v, uint32_t lo4, uint32_t hi4) {
  (void)__ssub8((int32_t)v, (int32_t)lo4);
  v = __sel(v, lo4);
  (void)__ssub8((int32_t)v, (int32_t)hi4);
  return __sel(hi4, v);
}

static inline void ta_st16(void *p, uint32_t v) {
  const uint16_t h = (uint16_t)v;
  memcpy(p, &h, 2);
}

/* A byte repeated in a word. */
static inline uint32_t ta_dsp_bytes4(int32_t b) { return (uint8_t)b * UINT32_C(0x01010101); }

#endif /* __ARM_FEATURE_DSP */
#endif
