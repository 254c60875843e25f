/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pool_int.h - the integer pooling loops, one body for every element type
 * (private to runtime/pool/).
 *
 * TFLite's reference_integer_ops::AveragePool / MaxPool are the same code
 * for int8 and int16 (and TFLite's legacy uint8 pools compute the same
 * values), so ta_avg_pool2d_{s8,u8,s16} and ta_max_pool2d_{s8,u8,s16} are
 * each one line: TA_AVG_POOL_INT(T) or TA_MAX_POOL_INT(T, LOWEST), T the
 * element type, inside a function with the arguments
 * (p, in_dims, in, out_dims, out) of ta_avg_pool2d_s8.
 *
 * Per output pixel the window is clipped to the input (pool_common.h);
 * channels are taken in blocks of TA_POOL_BLOCK with one accumulator per
 * channel, so the inner loop runs over contiguous memory.
 *
 *   average: acc = int32 sum of the taps, count = their number,
 *            acc > 0 ? (acc + count/2) / count : (acc - count/2) / count
 *            (C division, towards zero), clamped to [act_min, act_max];
 *            an empty window is TA_ERR_ARG (TFLite fails there).
 *            For uint8 acc >= 0 and this is TFLite's (acc + count/2) / count.
 *   maximum: the largest tap, starting from LOWEST (the type's minimum),
 *            clamped to [act_min, act_max]; an empty window gives the
 *            clamped LOWEST, as TFLite's loop does.
 */
#ifndef TA_POOL_INT_H
#define TA_POOL_INT_H

#include "ta_fixedpoint.h"
#include "pool_common.h"

/* The loops over batches, output pixels and channel blocks around BODY,
 * which sees y0/x0 (window origin), fy0..fy1/fx0..fx1 (clipped taps),
 * in_b (this batch's input), o (this pixel's output), c0 and n (block). */
#define TA_POOL_INT_LOOPS(T, BODY)                                               \
  do {                                                                           \
    if (!ta_pool_shapes_ok(p, in_dims, out_dims))                                \
      return TA_ERR_ARG;                                                         \
    const int32_t H = in_dims->h, W = in_dims->w, C = in_dims->c;                \
    const int32_t OH = out_dims->h, OW = out_dims->w;                            \
    for (int32_t b = 0; b < in_dims->n; b++) {                                   \
      const T *in_b = in + (size_t)b * (size_t)H * (size_t)W * (size_t)C;        \
      for (int32_t oy = 0; oy < OH; oy++) {                                      \
        const int32_t y0 = oy * p->stride_h - p->pad_h;                          \
        int32_t fy0, fy1;                                                        \
        ta_pool_range(y0, p->filter_h, H, &fy0, &fy1);                           \
        for (int32_t ox = 0; ox < OW; ox++) {                                    \
          const int32_t x0 = ox * p->stride_w - p->pad_w;                        \
          int32_t fx0, fx1;                                                      \
          ta_pool_range(x0, p->filter_w, W, &fx0, &fx1);                         \
          T *o = out + (((size_t)b * (size_t)OH + (size_t)oy) * (size_t)OW + (size_t)ox) * (size_t)C; \
          for (int32_t c0 = 0; c0 < C; c0 += TA_POOL_BLOCK) {                    \
            const int32_t n = C - c0 < TA_POOL_BLOCK ? C - c0 : TA_POOL_BLOCK;   \
            BODY                                                                 \
          }                                                                      \
        }                                                                        \
      }                                                                          \
    }                                                                            \
    return TA_OK;                                                                \
  } while (0)

/* acc[j] = F(acc[j], tap) over the window's taps of channels c0..c0+n. */
#define TA_POOL_INT_TAPS(T, acc, F)                                              \
  for (int32_t fy = fy0; fy < fy1; fy++) {                                       \
    if (fx1 <= fx0)                                                              \
      break;                                                                     \
    const T *row = in_b + ((size_t)(y0 + fy) * (size_t)W + (size_t)(x0 + fx0)) * (size_t)C + c0; \
    for (int32_t fx = fx0; fx < fx1; fx++, row += C)                             \
      for (int32_t j = 0; j < n; j++)                                            \
        acc[j] = F(acc[j], row[j]);                                              \
  }

#define TA_POOL_INT_ADD(a, v) ((a) + (v))
#define TA_POOL_INT_MAX(a, v) ((v) > (a) ? (int32_t)(v) : (a))

#define TA_AVG_POOL_INT(T)                                                       \
  TA_POOL_INT_LOOPS(T, {                                                         \
    int32_t acc[TA_POOL_BLOCK];                                                  \
    if (fy1 <= fy0 || fx1 <= fx0)                                                \
      return TA_ERR_ARG;                                                         \
    const int32_t count = (fy1 - fy0) * (fx1 - fx0);                             \
    for (int32_t j = 0; j < n; j++)                                              \
      acc[j] = 0;                                                                \
    TA_POOL_INT_TAPS(T, acc, TA_POOL_INT_ADD)                                    \
    for (int32_t j = 0; j < n; j++) {                                            \
      const int32_t a = acc[j];                                                  \
      const int32_t q = a > 0 ? (a + count / 2) / count : (a - count / 2) / count; \
      o[c0 + j] = (T)ta_clamp_i32(q, p->act_min, p->act_max);                    \
    }                                                                            \
  })

#define TA_MAX_POOL_INT(T, LOWEST)                                               \
  TA_POOL_INT_LOOPS(T, {                                                         \
    int32_t acc[TA_POOL_BLOCK];                                                  \
    for (int32_t j = 0; j < n; j++)                                              \
      acc[j] = (LOWEST);                                                         \
    TA_POOL_INT_TAPS(T, acc, TA_POOL_INT_MAX)                                    \
    for (int32_t j = 0; j < n; j++)                                              \
      o[c0 + j] = (T)ta_clamp_i32(acc[j], p->act_min, p->act_max);               \
  })

#endif
