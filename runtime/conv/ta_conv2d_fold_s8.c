/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_conv2d_fold_s8 - int8 CONV_2D with the input zero point folded into
 * the bias: the same bytes as ta_conv2d_s8 (TFLite's ConvPerChannel),
 * fewer operations.
 *
 * The compiler passes bias_fold[oc] = bias[oc] + input_offset * (sum of
 * all filter[oc] weights) (fold_bias_s8()), for the DSP path followed by
 * 2 OC words of requantization records.  A filter tap in the padding
 * then has to contribute filter * (-input_offset), i.e. the padding holds
 * the input zero point, and
 *
 *   acc = bias_fold[oc] + sum_{all taps} filter * x,  x = zero point outside
 *
 * equals TFLite's bias + sum_{taps inside} filter * (x + input_offset).
 *
 * Per output pixel the filter window is gathered once into a column of
 * K = kh * kw * fc values in the scratch buffer, widened to int16 (padding
 * filled with the zero point), laid out like one filter row (OHWI).
 * Then every output channel is one dot product of that column with its
 * int8 filter row; the widening is paid once per pixel, not once per
 * output channel.
 *
 *  - Portable C: four channels at a time (ta_dot_s8.h).
 *  - Arm DSP extension (ta_dsp.h): two pixels at a time, columns in pair
 *    order, and a 2 x 2 block - two filter rows times two columns - per
 *    step: each filter word (4 weights) is widened once by two SXTB16
 *    and feeds four SMLADs with the two columns, 16 multiply-adds for
 *    2 filter loads, 2 LDRD of the columns and 4 widenings
 *    (ta_dsp_dot_2x2()); then the four sums are requantized in one step
 *    each (ta_dsp_requant_m()) with the constants the compiler stored
 *    after the folded bias (ta_conv_records(): SMMLAR's multiplier and
 *    rounding addend per channel, read with the bias, nothing rebuilt per
 *    output), both pixels' two channels clamped in one word.  A 1x1
 *    convolution is the same with a trivial "window": the two pixels'
 *    channels, widened.  Grouped convolutions, a misaligned scratch and
 *    ops whose requantization does not fit that form (single rounding,
 *    left shifts, large accumulators: q->mmla is 0, see
 *    ta_quant_mmla_ok()) or without the records (no TA_MMLA_RECORDS in
 *    q->mmla) take the portable path.
 *
 * Scratch: 4 * K bytes, two int16 columns (the portable path uses the
 * first), plus K rounded up to 4 for gathering a window as int8 when the
 * filter's channels are not a multiple of 4 (ta_conv2d_fold_s8_scratch_size()).
 *
 * Entry points: ta_conv2d_fold_dsp_s8 (the DSP path; the portable one on
 * cores without the extension), ta_conv2d_fold_portable_s8 (TFLite's
 * roundings) and ta_conv2d_fold_ort_s8 (ONNX Runtime's float
 * requantization) each run one path and refuse the ops it does not take,
 * so that a program links only the paths its calls name: the compiler
 * picks one per op (ta_conv2d_fold_dsp_ok()).  ta_conv2d_fold_s8 picks
 * per call, for code that calls the kernel itself.
 *
 * ta_conv2d_fold_add_{dsp,portable}_s8 run the DSP or the portable path
 * with a residual ADD in the epilogue: each pixel pair's (or pixel's)
 * int8 outputs go to the scratch after the columns, and add_s8.h's ADD
 * writes the output from them and the residual, element by element.
 */
#include "ta_fixedpoint.h"
#include "ta_kernels.h"
#include "conv_common.h"
#include "ta_dot_s8.h"
#include "ta_dsp.h"
#include "../elementwise/add_s8.h"

size_t ta_conv2d_fold_s8_scratch_size(const ta_conv_params *p, const ta_dims *in_dims,
                                      const ta_dims *filter_dims, const ta_dims *out_dims) {
  (void)p;
  (void)in_dims;
  (void)out_dims;
  const size_t K = (size_t)filter_dims->h * (size_t)filter_dims->w * (size_t)filter_dims->c;
  return 4 * K + (filter_dims->c % 4 ? (K + 3) & ~(size_t)3 : 0);
}

