/* SPDX-License-Identifier: Apache-2.0 */
/*
 * conv_s16.h - the requantization and the loops of the 16x8 convolutions
 * and fully connected layers (private to runtime/conv/ and runtime/fc/).
 *
 * ta_requant_s64 is TFLite's MultiplyByQuantizedMultiplier(int64_t x, ...)
 * (kernels/internal/common.cc), the same in TFLite Micro and in TFLite
 * with or without TFLITE_SINGLE_ROUNDING: the 32-bit multiplier is
 * reduced to 16 bits, rounding half up (saturating at 0x7FFF), and
 *   result = (x * reduced + 2^(14 - shift)) >> (15 - shift)
 * with an arithmetic (flooring) shift.  TFLite assumes |x| < 2^47 and
 * -31 <= shift < 8, so the product fits in 64 bits; the kernels check the
 * shifts once per call.
 */
#ifndef TA_CONV_S16_H
#define TA_CONV_S16_H

#include "ta_fixedpoint.h"
#include "ta_types.h"
#include "conv_common.h"

/* floor(v / 2^n) for 0 < n < 63, without relying on >> of a negative value. */
static inline int64_t ta_floor_shr64(int64_t v, int n) {
  return v >= 0 ? v >> n : -((-(v + 1) >> n) + 1);
}

static inline int32_t ta_requant_s64(int64_t x, int32_t mult, int32_t shift) {
  const int64_t reduced = mult < 0x7FFF0000 ? ((int64_t)mult + (1 << 15)) >> 16 : 0x7FFF;
  const int total = 15 - (int)shift;
  const int64_t r = ta_floor_shr64(x * reduced + ((int64_t)1 << (total - 1)), total);
  return (int32_t)r;
}

/* The shifts ta_requant_s64 accepts, for every channel of q. */
static inline int ta_quant_s64_ok(const ta_quant *q, int32_t channels) {
  const int32_t n = q->per_channel ? channels : 1;
  for (int32_t c = 0; c < n; c++)
    if (q->shift[c] < -31 || q->shift[c] >= 8 || q->multiplier[c] < 0)
      return 0;
  return 1;
}

/* The shifts ta_requant (32-bit MultiplyByQuantizedMultiplier) accepts. */
static inline int ta_quant_s32_ok(const ta_quant *q, int32_t channels) {
  const int32_t n = q->per_channel ? channels : 1;
  for (int32_t c = 0; c < n; c++)
    if (q->shift[c] < -31 || q->shift[c] > 30 || q->multiplier[c] < 0)
      return 0;
  return 1;
}

/*
 * The two accumulators of TFLite's 16x8 kernels, named by their width N:
 *   64  int64 bias and sum (the int16 kernels proper), then ta_requant_s64;
 *   32  int32 bias or none and an int32 sum (the "acc32" kernels, TFLite's
 *       ConvPerChannel<int32_t> and friends), then the 32-bit ta_requant
 *       with the rounding q names.  TFLite's int32 sums wrap in practice
 *       on overflow; ta_wrap_add wraps the same way without undefined
 *       behaviour.
 * ta_s16_add<N> adds a product or the bias to the sum; ta_s16_out<N> is
 * output channel oc's value: the sum plus its bias, requantized with the
 * channel's multiplier, clamped to [act_min, act_max].
 */
typedef int64_t ta_s16_acc64;
typedef int32_t ta_s16_acc32;

static inline int64_t ta_s16_add64(int64_t acc, int64_t v) {
  return acc + v;
}

static inline int32_t ta_s16_add32(int32_t acc, int32_t v) {
  return ta_wrap_add(acc, v);
}

static inline int16_t ta_s16_out64(int64_t acc, const int64_t *bias, const ta_quant *q,
                                   int32_t oc, int32_t act_min, int32_t act_max) {
  if (bias)
    acc += bias[oc];
  const int32_t c = q->per_channel ? oc : 0;
  const int32_t v = ta_requant_s64(acc, q->multiplier[c], q->shift[c]);
  return (int16_t)ta_clamp_i32(v, act_min, act_max);
}

