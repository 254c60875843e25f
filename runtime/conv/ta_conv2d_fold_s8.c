/*
 * ta_conv2d_fold_s8 - int8 CONV_2D with the input zero point folded into
 * the bias: the same bytes as ta_conv2d_s8 (TFLite's ConvPerChannel),
 * fewer operations.
 *
 * The compiler passes bias_fold[oc] = bias[oc] + input_offset * (sum of
 * all filter[oc] weights) (fold_bias_s8()).  A filter tap in the padding
 * then has to contribute filter * (-input_offset), i.e. the padding holds
 * the input zero point, and
 *
 *   acc = bias_fold[oc] + sum_{all taps} filter * x,  x = zero point outside
 *
 * equals TFLite's bias + sum_{taps inside} filter * (x + input_offset).
 *
 * Per output pixel the filter window is gathered once into a column of
 * kh * kw * fc values in the scratch buffer, widened to int16 (padding
 * filled with the zero point), laid out like one filter row (OHWI).
 * Then every output channel is one dot product of that column with its
 * int8 filter row, four channels at a time (ta_dot_s8.h); the widening
 * is paid once per pixel, not once per output channel.
 *
 * Scratch: 2 * kh * kw * fc bytes (ta_conv2d_fold_s8_scratch_size()).
 */
#include "ta_fixedpoint.h"
#include "ta_kernels.h"
#include "conv_common.h"
#include "ta_dot_s8.h"

size_t ta_conv2d_fold_s8_scratch_size(const ta_conv_params *p, const ta_dims *in_dims,
                                      const ta_dims *filter_dims, const ta_dims *out_dims) {
  (void)p;
  (void)in_dims;
  (void)out_dims;
  return 2 * (size_t)filter_dims->h * (size_t)filter_dims->w * (size_t)filter_dims->c;
}

static inline int8_t finish(int32_t acc, const ta_conv_params *p, const ta_quant *q, int32_t oc) {
  const int32_t ch = q->per_channel ? oc : 0;
  acc = ta_requant(acc, q->multiplier[ch], q->shift[ch], q->rounding) + p->output_offset;
  return (int8_t)ta_clamp_i32(acc, p->act_min, p->act_max);
}

ta_status ta_conv2d_fold_s8(const ta_conv_params *p, const ta_quant *q,
                            const ta_dims *in_dims, const int8_t *in,
                            const ta_dims *filter_dims, const int8_t *filter,
                            const int32_t *bias_fold,
                            const ta_dims *out_dims, int8_t *out, void *scratch) {
  if (!ta_conv_shapes_ok(p, in_dims, filter_dims, out_dims) || !bias_fold)
    return TA_ERR_ARG;
  const int32_t H = in_dims->h, W = in_dims->w, C = in_dims->c;
  const int32_t KH = filter_dims->h, KW = filter_dims->w, FC = filter_dims->c;
  const int32_t OH = out_dims->h, OW = out_dims->w, OC = out_dims->c;
  const int32_t groups = C / FC, per_group = OC / groups;
  const int32_t K = KH * KW * FC; /* column length = filter row length */
  const int16_t zp = (int16_t)ta_clamp_i32(-p->input_offset, -128, 127);
  int16_t *col = (int16_t *)scratch;
  if (!col)
    return TA_ERR_ARG;

  for (int32_t b = 0; b < in_dims->n; b++) {
    const int8_t *in_b = in + (size_t)b * H * W * C;
    for (int32_t oy = 0; oy < OH; oy++) {
      const ta_window wy = ta_conv_window(oy * p->stride_h - p->pad_h, p->dilation_h, KH, H);
      for (int32_t ox = 0; ox < OW; ox++) {
        const ta_window wx = ta_conv_window(ox * p->stride_w - p->pad_w, p->dilation_w, KW, W);
        int8_t *o = out + (((size_t)b * OH + oy) * OW + ox) * OC;
        for (int32_t g = 0; g < groups; g++) {
          const int8_t *in_g = in_b + (size_t)g * FC;
          int16_t *dst = col;
          for (int32_t ky = 0; ky < KH; ky++) {
            const int32_t iy = wy.origin + ky * p->dilation_h;
            const int iny = ky >= wy.start && ky < wy.end;
            for (int32_t kx = 0; kx < KW; kx++, dst += FC) {
              if (!iny || kx < wx.start || kx >= wx.end) {
                for (int32_t c = 0; c < FC; c++)
                  dst[c] = zp;
              } else {
                const int8_t *src =
                    in_g + ((size_t)iy * W + wx.origin + kx * p->dilation_w) * C;
                for (int32_t c = 0; c < FC; c++)
                  dst[c] = src[c];
              }
            }
          }
          int32_t oc = g * per_group;
          const int32_t oc_end = oc + per_group;
          for (; oc + 4 <= oc_end; oc += 4) {
            int32_t acc[4] = {bias_fold[oc], bias_fold[oc + 1], bias_fold[oc + 2],
                              bias_fold[oc + 3]};
            ta_dot4_s16s8(col, filter + (size_t)oc * K, K, K, acc);
            o[oc] = finish(acc[0], p, q, oc);
            o[oc + 1] = finish(acc[1], p, q, oc + 1);
            o[oc + 2] = finish(acc[2], p, q, oc + 2);
            o[oc + 3] = finish(acc[3], p, q, oc + 3);
          }
          for (; oc < oc_end; oc++)
            o[oc] =
                finish(bias_fold[oc] + ta_dot1_s16s8(col, filter + (size_t)oc * K, K), p, q, oc);
        }
      }
    }
  }
  return TA_OK;
}
