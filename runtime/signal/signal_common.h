/* SPDX-License-Identifier: Apache-2.0 */
/*
 * signal_common.h - helpers of the signal kernels (private to
 * runtime/signal/): TFLM's MostSignificantBit32/64 as its gcc build
 * computes them (the bit count of x, 32 or 64 for x == 0), and
 * two's-complement narrowing to int16 without implementation-defined
 * casts (TFLM's C++ stores int sums into int16_t and wraps).
 */
#ifndef TA_SIGNAL_COMMON_H
#define TA_SIGNAL_COMMON_H

#include <stdint.h>

static inline uint32_t ta_msb32(uint32_t x) {
  uint32_t n = 0;
  if (!x)
    return 32;
  while (x) {
    x >>= 1;
    n++;
  }
  return n;
}

static inline uint32_t ta_msb64(uint64_t x) {
  uint32_t n = 0;
  if (!x)
    return 64;
  while (x) {
    x >>= 1;
    n++;
  }
  return n;
}

static inline int16_t ta_wrap16(int32_t v) {
  uint32_t u = (uint32_t)v & 0xffffu;
  return (int16_t)(u >= 0x8000u ? (int32_t)u - 0x10000 : (int32_t)u);
}

#endif