/* The fused entries' scratch: the convolution's, then the int8 outputs of
 * two pixels (the epilogue's ADD reads them with the residual). */
static size_t add_tmp_offset(const ta_dims *in_dims, const ta_dims *filter_dims) {
  return (ta_conv2d_fold_s8_scratch_size(NULL, in_dims, filter_dims, NULL) + 3) & ~(size_t)3;
}

size_t ta_conv2d_fold_add_s8_scratch_size(const ta_conv_params *p, const ta_dims *in_dims,
                                          const ta_dims *filter_dims, const ta_dims *out_dims) {
  (void)p;
  return add_tmp_offset(in_dims, filter_dims) + 2 * (size_t)out_dims->c;
}

/* The requantized, offset and clamped output of channel oc: TFLite's
 * roundings (finish_fixed), ONNX Runtime's (finish_ort). */
static inline int8_t finish_fixed(int32_t acc, const ta_conv_params *p, const ta_quant *q,
                                  int32_t oc) {
  const int32_t ch = q->per_channel ? oc : 0;
  acc = ta_requant_fixed(acc, q->multiplier[ch], q->shift[ch], q->rounding) + p->output_offset;
  return (int8_t)ta_clamp_i32(acc, p->act_min, p->act_max);
}
static inline int8_t finish_ort(int32_t acc, const ta_conv_params *p, const ta_quant *q,
                                int32_t oc) {
  const int32_t ch = q->per_channel ? oc : 0;
  acc = ta_requant_ort(acc, q->multiplier[ch]) + p->output_offset;
  return (int8_t)ta_clamp_i32(acc, p->act_min, p->act_max);
}

#if defined(TA_DSP)
/* The output stage: requantization with the offset (ta_dsp_requant_m()),
 * clamp to [act_min, act_max] given in every byte of lo4, hi4. */
typedef struct {
  int32_t off;
  uint32_t lo4, hi4;
  int clamp; /* the range is narrower than int8's */
} out_params;

/*
 * The two columns share one buffer of 2 K int16 (4-byte aligned),
 * interleaved so the inner loop walks one pointer and loads two words
 * at a time: for each group of 4 (k = 4g .. 4g+3, k < K4 = K & ~3) four
 * words, column 0's (x0, x2), column 1's (x0, x2), column 0's (x1, x3),
 * column 1's (x1, x3); after them the last K - K4 values of column 0,
 * then of column 1, in natural order.
 */

/* Copies n bytes, a word at a time while it can; returns dst + n. */
static inline int8_t *copy_bytes(int8_t *dst, const int8_t *src, int32_t n) {
  for (; n >= 4; n -= 4, dst += 4, src += 4)
    ta_st32(dst, ta_ld32(src));
  for (; n > 0; n--)
    *dst++ = *src++;
  return dst;
}

/* Output pixel (oy, ox)'s window of in_b, widened into column j of col,
 * zero point in the padding. */
