/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_prelu_s8 - int8 PRELU with alpha broadcast (TFLM prelu.cc,
 * reference_ops::BroadcastPrelu4DSlow): v = x + input_offset;
 * v >= 0: requant(v, mult_pos, shift_pos); else
 * requant(v * (alpha + alpha_offset), mult_neg, shift_neg); plus
 * output_offset, clamped to int8, double rounding.
 */
#include "math_loops.h"

static inline int8_t prelu(const ta_prelu_params *p, int32_t x, int32_t alpha) {
  const int32_t v = x + p->input_offset;
  int32_t o;
  if (v >= 0)
    o = ta_requant_double(v, p->mult_pos, p->shift_pos);
  else
    o = ta_requant_double(v * (alpha + p->alpha_offset), p->mult_neg, p->shift_neg);
  return (int8_t)ta_clamp_i32(o + p->output_offset, -128, 127);
}

ta_status ta_prelu_s8(const ta_prelu_params *p, const ta_bcast *shape, const int8_t *in,
                      const int8_t *alpha, int8_t *out) {
  if (!ta_bcast_ok(shape))
    return TA_ERR_ARG;
#define F(a, b) prelu(p, (a), (b))
  TA_BINARY_LOOP(shape, in, alpha, out, F);
#undef F
  return TA_OK;
}