static inline int16_t ta_s16_out32(int32_t acc, const int32_t *bias, const ta_quant *q,
                                   int32_t oc, int32_t act_min, int32_t act_max) {
  if (bias)
    acc = ta_wrap_add(acc, bias[oc]);
  const int32_t c = q->per_channel ? oc : 0;
  const int32_t v = ta_requant(acc, q->multiplier[c], q->shift[c], q->rounding);
  return (int16_t)ta_clamp_i32(v, act_min, act_max);
}

/*
 * The kernel bodies, one per op for both accumulators.  Each is used as
 * one statement, TA_<OP>_S16(N), in a function that has checked its
 * arguments and has those of ta_conv2d_s16 (p, q, in_dims, in,
 * filter_dims, filter, bias, out_dims, out) or, for
 * TA_FULLY_CONNECTED_S16, of ta_fully_connected_s16 (p, q, in, filter,
 * bias, out); the statement returns TA_OK.
 */

/* CONV_2D and DEPTHWISE_CONV_2D: TA_CONV_PIXELS (conv_common.h) over every
 * batch, with in_b, the batch's input, and the dimensions H, W, C, KH,
 * KW, OH, OW, OC. */
#define TA_CONV_S16_PIXELS(...)                                                  \
  do {                                                                           \
    const int32_t H = in_dims->h, W = in_dims->w, C = in_dims->c;                \
    const int32_t KH = filter_dims->h, KW = filter_dims->w;                      \
    const int32_t OH = out_dims->h, OW = out_dims->w, OC = out_dims->c;          \
    for (int32_t b = 0; b < in_dims->n; b++) {                                   \
      const int16_t *in_b = in + (size_t)b * (size_t)H * (size_t)W * (size_t)C;  \
      TA_CONV_PIXELS(int16_t, __VA_ARGS__)                                       \
    }                                                                            \
    return TA_OK;                                                                \
  } while (0)

/* CONV_2D, grouped when the filter has fewer channels (FC) than the input:
 * output channel oc reads the FC input channels of its group; per tap the
 * inner loop is a dot product over contiguous channels. */
#define TA_CONV2D_S16(N)                                                         \
  TA_CONV_S16_PIXELS({                                                           \
    const int32_t FC = filter_dims->c, per_group = OC / (C / FC);                \
    const int32_t tap_stride = KW * FC; /* filter elements per filter row */     \
    const int32_t oc_stride = KH * tap_stride;                                   \
    for (int32_t oc = 0; oc < OC; oc++) {                                        \
      const int16_t *in_g = in_b + (size_t)(oc / per_group) * (size_t)FC;        \
      const int8_t *w_oc = filter + (size_t)oc * (size_t)oc_stride;              \
      ta_s16_acc##N acc = 0;                                                     \
      TA_CONV_TAPS({                                                             \
        const int16_t *xp = in_g + ((size_t)iy * (size_t)W + (size_t)ix) * (size_t)C; \
        const int8_t *wp = w_oc + ky * tap_stride + kx * FC;                     \
        for (int32_t ic = 0; ic < FC; ic++)                                      \
          acc = ta_s16_add##N(acc, (int32_t)wp[ic] * (int32_t)xp[ic]);           \
      })                                                                         \
      o[oc] = ta_s16_out##N(acc, bias, q, oc, p->act_min, p->act_max);           \
    }                                                                            \
  })

/* DEPTHWISE_CONV_2D: output channel oc = ic * depth_multiplier + m reads
 * input channel ic only; filter 1HW(OC). */
#define TA_DEPTHWISE_CONV2D_S16(N)                                               \
  TA_CONV_S16_PIXELS({                                                           \
    for (int32_t ic = 0; ic < C; ic++) {                                         \
      for (int32_t m = 0; m < p->depth_multiplier; m++) {                        \
        const int32_t oc = ic * p->depth_multiplier + m;                         \
        ta_s16_acc##N acc = 0;                                                   \
        TA_CONV_TAPS({                                                           \
          const int32_t x = in_b[((size_t)iy * (size_t)W + (size_t)ix) * (size_t)C + (size_t)ic]; \
          const int32_t w = filter[((size_t)ky * (size_t)KW + (size_t)kx) * (size_t)OC + (size_t)oc]; \
          acc = ta_s16_add##N(acc, w * x);                                       \
        })                                                                       \
        o[oc] = ta_s16_out##N(acc, bias, q, oc, p->act_min, p->act_max);         \
      }                                                                          \
    }                                                                            \
  })

