/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_div_s8 - int8 DIV with broadcasting (TFLM div.cc, reference_ops::
 * DivElementwise): a = in1 + input1_offset, b = in2 + input2_offset;
 * 1/|b| = r * 2^-rs (GetReciprocal, Q0.31), a shifted up by its headroom h
 * (CountLeadingSignBits), q = requant_ge1(a, +-r, h), then
 * out = clamp(output_offset + requant_le1(q, output_multiplier,
 * output_shift - rs - h), act_min, act_max); a total right shift past 31
 * gives 0 (the rounded quotient; undefined in TFLM's C++).  b == 0:
 * TA_ERR_ARG (TFLM only DCHECKs it).
 */
#include "math_loops.h"

/* CountLeadingSignBits of an int32 (0 has 31). */
static inline int leading_sign_bits(int32_t x) {
  if (x == 0)
    return 31;
  const uint32_t u = x < 0 ? ~(uint32_t)x : (uint32_t)x;
  return ta_clz32(u) - 1;
}

static inline int8_t div_one(const ta_add_params *p, int32_t x, int32_t y, int *zero) {
  const int32_t a = x + p->input1_offset;
  const int32_t b = y + p->input2_offset;
  if (b == 0) {
    *zero = 1;
    return 0;
  }
  int recip_shift;
  const int32_t inv = b > 0 ? ta_get_reciprocal(b, 31, &recip_shift)
                            : -ta_get_reciprocal(-b, 31, &recip_shift);
  const int headroom = leading_sign_bits(a);
  const int32_t unscaled = ta_requant_ge1(a, inv, headroom, TA_ROUND_DOUBLE);
  const int total_shift = (int)p->output_shift - recip_shift - headroom;
  /* A right shift past 31 rounds the quotient to 0 (TFLM's C++ shift is
   * undefined there). */
  const int32_t q = total_shift < -31 ? 0
                                      : ta_requant_le1(unscaled, p->output_multiplier,
                                                       total_shift, TA_ROUND_DOUBLE);
  const int32_t v = p->output_offset + q;
  return (int8_t)ta_clamp_i32(v, p->act_min, p->act_max);
}

ta_status ta_div_s8(const ta_add_params *p, const ta_bcast *shape, const int8_t *in1,
                    const int8_t *in2, int8_t *out) {
  if (!ta_bcast_ok(shape))
    return TA_ERR_ARG;
  int zero = 0;
#define F(a, b) div_one(p, (a), (b), &zero)
  TA_BINARY_LOOP(shape, in1, in2, out, F);
#undef F
  return zero ? TA_ERR_ARG : TA_OK;
}
