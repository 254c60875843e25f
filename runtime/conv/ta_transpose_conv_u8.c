/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_transpose_conv_u8 - legacy uint8 TRANSPOSE_CONV (TFLite's builtin
 * uint8 kernel; reference_ops::TransposeConv): the scatter form - every
 * input element adds (in + input_offset) * (filter[oc][ky][kx][ic] +
 * filter_offset) to the int32 accumulator of output (iy * stride_h -
 * pad_h + ky, ix * stride_w - pad_w + kx, oc) when that lies inside the
 * output; then per output
 *   out = clamp(requant(acc + bias[oc], q) + output_offset, act_min, act_max)
 * filter_dims {n = out channels, h, w, c = in channels} (OHWI).
 * scratch: the int32 accumulators, ta_transpose_conv_u8_scratch_size().
 * The loops are TA_TRANSPOSE_CONV_X8 (conv_x8.h), shared with the int8 kernel.
 */
#include "ta_kernels.h"
#include "conv_x8.h"

size_t ta_transpose_conv_u8_scratch_size(const ta_conv_params *p, const ta_dims *in_dims,
                                         const ta_dims *filter_dims,
                                         const ta_dims *out_dims) {
  (void)p;
  (void)in_dims;
  (void)filter_dims;
  return ta_transpose_x8_scratch(out_dims);
}

ta_status ta_transpose_conv_u8(const ta_conv_params *p, const ta_quant *q,
                               int32_t filter_offset, const ta_dims *in_dims,
                               const uint8_t *in, const ta_dims *filter_dims,
                               const uint8_t *filter, const int32_t *bias,
                               const ta_dims *out_dims, uint8_t *out, void *scratch) {
  TA_TRANSPOSE_CONV_X8(uint8_t, filter_offset);
}
