/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_depthwise_conv2d_fold_s8 - int8 DEPTHWISE_CONV_2D with the input
 * zero point folded into the bias: the same bytes as
 * ta_depthwise_conv2d_s8 (TFLite's DepthwiseConvPerChannel).
 *
 * bias_fold[oc] = bias[oc] + input_offset * sum_{ky,kx} filter[ky][kx][oc]
 * (fold_bias_depthwise_s8()).  A tap in the padding then reads the input
 * zero point, and
 *
 *   acc = bias_fold[oc] + sum_{all taps} filter * x,  x = zero point outside
 *
 * equals TFLite's bias + sum_{taps inside} filter * (x + input_offset).
 *
 * Depth multiplier 1: output channels in blocks of TA_DW_BLOCK; for each
 * tap the block is one multiply-add of two contiguous byte vectors (the
 * input pixel and the filter tap) into a small accumulator array - loops
 * with a compile-time trip count that compilers vectorize.  Other depth
 * multipliers: per input channel, its `multiplier` output channels are
 * contiguous in the filter and take the same input byte.
 *
 * Arm DSP extension (ta_dsp.h), depth multiplier 1, channels a multiple
 * of 4: four channels at a time, all output pixels for one group of
 * four before the next.  The group's filter taps are widened once into
 * a small table (each tap two words: channels (0, 2) and (1, 3)), and so
 * are its requantization constants; per tap and output pixel one input
 * word (4 channels) is widened by two SXTB16 and meets the tap with four
 * 16 x 16 multiply-adds (SMLABB, SMLATT).  3 x 3 filters have an
 * unrolled loop for the pixels whose window lies inside the input and
 * one for the others; a row with border pixels whose padded window rows
 * fit TA_DW_ROWS_BYTES of stack runs whole through the first, from
 * copies of its input rows with the zero point around them (dw_rows(),
 * a ring: each input row copied once per group).  In assembly both
 * 3 x 3 loops take the taps in pairs, two
 * multiply-adds of a channel in one SMLAD (DW_ASM_PAIR: the two taps'
 * input words repacked by PKHBT and PKHTB, the weights paired once per
 * group, dw_pairs3x3()), 14 instructions per two taps instead of 16.
 * Requantization in SMMLAR form, so only for ops the compiler found to
 * fit it (q->mmla, ta_quant_mmla_ok()); the others take the portable
 * path.
 *
 * 3 x 3 filters (stride 1 or 2 in width, no dilation, records of
 * ta_pack_records_doubled()) have entries of their own, _3x3_dsp_, one
 * walk on every core (its steps in plain C where the core lacks the
 * extension, the same bytes): per group of four channels, per image,
 * per output row, the window's input rows not read yet are widened into
 * a ring in the scratch, then the row is computed from the ring and
 * written.  So per group of 4 channels and per image, input rows are
 * read in order (forwards: increasing; rev: decreasing, except that the
 * up to three rows one output row newly needs are read one after the
 * other upwards, nothing written in between), each at most once, and
 * output row y is written after every input row its windows need has
 * been read and before any input row beyond them is read (forwards:
 * rows up to y*stride_h - pad_h + 2; rev: rows down to
 * y*stride_h - pad_h).  An output channel reads its own input channel
 * only, so with the two bases a multiple of C bytes apart this holds
 * channel by channel: the output may overlap the input (in-place
 * depthwise).
 *
 * ta_depthwise_conv2d_fold_rev_s8 computes the same bytes walking the
 * output pixels from the last to the first (images, rows and columns
 * backwards; channels and taps as above), so that its output may lie
 * above its input (doc/memory-plan.md, 2c).
 *
 * Entry points, each way: _dsp_ (the DSP path; the portable one on
 * cores without the extension, except the 3 x 3 walk above, which is
 * the same on every core), _portable_ (TFLite's roundings) and
 * _ort_ (ONNX Runtime's float requantization) run one path each and
 * refuse the ops it does not take, so that a program links only the
 * paths its calls name: the compiler picks one per op
 * (ta_depthwise_conv2d_fold_dsp_ok()).  ta_depthwise_conv2d_fold_s8 and
 * _rev_s8 pick per call, for code that calls the kernel itself.
 */
#include <string.h>

#include "ta_fixedpoint.h"
#include "ta_kernels.h"
#include "ta_pack.h"
#include "conv_common.h"
#include "ta_dsp.h"

#define TA_DW_BLOCK 16

/* The scratch of the 3 x 3 path (ta_depthwise_conv2d_fold_3x3_dsp_s8_scratch_size())
 * where the op's shapes allow that path, else none. */
size_t ta_depthwise_conv2d_fold_s8_scratch_size(const ta_conv_params *p,
                                                const ta_dims *in_dims,
                                                const ta_dims *filter_dims,
                                                const ta_dims *out_dims) {
  if (p->depth_multiplier != 1 || (in_dims->c & 3) || filter_dims->h != 3 ||
      filter_dims->w != 3 || p->dilation_h != 1 || p->dilation_w != 1 || p->pad_w < 0)
    return 0;
  return ta_depthwise_conv2d_fold_3x3_dsp_s8_scratch_size(p, in_dims, filter_dims, out_dims);
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

/* The most filter taps of the DSP path (8 x 8 and smaller; the table of
 * widened taps is a variable-length array of that many 8-byte entries). */
#define TA_DW_MAX_TAPS 64

/* The most bytes of a group's padded window rows (dw_rows()), on the
 * stack: 3 x 3 filters on inputs up to 19 pixels wide. */
#define TA_DW_ROWS_BYTES 512

/* The padded rows of the DSP path's ring (dw_rows()): a window's height
 * R of rows, Wp words each, from column -pad_w to the last window's last
 * column or the input's. */
static inline int32_t dw_ring_rows(const ta_conv_params *p, const ta_dims *filter_dims) {
  return (filter_dims->h - 1) * p->dilation_h + 1;
}
static inline int32_t dw_ring_width(const ta_conv_params *p, const ta_dims *in_dims,
                                    const ta_dims *filter_dims, const ta_dims *out_dims) {
  const int32_t reach = (out_dims->w - 1) * p->stride_w - p->pad_w +
                        (filter_dims->w - 1) * p->dilation_w + 1;
  return p->pad_w + (reach > in_dims->w ? reach : in_dims->w);
}

TA_INLINE int dw_ring_ok(const ta_conv_params *p, const ta_dims *in_dims,
                         const ta_dims *filter_dims, const ta_dims *out_dims) {
  return p->pad_w >= 0 && (int64_t)dw_ring_width(p, in_dims, filter_dims, out_dims) *
                                  dw_ring_rows(p, filter_dims) * 8 <=
                              TA_DW_ROWS_BYTES;
}

int ta_depthwise_conv2d_fold_ring_ok(const ta_conv_params *p, const ta_dims *in_dims,
                                     const ta_dims *filter_dims, const ta_dims *out_dims) {
  return dw_ring_ok(p, in_dims, filter_dims, out_dims);
}

#if defined(TA_DSP)

/* What one group of four channels needs, prepared once per group. */
typedef struct {
  uint64_t *wt;                /* per tap: channels (0, 2) low, (1, 3) high */
  ta_dsp_rqm rq[4];
  int32_t off;                 /* the output offset */
  int32_t bias[4];
  uint32_t lo4, hi4;           /* clamp, in every byte */
  int clamp;                   /* the range is narrower than int8's */
  uint32_t zp4;                /* the input zero point, in every byte */
} dw_group;

/* One tap's words (one LDRD). */
#define DW_W0(w) ((int32_t)(uint32_t)(w))
#define DW_W1(w) ((int32_t)(uint32_t)((w) >> 32))

/* One tap: input word v (4 channels) times the tap's widened weights. */
#define DW_TAP(v, wt)                                                      \
  do {                                                                     \
    const int32_t xe_ = ta_sxtb16_even(v), xo_ = ta_sxtb16_odd(v);         \
    const uint64_t w_ = (wt);                                              \
    a0 = __smlabb(xe_, DW_W0(w_), a0);                                     \
    a2 = __smlatt(xe_, DW_W0(w_), a2);                                     \
    a1 = __smlabb(xo_, DW_W1(w_), a1);                                     \
    a3 = __smlatt(xo_, DW_W1(w_), a3);                                     \
  } while (0)

#define DW_STORE(o)                                                        \
  do {                                                                     \
    uint32_t v_ = ta_dsp_sat4(ta_dsp_requant_m(a0, &g->rq[0], g->off),      \
                              ta_dsp_requant_m(a1, &g->rq[1], g->off),      \
                              ta_dsp_requant_m(a2, &g->rq[2], g->off),      \
                              ta_dsp_requant_m(a3, &g->rq[3], g->off));     \
    if (g->clamp)                                                          \
      v_ = ta_dsp_clamp4(v_, g->lo4, g->hi4);                              \
    ta_st32((o), v_);                                                      \
  } while (0)

/* The same for any filter size. */
TA_NOINLINE static void dw_run(const dw_group *g, int32_t KH, int32_t KW, const int8_t *x,
                               int32_t xstep, int32_t rs, int32_t cs, int8_t *o,
                               int32_t ostep, int32_t n) {
  for (; n > 0; n--, x += xstep, o += ostep) {
    int32_t a0 = g->bias[0], a1 = g->bias[1], a2 = g->bias[2], a3 = g->bias[3];
    const uint64_t *w = g->wt;
    const int8_t *r = x;
    for (int32_t ky = 0; ky < KH; ky++, r += rs)
      for (int32_t kx = 0; kx < KW; kx++, w++)
        DW_TAP(ta_ld32(r + kx * cs), *w);
    DW_STORE(o);
  }
}

/* The filter taps k in [*k0, *k1) whose coordinate origin + k * step
 * lies in [0, size). */
static inline void dw_valid(int32_t origin, int32_t step, int32_t taps, int32_t size,
                            int32_t *k0, int32_t *k1) {
  int32_t a = 0, b = taps;
  while (a < taps && origin + a * step < 0)
    a++;
  while (b > a && origin + (b - 1) * step >= size)
    b--;
  *k0 = a;
  *k1 = b;
}

/* One output pixel whose window may leave the input: taps outside read
 * the zero point (a tap on the constant zp4), taps inside the input,
 * with the window's valid rows [ky0, ky1) and columns [kx0, kx1) found
 * once. */
TA_NOINLINE static void dw_pixel(const dw_group *g, const int8_t *in_b, int32_t H, int32_t W,
                                 int32_t C, int32_t KH, int32_t KW, int32_t dh, int32_t dw,
                                 int32_t iy0, int32_t ix0, int8_t *o) {
  int32_t a0 = g->bias[0], a1 = g->bias[1], a2 = g->bias[2], a3 = g->bias[3];
  int32_t ky0, ky1, kx0, kx1;
  dw_valid(iy0, dh, KH, H, &ky0, &ky1);
  dw_valid(ix0, dw, KW, W, &kx0, &kx1);
  const uint32_t zp4 = g->zp4;
  const int32_t cs = dw * C;
  for (int32_t ky = 0; ky < KH; ky++) {
    const uint64_t *w = g->wt + ky * KW;
    if (ky < ky0 || ky >= ky1) {
      for (int32_t kx = 0; kx < KW; kx++)
        DW_TAP(zp4, w[kx]);
      continue;
    }
    for (int32_t kx = 0; kx < kx0; kx++)
      DW_TAP(zp4, w[kx]);
    const int8_t *x = in_b + ((ptrdiff_t)(iy0 + ky * dh) * W + ix0 + kx0 * dw) * C;
    for (int32_t kx = kx0; kx < kx1; kx++, x += cs)
      DW_TAP(ta_ld32(x), w[kx]);
    for (int32_t kx = kx1; kx < KW; kx++)
      DW_TAP(zp4, w[kx]);
  }
  DW_STORE(o);
}

/*
 * Padded copies of one group's input rows, so that rows with border
 * pixels run through the interior loops: a ring of R = (KH - 1) dh + 1
 * rows (a window's height), input row y at slot y mod R, each slot Wp
 * words (one per pixel: the group's four channels): pad_w words of the
 * zero point zp4, the W input pixels, the zero point again up to Wp; a
 * row outside the input all zero point.  Every row is stored twice, at
 * slot s and s + R, so the R rows of any window lie in order from slot
 * iy0 mod R.  have_lo, have_hi: the input rows [lo, hi) in the ring.
 */
typedef struct {
  uint32_t *buf;
  int32_t R, Wp, pad_w;
  int32_t have_lo, have_hi;
} dw_ring;

/* Makes rows [iy0, iy0 + R) present (only the missing ones are copied);
 * returns the first one's slot. */
TA_INLINE const int8_t *dw_rows(dw_ring *r, const int8_t *in_b, int32_t H, int32_t W, int32_t C,
                                uint32_t zp4, int32_t iy0) {
  const int32_t R = r->R, Wp = r->Wp;
  for (int32_t y = iy0; y < iy0 + R; y++) {
    if (y >= r->have_lo && y < r->have_hi)
      continue;
    const int32_t slot = ((y % R) + R) % R;
    uint32_t *d = r->buf + slot * Wp, *d2 = d + R * Wp, *end = d + Wp;
    if ((uint32_t)y < (uint32_t)H) {
      const int8_t *x = in_b + (ptrdiff_t)y * W * C;
      for (int32_t i = 0; i < r->pad_w; i++) {
        *d++ = zp4;
        *d2++ = zp4;
      }
      for (int32_t i = 0; i < W; i++, x += C) {
        const uint32_t v = ta_ld32(x);
        *d++ = v;
        *d2++ = v;
      }
    }
    while (d < end) {
      *d++ = zp4;
      *d2++ = zp4;
    }
  }
  r->have_lo = iy0;
  r->have_hi = iy0 + R;
  return (const int8_t *)(r->buf + (((iy0 % R) + R) % R) * Wp);
}

/*
 * The DSP path for any filter, pixels forwards (rev 0) or backwards (rev
 * 1): rows with border pixels run from the padded rows when they fit
 * (ta_depthwise_conv2d_fold_ring_ok()), else their border pixels one by
 * one.
 */
TA_NOINLINE static void dw_dsp_any(const ta_conv_params *p, const ta_quant *q,
                                   const ta_dims *in_dims, const int8_t *in,
                                   const ta_dims *filter_dims, const int8_t *filter,
                                   const int32_t *bias_fold, const ta_dims *out_dims,
                                   int8_t *out, int rev) {
  const int32_t H = in_dims->h, W = in_dims->w, C = in_dims->c;
  const int32_t KH = filter_dims->h, KW = filter_dims->w, taps = KH * KW;
  const int32_t OH = out_dims->h, OW = out_dims->w;
  const int32_t sh = p->stride_h, sw = p->stride_w, dh = p->dilation_h, dw = p->dilation_w;
  const int32_t rs = dh * W * C, cs = dw * C; /* tap steps in the input */
  /* Output columns [xa, xb) have windows inside the input's width. */
  int32_t xa = 0, xb = OW;
  while (xa < OW && xa * sw - p->pad_w < 0)
    xa++;
  while (xb > xa && (xb - 1) * sw - p->pad_w + (KW - 1) * dw >= W)
    xb--;
  /* Rows with border pixels run from padded copies of their window rows
   * when those fit TA_DW_ROWS_BYTES (dw_ring_width(), dw_ring_rows()). */
  dw_ring ring;
  ring.R = dw_ring_rows(p, filter_dims);
  ring.Wp = dw_ring_width(p, in_dims, filter_dims, out_dims);
  ring.pad_w = p->pad_w;
  const int use_rows = dw_ring_ok(p, in_dims, filter_dims, out_dims);
  uint32_t rows[use_rows ? 2 * ring.R * ring.Wp : 1];
  ring.buf = rows;
  uint64_t wt[taps];
  dw_group g;
  g.wt = wt;
  g.off = p->output_offset;
  g.zp4 = ta_dsp_bytes4(ta_clamp_i32(-p->input_offset, -128, 127));
  g.lo4 = ta_dsp_bytes4(p->act_min);
  g.hi4 = ta_dsp_bytes4(p->act_max);
  g.clamp = p->act_min > -128 || p->act_max < 127;
  for (int32_t c0 = 0; c0 < C; c0 += 4) {
    for (int32_t t = 0; t < taps; t++) {
      const uint32_t v = ta_ld32(filter + (size_t)t * (size_t)C + (size_t)c0);
      g.wt[t] = (uint32_t)ta_sxtb16_even(v) | (uint64_t)(uint32_t)ta_sxtb16_odd(v) << 32;
    }
    for (int j = 0; j < 4; j++) {
      const int32_t ch = q->per_channel ? c0 + j : 0;
      g.bias[j] = bias_fold[c0 + j];
      g.rq[j] = ta_dsp_rqm_make(q->multiplier[ch], q->shift[ch]);
    }
    for (int32_t bi = 0; bi < in_dims->n; bi++) {
      const int32_t b = rev ? in_dims->n - 1 - bi : bi;
      const int8_t *in_b = in + (size_t)b * (size_t)H * (size_t)W * (size_t)C + (size_t)c0;
      int8_t *o_b = out + (size_t)b * (size_t)OH * (size_t)OW * (size_t)C + (size_t)c0;
      ring.have_lo = ring.have_hi = 0; /* the ring is empty */
      for (int32_t oyi = 0; oyi < OH; oyi++) {
        const int32_t oy = rev ? OH - 1 - oyi : oyi;
        const int32_t iy0 = oy * sh - p->pad_h;
        int8_t *o = o_b + (size_t)oy * (size_t)OW * (size_t)C;
        int32_t x0 = xa, x1 = xb;
        if (iy0 < 0 || iy0 + (KH - 1) * dh >= H)
          x0 = x1 = OW; /* every pixel of the row is a border pixel */
        if (use_rows && (x0 > 0 || x1 < OW)) {
          /* The whole row from the padded copy, forwards or backwards. */
          const int32_t first = rev ? OW - 1 : 0, step = rev ? -1 : 1;
          const int8_t *x = dw_rows(&ring, in_b, H, W, C, g.zp4, iy0) + first * sw * 4;
          const int32_t wrs = dh * ring.Wp * 4; /* tap rows dh slots apart */
          dw_run(&g, KH, KW, x, step * sw * 4, wrs, dw * 4, o + first * C, step * C, OW);
          continue;
        }
        if (rev) {
          /* The same pixels from the last to the first: the interior
           * run [x0, x1) backwards, from x1 - 1. */
          for (int32_t ox = OW - 1; ox >= 0; ox--) {
            if (ox == x1 - 1 && x1 > x0) {
              const int8_t *x =
                  in_b + ((size_t)iy0 * (size_t)W + (size_t)((x1 - 1) * sw - p->pad_w)) * (size_t)C;
              dw_run(&g, KH, KW, x, -sw * C, rs, cs, o + (x1 - 1) * C, -C, x1 - x0);
              ox = x0;
              continue;
            }
            dw_pixel(&g, in_b, H, W, C, KH, KW, dh, dw, iy0, ox * sw - p->pad_w, o + ox * C);
          }
          continue;
        }
        /* The border pixels left of x0 and from x1 on, one loop; the
         * run of interior pixels [x0, x1) in between. */
        for (int32_t ox = 0; ox < OW; ox++) {
          if (ox == x0 && x1 > x0) {
            const int8_t *x =
                in_b + ((size_t)iy0 * (size_t)W + (size_t)(x0 * sw - p->pad_w)) * (size_t)C;
            dw_run(&g, KH, KW, x, sw * C, rs, cs, o + x0 * C, C, x1 - x0);
            ox = x1 - 1;
            continue;
          }
          dw_pixel(&g, in_b, H, W, C, KH, KW, dh, dw, iy0, ox * sw - p->pad_w, o + ox * C);
        }
      }
    }
  }
}
#undef DW_TAP
#undef DW_STORE
#endif


/*
 * The 3 x 3 path (stride 1 or 2 in width, no dilation): channel planes,
 * one walk on every core.
 *
 * Per group of four channels, the input rows a window needs are widened
 * once into the scratch as one int16 row per channel (a ring of three
 * slots, four channel rows each, Wp columns from column -pad_w, the
 * zero point outside the input), so that two horizontally adjacent taps
 * of one channel are one word.  Per channel and output row, two output
 * pixels at a time (dw3_row()), each filter row's weights as two words,
 * A = (w0, w1) and B = (w1, w2): with stride 1 the pair's two aligned
 * words (c0, c1) and (c2, c3) give the even pixel's sum as SMLAD of
 * the first by A plus c2 by w2 (SMLABT) and the odd pixel's as c1 by
 * w0 (SMLATB) plus SMLAD of the second by B, so 2 word loads and 4
 * multiply instructions per filter row; with stride 2 the words (c0,
 * c1), (c2, c3), (c4, c5): 3 loads and 4 multiplies.  Both sums start
 * from the doubled bias and are requantized at once (SMMLAR, the
 * sign's correction, ASR, SSAT; the weights were doubled when widened,
 * so SMMLAR of the doubled sum by the multiplier itself is TFLite's
 * rounding doubling multiply) and stored in their NHWC places: 36
 * instructions a pair with stride 1.  An odd row's last pixel alone.
 * On cores without the DSP extension the same sums in plain C
 * (dw3_fill(), dw3_pixel(), dw3_requant()): the same ring in the same
 * scratch, the same order, the same bytes.
 *
 * The order (dw3_run()), the same on every core: per group of four
 * channels, per image, per output row (forwards, or backwards for rev),
 * the window's rows that are not in the ring yet are read into it (in
 * increasing order), then the row is computed from the ring alone and
 * written.  So, per group of 4 channels and per image, input rows are
 * read in order (forwards: increasing; rev: decreasing from one output
 * row's rows to the next's), each at most once, and output row y is
 * written after every input row its windows need has been read and
 * before any input row beyond them is read (forwards: rows up to
 * y*stride_h - pad_h + 2; rev: rows down to y*stride_h - pad_h).  An
 * output channel reads its own input channel only, so with the output's
 * base a multiple of C bytes from the input's this holds channel by
 * channel, and the output may overlap the input as far as it allows
 * (in-place depthwise; the distances: test_depthwise_3x3_in_place(),
 * tests/kernels/test_conv.c).
 *
 * Scratch (ta_depthwise_conv2d_fold_3x3_dsp_s8_scratch_size()): the
 * ring, 3 x 4 rows of Wp int16.  Rows outside [0, in.h) are the zero
 * point (patched bands call this with any top padding).
 */

/* Output pixels of a row in pairs; the ring's columns: up to the last
 * pair's last word, an even count. */
static inline int32_t dw3_pairs(const ta_dims *out_dims) { return (out_dims->w + 1) / 2; }
static inline int32_t dw3_width(const ta_conv_params *p, const ta_dims *out_dims) {
  return ((2 * dw3_pairs(out_dims) - 1) * p->stride_w + 5) & ~1;
}

size_t ta_depthwise_conv2d_fold_3x3_dsp_s8_scratch_size(const ta_conv_params *p,
                                                        const ta_dims *in_dims,
                                                        const ta_dims *filter_dims,
                                                        const ta_dims *out_dims) {
  (void)in_dims;
  (void)filter_dims;
  if (out_dims->w < 1 || p->stride_w < 1 || p->stride_w > 2)
    return 0;
  return 3 * 4 * (size_t)dw3_width(p, out_dims) * 2;
}

/* Whether the 3 x 3 path takes the op (besides ta_depthwise_conv2d_fold_dsp_ok()). */
TA_INLINE int dw3_ok(const ta_conv_params *p, const ta_quant *q, const ta_dims *filter_dims) {
  return filter_dims->h == 3 && filter_dims->w == 3 && p->dilation_h == 1 &&
         p->dilation_w == 1 && (p->stride_w == 1 || p->stride_w == 2) && p->stride_h >= 1 &&
         p->pad_w >= 0 && (q->mmla & TA_MMLA_DOUBLED);
}

int ta_depthwise_conv2d_fold_3x3_ok(const ta_conv_params *p, const ta_quant *q,
                                    const ta_dims *in_dims, const ta_dims *filter_dims) {
  return ta_depthwise_conv2d_fold_dsp_ok(p, q, in_dims, filter_dims) && dw3_ok(p, q, filter_dims);
}

/* n int16 at d (4-byte aligned, n even), the zero point zp: the ring
 * at first, and a slot for a row outside the input. */
static void dw3_zp(int16_t *d, int32_t n, int16_t zp) {
  const uint32_t zz = (uint16_t)zp * UINT32_C(0x10001);
  for (int32_t k = 0; k < n; k += 2)
    memcpy(d + k, &zz, 4);
}

/* Columns [pad_w, pad_w + n) of the four planes at d (Wp int16 each,
 * column k holding input column k - pad_w): input row x's pixels, n of
 * them, channels c0 .. c0 + 3 (x at channel c0), widened.  The other
 * columns hold the zero point already.  With the DSP extension two
 * pixels per step, elsewhere one. */
static void dw3_fill(int16_t *d, int32_t Wp, const int8_t *x, int32_t C, int32_t n) {
  int16_t *d1 = d + Wp, *d2 = d1 + Wp, *d3 = d2 + Wp;
  int32_t k = 0;
#if defined(TA_DSP)
  for (; k + 2 <= n; k += 2, x += 2 * C) {
    /* Pixels a and b: a0 a1 a2 a3 and b0 b1 b2 b3 -> (a0, b0) ... (a3, b3). */
    const uint32_t a = ta_ld32(x), b = ta_ld32(x + C);
    const uint32_t lo = ta_pkhbt(a, b), hi = ta_pkhtb(b, a);
    ta_st32(d + k, (uint32_t)ta_sxtb16_even(lo));
    ta_st32(d1 + k, (uint32_t)ta_sxtb16_odd(lo));
    ta_st32(d2 + k, (uint32_t)ta_sxtb16_even(hi));
    ta_st32(d3 + k, (uint32_t)ta_sxtb16_odd(hi));
  }
#endif
  for (; k < n; k++, x += C) {
    d[k] = x[0];
    d1[k] = x[1];
    d2[k] = x[2];
    d3[k] = x[3];
  }
}

#define DW3_BLOCK 12 /* int32 per channel: the assembly's 48 bytes */

/* One output row of a group of four channels: what dw3_row() reads.
 * The assembly walks p and o on, channel by channel; the driver sets
 * them per row.  The order of the first fields is the assembly's. */
typedef struct {
  const int16_t *p[3];         /* channel c0's window rows in the ring */
  int32_t plane;               /* bytes from one channel's rows to the next's: 2 Wp */
  int8_t *o;                   /* channel c0 of the row's first output pixel */
  int32_t span;                /* bytes from there past the last whole pixel pair: 2 C (OW / 2) */
  int32_t sw;                  /* stride, 1 or 2 */
  int32_t odd;                 /* OW is odd: one pixel after the pairs */
  const int32_t *blk;          /* blocks[0]: the assembly walks them */
  int32_t C, OW;               /* output pixel stride (bytes); pixels of a row */
  int32_t blocks[4][DW3_BLOCK]; /* per channel its block (dw3_run()) */
} dw3_row_t;

#if defined(TA_DSP_GEMM_ASM)
/* One filter row k of a pixel pair (p the row's pointer, A and B its
 * weight words): the pair's two columns' first word (stride 1: the
 * even pixel's taps 0, 1 and the odd pixel's tap 0; stride 2: the even
 * pixel's taps 0, 1), then the next (stride 1: the even pixel's tap 2
 * and the odd pixel's taps 1, 2) or, stride 2, the next two words (the
 * even pixel's tap 2 with the odd pixel's taps 0, 1; the odd pixel's
 * tap 2).  r11 and ip the even and odd pixel's sums, lr the word. */
#define DW3_ROW1(p, A, B)                                                 \
  "ldr    lr, [" p "], #4\n\t"                                            \
  "smlad  r11, lr, " A ", r11\n\t"                                        \
  "smlatb ip, lr, " A ", ip\n\t"                                          \
  "ldr    lr, [" p "]\n\t"                                                \
  "smlabt r11, lr, " B ", r11\n\t"                                        \
  "smlad  ip, lr, " B ", ip\n\t"
#define DW3_ROW2(p, A, B)                                                 \
  "ldr    lr, [" p "], #8\n\t"                                            \
  "smlad  r11, lr, " A ", r11\n\t"                                        \
  "ldr    lr, [" p ", #-4]\n\t"                                           \
  "smlabt r11, lr, " B ", r11\n\t"                                        \
  "smlad  ip, lr, " A ", ip\n\t"                                          \
  "ldr    lr, [" p "]\n\t"                                                \
  "smlabt ip, lr, " B ", ip\n\t"
/* The even pixel alone (an odd row's last): the same first taps. */
#define DW3_ROW0(p, A, B)                                                 \
  "ldr    lr, [" p "]\n\t"                                                \
  "smlad  r11, lr, " A ", r11\n\t"                                        \
  "ldr    lr, [" p ", #4]\n\t"                                            \
  "smlabt r11, lr, " B ", r11\n\t"
/* A pixel pair: the weights and the doubled bias (both sums start from
 * it) from the channel's block at r3, the three filter rows, then both
 * sums requantized (SMMLAR by M plus c, the sign's correction, the
 * shift e, SSAT) and stored C apart at r10, which moves on two pixels;
 * [sp, #12] the end of the pairs. */
#define DW3_PAIR(ROW)                                                     \
  "ldm    r3, {r4-r9}\n\t"                                                \
  "ldrd   r11, ip, [r3, #24]\n\t"                                         \
  ROW("r0", "r4", "r5") ROW("r1", "r6", "r7") ROW("r2", "r8", "r9")        \
  "ldrd   r4, r5, [r3, #32]\n\t"                                          \
  "ldrd   r6, r7, [r3, #40]\n\t"                                          \
  "smmlar r8, r11, r4, r5\n\t"                                            \
  "smmlar r9, ip, r4, r5\n\t"                                             \
  "add    r8, r8, r11, asr #31\n\t"                                       \
  "add    r9, r9, ip, asr #31\n\t"                                        \
  "asr    r8, r8, r6\n\t"                                                 \
  "asr    r9, r9, r6\n\t"                                                 \
  "ssat   r8, #8, r8\n\t"                                                 \
  "ssat   r9, #8, r9\n\t"                                                 \
  "strb   r8, [r10]\n\t"                                                  \
  "strb   r9, [r10, r7]\n\t"                                              \
  "add    r10, r10, r7, lsl #1\n\t"                                       \
  "ldr    lr, [sp, #12]\n\t"                                              \
  "cmp    r10, lr\n\t"

/*
 * The row, four channels: per channel its rows (the next channel's
 * into the struct) and its first output byte, the pixel pairs
 * (DW3_PAIR: 36 instructions for 18 multiply-adds of each of two
 * pixels and their requantization), an odd last pixel alone.  The
 * channel's block at r3 (its weights A, B per filter row, the doubled
 * bias twice, M, c, e and C: dw3_run()); [sp] the channels left,
 * [sp, #4] the row's struct.
 */
__attribute__((naked)) static void dw3_row(dw3_row_t *r __attribute__((unused))) {
  __asm__ volatile(
      "push   {r4-r11, lr}\n\t"
      "sub    sp, sp, #16\n\t"
      "str    r0, [sp, #4]\n\t"
      "ldr    r3, [r0, #32]\n\t"
      "movs   r1, #4\n\t"
      "str    r1, [sp]\n\t"
      "10:\n\t"
      "ldr    lr, [sp, #4]\n\t"
      "ldm    lr, {r0-r2, r8, r10}\n\t"
      "add    r5, r0, r8\n\t"
      "add    r6, r1, r8\n\t"
      "add    r7, r2, r8\n\t"
      "add    r9, r10, #1\n\t"
      "stm    lr, {r5-r9}\n\t"
      "ldrd   r4, r5, [lr, #20]\n\t"
      "add    r4, r4, r10\n\t"
      "str    r4, [sp, #12]\n\t"
      "cmp    r4, r10\n\t"
      "beq    13f\n\t"
      "cmp    r5, #1\n\t"
      "bne    12f\n\t"
      "11:\n\t" DW3_PAIR(DW3_ROW1) "bne    11b\n\t"
      "b      13f\n\t"
      "12:\n\t" DW3_PAIR(DW3_ROW2) "bne    12b\n\t"
      "13:\n\t"
      "ldr    lr, [sp, #4]\n\t"
      "ldr    r4, [lr, #28]\n\t"
      "cbz    r4, 14f\n\t"
      "ldm    r3, {r4-r9}\n\t"
      "ldr    r11, [r3, #24]\n\t"
      DW3_ROW0("r0", "r4", "r5") DW3_ROW0("r1", "r6", "r7") DW3_ROW0("r2", "r8", "r9")
      "ldrd   r4, r5, [r3, #32]\n\t"
      "ldr    r6, [r3, #40]\n\t"
      "smmlar r8, r11, r4, r5\n\t"
      "add    r8, r8, r11, asr #31\n\t"
      "asr    r8, r8, r6\n\t"
      "ssat   r8, #8, r8\n\t"
      "strb   r8, [r10]\n\t"
      "14:\n\t"
      "adds   r3, r3, #48\n\t"
      "ldr    r0, [sp]\n\t"
      "subs   r0, r0, #1\n\t"
      "str    r0, [sp]\n\t"
      "bne    10b\n\t"
      "add    sp, sp, #16\n\t"
      "pop    {r4-r11, pc}\n\t");
}

/* A clamp narrower than int8 over the row the assembly wrote: its four
 * channels of OW pixels, C bytes apart. */
static void dw3_clamp_row(int8_t *o, int32_t C, int32_t OW, int32_t lo, int32_t hi) {
  for (int32_t x = 0; x < OW; x++, o += C)
    for (int j = 0; j < 4; j++)
      o[j] = (int8_t)ta_clamp_i32(o[j], lo, hi);
}
#else
/* acc + c[0] times w01's low half + c[1] times its high half: one SMLAD
 * with the DSP extension. */
static inline int32_t dw3_smlad(const int16_t *c, uint32_t w01, int32_t acc) {
#if defined(TA_DSP)
  return __smlad((int32_t)ta_ld32(c), (int32_t)w01, acc);
#else
  return acc + c[0] * (int16_t)w01 + c[1] * (int16_t)(w01 >> 16);
#endif
}

/* The sum of one pixel: the doubled bias b plus its window's three rows
 * from c (each row's three columns from c[k]) times the doubled weights
 * of the block (A: taps 0 and 1, B's high half: tap 2). */
static inline int32_t dw3_pixel(const int16_t *const c[3], const int32_t *blk) {
  int32_t acc = blk[6];
  for (int k = 0; k < 3; k++)
    acc = dw3_smlad(c[k], (uint32_t)blk[2 * k], acc) +
          c[k][2] * (int16_t)((uint32_t)blk[2 * k + 1] >> 16);
  return acc;
}

/* A doubled sum plus the doubled bias, v, requantized by its channel's
 * M, c and e (from its block): SMMLAR's c + (v M + 2^31) / 2^32, the
 * sign's correction, the shift e, saturated to int8 (SSAT). */
static inline int32_t dw3_requant(int32_t v, const int32_t *blk) {
#if defined(TA_DSP)
  const int32_t y = ta_smmlar(v, blk[8], blk[9]);
  return ta_ssat((int32_t)((uint32_t)y - ((uint32_t)v >> 31)) >> blk[10], 8);
#else
  const uint32_t y =
      (uint32_t)blk[9] + (uint32_t)(((int64_t)v * blk[8] + INT64_C(0x80000000)) >> 32);
  return ta_clamp_i32((int32_t)(y - ((uint32_t)v >> 31)) >> blk[10], -128, 127);
#endif
}

/* The same in C, pixel by pixel (and with a clamp: p, the op's
 * parameters). */
TA_NOINLINE static void dw3_row_c(dw3_row_t *r, const ta_conv_params *p) {
  for (int j = 0; j < 4; j++) {
    const int32_t off = j * (r->plane / 2);
    const int32_t *blk = r->blocks[j];
    int8_t *o = r->o + j;
    for (int32_t x = 0; x < r->OW; x++, o += r->C) {
      const int16_t *const c[3] = {r->p[0] + off + x * r->sw, r->p[1] + off + x * r->sw,
                                   r->p[2] + off + x * r->sw};
      int32_t y = dw3_requant(dw3_pixel(c, blk), blk);
      if (p)
        y = ta_clamp_i32(y, p->act_min, p->act_max);
      *o = (int8_t)y;
    }
  }
}
#endif

/*
 * The path, on every core: per group of four channels, per image, per
 * output row (forwards or, rev, from the last row back), the window's
 * rows into the ring (those not there yet), then the row's four
 * channels from the ring (dw3_row(), then a narrower clamp over the row
 * it wrote; dw3_row_c() without the assembly), written.  Within a
 * row the order of the writes does not matter: its windows are all in
 * the ring.
 */
TA_INLINE void dw3_run(const ta_conv_params *p, const ta_dims *in_dims, const int8_t *in,
                       const int8_t *filter, const int32_t *records, const ta_dims *out_dims,
                       int8_t *out, void *scratch, int rev) {
  const int32_t H = in_dims->h, W = in_dims->w, C = in_dims->c;
  const int32_t OH = out_dims->h, OW = out_dims->w, sh = p->stride_h;
  const int32_t Wp = dw3_width(p, out_dims);
  const int16_t zp = (int16_t)ta_clamp_i32(-p->input_offset, -128, 127);
  const int clamp = p->act_min > -128 || p->act_max < 127;
  int16_t *ring = (int16_t *)scratch;
  /* The input columns the ring holds; the others, the padding, hold the
   * zero point from here on (a row comes in as its inside columns). */
  const int32_t fillw = W < Wp - p->pad_w ? W : Wp - p->pad_w > 0 ? Wp - p->pad_w : 0;
  dw3_zp(ring, 12 * Wp, zp);
  int16_t *const slots[5] = {ring, ring + 4 * Wp, ring + 8 * Wp, ring, ring + 4 * Wp};
  dw3_row_t r;
  r.plane = 2 * Wp;
  r.span = 2 * C * (OW / 2);
  r.sw = p->stride_w;
  r.odd = OW & 1;
  r.C = C;
  r.OW = OW;
  for (int32_t c0 = 0; c0 < C; c0 += 4) {
    /* Per channel its block: the doubled weights of filter row k as A
     * (taps 0, 1) and B (taps 1, 2), 0 for a channel of constant output
     * (M 0 in its record); its record's doubled bias twice, M, c and e;
     * the output pixel stride. */
    for (int j = 0; j < 4; j++) {
      const int32_t *rec = records + 4 * (c0 + j);
      const int32_t two = rec[1] ? 2 : 0;
      int32_t *blk = r.blocks[j];
      for (int k = 0; k < 3; k++) {
        const int8_t *f = filter + (size_t)(3 * k) * (size_t)C + (size_t)(c0 + j);
        const int32_t f0 = two * f[0], f1 = two * f[C], f2 = two * f[2 * C];
        blk[2 * k] = (int32_t)((uint16_t)f0 | (uint32_t)f1 << 16);
        blk[2 * k + 1] = (int32_t)((uint16_t)f1 | (uint32_t)f2 << 16);
      }
      blk[6] = blk[7] = rec[0];
      blk[8] = rec[1];
      blk[9] = rec[2];
      blk[10] = rec[3];
      blk[11] = C;
    }
    for (int32_t bi = 0; bi < in_dims->n; bi++) {
      const int32_t b = rev ? in_dims->n - 1 - bi : bi;
      const int8_t *in_b = in + (size_t)b * (size_t)H * (size_t)W * (size_t)C + (size_t)c0;
      int8_t *o_b = out + (size_t)b * (size_t)OH * (size_t)OW * (size_t)C + (size_t)c0;
      /* Input row iy is in slot iy mod 3: the window's row k, input row
       * iy0 + k, in slots[slot + k].  After a row the ring holds its
       * window's rows, iy0 .. iy0 + 2; before the first, none. */
      int32_t iy0 = (rev ? OH - 1 : 0) * sh - p->pad_h;
      int32_t slot = iy0 % 3;
      slot += slot < 0 ? 3 : 0;
      const int32_t dslot = rev ? (3 - sh % 3) % 3 : sh % 3; /* iy0 moves by -sh or sh */
      for (int32_t yi = 0; yi < OH; yi++) {
        const int32_t oy = rev ? OH - 1 - yi : yi;
        /* The window's rows not in the ring yet, k0 .. k1, in increasing
         * order: forwards those past the last window's, rev those before
         * it (all three for the first row or when the windows do not
         * overlap, stride_h >= 3). */
        int32_t k0 = 0, k1 = 2;
        if (yi > 0 && sh < 3) {
          if (rev)
            k1 = sh - 1;
          else
            k0 = 3 - sh;
        }
        for (int32_t k = k0; k <= k1; k++) {
          const int32_t iy = iy0 + k;
          if ((uint32_t)iy < (uint32_t)H)
            dw3_fill(slots[slot + k] + p->pad_w, Wp, in_b + (size_t)iy * (size_t)W * (size_t)C, C,
                     fillw);
          else
            dw3_zp(slots[slot + k], 4 * Wp, zp);
        }
        r.p[0] = slots[slot];
        r.p[1] = slots[slot + 1];
        r.p[2] = slots[slot + 2];
        r.o = o_b + (size_t)oy * (size_t)OW * (size_t)C;
#if defined(TA_DSP_GEMM_ASM)
        r.blk = r.blocks[0];
        dw3_row(&r); /* (walks r.p and r.o on) */
        if (clamp)
          dw3_clamp_row(o_b + (size_t)oy * (size_t)OW * (size_t)C, C, OW, p->act_min,
                        p->act_max);
#else
        dw3_row_c(&r, clamp ? p : NULL);
#endif
        iy0 += rev ? -sh : sh;
        slot += dslot;
        slot -= slot >= 3 ? 3 : 0;
      }
    }
  }
}

/* The portable path, pixels walked forwards (rev 0) or backwards (rev
 * 1); ort: ONNX Runtime's rounding, else TFLite's (a constant in each of
 * the two copies below). */
TA_INLINE void dw_portable(const ta_conv_params *p, const ta_quant *q, const ta_dims *in_dims,
                           const int8_t *in, const ta_dims *filter_dims, const int8_t *filter,
                           const int32_t *bias_fold, const ta_dims *out_dims, int8_t *out,
                           int rev, int ort) {
  const int32_t H = in_dims->h, W = in_dims->w, C = in_dims->c;
  const int32_t KH = filter_dims->h, KW = filter_dims->w, M = p->depth_multiplier;
  const int32_t OH = out_dims->h, OW = out_dims->w, OC = out_dims->c;
#define FINISH(acc, p, q, oc) (ort ? finish_ort(acc, p, q, oc) : finish_fixed(acc, p, q, oc))
  const int8_t zp = (int8_t)ta_clamp_i32(-p->input_offset, -128, 127);
  int8_t zrow[TA_DW_BLOCK];
  int32_t acc[TA_DW_BLOCK];
  for (int j = 0; j < TA_DW_BLOCK; j++)
    zrow[j] = zp;

  for (int32_t bi = 0; bi < in_dims->n; bi++) {
    const int32_t b = rev ? in_dims->n - 1 - bi : bi;
    const int8_t *in_b = in + (size_t)b * (size_t)H * (size_t)W * (size_t)C;
    for (int32_t oyi = 0; oyi < OH; oyi++) {
      const int32_t oy = rev ? OH - 1 - oyi : oyi;
      const ta_window wy = ta_conv_window(oy * p->stride_h - p->pad_h, p->dilation_h, KH, H);
      for (int32_t oxi = 0; oxi < OW; oxi++) {
        const int32_t ox = rev ? OW - 1 - oxi : oxi;
        const ta_window wx = ta_conv_window(ox * p->stride_w - p->pad_w, p->dilation_w, KW, W);
        int8_t *o = out + (((size_t)b * (size_t)OH + (size_t)oy) * (size_t)OW + (size_t)ox) * (size_t)OC;
        if (M == 1) {
          for (int32_t c0 = 0; c0 < C; c0 += TA_DW_BLOCK) {
            const int32_t n = C - c0 < TA_DW_BLOCK ? C - c0 : TA_DW_BLOCK;
            for (int32_t j = 0; j < n; j++)
              acc[j] = bias_fold[c0 + j];
            for (int32_t ky = 0; ky < KH; ky++) {
              const int iny = ky >= wy.start && ky < wy.end;
              const int32_t iy = wy.origin + ky * p->dilation_h;
              const int8_t *wp = filter + (size_t)ky * (size_t)KW * (size_t)OC + c0;
              for (int32_t kx = 0; kx < KW; kx++, wp += OC) {
                const int8_t *xp = zrow;
                if (iny && kx >= wx.start && kx < wx.end)
                  xp = in_b + ((size_t)iy * (size_t)W + (size_t)(wx.origin + kx * p->dilation_w)) * (size_t)C + c0;
                if (n == TA_DW_BLOCK) {
                  for (int j = 0; j < TA_DW_BLOCK; j++)
                    acc[j] += wp[j] * xp[j];
                } else if (n == 8) {
                  for (int j = 0; j < 8; j++)
                    acc[j] += wp[j] * xp[j];
                } else {
                  for (int32_t j = 0; j < n; j++)
                    acc[j] += wp[j] * xp[j];
                }
              }
            }
            for (int32_t j = 0; j < n; j++)
              o[c0 + j] = FINISH(acc[j], p, q, c0 + j);
          }
        } else {
          for (int32_t ic = 0; ic < C; ic++) {
            for (int32_t m0 = 0; m0 < M; m0 += TA_DW_BLOCK) {
              const int32_t n = M - m0 < TA_DW_BLOCK ? M - m0 : TA_DW_BLOCK;
              const int32_t oc0 = ic * M + m0;
              for (int32_t j = 0; j < n; j++)
                acc[j] = bias_fold[oc0 + j];
              for (int32_t ky = 0; ky < KH; ky++) {
                const int iny = ky >= wy.start && ky < wy.end;
                const int32_t iy = wy.origin + ky * p->dilation_h;
                const int8_t *wp = filter + (size_t)ky * (size_t)KW * (size_t)OC + oc0;
                for (int32_t kx = 0; kx < KW; kx++, wp += OC) {
                  int32_t xv = zp;
                  if (iny && kx >= wx.start && kx < wx.end)
                    xv = in_b[((size_t)iy * (size_t)W + (size_t)(wx.origin + kx * p->dilation_w)) * (size_t)C + (size_t)ic];
                  if (n == TA_DW_BLOCK) {
                    for (int j = 0; j < TA_DW_BLOCK; j++)
                      acc[j] += wp[j] * xv;
                  } else if (n == 8) {
                    for (int j = 0; j < 8; j++)
                      acc[j] += wp[j] * xv;
                  } else {
                    for (int32_t j = 0; j < n; j++)
                      acc[j] += wp[j] * xv;
                  }
                }
              }
              for (int32_t j = 0; j < n; j++)
                o[oc0 + j] = FINISH(acc[j], p, q, oc0 + j);
            }
          }
        }
      }
    }
  }
#undef FINISH
}

TA_NOINLINE static void dw_fixed(const ta_conv_params *p, const ta_quant *q,
                                 const ta_dims *in_dims, const int8_t *in,
                                 const ta_dims *filter_dims, const int8_t *filter,
                                 const int32_t *bias_fold, const ta_dims *out_dims, int8_t *out,
                                 int rev) {
  dw_portable(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, rev, 0);
}

TA_NOINLINE static void dw_ort(const ta_conv_params *p, const ta_quant *q,
                               const ta_dims *in_dims, const int8_t *in,
                               const ta_dims *filter_dims, const int8_t *filter,
                               const int32_t *bias_fold, const ta_dims *out_dims, int8_t *out,
                               int rev) {
  dw_portable(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, rev, 1);
}

/* What both DSP paths take whatever the filter: depth multiplier 1,
 * channels a multiple of 4, double rounding. */
TA_INLINE int dw_dsp_form_ok(const ta_conv_params *p, const ta_quant *q,
                             const ta_dims *in_dims) {
  return p->depth_multiplier == 1 && (in_dims->c & 3) == 0 && q->rounding == TA_ROUND_DOUBLE;
}

/* The DSP path for any filter: that, at most TA_DW_MAX_TAPS taps and the
 * records. */
TA_INLINE int dw_dsp_ok(const ta_conv_params *p, const ta_quant *q, const ta_dims *in_dims,
                        const ta_dims *filter_dims) {
  return dw_dsp_form_ok(p, q, in_dims) &&
         (int64_t)filter_dims->h * filter_dims->w <= TA_DW_MAX_TAPS && q->mmla;
}

int ta_depthwise_conv2d_fold_dsp_ok(const ta_conv_params *p, const ta_quant *q,
                                    const ta_dims *in_dims, const ta_dims *filter_dims) {
  return dw_dsp_ok(p, q, in_dims, filter_dims);
}

/* Which code runs an op: */
enum {
  DW_DSP,      /* the DSP path, any filter (the portable one without the extension) */
  DW_DSP_3X3,  /* 3 x 3 filters in channel planes, one walk on every core (dw3_run()) */
  DW_PORTABLE, /* the portable path, TFLite's roundings */
  DW_ORT       /* the portable path, ONNX Runtime's rounding */
};

/* The entry points: arguments checked, then the path of `how` (inlined
 * into each, so that each refers to its own path only). */
TA_INLINE ta_status dw_fold(const ta_conv_params *p, const ta_quant *q, const ta_dims *in_dims,
                            const int8_t *in, const ta_dims *filter_dims, const int8_t *filter,
                            const int32_t *bias_fold, const ta_dims *out_dims, int8_t *out,
                            void *scratch, int rev, int how) {
  if (!ta_dw_shapes_ok(p, in_dims, filter_dims, out_dims) || !bias_fold)
    return TA_ERR_ARG;
  const int ort = q->rounding == TA_ROUND_ORT;
  const int dsp = how == DW_DSP || how == DW_DSP_3X3;
  if ((how == DW_PORTABLE && ort) || (how == DW_ORT && !ort))
    return TA_ERR_ARG;
  if (how == DW_DSP_3X3) {
    /* the 3 x 3 filter and its records: dw3_ok() */
    if (!dw_dsp_form_ok(p, q, in_dims) || !dw3_ok(p, q, filter_dims) || !scratch ||
        ((uintptr_t)scratch & 3))
      return TA_ERR_ARG;
  } else if (dsp && !dw_dsp_ok(p, q, in_dims, filter_dims))
    return TA_ERR_ARG;
#if defined(TA_DSP)
  if (how == DW_DSP) {
    dw_dsp_any(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, rev);
    return TA_OK;
  }
#endif
  if (how == DW_DSP_3X3) {
    dw3_run(p, in_dims, in, filter, bias_fold, out_dims, out, scratch, rev);
    return TA_OK;
  }
  if (how == DW_ORT)
    dw_ort(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, rev);
  else
    dw_fixed(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, rev);
  return TA_OK;
}

/* The DSP path where the core has one (TA_ERR_ARG for an op it does not
 * take), the portable path elsewhere: any filter size; 3 x 3 filters
 * (ta_depthwise_conv2d_fold_3x3_ok()) in channel planes, with a scratch
 * of ta_depthwise_conv2d_fold_3x3_dsp_s8_scratch_size() bytes, 4-byte
 * aligned. */
ta_status ta_depthwise_conv2d_fold_dsp_s8(const ta_conv_params *p, const ta_quant *q,
                                          const ta_dims *in_dims, const int8_t *in,
                                          const ta_dims *filter_dims, const int8_t *filter,
                                          const int32_t *bias_fold, const ta_dims *out_dims,
                                          int8_t *out, void *scratch) {
  return dw_fold(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, scratch, 0,
                 DW_DSP);
}

ta_status ta_depthwise_conv2d_fold_rev_dsp_s8(const ta_conv_params *p, const ta_quant *q,
                                              const ta_dims *in_dims, const int8_t *in,
                                              const ta_dims *filter_dims, const int8_t *filter,
                                              const int32_t *bias_fold, const ta_dims *out_dims,
                                              int8_t *out, void *scratch) {
  return dw_fold(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, scratch, 1,
                 DW_DSP);
}

ta_status ta_depthwise_conv2d_fold_3x3_dsp_s8(const ta_conv_params *p, const ta_quant *q,
                                              const ta_dims *in_dims, const int8_t *in,
                                              const ta_dims *filter_dims, const int8_t *filter,
                                              const int32_t *bias_fold, const ta_dims *out_dims,
                                              int8_t *out, void *scratch) {
  return dw_fold(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, scratch, 0,
                 DW_DSP_3X3);
}

ta_status ta_depthwise_conv2d_fold_rev_3x3_dsp_s8(const ta_conv_params *p, const ta_quant *q,
                                                  const ta_dims *in_dims, const int8_t *in,
                                                  const ta_dims *filter_dims, const int8_t *filter,
                                                  const int32_t *bias_fold, const ta_dims *out_dims,
                                                  int8_t *out, void *scratch) {
  return dw_fold(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, scratch, 1,
                 DW_DSP_3X3);
}

/* The portable path, TFLite's roundings. */
ta_status ta_depthwise_conv2d_fold_portable_s8(const ta_conv_params *p, const ta_quant *q,
                                               const ta_dims *in_dims, const int8_t *in,
                                               const ta_dims *filter_dims, const int8_t *filter,
                                               const int32_t *bias_fold, const ta_dims *out_dims,
                                               int8_t *out, void *scratch) {
  return dw_fold(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, scratch, 0, DW_PORTABLE);
}

ta_status ta_depthwise_conv2d_fold_rev_portable_s8(
    const ta_conv_params *p, const ta_quant *q, const ta_dims *in_dims, const int8_t *in,
    const ta_dims *filter_dims, const int8_t *filter, const int32_t *bias_fold,
    const ta_dims *out_dims, int8_t *out, void *scratch) {
  return dw_fold(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, scratch, 1, DW_PORTABLE);
}

/* The portable path, ONNX Runtime's rounding. */
ta_status ta_depthwise_conv2d_fold_ort_s8(const ta_conv_params *p, const ta_quant *q,
                                          const ta_dims *in_dims, const int8_t *in,
                                          const ta_dims *filter_dims, const int8_t *filter,
                                          const int32_t *bias_fold, const ta_dims *out_dims,
                                          int8_t *out, void *scratch) {
  return dw_fold(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, scratch, 0, DW_ORT);
}

ta_status ta_depthwise_conv2d_fold_rev_ort_s8(const ta_conv_params *p, const ta_quant *q,
                                              const ta_dims *in_dims, const int8_t *in,
                                              const ta_dims *filter_dims, const int8_t *filter,
                                              const int32_t *bias_fold, const ta_dims *out_dims,
                                              int8_t *out, void *scratch) {
  return dw_fold(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, scratch, 1, DW_ORT);
}

/* Every path, chosen per call: the entry point above that takes the op
 * (the compiler's choice, lower_nn.c). */
#define DW_ARGS p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, scratch

ta_status ta_depthwise_conv2d_fold_s8(const ta_conv_params *p, const ta_quant *q,
                                      const ta_dims *in_dims, const int8_t *in,
                                      const ta_dims *filter_dims, const int8_t *filter,
                                      const int32_t *bias_fold, const ta_dims *out_dims,
                                      int8_t *out, void *scratch) {
#if defined(TA_DSP)
  if (ta_depthwise_conv2d_fold_dsp_ok(p, q, in_dims, filter_dims)) {
    if (dw3_ok(p, q, filter_dims) && scratch && !((uintptr_t)scratch & 3))
      return ta_depthwise_conv2d_fold_3x3_dsp_s8(DW_ARGS);
    return ta_depthwise_conv2d_fold_dsp_s8(DW_ARGS);
  }
#endif
  if (q->rounding == TA_ROUND_ORT)
    return ta_depthwise_conv2d_fold_ort_s8(DW_ARGS);
  return ta_depthwise_conv2d_fold_portable_s8(DW_ARGS);
}

ta_status ta_depthwise_conv2d_fold_rev_s8(const ta_conv_params *p, const ta_quant *q,
                                          const ta_dims *in_dims, const int8_t *in,
                                          const ta_dims *filter_dims, const int8_t *filter,
                                          const int32_t *bias_fold, const ta_dims *out_dims,
                                          int8_t *out, void *scratch) {
#if defined(TA_DSP)
  if (ta_depthwise_conv2d_fold_dsp_ok(p, q, in_dims, filter_dims)) {
    if (dw3_ok(p, q, filter_dims) && scratch && !((uintptr_t)scratch & 3))
      return ta_depthwise_conv2d_fold_rev_3x3_dsp_s8(DW_ARGS);
    return ta_depthwise_conv2d_fold_rev_dsp_s8(DW_ARGS);
  }
#endif
  if (q->rounding == TA_ROUND_ORT)
    return ta_depthwise_conv2d_fold_rev_ort_s8(DW_ARGS);
  return ta_depthwise_conv2d_fold_rev_portable_s8(DW_ARGS);
}
