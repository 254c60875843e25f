/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_signal_window_s16 - SignalWindow (TFLM signal ApplyWindow): the
 * window of weight_size values applied to each stretch of the input,
 *   out[i] = clamp((in[i] * w[i mod weight_size]) >> shift, -32768, 32767)
 * with the product in int32 and an arithmetic shift.
 */
#include "ta_kernels.h"

ta_status ta_signal_window_s16(const ta_window_params *p, const int16_t *in,
                               const int16_t *weights, int16_t *out) {
  if (p->size < 0 || p->weight_size <= 0 || p->size % p->weight_size || p->shift < 0 ||
      p->shift > 31)
    return TA_ERR_ARG;
  for (int32_t base = 0; base < p->size; base += p->weight_size)
    for (int32_t i = 0; i < p->weight_size; i++) {
      const int32_t raw = ((int32_t)in[base + i] * weights[i]) >> p->shift;
      out[base + i] = (int16_t)(raw < -32768 ? -32768 : raw > 32767 ? 32767 : raw);
    }
  return TA_OK;
}
