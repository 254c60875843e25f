/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_transpose_conv_f32 - float TRANSPOSE_CONV (reference_ops::
 * TransposeConv): the output zeroed, then every input element, in input
 * order (batch, y, x, input channel), adds in * filter[oc][ky][kx][ic] to
 * each output it reaches (ky, kx, oc in that order); finally
 *   out = clamp(out + bias[oc], act_min_f32, act_max_f32).
 * The same order as TFLite Micro's scatter loop, so the same sums.
 */
#include "ta_kernels.h"

ta_status ta_transpose_conv_f32(const ta_conv_params *p, const ta_dims *in_dims,
                                const float *in, const ta_dims *filter_dims,
                                const float *filter, const float *bias,
                                const ta_dims *out_dims, float *out) {
  const int32_t H = in_dims->h, W = in_dims->w, C = in_dims->c;
  const int32_t KH = filter_dims->h, KW = filter_dims->w, OC = out_dims->c;
  const int32_t OH = out_dims->h, OW = out_dims->w;
  if (p->stride_h < 1 || p->stride_w < 1 || filter_dims->c != C || filter_dims->n != OC ||
      out_dims->n != in_dims->n)
    return TA_ERR_ARG;
  const size_t nout = (size_t)out_dims->n * (size_t)OH * (size_t)OW * (size_t)OC;
  for (size_t i = 0; i < nout; i++)
    out[i] = 0.0f;
  for (int32_t b = 0; b < in_dims->n; b++)
    for (int32_t iy = 0; iy < H; iy++)
      for (int32_t ix = 0; ix < W; ix++)
        for (int32_t ic = 0; ic < C; ic++) {
          const float x = in[(((size_t)b * (size_t)H + (size_t)iy) * (size_t)W + (size_t)ix) * (size_t)C + (size_t)ic];
          for (int32_t ky = 0; ky < KH; ky++) {
            const int32_t oy = iy * p->stride_h - p->pad_h + ky;
            for (int32_t kx = 0; kx < KW; kx++) {
              const int32_t ox = ix * p->stride_w - p->pad_w + kx;
              if (oy < 0 || oy >= OH || ox < 0 || ox >= OW)
                continue;
              float *o = out + (((size_t)b * (size_t)OH + (size_t)oy) * (size_t)OW + (size_t)ox) * (size_t)OC;
              for (int32_t oc = 0; oc < OC; oc++)
                o[oc] += x * filter[(((size_t)oc * (size_t)KH + (size_t)ky) * (size_t)KW + (size_t)kx) * (size_t)C + (size_t)ic];
            }
          }
        }
  for (size_t i = 0; i < nout; i++) {
    float v = out[i] + (bias ? bias[i % (size_t)OC] : 0.0f);
    v = v < p->act_min_f32 ? p->act_min_f32 : v;
    out[i] = v > p->act_max_f32 ? p->act_max_f32 : v;
  }
  return TA_OK;
}
