/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_conv2d_hybrid_f32 - "hybrid" (dynamic-range) CONV_2D: float input
 * and output, int8 filter with one scale, as TFLite's builtin kernel
 * computes it (conv.cc EvalHybrid, optimized_ops::HybridConv):
 *
 *   per batch: q, factor = SymmetricQuantizeFloats(the batch's H*W*C
 *     values) (ta_hybrid.h); factor *= filter_scale
 *   acc = sum over the taps inside the input of filter * q   (int32)
 *   out = clamp((float)acc * factor + bias[oc], act_min_f32, act_max_f32)
 *
 * scratch: the quantized input of one batch
 * (ta_conv2d_hybrid_f32_scratch_size()).  Each float operation rounds
 * as written (TA_FP_STRICT), so the result is TFLite's bit for bit.
 */
#include "ta_hybrid.h"
#include "ta_kernels.h"
#include "conv_hybrid.h"

size_t ta_conv2d_hybrid_f32_scratch_size(const ta_conv_params *p, const ta_dims *in_dims,
                                         const ta_dims *filter_dims,
                                         const ta_dims *out_dims) {
  return ta_conv_hybrid_scratch_size(p, in_dims, filter_dims, out_dims);
}

TA_FP_STRICT
ta_status ta_conv2d_hybrid_f32(const ta_conv_params *p, const float *filter_scale,
                               const ta_dims *in_dims, const float *in,
                               const ta_dims *filter_dims, const int8_t *filter,
                               const float *bias, const ta_dims *out_dims, float *out,
                               void *scratch) {
  if (!ta_conv_shapes_ok(p, in_dims, filter_dims, out_dims) || filter_dims->c != in_dims->c ||
      !scratch)
    return TA_ERR_ARG;
  TA_CONV_HYBRID_BATCHES(0, {
    factor = factor * filter_scale[0];
    TA_CONV_PIXELS(float, {
      for (int32_t oc = 0; oc < OC; oc++) {
        const int8_t *w_oc = filter + (size_t)oc * (size_t)KH * (size_t)KW * (size_t)C;
        const int32_t acc = ta_conv_sum_s8(p, wy, wx, q, W, C, w_oc, KW, offset);
        float v = (float)acc * factor;
        if (bias)
          v = v + bias[oc];
        o[oc] = ta_conv_act_f32(p, v);
      }
    })
  })
  return TA_OK;
}
