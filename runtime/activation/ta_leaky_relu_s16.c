/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_leaky_relu_s16 - int16 LEAKY_RELU.
 *
 * Matches tflite::reference_ops::QuantizeLeakyRelu<int16_t>: x = input -
 * input zero point; x >= 0 is scaled by the identity multiplier
 * (input_scale / output_scale), x < 0 by the alpha multiplier
 * (input_scale * alpha / output_scale), each with
 * MultiplyByQuantizedMultiplier; then + output zero point and clamped to
 * int16.
 */
#include "ta_fixedpoint.h"
#include "ta_kernels.h"

ta_status ta_leaky_relu_s16(const ta_leaky_relu_params *p, const int16_t *in,
                            int16_t *out) {
  if (p->size < 0 || p->shift_alpha < -31 || p->shift_alpha > 30 ||
      p->shift_identity < -31 || p->shift_identity > 30)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < p->size; i++) {
    const int32_t x = in[i] - p->input_zero_point;
    const int32_t v = x >= 0
        ? ta_requant(x, p->multiplier_identity, p->shift_identity, p->rounding)
        : ta_requant(x, p->multiplier_alpha, p->shift_alpha, p->rounding);
    out[i] = (int16_t)ta_clamp_i32(ta_wrap_add(v, p->output_zero_point), -32768, 32767);
  }
  return TA_OK;
}
