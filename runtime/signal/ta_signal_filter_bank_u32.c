/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_signal_filter_bank_u32 - SignalFilterBank (TFLM
 * FilterbankAccumulateChannels): each spectrum value adds into two
 * neighbouring channels, weighted by w and by 1 - w ("unweight"):
 *   for channel i = 0..num_channels: acc_w(i) = previous unweighted sum +
 *     sum_j weights[ws + j] * in[fs + j]; the unweighted sum starts again
 *   (fs, ws, width: channel i's frequency start, weight start, width).
 * Sums in uint64 (the int16 weights converted to uint64).  Channel 0 is
 * scratch; out gets channels 1..num_channels.
 */
#include "ta_kernels.h"

size_t ta_signal_filter_bank_u32_scratch_size(const ta_filter_bank_params *p) {
  return p->num_channels < 0 ? 0 : ((size_t)p->num_channels + 1) * sizeof(uint64_t);
}

ta_status ta_signal_filter_bank_u32(const ta_filter_bank_params *p, const uint32_t *in,
                                    const int16_t *weights, const int16_t *unweights,
                                    const int16_t *channel_frequency_starts,
                                    const int16_t *channel_weight_starts,
                                    const int16_t *channel_widths, uint64_t *out,
                                    void *scratch) {
  if (p->num_channels < 0 || !scratch)
    return TA_ERR_ARG;
  uint64_t *acc = (uint64_t *)scratch;
  uint64_t weighted = 0, unweighted = 0;
  for (int32_t i = 0; i < p->num_channels + 1; i++) {
    const int32_t fs = channel_frequency_starts[i], ws = channel_weight_starts[i];
    for (int32_t j = 0; j < channel_widths[i]; j++) {
      const uint64_t x = in[fs + j];
      weighted += (uint64_t)(int64_t)weights[ws + j] * x;
      unweighted += (uint64_t)(int64_t)unweights[ws + j] * x;
    }
    acc[i] = weighted;
    weighted = unweighted;
    unweighted = 0;
  }
  for (int32_t i = 0; i < p->num_channels; i++)
    out[i] = acc[i + 1];
  return TA_OK;
}
