/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_depthwise_conv2d_u8 - legacy uint8 DEPTHWISE_CONV_2D (asymmetric
 * filter, one scale per tensor), as TFLite's builtin uint8 kernel
 * computes it (optimized_ops::DepthwiseConv):
 *
 *   oc = ic * depth_multiplier + m
 *   acc = bias[oc] + sum_{taps inside} (filter[0][ky][kx][oc] + filter_offset)
 *                                      * (in[n][iy][ix][ic] + input_offset)
 *   out = clamp(requant(acc, q) + output_offset, act_min, act_max)
 *
 * The output channels of a pixel are accumulated together, a block of
 * TA_DW_BLOCK at a time, so the inner loop runs over contiguous channels.
 */
#include "ta_kernels.h"
#include "conv_x8.h"

#define TA_DW_BLOCK 64

ta_status ta_depthwise_conv2d_u8(const ta_conv_params *p, const ta_quant *q,
                                 int32_t filter_offset, const ta_dims *in_dims,
                                 const uint8_t *in, const ta_dims *filter_dims,
                                 const uint8_t *filter, const int32_t *bias,
                                 const ta_dims *out_dims, uint8_t *out) {
  if (!ta_dw_shapes_ok(p, in_dims, filter_dims, out_dims))
    return TA_ERR_ARG;
  const int32_t H = in_dims->h, W = in_dims->w, C = in_dims->c;
  const int32_t KH = filter_dims->h, KW = filter_dims->w, M = p->depth_multiplier;
  const int32_t OH = out_dims->h, OW = out_dims->w, OC = out_dims->c;
  const int32_t in_off = p->input_offset, f_off = filter_offset;
  int32_t acc[TA_DW_BLOCK];
  for (int32_t b = 0; b < in_dims->n; b++) {
    const uint8_t *in_b = in + (size_t)b * (size_t)H * (size_t)W * (size_t)C;
    TA_CONV_PIXELS(uint8_t, {
      for (int32_t oc0 = 0; oc0 < OC; oc0 += TA_DW_BLOCK) {
        const int32_t n = OC - oc0 < TA_DW_BLOCK ? OC - oc0 : TA_DW_BLOCK;
        for (int32_t j = 0; j < n; j++)
          acc[j] = bias ? bias[oc0 + j] : 0;
        TA_CONV_TAPS({
          const uint8_t *xp = in_b + ((size_t)iy * (size_t)W + (size_t)ix) * (size_t)C;
          const uint8_t *wp = filter + ((size_t)ky * (size_t)KW + (size_t)kx) * (size_t)OC + oc0;
          if (M == 1) {
            xp += oc0;
            for (int32_t j = 0; j < n; j++)
              acc[j] += ((int32_t)wp[j] + f_off) * ((int32_t)xp[j] + in_off);
          } else {
            for (int32_t j = 0; j < n; j++)
              acc[j] += ((int32_t)wp[j] + f_off) * ((int32_t)xp[(oc0 + j) / M] + in_off);
          }
        })
        for (int32_t j = 0; j < n; j++)
          TA_X8_STORE(o[oc0 + j], uint8_t, acc[j], oc0 + j);
      }
    })
  }
  return TA_OK;
}
