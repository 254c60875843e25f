/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_transpose_conv_s8 - int8 TRANSPOSE_CONV, per-channel requantization
 * (reference_integer_ops::TransposeConv): the scatter form - every input
 * element adds (in + input_offset) * filter[oc][ky][kx][ic] to the int32
 * accumulator of output (iy * stride_h - pad_h + ky, ix * stride_w -
 * pad_w + kx, oc) when that lies inside the output; then per output
 *   out = clamp(requant(acc + bias[oc], q, oc) + output_offset, act_min, act_max)
 * filter_dims {n = out channels, h, w, c = in channels} (OHWI).
 * scratch: the int32 accumulators, ta_transpose_conv_s8_scratch_size().
 * The loops are TA_TRANSPOSE_CONV_X8 (conv_x8.h), shared with the uint8 kernel.
 */
#include "ta_kernels.h"
#include "conv_x8.h"

size_t ta_transpose_conv_s8_scratch_size(const ta_conv_params *p, const ta_dims *in_dims,
                                         const ta_dims *filter_dims,
                                         const ta_dims *out_dims) {
  (void)p;
  (void)in_dims;
  (void)filter_dims;
  return ta_transpose_x8_scratch(out_dims);
}

ta_status ta_transpose_conv_s8(const ta_conv_params *p, const ta_quant *q,
                               const ta_dims *in_dims, const int8_t *in,
                               const ta_dims *filter_dims, const int8_t *filter,
                               const int32_t *bias, const ta_dims *out_dims, int8_t *out,
                               void *scratch) {
  TA_TRANSPOSE_CONV_X8(int8_t, 0);
}
