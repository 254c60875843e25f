/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_signal_filter_bank_sqrt_u64 - SignalFilterBankSquareRoot (TFLM
 * FilterbankSqrt): out[i] = Sqrt64(in[i]) >> scale_bits.
 *
 * Sqrt64/Sqrt32 are TFLM's bit-by-bit integer square roots, rounded up
 * when the remainder exceeds the root (unless the root is all ones);
 * values below 2^32 take the 32-bit path (as TFLM: a slight difference
 * near 2^32 is part of the result).  A shift of 32 or more gives 0.
 */
#include "signal_common.h"
#include "ta_kernels.h"

static uint32_t sqrt32(uint32_t num) {
  if (num == 0)
    return 0;
  uint32_t res = 0;
  int32_t max_bit = (32 - (int32_t)ta_msb32(num)) | 1;
  uint32_t bit = (uint32_t)1 << (31 - max_bit);
  int32_t iterations = (31 - max_bit) / 2 + 1;
  while (iterations--) {
    if (num >= res + bit) {
      num -= res + bit;
      res = (res >> 1) + bit;
    } else {
      res >>= 1;
    }
    bit >>= 2;
  }
  if (num > res && res != 0xffff)
    ++res;
  return res & 0xffff; /* TFLM returns uint16_t */
}

static uint32_t sqrt64(uint64_t num) {
  if ((num >> 32) == 0)
    return sqrt32((uint32_t)num);
  uint64_t res = 0;
  int32_t max_bit = (64 - (int32_t)ta_msb64(num)) | 1;
  uint64_t bit = (uint64_t)1 << (63 - max_bit);
  int32_t iterations = (63 - max_bit) / 2 + 1;
  while (iterations--) {
    if (num >= res + bit) {
      num -= res + bit;
      res = (res >> 1) + bit;
    } else {
      res >>= 1;
    }
    bit >>= 2;
  }
  if (num > res && res != 0xffffffffu)
    ++res;
  return (uint32_t)res;
}

ta_status ta_signal_filter_bank_sqrt_u64(int32_t num_channels, const uint64_t *in,
                                         const int32_t *scale_bits, uint32_t *out) {
  if (num_channels < 0)
    return TA_ERR_ARG;
  const int32_t s = *scale_bits;
  if (s < 0)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < num_channels; i++)
    out[i] = s >= 32 ? 0 : sqrt64(in[i]) >> s;
  return TA_OK;
}
