/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_max_pool2d_s8 - int8 MAX_POOL_2D, as tflite::reference_integer_ops::
 * MaxPool: the maximum over the window clipped to the input (starting
 * from -128), clamped to [act_min, act_max] (pool_int.h).
 *
 * On a core with the Arm DSP extension, channels a multiple of 4: four
 * channels at a time, one word per tap, the running maximum kept by
 * SSUB8 and SEL (each byte's flag, each byte's pick), the clamp the same
 * way (ta_dsp_clamp4()); the same bytes.  A window wholly inside a
 * 3 x 3 pool reads its nine words per four channels from three row
 * pointers set once per pixel; a one-tap window is a copy.  Channel words are written as
 * soon as their window is read, which an output in place of the input
 * allows as the element loop does: the bytes written are the pixel's own
 * channels, read before.
 */
#include "ta_dsp.h"
#include "ta_kernels.h"
#include "pool_int.h"

#if defined(TA_DSP)
/* The larger of each byte of m and v: SSUB8 flags v >= m, SEL picks. */
static inline uint32_t max4(uint32_t m, uint32_t v) {
  (void)__ssub8((int32_t)v, (int32_t)m);
  return __sel(v, m);
}

static void max_pool_dsp(const ta_pool_params *p, const ta_dims *in_dims, const int8_t *in,
                         const ta_dims *out_dims, int8_t *out) {
  const int32_t H = in_dims->h, W = in_dims->w, C = in_dims->c;
  const int32_t OH = out_dims->h, OW = out_dims->w;
  const uint32_t lo4 = ta_dsp_bytes4(p->act_min), hi4 = ta_dsp_bytes4(p->act_max);
  const int clamp = p->act_min > -128 || p->act_max < 127;
  const size_t c = (size_t)C, w = (size_t)W;
  for (int32_t b = 0; b < in_dims->n; b++) {
    const int8_t *in_b = in + (size_t)b * (size_t)H * w * c;
    for (int32_t oy = 0; oy < OH; oy++) {
      const int32_t y0 = oy * p->stride_h - p->pad_h;
      int32_t fy0, fy1;
      ta_pool_range(y0, p->filter_h, H, &fy0, &fy1);
      for (int32_t ox = 0; ox < OW; ox++, out += c) {
        const int32_t x0 = ox * p->stride_w - p->pad_w;
        int32_t fx0, fx1;
        ta_pool_range(x0, p->filter_w, W, &fx0, &fx1);
        if (fy1 - fy0 == 3 && fx1 - fx0 == 3) { /* a whole 3 x 3 window: 9 words */
          const int8_t *t0 = in_b + ((size_t)(y0 + fy0) * w + (size_t)(x0 + fx0)) * c;
          const int8_t *t1 = t0 + w * c, *t2 = t1 + w * c;
          for (int32_t c0 = 0; c0 < C; c0 += 4, t0 += 4, t1 += 4, t2 += 4) {
            uint32_t m = max4(ta_ld32(t0), ta_ld32(t0 + c));
            m = max4(m, ta_ld32(t0 + 2 * c));
            m = max4(m, ta_ld32(t1));
            m = max4(m, ta_ld32(t1 + c));
            m = max4(m, ta_ld32(t1 + 2 * c));
            m = max4(m, ta_ld32(t2));
            m = max4(m, ta_ld32(t2 + c));
            m = max4(m, ta_ld32(t2 + 2 * c));
            ta_st32(out + c0, clamp ? ta_dsp_clamp4(m, lo4, hi4) : m);
          }
          continue;
        }
        if (fy1 - fy0 == 1 && fx1 - fx0 == 1) { /* one tap (a 1 x 1 window): a copy, clamped */
          const int8_t *t = in_b + ((size_t)(y0 + fy0) * w + (size_t)(x0 + fx0)) * c;
          for (int32_t c0 = 0; c0 < C; c0 += 4) {
            const uint32_t m = ta_ld32(t + c0);
            ta_st32(out + c0, clamp ? ta_dsp_clamp4(m, lo4, hi4) : m);
          }
          continue;
        }
        for (int32_t c0 = 0; c0 < C; c0 += 4) {
          uint32_t m = UINT32_C(0x80808080);
          for (int32_t fy = fy0; fy < fy1 && fx0 < fx1; fy++) {
            const int8_t *t = in_b + ((size_t)(y0 + fy) * w + (size_t)(x0 + fx0)) * c + (size_t)c0;
            if (fx1 - fx0 == 3) { /* a row of 3 x 3 pools, unrolled */
              m = max4(m, ta_ld32(t));
              m = max4(m, ta_ld32(t + c));
              m = max4(m, ta_ld32(t + 2 * c));
              continue;
            }
            for (int32_t fx = fx0; fx < fx1; fx++, t += c)
              m = max4(m, ta_ld32(t));
          }
          ta_st32(out + c0, clamp ? ta_dsp_clamp4(m, lo4, hi4) : m);
        }
      }
    }
  }
}
#endif

ta_status ta_max_pool2d_s8(const ta_pool_params *p, const ta_dims *in_dims, const int8_t *in,
                           const ta_dims *out_dims, int8_t *out) {
#if defined(TA_DSP)
  if ((in_dims->c & 3) == 0 && p->act_min >= -128 && p->act_min <= p->act_max &&
      p->act_max <= 127) {
    if (!ta_pool_shapes_ok(p, in_dims, out_dims))
      return TA_ERR_ARG;
    max_pool_dsp(p, in_dims, in, out_dims, out);
    return TA_OK;
  }
#endif
  TA_MAX_POOL_INT(int8_t, -128);
}
