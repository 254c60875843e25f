/*
 * conv_common.h - shape checks and filter-window arithmetic shared by the
 * convolution kernels of this folder (private to runtime/conv/).
 */
#ifndef TA_CONV_COMMON_H
#define TA_CONV_COMMON_H

#include "ta_types.h"

/* The filter taps k in [start, end) whose input coordinate
 * origin + k * dilation lies in [0, size).  Walks at most `taps` steps:
 * no division. */
typedef struct {
  int32_t origin, start, end;
} ta_window;

static inline ta_window ta_conv_window(int32_t origin, int32_t dilation, int32_t taps,
                                       int32_t size) {
  ta_window w;
  w.origin = origin;
  w.start = 0;
  while (w.start < taps && origin + w.start * dilation < 0)
    w.start++;
  w.end = taps;
  while (w.end > w.start && origin + (w.end - 1) * dilation >= size)
    w.end--;
  return w;
}

/* CONV_2D: NHWC input, OHWI filter, grouped when filter c < input c. */
static inline int ta_conv_shapes_ok(const ta_conv_params *p, const ta_dims *in,
                                    const ta_dims *f, const ta_dims *out) {
  if (p->stride_h < 1 || p->stride_w < 1 || p->dilation_h < 1 || p->dilation_w < 1)
    return 0;
  if (in->n < 0 || in->h < 0 || in->w < 0 || in->c < 1 || f->h < 1 || f->w < 1 || f->c < 1)
    return 0;
  if (out->n != in->n || out->c != f->n || in->c % f->c != 0)
    return 0;
  if (out->c % (in->c / f->c) != 0 || out->h < 0 || out->w < 0)
    return 0;
  return 1;
}

/* DEPTHWISE_CONV_2D: filter 1HW(C*M). */
static inline int ta_dw_shapes_ok(const ta_conv_params *p, const ta_dims *in,
                                  const ta_dims *f, const ta_dims *out) {
  if (p->stride_h < 1 || p->stride_w < 1 || p->dilation_h < 1 || p->dilation_w < 1)
    return 0;
  if (p->depth_multiplier < 1 || in->n < 0 || in->h < 0 || in->w < 0 || in->c < 1)
    return 0;
  if (f->h < 1 || f->w < 1 || f->c != in->c * p->depth_multiplier)
    return 0;
  if (out->n != in->n || out->c != f->c || out->h < 0 || out->w < 0)
    return 0;
  return 1;
}

/* TRANSPOSE_CONV (the gathering kernels): NHWC input, OHWI filter. */
static inline int ta_transpose_shapes_ok(const ta_conv_params *p, const ta_dims *in,
                                         const ta_dims *f, const ta_dims *out) {
  if (p->stride_h < 1 || p->stride_w < 1 || in->n != out->n || in->n < 0)
    return 0;
  if (in->h < 0 || in->w < 0 || in->c < 1 || f->h < 1 || f->w < 1 || f->c != in->c)
    return 0;
  if (f->n != out->c || out->h < 0 || out->w < 0)
    return 0;
  return 1;
}

#endif
