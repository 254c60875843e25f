/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_abs_s16 - int16 ABS (TFLM elementwise.cc): quantized inputs (zero
 * points 0) as AbsEvalQuantized - |x|, requantized by input scale / output
 * scale when they differ (double rounding), clamped to int16; unquantized
 * ones as AbsHelper - std::abs, the result cast back to int16.
 */
#include "ta_kernels.h"
#include "ta_fixedpoint.h"

ta_status ta_abs_s16(const ta_abs_params *p, const int16_t *in, int16_t *out) {
  if (p->size < 0)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < p->size; i++) {
    const int32_t x = in[i];
    const int32_t v = x < 0 ? -x : x;
    if (!p->quantized) {
      out[i] = (int16_t)(uint16_t)v; /* 32768 wraps to -32768 */
      continue;
    }
    const int32_t r = p->rescale ? ta_requant_double(v, p->multiplier, p->shift) : v;
    out[i] = (int16_t)ta_clamp_i32(r, INT16_MIN, INT16_MAX);
  }
  return TA_OK;
}
