/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_signal_filter_bank_log_u32 - SignalFilterBankLog (TFLM FilterbankLog
 * and Log32).  For x = in[i] << input_correction_bits (uint32):
 *   x <= 1: out = 0
 *   else:   e = msb(x) - 1; f = x - 2^e scaled to 16 fractional bits;
 *           log2 = (e << 16) + f + c0 + ((c1 - c0) * (f - 512 k)) >> 16
 *           with c0, c1 = table[k], table[k + 1], k = f >> 9 (the 128-
 *           segment correction table of log2(1 + t) - t);
 *           ln  = (45426 * log2 + 2^15) >> 16        (uint64)
 *           out = min((output_scale * ln + 2^15) >> 16, 32767)
 *                 (the product in uint32, wrapping as TFLM's)
 */
#include "signal_common.h"
#include "ta_kernels.h"

/* 2^16 * (log2(1 + k / 128) - k / 128), k = 0..128, and a pad entry. */
static const uint16_t log_table[130] = {
    0,    224,  442,  654,  861,  1063, 1259, 1450, 1636, 1817, 1992, 2163, 2329,
    2490, 2646, 2797, 2944, 3087, 3224, 3358, 3487, 3611, 3732, 3848, 3960, 4068,
    4172, 4272, 4368, 4460, 4549, 4633, 4714, 4791, 4864, 4934, 5001, 5063, 5123,
    5178, 5231, 5280, 5326, 5368, 5408, 5444, 5477, 5507, 5533, 5557, 5578, 5595,
    5610, 5622, 5631, 5637, 5640, 5641, 5638, 5633, 5626, 5615, 5602, 5586, 5568,
    5547, 5524, 5498, 5470, 5439, 5406, 5370, 5332, 5291, 5249, 5203, 5156, 5106,
    5054, 5000, 4944, 4885, 4825, 4762, 4697, 4630, 4561, 4490, 4416, 4341, 4264,
    4184, 4103, 4020, 3935, 3848, 3759, 3668, 3575, 3481, 3384, 3286, 3186, 3084,
    2981, 2875, 2768, 2659, 2549, 2437, 2323, 2207, 2090, 1971, 1851, 1729, 1605,
    1480, 1353, 1224, 1094, 963,  830,  695,  559,  421,  282,  142,  0,    0};

static uint32_t log2_fraction(uint32_t x, uint32_t log2x) {
  int32_t frac = (int32_t)(x - ((uint32_t)1 << log2x));
  if (log2x < 16)
    frac = (int32_t)((uint32_t)frac << (16 - log2x));
  else
    frac >>= log2x - 16;
  const uint32_t base = (uint32_t)frac >> 9;
  const int32_t c0 = log_table[base], c1 = log_table[base + 1];
  const int32_t seg_base = (int32_t)(512u * base);
  const int32_t rel = ((c1 - c0) * (frac - seg_base)) >> 16;
  return (uint32_t)(frac + c0 + rel);
}

static uint32_t log32(uint32_t x, uint32_t out_scale) {
  const uint32_t integer = ta_msb32(x) - 1;
  const uint32_t fraction = log2_fraction(x, integer);
  const uint32_t log2 = (integer << 16) + fraction;
  const uint32_t loge = (uint32_t)(((uint64_t)45426 * log2 + 32768) >> 16);
  return (out_scale * loge + 32768u) >> 16;
}

ta_status ta_signal_filter_bank_log_u32(const ta_filter_bank_log_params *p,
                                        const uint32_t *in, int16_t *out) {
  if (p->num_channels < 0 || p->input_correction_bits < 0 ||
      p->input_correction_bits > 31)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < p->num_channels; i++) {
    const uint32_t scaled = in[i] << p->input_correction_bits;
    if (scaled > 1) {
      const uint32_t v = log32(scaled, (uint32_t)p->output_scale);
      out[i] = (int16_t)(v < 32767u ? v : 32767u);
    } else {
      out[i] = 0;
    }
  }
  return TA_OK;
}
