/*
 * ta_depthwise_conv2d_s16 - DEPTHWISE_CONV_2D for 16x8 quantization: int16
 * activations, int8 filter, int64 bias and accumulator.
 *
 * Matches tflite::reference_integer_ops::DepthwiseConvPerChannel, the
 * int16 overload (TFLite Micro's and TFLite's, which has no other int16
 * depthwise kernel): output channel oc = ic * depth_multiplier + m reads
 * input channel ic only; acc = the sum over the taps inside the input of
 * filter[0][ky][kx][oc] * input (no offsets: int16 is symmetric) in int64,
 * plus bias[oc]; then ta_requant_s64 (the 64-bit
 * MultiplyByQuantizedMultiplier) with the channel's multiplier, and the
 * clamp.
 */
#include "ta_kernels.h"
#include "conv_common.h"
#include "conv_s16.h"

ta_status ta_depthwise_conv2d_s16(const ta_conv_params *p, const ta_quant *q,
                                  const ta_dims *in_dims, const int16_t *in,
                                  const ta_dims *filter_dims, const int8_t *filter,
                                  const int64_t *bias,
                                  const ta_dims *out_dims, int16_t *out) {
  if (!ta_dw_shapes_ok(p, in_dims, filter_dims, out_dims) ||
      !ta_quant_s64_ok(q, out_dims->c) || p->act_min > p->act_max)
    return TA_ERR_ARG;
  const int32_t H = in_dims->h, W = in_dims->w, C = in_dims->c;
  const int32_t KH = filter_dims->h, KW = filter_dims->w, M = p->depth_multiplier;
  const int32_t OH = out_dims->h, OW = out_dims->w, OC = out_dims->c;

  for (int32_t b = 0; b < in_dims->n; b++) {
    const int16_t *in_b = in + (size_t)b * H * W * C;
    for (int32_t oy = 0; oy < OH; oy++) {
      ta_window wy = ta_conv_window(oy * p->stride_h - p->pad_h, p->dilation_h, KH, H);
      for (int32_t ox = 0; ox < OW; ox++) {
        ta_window wx = ta_conv_window(ox * p->stride_w - p->pad_w, p->dilation_w, KW, W);
        int16_t *o = out + (((size_t)b * OH + oy) * OW + ox) * OC;
        for (int32_t ic = 0; ic < C; ic++) {
          for (int32_t m = 0; m < M; m++) {
            const int32_t oc = ic * M + m;
            int64_t acc = 0;
            for (int32_t ky = wy.start; ky < wy.end; ky++) {
              const int32_t iy = wy.origin + ky * p->dilation_h;
              for (int32_t kx = wx.start; kx < wx.end; kx++) {
                const int32_t ix = wx.origin + kx * p->dilation_w;
                const int32_t x = in_b[((size_t)iy * W + ix) * C + ic];
                const int32_t w = filter[((size_t)ky * KW + kx) * OC + oc];
                acc += w * x;
              }
            }
            if (bias)
              acc += bias[oc];
            const int32_t ch = q->per_channel ? oc : 0;
            const int32_t v = ta_requant_s64(acc, q->multiplier[ch], q->shift[ch]);
            o[oc] = (int16_t)ta_clamp_i32(v, p->act_min, p->act_max);
          }
        }
      }
    }
  }
  return TA_OK;
}
