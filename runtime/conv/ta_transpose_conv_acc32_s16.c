/*
 * ta_transpose_conv_acc32_s16 - TRANSPOSE_CONV for 16x8 quantization with
 * an int32 bias (or none): int16 activations, int8 filter, int32
 * accumulator.
 *
 * Matches tflite::reference_integer_ops::TransposeConv<int32_t> (the int16
 * overload with an int32 scratch), which TFLite runs when the bias is not
 * int64: the products of ta_transpose_conv_s16, gathered per output
 * element, summed in int32 (wrapping like TFLite's int32 scratch), plus the
 * bias; then the 32-bit MultiplyByQuantizedMultiplier with the rounding q
 * names (not the 16-bit-multiplier form of the int64 path), and the clamp.
 */
#include "ta_kernels.h"
#include "conv_s16.h"

ta_status ta_transpose_conv_acc32_s16(const ta_conv_params *p, const ta_quant *q,
                                      const ta_dims *in_dims, const int16_t *in,
                                      const ta_dims *filter_dims, const int8_t *filter,
                                      const int32_t *bias,
                                      const ta_dims *out_dims, int16_t *out) {
  const int32_t H = in_dims->h, W = in_dims->w, C = in_dims->c;
  const int32_t KH = filter_dims->h, KW = filter_dims->w;
  const int32_t OH = out_dims->h, OW = out_dims->w, OC = out_dims->c;
  if (p->stride_h < 1 || p->stride_w < 1 || in_dims->n != out_dims->n || in_dims->n < 0 ||
      H < 0 || W < 0 || C < 1 || KH < 1 || KW < 1 || filter_dims->c != C ||
      filter_dims->n != OC || OH < 0 || OW < 0 || p->act_min > p->act_max ||
      !ta_quant_s32_ok(q, OC))
    return TA_ERR_ARG;
  const size_t oc_stride = (size_t)KH * KW * C;

  for (int32_t b = 0; b < in_dims->n; b++) {
    const int16_t *in_b = in + (size_t)b * H * W * C;
    for (int32_t oy = 0; oy < OH; oy++) {
      for (int32_t ox = 0; ox < OW; ox++) {
        int16_t *o = out + (((size_t)b * OH + oy) * OW + ox) * OC;
        for (int32_t oc = 0; oc < OC; oc++) {
          const int8_t *w_oc = filter + (size_t)oc * oc_stride;
          int32_t acc = 0;
          for (int32_t ky = 0; ky < KH; ky++) {
            const int32_t ty = oy + p->pad_h - ky;
            if (ty < 0 || ty % p->stride_h || ty / p->stride_h >= H)
              continue;
            const int32_t iy = ty / p->stride_h;
            for (int32_t kx = 0; kx < KW; kx++) {
              const int32_t tx = ox + p->pad_w - kx;
              if (tx < 0 || tx % p->stride_w || tx / p->stride_w >= W)
                continue;
              const int32_t ix = tx / p->stride_w;
              const int16_t *xp = in_b + ((size_t)iy * W + ix) * C;
              const int8_t *wp = w_oc + ((size_t)ky * KW + kx) * C;
              for (int32_t ic = 0; ic < C; ic++)
                acc = ta_wrap_add32(acc, (int32_t)wp[ic] * (int32_t)xp[ic]);
            }
          }
          if (bias)
            acc = ta_wrap_add32(acc, bias[oc]);
          const int32_t c = q->per_channel ? oc : 0;
          int32_t v = ta_requant(acc, q->multiplier[c], q->shift[c], q->rounding);
          o[oc] = (int16_t)ta_clamp_i32(v, p->act_min, p->act_max);
        }
      }
    }
  }
  return TA_OK;
}
