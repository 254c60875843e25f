/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_conv2d_s16 - CONV_2D for 16x8 quantization: int16 activations, int8
 * filter, int64 bias and accumulator.
 *
 * Matches tflite::reference_integer_ops::ConvPerChannel<int64_t> (the
 * 16-bit-data overload): for every output element, acc = the sum over the
 * filter taps inside the input of filter * input (no offsets: int16 is
 * symmetric), plus the bias; then ta_requant_s64 with the output channel's
 * multiplier and shift, and the activation clamp.  Grouped convolution as
 * ta_conv2d_s8.  Loop order as ta_conv2d_s8: the valid filter window is
 * found once per output pixel, the inner loop is a dot product over
 * contiguous input channels (TA_CONV2D_S16 in conv_s16.h).
 */
#include "ta_kernels.h"
#include "conv_s16.h"

ta_status ta_conv2d_s16(const ta_conv_params *p, const ta_quant *q,
                        const ta_dims *in_dims, const int16_t *in,
                        const ta_dims *filter_dims, const int8_t *filter,
                        const int64_t *bias,
                        const ta_dims *out_dims, int16_t *out) {
  if (!ta_conv_shapes_ok(p, in_dims, filter_dims, out_dims) ||
      !ta_quant_s64_ok(q, out_dims->c) || p->act_min > p->act_max)
    return TA_ERR_ARG;
  TA_CONV2D_S16(64);
}
