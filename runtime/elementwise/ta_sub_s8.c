/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_sub_s8 - int8 SUB with broadcasting.
 *
 * Per element, as tflite::reference_ops::SubElementwise (int8/uint8 path):
 *   a = MBQMSmallerThanOneExp((x1 + input1_offset) << left_shift,
 *                             input1_multiplier, input1_shift), b likewise
 *   out = clamp(MBQMSmallerThanOneExp(a - b, output_multiplier,
 *               output_shift) + output_offset, act_min, act_max)
 *
 * ta_sub_double_s8: the usual case only (double rounding, right shifts:
 * ta_add_double_ok()), add_s8.h's 32-bit form with its constants chosen
 * once per call, row by row of the broadcast walk; the compiler calls it
 * where it applies, so that a program links the one path.
 */
#include "ta_fixedpoint.h"
#include "ta_kernels.h"
#include "add_s8.h"
#include "bcast.h"
#include "binary.h"

static inline int32_t one(int32_t x1, int32_t x2, const ta_add_params *p) {
  const int32_t r = p->rounding;
  int32_t a = ta_wrap_shl(x1 + p->input1_offset, (int)p->left_shift);
  int32_t b = ta_wrap_shl(x2 + p->input2_offset, (int)p->left_shift);
  a = ta_requant_le1(a, p->input1_multiplier, p->input1_shift, r);
  b = ta_requant_le1(b, p->input2_multiplier, p->input2_shift, r);
  int32_t s = ta_requant_le1(ta_wrap_sub(a, b), p->output_multiplier, p->output_shift, r);
  return ta_clamp_i32(s + p->output_offset, p->act_min, p->act_max);
}

ta_status ta_sub_s8(const ta_add_params *p, const ta_bcast *shape, const int8_t *in1,
                    const int8_t *in2, int8_t *out) {
  if (!ta_bcast_ok(shape) || p->left_shift < 0 || p->left_shift > 30)
    return TA_ERR_ARG;
#define F(a, b) ((int8_t)one((a), (b), p))
  TA_BINARY_LOOP(shape, in1, in2, out, F);
#undef F
  return TA_OK;
}

/* The usual case only; TA_ERR_ARG for other parameters. */
ta_status ta_sub_double_s8(const ta_add_params *p, const ta_bcast *shape, const int8_t *in1,
                           const int8_t *in2, int8_t *out) {
  if (!ta_bcast_ok(shape) || !ta_add_s8_fast_ok(p))
    return TA_ERR_ARG;
  const ta_add_s8_fast f = ta_add_s8_fast_make(p);
#define ROW(x1, s1, x2, s2, o, n) ta_add_s8_fast_row(&f, x1, s1, x2, s2, o, n, 1)
  TA_BCAST_ROWS(shape, in1, in2, out, ROW);
#undef ROW
  return TA_OK;
}
