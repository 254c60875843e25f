/* SPDX-License-Identifier: Apache-2.0 */
/*
 * sigmoid_s16.h - the table steps that ta_logistic_s16 and ta_tanh_s16
 * share (private to runtime/activation/), as TFLite's
 * reference_integer_ops::Logistic / Tanh for int16 take them: the input
 * rescaled by input_multiplier and input_left_shift in 64-bit arithmetic
 * (x = (in * multiplier + 2^(shift - 1)) >> shift, the rounding term 0
 * when shift is 0), then the 256-entry sigmoid table read at |x| >> bits
 * and interpolated linearly with the low `bits` bits of |x|.
 */
#ifndef TA_SIGMOID_S16_H
#define TA_SIGMOID_S16_H

#include "ta_kernels.h"

/* The parameters both kernels accept (ta_kernels_s16.h). */
static inline int ta_sigmoid_s16_ok(const ta_sigmoid_s16_params *p) {
  return p->size >= 0 && p->table && p->input_multiplier >= 1 &&
         p->input_multiplier <= 65535 && p->input_left_shift >= 0 &&
         p->input_left_shift <= 31;
}

/* x, the input rescaled.  |v * multiplier| <= 2^15 * 65535 and the
 * rounding term keep it inside int32 (the compiler checks it), as
 * TFLite's int32 math. */
static inline int32_t ta_sigmoid_s16_input(const ta_sigmoid_s16_params *p, int16_t v) {
  const int shift = (int)p->input_left_shift;
  const int64_t round = shift > 0 ? (int64_t)1 << (shift - 1) : 0;
  return (int32_t)(((int64_t)v * p->input_multiplier + round) >> shift);
}

/* The table at |x| with `bits` fraction bits, in unsigned 32-bit
 * arithmetic: (t[h] << bits) + frac * (t[h + 1] - t[h]) for h = |x| >> bits
 * below 255, else `saturated`. */
static inline uint32_t ta_sigmoid_s16_table(const uint16_t *table, int32_t x, int bits,
                                            uint32_t saturated) {
  const uint32_t ax = x < 0 ? (uint32_t)-(int64_t)x : (uint32_t)x;
  const uint32_t uh = ax >> bits;
  if (uh >= 255)
    return saturated;
  const uint32_t ua = table[uh], ub = table[uh + 1];
  return (ua << bits) + (ax & ((1u << bits) - 1)) * (ub - ua);
}

#endif
