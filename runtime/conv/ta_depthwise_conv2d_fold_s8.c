/*
 * ta_depthwise_conv2d_fold_s8 - int8 DEPTHWISE_CONV_2D with the input
 * zero point folded into the bias: the same bytes as
 * ta_depthwise_conv2d_s8 (TFLite's DepthwiseConvPerChannel).
 *
 * bias_fold[oc] = bias[oc] + input_offset * sum_{ky,kx} filter[ky][kx][oc]
 * (fold_bias_depthwise_s8()).  A tap in the padding then reads the input
 * zero point, and
 *
 *   acc = bias_fold[oc] + sum_{all taps} filter * x,  x = zero point outside
 *
 * equals TFLite's bias + sum_{taps inside} filter * (x + input_offset).
 *
 * Depth multiplier 1: output channels in blocks of TA_DW_BLOCK; for each
 * tap the block is one multiply-add of two contiguous byte vectors (the
 * input pixel and the filter tap) into a small accumulator array - loops
 * with a compile-time trip count that compilers vectorize.  Other depth
 * multipliers: per input channel, its `multiplier` output channels are
 * contiguous in the filter and take the same input byte.
 */
#include "ta_fixedpoint.h"
#include "ta_kernels.h"
#include "conv_common.h"

#define TA_DW_BLOCK 16

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
  const int8_t zp = (int8_t)ta_clamp_i32(-p->input_offset, -128, 127);
  int8_t zrow[TA_DW_BLOCK];
  int32_t acc[TA_DW_BLOCK];
  for (int j = 0; j < TA_DW_BLOCK; j++)
    zrow[j] = zp;

  for (int32_t b = 0; b < in_dims->n; b++) {
    const int8_t *in_b = in + (size_t)b * H * W * C;
    for (int32_t oy = 0; oy < OH; oy++) {
      const ta_window wy = ta_conv_window(oy * p->stride_h - p->pad_h, p->dilation_h, KH, H);
      for (int32_t ox = 0; ox < OW; ox++) {
        const ta_window wx = ta_conv_window(ox * p->stride_w - p->pad_w, p->dilation_w, KW, W);
        int8_t *o = out + (((size_t)b * OH + oy) * OW + ox) * OC;
        if (M == 1) {
          for (int32_t c0 = 0; c0 < C; c0 += TA_DW_BLOCK) {
            const int32_t n = C - c0 < TA_DW_BLOCK ? C - c0 : TA_DW_BLOCK;
            for (int32_t j = 0; j < n; j++)
              acc[j] = bias_fold[c0 + j];
            for (int32_t ky = 0; ky < KH; ky++) {
              const int iny = ky >= wy.start && ky < wy.end;
              const int32_t iy = wy.origin + ky * p->dilation_h;
              const int8_t *wp = filter + (size_t)ky * KW * OC + c0;
              for (int32_t kx = 0; kx < KW; kx++, wp += OC) {
                const int8_t *xp = zrow;
                if (iny && kx >= wx.start && kx < wx.end)
                  xp = in_b + ((size_t)iy * W + (wx.origin + kx * p->dilation_w)) * C + c0;
                if (n == TA_DW_BLOCK) {
                  for (int j = 0; j < TA_DW_BLOCK; j++)
                    acc[j] += wp[j] * xp[j];
                } else if (n == 8) {
                  for (int j = 0; j < 8; j++)
                    acc[j] += wp[j] * xp[j];
                } else {
                  for (int32_t j = 0; j < n; j++)
                    acc[j] += wp[j] * xp[j];
                }
              }
            }
            for (int32_t j = 0; j < n; j++)
              o[c0 + j] = finish(acc[j], p, q, c0 + j);
          }
        } else {
          for (int32_t ic = 0; ic < C; ic++) {
            for (int32_t m0 = 0; m0 < M; m0 += TA_DW_BLOCK) {
              const int32_t n = M - m0 < TA_DW_BLOCK ? M - m0 : TA_DW_BLOCK;
              const int32_t oc0 = ic * M + m0;
              for (int32_t j = 0; j < n; j++)
                acc[j] = bias_fold[oc0 + j];
              for (int32_t ky = 0; ky < KH; ky++) {
                const int iny = ky >= wy.start && ky < wy.end;
                const int32_t iy = wy.origin + ky * p->dilation_h;
                const int8_t *wp = filter + (size_t)ky * KW * OC + oc0;
                for (int32_t kx = 0; kx < KW; kx++, wp += OC) {
                  int32_t xv = zp;
                  if (iny && kx >= wx.start && kx < wx.end)
                    xv = in_b[((size_t)iy * W + (wx.origin + kx * p->dilation_w)) * C + ic];
                  if (n == TA_DW_BLOCK) {
                    for (int j = 0; j < TA_DW_BLOCK; j++)
                      acc[j] += wp[j] * xv;
                  } else if (n == 8) {
                    for (int j = 0; j < 8; j++)
                      acc[j] += wp[j] * xv;
                  } else {
                    for (int32_t j = 0; j < n; j++)
                      acc[j] += wp[j] * xv;
                  }
                }
              }
              for (int32_t j = 0; j < n; j++)
                o[oc0 + j] = finish(acc[j], p, q, oc0 + j);
            }
          }
        }
      }
    }
  }
  return TA_OK;
}
