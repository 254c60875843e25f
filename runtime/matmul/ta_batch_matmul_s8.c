/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_batch_matmul_s8 - int8 BATCH_MATMUL (TFLite Micro's EvalInt8,
 * reference_ops::BatchMatMul<int8_t, int32_t>): the int32 sum of
 * (lhs - lhs_zp) * (rhs - rhs_zp), then
 *   out = clamp(MultiplyByQuantizedMultiplier(acc, multiplier, shift)
 *               + output_offset, act_min, act_max)
 * with the rounding in p->rounding.
 */
#include "ta_fixedpoint.h"
#include "ta_kernels.h"
#include "batch_matmul.h"

ta_status ta_batch_matmul_s8(const ta_batch_matmul_params *p, const int8_t *lhs,
                             const int8_t *rhs, int8_t *out) {
  TA_BMM_LOOP(int8_t, int32_t,
              *out = (int8_t)ta_clamp_i32(ta_wrap_add(ta_requant(acc, p->multiplier, p->shift,
                                                                 p->rounding),
                                                      p->output_offset),
                                          p->act_min, p->act_max));
}
