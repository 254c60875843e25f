/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_batch_matmul_s16 - 16x8 BATCH_MATMUL (TFLite Micro's EvalInt16,
 * reference_ops::BatchMatMul<int16_t, int64_t>): int16 operands, zero
 * points 0, the sum in int64, then
 *   out = clamp(MultiplyByQuantizedMultiplier(int64 acc, multiplier, shift))
 * - the 64-bit requantization of the 16x8 kernels (conv_s16.h).
 */
#include "ta_fixedpoint.h"
#include "ta_kernels.h"
#include "../conv/conv_s16.h"
#include "batch_matmul.h"

ta_status ta_batch_matmul_s16(const ta_batch_matmul_params *p, const int16_t *lhs,
                              const int16_t *rhs, int16_t *out) {
  if (p->shift < -31 || p->shift >= 8 || p->multiplier < 0)
    return TA_ERR_ARG;
  TA_BMM_LOOP(int16_t, int64_t,
              *out = (int16_t)ta_clamp_i32(ta_requant_s64(acc, p->multiplier, p->shift) +
                                               p->output_offset,
                                           p->act_min, p->act_max));
}
