/* SPDX-License-Identifier: Apache-2.0 */
/*
 * batch_matmul.h - the loop of the BATCH_MATMUL kernels (private to
 * runtime/matmul/): for every batch (an odometer over up to
 * TA_BMM_MAX_BATCH broadcast dimensions), row r and column c of the
 * output,
 *   acc = sum_{k = 0 .. depth-1} (lhs(r, k) + lhs_offset) * (rhs(k, c) + rhs_offset)
 * in ascending k (TFLite Micro's reference_ops::BatchMatMul), where
 * lhs(r, k) = lhs[lb + r * lhs_row + k * lhs_depth] and likewise rhs
 * with rhs_depth and rhs_col: the strides say whether an operand is
 * transposed (adj_x, adj_y), so no transposed copy is made.  BODY turns
 * acc into out.  Arguments p, lhs, rhs, out.
 */
#ifndef TA_BATCH_MATMUL_H
#define TA_BATCH_MATMUL_H

#include <stddef.h>

#include "ta_kernels.h"

static inline int ta_bmm_ok(const ta_batch_matmul_params *p) {
  if (p->nbatch < 0 || p->nbatch > TA_BMM_MAX_BATCH || p->rows < 0 || p->cols < 0 ||
      p->depth < 0)
    return 0;
  for (int d = 0; d < p->nbatch; d++)
    if (p->batch[d] < 1)
      return 0;
  return 1;
}

#define TA_BMM_LOOP(T, ACC, BODY)                                                 \
  do {                                                                            \
    if (!ta_bmm_ok(p))                                                            \
      return TA_ERR_ARG;                                                          \
    int32_t idx_[TA_BMM_MAX_BATCH] = {0};                                         \
    ptrdiff_t lb_ = 0, rb_ = 0;                                                   \
    size_t nb_ = 1;                                                               \
    for (int d_ = 0; d_ < p->nbatch; d_++)                                        \
      nb_ *= (size_t)p->batch[d_];                                                \
    for (size_t b_ = 0; b_ < nb_; b_++) {                                         \
      for (int32_t r = 0; r < p->rows; r++)                                       \
        for (int32_t c = 0; c < p->cols; c++) {                                   \
          const T *l_ = lhs + lb_ + (ptrdiff_t)r * p->lhs_row;                    \
          const T *q_ = rhs + rb_ + (ptrdiff_t)c * p->rhs_col;                    \
          ACC acc = 0;                                                            \
          for (int32_t k = 0; k < p->depth; k++)                                  \
            acc += ((ACC)l_[(ptrdiff_t)k * p->lhs_depth] + (ACC)p->lhs_offset) *  \
                   ((ACC)q_[(ptrdiff_t)k * p->rhs_depth] + (ACC)p->rhs_offset);   \
          BODY;                                                                   \
          out++;                                                                  \
        }                                                                         \
      for (int d_ = p->nbatch - 1; d_ >= 0; d_--) {                               \
        lb_ += p->lhs_batch[d_];                                                  \
        rb_ += p->rhs_batch[d_];                                                  \
        if (++idx_[d_] < p->batch[d_])                                            \
          break;                                                                  \
        lb_ -= (ptrdiff_t)p->lhs_batch[d_] * p->batch[d_];                        \
        rb_ -= (ptrdiff_t)p->rhs_batch[d_] * p->batch[d_];                        \
        idx_[d_] = 0;                                                             \
      }                                                                           \
    }                                                                             \
    return TA_OK;                                                                 \
  } while (0)

#endif
