/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_signal_pcan_u32 - SignalPCAN (TFLM ApplyPcanAutoGainControlFixed):
 * per-channel energy normalization.
 *   gain = WideDynamicFunction(noise[i], lut): lut[x] for x <= 2, else a
 *          quadratic in the 10-bit fraction of x below its top bit,
 *          from the 4 * msb(x) - 6 th lut entries (int32 arithmetic)
 *   snr  = ((uint64)in[i] * (uint32)gain) >> snr_shift   (as uint32)
 *   out  = snr < 2^13 ? snr^2 >> 20 : (snr >> 6) - 2^6   (PcanShrink with
 *          12 SNR bits and 6 output bits)
 * Stateless: the noise estimate is an input.
 */
#include "signal_common.h"
#include "ta_kernels.h"

#define SNR_BITS 12
#define OUTPUT_BITS 6

static int16_t wide_dynamic(uint32_t x, const int16_t *lut) {
  if (x <= 2)
    return lut[x];
  const int32_t interval = (int32_t)ta_msb32(x);
  lut += 4 * interval - 6;
  const uint32_t shifted = interval < 11 ? x << (11 - interval) : x >> (interval - 11);
  const int32_t frac = (int32_t)(shifted & 0x3ff);
  int32_t r = ((int32_t)lut[2] * frac) >> 5;
  r = (int32_t)((uint32_t)r + ((uint32_t)(int32_t)lut[1] << 5));
  r = (int32_t)((uint32_t)r * (uint32_t)frac);
  r = (int32_t)((uint32_t)r + (1u << 14)) >> 15;
  r += lut[0];
  return ta_wrap16(r);
}

static uint32_t shrink(uint32_t x) {
  if (x < (2u << SNR_BITS))
    return (x * x) >> (2 + 2 * SNR_BITS - OUTPUT_BITS);
  return (x >> (SNR_BITS - OUTPUT_BITS)) - (1u << OUTPUT_BITS);
}

ta_status ta_signal_pcan_u32(const ta_pcan_params *p, const uint32_t *in,
                             const uint32_t *noise_estimate, const int16_t *gain_lut,
                             uint32_t *out) {
  if (p->num_channels < 0 || p->snr_shift < 0 || p->snr_shift > 63)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < p->num_channels; i++) {
    const uint32_t gain = (uint32_t)(int32_t)wide_dynamic(noise_estimate[i], gain_lut);
    const uint32_t snr = (uint32_t)(((uint64_t)in[i] * gain) >> p->snr_shift);
    out[i] = shrink(snr);
  }
  return TA_OK;
}
