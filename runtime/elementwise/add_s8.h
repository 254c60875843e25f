/* SPDX-License-Identifier: Apache-2.0 */
/*
 * add_s8.h - the arithmetic of the int8 ADD (ta_add_s8), shared with the
 * convolution that runs a residual ADD in its epilogue
 * (ta_conv2d_fold_add_*_s8): the same constants, built once per call,
 * and the same loop over a row of elements.
 *
 * Matches tflite::reference_integer_ops::AddFunc: each input is offset,
 * shifted left by left_shift and scaled by its own multiplier
 * (MultiplyByQuantizedMultiplierSmallerThanOneExp), the two are summed,
 * scaled by the output multiplier, offset and clamped.  All shifts are
 * right shifts (the multipliers are below one), so each requantization
 * is a 64-bit multiply-add and shifts with constants computed once.
 * With the compiler's per-input tables (p->table1/table2, add_tables())
 * the input scaling is a look-up and only the sum is requantized.
 */
#ifndef TA_ADD_S8_H
#define TA_ADD_S8_H

#include "ta_dsp.h"
#include "ta_fixedpoint.h"
#include "ta_kernels.h"

/* Requantization by mult * 2^-right, double or single rounding; double
 * rounding with a right shift of at least 1 in one step
 * (ta_requant_double_rsc()). */
typedef struct {
  int64_t round, k, round1;
  int32_t m;
  int sh, right1, dbl, one;
} ta_add_rq;

TA_INLINE ta_add_rq ta_add_rq_make(int32_t mult, int32_t shift, int32_t rounding) {
  ta_add_rq r;
  r.m = mult;
  r.dbl = rounding != TA_ROUND_SINGLE;
  r.one = r.dbl && shift < 0 && mult >= 0;
  r.round1 = r.one ? ta_requant_rs_round((int)-shift) : 0;
  r.sh = r.dbl ? 31 : 31 - (int)shift;
  r.round = (int64_t)1 << (r.sh - 1);
  r.right1 = (int)-shift + 1;
  r.k = ((int64_t)1 << -shift) - 1;
  return r;
}

TA_INLINE int32_t ta_add_rq_apply(int32_t x, const ta_add_rq *r) {
  if (r->one)
    return ta_requant_double_rsc(x, r->m, r->right1 - 1, r->round1);
  const int32_t v = (int32_t)(((int64_t)x * r->m + r->round) >> r->sh);
  if (!r->dbl)
    return v;
  return (int32_t)((2 * (int64_t)v + r->k + (v >= 0)) >> r->right1);
}

/* The parameters every int8 ADD entry accepts (else TA_ERR_ARG), and the
 * negative multiplier no converter makes (TA_ERR_UNSUPPORTED). */
TA_INLINE ta_status ta_add_s8_check(const ta_add_params *p) {
  if (p->left_shift < 0 || p->left_shift > 22 || p->input1_shift > 0 || p->input2_shift > 0 ||
      p->output_shift > 0 || p->input1_shift < -31 || p->input2_shift < -31 ||
      p->output_shift < -31)
    return TA_ERR_ARG;
  if (p->input1_multiplier == INT32_MIN || p->input2_multiplier == INT32_MIN ||
      p->output_multiplier == INT32_MIN)
    return TA_ERR_UNSUPPORTED;
  return TA_OK;
}

/* One call's constants (in locals of the caller: the int8 output may
 * alias anything, so a compiler would otherwise reload the parameters
 * after every store). */
typedef struct {
  ta_add_rq r1, r2, ro;
  int32_t off1, off2, out_off, lo, hi, scale;
  const int32_t *t1, *t2;
} ta_add_s8_consts;

TA_INLINE ta_add_s8_consts ta_add_s8_prepare(const ta_add_params *p) {
  ta_add_s8_consts c;
  c.r1 = ta_add_rq_make(p->input1_multiplier, p->input1_shift, p->rounding);
  c.r2 = ta_add_rq_make(p->input2_multiplier, p->input2_shift, p->rounding);
  c.ro = ta_add_rq_make(p->output_multiplier, p->output_shift, p->rounding);
  c.off1 = p->input1_offset;
  c.off2 = p->input2_offset;
  c.out_off = p->output_offset;
  c.lo = p->act_min;
  c.hi = p->act_max;
  c.scale = (int32_t)1 << p->left_shift;
  c.t1 = p->table1;
  c.t2 = p->table2;
  return c;
}

