/*
 * ta_transpose_conv_u8 - legacy uint8 TRANSPOSE_CONV (TFLite's builtin
 * uint8 kernel; reference_ops::TransposeConv): the scatter form - every
 * input element adds (in + input_offset) * (filter[oc][ky][kx][ic] +
 * filter_offset) to the int32 accumulator of output (iy * stride_h -
 * pad_h + ky, ix * stride_w - pad_w + kx, oc) when that lies inside the
 * output; then per output
 *   out = clamp(requant(acc + bias[oc], q) + output_offset, act_min, act_max)
 * filter_dims {n = out channels, h, w, c = in channels} (OHWI).
 * scratch: the int32 accumulators, ta_transpose_conv_u8_scratch_size().
 */
#include <string.h>

#include "ta_fixedpoint.h"
#include "ta_kernels.h"

size_t ta_transpose_conv_u8_scratch_size(const ta_conv_params *p, const ta_dims *in_dims,
                                         const ta_dims *filter_dims,
                                         const ta_dims *out_dims) {
  (void)p;
  (void)in_dims;
  (void)filter_dims;
  return (size_t)out_dims->n * out_dims->h * out_dims->w * out_dims->c * sizeof(int32_t);
}

ta_status ta_transpose_conv_u8(const ta_conv_params *p, const ta_quant *q,
                               int32_t filter_offset, const ta_dims *in_dims,
                               const uint8_t *in, const ta_dims *filter_dims,
                               const uint8_t *filter, const int32_t *bias,
                               const ta_dims *out_dims, uint8_t *out, void *scratch) {
  const int32_t H = in_dims->h, W = in_dims->w, C = in_dims->c;
  const int32_t KH = filter_dims->h, KW = filter_dims->w, OC = out_dims->c;
  const int32_t OH = out_dims->h, OW = out_dims->w;
  if (p->stride_h < 1 || p->stride_w < 1 || filter_dims->c != C || filter_dims->n != OC ||
      out_dims->n != in_dims->n || !scratch)
    return TA_ERR_ARG;
  int32_t *acc = (int32_t *)scratch;
  const size_t nout = (size_t)out_dims->n * OH * OW * OC;
  memset(acc, 0, nout * sizeof(int32_t));
  for (int32_t b = 0; b < in_dims->n; b++)
    for (int32_t iy = 0; iy < H; iy++)
      for (int32_t ix = 0; ix < W; ix++) {
        const uint8_t *x = in + (((size_t)b * H + iy) * W + ix) * C;
        for (int32_t ky = 0; ky < KH; ky++) {
          const int32_t oy = iy * p->stride_h - p->pad_h + ky;
          if (oy < 0 || oy >= OH)
            continue;
          for (int32_t kx = 0; kx < KW; kx++) {
            const int32_t ox = ix * p->stride_w - p->pad_w + kx;
            if (ox < 0 || ox >= OW)
              continue;
            int32_t *a = acc + (((size_t)b * OH + oy) * OW + ox) * OC;
            for (int32_t oc = 0; oc < OC; oc++) {
              const uint8_t *w = filter + (((size_t)oc * KH + ky) * KW + kx) * C;
              int32_t s = 0;
              for (int32_t ic = 0; ic < C; ic++)
                s += ((int32_t)x[ic] + p->input_offset) * ((int32_t)w[ic] + filter_offset);
              a[oc] += s;
            }
          }
        }
      }
  for (size_t i = 0; i < nout; i++) {
    const int32_t oc = (int32_t)(i % (size_t)OC);
    int32_t v = acc[i] + (bias ? bias[oc] : 0);
    const int32_t ch = q->per_channel ? oc : 0;
    v = ta_requant(v, q->multiplier[ch], q->shift[ch], q->rounding) + p->output_offset;
    out[i] = (uint8_t)ta_clamp_i32(v, p->act_min, p->act_max);
  }
  return TA_OK;
}
