/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_conv2d_u8 - legacy uint8 CONV_2D (asymmetric filter, one scale per
 * tensor), as TFLite's builtin uint8 kernel computes it
 * (optimized_ops::Conv: im2col padded with the input zero point, then a
 * GEMM with both offsets and one requantization):
 *
 *   acc = bias[oc] + sum_{taps inside the input} (filter + filter_offset)
 *                                                * (in + input_offset)
 *   out = clamp(requant(acc, q) + output_offset, act_min, act_max)
 *
 * Taps in the padding contribute nothing ((zero point + input_offset) is
 * 0).  Grouped convolution is not part of the uint8 format.
 *
 * The loops are TA_CONV2D_X8 (conv_x8.h), shared with the int8 kernel.
 */
#include "ta_kernels.h"
#include "conv_x8.h"

ta_status ta_conv2d_u8(const ta_conv_params *p, const ta_quant *q, int32_t filter_offset,
                       const ta_dims *in_dims, const uint8_t *in,
                       const ta_dims *filter_dims, const uint8_t *filter,
                       const int32_t *bias, const ta_dims *out_dims, uint8_t *out) {
  if (!ta_conv_shapes_ok(p, in_dims, filter_dims, out_dims) || filter_dims->c != in_dims->c)
    return TA_ERR_ARG;
  TA_CONV2D_X8(uint8_t, filter_offset);
}
