/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_batch_matmul_f32 - float BATCH_MATMUL (TFLite Micro's reference_ops::
 * BatchMatMul): out[b][r][c] = sum_k lhs[b][r][k] * rhs[b][k][c], the
 * float sum from 0 in ascending k (offsets 0), batch dimensions
 * broadcast.
 */
#include "ta_kernels.h"
#include "batch_matmul.h"

ta_status ta_batch_matmul_f32(const ta_batch_matmul_params *p, const float *lhs,
                              const float *rhs, float *out) {
  TA_BMM_LOOP(float, float, *out = acc);
}
