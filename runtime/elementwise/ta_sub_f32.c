/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_sub_f32 - float SUB with broadcasting (reference_ops::Sub float):
 * out = min(max(in1 - in2, act_min_f32), act_max_f32).
 */
#include "ta_kernels.h"
#include "binary.h"

static inline float one(float a, float b, const ta_add_params *p) {
  float v = a - b;
  v = v < p->act_min_f32 ? p->act_min_f32 : v;
  return v > p->act_max_f32 ? p->act_max_f32 : v;
}

ta_status ta_sub_f32(const ta_add_params *p, const ta_bcast *shape, const float *in1,
                     const float *in2, float *out) {
  if (!ta_bcast_ok(shape))
    return TA_ERR_ARG;
#define F(a, b) one((a), (b), p)
  TA_BINARY_LOOP(shape, in1, in2, out, F);
#undef F
  return TA_OK;
}
