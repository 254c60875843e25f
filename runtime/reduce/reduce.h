/*
 * reduce.h - visiting the elements of a ta_walk one at a time (private to
 * runtime/reduce/).  ta_it_off is the current element's offset;
 * ta_it_step() moves to the next one in row-major order of the walk.
 */
#ifndef TA_REDUCE_H
#define TA_REDUCE_H

#include <stddef.h>

#include "ta_kernels.h"

typedef struct {
  int32_t idx[TA_MAX_WALK];
  ptrdiff_t off;
} ta_it;

static inline int ta_reduce_walk_ok(const ta_walk *w) {
  if (w->ndims < 0 || w->ndims > TA_MAX_WALK)
    return 0;
  for (int d = 0; d < w->ndims; d++)
    if (w->shape[d] < 1)
      return 0;
  return 1;
}

static inline size_t ta_reduce_walk_size(const ta_walk *w) {
  size_t n = 1;
  for (int d = 0; d < w->ndims; d++)
    n *= (size_t)w->shape[d];
  return n;
}

static inline void ta_it_start(ta_it *it, const ta_walk *w) {
  for (int d = 0; d < TA_MAX_WALK; d++)
    it->idx[d] = 0;
  it->off = w->offset;
}

static inline void ta_it_step(ta_it *it, const ta_walk *w) {
  for (int d = w->ndims - 1; d >= 0; d--) {
    it->off += w->stride[d];
    if (++it->idx[d] < w->shape[d])
      return;
    it->off -= (ptrdiff_t)w->stride[d] * w->shape[d];
    it->idx[d] = 0;
  }
}

/* The shared checks of the MEAN kernels; the number of outputs. */
static inline int ta_mean_ok(const ta_mean_params *p) {
  return ta_reduce_walk_ok(&p->outer) && ta_reduce_walk_ok(&p->inner) && p->count >= 1 &&
         (size_t)p->count == ta_reduce_walk_size(&p->inner);
}

/* The int32 sum of the count uint8 inputs of one output (inner walk from
 * base); at most 2^31 / 255 inputs, which the compiler checks. */
static inline int32_t ta_mean_sum_u8(const ta_mean_params *p, const uint8_t *base) {
  int32_t sum = 0;
  ta_it i;
  ta_it_start(&i, &p->inner);
  for (int32_t n = 0; n < p->count; n++, ta_it_step(&i, &p->inner))
    sum += base[i.off];
  return sum;
}

#endif