/* The usual case without tables (an ADD too small for them, SUB):
 * double rounding, every multiplier >= 0, the inputs' shifts <= 0, the
 * output's < 0, left_shift <= 21, offsets of int8 zero points, so that
 * every value v multiplied below has |v| <= 2^29.  Then SRDHM(v, m),
 * floor((v m + 2^30) / 2^31) (TFLite's nudged quotient for every v
 * but INT32_MIN), is the rounded high word of 2v m (SMMULR), and
 * RoundingDivideByPOT(q, e) is (q + 2^(e-1) - [q < 0]) >> e, for e >= 1:
 *
 *   term = (hmul((x + off) << (ls + 1), m) + c - ([q < 0] & neg)) >> e
 *
 * with c = 2^(e-1), neg = 1 (c = neg = 0 for e = 0): 32-bit
 * instructions only, SMMULR on a core with the DSP extension. */
TA_INLINE int32_t ta_add_hmul(int32_t a, int32_t m) {
#if defined(TA_DSP)
  return ta_smmulr(a, m);
#else
  return (int32_t)(((int64_t)a * m + INT64_C(0x80000000)) >> 32);
#endif
}

/* Does p take that case? */
TA_INLINE int ta_add_s8_fast_ok(const ta_add_params *p) {
  return p->rounding == TA_ROUND_DOUBLE && p->left_shift >= 0 && p->left_shift <= 21 &&
         p->input1_multiplier >= 0 && p->input2_multiplier >= 0 && p->output_multiplier >= 0 &&
         p->input1_shift <= 0 && p->input1_shift >= -31 && p->input2_shift <= 0 &&
         p->input2_shift >= -31 && p->output_shift < 0 && p->output_shift >= -31 &&
         p->input1_offset >= -128 && p->input1_offset <= 128 && p->input2_offset >= -128 &&
         p->input2_offset <= 128;
}

/* The usual case: both tables and the output requantized in one step
 * (double rounding, a right shift of at least 1): the loop holds no
 * test.  Its constants: */
typedef struct {
  const int32_t *t1, *t2;
  int64_t round;
  int32_t m, e, out_off, lo, hi;
} ta_add_s8_tab;

/* Does p take the usual case? */
TA_INLINE int ta_add_s8_tabled(const ta_add_params *p) {
  return p->table1 && p->table2 && p->rounding != TA_ROUND_SINGLE && p->output_shift < 0 &&
         p->output_multiplier >= 0;
}

TA_INLINE ta_add_s8_tab ta_add_s8_tab_make(const ta_add_params *p) {
  ta_add_s8_tab t;
  t.t1 = p->table1;
  t.t2 = p->table2;
  t.m = p->output_multiplier;
  t.e = -p->output_shift;
  t.round = ta_requant_rs_round((int)t.e);
  t.out_off = p->output_offset;
  t.lo = p->act_min;
  t.hi = p->act_max;
  return t;
}

/* out[i] = in1[i * s1] + in2[i * s2], i < n. */
TA_INLINE void ta_add_s8_tab_row(const ta_add_s8_tab *c, const int8_t *x1, size_t s1,
                                 const int8_t *x2, size_t s2, int8_t *out, int32_t n) {
  const int32_t *t1 = c->t1, *t2 = c->t2;
  const int32_t m = c->m, e = c->e, out_off = c->out_off, lo = c->lo, hi = c->hi;
  const int64_t round = c->round;
  for (int32_t i = 0; i < n; i++, x1 += s1, x2 += s2) {
    const int32_t s =
        ta_requant_double_rsc(t1[(uint8_t)*x1] + t2[(uint8_t)*x2], m, e, round) + out_off;
    out[i] = (int8_t)(s < lo ? lo : s > hi ? hi : s);
  }
}

typedef struct {
  int32_t m, off, c, neg;
  int ls, e;
} ta_add_term;

TA_INLINE ta_add_term ta_add_term_make(int32_t off, int32_t left_shift, int32_t mult,
                                       int32_t shift) {
  ta_add_term t;
  t.e = (int)-shift;
  t.m = mult;
  t.off = off;
  t.neg = t.e ? 1 : 0;
  t.c = t.e ? (int32_t)1 << (t.e - 1) : 0;
  t.ls = (int)left_shift + 1;
  return t;
}

