/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bilinear.h - checks and the integer loop shared by the RESIZE_BILINEAR
 * kernels (private to runtime/resize/).
 */
#ifndef TA_BILINEAR_H
#define TA_BILINEAR_H

#include "ta_kernels.h"

static inline int ta_bilinear_ok(const ta_bilinear_params *p) {
  if (p->batches < 0 || p->in_h < 1 || p->in_w < 1 || p->depth < 0 || p->out_h < 0 ||
      p->out_w < 0)
    return 0;
  for (int32_t y = 0; y < p->out_h; y++)
    if (p->y_lo[y] < 0 || p->y_hi[y] < 0 || p->y_lo[y] >= p->in_h || p->y_hi[y] >= p->in_h)
      return 0;
  for (int32_t x = 0; x < p->out_w; x++)
    if (p->x_lo[x] < 0 || p->x_hi[x] < 0 || p->x_lo[x] >= p->in_w || p->x_hi[x] >= p->in_w)
      return 0;
  return 1;
}

/*
 * TA_RESIZE_BILINEAR_INT(T) - the body of the integer kernels
 * (ta_resize_bilinear_s8, ta_resize_bilinear_s16; arguments p, in, out):
 * reference_ops::ResizeBilinearInteger<T>, which TFLite and TFLite Micro
 * share.  Per output pixel and channel, with the 10-bit fractions fy, fx
 * of the precomputed sample position and the four neighbours,
 *   acc = v00 (1024-fy)(1024-fx) + v10 fy (1024-fx) + v01 (1024-fy) fx
 *         + v11 fy fx                                       (int64, 20 bits)
 *   out = (acc + (acc > 0 ? 2^19 : -2^19)) / 2^20     (TA_ROUND_DOUBLE:
 *         half away from zero, TFLite's default build)
 *   out = (acc + 2^19) >> 20                          (TA_ROUND_SINGLE:
 *         TFLITE_SINGLE_ROUNDING, half up)
 */
#define TA_RESIZE_BILINEAR_INT(T)                                                \
  do {                                                                           \
    if (!ta_bilinear_ok(p) || !p->y_frac || !p->x_frac)                          \
      return TA_ERR_ARG;                                                         \
    const int32_t D = p->depth;                                                  \
    const size_t row = (size_t)p->in_w * (size_t)D;                              \
    for (int32_t b = 0; b < p->batches; b++) {                                   \
      const T *img = in + (size_t)b * (size_t)p->in_h * row;                     \
      for (int32_t y = 0; y < p->out_h; y++) {                                   \
        const T *r0 = img + (size_t)p->y_lo[y] * row;                            \
        const T *r1 = img + (size_t)p->y_hi[y] * row;                            \
        const int64_t fy = p->y_frac[y], gy = 1024 - fy;                         \
        for (int32_t x = 0; x < p->out_w; x++, out += D) {                       \
          const size_t c0 = (size_t)p->x_lo[x] * (size_t)D, c1 = (size_t)p->x_hi[x] * (size_t)D; \
          const int64_t fx = p->x_frac[x], gx = 1024 - fx;                       \
          for (int32_t c = 0; c < D; c++) {                                      \
            const int64_t acc = r0[c0 + (size_t)c] * gy * gx + r1[c0 + (size_t)c] * fy * gx + \
                                r0[c1 + (size_t)c] * gy * fx + r1[c1 + (size_t)c] * fy * fx; \
            int64_t v;                                                           \
            if (p->rounding == TA_ROUND_SINGLE)                                  \
              v = (acc + (1 << 19)) >> 20; /* arithmetic: floor */               \
            else                                                                 \
              v = (acc + (acc > 0 ? (1 << 19) : -(1 << 19))) / (1 << 20);        \
            out[c] = (T)v;                                                       \
          }                                                                      \
        }                                                                        \
      }                                                                          \
    }                                                                            \
    return TA_OK;                                                                \
  } while (0)

#endif
