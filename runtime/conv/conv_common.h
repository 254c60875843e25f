/* SPDX-License-Identifier: Apache-2.0 */
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

/*
 * The output pixels of batch b of a CONV_2D or DEPTHWISE_CONV_2D (stride,
 * padding and dilation from p): the statements given run once per pixel
 * (oy, ox) and see wy and wx, its filter windows clipped to the input,
 * and o, its OC outputs in out (elements of type T).  The caller has
 * p, out, b and the dimensions H, W, KH, KW, OH, OW, OC.
 */
#define TA_CONV_PIXELS(T, ...)                                                   \
  for (int32_t oy = 0; oy < OH; oy++) {                                          \
    const ta_window wy =                                                         \
        ta_conv_window(oy * p->stride_h - p->pad_h, p->dilation_h, KH, H);       \
    for (int32_t ox = 0; ox < OW; ox++) {                                        \
      const ta_window wx =                                                       \
          ta_conv_window(ox * p->stride_w - p->pad_w, p->dilation_w, KW, W);     \
      T *o = out + (((size_t)b * (size_t)OH + (size_t)oy) * (size_t)OW + (size_t)ox) * (size_t)OC; \
      __VA_ARGS__                                                                \
    }                                                                            \
  }

/* Inside TA_CONV_PIXELS: the statements given, for every filter tap
 * (ky, kx) of the pixel's windows, at input row iy and column ix. */
#define TA_CONV_TAPS(...)                                                        \
  for (int32_t ky = wy.start; ky < wy.end; ky++) {                               \
    const int32_t iy = wy.origin + ky * p->dilation_h;                           \
    for (int32_t kx = wx.start; kx < wx.end; kx++) {                             \
      const int32_t ix = wx.origin + kx * p->dilation_w;                         \
      __VA_ARGS__                                                                \
    }                                                                            \
  }

/* The int32 sum of one output pixel and channel of an ungrouped int8
 * CONV_2D over the pixel's taps (wy, wx): w_oc[ky][kx][ic] * (x[iy][ix][ic]
 * - offset) summed over the taps and the C channels, x one batch's input
 * (rows of W pixels), w_oc the channel's filter (rows of KW taps). */
static inline int32_t ta_conv_sum_s8(const ta_conv_params *p, ta_window wy, ta_window wx,
                                     const int8_t *x, int32_t W, int32_t C,
                                     const int8_t *w_oc, int32_t KW, int32_t offset) {
  int32_t acc = 0;
  TA_CONV_TAPS({
    const int8_t *xp = x + ((size_t)iy * (size_t)W + (size_t)ix) * (size_t)C;
    const int8_t *wp = w_oc + ((size_t)ky * (size_t)KW + (size_t)kx) * (size_t)C;
    for (int32_t ic = 0; ic < C; ic++)
      acc += (int32_t)wp[ic] * ((int32_t)xp[ic] - offset);
  })
  return acc;
}

/* The fused activation of the float kernels: min(max(v, lo), hi). */
static inline float ta_conv_act_f32(const ta_conv_params *p, float v) {
  v = v < p->act_min_f32 ? p->act_min_f32 : v;
  return v > p->act_max_f32 ? p->act_max_f32 : v;
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