/*
 * TRANSPOSE_CONV.  TFLite scatters: every input pixel (iy, ix) adds
 * in[iy][ix][ic] * filter[oc][ky][kx][ic] to the scratch element at
 * oy = iy*stride_h - pad_h + ky, ox likewise, when that lies inside the
 * output; then each element gets the bias, the requantization and the
 * clamp.  Here every output element gathers the same products instead:
 * the taps ky with (oy + pad_h - ky) a multiple of stride_h whose quotient
 * iy is a row of the input (likewise x).  The products are the same
 * integers and the sums are taken modulo the accumulator's width either
 * way, so they are equal, and no scratch tensor is needed.
 */
#define TA_TRANSPOSE_CONV_S16(N)                                                 \
  do {                                                                           \
    const int32_t H = in_dims->h, W = in_dims->w, C = in_dims->c;                \
    const int32_t KH = filter_dims->h, KW = filter_dims->w;                      \
    const int32_t OH = out_dims->h, OW = out_dims->w, OC = out_dims->c;          \
    const size_t oc_stride = (size_t)KH * (size_t)KW * (size_t)C;                \
    for (int32_t b = 0; b < in_dims->n; b++) {                                   \
      const int16_t *in_b = in + (size_t)b * (size_t)H * (size_t)W * (size_t)C;  \
      for (int32_t oy = 0; oy < OH; oy++) {                                      \
        for (int32_t ox = 0; ox < OW; ox++) {                                    \
          int16_t *o = out + (((size_t)b * (size_t)OH + (size_t)oy) * (size_t)OW + (size_t)ox) * (size_t)OC; \
          for (int32_t oc = 0; oc < OC; oc++) {                                  \
            const int8_t *w_oc = filter + (size_t)oc * oc_stride;                \
            ta_s16_acc##N acc = 0;                                               \
            for (int32_t ky = 0; ky < KH; ky++) {                                \
              const int32_t ty = oy + p->pad_h - ky;                             \
              if (ty < 0 || ty % p->stride_h || ty / p->stride_h >= H)           \
                continue;                                                        \
              const int32_t iy = ty / p->stride_h;                               \
              for (int32_t kx = 0; kx < KW; kx++) {                              \
                const int32_t tx = ox + p->pad_w - kx;                           \
                if (tx < 0 || tx % p->stride_w || tx / p->stride_w >= W)         \
                  continue;                                                      \
                const int32_t ix = tx / p->stride_w;                             \
                const int16_t *xp = in_b + ((size_t)iy * (size_t)W + (size_t)ix) * (size_t)C; \
                const int8_t *wp = w_oc + ((size_t)ky * (size_t)KW + (size_t)kx) * (size_t)C; \
                for (int32_t ic = 0; ic < C; ic++)                               \
                  acc = ta_s16_add##N(acc, (int32_t)wp[ic] * (int32_t)xp[ic]);   \
              }                                                                  \
            }                                                                    \
            o[oc] = ta_s16_out##N(acc, bias, q, oc, p->act_min, p->act_max);     \
          }                                                                      \
        }                                                                        \
      }                                                                          \
    }                                                                            \
    return TA_OK;                                                                \
  } while (0)

/* FULLY_CONNECTED: out[b][o] = the sum over i of filter[o][i] * in[b][i]. */
#define TA_FULLY_CONNECTED_S16(N)                                                \
  do {                                                                           \
    const int32_t D = p->in_depth, O = p->out_depth;                             \
    for (int32_t b = 0; b < p->batches; b++) {                                   \
      const int16_t *x = in + (size_t)b * (size_t)D;                             \
      for (int32_t o = 0; o < O; o++) {                                          \
        const int8_t *w = filter + (size_t)o * (size_t)D;                        \
        ta_s16_acc##N acc = 0;                                                   \
        for (int32_t i = 0; i < D; i++)                                          \
          acc = ta_s16_add##N(acc, (int32_t)w[i] * (int32_t)x[i]);               \
        out[(size_t)b * (size_t)O + (size_t)o] = ta_s16_out##N(acc, bias, q, o, p->act_min, p->act_max); \
      }                                                                          \
    }                                                                            \
    return TA_OK;                                                                \
  } while (0)

#endif