static void dsp_gather(const ta_conv_params *p, const int8_t *in_b, int32_t H, int32_t W,
                       int32_t C, int32_t KH, int32_t KW, int32_t oy, int32_t ox,
                       int16_t zp, int16_t *col, int32_t j) {
  const int32_t iy0 = oy * p->stride_h - p->pad_h, ix0 = ox * p->stride_w - p->pad_w;
  if ((C & 3) == 0) {
    const uint32_t zp2 = (uint16_t)zp | ((uint32_t)(uint16_t)zp << 16);
    int16_t *dst = col + 2 * j;
    for (int32_t ky = 0; ky < KH; ky++) {
      const int32_t iy = iy0 + ky * p->dilation_h;
      for (int32_t kx = 0; kx < KW; kx++) {
        const int32_t ix = ix0 + kx * p->dilation_w;
        if (iy >= 0 && iy < H && ix >= 0 && ix < W) {
          const int8_t *src = in_b + ((size_t)iy * W + ix) * C;
          for (int32_t c = 0; c < C; c += 4, dst += 8) {
            const uint32_t v = ta_ld32(src + c);
            ta_st32a(dst, (uint32_t)ta_sxtb16_even(v));
            ta_st32a(dst + 4, (uint32_t)ta_sxtb16_odd(v));
          }
        } else {
          for (int32_t c = 0; c < C; c += 4, dst += 8) {
            ta_st32a(dst, zp2);
            ta_st32a(dst + 4, zp2);
          }
        }
      }
    }
    return;
  }
  /* Channels not a multiple of 4: the window is first copied as int8
   * to the staging area after the columns (row segments of KW * C bytes
   * when they lie inside the input), then widened four at a time. */
  const int32_t K = KH * KW * C, k4 = K & ~3, tail = K - k4;
  int8_t *stage = (int8_t *)(col + 2 * K), *s = stage;
  const int8_t zb = (int8_t)zp;
  for (int32_t ky = 0; ky < KH; ky++) {
    const int32_t iy = iy0 + ky * p->dilation_h;
    if (iy < 0 || iy >= H) {
      for (int32_t n = KW * C; n > 0; n--)
        *s++ = zb;
      continue;
    }
    const int8_t *row = in_b + (size_t)iy * W * C;
    if (p->dilation_w == 1 && ix0 >= 0 && ix0 + KW <= W) {
      s = copy_bytes(s, row + (size_t)ix0 * C, KW * C);
      continue;
    }
    for (int32_t kx = 0; kx < KW; kx++) {
      const int32_t ix = ix0 + kx * p->dilation_w;
      if (ix >= 0 && ix < W) {
        s = copy_bytes(s, row + (size_t)ix * C, C);
      } else {
        for (int32_t c = 0; c < C; c++)
          *s++ = zb;
      }
    }
  }
  int16_t *dst = col + 2 * j;
  for (int32_t k = 0; k < k4; k += 4, dst += 8) {
    const uint32_t v = ta_ld32(stage + k);
    ta_st32a(dst, (uint32_t)ta_sxtb16_even(v));
    ta_st32a(dst + 4, (uint32_t)ta_sxtb16_odd(v));
  }
  for (int32_t t = 0; t < tail; t++)
    col[2 * k4 + j * tail + t] = stage[k4 + t];
}

/* Two output pixels (the columns in col) times all OC filter rows, two
 * rows at a time; results to o0[oc], o1[oc].  The statements follow the
 * order that keeps the fewest values live (four accumulators, two filter
 * words, their two widened halves, one column word): no spills on a
 * 16-register core. */
TA_NOINLINE static void dsp_gemm(const int16_t *col, const int8_t *filter, int32_t K, int32_t OC,
                                 const int32_t *bias, const out_params *o, int8_t *o0,
                                 int8_t *o1) {
  const int32_t k4 = K & ~3, tail = K - k4;
  const int32_t *rec = bias + OC; /* ta_conv_records(): two words per channel */
  const int16_t *t0 = col + 2 * k4, *t1 = t0 + tail;
  const int8_t *w = filter;
  int32_t oc = 0;
  for (; oc + 2 <= OC; oc += 2, w += K) {
    int32_t a00 = bias[oc], a01 = a00, a10 = bias[oc + 1], a11 = a10;
    const int16_t *x = col;
    ta_dsp_dot_2x2(&w, K, &x, K >> 2, &a00, &a01, &a10, &a11);
    for (int32_t t = 0; t < tail; t++, w++) {
      const int32_t wa = w[0], wb = w[K];
      a00 += wa * t0[t];
      a01 += wa * t1[t];
      a10 += wb * t0[t];
      a11 += wb * t1[t];
    }
    const int32_t off = o->off;
    ta_dsp_rqm r = ta_dsp_rqm_record(rec);
    a00 = ta_dsp_requant_m(a00, &r, off);
    a01 = ta_dsp_requant_m(a01, &r, off);
    r = ta_dsp_rqm_record(rec + 2);
    rec += 4;
    /* Both pixels' two channels in one word: one clamp. */
    uint32_t v = ta_dsp_sat4(a00, ta_dsp_requant_m(a10, &r, off), a01,
                             ta_dsp_requant_m(a11, &r, off));
    if (o->clamp)
      v = ta_dsp_clamp4(v, o->lo4, o->hi4);
    ta_st16(o0 + oc, v);
    ta_st16(o1 + oc, v >> 16);
  }
  if (oc < OC) {
    int32_t a00 = bias[oc], a01 = a00;
    const int16_t *x = col;
    for (int32_t g = K >> 2; g > 0; g--) {
      const uint32_t wa = ta_ld32(w);
      const int32_t ea = ta_sxtb16_even(wa), oa = ta_sxtb16_odd(wa);
      a00 = __smlad(ea, (int32_t)ta_ld32a(x), a00);
      a01 = __smlad(ea, (int32_t)ta_ld32a(x + 2), a01);
      a00 = __smlad(oa, (int32_t)ta_ld32a(x + 4), a00);
      a01 = __smlad(oa, (int32_t)ta_ld32a(x + 6), a01);
      w += 4;
      x += 8;
    }
    for (int32_t t = 0; t < tail; t++) {
      a00 += w[t] * t0[t];
      a01 += w[t] * t1[t];
    }
    const ta_dsp_rqm r = ta_dsp_rqm_record(rec);
    const uint32_t v = ta_dsp_clamp4(ta_dsp_sat2(ta_dsp_requant_m(a00, &r, o->off),
                                                 ta_dsp_requant_m(a01, &r, o->off)),
                                     o->lo4, o->hi4);
    o0[oc] = (int8_t)v;
    o1[oc] = (int8_t)(v >> 8);
  }
}

