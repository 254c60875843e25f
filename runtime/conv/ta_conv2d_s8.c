/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_conv2d_s8 - int8 CONV_2D, the reference form.
 *
 * Matches tflite::reference_integer_ops::ConvPerChannel: for every output
 * element, acc = sum over the filter taps that fall inside the input of
 * filter * (input + input_offset), plus bias; then requantized with the
 * output channel's multiplier/shift, offset and clamped.  Grouped
 * convolution (filter depth < input depth) is handled as TFLite does.
 *
 * Loop order: batch, output row, output column, group, output channel;
 * the valid filter window is found once per output pixel, so the inner
 * loop is a branch-free dot product over contiguous input channels.
 *
 * The loops are TA_CONV2D_X8 (conv_x8.h), shared with the uint8 kernel.
 */
#include "ta_kernels.h"
#include "conv_x8.h"

size_t ta_conv2d_s8_scratch_size(const ta_conv_params *p, const ta_dims *in_dims,
                                 const ta_dims *filter_dims, const ta_dims *out_dims) {
  (void)p;
  (void)in_dims;
  (void)filter_dims;
  (void)out_dims;
  return 0;
}

ta_status ta_conv2d_s8(const ta_conv_params *p, const ta_quant *q,
                       const ta_dims *in_dims, const int8_t *in,
                       const ta_dims *filter_dims, const int8_t *filter,
                       const int32_t *bias,
                       const ta_dims *out_dims, int8_t *out, void *scratch) {
  (void)scratch;
  if (!ta_conv_shapes_ok(p, in_dims, filter_dims, out_dims))
    return TA_ERR_ARG;
  TA_CONV2D_X8(int8_t, 0);
}
