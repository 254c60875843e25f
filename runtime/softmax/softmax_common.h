/* SPDX-License-Identifier: Apache-2.0 */
/*
 * softmax_common.h - TFLite's quantized softmax for int8 input
 * (reference_ops::Softmax<int8_t, OutputT>), shared by the int8- and
 * int16-output kernels (private to runtime/softmax/).
 *
 * Per row: max; for every element with diff = x - max >= diff_min the
 * scaled difference (Q5.26, MultiplyByQuantizedMultiplierGreaterThanOne)
 * goes through exp_on_negative_values, the exps are summed in Q12.19,
 * GetReciprocal gives 1 / sum, and each output is
 * RoundingDivideByPOT(reciprocal * exp, bits_over_unit + 31 - out_bits)
 * shifted by the output type's minimum and clamped.  Elements below
 * diff_min give the minimum.
 *
 * The exp of a difference depends only on the difference (256 values for
 * int8) and the parameters, so the compiler may pass p->exp_table
 * (softmax_exp_table()): then no exp is computed at run time.  Without a
 * table each exp is computed twice, as TFLite does.
 */
#ifndef TA_SOFTMAX_COMMON_H
#define TA_SOFTMAX_COMMON_H

#include "ta_fixedpoint.h"
#include "ta_types.h"

static inline int32_t ta_softmax_exp(int32_t diff, const ta_softmax_params *p) {
  int32_t scaled = ta_requant_ge1(diff, p->input_multiplier, p->input_left_shift, p->rounding);
  return ta_exp_on_negative_values_5(scaled);
}

/* out_bits 8 or 16; writes out8 or out16. */
static inline ta_status ta_softmax_s8_any(const ta_softmax_params *p, const int8_t *in,
                                          int8_t *out8, int16_t *out16, int out_bits) {
  if (p->outer < 0 || p->depth < 0 || p->input_left_shift < 0 || p->input_left_shift > 31)
    return TA_ERR_ARG;
  const int32_t depth = p->depth;
  const int32_t out_min = out_bits == 8 ? -128 : -32768;
  const int32_t out_max = out_bits == 8 ? 127 : 32767;
  const int32_t *table = p->exp_table; /* table[-diff] */
  for (int32_t r = 0; r < p->outer; r++) {
    const int8_t *x = in + (size_t)r * (size_t)depth;
    int32_t mx = -128;
    for (int32_t c = 0; c < depth; c++)
      mx = x[c] > mx ? x[c] : mx;
    int32_t sum = 0; /* Q12.19 */
    for (int32_t c = 0; c < depth; c++) {
      const int32_t diff = x[c] - mx;
      if (diff >= p->diff_min) {
        const int32_t e = table ? table[-diff] : ta_softmax_exp(diff, p);
        sum = ta_wrap_add(sum, ta_rdbpot(e, 12)); /* Rescale<12> */
      }
    }
    int bits_over_unit;
    const int32_t recip = ta_get_reciprocal(sum, 12, &bits_over_unit);
    const int e = bits_over_unit + 31 - out_bits;
    if (e < 0 || e > 31)
      return TA_ERR_ARG;
    for (int32_t c = 0; c < depth; c++) {
      const int32_t diff = x[c] - mx;
      int32_t v = out_min;
      if (diff >= p->diff_min) {
        const int32_t ex = table ? table[-diff] : ta_softmax_exp(diff, p);
        v = ta_rdbpot(ta_srdhm(recip, ex), e) + out_min;
        v = ta_clamp_i32(v, out_min, out_max);
      }
      if (out_bits == 8)
        out8[(size_t)r * (size_t)depth + (size_t)c] = (int8_t)v;
      else
        out16[(size_t)r * (size_t)depth + (size_t)c] = (int16_t)v;
    }
  }
  return TA_OK;
}

#endif
