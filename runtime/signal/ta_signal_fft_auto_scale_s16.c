/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_signal_fft_auto_scale_s16 - SignalFftAutoScale (TFLM FftAutoScale):
 *   m = MaxAbs16(in)  (an int16: |-32768| wraps to -32768)
 *   s = max(0, 16 - MostSignificantBit32((uint32)m) - 1)
 *   out[i] = in[i] * 2^s (wrapping to int16), *scale_bits = s.
 * MostSignificantBit32(0) is 32 in TFLM's gcc build, so an all-zero
 * input (or one holding -32768) gets s = 0.
 */
#include "signal_common.h"
#include "ta_kernels.h"

ta_status ta_signal_fft_auto_scale_s16(int32_t size, const int16_t *in, int16_t *out,
                                       int32_t *scale_bits) {
  if (size < 0)
    return TA_ERR_ARG;
  int16_t max = 0;
  for (int32_t i = 0; i < size; i++) {
    const int16_t v = in[i];
    if (v > max)
      max = v;
    else if (-(int32_t)v > max)
      max = ta_wrap16(-(int32_t)v);
  }
  int32_t s = 16 - (int32_t)ta_msb32((uint32_t)(int32_t)max) - 1;
  if (s <= 0)
    s = 0;
  for (int32_t i = 0; i < size; i++)
    out[i] = ta_wrap16((int32_t)((uint32_t)(int32_t)in[i] << s));
  *scale_bits = s;
  return TA_OK;
}
