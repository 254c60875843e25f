/*
 * ta_conv2d_s8 - int8 CONV_2D, the reference form.
 *
 * Matches tflite::reference_integer_ops::ConvPerChannel: for every output
 * element, acc = sum over the filter taps that fall inside the input of
 * filter * (input + input_offset), plus bias; then requantized with the
 * output channel's multiplier/shift, offset and clamped.  Grouped
 * convolution (filter depth < input depth) is handled as TFLite does.
 *
 * Loop order: batch, output row, output column, group, output channel;
 * the valid filter window is found once per output pixel, so the inner
 * loop is a branch-free dot product over contiguous input channels.
 */
#include "ta_fixedpoint.h"
#include "ta_kernels.h"
#include "conv_common.h"

size_t ta_conv2d_s8_scratch_size(const ta_conv_params *p, const ta_dims *in_dims,
                                 const ta_dims *filter_dims, const ta_dims *out_dims) {
  (void)p;
  (void)in_dims;
  (void)filter_dims;
  (void)out_dims;
  return 0;
}

ta_status ta_conv2d_s8(const ta_conv_params *p, const ta_quant *q,
                       const ta_dims *in_dims, const int8_t *in,
                       const ta_dims *filter_dims, const int8_t *filter,
                       const int32_t *bias,
                       const ta_dims *out_dims, int8_t *out, void *scratch) {
  (void)scratch;
  if (!ta_conv_shapes_ok(p, in_dims, filter_dims, out_dims))
    return TA_ERR_ARG;
  const int32_t H = in_dims->h, W = in_dims->w, C = in_dims->c;
  const int32_t KH = filter_dims->h, KW = filter_dims->w, FC = filter_dims->c;
  const int32_t OH = out_dims->h, OW = out_dims->w, OC = out_dims->c;
  const int32_t groups = C / FC, per_group = OC / groups;
  const int32_t off = p->input_offset;
  const int32_t tap_stride = KW * FC; /* filter elements per filter row */
  const int32_t oc_stride = KH * tap_stride;

  for (int32_t b = 0; b < in_dims->n; b++) {
    const int8_t *in_b = in + (size_t)b * H * W * C;
    for (int32_t oy = 0; oy < OH; oy++) {
      ta_window wy = ta_conv_window(oy * p->stride_h - p->pad_h, p->dilation_h, KH, H);
      for (int32_t ox = 0; ox < OW; ox++) {
        ta_window wx = ta_conv_window(ox * p->stride_w - p->pad_w, p->dilation_w, KW, W);
        int8_t *o = out + (((size_t)b * OH + oy) * OW + ox) * OC;
        for (int32_t g = 0; g < groups; g++) {
          for (int32_t oc = g * per_group; oc < (g + 1) * per_group; oc++) {
            const int8_t *w_oc = filter + (size_t)oc * oc_stride;
            int32_t acc = 0;
            for (int32_t ky = wy.start; ky < wy.end; ky++) {
              int32_t iy = wy.origin + ky * p->dilation_h;
              for (int32_t kx = wx.start; kx < wx.end; kx++) {
                int32_t ix = wx.origin + kx * p->dilation_w;
                const int8_t *xp = in_b + ((size_t)iy * W + ix) * C + (size_t)g * FC;
                const int8_t *wp = w_oc + ky * tap_stride + kx * FC;
                for (int32_t ic = 0; ic < FC; ic++)
                  acc += (int32_t)wp[ic] * ((int32_t)xp[ic] + off);
              }
            }
            if (bias)
              acc += bias[oc];
            int32_t ch = q->per_channel ? oc : 0;
            acc = ta_requant(acc, q->multiplier[ch], q->shift[ch], q->rounding) + p->output_offset;
            o[oc] = (int8_t)ta_clamp_i32(acc, p->act_min, p->act_max);
          }
        }
      }
    }
  }
  return TA_OK;
}