/* Ungrouped convolution: output pixels two at a time (the pair may
 * span rows and images), an odd last pixel paired with itself.  With
 * add (the fused entry): the pair's outputs go to tmp, and the residual
 * ADD writes out from them and res, element by element (so out may be
 * res itself). */
TA_INLINE void conv_dsp_body(const ta_conv_params *p, const ta_dims *in_dims,
                             const int8_t *in, const ta_dims *filter_dims,
                             const int8_t *filter, const int32_t *bias_fold,
                             const ta_dims *out_dims, int8_t *out, int16_t *col,
                             const ta_add_s8_tab *add, const int8_t *res, int8_t *tmp) {
  const int32_t H = in_dims->h, W = in_dims->w, C = in_dims->c;
  const int32_t KH = filter_dims->h, KW = filter_dims->w;
  const int32_t OH = out_dims->h, OW = out_dims->w, OC = out_dims->c;
  const int32_t K = KH * KW * C;
  const int16_t zp = (int16_t)ta_clamp_i32(-p->input_offset, -128, 127);
  const out_params o = {p->output_offset, ta_dsp_bytes4(p->act_min), ta_dsp_bytes4(p->act_max),
                        p->act_min > -128 || p->act_max < 127};
  const size_t npix = (size_t)in_dims->n * OH * OW;
  const size_t image = (size_t)H * W * C;
  int32_t b = 0, oy = 0, ox = 0;
  for (size_t i = 0; i < npix; i += 2) {
    int8_t *o0 = add ? tmp : out + i * OC, *o1 = o0;
    dsp_gather(p, in + b * image, H, W, C, KH, KW, oy, ox, zp, col, 0);
    if (i + 1 < npix) {
      if (++ox == OW) {
        ox = 0;
        if (++oy == OH)
          oy = 0, b++;
      }
      o1 = o0 + OC;
    }
    dsp_gather(p, in + b * image, H, W, C, KH, KW, oy, ox, zp, col, 1);
    if (++ox == OW) {
      ox = 0;
      if (++oy == OH)
        oy = 0, b++;
    }
    dsp_gemm(col, filter, K, OC, bias_fold, &o, o0, o1);
    if (add)
      ta_add_s8_tab_row(add, tmp, 1, res + i * OC, 1, out + i * OC, (o1 != o0 ? 2 : 1) * OC);
  }
}

static void conv_dsp(const ta_conv_params *p, const ta_dims *in_dims, const int8_t *in,
                     const ta_dims *filter_dims, const int8_t *filter,
                     const int32_t *bias_fold, const ta_dims *out_dims, int8_t *out,
                     int16_t *col) {
  conv_dsp_body(p, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, col, NULL, NULL,
                NULL);
}

