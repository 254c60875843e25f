/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_signal_spectral_subtraction_u32 - SignalFilterBankSpectralSubtraction
 * (TFLM FilterbankSpectralSubtraction).  Per channel i (odd channels use
 * the alternate coefficients), with x = in[i] << smoothing_bits (uint32):
 *   n = (x * smoothing + n * one_minus_smoothing) >> spectral_subtraction_bits
 *       (uint64 products, the result truncated to uint32)
 *   e = min(n, x); with clamping n = e
 *   floor = (in[i] * min_signal_remaining) >> spectral_subtraction_bits
 *   out[i] = max((x - e) >> smoothing_bits, floor)
 * The noise estimate n is the op's state: it persists from one run to
 * the next in the persistent area (TFLM keeps it in a persistent buffer
 * of the op, not in a tensor) and is 0 after <prefix>_reset().
 */
#include "ta_kernels.h"

size_t ta_signal_spectral_subtraction_u32_state_size(
    const ta_spectral_subtraction_params *p) {
  return p->num_channels < 0 ? 0 : (size_t)p->num_channels * sizeof(uint32_t);
}

ta_status ta_signal_spectral_subtraction_u32(const ta_spectral_subtraction_params *p,
                                             const uint32_t *in, uint32_t *out,
                                             uint32_t *noise_out, void *state) {
  if (p->num_channels < 0 || !state || p->smoothing_bits > 31 ||
      p->spectral_subtraction_bits > 63)
    return TA_ERR_ARG;
  uint32_t *noise = (uint32_t *)state;
  const uint32_t sb = p->smoothing_bits, ssb = p->spectral_subtraction_bits;
  for (int32_t i = 0; i < p->num_channels; i++) {
    const uint32_t smoothing = (i & 1) ? p->alternate_smoothing : p->smoothing;
    const uint32_t one_minus =
        (i & 1) ? p->alternate_one_minus_smoothing : p->one_minus_smoothing;
    const uint32_t x = in[i] << sb;
    noise[i] = (uint32_t)(((uint64_t)x * smoothing + (uint64_t)noise[i] * one_minus) >> ssb);
    uint32_t e = noise[i];
    if (e > x) {
      e = x;
      if (p->clamping)
        noise[i] = e;
    }
    const uint32_t floor = (uint32_t)(((uint64_t)in[i] * p->min_signal_remaining) >> ssb);
    const uint32_t sub = (x - e) >> sb;
    out[i] = sub > floor ? sub : floor;
  }
  for (int32_t i = 0; i < p->num_channels; i++)
    noise_out[i] = noise[i];
  return TA_OK;
}
