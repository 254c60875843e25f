/* SPDX-License-Identifier: Apache-2.0 */
/*
 * svdf_common.h - the integer SVDF of TFLite Micro
 * (EvalIntegerSvdfReference<T>, svdf_common.cc) for a state type T
 * (private to runtime/rnn/).  ta_svdf_state16_s8.c and
 * ta_svdf_state8_s8.c instantiate it with int16_t and int8_t.
 *
 * The state holds, per batch and filter, the last memory_size feature
 * activations, oldest first.  Each call shifts the whole state left by one
 * element (so the oldest of each filter is replaced by its neighbour; the
 * last one is then overwritten), writes the new activation of every
 * filter at its last slot, and takes the dot product of each filter's
 * memory with its time weights.  The activation is clamped to the state
 * type and then its zero point is added, the sum narrowed to the state
 * type with two's-complement wrap-around, as TFLite Micro (at the
 * reference commit) does; later TFLM versions add the zero point before
 * the clamp.
 */
#ifndef TA_SVDF_COMMON_H
#define TA_SVDF_COMMON_H

#include <string.h>

#include "ta_dsp.h"
#include "ta_fixedpoint.h"
#include "ta_kernels.h"

static inline size_t ta_svdf_scratch(const ta_svdf_params *p) {
  if (p->batches < 0 || p->num_filters < 0 || p->rank <= 0)
    return 0;
  const size_t units = (size_t)(p->num_filters / p->rank);
  return ((size_t)p->batches * (size_t)p->num_filters + (size_t)p->batches * units) *
         sizeof(int32_t);
}

/* v narrowed to the type whose minimum is tmin (-128 or -32768) with
 * two's-complement wrap-around, without implementation-defined casts. */
static inline int32_t ta_wrap_to(int32_t v, int32_t tmin) {
  const uint32_t span = (uint32_t)-tmin * 2u, u = (uint32_t)v & (span - 1u);
  return u >= (uint32_t)-tmin ? (int32_t)u - (int32_t)span : (int32_t)u;
}

/* The state's n elements of `size` bytes shifted down by one element
 * (the last keeps its value): four bytes per step, each read before
 * anything below it is written. */
static inline void ta_svdf_shift(void *state, size_t n, size_t size) {
  unsigned char *d = (unsigned char *)state;
  const size_t bytes = n ? (n - 1) * size : 0;
  size_t k = 0;
  for (; k + 4 <= bytes; k += 4) {
    uint32_t v;
    memcpy(&v, d + k + size, 4);
    memcpy(d + k, &v, 4);
  }
  for (; k < bytes; k++)
    d[k] = d[k + size];
}

/* sum_i w[i] (x[i] - zp), wrapping as TFLite's int32 sums do.  With the
 * DSP extension four inputs per step: both words widened (SXTB16), the
 * zero point taken from the input's lanes (SSUB16: within [-255, 255]
 * for an int8 zero point), two SMLADs, whose sums wrap the same way. */
static inline int32_t ta_svdf_dot(const int8_t *w, const int8_t *x, int32_t n, int32_t zp) {
  int32_t dot = 0, i = 0;
#if defined(TA_DSP)
  if (zp >= -128 && zp <= 127) {
    const int32_t zp2 = (int32_t)((uint16_t)zp * UINT32_C(0x10001));
    for (; i + 4 <= n; i += 4) {
      const uint32_t xv = ta_ld32(x + i), wv = ta_ld32(w + i);
      dot = __smlad(ta_sxtb16_even(wv), __ssub16(ta_sxtb16_even(xv), zp2), dot);
      dot = __smlad(ta_sxtb16_odd(wv), __ssub16(ta_sxtb16_odd(xv), zp2), dot);
    }
  }
#endif
  for (; i < n; i++)
    dot = ta_wrap_add(dot, (int32_t)w[i] * ((int32_t)x[i] - zp));
  return dot;
}

/* The same for two rows w0 and w1 at once (d[0], d[1]): each input word
 * widened once for both (ta_dot2_off_s8()). */
static inline void ta_svdf_dot2(const int8_t *w0, const int8_t *w1, const int8_t *x, int32_t n,
                                int32_t zp, int32_t d[2]) {
  int32_t i = 0;
  d[0] = d[1] = 0;
#if defined(TA_DSP)
  if (zp >= -128 && zp <= 127) {
    i = n & ~3;
    ta_dot2_off_s8(w0, w1, x, -zp, i, d);
  }
#endif
  int32_t s0 = d[0], s1 = d[1];
  for (; i < n; i++) {
    const int32_t xi = (int32_t)x[i] - zp;
    s0 = ta_wrap_add(s0, (int32_t)w0[i] * xi);
    s1 = ta_wrap_add(s1, (int32_t)w1[i] * xi);
  }
  d[0] = s0;
  d[1] = s1;
}

