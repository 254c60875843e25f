/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_signal_energy_s16 - SignalEnergy (TFLM SpectrumToEnergy): for
 * complex input i in [start_index, end_index),
 *   out[i] = re * re + im * im   (int32 products, the sum as uint32)
 * The outputs outside that range are set to 0: TFLM leaves them
 * unwritten (and its zero-filled arena gives 0 there).
 */
#include "ta_kernels.h"

ta_status ta_signal_energy_s16(const ta_energy_params *p, const int16_t *in,
                               uint32_t *out) {
  if (p->size < 0 || p->start_index < 0 || p->end_index > p->size)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < p->size; i++) {
    if (i < p->start_index || i >= p->end_index) {
      out[i] = 0;
      continue;
    }
    const int32_t re = in[2 * i], im = in[2 * i + 1];
    out[i] = (uint32_t)(re * re) + (uint32_t)(im * im);
  }
  return TA_OK;
}
