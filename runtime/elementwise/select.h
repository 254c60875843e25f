/* SPDX-License-Identifier: Apache-2.0 */
/*
 * select.h - the walk of SELECT / SELECT_V2 (private to
 * runtime/elementwise/): the output visited in row-major order, an
 * odometer over ta_select_shape keeping the three input offsets.
 * TA_SELECT_BODY(T) is the body of the kernel for elements of type T.
 */
#ifndef TA_SELECT_H
#define TA_SELECT_H

#include "ta_kernels.h"

static inline int ta_select_ok(const ta_select_shape *s) {
  if (s->ndims < 1 || s->ndims > TA_MAX_DIMS)
    return 0;
  for (int d = 0; d < s->ndims; d++)
    if (s->shape[d] < 0 || s->stride_c[d] < 0 || s->stride_x[d] < 0 || s->stride_y[d] < 0)
      return 0;
  return 1;
}

#define TA_SELECT_BODY(T)                                                            \
  do {                                                                               \
    if (!ta_select_ok(s))                                                            \
      return TA_ERR_ARG;                                                             \
    const T *xv = (const T *)x, *yv = (const T *)y;                                  \
    T *o = (T *)out;                                                                 \
    size_t total = 1;                                                                \
    for (int d = 0; d < s->ndims; d++)                                               \
      total *= (size_t)s->shape[d];                                                  \
    int32_t idx[TA_MAX_DIMS] = {0};                                                  \
    size_t oc = 0, ox = 0, oy = 0;                                                   \
    for (size_t k = 0; k < total; k++) {                                             \
      o[k] = cond[oc] ? xv[ox] : yv[oy];                                             \
      for (int d = s->ndims - 1; d >= 0; d--) {                                      \
        oc += (size_t)s->stride_c[d];                                                \
        ox += (size_t)s->stride_x[d];                                                \
        oy += (size_t)s->stride_y[d];                                                \
        if (++idx[d] < s->shape[d])                                                  \
          break;                                                                     \
        oc -= (size_t)s->stride_c[d] * (size_t)s->shape[d];                          \
        ox -= (size_t)s->stride_x[d] * (size_t)s->shape[d];                          \
        oy -= (size_t)s->stride_y[d] * (size_t)s->shape[d];                          \
        idx[d] = 0;                                                                  \
      }                                                                              \
    }                                                                                \
    return TA_OK;                                                                    \
  } while (0)

#endif