/* The same over int16 w and x: with the DSP extension and zp 0 two
 * per SMLAD (a nonzero zero point could leave the int16 lanes). */
static inline int32_t ta_svdf_dot16(const int16_t *w, const int16_t *x, int32_t n, int32_t zp) {
  int32_t dot = 0, i = 0;
#if defined(TA_DSP)
  if (zp == 0)
    for (; i + 2 <= n; i += 2)
      dot = __smlad((int32_t)ta_ld32(w + i), (int32_t)ta_ld32(x + i), dot);
#endif
  for (; i < n; i++)
    dot = ta_wrap_add(dot, (int32_t)w[i] * ((int32_t)x[i] - zp));
  return dot;
}

/* v requantized: double rounding with a right shift in its cheaper form
 * (ta_requant_double_rs()), any other by ta_requant().  Out of line: one
 * copy for the feature activations and the outputs. */
TA_NOINLINE static int32_t ta_svdf_requant(int32_t v, int32_t mult, int32_t shift,
                                           int32_t rounding) {
  if (rounding == TA_ROUND_DOUBLE && shift < 0 && shift >= -31 && mult >= 0)
    return ta_requant_double_rs(v, mult, (int)-shift);
  return ta_requant(v, mult, shift, rounding);
}

static inline int ta_svdf_bad(const ta_svdf_params *p, const void *scratch) {
  return p->batches < 0 || p->input_size < 0 || p->num_filters < 0 || p->rank <= 0 ||
         p->memory_size <= 0 || p->num_filters % p->rank != 0 ||
         (!scratch && p->batches && p->num_filters);
}

#define TA_SVDF_BODY(T, TMIN, TMAX, TDOT)                                                          \
  const int32_t B = p->batches, I = p->input_size, F = p->num_filters;                             \
  const int32_t M = p->memory_size, R = p->rank, U = F / R;                                        \
  int32_t *sc = (int32_t *)scratch, *acc = sc + (size_t)B * (size_t)F;                             \
  const size_t total = (size_t)B * (size_t)F * (size_t)M;                                          \
  ta_svdf_shift(state, total, sizeof(T));                                                          \
  for (int32_t b = 0; b < B; b++) {                                                                \
    const int8_t *x = in + (size_t)b * (size_t)I;                                                  \
    T *dst = state + (size_t)b * (size_t)F * (size_t)M + (M - 1);                                  \
    for (int32_t f = 0; f < F; f += 2) { /* two filters at a time (the last maybe twice) */      \
      int32_t d[2];                                                                                \
      const int8_t *w0 = w_feature + (size_t)f * (size_t)I;                                        \
      ta_svdf_dot2(w0, f + 1 < F ? w0 + I : w0, x, I, p->input_zero_point, d);                     \
      for (int32_t j = 0; j < 2 && f + j < F; j++) {                                               \
        int32_t a = ta_svdf_requant(d[j], p->multiplier1, p->shift1, p->rounding);                 \
        a = ta_clamp_i32(a, TMIN, TMAX);                                                           \
        dst[(size_t)(f + j) * (size_t)M] = (T)ta_wrap_to(p->state_zero_point + a, TMIN);           \
      }                                                                                            \
    }                                                                                              \
  }                                                                                                \
  for (int32_t b = 0; b < B; b++) {                                                                \
    const T *wt = w_time;                                                                          \
    const T *st = state + (size_t)b * (size_t)M * (size_t)F;                                       \
    for (int32_t f = 0; f < F; f++) {                                                              \
      sc[(size_t)b * (size_t)F + (size_t)f] = TDOT(wt, st, M, p->state_zero_point);                \
      wt += M;                                                                                     \
      st += M;                                                                                     \
    }                                                                                              \
  }                                                                                                \
  for (int32_t b = 0; b < B; b++)                                                                  \
    for (int32_t u = 0; u < U; u++)                                                                \
      acc[(size_t)b * (size_t)U + (size_t)u] = bias ? bias[u] : 0;                                 \
  for (int32_t b = 0; b < B; b++) {                                                                \
    const int32_t *s = sc + (size_t)b * (size_t)F;                                                 \
    for (int32_t u = 0; u < U; u++)                                                                \
      for (int32_t r = 0; r < R; r++)                                                              \
        acc[(size_t)b * (size_t)U + (size_t)u] =                                                   \
            ta_wrap_add(acc[(size_t)b * (size_t)U + (size_t)u], *s++);                             \
  }                                                                                                \
  for (size_t k = 0; k < (size_t)B * (size_t)U; k++) {                                             \
    const int32_t v = ta_svdf_requant(acc[k], p->multiplier2, p->shift2, p->rounding);             \
    out[k] = (int8_t)ta_clamp_i32(v + p->output_zero_point, -128, 127);                            \
  }                                                                                                \
  return TA_OK

#endif
