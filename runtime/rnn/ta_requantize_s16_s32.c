/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_requantize_s16_s32 - QUANTIZE int16 -> int32 (TFLM
 * reference_ops::Requantize<int16_t, int32_t>):
 *   out = clamp(MultiplyByQuantizedMultiplier(in - input_zp, m, s) + output_zp)
 * to the int32 range (the sum wraps as in TFLite's int32 arithmetic).
 */
#include "ta_fixedpoint.h"
#include "ta_kernels.h"

ta_status ta_requantize_s16_s32(const ta_requant_params *p, const int16_t *in,
                                int32_t *out) {
  if (p->size < 0 || p->shift < -31 || p->shift > 30)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < p->size; i++) {
    const int32_t v = ta_requant((int32_t)in[i] - p->input_zero_point, p->multiplier,
                                 p->shift, p->rounding);
    out[i] = ta_wrap_add(v, p->output_zero_point);
  }
  return TA_OK;
}
