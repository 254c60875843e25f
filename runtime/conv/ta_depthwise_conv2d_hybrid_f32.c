/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_depthwise_conv2d_hybrid_f32 - "hybrid" (dynamic-range)
 * DEPTHWISE_CONV_2D: float input and output, int8 filter with one scale
 * per output channel, float bias, as TFLite's builtin kernel computes it
 * (depthwise_conv.cc EvalHybridPerChannel,
 * reference_integer_ops::DepthwiseConvHybridPerChannel):
 *
 *   per batch: q, factor, offset = AsymmetricQuantizeFloats(the batch's
 *     H*W*C values) (ta_hybrid.h)
 *   per output channel oc = ic * M + m:
 *     acc = sum over the taps inside the input of
 *           filter[oc] * (q[ic] - offset)                    (int32)
 *     out = clamp((float)acc * (filter_scale[oc] * factor) + bias[oc])
 *
 * scratch: the quantized input of one batch
 * (ta_depthwise_conv2d_hybrid_f32_scratch_size()).  Float steps round as
 * written (TA_FP_STRICT).
 */
#include "ta_hybrid.h"
#include "ta_kernels.h"
#include "conv_hybrid.h"

size_t ta_depthwise_conv2d_hybrid_f32_scratch_size(const ta_conv_params *p,
                                                   const ta_dims *in_dims,
                                                   const ta_dims *filter_dims,
                                                   const ta_dims *out_dims) {
  return ta_conv_hybrid_scratch_size(p, in_dims, filter_dims, out_dims);
}

TA_FP_STRICT
ta_status ta_depthwise_conv2d_hybrid_f32(const ta_conv_params *p, const float *filter_scale,
                                         const ta_dims *in_dims, const float *in,
                                         const ta_dims *filter_dims, const int8_t *filter,
                                         const float *bias, const ta_dims *out_dims,
                                         float *out, void *scratch) {
  if (!ta_dw_shapes_ok(p, in_dims, filter_dims, out_dims) || !scratch || !filter_scale)
    return TA_ERR_ARG;
  const int32_t M = p->depth_multiplier;
  TA_CONV_HYBRID_BATCHES(1, {
    TA_CONV_PIXELS(float, {
      for (int32_t ic = 0; ic < C; ic++) {
        for (int32_t m = 0; m < M; m++) {
          const int32_t oc = ic * M + m;
          int32_t acc = 0;
          TA_CONV_TAPS({
            acc += (int32_t)filter[((size_t)ky * (size_t)KW + (size_t)kx) * (size_t)OC + (size_t)oc] *
                   ((int32_t)q[((size_t)iy * (size_t)W + (size_t)ix) * (size_t)C + (size_t)ic] - offset);
          })
          float v = (float)acc * (filter_scale[oc] * factor);
          if (bias)
            v = v + bias[oc];
          o[oc] = ta_conv_act_f32(p, v);
        }
      }
    })
  })
  return TA_OK;
}