TA_NOINLINE static void conv_dsp_add(const ta_conv_params *p, const ta_dims *in_dims,
                                     const int8_t *in, const ta_dims *filter_dims,
                                     const int8_t *filter, const int32_t *bias_fold,
                                     const ta_dims *out_dims, int8_t *out, int16_t *col,
                                     const ta_add_s8_tab *add, const int8_t *res,
                                     int8_t *tmp) {
  conv_dsp_body(p, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, col, add, res,
                tmp);
}
#endif

/* The portable path, every group: per output pixel each group's window
 * widened into the column, then that group's channels, four at a time
 * (ta_dot_s8.h).  ort: ONNX Runtime's rounding, else TFLite's (a
 * constant in each of the two copies below). */
TA_INLINE void conv_portable(const ta_conv_params *p, const ta_quant *q, const ta_dims *in_dims,
                             const int8_t *in, const ta_dims *filter_dims, const int8_t *filter,
                             const int32_t *bias_fold, const ta_dims *out_dims, int8_t *out,
                             int16_t *col, int ort, const ta_add_s8_tab *add,
                             const int8_t *res, int8_t *tmp) {
  const int32_t H = in_dims->h, W = in_dims->w, C = in_dims->c;
  const int32_t KH = filter_dims->h, KW = filter_dims->w, FC = filter_dims->c;
  const int32_t OH = out_dims->h, OW = out_dims->w, OC = out_dims->c;
  const int32_t groups = C / FC, per_group = OC / groups;
  const int32_t K = KH * KW * FC; /* column length = filter row length */
  const int16_t zp = (int16_t)ta_clamp_i32(-p->input_offset, -128, 127);
#define FINISH(acc, p, q, oc) (ort ? finish_ort(acc, p, q, oc) : finish_fixed(acc, p, q, oc))
  for (int32_t b = 0; b < in_dims->n; b++) {
    const int8_t *in_b = in + (size_t)b * (size_t)H * (size_t)W * (size_t)C;
    for (int32_t oy = 0; oy < OH; oy++) {
      const ta_window wy = ta_conv_window(oy * p->stride_h - p->pad_h, p->dilation_h, KH, H);
      for (int32_t ox = 0; ox < OW; ox++) {
        const ta_window wx = ta_conv_window(ox * p->stride_w - p->pad_w, p->dilation_w, KW, W);
        const size_t at = (((size_t)b * (size_t)OH + (size_t)oy) * (size_t)OW + (size_t)ox) * (size_t)OC;
        int8_t *o = add ? tmp : out + at;
        for (int32_t g = 0; g < groups; g++) {
          const int8_t *in_g = in_b + (size_t)g * (size_t)FC;
          int16_t *dst = col;
          for (int32_t ky = 0; ky < KH; ky++) {
            const int32_t iy = wy.origin + ky * p->dilation_h;
            const int iny = ky >= wy.start && ky < wy.end;
            for (int32_t kx = 0; kx < KW; kx++, dst += FC) {
              if (!iny || kx < wx.start || kx >= wx.end) {
                for (int32_t c = 0; c < FC; c++)
                  dst[c] = zp;
              } else {
                const int8_t *src =
                    in_g + ((size_t)iy * (size_t)W + (size_t)wx.origin + (size_t)kx * (size_t)p->dilation_w) * (size_t)C;
                for (int32_t c = 0; c < FC; c++)
                  dst[c] = src[c];
              }
            }
          }
          int32_t oc = g * per_group;
          const int32_t oc_end = oc + per_group;
          for (; oc + 4 <= oc_end; oc += 4) {
            int32_t acc[4] = {bias_fold[oc], bias_fold[oc + 1], bias_fold[oc + 2],
                              bias_fold[oc + 3]};
            ta_dot4_s16s8(col, filter + (size_t)oc * (size_t)K, K, K, acc);
            o[oc] = FINISH(acc[0], p, q, oc);
            o[oc + 1] = FINISH(acc[1], p, q, oc + 1);
            o[oc + 2] = FINISH(acc[2], p, q, oc + 2);
            o[oc + 3] = FINISH(acc[3], p, q, oc + 3);
          }
          for (; oc < oc_end; oc++)
            o[oc] =
                FINISH(bias_fold[oc] + ta_dot1_s16s8(col, filter + (size_t)oc * (size_t)K, K), p, q, oc);
        }
        if (add)
          ta_add_s8_tab_row(add, tmp, 1, res + at, 1, out + at, OC);
      }
    }
  }
#undef FINISH
}

