/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_max_pool2d_f32 - float MAX_POOL_2D.
 *
 * Matches tflite::reference_ops::MaxPool (float): the maximum over the
 * clipped window starting from the lowest float, clamped to
 * [act_min_f32, act_max_f32].
 */
#include <float.h>

#include "ta_kernels.h"
#include "pool_common.h"

ta_status ta_max_pool2d_f32(const ta_pool_params *p,
                            const ta_dims *in_dims, const float *in,
                            const ta_dims *out_dims, float *out) {
  if (!ta_pool_shapes_ok(p, in_dims, out_dims))
    return TA_ERR_ARG;
  const int32_t H = in_dims->h, W = in_dims->w, C = in_dims->c;
  const int32_t OH = out_dims->h, OW = out_dims->w;
  float mx[TA_POOL_BLOCK];
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
        float *o = out + (((size_t)b * (size_t)OH + (size_t)oy) * (size_t)OW + (size_t)ox) * (size_t)C;
        for (int32_t c0 = 0; c0 < C; c0 += TA_POOL_BLOCK) {
          const int32_t n = C - c0 < TA_POOL_BLOCK ? C - c0 : TA_POOL_BLOCK;
          for (int32_t j = 0; j < n; j++)
            mx[j] = -FLT_MAX;
          for (int32_t fy = fy0; fy < fy1; fy++) {
            if (fx1 <= fx0)
              break;
            const float *row = in_b + ((size_t)(y0 + fy) * (size_t)W + (size_t)(x0 + fx0)) * (size_t)C + c0;
            for (int32_t fx = fx0; fx < fx1; fx++, row += C)
              for (int32_t j = 0; j < n; j++)
                mx[j] = row[j] > mx[j] ? row[j] : mx[j];
          }
          for (int32_t j = 0; j < n; j++) {
            float v = mx[j] < p->act_min_f32 ? p->act_min_f32 : mx[j];
            o[c0 + j] = v > p->act_max_f32 ? p->act_max_f32 : v;
          }
        }
      }
    }
  }
  return TA_OK;
}
