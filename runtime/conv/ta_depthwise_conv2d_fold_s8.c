/*
 * ta_depthwise_conv2d_fold_s8 - int8 DEPTHWISE_CONV_2D with the input
 * zero point folded into the bias: the same bytes as
 * ta_depthwise_conv2d_s8 (TFLite's DepthwiseConvPerChannel).
 *
 * bias_fold[oc] = bias[oc] + input_offset * sum_{ky,kx} filter[ky][kx][oc]
 * (fold_bias_depthwise_s8()), so
 *
 *   acc = bias_fold[oc] + sum_{taps inside} w * x
 *                       - input_offset * sum_{taps in the padding} w.
 *
 * With depth multiplier 1, four neighbouring channels are computed
 * together (contiguous loads of input and filter per tap); other
 * multipliers take one output channel at a time.
 */
#include "ta_fixedpoint.h"
#include "ta_kernels.h"
#include "conv_common.h"

size_t ta_depthwise_conv2d_fold_s8_scratch_size(const ta_conv_params *p,
                                                const ta_dims *in_dims,
                                                const ta_dims *filter_dims,
                                                const ta_dims *out_dims) {
  (void)p;
  (void)in_dims;
  (void)filter_dims;
  (void)out_dims;
  return 0;
}

static inline int8_t finish(int32_t acc, const ta_conv_params *p, const ta_quant *q, int32_t oc) {
  const int32_t ch = q->per_channel ? oc : 0;
  acc = ta_requant(acc, q->multiplier[ch], q->shift[ch], q->rounding) + p->output_offset;
  return (int8_t)ta_clamp_i32(acc, p->act_min, p->act_max);
}

/* One output channel oc reading input channel data at xr (top-left
 * valid tap) with filter at wr. */
static int8_t one_channel(const ta_conv_params *p, const ta_quant *q, const int32_t *bias_fold,
                          const int8_t *filter, int32_t KH, int32_t KW, int32_t OC,
                          const ta_window *wy, const ta_window *wx, int border,
                          const int8_t *xr, const int8_t *wr, size_t xstep_y, size_t xstep_x,
                          size_t wstep_y, size_t wstep_x, int32_t oc) {
  int32_t a = bias_fold[oc];
  for (int32_t ky = wy->start; ky < wy->end; ky++, xr += xstep_y, wr += wstep_y) {
    const int8_t *xp = xr, *wp = wr;
    for (int32_t kx = wx->start; kx < wx->end; kx++, xp += xstep_x, wp += wstep_x)
      a += wp[0] * xp[0];
  }
  if (border) {
    for (int32_t ky = 0; ky < KH; ky++) {
      const int iny = ky >= wy->start && ky < wy->end;
      for (int32_t kx = 0; kx < KW; kx++)
        if (!(iny && kx >= wx->start && kx < wx->end))
          a -= p->input_offset * filter[((size_t)ky * KW + kx) * OC + oc];
    }
  }
  return finish(a, p, q, oc);
}

ta_status ta_depthwise_conv2d_fold_s8(const ta_conv_params *p, const ta_quant *q,
                                      const ta_dims *in_dims, const int8_t *in,
                                      const ta_dims *filter_dims, const int8_t *filter,
                                      const int32_t *bias_fold,
                                      const ta_dims *out_dims, int8_t *out, void *scratch) {
  (void)scratch;
  if (!ta_dw_shapes_ok(p, in_dims, filter_dims, out_dims) || !bias_fold)
    return TA_ERR_ARG;
  const int32_t H = in_dims->h, W = in_dims->w, C = in_dims->c;
  const int32_t KH = filter_dims->h, KW = filter_dims->w, M = p->depth_multiplier;
  const int32_t OH = out_dims->h, OW = out_dims->w, OC = out_dims->c;
  const int32_t off = p->input_offset;
  const int32_t dh = p->dilation_h, dw = p->dilation_w;

  for (int32_t b = 0; b < in_dims->n; b++) {
    const int8_t *in_b = in + (size_t)b * H * W * C;
    for (int32_t oy = 0; oy < OH; oy++) {
      ta_window wy = ta_conv_window(oy * p->stride_h - p->pad_h, dh, KH, H);
      for (int32_t ox = 0; ox < OW; ox++) {
        ta_window wx = ta_conv_window(ox * p->stride_w - p->pad_w, dw, KW, W);
        const int border = wy.start != 0 || wy.end != KH || wx.start != 0 || wx.end != KW;
        int8_t *o = out + (((size_t)b * OH + oy) * OW + ox) * OC;
        /* top-left valid tap */
        const int empty = wy.start == wy.end || wx.start == wx.end;
        const int8_t *x0 = empty ? in_b
                                 : in_b + ((size_t)(wy.origin + wy.start * dh) * W +
                                           (size_t)(wx.origin + wx.start * dw)) * C;
        const int8_t *w0 = empty ? filter : filter + ((size_t)wy.start * KW + wx.start) * OC;
        const size_t xstep_y = (size_t)dh * W * C, xstep_x = (size_t)dw * C;
        const size_t wstep_y = (size_t)KW * OC, wstep_x = (size_t)OC;
        int32_t oc = 0;
        if (M == 1) {
          for (; oc + 4 <= OC; oc += 4) {
            int32_t a0 = bias_fold[oc], a1 = bias_fold[oc + 1];
            int32_t a2 = bias_fold[oc + 2], a3 = bias_fold[oc + 3];
            const int8_t *xr = x0 + oc, *wr = w0 + oc;
            for (int32_t ky = wy.start; ky < wy.end; ky++, xr += xstep_y, wr += wstep_y) {
              const int8_t *xp = xr, *wp = wr;
              for (int32_t kx = wx.start; kx < wx.end; kx++, xp += xstep_x, wp += wstep_x) {
                a0 += wp[0] * xp[0];
                a1 += wp[1] * xp[1];
                a2 += wp[2] * xp[2];
                a3 += wp[3] * xp[3];
              }
            }
            if (border) {
              for (int32_t ky = 0; ky < KH; ky++) {
                const int iny = ky >= wy.start && ky < wy.end;
                for (int32_t kx = 0; kx < KW; kx++) {
                  if (iny && kx >= wx.start && kx < wx.end)
                    continue;
                  const int8_t *wp = filter + ((size_t)ky * KW + kx) * OC + oc;
                  a0 -= off * wp[0];
                  a1 -= off * wp[1];
                  a2 -= off * wp[2];
                  a3 -= off * wp[3];
                }
              }
            }
            o[oc] = finish(a0, p, q, oc);
            o[oc + 1] = finish(a1, p, q, oc + 1);
            o[oc + 2] = finish(a2, p, q, oc + 2);
            o[oc + 3] = finish(a3, p, q, oc + 3);
          }
        }
        if (M == 1) {
          for (; oc < OC; oc++)
            o[oc] = one_channel(p, q, bias_fold, filter, KH, KW, OC, &wy, &wx, border, x0 + oc,
                                w0 + oc, xstep_y, xstep_x, wstep_y, wstep_x, oc);
        } else {
          for (int32_t ic = 0; ic < C; ic++)
            for (int32_t m = 0; m < M; m++) {
              oc = ic * M + m;
              o[oc] = one_channel(p, q, bias_fold, filter, KH, KW, OC, &wy, &wx, border, x0 + ic,
                                  w0 + oc, xstep_y, xstep_x, wstep_y, wstep_x, oc);
            }
        }
      }
    }
  }
  return TA_OK;
}
