/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_mul_s8 - int8 MUL with broadcasting (reference_integer_ops::
 * MulElementwise / BroadcastMul4DSlow), per element:
 *   out = clamp(MultiplyByQuantizedMultiplier((x1 + input1_offset) *
 *               (x2 + input2_offset), multiplier, shift) + output_offset,
 *               act_min, act_max)
 *
 * ta_mul_double_s8: the usual case only (double rounding, a multiplier
 * >= 0, offsets of int8 zero points, so |product| <= 2^16, and a left
 * shift of at most 13: ta_mul_double_ok()), row by row of the broadcast
 * walk with add_s8.h's 32-bit form of the requantization, its constants
 * chosen once per call; the compiler calls it where it applies.
 */
#include "ta_fixedpoint.h"
#include "ta_kernels.h"
#include "add_s8.h"
#include "binary.h"

static inline int8_t one(int32_t x1, int32_t x2, const ta_mul_params *p) {
  const int32_t prod = (x1 + p->input1_offset) * (x2 + p->input2_offset);
  const int32_t v = ta_requant(prod, p->multiplier, p->shift, p->rounding) + p->output_offset;
  return (int8_t)ta_clamp_i32(v, p->act_min, p->act_max);
}

int ta_mul_double_ok(const ta_mul_params *p) {
  return p->rounding == TA_ROUND_DOUBLE && p->multiplier >= 0 && p->shift <= 13 &&
         p->shift >= -31 && p->input1_offset >= -128 && p->input1_offset <= 128 &&
         p->input2_offset >= -128 && p->input2_offset <= 128;
}

/* One element of mul_fast_row(): the product shifted left by ls (once
 * more for SRDHM's doubling: |2 v| <= 2^31 - 1), then
 * ta_add_rdbp_hmul(), the output offset and the clamp. */
TA_INLINE int8_t mul_fast_one(int32_t a, int32_t b, int ls, int32_t m, int32_t c, int32_t neg,
                              int e, int32_t off, int32_t lo, int32_t hi) {
  const int32_t v = ta_add_rdbp_hmul((int32_t)((uint32_t)(a * b) << ls), m, c, neg, e) + off;
  return (int8_t)ta_clamp_i32(v, lo, hi);
}

/* out[i] = in1[i * s1] * in2[i * s2], i < n; both inputs contiguous
 * along the row (the usual case: a per-channel vector against rows of
 * channels) in a loop of its own. */
static void mul_fast_row(const ta_mul_params *p, const int8_t *x1, size_t s1, const int8_t *x2,
                         size_t s2, int8_t *out, int32_t n) {
  const int32_t o1 = p->input1_offset, o2 = p->input2_offset, m = p->multiplier;
  const int ls = (p->shift > 0 ? (int)p->shift : 0) + 1, e = p->shift < 0 ? (int)-p->shift : 0;
  const int32_t c = e ? (int32_t)1 << (e - 1) : 0, neg = e ? 1 : 0;
  const int32_t off = p->output_offset, lo = p->act_min, hi = p->act_max;
  if (s1 == 1 && s2 == 1) {
    for (int32_t i = 0; i < n; i++)
      out[i] = mul_fast_one(x1[i] + o1, x2[i] + o2, ls, m, c, neg, e, off, lo, hi);
    return;
  }
  for (int32_t i = 0; i < n; i++, x1 += s1, x2 += s2)
    out[i] = mul_fast_one(*x1 + o1, *x2 + o2, ls, m, c, neg, e, off, lo, hi);
}

ta_status ta_mul_s8(const ta_mul_params *p, const ta_bcast *shape, const int8_t *in1,
                    const int8_t *in2, int8_t *out) {
  if (!ta_bcast_ok(shape))
    return TA_ERR_ARG;
#define F(a, b) one((a), (b), p)
  TA_BINARY_LOOP(shape, in1, in2, out, F);
#undef F
  return TA_OK;
}

/* The usual case only; TA_ERR_ARG for other parameters. */
ta_status ta_mul_double_s8(const ta_mul_params *p, const ta_bcast *shape, const int8_t *in1,
                           const int8_t *in2, int8_t *out) {
  if (!ta_bcast_ok(shape) || !ta_mul_double_ok(p))
    return TA_ERR_ARG;
#define ROW(x1, s1, x2, s2, o, n) mul_fast_row(p, x1, s1, x2, s2, o, n)
  TA_BCAST_ROWS(shape, in1, in2, out, ROW);
#undef ROW
  return TA_OK;
}
