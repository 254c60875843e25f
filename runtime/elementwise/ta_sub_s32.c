/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_sub_s32 - int32 SUB with broadcasting (TFLM sub.cc for int32:
 * reference_ops::SubWithActivation / BroadcastSubSlow): out =
 * clamp(in1 - in2, act_min, act_max), the difference wrapping around in
 * two's complement.
 */
#include "ta_fixedpoint.h"
#include "ta_kernels.h"
#include "binary.h"

static inline int32_t one(int32_t a, int32_t b, const ta_add_params *p) {
  return ta_clamp_i32(ta_wrap_sub(a, b), p->act_min, p->act_max);
}

ta_status ta_sub_s32(const ta_add_params *p, const ta_bcast *shape, const int32_t *in1,
                     const int32_t *in2, int32_t *out) {
  if (!ta_bcast_ok(shape))
    return TA_ERR_ARG;
#define F(a, b) one((a), (b), p)
  TA_BINARY_LOOP(shape, in1, in2, out, F);
#undef F
  return TA_OK;
}
