/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_conv2d_acc32_s16 - CONV_2D for 16x8 quantization with an int32 bias
 * (or none): int16 activations, int8 filter, int32 accumulator.
 *
 * Matches tflite::reference_integer_ops::ConvPerChannel<int32_t> (the
 * 16-bit-data overload with an int32 accumulator), which TFLite Micro and
 * TFLite run when the bias is int32 or absent: the same sums as
 * ta_conv2d_s16, but in int32 (wrapping), then the 32-bit
 * MultiplyByQuantizedMultiplier with the rounding q names, and the clamp
 * (TA_CONV2D_S16 in conv_s16.h).
 */
#include "ta_kernels.h"
#include "conv_s16.h"

ta_status ta_conv2d_acc32_s16(const ta_conv_params *p, const ta_quant *q,
                              const ta_dims *in_dims, const int16_t *in,
                              const ta_dims *filter_dims, const int8_t *filter,
                              const int32_t *bias,
                              const ta_dims *out_dims, int16_t *out) {
  if (!ta_conv_shapes_ok(p, in_dims, filter_dims, out_dims) ||
      !ta_quant_s32_ok(q, out_dims->c) || p->act_min > p->act_max)
    return TA_ERR_ARG;
  TA_CONV2D_S16(32);
}
