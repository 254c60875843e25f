/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_avg_pool2d_f32 - float AVERAGE_POOL_2D.
 *
 * Matches tflite::reference_ops::AveragePool (float): per channel the sum
 * over the clipped window in (fy, fx) order, divided by the tap count as
 * a float, clamped to [act_min_f32, act_max_f32].  Summing channel blocks
 * tap by tap keeps each channel's summation order.  Empty window:
 * TA_ERR_ARG.
 */
#include "ta_kernels.h"
#include "pool_common.h"

ta_status ta_avg_pool2d_f32(const ta_pool_params *p,
                            const ta_dims *in_dims, const float *in,
                            const ta_dims *out_dims, float *out) {
  if (!ta_pool_shapes_ok(p, in_dims, out_dims))
    return TA_ERR_ARG;
  const int32_t H = in_dims->h, W = in_dims->w, C = in_dims->c;
  const int32_t OH = out_dims->h, OW = out_dims->w;
  float acc[TA_POOL_BLOCK];
  for (int32_t b = 0; b < in_dims->n; b++) {
    const float *in_b = in + (size_t)b * (size_t)H * (size_t)W * (size_t)C;
    for (int32_t oy = 0; oy < OH; oy++) {
      const int32_t y0 = oy * p->stride_h - p->pad_h;
      int32_t fy0, fy1;
      ta_pool_range(y0, p->filter_h, H, &fy0, &fy1);
      for (int32_t ox = 0; ox < OW; ox++) {
        const int32_t x0 = ox * p->stride_w - p->pad_w;
        int32_t fx0, fx1;
        ta_pool_range(x0, p->filter_w, W, &fx0, &fx1);
        if (fy1 <= fy0 || fx1 <= fx0)
          return TA_ERR_ARG;
        const float count = (float)((fy1 - fy0) * (fx1 - fx0));
        float *o = out + (((size_t)b * (size_t)OH + (size_t)oy) * (size_t)OW + (size_t)ox) * (size_t)C;
        for (int32_t c0 = 0; c0 < C; c0 += TA_POOL_BLOCK) {
          const int32_t n = C - c0 < TA_POOL_BLOCK ? C - c0 : TA_POOL_BLOCK;
          for (int32_t j = 0; j < n; j++)
            acc[j] = 0.0f;
          for (int32_t fy = fy0; fy < fy1; fy++) {
            const float *row = in_b + ((size_t)(y0 + fy) * (size_t)W + (size_t)(x0 + fx0)) * (size_t)C + c0;
            for (int32_t fx = fx0; fx < fx1; fx++, row += C)
              for (int32_t j = 0; j < n; j++)
                acc[j] += row[j];
          }
          for (int32_t j = 0; j < n; j++) {
            float v = acc[j] / count;
            v = v < p->act_min_f32 ? p->act_min_f32 : v;
            o[c0 + j] = v > p->act_max_f32 ? p->act_max_f32 : v;
          }
        }
      }
    }
  }
  return TA_OK;
}
