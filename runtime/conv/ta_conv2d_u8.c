/*
 * ta_conv2d_u8 - legacy uint8 CONV_2D (asymmetric filter, one scale per
 * tensor), as TFLite's builtin uint8 kernel computes it
 * (optimized_ops::Conv: im2col padded with the input zero point, then a
 * GEMM with both offsets and one requantization):
 *
 *   acc = bias[oc] + sum_{taps inside the input} (filter + filter_offset)
 *                                                * (in + input_offset)
 *   out = clamp(requant(acc, q) + output_offset, act_min, act_max)
 *
 * Taps in the padding contribute nothing ((zero point + input_offset) is
 * 0).  Grouped convolution is not part of the uint8 format.
 */
#include "ta_fixedpoint.h"
#include "ta_kernels.h"
#include "conv_common.h"

ta_status ta_conv2d_u8(const ta_conv_params *p, const ta_quant *q, int32_t filter_offset,
                       const ta_dims *in_dims, const uint8_t *in,
                       const ta_dims *filter_dims, const uint8_t *filter,
                       const int32_t *bias, const ta_dims *out_dims, uint8_t *out) {
  if (!ta_conv_shapes_ok(p, in_dims, filter_dims, out_dims) || filter_dims->c != in_dims->c)
    return TA_ERR_ARG;
  const int32_t H = in_dims->h, W = in_dims->w, C = in_dims->c;
  const int32_t KH = filter_dims->h, KW = filter_dims->w;
  const int32_t OH = out_dims->h, OW = out_dims->w, OC = out_dims->c;
  const int32_t in_off = p->input_offset, f_off = filter_offset;
  const int32_t tap_stride = KW * C;
  const int32_t oc_stride = KH * tap_stride;
  for (int32_t b = 0; b < in_dims->n; b++) {
    const uint8_t *in_b = in + (size_t)b * H * W * C;
    for (int32_t oy = 0; oy < OH; oy++) {
      ta_window wy = ta_conv_window(oy * p->stride_h - p->pad_h, p->dilation_h, KH, H);
      for (int32_t ox = 0; ox < OW; ox++) {
        ta_window wx = ta_conv_window(ox * p->stride_w - p->pad_w, p->dilation_w, KW, W);
        uint8_t *o = out + (((size_t)b * OH + oy) * OW + ox) * OC;
        for (int32_t oc = 0; oc < OC; oc++) {
          const uint8_t *w_oc = filter + (size_t)oc * oc_stride;
          int32_t acc = 0;
          for (int32_t ky = wy.start; ky < wy.end; ky++) {
            const int32_t iy = wy.origin + ky * p->dilation_h;
            for (int32_t kx = wx.start; kx < wx.end; kx++) {
              const int32_t ix = wx.origin + kx * p->dilation_w;
              const uint8_t *xp = in_b + ((size_t)iy * W + ix) * C;
              const uint8_t *wp = w_oc + ky * tap_stride + kx * C;
              for (int32_t ic = 0; ic < C; ic++)
                acc += ((int32_t)wp[ic] + f_off) * ((int32_t)xp[ic] + in_off);
            }
          }
          if (bias)
            acc += bias[oc];
          const int32_t ch = q->per_channel ? oc : 0;
          acc = ta_requant(acc, q->multiplier[ch], q->shift[ch], q->rounding) + p->output_offset;
          o[oc] = (uint8_t)ta_clamp_i32(acc, p->act_min, p->act_max);
        }
      }
    }
  }
  return TA_OK;
}