TA_NOINLINE static void conv_fixed(const ta_conv_params *p, const ta_quant *q,
                                   const ta_dims *in_dims, const int8_t *in,
                                   const ta_dims *filter_dims, const int8_t *filter,
                                   const int32_t *bias_fold, const ta_dims *out_dims,
                                   int8_t *out, int16_t *col) {
  conv_portable(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, col, 0, NULL,
                NULL, NULL);
}

TA_NOINLINE static void conv_fixed_add(const ta_conv_params *p, const ta_quant *q,
                                       const ta_dims *in_dims, const int8_t *in,
                                       const ta_dims *filter_dims, const int8_t *filter,
                                       const int32_t *bias_fold, const ta_dims *out_dims,
                                       int8_t *out, int16_t *col, const ta_add_s8_tab *add,
                                       const int8_t *res, int8_t *tmp) {
  conv_portable(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, col, 0, add,
                res, tmp);
}

TA_NOINLINE static void conv_ort(const ta_conv_params *p, const ta_quant *q,
                                 const ta_dims *in_dims, const int8_t *in,
                                 const ta_dims *filter_dims, const int8_t *filter,
                                 const int32_t *bias_fold, const ta_dims *out_dims, int8_t *out,
                                 int16_t *col) {
  conv_portable(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, col, 1, NULL,
                NULL, NULL);
}

/* The arguments every entry point checks. */
static inline int conv_args_ok(const ta_conv_params *p, const ta_dims *in_dims,
                               const ta_dims *filter_dims, const ta_dims *out_dims,
                               const int32_t *bias_fold, const void *scratch) {
  return ta_conv_shapes_ok(p, in_dims, filter_dims, out_dims) && bias_fold && scratch;
}

/* ta_conv2d_fold_dsp_ok(), with the scratch aligned for the DSP path's
 * paired loads. */
TA_INLINE int conv_dsp_ok(const ta_quant *q, const ta_dims *in_dims, const ta_dims *filter_dims,
                          const void *scratch) {
  return in_dims->c == filter_dims->c && (q->mmla & TA_MMLA_RECORDS) &&
         q->rounding == TA_ROUND_DOUBLE && ((uintptr_t)scratch & 3) == 0;
}

int ta_conv2d_fold_dsp_ok(const ta_quant *q, const ta_dims *in_dims, const ta_dims *filter_dims) {
  return conv_dsp_ok(q, in_dims, filter_dims, NULL);
}

/* The DSP path where the core has one (TA_ERR_ARG for an op it does not
 * take), the portable path elsewhere. */
ta_status ta_conv2d_fold_dsp_s8(const ta_conv_params *p, const ta_quant *q,
                                const ta_dims *in_dims, const int8_t *in,
                                const ta_dims *filter_dims, const int8_t *filter,
                                const int32_t *bias_fold,
                                const ta_dims *out_dims, int8_t *out, void *scratch) {
  if (!conv_args_ok(p, in_dims, filter_dims, out_dims, bias_fold, scratch) ||
      !conv_dsp_ok(q, in_dims, filter_dims, scratch))
    return TA_ERR_ARG;
#if defined(TA_DSP)
  conv_dsp(p, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, scratch);
#else
  conv_fixed(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, scratch);
#endif
  return TA_OK;
}

/* The portable path, TFLite's roundings. */
ta_status ta_conv2d_fold_portable_s8(const ta_conv_params *p, const ta_quant *q,
                                     const ta_dims *in_dims, const int8_t *in,
                                     const ta_dims *filter_dims, const int8_t *filter,
                                     const int32_t *bias_fold,
                                     const ta_dims *out_dims, int8_t *out, void *scratch) {
  if (!conv_args_ok(p, in_dims, filter_dims, out_dims, bias_fold, scratch) ||
      q->rounding == TA_ROUND_ORT)
    return TA_ERR_ARG;
  conv_fixed(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, scratch);
  return TA_OK;
}

