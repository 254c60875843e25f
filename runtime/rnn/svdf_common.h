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

static inline int ta_svdf_bad(const ta_svdf_params *p, const void *scratch) {
  return p->batches < 0 || p->input_size < 0 || p->num_filters < 0 || p->rank <= 0 ||
         p->memory_size <= 0 || p->num_filters % p->rank != 0 ||
         (!scratch && p->batches && p->num_filters);
}

#define TA_SVDF_BODY(T, TMIN, TMAX)                                                     \
  const int32_t B = p->batches, I = p->input_size, F = p->num_filters;                  \
  const int32_t M = p->memory_size, R = p->rank, U = F / R;                             \
  int32_t *sc = (int32_t *)scratch, *acc = sc + (size_t)B * (size_t)F;                  \
  const size_t total = (size_t)B * (size_t)F * (size_t)M;                               \
  for (size_t k = 0; k + 1 < total; k++)                                                \
    state[k] = state[k + 1];                                                            \
  for (int32_t b = 0; b < B; b++) {                                                     \
    const int8_t *x = in + (size_t)b * (size_t)I;                                       \
    T *dst = state + (size_t)b * (size_t)F * (size_t)M + (M - 1);                       \
    for (int32_t f = 0; f < F; f++) {                                                   \
      const int8_t *w = w_feature + (size_t)f * (size_t)I;                              \
      int32_t dot = 0;                                                                  \
      for (int32_t i = 0; i < I; i++)                                                   \
        dot = ta_wrap_add(dot, (int32_t)w[i] * ((int32_t)x[i] - p->input_zero_point));  \
      dot = ta_requant(dot, p->multiplier1, p->shift1, p->rounding);                    \
      dot = ta_clamp_i32(dot, TMIN, TMAX);                                              \
      dst[(size_t)f * (size_t)M] = (T)ta_wrap_to(p->state_zero_point + dot, TMIN);      \
    }                                                                                   \
  }                                                                                     \
  for (int32_t b = 0; b < B; b++) {                                                     \
    const T *wt = w_time;                                                               \
    const T *st = state + (size_t)b * (size_t)M * (size_t)F;                            \
    for (int32_t f = 0; f < F; f++) {                                                   \
      int32_t s = 0;                                                                    \
      for (int32_t m = 0; m < M; m++)                                                   \
        s = ta_wrap_add(s, (int32_t)*wt++ * ((int32_t)*st++ - p->state_zero_point));    \
      sc[(size_t)b * (size_t)F + (size_t)f] = s;                                        \
    }                                                                                   \
  }                                                                                     \
  for (int32_t b = 0; b < B; b++)                                                       \
    for (int32_t u = 0; u < U; u++)                                                     \
      acc[(size_t)b * (size_t)U + (size_t)u] = bias ? bias[u] : 0;                      \
  for (int32_t b = 0; b < B; b++) {                                                     \
    const int32_t *s = sc + (size_t)b * (size_t)F;                                      \
    for (int32_t u = 0; u < U; u++)                                                     \
      for (int32_t r = 0; r < R; r++)                                                   \
        acc[(size_t)b * (size_t)U + (size_t)u] = ta_wrap_add(acc[(size_t)b * (size_t)U + (size_t)u], *s++); \
  }                                                                                     \
  for (size_t k = 0; k < (size_t)B * (size_t)U; k++) {                                  \
    const int32_t v = ta_requant(acc[k], p->multiplier2, p->shift2, p->rounding);       \
    out[k] = (int8_t)ta_clamp_i32(v + p->output_zero_point, -128, 127);                 \
  }                                                                                     \
  return TA_OK

#endif
