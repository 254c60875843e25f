/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_mul_s8 - int8 MUL with broadcasting (reference_integer_ops::
 * MulElementwise / BroadcastMul4DSlow), per element:
 *   out = clamp(MultiplyByQuantizedMultiplier((x1 + input1_offset) *
 *               (x2 + input2_offset), multiplier, shift) + output_offset,
 *               act_min, act_max)
 */
#include "ta_fixedpoint.h"
#include "ta_kernels.h"
#include "binary.h"

static inline int8_t one(int32_t x1, int32_t x2, const ta_mul_params *p) {
  const int32_t prod = (x1 + p->input1_offset) * (x2 + p->input2_offset);
  const int32_t v = ta_requant(prod, p->multiplier, p->shift, p->rounding) + p->output_offset;
  return (int8_t)ta_clamp_i32(v, p->act_min, p->act_max);
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