/* The portable path, ONNX Runtime's rounding. */
ta_status ta_conv2d_fold_ort_s8(const ta_conv_params *p, const ta_quant *q,
                                const ta_dims *in_dims, const int8_t *in,
                                const ta_dims *filter_dims, const int8_t *filter,
                                const int32_t *bias_fold,
                                const ta_dims *out_dims, int8_t *out, void *scratch) {
  if (!conv_args_ok(p, in_dims, filter_dims, out_dims, bias_fold, scratch) ||
      q->rounding != TA_ROUND_ORT)
    return TA_ERR_ARG;
  conv_ort(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, scratch);
  return TA_OK;
}

/*
 * The fused entries: the convolution (DSP path, or the portable one with
 * TFLite's roundings), then ADD(its int8 output, residual) as ta_add_s8
 * computes it (add: the ADD's parameters with the convolution's output
 * as input 1), written to out; out may be residual.
 */
TA_INLINE ta_status conv_add_args(const ta_conv_params *p, const ta_quant *q,
                                  const ta_dims *in_dims, const ta_dims *filter_dims,
                                  const ta_dims *out_dims, const int32_t *bias_fold,
                                  const void *scratch, const ta_add_params *add,
                                  const int8_t *residual) {
  if (!conv_args_ok(p, in_dims, filter_dims, out_dims, bias_fold, scratch) || !add ||
      !residual || q->rounding == TA_ROUND_ORT || ((uintptr_t)scratch & 3) != 0 ||
      !ta_add_s8_tabled(add))
    return TA_ERR_ARG;
  return ta_add_s8_check(add);
}

ta_status ta_conv2d_fold_add_dsp_s8(const ta_conv_params *p, const ta_quant *q,
                                    const ta_dims *in_dims, const int8_t *in,
                                    const ta_dims *filter_dims, const int8_t *filter,
                                    const int32_t *bias_fold, const ta_dims *out_dims,
                                    int8_t *out, void *scratch, const ta_add_params *add,
                                    const int8_t *residual) {
  ta_status st = conv_add_args(p, q, in_dims, filter_dims, out_dims, bias_fold, scratch, add,
                               residual);
  if (st != TA_OK)
    return st;
  if (!conv_dsp_ok(q, in_dims, filter_dims, scratch))
    return TA_ERR_ARG;
  const ta_add_s8_tab c = ta_add_s8_tab_make(add);
  int8_t *tmp = (int8_t *)scratch + add_tmp_offset(in_dims, filter_dims);
#if defined(TA_DSP)
  conv_dsp_add(p, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, scratch, &c,
               residual, tmp);
#else
  conv_fixed_add(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, scratch, &c,
                 residual, tmp);
#endif
  return TA_OK;
}

ta_status ta_conv2d_fold_add_portable_s8(const ta_conv_params *p, const ta_quant *q,
                                         const ta_dims *in_dims, const int8_t *in,
                                         const ta_dims *filter_dims, const int8_t *filter,
                                         const int32_t *bias_fold, const ta_dims *out_dims,
                                         int8_t *out, void *scratch, const ta_add_params *add,
                                         const int8_t *residual) {
  ta_status st = conv_add_args(p, q, in_dims, filter_dims, out_dims, bias_fold, scratch, add,
                               residual);
  if (st != TA_OK)
    return st;
  const ta_add_s8_tab c = ta_add_s8_tab_make(add);
  conv_fixed_add(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, scratch, &c,
                 residual, (int8_t *)scratch + add_tmp_offset(in_dims, filter_dims));
  return TA_OK;
}

/* Every path, chosen per call: the entry point above that takes the op. */
ta_status ta_conv2d_fold_s8(const ta_conv_params *p, const ta_quant *q,
                            const ta_dims *in_dims, const int8_t *in,
                            const ta_dims *filter_dims, const int8_t *filter,
                            const int32_t *bias_fold,
                            const ta_dims *out_dims, int8_t *out, void *scratch) {
#if defined(TA_DSP)
  if (conv_dsp_ok(q, in_dims, filter_dims, scratch))
    return ta_conv2d_fold_dsp_s8(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims,
                                 out, scratch);
#endif
  if (q->rounding == TA_ROUND_ORT)
    return ta_conv2d_fold_ort_s8(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims,
                                 out, scratch);
  return ta_conv2d_fold_portable_s8(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims,
                                    out, scratch);
}
