/*
 * bilinear.h - checks shared by the RESIZE_BILINEAR kernels (private to
 * runtime/resize/).
 */
#ifndef TA_BILINEAR_H
#define TA_BILINEAR_H

#include "ta_kernels.h"

static inline int ta_bilinear_ok(const ta_bilinear_params *p) {
  if (p->batches < 0 || p->in_h < 1 || p->in_w < 1 || p->depth < 0 || p->out_h < 0 ||
      p->out_w < 0)
    return 0;
  for (int32_t y = 0; y < p->out_h; y++)
    if (p->y_lo[y] < 0 || p->y_hi[y] < 0 || p->y_lo[y] >= p->in_h || p->y_hi[y] >= p->in_h)
      return 0;
  for (int32_t x = 0; x < p->out_w; x++)
    if (p->x_lo[x] < 0 || p->x_hi[x] < 0 || p->x_lo[x] >= p->in_w || p->x_hi[x] >= p->in_w)
      return 0;
  return 1;
}

#endif
