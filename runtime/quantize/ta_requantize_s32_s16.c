/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_requantize_s32_s16 - QUANTIZE, int32_t -> int16_t (see quant_common.h
 * for the arithmetic and the TFLite function it matches).  The input may
 * use the whole int32 range, so the zero point is subtracted with
 * wrap-around (TFLite's int32 subtraction).
 */
#include "ta_kernels.h"
#include "quant_common.h"

ta_status ta_requantize_s32_s16(const ta_requant_params *p, const int32_t *in,
                                int16_t *out) {
  if (p->size < 0 || p->shift < -31 || p->shift > 30)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < p->size; i++) {
    const int32_t x = ta_wrap_sub(in[i], p->input_zero_point);
    const int32_t v = ta_requant(x, p->multiplier, p->shift, p->rounding);
    out[i] = (int16_t)ta_clamp_i32(ta_wrap_add(v, p->output_zero_point), -32768, 32767);
  }
  return TA_OK;
}
