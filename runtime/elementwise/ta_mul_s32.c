/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_mul_s32 - int32 MUL with broadcasting (reference_ops::Mul int32):
 * out = clamp(in1 * in2, act_min, act_max), the product wrapping
 * around in two's complement.
 */
#include "ta_fixedpoint.h"
#include "ta_kernels.h"
#include "binary.h"

static inline int32_t one(int32_t a, int32_t b, const ta_mul_params *p) {
  const int32_t v = (int32_t)((uint32_t)a * (uint32_t)b);
  return ta_clamp_i32(v, p->act_min, p->act_max);
}

ta_status ta_mul_s32(const ta_mul_params *p, const ta_bcast *shape, const int32_t *in1,
                     const int32_t *in2, int32_t *out) {
  if (!ta_bcast_ok(shape))
    return TA_ERR_ARG;
#define F(a, b) one((a), (b), p)
  TA_BINARY_LOOP(shape, in1, in2, out, F);
#undef F
  return TA_OK;
}
