/* SPDX-License-Identifier: Apache-2.0 */
/*
 * walk.h - stepping through a ta_walk (private to runtime/shape/, also
 * used by runtime/reduce/).
 *
 * The walk's elements are visited in row-major order of its shape; the
 * innermost dimension is a run of shape[n-1] elements `stride[n-1]`
 * apart, and ta_walk_next() moves the start of the run like an odometer
 * over the outer dimensions.  Offsets are in elements and stay inside
 * the tensor the compiler described (checked there, not here).
 */
#ifndef TA_WALK_H
#define TA_WALK_H

#include <string.h>

#include "ta_kernels.h"

static inline int ta_walk_ok(const ta_walk *w) {
  if (w->ndims < 0 || w->ndims > TA_MAX_WALK)
    return 0;
  for (int d = 0; d < w->ndims; d++)
    if (w->shape[d] < 0)
      return 0;
  return 1;
}

/* Elements in the walk. */
static inline size_t ta_walk_size(const ta_walk *w) {
  size_t n = 1;
  for (int d = 0; d < w->ndims; d++)
    n *= (size_t)w->shape[d];
  return n;
}

/* Runs of the innermost dimension. */
static inline size_t ta_walk_runs(const ta_walk *w) {
  size_t n = 1;
  for (int d = 0; d + 1 < w->ndims; d++)
    n *= (size_t)w->shape[d];
  return n;
}

/* Advances *off (the start of the current run) to the next run. */
static inline void ta_walk_next(const ta_walk *w, int32_t *idx, ptrdiff_t *off) {
  for (int d = w->ndims - 2; d >= 0; d--) {
    *off += w->stride[d];
    if (++idx[d] < w->shape[d])
      return;
    *off -= (ptrdiff_t)w->stride[d] * w->shape[d];
    idx[d] = 0;
  }
}

/* out[k] = in[walk(k)] for elements of `size` bytes; a run with stride 1
 * is one memcpy. */
static inline void ta_walk_copy(const ta_walk *w, const void *in, void *out, size_t size) {
  const unsigned char *src = (const unsigned char *)in;
  unsigned char *dst = (unsigned char *)out;
  if (w->ndims == 0) {
    memcpy(dst, src + (ptrdiff_t)w->offset * (ptrdiff_t)size, size);
    return;
  }
  const int32_t n = w->shape[w->ndims - 1];
  const ptrdiff_t step = w->stride[w->ndims - 1];
  const size_t runs = ta_walk_runs(w);
  int32_t idx[TA_MAX_WALK] = {0};
  ptrdiff_t off = w->offset;
  for (size_t r = 0; r < runs; r++) {
    if (step == 1) {
      memcpy(dst, src + off * (ptrdiff_t)size, (size_t)n * size);
      dst += (size_t)n * size;
    } else {
      ptrdiff_t o = off;
      int32_t i = 0;
      for (; i + 4 <= n; i += 4, o += 4 * step, dst += 4 * size) { /* 4 at a time */
        memcpy(dst, src + o * (ptrdiff_t)size, size);
        memcpy(dst + size, src + (o + step) * (ptrdiff_t)size, size);
        memcpy(dst + 2 * size, src + (o + 2 * step) * (ptrdiff_t)size, size);
        memcpy(dst + 3 * size, src + (o + 3 * step) * (ptrdiff_t)size, size);
      }
      for (; i < n; i++, o += step, dst += size)
        memcpy(dst, src + o * (ptrdiff_t)size, size);
    }
    ta_walk_next(w, idx, &off);
  }
}

#endif
