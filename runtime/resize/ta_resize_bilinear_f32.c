/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_resize_bilinear_f32 - float RESIZE_BILINEAR (reference_ops::
 * ResizeBilinear): each output is
 *   in[lo,lo] (1 - dy)(1 - dx) + in[hi,lo] dy (1 - dx)
 *   + in[lo,hi] (1 - dy) dx + in[hi,hi] dy dx
 * evaluated left to right in float as TFLite Micro writes it
 * (TA_FP_STRICT: no fused multiply-add).
 */
#include "ta_fpstrict.h"
#include "ta_kernels.h"
#include "bilinear.h"

TA_FP_STRICT
ta_status ta_resize_bilinear_f32(const ta_bilinear_params *p, const float *in, float *out) {
  if (!ta_bilinear_ok(p) || !p->y_in || !p->x_in)
    return TA_ERR_ARG;
  const int32_t D = p->depth;
  const size_t row = (size_t)p->in_w * (size_t)D;
  for (int32_t b = 0; b < p->batches; b++) {
    const float *img = in + (size_t)b * (size_t)p->in_h * row;
    for (int32_t y = 0; y < p->out_h; y++) {
      const float *r0 = img + (size_t)p->y_lo[y] * row, *r1 = img + (size_t)p->y_hi[y] * row;
      const float dy = p->y_in[y] - (float)p->y_lo[y];
      for (int32_t x = 0; x < p->out_w; x++, out += D) {
        const size_t c0 = (size_t)p->x_lo[x] * (size_t)D, c1 = (size_t)p->x_hi[x] * (size_t)D;
        const float dx = p->x_in[x] - (float)p->x_lo[x];
        for (int32_t c = 0; c < D; c++) {
          float v = r0[c0 + (size_t)c] * (1 - dy) * (1 - dx);
          v = v + r1[c0 + (size_t)c] * dy * (1 - dx);
          v = v + r0[c1 + (size_t)c] * (1 - dy) * dx;
          v = v + r1[c1 + (size_t)c] * dy * dx;
          out[c] = v;
        }
      }
    }
  }
  return TA_OK;
}
