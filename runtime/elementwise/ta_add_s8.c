/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_add_s8 - int8 ADD with broadcasting.
 *
 * Matches tflite::reference_integer_ops::AddFunc, applied element-wise
 * (Add) or over a broadcast (BroadcastAdd6DSlow): each input is offset,
 * shifted left by left_shift and scaled by its own multiplier
 * (MultiplyByQuantizedMultiplierSmallerThanOneExp), the two are summed,
 * scaled by the output multiplier, offset and clamped.
 *
 * All shifts are right shifts here (the multipliers are below one), so
 * each requantization is a 64-bit multiply-add and shifts with constants
 * computed once per call; the parameters live in locals (the int8 output
 * may alias anything, so a compiler would otherwise reload them after
 * every store).  When the compiler passes the per-input tables
 * (p->table1/table2, add_tables()), the input scaling is a table look-up
 * and only the sum is requantized at run time.
 */
#include "ta_fixedpoint.h"
#include "ta_kernels.h"
#include "bcast.h"

/* Requantization by mult * 2^-right, double or single rounding; double
 * rounding with a right shift of at least 1 in one step
 * (ta_requant_double_rsc()). */
typedef struct {
  int64_t round, k, round1;
  int32_t m;
  int sh, right1, dbl, one;
} rq;

static inline rq rq_make(int32_t mult, int32_t shift, int32_t rounding) {
  rq r;
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

static inline int32_t rq_apply(int32_t x, const rq *r) {
  if (r->one)
    return ta_requant_double_rsc(x, r->m, r->right1 - 1, r->round1);
  const int32_t v = (int32_t)(((int64_t)x * r->m + r->round) >> r->sh);
  if (!r->dbl)
    return v;
  return (int32_t)((2 * (int64_t)v + r->k + (v >= 0)) >> r->right1);
}

ta_status ta_add_s8(const ta_add_params *p, const ta_bcast *shape,
                    const int8_t *in1, const int8_t *in2, int8_t *out) {
  if (!ta_bcast_ok(shape) || p->left_shift < 0 || p->left_shift > 22 ||
      p->input1_shift > 0 || p->input2_shift > 0 || p->output_shift > 0 ||
      p->input1_shift < -31 || p->input2_shift < -31 || p->output_shift < -31)
    return TA_ERR_ARG;
  if (p->input1_multiplier == INT32_MIN || p->input2_multiplier == INT32_MIN ||
      p->output_multiplier == INT32_MIN)
    return TA_ERR_UNSUPPORTED; /* a negative multiplier no converter makes */
  const rq r1 = rq_make(p->input1_multiplier, p->input1_shift, p->rounding);
  const rq r2 = rq_make(p->input2_multiplier, p->input2_shift, p->rounding);
  const rq ro = rq_make(p->output_multiplier, p->output_shift, p->rounding);
  const int32_t off1 = p->input1_offset, off2 = p->input2_offset, out_off = p->output_offset;
  const int32_t lo = p->act_min, hi = p->act_max;
  const int32_t scale = (int32_t)1 << p->left_shift;
  const int nd = shape->ndims;
  const int32_t n = shape->shape[nd - 1];
  const size_t s1 = (size_t)shape->stride1[nd - 1], s2 = (size_t)shape->stride2[nd - 1];
  const size_t rows = ta_bcast_rows(shape);
  int32_t idx[TA_MAX_DIMS] = {0};
  size_t o1 = 0, o2 = 0;
  const int32_t *t1 = p->table1, *t2 = p->table2;
  for (size_t r = 0; r < rows; r++, out += n) {
    const int8_t *x1 = in1 + o1, *x2 = in2 + o2;
    if (t1 && t2 && ro.one) {
      /* The usual case, with the one-step requantization written out so
       * the loop holds no test. */
      const int32_t m = ro.m, e = ro.right1 - 1;
      const int64_t round = ro.round1;
      for (int32_t i = 0; i < n; i++, x1 += s1, x2 += s2) {
        const int32_t s =
            ta_requant_double_rsc(t1[(uint8_t)*x1] + t2[(uint8_t)*x2], m, e, round) + out_off;
        out[i] = (int8_t)(s < lo ? lo : s > hi ? hi : s);
      }
      ta_bcast_next(shape, idx, &o1, &o2);
      continue;
    }
    if (t1 && t2) {
      for (int32_t i = 0; i < n; i++) {
        const int32_t s =
            rq_apply(t1[(uint8_t)x1[(size_t)i * s1]] + t2[(uint8_t)x2[(size_t)i * s2]], &ro) + out_off;
        out[i] = (int8_t)(s < lo ? lo : s > hi ? hi : s);
      }
      ta_bcast_next(shape, idx, &o1, &o2);
      continue;
    }
    for (int32_t i = 0; i < n; i++) {
      const int32_t a = rq_apply((x1[(size_t)i * s1] + off1) * scale, &r1);
      const int32_t b = rq_apply((x2[(size_t)i * s2] + off2) * scale, &r2);
      const int32_t s = rq_apply(a + b, &ro) + out_off;
      out[i] = (int8_t)(s < lo ? lo : s > hi ? hi : s);
    }
    ta_bcast_next(shape, idx, &o1, &o2);
  }
  return TA_OK;
}
