/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bcast.h - walking a ta_bcast (private to runtime/elementwise/).
 *
 * The output is visited row by row; a row is the innermost dimension
 * (shape[ndims-1] elements, input strides stride1/stride2[ndims-1]).
 * ta_bcast_rows() is the row count; ta_bcast_next() advances the two
 * input offsets to the next row like an odometer over the outer
 * dimensions.  Offsets, not pointers, so nothing points outside a tensor.
 */
#ifndef TA_BCAST_H
#define TA_BCAST_H

#include "ta_types.h"

static inline int ta_bcast_ok(const ta_bcast *s) {
  if (s->ndims < 1 || s->ndims > TA_MAX_DIMS)
    return 0;
  for (int d = 0; d < s->ndims; d++)
    if (s->shape[d] < 0 || s->stride1[d] < 0 || s->stride2[d] < 0)
      return 0;
  return 1;
}

static inline size_t ta_bcast_rows(const ta_bcast *s) {
  size_t rows = 1;
  for (int d = 0; d < s->ndims - 1; d++)
    rows *= (size_t)s->shape[d];
  return rows;
}

static inline void ta_bcast_next(const ta_bcast *s, int32_t *idx, size_t *o1, size_t *o2) {
  for (int d = s->ndims - 2; d >= 0; d--) {
    *o1 += (size_t)s->stride1[d];
    *o2 += (size_t)s->stride2[d];
    if (++idx[d] < s->shape[d])
      return;
    *o1 -= (size_t)s->stride1[d] * (size_t)s->shape[d];
    *o2 -= (size_t)s->stride2[d] * (size_t)s->shape[d];
    idx[d] = 0;
  }
}

/* The walk row by row: ROW(x1, s1, x2, s2, o, n) for every row of n
 * output elements at o, x1 and x2 the inputs' first elements of the
 * row, s1 and s2 their strides along it (0: broadcast); out (a pointer
 * variable) is advanced past the rows. */
#define TA_BCAST_ROWS(shape, in1, in2, out, ROW)                                 \
  do {                                                                           \
    const int nd_ = (shape)->ndims;                                              \
    const int32_t n_ = (shape)->shape[nd_ - 1];                                  \
    const size_t s1_ = (size_t)(shape)->stride1[nd_ - 1];                        \
    const size_t s2_ = (size_t)(shape)->stride2[nd_ - 1];                        \
    const size_t rows_ = ta_bcast_rows(shape);                                   \
    int32_t idx_[TA_MAX_DIMS] = {0};                                             \
    size_t o1_ = 0, o2_ = 0;                                                     \
    for (size_t r_ = 0; r_ < rows_; r_++, (out) += n_) {                         \
      ROW((in1) + o1_, s1_, (in2) + o2_, s2_, (out), n_);                        \
      ta_bcast_next(shape, idx_, &o1_, &o2_);                                    \
    }                                                                            \
  } while (0)

#endif
