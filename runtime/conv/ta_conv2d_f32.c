/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_conv2d_f32 - float CONV_2D.
 *
 * Matches tflite::reference_ops::Conv (float): per output element
 * total = 0; for ky, for kx (taps inside the input), for ic:
 * total += in * filter; then min(max(total + bias, act_min), act_max).
 * Four output channels are accumulated side by side, each in exactly
 * that order, so the float results are the same.
 */
#include "ta_kernels.h"
#include "conv_common.h"

static inline float act(float v, const ta_conv_params *p) {
  v = v < p->act_min_f32 ? p->act_min_f32 : v;
  return v > p->act_max_f32 ? p->act_max_f32 : v;
}

ta_status ta_conv2d_f32(const ta_conv_params *p,
                        const ta_dims *in_dims, const float *in,
                        const ta_dims *filter_dims, const float *filter,
                        const float *bias,
                        const ta_dims *out_dims, float *out) {
  if (!ta_conv_shapes_ok(p, in_dims, filter_dims, out_dims))
    return TA_ERR_ARG;
  const int32_t H = in_dims->h, W = in_dims->w, C = in_dims->c;
  const int32_t KH = filter_dims->h, KW = filter_dims->w, FC = filter_dims->c;
  const int32_t OH = out_dims->h, OW = out_dims->w, OC = out_dims->c;
  const int32_t groups = C / FC, per_group = OC / groups;
  const int32_t row_stride = KW * FC, oc_stride = KH * row_stride;

  for (int32_t b = 0; b < in_dims->n; b++) {
    const float *in_b = in + (size_t)b * (size_t)H * (size_t)W * (size_t)C;
    for (int32_t oy = 0; oy < OH; oy++) {
      ta_window wy = ta_conv_window(oy * p->stride_h - p->pad_h, p->dilation_h, KH, H);
      for (int32_t ox = 0; ox < OW; ox++) {
        ta_window wx = ta_conv_window(ox * p->stride_w - p->pad_w, p->dilation_w, KW, W);
        float *o = out + (((size_t)b * (size_t)OH + (size_t)oy) * (size_t)OW + (size_t)ox) * (size_t)OC;
        for (int32_t g = 0; g < groups; g++) {
          const float *in_g = in_b + (size_t)g * (size_t)FC;
          int32_t oc = g * per_group;
          const int32_t oc_end = oc + per_group;
          for (; oc + 4 <= oc_end; oc += 4) {
            const float *w_oc = filter + (size_t)oc * (size_t)oc_stride;
            float t0 = 0.0f, t1 = 0.0f, t2 = 0.0f, t3 = 0.0f;
            for (int32_t ky = wy.start; ky < wy.end; ky++) {
              const int32_t iy = wy.origin + ky * p->dilation_h;
              for (int32_t kx = wx.start; kx < wx.end; kx++) {
                const int32_t ix = wx.origin + kx * p->dilation_w;
                const float *xp = in_g + ((size_t)iy * (size_t)W + (size_t)ix) * (size_t)C;
                const float *w0 = w_oc + (size_t)ky * (size_t)row_stride + (size_t)kx * (size_t)FC;
                const float *w1 = w0 + oc_stride, *w2 = w1 + oc_stride, *w3 = w2 + oc_stride;
                for (int32_t ic = 0; ic < FC; ic++) {
                  const float xv = xp[ic];
                  t0 += xv * w0[ic];
                  t1 += xv * w1[ic];
                  t2 += xv * w2[ic];
                  t3 += xv * w3[ic];
                }
              }
            }
            o[oc] = act(t0 + (bias ? bias[oc] : 0.0f), p);
            o[oc + 1] = act(t1 + (bias ? bias[oc + 1] : 0.0f), p);
            o[oc + 2] = act(t2 + (bias ? bias[oc + 2] : 0.0f), p);
            o[oc + 3] = act(t3 + (bias ? bias[oc + 3] : 0.0f), p);
          }
          for (; oc < oc_end; oc++) {
            const float *w_oc = filter + (size_t)oc * (size_t)oc_stride;
            float t = 0.0f;
            for (int32_t ky = wy.start; ky < wy.end; ky++) {
              const int32_t iy = wy.origin + ky * p->dilation_h;
              for (int32_t kx = wx.start; kx < wx.end; kx++) {
                const int32_t ix = wx.origin + kx * p->dilation_w;
                const float *xp = in_g + ((size_t)iy * (size_t)W + (size_t)ix) * (size_t)C;
                const float *wp = w_oc + (size_t)ky * (size_t)row_stride + (size_t)kx * (size_t)FC;
                for (int32_t ic = 0; ic < FC; ic++)
                  t += xp[ic] * wp[ic];
              }
            }
            o[oc] = act(t + (bias ? bias[oc] : 0.0f), p);
          }
        }
      }
    }
  }
  return TA_OK;
}
