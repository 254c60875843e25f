/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_transpose_conv_acc32_s16 - TRANSPOSE_CONV for 16x8 quantization with
 * an int32 bias (or none): int16 activations, int8 filter, int32
 * accumulator.
 *
 * Matches tflite::reference_integer_ops::TransposeConv<int32_t> (the int16
 * overload with an int32 scratch), which TFLite runs when the bias is not
 * int64: the products of ta_transpose_conv_s16, gathered per output
 * element, summed in int32 (wrapping like TFLite's int32 scratch), plus the
 * bias; then the 32-bit MultiplyByQuantizedMultiplier with the rounding q
 * names (not the 16-bit-multiplier form of the int64 path), and the clamp
 * (TA_TRANSPOSE_CONV_S16 in conv_s16.h).
 */
#include "ta_kernels.h"
#include "conv_s16.h"

ta_status ta_transpose_conv_acc32_s16(const ta_conv_params *p, const ta_quant *q,
                                      const ta_dims *in_dims, const int16_t *in,
                                      const ta_dims *filter_dims, const int8_t *filter,
                                      const int32_t *bias,
                                      const ta_dims *out_dims, int16_t *out) {
  if (!ta_transpose_shapes_ok(p, in_dims, filter_dims, out_dims) ||
      p->act_min > p->act_max || !ta_quant_s32_ok(q, out_dims->c))
    return TA_ERR_ARG;
  TA_TRANSPOSE_CONV_S16(32);
}
