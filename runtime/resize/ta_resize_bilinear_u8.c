/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_resize_bilinear_u8 - legacy uint8 RESIZE_BILINEAR as TFLite's
 * builtin kernel computes it (optimized_ops::ResizeBilinear for uint8,
 * ResizeBilinearGenericSmallChannel): float weights per output pixel,
 * the four taps summed in float in the order below, + 0.5, truncated.
 * Every float operation rounds as written (TA_FP_STRICT).
 */
#include "ta_fpstrict.h"
#include "ta_kernels.h"
#include "bilinear.h"

TA_FP_STRICT
ta_status ta_resize_bilinear_u8(const ta_bilinear_params *p, const uint8_t *in, uint8_t *out) {
  if (!ta_bilinear_ok(p) || !p->y_in || !p->x_in)
    return TA_ERR_ARG;
  const int32_t D = p->depth;
  const size_t row = (size_t)p->in_w * (size_t)D;
  for (int32_t b = 0; b < p->batches; b++) {
    const uint8_t *img = in + (size_t)b * (size_t)p->in_h * row;
    for (int32_t y = 0; y < p->out_h; y++) {
      const uint8_t *r0 = img + (size_t)p->y_lo[y] * row, *r1 = img + (size_t)p->y_hi[y] * row;
      const float dy = p->y_in[y] - (float)p->y_lo[y];
      for (int32_t x = 0; x < p->out_w; x++, out += D) {
        const size_t c0 = (size_t)p->x_lo[x] * (size_t)D, c1 = (size_t)p->x_hi[x] * (size_t)D;
        const float dx = p->x_in[x] - (float)p->x_lo[x];
        const float s0 = (1 - dy) * (1 - dx), s1 = (1 - dy) * dx;
        const float s2 = dy * (1 - dx), s3 = dy * dx;
        for (int32_t c = 0; c < D; c++) {
          float v = (float)r0[c0 + (size_t)c] * s0;
          v = v + (float)r0[c1 + (size_t)c] * s1;
          v = v + (float)r1[c0 + (size_t)c] * s2;
          v = v + (float)r1[c1 + (size_t)c] * s3;
          v = v + 0.5f;
          out[c] = (uint8_t)(v >= 255.0f ? 255 : v <= 0.0f ? 0 : (int32_t)v);
        }
      }
    }
  }
  return TA_OK;
}
