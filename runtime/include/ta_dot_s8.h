/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_dot_s8.h - int8 dot products shared by the convolution and
 * fully-connected kernels (internal to the kernel library).
 *
 * The inner loops run over blocks of TA_DOT_BLOCK elements with a
 * compile-time trip count: compilers vectorize such loops even at -O2
 * (gcc's "very cheap" vectorizer needs a known trip count), and on cores
 * without SIMD they are ordinary loops.  Four rows of weights are
 * multiplied with one input vector at a time so each input byte is
 * loaded once per four products.  Integer sums are exact, so the order
 * of summation does not matter.
 */
#ifndef TA_DOT_S8_H
#define TA_DOT_S8_H

#include <stdint.h>

#define TA_DOT_BLOCK 16

/* acc[j] += sum_{i < n} w[j * ws + i] * x[i], j = 0..3. */
static inline void ta_dot4_s8(const int8_t *x, const int8_t *w, int32_t ws, int32_t n,
                              int32_t acc[4]) {
  const int8_t *w0 = w, *w1 = w + ws, *w2 = w + 2 * ws, *w3 = w + 3 * ws;
  int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  int32_t k = 0;
  for (; k + TA_DOT_BLOCK <= n; k += TA_DOT_BLOCK)
    for (int i = 0; i < TA_DOT_BLOCK; i++) {
      const int32_t xv = x[k + i];
      a0 += w0[k + i] * xv;
      a1 += w1[k + i] * xv;
      a2 += w2[k + i] * xv;
      a3 += w3[k + i] * xv;
    }
  for (; k < n; k++) {
    const int32_t xv = x[k];
    a0 += w0[k] * xv;
    a1 += w1[k] * xv;
    a2 += w2[k] * xv;
    a3 += w3[k] * xv;
  }
  acc[0] += a0;
  acc[1] += a1;
  acc[2] += a2;
  acc[3] += a3;
}

/* sum_{i < n} w[i] * x[i]. */
static inline int32_t ta_dot1_s8(const int8_t *x, const int8_t *w, int32_t n) {
  int32_t a = 0;
  int32_t k = 0;
  for (; k + TA_DOT_BLOCK <= n; k += TA_DOT_BLOCK)
    for (int i = 0; i < TA_DOT_BLOCK; i++)
      a += w[k + i] * x[k + i];
  for (; k < n; k++)
    a += w[k] * x[k];
  return a;
}

/* The same with the input widened to int16 beforehand (the weights
 * stay int8): compilers turn the 16-bit products into multiply-add
 * instructions (e.g. pmaddwd), about 40% fewer instructions than int8 x
 * int8.  Used when one input vector meets many weight rows. */
static inline void ta_dot4_s16s8(const int16_t *x, const int8_t *w, int32_t ws, int32_t n,
                                 int32_t acc[4]) {
  const int8_t *w0 = w, *w1 = w + ws, *w2 = w + 2 * ws, *w3 = w + 3 * ws;
  int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  int32_t k = 0;
  for (; k + TA_DOT_BLOCK <= n; k += TA_DOT_BLOCK)
    for (int i = 0; i < TA_DOT_BLOCK; i++) {
      const int32_t xv = x[k + i];
      a0 += (int16_t)w0[k + i] * xv;
      a1 += (int16_t)w1[k + i] * xv;
      a2 += (int16_t)w2[k + i] * xv;
      a3 += (int16_t)w3[k + i] * xv;
    }
  for (; k < n; k++) {
    const int32_t xv = x[k];
    a0 += w0[k] * xv;
    a1 += w1[k] * xv;
    a2 += w2[k] * xv;
    a3 += w3[k] * xv;
  }
  acc[0] += a0;
  acc[1] += a1;
  acc[2] += a2;
  acc[3] += a3;
}

static inline int32_t ta_dot1_s16s8(const int16_t *x, const int8_t *w, int32_t n) {
  int32_t a = 0;
  int32_t k = 0;
  for (; k + TA_DOT_BLOCK <= n; k += TA_DOT_BLOCK)
    for (int i = 0; i < TA_DOT_BLOCK; i++)
      a += (int16_t)w[k + i] * (int32_t)x[k + i];
  for (; k < n; k++)
    a += w[k] * (int32_t)x[k];
  return a;
}

#endif
