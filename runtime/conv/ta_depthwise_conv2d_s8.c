/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_depthwise_conv2d_s8 - int8 DEPTHWISE_CONV_2D, the reference form.
 *
 * Matches tflite::reference_integer_ops::DepthwiseConvPerChannel: output
 * channel oc = ic * depth_multiplier + m reads input channel ic only;
 * acc = bias[oc] + sum over the taps inside the input of
 * filter[0][ky][kx][oc] * (input + input_offset); requantized per output
 * channel, offset, clamped.
 */
#include "ta_kernels.h"
#include "conv_x8.h"

size_t ta_depthwise_conv2d_s8_scratch_size(const ta_conv_params *p, const ta_dims *in_dims,
                                           const ta_dims *filter_dims,
                                           const ta_dims *out_dims) {
  (void)p;
  (void)in_dims;
  (void)filter_dims;
  (void)out_dims;
  return 0;
}

ta_status ta_depthwise_conv2d_s8(const ta_conv_params *p, const ta_quant *q,
                                 const ta_dims *in_dims, const int8_t *in,
                                 const ta_dims *filter_dims, const int8_t *filter,
                                 const int32_t *bias,
                                 const ta_dims *out_dims, int8_t *out, void *scratch) {
  (void)scratch;
  if (!ta_dw_shapes_ok(p, in_dims, filter_dims, out_dims))
    return TA_ERR_ARG;
  const int32_t H = in_dims->h, W = in_dims->w, C = in_dims->c;
  const int32_t KH = filter_dims->h, KW = filter_dims->w, M = p->depth_multiplier;
  const int32_t OH = out_dims->h, OW = out_dims->w, OC = out_dims->c;
  const int32_t off = p->input_offset;

  for (int32_t b = 0; b < in_dims->n; b++) {
    const int8_t *in_b = in + (size_t)b * (size_t)H * (size_t)W * (size_t)C;
    TA_CONV_PIXELS(int8_t, {
      for (int32_t ic = 0; ic < C; ic++) {
        for (int32_t m = 0; m < M; m++) {
          const int32_t oc = ic * M + m;
          int32_t acc = 0;
          TA_CONV_TAPS({
            int32_t x = in_b[((size_t)iy * (size_t)W + (size_t)ix) * (size_t)C + (size_t)ic];
            int32_t w = filter[((size_t)ky * (size_t)KW + (size_t)kx) * (size_t)OC + (size_t)oc];
            acc += w * (x + off);
          })
          if (bias)
            acc += bias[oc];
          TA_X8_STORE(o[oc], int8_t, acc, oc);
        }
      }
    })
  }
  return TA_OK;
}
