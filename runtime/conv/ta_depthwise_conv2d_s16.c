/* SPDX-License-Identifier: Apache-2.0 */
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
 * clamp (TA_DEPTHWISE_CONV2D_S16 in conv_s16.h).
 */
#include "ta_kernels.h"
#include "conv_s16.h"

ta_status ta_depthwise_conv2d_s16(const ta_conv_params *p, const ta_quant *q,
                                  const ta_dims *in_dims, const int16_t *in,
                                  const ta_dims *filter_dims, const int8_t *filter,
                                  const int64_t *bias,
                                  const ta_dims *out_dims, int16_t *out) {
  if (!ta_dw_shapes_ok(p, in_dims, filter_dims, out_dims) ||
      !ta_quant_s64_ok(q, out_dims->c) || p->act_min > p->act_max)
    return TA_ERR_ARG;
  TA_DEPTHWISE_CONV2D_S16(64);
}
