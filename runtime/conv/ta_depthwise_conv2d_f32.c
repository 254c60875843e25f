/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_depthwise_conv2d_f32 - float DEPTHWISE_CONV_2D, any depth multiplier.
 *
 * Matches tflite::reference_ops::DepthwiseConv (float): output channel
 * oc = ic * M + m, total = 0; for ky, for kx (taps inside):
 * total += in[ic] * filter[oc]; then min(max(total + bias, lo), hi).
 */
#include "ta_kernels.h"
#include "conv_common.h"

ta_status ta_depthwise_conv2d_f32(const ta_conv_params *p,
                                  const ta_dims *in_dims, const float *in,
                                  const ta_dims *filter_dims, const float *filter,
                                  const float *bias,
                                  const ta_dims *out_dims, float *out) {
  if (!ta_dw_shapes_ok(p, in_dims, filter_dims, out_dims))
    return TA_ERR_ARG;
  const int32_t H = in_dims->h, W = in_dims->w, C = in_dims->c;
  const int32_t KH = filter_dims->h, KW = filter_dims->w, M = p->depth_multiplier;
  const int32_t OH = out_dims->h, OW = out_dims->w, OC = out_dims->c;
  for (int32_t b = 0; b < in_dims->n; b++) {
    const float *in_b = in + (size_t)b * (size_t)H * (size_t)W * (size_t)C;
    TA_CONV_PIXELS(float, {
      for (int32_t ic = 0; ic < C; ic++) {
        for (int32_t m = 0; m < M; m++) {
          const int32_t oc = ic * M + m;
          float t = 0.0f;
          TA_CONV_TAPS({
            t += in_b[((size_t)iy * (size_t)W + (size_t)ix) * (size_t)C + (size_t)ic] *
                 filter[((size_t)ky * (size_t)KW + (size_t)kx) * (size_t)OC + (size_t)oc];
          })
          o[oc] = ta_conv_act_f32(p, t + (bias ? bias[oc] : 0.0f));
        }
      }
    })
  }
  return TA_OK;
}
