/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_l2_pool2d_f32 - float L2_POOL_2D (TFLite Micro's reference_ops::
 * L2Pool): per channel the float sum of squares over the clipped window
 * in (fy, fx) order, then sqrtf(sum / taps) clamped to [act_min_f32,
 * act_max_f32].  Empty window: TA_ERR_ARG.
 */
#include <math.h>

#include "ta_kernels.h"
#include "pool_common.h"

ta_status ta_l2_pool2d_f32(const ta_pool_params *p, const ta_dims *in_dims, const float *in,
                           const ta_dims *out_dims, float *out) {
  if (!ta_pool_shapes_ok(p, in_dims, out_dims))
    return TA_ERR_ARG;
  const int32_t H = in_dims->h, W = in_dims->w, C = in_dims->c;
  const int32_t OH = out_dims->h, OW = out_dims->w;
  for (int32_t b = 0; b < in_dims->n; b++)
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
        const int32_t count = (fy1 - fy0) * (fx1 - fx0);
        float *o = out + (((size_t)b * (size_t)OH + (size_t)oy) * (size_t)OW + (size_t)ox) *
                             (size_t)C;
        for (int32_t c = 0; c < C; c++) {
          float sum = 0.0f;
          for (int32_t fy = fy0; fy < fy1; fy++)
            for (int32_t fx = fx0; fx < fx1; fx++) {
              const float v =
                  in[(((size_t)b * (size_t)H + (size_t)(y0 + fy)) * (size_t)W +
                      (size_t)(x0 + fx)) * (size_t)C + (size_t)c];
              sum += v * v;
            }
          float r = sqrtf(sum / (float)count);
          r = r < p->act_min_f32 ? p->act_min_f32 : r;
          o[c] = r > p->act_max_f32 ? p->act_max_f32 : r;
        }
      }
    }
  return TA_OK;
}
