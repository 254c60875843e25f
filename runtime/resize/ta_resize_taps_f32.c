/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_resize_taps_f32 - float RESIZE_TAPS: a separable resampling of NHWC
 * images by per-axis tap tables (ONNX Resize's nearest, linear and cubic
 * modes, antialias and exclude_outside, whose coefficients the compiler
 * computes as ONNX's reference does).  Output row y reads input rows
 * y_idx[y * taps_h + i] with weights y_w[y * taps_h + i], column x reads
 * columns x_idx[x * taps_w + j] with x_w[x * taps_w + j]:
 *   out[b][y][x][c] = sum_i y_w[i] * (sum_j x_w[j] * in[b][y_idx[i]][x_idx[j]][c])
 * (the inner sum along the width first, as ONNX's reference nests it).
 * Rows and columns outside a tf_crop_and_resize crop have indices -1 and
 * give p->extrapolation.
 */
#include "ta_kernels.h"

/* Every table row indexes the input, or is all -1 (outside the crop). */
static int taps_ok(const int32_t *idx, int32_t rows, int32_t taps, int32_t in) {
  for (int32_t r = 0; r < rows; r++) {
    const int32_t *t = idx + (size_t)r * (size_t)taps;
    for (int32_t i = 0; i < taps; i++)
      if (t[0] < 0 ? t[i] != -1 : t[i] < 0 || t[i] >= in)
        return 0;
  }
  return 1;
}

ta_status ta_resize_taps_f32(const ta_resize_taps_params *p, const float *in,
                             const int32_t *y_idx, const float *y_w, const int32_t *x_idx,
                             const float *x_w, float *out) {
  if (p->batches < 0 || p->in_h < 1 || p->in_w < 1 || p->depth < 0 || p->out_h < 0 ||
      p->out_w < 0 || p->taps_h < 1 || p->taps_w < 1)
    return TA_ERR_ARG;
  if (!taps_ok(y_idx, p->out_h, p->taps_h, p->in_h) ||
      !taps_ok(x_idx, p->out_w, p->taps_w, p->in_w))
    return TA_ERR_ARG;
  const size_t row = (size_t)p->in_w * (size_t)p->depth;
  for (int32_t b = 0; b < p->batches; b++) {
    const float *img = in + (size_t)b * (size_t)p->in_h * row;
    for (int32_t y = 0; y < p->out_h; y++) {
      const int32_t *yi = y_idx + (size_t)y * (size_t)p->taps_h;
      const float *yw = y_w + (size_t)y * (size_t)p->taps_h;
      for (int32_t x = 0; x < p->out_w; x++) {
        const int32_t *xi = x_idx + (size_t)x * (size_t)p->taps_w;
        const float *xw = x_w + (size_t)x * (size_t)p->taps_w;
        if (yi[0] < 0 || xi[0] < 0) {
          for (int32_t c = 0; c < p->depth; c++)
            *out++ = p->extrapolation;
          continue;
        }
        for (int32_t c = 0; c < p->depth; c++) {
          float acc = 0.0f;
          for (int32_t i = 0; i < p->taps_h; i++) {
            const float *src = img + (size_t)yi[i] * row + c;
            float s = 0.0f;
            for (int32_t j = 0; j < p->taps_w; j++)
              s += xw[j] * src[(size_t)xi[j] * (size_t)p->depth];
            acc += yw[i] * s;
          }
          *out++ = acc;
        }
      }
    }
  }
  return TA_OK;
}
