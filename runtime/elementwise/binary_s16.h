/* SPDX-License-Identifier: Apache-2.0 */
/*
 * binary_s16.h - the int16 ADD/SUB arithmetic and its broadcast walk
 * (private to runtime/elementwise/).
 *
 * General path (TFLite's AddElementwise / SubElementwise, used for int16
 * with left_shift 15): each input is offset, shifted left and scaled by
 * its own multiplier (MultiplyByQuantizedMultiplierSmallerThanOneExp), the
 * two are added or subtracted, scaled by the output multiplier, offset and
 * clamped.  Power-of-two path (Add with pot_scale, Sub16,
 * BroadcastSub16POTSlow): each input is divided by 2^-shift with
 * RoundingDivideByPOT, the two are added or subtracted and clamped.
 *
 * ta_binary_s16() walks a ta_bcast as ta_add_s8 does; `kind` is a
 * constant at every call, so the compiler keeps one loop per kernel.
 */
#ifndef TA_BINARY_S16_H
#define TA_BINARY_S16_H

#include "ta_fixedpoint.h"
#include "ta_kernels.h"
#include "bcast.h"

enum { TA_S16_ADD, TA_S16_SUB, TA_S16_ADD_POT, TA_S16_SUB_POT };

TA_INLINE int16_t ta_binary_s16_one(int32_t x1, int32_t x2, const ta_add_params *p,
                                    int kind) {
  int32_t s;
  if (kind == TA_S16_ADD || kind == TA_S16_SUB) {
    const int32_t r = p->rounding;
    int32_t a = ta_wrap_shl(x1 + p->input1_offset, (int)p->left_shift);
    int32_t b = ta_wrap_shl(x2 + p->input2_offset, (int)p->left_shift);
    a = ta_requant_le1(a, p->input1_multiplier, p->input1_shift, r);
    b = ta_requant_le1(b, p->input2_multiplier, p->input2_shift, r);
    s = kind == TA_S16_ADD ? ta_wrap_add(a, b) : ta_wrap_sub(a, b);
    s = ta_wrap_add(ta_requant_le1(s, p->output_multiplier, p->output_shift, r),
                    p->output_offset);
  } else {
    const int32_t a = ta_rdbpot(x1, (int)-p->input1_shift);
    const int32_t b = ta_rdbpot(x2, (int)-p->input2_shift);
    s = kind == TA_S16_ADD_POT ? a + b : a - b;
  }
  return (int16_t)ta_clamp_i32(s, p->act_min, p->act_max);
}

TA_INLINE ta_status ta_binary_s16(const ta_add_params *p, const ta_bcast *shape,
                                  const int16_t *in1, const int16_t *in2, int16_t *out,
                                  int kind) {
  if (!ta_bcast_ok(shape) || p->act_min > p->act_max || p->act_min < -32768 ||
      p->act_max > 32767)
    return TA_ERR_ARG;
  if (kind == TA_S16_ADD || kind == TA_S16_SUB) {
    if (p->left_shift < 0 || p->left_shift > 30 || p->input1_shift > 0 ||
        p->input2_shift > 0 || p->output_shift > 0 || p->input1_shift < -31 ||
        p->input2_shift < -31 || p->output_shift < -31)
      return TA_ERR_ARG;
  } else if (p->input1_shift > 0 || p->input2_shift > 0 || p->input1_shift < -15 ||
             p->input2_shift < -15) {
    return TA_ERR_ARG;
  }
  const int nd = shape->ndims;
  const int32_t n = shape->shape[nd - 1];
  const size_t s1 = (size_t)shape->stride1[nd - 1], s2 = (size_t)shape->stride2[nd - 1];
  const size_t rows = ta_bcast_rows(shape);
  int32_t idx[TA_MAX_DIMS] = {0};
  size_t o1 = 0, o2 = 0;
  for (size_t r = 0; r < rows; r++, out += n) {
    const int16_t *x1 = in1 + o1, *x2 = in2 + o2;
    if (s1 == 1 && s2 == 1) {
      for (int32_t i = 0; i < n; i++)
        out[i] = ta_binary_s16_one(x1[i], x2[i], p, kind);
    } else if (s2 == 0) {
      for (int32_t i = 0; i < n; i++)
        out[i] = ta_binary_s16_one(x1[(size_t)i * s1], x2[0], p, kind);
    } else if (s1 == 0) {
      for (int32_t i = 0; i < n; i++)
        out[i] = ta_binary_s16_one(x1[0], x2[(size_t)i * s2], p, kind);
    } else {
      for (int32_t i = 0; i < n; i++)
        out[i] = ta_binary_s16_one(x1[(size_t)i * s1], x2[(size_t)i * s2], p, kind);
    }
    ta_bcast_next(shape, idx, &o1, &o2);
  }
  return TA_OK;
}

#endif
