/*
 * conv_s16.h - the requantization of the 16x8 convolutions (private to
 * runtime/conv/ and runtime/fc/).
 *
 * ta_requant_s64 is TFLite's MultiplyByQuantizedMultiplier(int64_t x, ...)
 * (kernels/internal/common.cc), the same in TFLite Micro and in TFLite
 * with or without TFLITE_SINGLE_ROUNDING: the 32-bit multiplier is
 * reduced to 16 bits, rounding half up (saturating at 0x7FFF), and
 *   result = (x * reduced + 2^(14 - shift)) >> (15 - shift)
 * with an arithmetic (flooring) shift.  TFLite assumes |x| < 2^47 and
 * -31 <= shift < 8, so the product fits in 64 bits; the kernels check the
 * shifts once per call.
 */
#ifndef TA_CONV_S16_H
#define TA_CONV_S16_H

#include "ta_fixedpoint.h"
#include "ta_types.h"

/* floor(v / 2^n) for 0 < n < 63, without relying on >> of a negative value. */
static inline int64_t ta_floor_shr64(int64_t v, int n) {
  return v >= 0 ? v >> n : -((-(v + 1) >> n) + 1);
}

static inline int32_t ta_requant_s64(int64_t x, int32_t mult, int32_t shift) {
  const int64_t reduced = mult < 0x7FFF0000 ? ((int64_t)mult + (1 << 15)) >> 16 : 0x7FFF;
  const int total = 15 - (int)shift;
  const int64_t r = ta_floor_shr64(x * reduced + ((int64_t)1 << (total - 1)), total);
  return (int32_t)r;
}

/* The shifts ta_requant_s64 accepts, for every channel of q. */
static inline int ta_quant_s64_ok(const ta_quant *q, int32_t channels) {
  const int32_t n = q->per_channel ? channels : 1;
  for (int32_t c = 0; c < n; c++)
    if (q->shift[c] < -31 || q->shift[c] >= 8 || q->multiplier[c] < 0)
      return 0;
  return 1;
}

/*
 * The int32 accumulator of the "acc32" kernels (an int32 bias or none):
 * TFLite sums int16 * int8 products in int32 there, and an overflow wraps
 * in practice; adding in uint32 wraps the same way without undefined
 * behaviour.
 */
static inline int32_t ta_wrap_add32(int32_t acc, int32_t v) {
  return (int32_t)((uint32_t)acc + (uint32_t)v);
}

/* The shifts ta_requant (32-bit MultiplyByQuantizedMultiplier) accepts. */
static inline int ta_quant_s32_ok(const ta_quant *q, int32_t channels) {
  const int32_t n = q->per_channel ? channels : 1;
  for (int32_t c = 0; c < n; c++)
    if (q->shift[c] < -31 || q->shift[c] > 30 || q->multiplier[c] < 0)
      return 0;
  return 1;
}

#endif
