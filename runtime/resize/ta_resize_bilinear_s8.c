/*
 * ta_resize_bilinear_s8 - int8 RESIZE_BILINEAR as TFLite Micro (and
 * TFLite) compute it: reference_ops::ResizeBilinearInteger, 10-bit
 * fixed-point weights, a 20-bit product rounded once (see
 * ta_kernels_ops.h for the formula and the two roundings).
 */
#include "ta_kernels.h"
#include "bilinear.h"

ta_status ta_resize_bilinear_s8(const ta_bilinear_params *p, const int8_t *in, int8_t *out) {
  if (!ta_bilinear_ok(p) || !p->y_frac || !p->x_frac)
    return TA_ERR_ARG;
  const int32_t D = p->depth;
  const size_t row = (size_t)p->in_w * D;
  for (int32_t b = 0; b < p->batches; b++) {
    const int8_t *img = in + (size_t)b * p->in_h * row;
    for (int32_t y = 0; y < p->out_h; y++) {
      const int8_t *r0 = img + (size_t)p->y_lo[y] * row, *r1 = img + (size_t)p->y_hi[y] * row;
      const int64_t fy = p->y_frac[y], gy = 1024 - fy;
      for (int32_t x = 0; x < p->out_w; x++, out += D) {
        const size_t c0 = (size_t)p->x_lo[x] * D, c1 = (size_t)p->x_hi[x] * D;
        const int64_t fx = p->x_frac[x], gx = 1024 - fx;
        for (int32_t c = 0; c < D; c++) {
          const int64_t acc = r0[c0 + c] * gy * gx + r1[c0 + c] * fy * gx +
                              r0[c1 + c] * gy * fx + r1[c1 + c] * fy * fx;
          int64_t v;
          if (p->rounding == TA_ROUND_SINGLE)
            v = (acc + (1 << 19)) >> 20; /* arithmetic: floor */
          else
            v = (acc + (acc > 0 ? (1 << 19) : -(1 << 19))) / (1 << 20);
          out[c] = (int8_t)v;
        }
      }
    }
  }
  return TA_OK;
}
