/*
 * ta_conv2d_fold_s8 - int8 CONV_2D with the input zero point folded into
 * the bias: the same bytes as ta_conv2d_s8 (TFLite's ConvPerChannel),
 * fewer operations.
 *
 * The compiler passes bias_fold[oc] = bias[oc] + input_offset * (sum of
 * all filter[oc] weights) (fold_bias_s8()).  Then for an output pixel
 *
 *   acc = bias_fold[oc] + sum_{taps inside} w * x
 *                       - input_offset * sum_{taps in the padding} w
 *
 * which equals TFLite's bias + sum_{taps inside} w * (x + input_offset).
 * Interior pixels (no padding tap) only run the plain dot products; four
 * output channels are computed together so each input byte is loaded
 * once per four multiply-adds.  When the taps of one filter row are
 * contiguous in the input (no dilation along x, no groups) the row is a
 * single dot product of (taps * channels) elements.
 */
#include "ta_fixedpoint.h"
#include "ta_kernels.h"
#include "conv_common.h"

size_t ta_conv2d_fold_s8_scratch_size(const ta_conv_params *p, const ta_dims *in_dims,
                                      const ta_dims *filter_dims, const ta_dims *out_dims) {
  (void)p;
  (void)in_dims;
  (void)filter_dims;
  (void)out_dims;
  return 0;
}

/* acc[j] += sum_i w_j[i] * x[i] for four filter rows at w, w + ws, ... */
static inline void dot4(const int8_t *x, const int8_t *w, int32_t ws, int32_t n, int32_t acc[4]) {
  int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
  const int8_t *w0 = w, *w1 = w + ws, *w2 = w + 2 * ws, *w3 = w + 3 * ws;
  for (int32_t i = 0; i < n; i++) {
    int32_t xv = x[i];
    a0 += w0[i] * xv;
    a1 += w1[i] * xv;
    a2 += w2[i] * xv;
    a3 += w3[i] * xv;
  }
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
  acc[3] = a3;
}

static inline int32_t dot1(const int8_t *x, const int8_t *w, int32_t n) {
  int32_t a = 0;
  for (int32_t i = 0; i < n; i++)
    a += w[i] * x[i];
  return a;
}

/* Sum of filter[oc]'s weights over the taps outside the window. */
static int32_t padding_weight_sum(const int8_t *w_oc, int32_t KH, int32_t KW, int32_t FC,
                                  const ta_window *wy, const ta_window *wx) {
  int32_t s = 0;
  for (int32_t ky = 0; ky < KH; ky++) {
    int inside_y = ky >= wy->start && ky < wy->end;
    for (int32_t kx = 0; kx < KW; kx++) {
      if (inside_y && kx >= wx->start && kx < wx->end)
        continue;
      const int8_t *wp = w_oc + ((size_t)ky * KW + kx) * FC;
      for (int32_t ic = 0; ic < FC; ic++)
        s += wp[ic];
    }
  }
  return s;
}

ta_status ta_conv2d_fold_s8(const ta_conv_params *p, const ta_quant *q,
                            const ta_dims *in_dims, const int8_t *in,
                            const ta_dims *filter_dims, const int8_t *filter,
                            const int32_t *bias_fold,
                            const ta_dims *out_dims, int8_t *out, void *scratch) {
  (void)scratch;
  if (!ta_conv_shapes_ok(p, in_dims, filter_dims, out_dims) || !bias_fold)
    return TA_ERR_ARG;
  const int32_t H = in_dims->h, W = in_dims->w, C = in_dims->c;
  const int32_t KH = filter_dims->h, KW = filter_dims->w, FC = filter_dims->c;
  const int32_t OH = out_dims->h, OW = out_dims->w, OC = out_dims->c;
  const int32_t groups = C / FC, per_group = OC / groups;
  const int32_t off = p->input_offset;
  const int32_t row_stride = KW * FC; /* filter elements per filter row */
  const int32_t oc_stride = KH * row_stride;
  const int rows_contiguous = groups == 1 && p->dilation_w == 1;
  const int32_t *mult = q->multiplier, *shift = q->shift;
  const int32_t ch_step = q->per_channel ? 1 : 0;

  for (int32_t b = 0; b < in_dims->n; b++) {
    const int8_t *in_b = in + (size_t)b * H * W * C;
    for (int32_t oy = 0; oy < OH; oy++) {
      const ta_window wy_row = ta_conv_window(oy * p->stride_h - p->pad_h, p->dilation_h, KH, H);
      for (int32_t ox = 0; ox < OW; ox++) {
        ta_window wx = ta_conv_window(ox * p->stride_w - p->pad_w, p->dilation_w, KW, W);
        ta_window wy = wy_row;
        if (wx.start == wx.end)
          wy.end = wy.start; /* no tap inside: only the padding correction */
        const int border = wy.start != 0 || wy.end != KH || wx.start != 0 || wx.end != KW;
        const int32_t ntaps_x = wx.end - wx.start;
        int8_t *o = out + (((size_t)b * OH + oy) * OW + ox) * OC;
        for (int32_t g = 0; g < groups; g++) {
          const int8_t *in_g = in_b + (size_t)g * FC;
          int32_t oc = g * per_group;
          const int32_t oc_end = oc + per_group;
          for (; oc < oc_end; oc += 4) {
            const int32_t nblk = oc_end - oc < 4 ? oc_end - oc : 4;
            const int8_t *w_oc = filter + (size_t)oc * oc_stride;
            int32_t acc[4] = {0, 0, 0, 0};
            for (int32_t ky = wy.start; ky < wy.end; ky++) {
              const int32_t iy = wy.origin + ky * p->dilation_h;
              const int8_t *w_row = w_oc + (size_t)ky * row_stride;
              if (rows_contiguous) {
                const int8_t *xp = in_g + ((size_t)iy * W + wx.origin + wx.start) * C;
                const int8_t *wp = w_row + (size_t)wx.start * FC;
                if (nblk == 4)
                  dot4(xp, wp, oc_stride, ntaps_x * FC, acc);
                else
                  for (int32_t j = 0; j < nblk; j++)
                    acc[j] += dot1(xp, wp + (size_t)j * oc_stride, ntaps_x * FC);
              } else {
                for (int32_t kx = wx.start; kx < wx.end; kx++) {
                  const int32_t ix = wx.origin + kx * p->dilation_w;
                  const int8_t *xp = in_g + ((size_t)iy * W + ix) * C;
                  const int8_t *wp = w_row + (size_t)kx * FC;
                  if (nblk == 4)
                    dot4(xp, wp, oc_stride, FC, acc);
                  else
                    for (int32_t j = 0; j < nblk; j++)
                      acc[j] += dot1(xp, wp + (size_t)j * oc_stride, FC);
                }
              }
            }
            for (int32_t j = 0; j < nblk; j++) {
              int32_t a = acc[j] + bias_fold[oc + j];
              if (border)
                a -= off * padding_weight_sum(w_oc + (size_t)j * oc_stride, KH, KW, FC, &wy, &wx);
              const int32_t ch = (oc + j) * ch_step;
              a = ta_requant(a, mult[ch], shift[ch], q->rounding) + p->output_offset;
              o[oc + j] = (int8_t)ta_clamp_i32(a, p->act_min, p->act_max);
            }
          }
        }
      }
    }
  }
  return TA_OK;
}