/* RoundingDivideByPOT(SRDHM(v, m), e) for |v| <= 2^29, as above. */
TA_INLINE int32_t ta_add_rdbp_hmul(int32_t v2, int32_t m, int32_t c, int32_t neg, int e) {
  const int32_t q = ta_add_hmul(v2, m);
  return (int32_t)((uint32_t)q + (uint32_t)c - (((uint32_t)q >> 31) & (uint32_t)neg)) >> e;
}

TA_INLINE int32_t ta_add_term_apply(int32_t x, const ta_add_term *t) {
  return ta_add_rdbp_hmul((int32_t)((uint32_t)(x + t->off) << t->ls), t->m, t->c, t->neg,
                          t->e);
}

typedef struct {
  ta_add_term t1, t2;
  int32_t m, c, e, out_off, lo, hi;
} ta_add_s8_fast;

TA_INLINE ta_add_s8_fast ta_add_s8_fast_make(const ta_add_params *p) {
  ta_add_s8_fast f;
  f.t1 = ta_add_term_make(p->input1_offset, p->left_shift, p->input1_multiplier,
                          p->input1_shift);
  f.t2 = ta_add_term_make(p->input2_offset, p->left_shift, p->input2_multiplier,
                          p->input2_shift);
  f.m = p->output_multiplier;
  f.e = -p->output_shift;
  f.c = (int32_t)1 << (f.e - 1);
  f.out_off = p->output_offset;
  f.lo = p->act_min;
  f.hi = p->act_max;
  return f;
}

/* out[i] = in1[i * s1] + in2[i * s2] (sub: minus), i < n, in that case
 * (each term below 2^29 in magnitude, so the sum's double fits). */
TA_INLINE void ta_add_s8_fast_row(const ta_add_s8_fast *c, const int8_t *x1, size_t s1,
                                  const int8_t *x2, size_t s2, int8_t *out, int32_t n, int sub) {
  const ta_add_term t1 = c->t1, t2 = c->t2;
  const int32_t m = c->m, rc = c->c, e = c->e, out_off = c->out_off, lo = c->lo, hi = c->hi;
  for (int32_t i = 0; i < n; i++, x1 += s1, x2 += s2) {
    const int32_t a = ta_add_term_apply(*x1, &t1), b = ta_add_term_apply(*x2, &t2);
    const int32_t sum2 = (int32_t)((uint32_t)(sub ? a - b : a + b) << 1);
    const int32_t s = ta_add_rdbp_hmul(sum2, m, rc, 1, (int)e) + out_off;
    out[i] = (int8_t)(s < lo ? lo : s > hi ? hi : s);
  }
}

/* out[i] = in1[i * s1] + in2[i * s2], i < n (a stride 0 broadcasts), for
 * parameters that are not the usual case (ta_add_s8_tab_row() is). */
TA_INLINE void ta_add_s8_row(const ta_add_s8_consts *c, const int8_t *x1, size_t s1,
                             const int8_t *x2, size_t s2, int8_t *out, int32_t n) {
  const int32_t lo = c->lo, hi = c->hi, out_off = c->out_off;
  const int32_t *t1 = c->t1, *t2 = c->t2;
  if (t1 && t2) {
    for (int32_t i = 0; i < n; i++) {
      const int32_t s =
          ta_add_rq_apply(t1[(uint8_t)x1[(size_t)i * s1]] + t2[(uint8_t)x2[(size_t)i * s2]],
                          &c->ro) +
          out_off;
      out[i] = (int8_t)(s < lo ? lo : s > hi ? hi : s);
    }
    return;
  }
  for (int32_t i = 0; i < n; i++) {
    const int32_t a = ta_add_rq_apply((x1[(size_t)i * s1] + c->off1) * c->scale, &c->r1);
    const int32_t b = ta_add_rq_apply((x2[(size_t)i * s2] + c->off2) * c->scale, &c->r2);
    const int32_t s = ta_add_rq_apply(a + b, &c->ro) + out_off;
    out[i] = (int8_t)(s < lo ? lo : s > hi ? hi : s);
  }
}

#endif
