/*
 * ta_conv2d_acc32_s16 - CONV_2D for 16x8 quantization with an int32 bias
 * (or none): int16 activations, int8 filter, int32 accumulator.
 *
 * Matches tflite::reference_integer_ops::ConvPerChannel<int32_t> (the
 * 16-bit-data overload with an int32 accumulator), which TFLite Micro and
 * TFLite run when the bias is int32 or absent: the same sums as
 * ta_conv2d_s16, but in int32 (wrapping), then the 32-bit
 * MultiplyByQuantizedMultiplier with the rounding q names, and the clamp.
 */
#include "ta_kernels.h"
#include "conv_common.h"
#include "conv_s16.h"

ta_status ta_conv2d_acc32_s16(const ta_conv_params *p, const ta_quant *q,
                              const ta_dims *in_dims, const int16_t *in,
                              const ta_dims *filter_dims, const int8_t *filter,
                              const int32_t *bias,
                              const ta_dims *out_dims, int16_t *out) {
  if (!ta_conv_shapes_ok(p, in_dims, filter_dims, out_dims) ||
      !ta_quant_s32_ok(q, out_dims->c) || p->act_min > p->act_max)
    return TA_ERR_ARG;
  const int32_t H = in_dims->h, W = in_dims->w, C = in_dims->c;
  const int32_t KH = filter_dims->h, KW = filter_dims->w, FC = filter_dims->c;
  const int32_t OH = out_dims->h, OW = out_dims->w, OC = out_dims->c;
  const int32_t groups = C / FC, per_group = OC / groups;
  const int32_t tap_stride = KW * FC; /* filter elements per filter row */
  const int32_t oc_stride = KH * tap_stride;

  for (int32_t b = 0; b < in_dims->n; b++) {
    const int16_t *in_b = in + (size_t)b * H * W * C;
    for (int32_t oy = 0; oy < OH; oy++) {
      ta_window wy = ta_conv_window(oy * p->stride_h - p->pad_h, p->dilation_h, KH, H);
      for (int32_t ox = 0; ox < OW; ox++) {
        ta_window wx = ta_conv_window(ox * p->stride_w - p->pad_w, p->dilation_w, KW, W);
        int16_t *o = out + (((size_t)b * OH + oy) * OW + ox) * OC;
        for (int32_t oc = 0; oc < OC; oc++) {
          const int32_t g = oc / per_group;
          const int8_t *w_oc = filter + (size_t)oc * oc_stride;
          int32_t acc = 0;
          for (int32_t ky = wy.start; ky < wy.end; ky++) {
            const int32_t iy = wy.origin + ky * p->dilation_h;
            for (int32_t kx = wx.start; kx < wx.end; kx++) {
              const int32_t ix = wx.origin + kx * p->dilation_w;
              const int16_t *xp = in_b + ((size_t)iy * W + ix) * C + (size_t)g * FC;
              const int8_t *wp = w_oc + ky * tap_stride + kx * FC;
              for (int32_t ic = 0; ic < FC; ic++)
                acc = ta_wrap_add32(acc, (int32_t)wp[ic] * (int32_t)xp[ic]);
            }
          }
          if (bias)
            acc = ta_wrap_add32(acc, bias[oc]);
          const int32_t c = q->per_channel ? oc : 0;
          int32_t v = ta_requant(acc, q->multiplier[c], q->shift[c], q->rounding);
          o[oc] = (int16_t)ta_clamp_i32(v, p->act_min, p->act_max);
        }
      }
    }
  }
  return TA_OK;
}
