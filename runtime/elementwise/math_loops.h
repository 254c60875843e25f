/* SPDX-License-Identifier: Apache-2.0 */
/*
 * math_loops.h - what the element-wise math, comparison and logic kernels share
 * (private to runtime/elementwise/): the body of a one-input float kernel,
 * the body of a broadcasting two-input kernel of raw values, and the
 * rescaling of a quantized input that TFLM's comparisons and
 * SQUARED_DIFFERENCE apply before they compare or subtract.
 *
 * TA_UNARY_F32(F) is the body of a kernel (p, in, out) computing
 * out[i] = F(in[i]).  TA_RAW_BINARY(F) is the body of a kernel (shape,
 * in1, in2, out) computing out = F(a, b) with TA_BINARY_LOOP (binary.h).
 * Kernels spell their signatures out, so that each file shows what it
 * defines.
 */
#ifndef TA_MATH_H
#define TA_MATH_H

#include <math.h>

#include "ta_kernels.h"
#include "ta_fixedpoint.h"
#include "binary.h"

#define TA_UNARY_F32(F)                      \
  do {                                       \
    if (p->size < 0)                         \
      return TA_ERR_ARG;                     \
    for (int32_t i = 0; i < p->size; i++)    \
      out[i] = F(in[i]);                     \
    return TA_OK;                            \
  } while (0)

#define TA_RAW_BINARY(F)                          \
  do {                                            \
    if (!ta_bcast_ok(shape))                      \
      return TA_ERR_ARG;                          \
    TA_BINARY_LOOP(shape, in1, in2, out, F);      \
    return TA_OK;                                 \
  } while (0)

/* An int8/int16 input value as TFLM rescales it before comparing or
 * subtracting: requant_le1((x + offset) * 2^left_shift, mult, shift),
 * double rounding (MultiplyByQuantizedMultiplierSmallerThanOneExp). */
static inline int32_t ta_rescale_input(int32_t x, int32_t offset, int32_t left_shift,
                                       int32_t mult, int32_t shift) {
  return ta_requant_le1(ta_wrap_shl(x + offset, (int)left_shift), mult, shift,
                        TA_ROUND_DOUBLE);
}

/* The comparison TA_OP (a macro the kernel's file defines) of two int8
 * (or int16) inputs, each rescaled first (TFLM's *WithScaling); p in
 * scope. */
#define TA_RESCALED_CMP(a, b)                                                         \
  ((uint8_t)TA_OP(ta_rescale_input((a), p->input1_offset, p->left_shift,              \
                                   p->input1_multiplier, p->input1_shift),            \
                  ta_rescale_input((b), p->input2_offset, p->left_shift,              \
                                   p->input2_multiplier, p->input2_shift)))
#define TA_SCALED_COMPARE() TA_RAW_BINARY(TA_RESCALED_CMP)

/* Quantized SQUARED_DIFFERENCE of one pair (TFLM squared_difference.cc):
 * both rescaled to twice the larger scale, the difference squared and
 * requantized to the output. */
static inline int32_t ta_sqdiff_q(const ta_add_params *p, int32_t a, int32_t b) {
  const int32_t sa = ta_rescale_input(a, p->input1_offset, p->left_shift,
                                      p->input1_multiplier, p->input1_shift);
  const int32_t sb = ta_rescale_input(b, p->input2_offset, p->left_shift,
                                      p->input2_multiplier, p->input2_shift);
  const int32_t d = ta_wrap_sub(sa, sb);
  const int32_t sq = (int32_t)((uint32_t)d * (uint32_t)d);
  const int32_t v = ta_wrap_add(ta_requant_double(sq, p->output_multiplier, p->output_shift),
                                p->output_offset);
  return ta_clamp_i32(v, p->act_min, p->act_max);
}

#define TA_SQDIFF_ONE(a, b) ta_sqdiff_q(p, (a), (b))

#endif
