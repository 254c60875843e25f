/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lower_nn.c - the lowerings of the core neural-network ops: CONV_2D,
 * DEPTHWISE_CONV_2D, FULLY_CONNECTED, AVERAGE/MAX_POOL_2D, ADD, SOFTMAX,
 * QUANTIZE, DEQUANTIZE, and RESHAPE/SQUEEZE/EXPAND_DIMS that could not
 * become views.
 *
 * Needs: lower.h's helpers (lower_common.c) and the parameter arithmetic
 * of quant.c, which follows TFLite Micro's Prepare steps.  The uint8 and
 * hybrid variants go on to lower_legacy.c, int16 ones come from
 * lower_s16.c before these are asked.
 */
#include "tinyaot.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "lower.h"
#include "ta_fixedpoint.h"
#include "ta_pack.h"

/* Which records an int8 convolution's DSP entry takes instead of its
 * folded bias (ta_pack.h): none, CONV_2D's (ta_pack_records() in blocks
 * of 2 rows) or the 3 x 3 depthwise path's (ta_pack_records_doubled()). */
enum { REC_NONE, REC_CONV, REC_DW3 };

/* The requantization constants of q (its multipliers and shifts
 * computed) and the bias to pass: with `records` REC_CONV or REC_DW3 (a
 * candidate of that DSP entry) those records for output offset `off`
 * when every channel fits them, q->mmla then TA_MMLA_RECORDS or
 * TA_MMLA_DOUBLED (with bit 0), and the struct "quant" without the
 * multipliers and shifts, which that entry does not read; else the
 * arrays "mult" and "shift", "quant" with q->mmla from
 * ta_quant_mmla_ok(), and fold[] itself.  The bias's length goes to
 * *nbias. */
static const int32_t *quant_consts(Lower *L, ta_quant *q, int nch, const int32_t *fold,
                                   int32_t taps, int records, int32_t off, size_t *nbias) {
  int mmla = ta_quant_mmla_ok(q, nch, fold, taps);
  const int32_t *bias = fold;
  *nbias = (size_t)nch;
  if (records != REC_NONE && (mmla || records == REC_DW3)) {
    int32_t *rec = arena_array(4 * (size_t)nch, sizeof(int32_t));
    size_t n = records == REC_CONV ? ta_pack_records(q, nch, fold, taps, off, 2, rec)
                                   : ta_pack_records_doubled(q, nch, fold, taps, off, rec);
    if (n) {
      mmla = 1 | (records == REC_CONV ? TA_MMLA_RECORDS : TA_MMLA_DOUBLED);
      bias = rec;
      *nbias = n;
    }
  }
  if (mmla & (TA_MMLA_RECORDS | TA_MMLA_DOUBLED)) {
    const_struct(L, "quant", "ta_quant",
                 arena_printf("{NULL, NULL, %d, %s, %d}", q->per_channel,
                              rounding_str(L->rounding), mmla),
                 true);
  } else {
    size_t n = q->per_channel ? (size_t)nch : 1;
    const_i32(L, "mult", q->multiplier, n, false);
    const_i32(L, "shift", q->shift, n, false);
    const_struct(L, "quant", "ta_quant", quant_init(q->per_channel, L->rounding, mmla), true);
  }
  q->mmla = (uint16_t)mmla;
  return bias;
}

/* A filter packed by ta_pack_rows_s8() (n bytes) as the op's "filter"
 * argument: int8, or (wide) widened to int16 by ta_pack_wide_s8() for
 * the wide DSP entries of CONV_2D and FULLY_CONNECTED. */
static void packed_filter_arg(Lower *L, const int8_t *packed, size_t n, bool wide) {
  ConstObj c = {.name = "filter", .ctype = "int8_t", .dtype = DT_INT8, .data = packed,
                .count = n};
  if (wide) {
    int16_t *w16 = arena_array(n, sizeof(int16_t));
    ta_pack_wide_s8(packed, n, w16);
    c.ctype = "int16_t", c.dtype = DT_INT16, c.data = w16;
  }
  add_arg(L, ARG_CONST, add_const(L, c), 0);
}

/* The filter argument of an int8 CONV_2D (OHWI, out_c rows of `taps`):
 * packed for the DSP entry when q has TA_MMLA_RECORDS (a constant
 * "filter" of ta_pack_rows_s8(), fold the folded bias; widened to int16
 * by ta_pack_wide_s8() for the wide entry), else the tensor itself, or
 * `rows` when given (a filter re-laid out here). */
static void conv_filter_arg(Lower *L, const ta_quant *q, const int32_t *fold,
                            const Tensor *filter, const int8_t *rows, int32_t out_c,
                            int32_t taps) {
  if (q->mmla & TA_MMLA_RECORDS) {
    size_t n = ta_pack_size(out_c, taps);
    int8_t *packed = arena_alloc(n);
    ta_pack_rows_s8(q, fold, rows ? rows : (const int8_t *)filter->data, out_c, taps, 2,
                            packed);
    packed_filter_arg(L, packed, n, !strcmp(L->l->kernel, "ta_conv2d_fold_wide_dsp_s8"));
  } else if (rows) {
    add_arg(L, ARG_CONST,
            add_const(L, (ConstObj){.name = "filter", .ctype = "int8_t", .dtype = DT_INT8,
                                    .data = rows, .count = (size_t)out_c * (size_t)taps}),
            0);
  } else {
    arg_tensor(L, filter->index);
  }
}

/* The requantization constants of an int8 convolution with nch output
 * channels, its folded bias fold[] and `taps` products per accumulator
 * (the filter row length); ta_quant.mmla says whether the kernels' Arm
 * DSP paths may requantize in SMMLAR form, decided here once with the
 * predicate they used to evaluate per call (ta_quant_mmla_ok()); the
 * records and the bias to pass as quant_consts() says (`records`: a
 * ta_conv2d_fold_dsp_s8 candidate). */
static const int32_t *conv_quant(Lower *L, const Tensor *in, const Tensor *filter,
                                 const Tensor *out, int nch, int axis, const int32_t *fold,
                                 int32_t taps, int records, size_t *nbias, ta_quant *qout) {
  const int32_t off = (int32_t)zp_of(out);
  int per = filter->q.nscale > 1;
  if (filter->q.nscale < 1)
    error_at(L->g, L->op->index, "the filter is not quantized");
  if (per && (filter->q.nscale != nch || filter->q.axis != axis))
    error_at(L->g, L->op->index,
             "per-channel filter quantization has %d scales on axis %d; "
             "expected %d on axis %d",
             filter->q.nscale, filter->q.axis, nch, axis);
  for (int c = 0; c < filter->q.nscale; c++)
    if (filter->q.zero_point && filter->q.zero_point[c] != 0)
      error_at(L->g, L->op->index,
               "the filter's zero point is %" PRId64 " (channel %d); int8 "
               "filters must be symmetric",
               filter->q.zero_point[c], c);
  int n = per ? nch : 1;
  int32_t *mult = arena_array((size_t)n, sizeof(int32_t));
  int32_t *shift = arena_array((size_t)n, sizeof(int32_t));
  for (int c = 0; c < n; c++)
    if (!conv_multiplier(scale_of(L, in), filter->q.scale[c], scale_of(L, out),
                         L->rounding, &mult[c], &shift[c]))
      error_at(L->g, L->op->index,
               "cannot represent the requantization scale of channel %d", c);
  ta_quant q = {mult, shift, per, L->rounding, 0};
  const int32_t *bias = quant_consts(L, &q, nch, fold, taps, records, off, nbias);
  *qout = q;
  return bias;
}

/*
 * The entry point of an int8 kernel with several paths (doc/cortex-m.md,
 * "Paths chosen by the compiler"): stem_dsp_s8 when its Arm DSP path
 * takes the op (`dsp`, the kernel's own ..._dsp_ok()), which is the
 * portable path on cores without the extension; else stem_ort_s8 for
 * ONNX Runtime's rounding or stem_portable_s8.  A program then links
 * only the paths its ops run: no portable fallback beside a DSP path
 * that always runs, no float requantization in a fixed-point kernel.
 */
static const char *path_kernel(Lower *L, const char *stem, bool dsp) {
  return arena_printf("%s_%s_s8", stem,
                      dsp ? "dsp" : L->rounding == TA_ROUND_ORT ? "ort" : "portable");
}

/* Whether the plan aligns the scratch for a DSP path's paired loads. */
static bool scratch_aligned4(const Lower *L) { return L->o->align == 0 || L->o->align >= 4; }

/* Is this op one that --lean-conv (or --ram-limit) names? */
static bool lean_op(const Lower *L) {
  for (int i = 0; i < L->o->nlean; i++)
    if (L->o->lean_ops[i] == L->op->index)
      return true;
  return false;
}

/* An ungrouped int8 CONV_2D's entry (dsp: its DSP path takes the op),
 * its scratch, and the overlap its blocks allow: the DSP entry with
 * blocks of 4 pixels (1 on cores without the extension), its lean form
 * (blocks of 2, half the columns) at the ops --lean-conv names, or the
 * portable one.  The overlap the callers declare for blocks of 1 and 4
 * holds for blocks of 2: each of their ends is one of a block of 1. */
static void conv_entry(Lower *L, bool dsp, const ta_conv_params *p, ta_dims di, ta_dims df,
                       ta_dims dout) {
  const bool lean = dsp && lean_op(L);
  /* --optimize speed: the filter widened (conv_filter_arg()); not where
   * --fuse-add may fuse the op (the fused entries take int8 filters). */
  const bool wide = dsp && !lean && L->o->wide_filters && !L->o->fuse_add && !(dout.c & 1);
  L->l->lean = lean;
  L->l->kernel = lean   ? "ta_conv2d_fold_lean_dsp_s8"
                 : wide ? "ta_conv2d_fold_wide_dsp_s8"
                        : path_kernel(L, "ta_conv2d_fold", dsp);
  L->op->scratch_bytes = lean ? ta_conv2d_fold_lean_dsp_s8_scratch_size(p, &di, &df, &dout)
                              : ta_conv2d_fold_s8_scratch_size(p, &di, &df, &dout);
}

/* Whether a DEPTHWISE_CONV_2D has what the 3 x 3 DSP path takes but
 * its records (asked with their flag: the rest is the op's shape), the
 * rounding they need and an aligned scratch. */
static bool dw3_shape(const Lower *L, const ta_conv_params *p, ta_dims di, ta_dims df) {
  const ta_quant as3 = {NULL, NULL, 0, TA_ROUND_DOUBLE, 1 | TA_MMLA_DOUBLED};
  return L->rounding == TA_ROUND_DOUBLE && ta_depthwise_conv2d_fold_3x3_ok(p, &as3, &di, &df) &&
         scratch_aligned4(L);
}

/* The same for DEPTHWISE_CONV_2D (`rev`: its backward walk), whose DSP
 * path has a 3 x 3 form of its own (channel planes in a scratch):
 * stem[_rev]_3x3_dsp_s8 where ta_depthwise_conv2d_fold_3x3_ok() and the
 * scratch is aligned, else stem[_rev]_dsp_s8 for any filter. */
static const char *dw_kernel(Lower *L, bool dsp, bool rev, const ta_conv_params *p,
                             const ta_quant *q, ta_dims di, ta_dims df) {
  const char *stem = rev ? "ta_depthwise_conv2d_fold_rev" : "ta_depthwise_conv2d_fold";
  if (dsp && dw3_shape(L, p, di, df)) {
    if (!lean_op(L) && ta_depthwise_conv2d_fold_3x3_ok(p, q, &di, &df))
      return arena_printf("%s_3x3_dsp_s8", stem);
    L->l->lean = lean_op(L);
  }
  return path_kernel(L, stem, dsp);
}

/* ------------------------------------------------ CONV_2D, DEPTHWISE */

/*
 * The overlap the int8 convolution kernels allow between their output
 * and their input (Lowered.overlap, doc/memory-plan.md 2c), from their
 * loop orders.  ta_conv2d_fold_s8 (runtime/conv/ta_conv2d_fold_s8.c),
 * ungrouped convolutions only:
 *
 *  - portable C: output pixels in order (image, row, column); per pixel
 *    the whole window is gathered into the scratch column first, then
 *    the pixel's OC outputs are written from the column.  Blocks of 1.
 *  - the DSP entry: pixels four at a time (pixels i .. i + 3 of the
 *    flattened order, blocks spanning rows and images, the last block
 *    repeating the last pixel): the four windows gathered into the
 *    scratch, then the four pixels' outputs written (on cores without
 *    the extension one pixel at a time).  Blocks of 4.
 *
 * Either way, when the block ending before pixel e is written, the only
 * input bytes still to be read are those of pixels e.. - at or above
 * low(e), the lowest byte of their windows.  The block's last output
 * byte is output base + e * OC, so it clobbers nothing while
 *   output base - input base <= low(e) - e * OC      for every block,
 * and max_ahead is the least of these over both block sizes.  For a 1x1
 * convolution widening C to OC channels over P pixels this is
 * -(P - 1) * (OC - C): the output ends at most OC - C bytes after the
 * input's end, the input in the output's upper part.  A same-width 1x1 convolution gets 0 (fully in place: a
 * pixel is read whole before it is written); a 3x3 stride-1 one about
 * -(W + 1) * C (the row above is still needed); a stride-2 one reads
 * its rows faster than it writes them and gets a distance set by its
 * first rows.  A grouped convolution writes pixel p's first group
 * before reading its second group's window: nothing declared.
 *
 * ta_depthwise_conv2d_fold_s8 with depth multiplier 1: the portable C
 * runs pixels in order, per pixel channel blocks of 16 (each block's
 * window read, then its outputs written); the Arm DSP path runs groups
 * of 4 channels one after another, each over all pixels in order.  An
 * output channel depends only on the same input channel, so when the
 * output's base is a whole number of pixels (C bytes) from the input's
 * every output channel falls on its own input channel, and per channel
 * both paths are the pixel-order walk above with blocks of 1: the same
 * bound, plus that modulus (chan_mod).  Other depth multipliers widen
 * the pixel (output channel ic * M + m reads input channel ic): nothing
 * declared.
 *
 * Walked backwards (ta_depthwise_conv2d_fold_rev_s8, pixels from the
 * last to the first), when pixel i is written the pixels before it still
 * read below high(i), the end of the highest byte their windows touch,
 * so the output may also start at least min_above = max over i of
 * high(i) - i * OC bytes above the input (computed for every pattern,
 * used only where a backward kernel is declared).
 */
static void declare_windows(Lower *L, const ta_conv_params *p, ta_dims di, int32_t kh,
                            int32_t kw, ta_dims dout, const int32_t *blocks, int nblocks,
                            bool by_channel, int32_t ielem, int32_t oelem, bool own) {
  const int64_t H = di.h, W = di.w, C = (int64_t)di.c * ielem, OH = dout.h, OW = dout.w;
  const int64_t OC = (int64_t)dout.c * oelem;
  const int64_t npix = (int64_t)dout.n * OH * OW, ibytes = (int64_t)di.n * H * W * C;
  if (npix <= 0 || ibytes <= 0 || nblocks < 1 || nblocks > 2)
    return;
  /* low[j]: the lowest input byte any pixel j.. reads (ibytes: none). */
  int64_t *low = arena_array((size_t)npix + 1, sizeof(int64_t));
  low[npix] = ibytes;
  for (int64_t j = npix - 1; j >= 0; j--) {
    const int64_t n = j / (OH * OW), oy = j / OW % OH, ox = j % OW;
    const int64_t y0 = oy * p->stride_h - p->pad_h, x0 = ox * p->stride_w - p->pad_w;
    /* The first tap row and column inside the input. */
    int64_t ky = y0 >= 0 ? 0 : (-y0 + p->dilation_h - 1) / p->dilation_h;
    int64_t kx = x0 >= 0 ? 0 : (-x0 + p->dilation_w - 1) / p->dilation_w;
    const int64_t iy = y0 + ky * p->dilation_h, ix = x0 + kx * p->dilation_w;
    int64_t w = ibytes;
    if (ky < kh && kx < kw && iy < H && ix < W)
      w = ((n * H + iy) * W + ix) * C;
    low[j] = w < low[j + 1] ? w : low[j + 1];
  }
  int64_t d = ibytes;
  for (int k = 0; k < nblocks; k++)
    for (int64_t i = 0; i < npix; i += blocks[k]) {
      const int64_t e = i + blocks[k] < npix ? i + blocks[k] : npix;
      /* Still to be read when the block's last byte is written: what
       * the later pixels read, or (own) the block's pixels too. */
      const int64_t r = own ? low[i] : low[e];
      if (r < ibytes && r - e * OC < d)
        d = r - e * OC;
    }
  /* Walked backwards, blocks of 1: when pixel i is written, pixels < i
   * still read below high[i], the end of the highest byte their windows
   * touch: the output may start at least high[i] - i * OC above. */
  int64_t up = 0;
  for (int64_t i = 0, high = 0; i < npix; i++) {
    if (high > 0 && high - i * OC > up)
      up = high - i * OC;
    const int64_t n = i / (OH * OW), oy = i / OW % OH, ox = i % OW;
    const int64_t y0 = oy * p->stride_h - p->pad_h, x0 = ox * p->stride_w - p->pad_w;
    int64_t ky = kh - 1, kx = kw - 1; /* the last tap row and column inside */
    while (ky >= 0 && (y0 + ky * p->dilation_h >= H || y0 + ky * p->dilation_h < 0))
      ky--;
    while (kx >= 0 && (x0 + kx * p->dilation_w >= W || x0 + kx * p->dilation_w < 0))
      kx--;
    if (ky >= 0 && kx >= 0) {
      const int64_t e = ((n * H + y0 + ky * p->dilation_h) * W + x0 + kx * p->dilation_w + 1) * C;
      high = e > high ? e : high;
    }
  }
  OverlapDecl *o = &L->l->overlap;
  *o = (OverlapDecl){.declared = true, .input = 0, .max_ahead = d, .min_above = up,
                     .kh = kh, .kw = kw, .sh = p->stride_h, .sw = p->stride_w,
                     .dh = p->dilation_h, .dw = p->dilation_w, .ph = p->pad_h,
                     .pw = p->pad_w, .block = {blocks[0], nblocks > 1 ? blocks[1] : 0},
                     .nblocks = nblocks, .chan_mod = by_channel ? (int32_t)C : 0,
                     .own_reads = own};
}

void overlap_windows(Lower *L, const ta_conv_params *p, ta_dims di, int32_t kh, int32_t kw,
                     ta_dims dout, int nblocks, bool by_channel, int32_t elem) {
  static const int32_t blocks[2] = {1, 4};
  declare_windows(L, p, di, kh, kw, dout, blocks, nblocks, by_channel, elem, elem, false);
}

/*
 * The ring (rows_once): when output row y of image n is written
 * forwards, what is still to be read starts at row r = y*sh - ph + kh
 * (at least 0) of that image, or at image n + 1 when r is past the last
 * row (nothing, after the last image); the row's bytes end at
 * (n*OH + y + 1) * OW * OC from the output's base, so the base may lie
 * at most the least of the differences above the input's.  Backwards,
 * when row y is written the rows still to be read end at row
 * y*sh - ph (within [0, H]) of image n, every earlier image whole: the
 * base at least the largest of that end minus the row's first byte.
 * Channel by channel (the kernel runs groups of four over all rows), so
 * input and output pixels are one size and chan_mod holds.
 */
void overlap_rows(Lower *L, const ta_conv_params *p, ta_dims di, int32_t kh, ta_dims dout) {
  const int64_t H = di.h, W = di.w, C = di.c, N = dout.n, OH = dout.h, OW = dout.w;
  if (dout.c != di.c || di.n != dout.n || N < 1 || OH < 1 || OW < 1 || H < 1 || W < 1 ||
      C < 1 || p->dilation_h != 1)
    return;
  const int64_t row = W * C, image = H * row, orow = OW * C;
  int64_t ahead = N * image, above = 0;
  for (int64_t n = 0; n < N; n++)
    for (int64_t y = 0; y < OH; y++) {
      const int64_t t = n * OH + y;
      int64_t r = y * p->stride_h - p->pad_h + kh;
      r = r < 0 ? 0 : r;
      if (r < H || n + 1 < N) {
        const int64_t next = r < H ? n * image + r * row : (n + 1) * image;
        ahead = next - (t + 1) * orow < ahead ? next - (t + 1) * orow : ahead;
      }
      int64_t b = y * p->stride_h - p->pad_h;
      b = b < 0 ? 0 : b > H ? H : b;
      const int64_t high = n * image + b * row;
      if (high > 0 && high - t * orow > above)
        above = high - t * orow;
    }
  L->l->overlap = (OverlapDecl){.declared = true, .input = 0, .max_ahead = ahead,
                                .min_above = above, .kh = kh, .kw = 1, .sh = p->stride_h,
                                .sw = 1, .dh = 1, .dw = 1, .ph = p->pad_h, .pw = 0,
                                .block = {(int32_t)OW, 0}, .nblocks = 1,
                                .chan_mod = (int32_t)C, .rows_once = true};
}

void overlap_windows_own(Lower *L, const ta_conv_params *p, ta_dims di, int32_t kh,
                         int32_t kw, ta_dims dout, int32_t elem) {
  static const int32_t one[1] = {1};
  declare_windows(L, p, di, kh, kw, dout, one, 1, false, elem, elem, true);
}

/* A 1x1 window at stride 1, no padding: output pixel j reads input
 * pixel j (of the same NHWC walk). */
static const ta_conv_params pixelwise = {.stride_h = 1, .stride_w = 1, .dilation_h = 1,
                                         .dilation_w = 1};

void overlap_images(Lower *L, ta_dims di, ta_dims dout, int32_t elem) {
  const int32_t block[1] = {dout.h * dout.w};
  if ((int64_t)dout.h * dout.w < 1 || (int64_t)dout.h * dout.w > INT32_MAX)
    return;
  declare_windows(L, &pixelwise, di, 1, 1, dout, block, 1, false, elem, elem, false);
}

void overlap_pixels(Lower *L, int64_t npix, int32_t in_elems, int32_t ielem,
                    int32_t out_elems, int32_t oelem) {
  static const int32_t one[1] = {1};
  if (npix < 1 || npix > INT32_MAX || in_elems < 1 || out_elems < 1)
    return;
  ta_dims di = {1, 1, (int32_t)npix, in_elems}, dout = {1, 1, (int32_t)npix, out_elems};
  declare_windows(L, &pixelwise, di, 1, 1, dout, one, 1, false, ielem, oelem, false);
  OverlapDecl *o = &L->l->overlap;
  if (!o->declared)
    return;
  o->view = true;
  const int64_t iv[4] = {1, 1, npix, in_elems}, ov[4] = {1, 1, npix, out_elems};
  memcpy(o->in_view, iv, sizeof iv);
  memcpy(o->out_view, ov, sizeof ov);
}

/* Weights the reader unpacked from int4 whose packed bytes it kept (as
 * many as the int8 elements need), few enough for the unpacking kernels'
 * int32 count. */
static bool packed_int4(const Tensor *filter) {
  int64_t n = tensor_elems(filter);
  return filter->packed4 && n > 0 && n <= INT32_MAX &&
         filter->npacked4 == (size_t)(n + 1) / 2 && filter->dtype == DT_INT8;
}

/* MLAS's K slice for an SGEMM (or a convolution segment) of N columns
 * and K taps (MlasSgemmOperation's and MlasConvOperation's strides,
 * MLAS_SGEMM_STRIDEN = MLAS_SGEMM_STRIDEK = 128 on x86-64): a small K
 * widens the N slice, a small N deepens the K slice. */
static int32_t mlas_stride_k(int64_t n, int64_t k) {
  int64_t sn = 128, sk = 128;
  if (n >= k) {
    while (sk / 2 >= k)
      sn *= 2, sk /= 2;
  } else {
    while (sn > 16 && sn / 2 >= n)
      sk *= 2, sn /= 2;
  }
  return (int32_t)sk;
}

/* The filter of an int8 convolution (OHWI, or 1HWC when depthwise) or
 * fully connected layer (as OHWI with kh = kw = 1) dequantized as ONNX
 * Runtime's DequantizeLinear does, (float)q * scale, in tap order
 * [out_c][cg][kh][kw]; and its bias, (float)b * the model's own bias
 * scale (Op.ref_bias_scale), zeros without one. */
static float *ort_float_filter(const Tensor *filter, int32_t nout, int32_t kh, int32_t kw,
                               int32_t cg, bool depthwise) {
  const Quant *fq = &filter->q;
  const int8_t *w = (const int8_t *)filter->data;
  const size_t taps = (size_t)cg * (size_t)kh * (size_t)kw;
  float *wf = arena_array((size_t)nout * taps, sizeof(float));
  for (int32_t o = 0; o < nout; o++) {
    const float s = fq->scale[fq->nscale > 1 ? o : 0];
    for (int32_t c = 0; c < cg; c++)
      for (int32_t y = 0; y < kh; y++)
        for (int32_t x = 0; x < kw; x++) {
          size_t at = depthwise ? ((size_t)y * (size_t)kw + (size_t)x) * (size_t)nout + (size_t)o
                                : (((size_t)o * (size_t)kh + (size_t)y) * (size_t)kw + (size_t)x) *
                                          (size_t)cg +
                                      (size_t)c;
          wf[(size_t)o * taps + ((size_t)c * (size_t)kh + (size_t)y) * (size_t)kw + (size_t)x] =
              (float)w[at] * s;
        }
  }
  return wf;
}

static float *ort_float_bias(const Lower *L, const Tensor *bias, int32_t nout) {
  float *bf = arena_array((size_t)nout, sizeof(float));
  const float *bs = L->op->ref_bias_scale;
  for (int32_t o = 0; o < nout; o++)
    bf[o] = bias && bs ? (float)((const int32_t *)bias->data)[o] * bs[o] : 0.0f;
  return bf;
}

/* The call of ta_conv2d_ort_f32_s8: p, its ta_conv_ort_params, the
 * input, the float filter wf (df: {out_c, kh, kw, cg}) and bias bf, the
 * output. */
static void ort_float_args(Lower *L, const ta_conv_params *p, int32_t stride_k, int m1,
                           bool bias_first, const Tensor *in, ta_dims di, ta_dims df,
                           const float *wf, const float *bf, const Tensor *out, ta_dims dout) {
  L->l->kernel = "ta_conv2d_ort_f32_s8";
  const_struct(L, "params", "ta_conv_params", conv_init(p), true);
  const_struct(L, "ort", "ta_conv_ort_params",
               arena_printf("{.in_scale = %s, .out_scale = %s, .stride_k = %d, .m1 = %d, "
                            ".bias_first = %d}",
                            flit(scale_of(L, in)), flit(scale_of(L, out)), (int)stride_k, m1,
                            bias_first ? 1 : 0),
               true);
  const_struct(L, "in_dims", "ta_dims", dims_init(di), true);
  arg_tensor(L, in->index);
  const_struct(L, "filter_dims", "ta_dims", dims_init(df), true);
  const size_t taps = (size_t)df.h * (size_t)df.w * (size_t)df.c;
  const_array(L, "filter", DT_FLOAT32, wf, (size_t)df.n * taps, true);
  const_array(L, "bias", DT_FLOAT32, bf, (size_t)df.n, true);
  const_struct(L, "out_dims", "ta_dims", dims_init(dout), true);
  arg_tensor(L, out->index);
}

/*
 * --rounding onnxruntime, an int8 convolution the front end marked
 * Op.ref_float (ONNX Runtime leaves its QDQ group in float32):
 * ta_conv2d_ort_f32_s8 with the weights and the bias dequantized here as
 * ONNX Runtime's DequantizeLinear does ((float)q * scale, the model's own
 * bias scales) and laid out in tap order.  MLAS's choices for one thread
 * on x86-64 (MlasConvPrepare, MlasConv, MlasConvOperation,
 * MlasSgemmOperation), per group of M filters of K taps over N output
 * pixels: a pointwise convolution (1x1, stride 1, no padding) is one
 * SGEMM, whose M = 1 case is the one-filter kernel and N = 1 case the
 * transposed one-row kernel over all K; any other sums K in slices of
 * mlas_stride_k(N, K), with those kernels per slice when M = 1 or N = 1.
 * Not taken (false: the integer kernel with ONNX Runtime's
 * requantization, as without the mark): one-input-channel convolutions
 * whose filter spans the input's width or height (a transposed GEMM),
 * and fused activations other than Relu, Relu6 and Relu(-1, 1).
 */
static bool lower_conv_ort_float(Lower *L, bool depthwise, ta_conv_params p, const Tensor *in,
                                 const Tensor *filter, const Tensor *bias, const Tensor *out,
                                 ta_dims di, ta_dims df, ta_dims dout) {
  const int32_t nout = dout.c, cg = depthwise ? 1 : df.c, kh = df.h, kw = df.w;
  const int32_t groups = di.c / cg, per_group = nout / groups;
  const int64_t npix = (int64_t)dout.h * dout.w, taps = (int64_t)cg * kh * kw;
  const bool unit = p.stride_h == 1 && p.stride_w == 1 && p.pad_h == 0 && p.pad_w == 0 &&
                    dout.h == di.h - (kh - 1) * p.dilation_h &&
                    dout.w == di.w - (kw - 1) * p.dilation_w;
  const bool pointwise = unit && kh == 1 && kw == 1;
  if (unit && !pointwise && cg == 1 && p.dilation_h == 1 && p.dilation_w == 1 &&
      (kw == di.w || (kh == di.h && kw == 1)))
    return false;
  float flo, fhi;
  if (!activation_range_float(L->op->opt.activation, &flo, &fhi))
    return false;
  p.act_min_f32 = flo;
  p.act_max_f32 = fhi;
  /* One filter: the one-filter kernel; one output pixel: the transposed
   * one-row kernel (MlasSgemmOperation's N = 1 case), per K slice. */
  const int m1 = per_group == 1 ? 1 : npix == 1 ? 2 : 0;
  const int32_t stride_k = pointwise && m1 ? (int32_t)taps : mlas_stride_k(npix, taps);
  p.input_offset = -zp_of(in);
  p.output_offset = zp_of(out);
  ort_float_args(L, &p, stride_k, m1, false, in, di, (ta_dims){nout, kh, kw, cg},
                 ort_float_filter(filter, nout, kh, kw, cg, depthwise),
                 ort_float_bias(L, bias, nout), out, dout);
  return true;
}

static void conv_common(Lower *L, bool depthwise) {
  need_arity(L, 2, 1);
  Tensor *in = input(L, 0), *filter = input(L, 1), *bias = optional_input(L, 2);
  Tensor *out = output(L, 0);
  const Options *opt = &L->op->opt;
  bool f32 = in->dtype == DT_FLOAT32 && filter->dtype == DT_FLOAT32 &&
             out->dtype == DT_FLOAT32 && (!bias || bias->dtype == DT_FLOAT32);
  bool s8 = in->dtype == DT_INT8 && filter->dtype == DT_INT8 &&
            out->dtype == DT_INT8 && (!bias || bias->dtype == DT_INT32);
  if (!f32 && !s8) {
    lower_conv_legacy(L, depthwise); /* uint8, hybrid */
    return;
  }
  need_conv_tensors(L, in, filter, bias, out);
  ta_dims di = dims4(L, in), df = dims4(L, filter), dout = dims4(L, out);
  int32_t oh, ow;
  ta_conv_params p = conv_params_of(opt, di, df, &oh, &ow);
  if (oh != dout.h || ow != dout.w || di.n != dout.n)
    error_at(L->g, L->op->index,
             "output shape [%d,%d,%d,%d] disagrees with the computed [%d,%d,%d,?]",
             (int)dout.n, (int)dout.h, (int)dout.w, (int)dout.c, (int)di.n, (int)oh,
             (int)ow);
  int32_t nout = dout.c;
  if (depthwise) {
    if (df.n != 1 || df.c != nout || di.c == 0 || nout % di.c)
      error_at(L->g, L->op->index,
               "filter [%d,%d,%d,%d] does not fit input channels %d -> %d",
               (int)df.n, (int)df.h, (int)df.w, (int)df.c, (int)di.c, (int)nout);
    p.depth_multiplier = depth_multiplier_of(L, di.c, nout);
  } else {
    if (df.n != nout || df.c == 0 || di.c % df.c)
      error_at(L->g, L->op->index,
               "filter [%d,%d,%d,%d] does not fit input channels %d -> %d",
               (int)df.n, (int)df.h, (int)df.w, (int)df.c, (int)di.c, (int)nout);
  }
  if (bias && tensor_elems(bias) != nout)
    error_at(L->g, L->op->index, "bias has %" PRId64 " values for %d channels",
             tensor_elems(bias), (int)nout);
  act_range(L, out, &p.act_min, &p.act_max, &p.act_min_f32, &p.act_max_f32);

  if (f32) {
    L->l->kernel = depthwise ? "ta_depthwise_conv2d_f32" : "ta_conv2d_f32";
    const_struct(L, "params", "ta_conv_params", conv_init(&p), true);
    conv_tensor_args(L, di, in, df, filter, bias, dout, out);
    /* ta_conv2d_f32 and ta_depthwise_conv2d_f32 (portable C only) walk
     * the output pixels in order; per pixel each output channel (or
     * four) is summed over the window and written, so the pixel's
     * outputs are written while its window is still read: own reads,
     * blocks of 1, any groups and depth multiplier. */
    overlap_windows_own(L, &p, di, df.h, df.w, dout, 4);
    return;
  }

  if (L->rounding == TA_ROUND_ORT && L->op->ref_float &&
      lower_conv_ort_float(L, depthwise, p, in, filter, bias, out, di, df, dout))
    return;
  p.input_offset = -zp_of(in);
  p.output_offset = zp_of(out);
  /* The folded bias: bias + input_offset * sum of each output channel's
   * weights, so the kernel's inner loop is a plain dot product. */
  int32_t *fold = arena_array((size_t)nout, sizeof(int32_t));
  const int32_t *b = NULL;
  if (bias) {
    int32_t *copy = arena_array((size_t)nout, sizeof(int32_t));
    memcpy(copy, bias->data, (size_t)nout * sizeof(int32_t));
    b = copy;
  }
  const int8_t *w = (const int8_t *)filter->data;
  /* A depthwise convolution of a one-channel input is an ordinary one
   * with depth_multiplier output channels: its filter 1HW(M) re-laid
   * out as OHWI [M][h][w][1] (a transposition, done here) lets the
   * CONV_2D kernel run it, the same sums in the same order. */
  if (depthwise && di.c == 1 && nout > 1) {
    const int32_t taps = df.h * df.w;
    int8_t *t = arena_alloc((size_t)nout * (size_t)taps);
    for (int32_t o = 0; o < nout; o++)
      for (int32_t k = 0; k < taps; k++)
        t[(size_t)o * taps + k] = w[(size_t)k * nout + o];
    fold_bias_s8(t, nout, taps, b, p.input_offset, fold);
    ta_dims dc = {nout, df.h, df.w, 1};
    p.depth_multiplier = 1;
    const_struct(L, "params", "ta_conv_params", conv_init(&p), true);
    size_t nbias;
    ta_quant q;
    const int32_t *bias_arg =
        conv_quant(L, in, filter, out, nout, 3, fold, taps,
                   scratch_aligned4(L) ? REC_CONV : REC_NONE, &nbias, &q);
    conv_entry(L, ta_conv2d_fold_dsp_ok(&q, &di, &dc), &p, di, dc, dout);
    const_struct(L, "in_dims", "ta_dims", dims_init(di), true);
    arg_tensor(L, in->index);
    const_struct(L, "filter_dims", "ta_dims", dims_init(dc), true);
    conv_filter_arg(L, &q, fold, filter, t, nout, taps);
    const_i32(L, "bias", bias_arg, nbias, true);
    const_struct(L, "out_dims", "ta_dims", dims_init(dout), true);
    arg_tensor(L, out->index);
    arg_scratch(L);
    overlap_windows(L, &p, di, dc.h, dc.w, dout, 2, false, 1);
    return;
  }
  if (depthwise)
    fold_bias_depthwise_s8(w, df.h * df.w, nout, b, p.input_offset, fold);
  else
    fold_bias_s8(w, nout, df.h * df.w * df.c, b, p.input_offset, fold);

  /* int4 weights (the reader kept the file's packed bytes): the kernel
   * unpacks them into its scratch, as TFLM does, and flash keeps them
   * packed; it then runs ta_conv2d_fold_s8, which picks its path per call. */
  bool w4 = !depthwise && packed_int4(filter);
  const_struct(L, "params", "ta_conv_params", conv_init(&p), true);
  /* Records for the ungrouped CONV_2D only (the kernel's DSP path). */
  size_t nbias;
  ta_quant q;
  /* Records for the DSP entries that take them: an ungrouped CONV_2D,
   * a DEPTHWISE_CONV_2D the 3 x 3 path takes (asked with the records'
   * flag: what else it needs is the op's shape). */
  int records = REC_NONE;
  if (!depthwise && !w4 && df.c == di.c && scratch_aligned4(L))
    records = REC_CONV;
  if (depthwise && !lean_op(L) && dw3_shape(L, &p, di, df)) /* lean: the generic path */
    records = REC_DW3;
  const int32_t *bias_arg =
      conv_quant(L, in, filter, out, nout, depthwise ? 3 : 0, fold,
                 depthwise ? df.h * df.w : df.h * df.w * df.c, records, &nbias, &q);
  const bool dsp = depthwise ? ta_depthwise_conv2d_fold_dsp_ok(&p, &q, &di, &df)
                             : ta_conv2d_fold_dsp_ok(&q, &di, &df);
  if (depthwise)
    L->l->kernel = dw_kernel(L, dsp, false, &p, &q, di, df);
  else if (w4)
    L->l->kernel = "ta_conv2d_fold_w4_s8";
  else
    conv_entry(L, dsp, &p, di, df, dout);
  const_struct(L, "in_dims", "ta_dims", dims_init(di), true);
  arg_tensor(L, in->index);
  const_struct(L, "filter_dims", "ta_dims", dims_init(df), true);
  if (w4)
    const_array(L, "filter4", DT_UINT8, filter->packed4, filter->npacked4, true);
  else if (!depthwise)
    conv_filter_arg(L, &q, fold, filter, NULL, nout, df.h * df.w * df.c);
  else
    arg_tensor(L, filter->index);
  const_i32(L, "bias", bias_arg, nbias, true);
  const_struct(L, "out_dims", "ta_dims", dims_init(dout), true);
  arg_tensor(L, out->index);
  arg_scratch(L);
  if (depthwise)
    L->op->scratch_bytes = strstr(L->l->kernel, "_3x3_dsp_")
                               ? ta_depthwise_conv2d_fold_3x3_dsp_s8_scratch_size(&p, &di, &df,
                                                                                   &dout)
                               : 0;
  else if (w4)
    L->op->scratch_bytes = ta_conv2d_fold_w4_s8_scratch_size(&p, &di, &df, &dout);
  if (!depthwise && df.c == di.c)
    overlap_windows(L, &p, di, df.h, df.w, dout, 2, false, 1);
  else if (depthwise && p.depth_multiplier == 1) {
    if (strstr(L->l->kernel, "_3x3_dsp_"))
      overlap_rows(L, &p, di, df.h, dout);
    else
      overlap_windows(L, &p, di, df.h, df.w, dout, 1, true, 1);
    /* ta_depthwise_conv2d_fold_rev_s8 walks the same pixels backwards
     * (both paths; the DSP one channel group after group): per channel
     * the backward pixel walk with blocks of 1, or the ring's rows from
     * the last up. */
    if (L->l->overlap.declared)
      L->l->overlap.reverse_kernel = dw_kernel(L, dsp, true, &p, &q, di, df);
  }
}

void lower_conv2d(Lower *L) { conv_common(L, false); }
void lower_depthwise_conv2d(Lower *L) { conv_common(L, true); }

/* ---------------------------------------------------- FULLY_CONNECTED */

/*
 * An int8 FULLY_CONNECTED run by CONV_2D's DSP entry
 * (ta_conv2d_fold_dsp_s8) as a 1x1 convolution over `batches` pixels,
 * when an earlier op of the model already calls that entry: the FC
 * kernel's code (1.6 KB on a Cortex-M4) is then not linked.  The same
 * arithmetic: TFLite Micro's FULLY_CONNECTED and CONV_2D both sum
 * (x + input offset) * w plus the bias and requantize with
 * MultiplyByQuantizedMultiplier (double rounding), the FC's multiplier
 * and shift passed as they are; the OC x K filter is the 1x1 OHWI one.
 * Taken only where the convolution's DSP path takes the op (records:
 * every channel fits the SMMLAR form with the output offset), its column
 * scratch (8 K4 bytes) stays within 1 KiB, so the plan barely notices,
 * and, with fewer than four rows (which the kernel's blocks of four
 * repeat), the layer has at most 4096 weights; else the FC kernel.
 */
static bool fc_as_conv(Lower *L, const ta_fc_params *fp, const ta_quant *fq, const Tensor *in,
                       const Tensor *filter, const int32_t *fold) {
  if (L->rounding != TA_ROUND_DOUBLE || !scratch_aligned4(L))
    return false;
  /* The entry an earlier op calls: the plain one, else (--optimize
   * speed) the wide one for an even number of rows. */
  const int32_t K = fp->in_depth, OC = fp->out_depth;
  const char *entry = NULL;
  for (int i = 0; i < L->op->index; i++) {
    const Op *o = &L->g->ops[i];
    const char *k = o->lowered ? op_lowered(o)->kernel : NULL;
    if (k && !strcmp(k, "ta_conv2d_fold_dsp_s8"))
      entry = k;
    else if (k && !entry && !strcmp(k, "ta_conv2d_fold_wide_dsp_s8") && !(OC & 1))
      entry = k;
  }
  if (!entry)
    return false;
  ta_dims di = {1, 1, fp->batches, K}, df = {OC, 1, 1, K}, dout = {1, 1, fp->batches, OC};
  ta_conv_params p = pixelwise;
  p.input_offset = fp->input_offset;
  p.output_offset = fp->output_offset;
  p.act_min = fp->act_min;
  p.act_max = fp->act_max;
  size_t scratch = ta_conv2d_fold_s8_scratch_size(&p, &di, &df, &dout);
  /* Fewer than four rows repeat the last in the kernel's blocks of four:
   * only for small layers. */
  if (scratch > 1024 || (fp->batches < 4 && (int64_t)OC * K > 4096))
    return false;
  ta_quant q = *fq;
  q.mmla = (uint16_t)ta_quant_mmla_ok(&q, OC, fold, K);
  int32_t *rec = arena_array(8 * ((size_t)OC / 2 + 1), sizeof(int32_t));
  size_t nrec = q.mmla ? ta_pack_records(&q, OC, fold, K, fp->output_offset, 2, rec) : 0;
  if (!nrec)
    return false;
  L->l->kernel = entry;
  const_struct(L, "params", "ta_conv_params", conv_init(&p), true);
  size_t nbias;
  const int32_t *bias = quant_consts(L, &q, OC, fold, K, REC_CONV, fp->output_offset, &nbias);
  const_struct(L, "in_dims", "ta_dims", dims_init(di), true);
  arg_tensor(L, in->index);
  const_struct(L, "filter_dims", "ta_dims", dims_init(df), true);
  conv_filter_arg(L, &q, fold, filter, NULL, OC, K);
  const_i32(L, "bias", bias, nbias, true);
  const_struct(L, "out_dims", "ta_dims", dims_init(dout), true);
  arg_tensor(L, L->op->outputs[0]);
  arg_scratch(L);
  L->op->scratch_bytes = scratch;
  return true;
}

/*
 * --rounding onnxruntime, an int8 FULLY_CONNECTED the front end marked
 * Op.ref_float (a QDQ MatMul or Gemm group ONNX Runtime leaves in
 * float32): ta_conv2d_ort_f32_s8 over a 1 x rows image, as ONNX
 * Runtime's float Gemm / MatMul (MlasGemm, one thread) sums: the output
 * starts as the bias (a Gemm's C, broadcast first; 0 without one), one
 * row (M = 1) runs MLAS's one-row kernel over all of K (its transposed
 * form for a Gemm with transB, Op.ref_trans_b), more rows the SGEMM
 * kernel in K slices of mlas_stride_k(N, K).  false: the activation has
 * no float range.
 */
static bool lower_fc_ort_float(Lower *L, const ta_fc_params *fp, const Tensor *in,
                               const Tensor *filter, const Tensor *bias, const Tensor *out) {
  ta_conv_params p = {.stride_h = 1, .stride_w = 1, .dilation_h = 1, .dilation_w = 1};
  if (!activation_range_float(L->op->opt.activation, &p.act_min_f32, &p.act_max_f32))
    return false;
  const int32_t rows = fp->batches, n = fp->out_depth, k = fp->in_depth;
  p.input_offset = -zp_of(in);
  p.output_offset = zp_of(out);
  const int m1 = rows > 1 ? 0 : L->op->ref_trans_b ? 2 : 1;
  ort_float_args(L, &p, m1 ? k : mlas_stride_k(n, k), m1, true, in, (ta_dims){1, 1, rows, k},
                 (ta_dims){n, 1, 1, k}, ort_float_filter(filter, n, 1, 1, k, false),
                 ort_float_bias(L, bias, n), out, (ta_dims){1, 1, rows, n});
  return true;
}

void lower_fully_connected(Lower *L) {
  need_arity(L, 2, 1);
  Tensor *in = input(L, 0), *filter = input(L, 1), *bias = optional_input(L, 2);
  Tensor *out = output(L, 0);
  bool f32 = in->dtype == DT_FLOAT32 && filter->dtype == DT_FLOAT32 &&
             out->dtype == DT_FLOAT32 && (!bias || bias->dtype == DT_FLOAT32);
  bool s8 = in->dtype == DT_INT8 && filter->dtype == DT_INT8 &&
            out->dtype == DT_INT8 && (!bias || bias->dtype == DT_INT32);
  if (!f32 && !s8) {
    lower_fully_connected_legacy(L); /* uint8, hybrid */
    return;
  }
  if (L->op->opt.weights_format != 0)
    error_at(L->g, L->op->index, "shuffled weights are not supported");
  need_const(L, filter, "filter");
  if (bias)
    need_const(L, bias, "bias");
  ta_fc_params p = fc_params_of(L, in, filter, out);
  if (bias && tensor_elems(bias) != p.out_depth)
    error_at(L->g, L->op->index, "bias has %" PRId64 " values for %d outputs",
             tensor_elems(bias), (int)p.out_depth);
  act_range(L, out, &p.act_min, &p.act_max, &p.act_min_f32, &p.act_max_f32);

  if (f32) {
    L->l->kernel = "ta_fully_connected_f32";
    const_struct(L, "params", "ta_fc_params", fc_init(&p), true);
    arg_tensor(L, in->index);
    arg_tensor(L, filter->index);
    arg_optional(L, bias);
    arg_tensor(L, out->index);
    return;
  }

  if (L->rounding == TA_ROUND_ORT && L->op->ref_float &&
      lower_fc_ort_float(L, &p, in, filter, bias, out))
    return;
  p.input_offset = -zp_of(in);
  p.output_offset = zp_of(out);
  p.filter_offset = 0; /* conv_quant() insists on symmetric filters */
  int per = filter->q.nscale > 1;
  int n = per ? p.out_depth : 1;
  if (per && (filter->q.nscale != p.out_depth || filter->q.axis != 0))
    error_at(L->g, L->op->index, "per-channel filter quantization has %d scales on "
             "axis %d for %d outputs", filter->q.nscale, filter->q.axis,
             (int)p.out_depth);
  if (filter->q.nscale < 1)
    error_at(L->g, L->op->index, "the filter is not quantized");
  for (int c = 0; c < filter->q.nscale; c++)
    if (filter->q.zero_point && filter->q.zero_point[c] != 0)
      error_at(L->g, L->op->index, "the filter's zero point is %" PRId64
               "; int8 filters must be symmetric", filter->q.zero_point[c]);
  int32_t *mult = arena_array((size_t)n, sizeof(int32_t));
  int32_t *shift = arena_array((size_t)n, sizeof(int32_t));
  for (int c = 0; c < n; c++) {
    /* TFLM: per-tensor via GetQuantizedConvolutionMultipler (float
     * product of the scales), per-channel like a convolution. */
    bool ok = per ? conv_multiplier(scale_of(L, in), filter->q.scale[c],
                                    scale_of(L, out), L->rounding, &mult[c],
                                    &shift[c])
                  : fc_multiplier(scale_of(L, in), filter->q.scale[0],
                                  scale_of(L, out), L->rounding, &mult[c],
                                  &shift[c]);
    if (!ok)
      error_at(L->g, L->op->index, "cannot represent the requantization scale");
  }
  int32_t *fold = arena_array((size_t)p.out_depth, sizeof(int32_t));
  int32_t *b = NULL;
  if (bias) {
    b = arena_array((size_t)p.out_depth, sizeof(int32_t));
    memcpy(b, bias->data, (size_t)p.out_depth * sizeof(int32_t));
  }
  fold_bias_s8((const int8_t *)filter->data, p.out_depth, p.in_depth, b,
               p.input_offset, fold);

  ta_quant q = {mult, shift, per, L->rounding, 0};
  /* int4 weights: kept packed, unpacked by the kernel (see conv_common). */
  bool w4 = packed_int4(filter);
  if (!w4 && fc_as_conv(L, &p, &q, in, filter, fold))
    return;
  /* The DSP entry: the filter packed in blocks of 4 rows and the
   * records instead of the folded bias (ta_pack.h), where they fit. */
  const int32_t *bias_arg = fold;
  size_t nbias = (size_t)p.out_depth;
  if (!w4 && p.in_depth > 0) {
    int32_t *rec = arena_array(4 * (size_t)p.out_depth, sizeof(int32_t));
    int shared = 0;
    size_t nrec =
        ta_pack_records_fc(&q, p.out_depth, fold, p.in_depth, p.output_offset, &shared, rec);
    if (nrec) {
      q.mmla = (uint16_t)(1 | TA_MMLA_RECORDS | (shared ? TA_MMLA_SHARED : 0));
      bias_arg = rec;
      nbias = nrec;
    }
  }
  /* --optimize speed: the DSP path over the filter widened to int16,
   * for a multiple of 4 rows (the kernel's blocks). */
  const bool dsp = ta_fully_connected_fold_dsp_ok(&p, &q);
  const bool wide = !w4 && dsp && L->o->wide_filters && !(p.out_depth & 3);
  L->l->kernel = w4     ? "ta_fully_connected_fold_w4_s8"
                 : wide ? "ta_fully_connected_fold_wide_dsp_s8"
                        : path_kernel(L, "ta_fully_connected_fold", dsp);
  const_struct(L, "params", "ta_fc_params", fc_init(&p), true);
  if (q.mmla & TA_MMLA_RECORDS) { /* the DSP entry reads the records only */
    const_struct(L, "quant", "ta_quant",
                 arena_printf("{NULL, NULL, %d, %s, %d}", per, rounding_str(L->rounding), q.mmla),
                 true);
  } else {
    const_i32(L, "mult", mult, (size_t)n, false);
    const_i32(L, "shift", shift, (size_t)n, false);
    const_struct(L, "quant", "ta_quant", quant_init(per, L->rounding, q.mmla), true);
  }
  arg_tensor(L, in->index);
  if (w4) {
    const_array(L, "filter4", DT_UINT8, filter->packed4, filter->npacked4, true);
  } else if (q.mmla & TA_MMLA_RECORDS) {
    const size_t nw = ta_pack_size(p.out_depth, p.in_depth);
    int8_t *packed = arena_alloc(nw);
    ta_pack_rows_s8(&q, fold, (const int8_t *)filter->data, p.out_depth, p.in_depth, 4, packed);
    packed_filter_arg(L, packed, nw, wide);
  } else {
    arg_tensor(L, filter->index);
  }
  const_i32(L, "bias", bias_arg, nbias, true);
  arg_tensor(L, out->index);
  if (w4) {
    arg_scratch(L);
    L->op->scratch_bytes = ta_fully_connected_fold_w4_s8_scratch_size(&p);
  }
}

/* -------------------------------------------------------------- pools */

/* int8, uint8, int16 (16x8: zero points 0, as TFLite and TFLite Micro
 * require) and float pools.  The kernel's name is the stem
 * ("ta_avg_pool2d") and the dtype. */
static void pool_common(Lower *L, const char *stem) {
  need_arity(L, 1, 1);
  Tensor *in = input(L, 0), *out = output(L, 0);
  const Options *opt = &L->op->opt;
  bool f32 = in->dtype == DT_FLOAT32 && out->dtype == DT_FLOAT32;
  bool s8 = in->dtype == DT_INT8 && out->dtype == DT_INT8;
  bool u8 = in->dtype == DT_UINT8 && out->dtype == DT_UINT8;
  bool s16 = in->dtype == DT_INT16 && out->dtype == DT_INT16;
  if (!f32 && !s8 && !u8 && !s16)
    unsupported_types(L);
  if (s16 && (zp_of(in) != 0 || zp_of(out) != 0))
    error_at(L->g, L->op->index, "int16 pooling needs zero points 0 (16x8 quantization), "
             "not %" PRId32 " and %" PRId32, zp_of(in), zp_of(out));
  if (!f32 && (scale_of(L, in) != scale_of(L, out) || zp_of(in) != zp_of(out)))
    error_at(L->g, L->op->index, "input and output quantization differ");
  if (in->ndims != 4 || out->ndims != 4)
    error_at(L->g, L->op->index, "input and output must have rank 4");
  ta_dims di = dims4(L, in), dout = dims4(L, out);
  ta_pool_params p = {0};
  p.stride_h = opt->stride_h;
  p.stride_w = opt->stride_w;
  p.filter_h = opt->filter_h;
  p.filter_w = opt->filter_w;
  int32_t oh, ow;
  compute_padding(opt->padding, di.h, p.filter_h, p.stride_h, 1, &oh, &p.pad_h);
  compute_padding(opt->padding, di.w, p.filter_w, p.stride_w, 1, &ow, &p.pad_w);
  if (oh != dout.h || ow != dout.w || di.n != dout.n || di.c != dout.c)
    error_at(L->g, L->op->index, "output shape disagrees with the computed one");
  act_range(L, out, &p.act_min, &p.act_max, &p.act_min_f32, &p.act_max_f32);
  L->l->kernel = arena_printf("%s_%s", stem, short_type(in->dtype));
  const_struct(L, "params", "ta_pool_params", pool_init(&p), true);
  const_struct(L, "in_dims", "ta_dims", dims_init(di), true);
  arg_tensor(L, in->index);
  const_struct(L, "out_dims", "ta_dims", dims_init(dout), true);
  arg_tensor(L, out->index);
  /* Overlap (doc/memory-plan.md 2c): every pool kernel (pool_int.h,
   * ta_{avg,max,l2}_pool2d_f32; portable C on every target) walks the
   * output pixels in order and per pixel the channels (in blocks of
   * TA_POOL_BLOCK, or one by one), each channel's window read before
   * its output is written; output channel c reads only input channel c.
   * Per channel that is the pixel walk with blocks of 1: by channel, as
   * the int8 depthwise convolution. */
  ta_conv_params w = {.stride_h = p.stride_h, .stride_w = p.stride_w, .dilation_h = 1,
                      .dilation_w = 1, .pad_h = p.pad_h, .pad_w = p.pad_w};
  overlap_windows(L, &w, di, p.filter_h, p.filter_w, dout, 1, true,
                  (int32_t)(dtype_bits(in->dtype) / 8));
}

void lower_average_pool2d(Lower *L) { pool_common(L, "ta_avg_pool2d"); }
void lower_max_pool2d(Lower *L) { pool_common(L, "ta_max_pool2d"); }
/* float only: the runtime has no integer ta_l2_pool2d (lower() refuses). */
void lower_l2_pool2d(Lower *L) { pool_common(L, "ta_l2_pool2d"); }

/* ---------------------------------------------------------------- ADD */

/*
 * --rounding onnxruntime, int8 or uint8 inputs and output: ONNX
 * Runtime's QLinearAdd (MLAS's AVX2 kernel, qladd_avx2.cpp): the scale
 * ratios in float, the zero points folded into one float term, two fused
 * multiply-adds and a round half to even per element; along a row where
 * input 1 is a single value (ONNX Runtime's broadcast spans) it is
 * folded into the fixed term first (ta_add_ort_*).
 */
static bool lower_add_ort(Lower *L, Tensor *a, Tensor *b, Tensor *out) {
  if (!same_type_x8(a, b, out))
    return false;
  ta_add_ort_params p;
  volatile float r1 = scale_of(L, a) / scale_of(L, out);
  volatile float r2 = scale_of(L, b) / scale_of(L, out);
  /* ONNX Runtime's build contracts ratio1 * zp1 + ratio2 * zp2 into
   * fmaf(ratio1, zp1, ratio2 * zp2); along rows where input 1 is one
   * value it has swapped the operands (fixed21).  tools/gen_qdq.py's
   * QLinearAdd rows, _tie ones above all, tell the orders apart. */
  volatile float z1 = r1 * (float)zp_of(a), z2 = r2 * (float)zp_of(b);
  volatile float zs = fmaf(r1, (float)zp_of(a), z2), zs21 = fmaf(r2, (float)zp_of(b), z1);
  p.ratio1 = r1, p.ratio2 = r2;
  p.fixed = (float)zp_of(out) - zs;
  p.fixed21 = (float)zp_of(out) - zs21;
  float flo, fhi;
  act_range(L, out, &p.act_min, &p.act_max, &flo, &fhi);
  L->l->kernel = out->dtype == DT_INT8 ? "ta_add_ort_s8" : "ta_add_ort_u8";
  const_struct(L, "params", "ta_add_ort_params",
               arena_printf("{.ratio1 = %s, .ratio2 = %s, .fixed = %s, .fixed21 = %s, "
                            ".act_min = %s, .act_max = %s}",
                            flit(p.ratio1), flit(p.ratio2), flit(p.fixed), flit(p.fixed21),
                            ilit(p.act_min), ilit(p.act_max)),
               true);
  ort_binary_args(L, a, b, out);
  return true;
}

void lower_add(Lower *L) {
  if (lower_wide_binary(L, "add"))
    return;
  need_arity(L, 2, 1);
  Tensor *a = input(L, 0), *b = input(L, 1), *out = output(L, 0);
  if (L->rounding == TA_ROUND_ORT) {
    if ((L->op->ref_float && lower_binary_ort_float(L, false)) || lower_add_ort(L, a, b, out))
      return;
    L->rounding = TA_ROUND_DOUBLE;
  }
  bool f32 = a->dtype == DT_FLOAT32 && b->dtype == DT_FLOAT32 && out->dtype == DT_FLOAT32;
  bool s8 = a->dtype == DT_INT8 && b->dtype == DT_INT8 && out->dtype == DT_INT8;
  if (out->dtype == DT_INT32) {
    lower_add_s32(L); /* lower_ops.c */
    return;
  }
  if (!f32 && !s8) {
    lower_add_legacy(L); /* uint8 */
    return;
  }
  ta_bcast bc = broadcast_of(L, a, b, out);
  ta_add_params p = {0};
  if (f32) {
    p.act_min_f32 = -FLT_MAX;
    p.act_max_f32 = FLT_MAX;
    if (!activation_range_float(L->op->opt.activation, &p.act_min_f32, &p.act_max_f32))
      error_at(L->g, L->op->index, "fused activation %d is not supported",
               (int)L->op->opt.activation);
  } else if (!add_params(scale_of(L, a), zp_of(a), scale_of(L, b), zp_of(b),
                         scale_of(L, out), zp_of(out), out->dtype,
                         L->op->opt.activation, L->rounding, &p)) {
    error_at(L->g, L->op->index, "cannot represent the rescaling of these scales");
  }
  if (s8 && lower_add_fused(L, a, b, out))
    return;
  L->l->kernel = f32 ? "ta_add_f32" : "ta_add_s8";
  /* The int8 kernel scales each input (offset, shift, requantization)
   * before adding; with the two 256-entry tables of add_tables() that is
   * a look-up per input, and only the sum is requantized - about a third
   * of the instructions per element, for 2 KB of constants: used from
   * ADD_TABLE_MIN output elements on. */
  const char *tables = "";
  if (s8 && tensor_elems(out) >= ADD_TABLE_MIN) {
    int32_t t1[256], t2[256];
    add_tables(&p, t1, t2);
    const_i32(L, "table1", t1, 256, false);
    const_i32(L, "table2", t2, 256, false);
    tables = ",\n    .table1 = @table1, .table2 = @table2";
    ta_add_params with = p;
    with.table1 = t1;
    with.table2 = t2;
    if (ta_add_table_ok(&with))
      L->l->kernel = "ta_add_table_s8"; /* the usual case with tables only */
  } else if (s8 && ta_add_double_ok(&p)) {
    L->l->kernel = "ta_add_double_s8"; /* the usual case without tables only */
  }
  const_struct(L, "params", "ta_add_params", add_init(&p, true, tables), true);
  const_struct(L, "shape", "ta_bcast", bcast_init(&bc), true);
  arg_tensor(L, a->index);
  arg_tensor(L, b->index);
  arg_tensor(L, out->index);
  /* ta_add_*: out[i] from in1 and in2 at i's broadcast index, which is i
   * itself for an operand of the output's size. */
  may_run_in_place(L, 0);
  may_run_in_place(L, 1);
}

/* ------------------------------------------------------------ SOFTMAX */

/* Elements from which an int8 SOFTMAX gets its exp table: two exps of
 * about 40 instructions each per element on a Cortex-M4 against 1 KB of
 * flash, so from 256 elements on some 20 instructions per byte. */
#define SOFTMAX_TABLE_MIN 256

void lower_softmax(Lower *L) {
  need_arity(L, 1, 1);
  const char *exp_table = "";
  Tensor *in = input(L, 0), *out = output(L, 0);
  if (in->ndims < 1 || tensor_elems(in) != tensor_elems(out))
    error_at(L->g, L->op->index, "input and output sizes differ");
  ta_softmax_params p = {0};
  p.depth = in->dims[in->ndims - 1];
  p.outer = p.depth ? elems32(in) / p.depth : 0;
  p.beta = L->op->opt.beta;
  if (in->dtype == DT_FLOAT32 && out->dtype == DT_FLOAT32) {
    L->l->kernel = "ta_softmax_f32";
  } else if (in->dtype == DT_INT8 && (out->dtype == DT_INT8 || out->dtype == DT_INT16)) {
    /* TFLM fixes the output quantization (CalculateSoftmaxParams): int8
     * scale exactly 1/256 and zero point -128; int16 zero point -32768
     * and scale 1/65536 within TF_LITE_ENSURE_NEAR's 0.001 / 65536,
     * compared in float as TFLM does. */
    bool s16 = out->dtype == DT_INT16;
    if (s16) {
      const float sc = scale_of(L, out), want = 1.0f / 65536;
      const float delta = sc > want ? sc - want : want - sc;
      if (zp_of(out) != -32768 || delta > 0.001f * 1.0f / 65536)
        error_at(L->g, L->op->index,
                 "the output's quantization must be scale 1/65536 (within 0.001/65536), "
                 "zero point -32768");
    } else if (scale_of(L, out) != 1.0f / 256 || zp_of(out) != -128) {
      error_at(L->g, L->op->index,
               "the output's quantization must be scale 1/256, zero point -128");
    }
    if (tflite_arithmetic(L)) {
      lower_softmax_legacy(L); /* TFLite's float table, as for uint8 */
      return;
    }
    if (!softmax_params(p.beta, scale_of(L, in), L->rounding, &p))
      error_at(L->g, L->op->index, "cannot represent beta * input scale");
    L->l->kernel = s16 ? "ta_softmax_s8_s16" : "ta_softmax_s8";
    /* Each exp is computed twice per element; the 256-entry table (1 KB)
     * of softmax_exp_table() replaces them from SOFTMAX_TABLE_MIN
     * elements on. */
    if (elems32(in) >= SOFTMAX_TABLE_MIN) {
      int32_t table[256];
      softmax_exp_table(&p, table);
      const_i32(L, "exp_table", table, 256, false);
      exp_table = ", .exp_table = @exp_table";
    }
  } else {
    lower_softmax_legacy(L); /* uint8 */
    return;
  }
  const_struct(L, "params", "ta_softmax_params",
               arena_printf("{.outer = %d, .depth = %d, .input_multiplier = %s,\n"
                            "    .input_left_shift = %s, .diff_min = %s, .rounding = %s,\n"
                            "    .beta = %s%s}",
                            (int)p.outer, (int)p.depth, ilit(p.input_multiplier),
                            ilit(p.input_left_shift), ilit(p.diff_min),
                            rounding_str(p.rounding),
                            flit(p.beta), exp_table),
               true);
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
  /* ta_softmax_f32/_s8 read a whole row before writing it, then write
   * element c after reading element c (int8 -> int16 changes the size). */
  may_run_in_place(L, 0);
}


void lower_quantize(Lower *L) {
  need_arity(L, 1, 1);
  Tensor *in = input(L, 0), *out = output(L, 0);
  const char *ti = short_type(in->dtype), *to = short_type(out->dtype);
  if (!ti || !to || out->dtype == DT_FLOAT32 || tensor_elems(in) != tensor_elems(out))
    unsupported_types(L);
  if (out->q.nscale != 1 || (in->dtype != DT_FLOAT32 && in->q.nscale != 1))
    error_at(L->g, L->op->index, "only per-tensor quantization is supported");
  const char *k = arena_printf("ta_%s_%s_%s",
                               in->dtype == DT_FLOAT32 ? "quantize" : "requantize", ti, to);
  /* float -> int: TFLM divides by the scale in float for every output
   * type, TFLite too for int8 and uint8; only TFLite's int16 QUANTIZE
   * divides in double.  That one (a separate kernel: on a core with a
   * single-precision FPU it needs the software double helpers) is taken
   * with --rounding single, the TFLite arithmetic. */
  if (in->dtype == DT_FLOAT32 && out->dtype == DT_INT16 && tflite_arithmetic(L))
    k = "ta_quantize_double_f32_s16";
  if (L->rounding == TA_ROUND_ORT && in->dtype == out->dtype) {
    /* ONNX Runtime's requantization of a QLinearConcat input: its
     * identity lookup table. */
    uint8_t t[256];
    if (!leaky_relu_table_ort(in->dtype, scale_of(L, in), zp_of(in), 1.0f, scale_of(L, out),
                              zp_of(out), t))
      error_at(L->g, L->op->index, "cannot represent the rescaling");
    L->l->kernel = "ta_lut_x8";
    const_array(L, "table", DT_UINT8, t, 256, false);
    const_struct(L, "params", "ta_lut_params",
                 arena_printf("{.size = %d, .table = @table}", (int)elems32(in)), true);
    arg_tensor(L, in->index);
    arg_tensor(L, out->index);
    may_run_in_place(L, 0);
    return;
  }
  if (L->rounding == TA_ROUND_ORT)
    L->rounding = TA_ROUND_DOUBLE;
  static const char *const kernels[] = {
      "ta_quantize_f32_s8",    "ta_quantize_f32_u8",    "ta_quantize_f32_s16",
      "ta_quantize_double_f32_s16",
      "ta_requantize_s8_s8",   "ta_requantize_s8_s16",  "ta_requantize_s8_u8",
      "ta_requantize_u8_s8",   "ta_requantize_s16_s8",  "ta_requantize_s16_s16",
      "ta_requantize_s16_s32", "ta_requantize_u8_u8"};
  bool known = false;
  for (size_t i = 0; i < sizeof kernels / sizeof *kernels; i++)
    known |= !strcmp(kernels[i], k);
  if (!known)
    unsupported_types(L);
  L->l->kernel = k;
  if (in->dtype == DT_FLOAT32) {
    const_struct(L, "params", "ta_affine_params",
                 arena_printf("{.size = %d, .scale = %s, .zero_point = %s}",
                              (int)elems32(in), flit(scale_of(L, out)),
                              ilit(zp_of(out))),
                 true);
  } else {
    ta_requant_params p = {0};
    if (!requant_params(scale_of(L, in), zp_of(in), scale_of(L, out), zp_of(out),
                        L->rounding, &p))
      error_at(L->g, L->op->index, "cannot represent the rescaling");
    const_struct(L, "params", "ta_requant_params",
                 arena_printf("{.size = %d, .input_zero_point = %s,\n"
                              "    .output_zero_point = %s, .multiplier = %s,\n"
                              "    .shift = %s, .rounding = %s}",
                              (int)elems32(in), ilit(p.input_zero_point),
                              ilit(p.output_zero_point), ilit(p.multiplier),
                              ilit(p.shift),
                              rounding_str(p.rounding)),
                 true);
  }
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
  /* ta_requantize_*: out[i] = f(in[i]) in a forward loop (only the
   * same-width ones: s8 <-> s8/u8, s16 -> s16). */
  may_run_in_place(L, 0);
}

void lower_dequantize(Lower *L) {
  need_arity(L, 1, 1);
  Tensor *in = input(L, 0), *out = output(L, 0);
  if (in->dtype == DT_FLOAT16 && out->dtype == DT_FLOAT32 &&
      tensor_elems(in) == tensor_elems(out)) {
    /* TFLite's float16 weights left unfolded (a model output, or
     * --no-views): widened exactly, as TFLite's DEQUANTIZE does. */
    L->l->kernel = "ta_cast_f16_f32";
    add_arg(L, ARG_INT, -1, elems32(in));
    arg_tensor(L, in->index);
    arg_tensor(L, out->index);
    return;
  }
  const char *ti = short_type(in->dtype);
  if (!ti || in->dtype == DT_FLOAT32 || out->dtype != DT_FLOAT32 ||
      tensor_elems(in) != tensor_elems(out))
    unsupported_types(L);
  if (in->q.nscale != 1)
    error_at(L->g, L->op->index, "only per-tensor quantization is supported");
  L->l->kernel = arena_printf("ta_dequantize_%s_f32", ti);
  const_struct(L, "params", "ta_affine_params",
               arena_printf("{.size = %d, .scale = %s, .zero_point = %s}",
                            (int)elems32(in), flit(scale_of(L, in)), ilit(zp_of(in))),
               true);
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
}

/* ----------------------------------------------------------- views */

/* RESHAPE, SQUEEZE, EXPAND_DIMS whose output mark_views() could not
 * make a view (for example an output that is the model's input reshaped):
 * a byte copy, done by a helper the runner defines. */
void lower_copy(Lower *L) {
  Tensor *in = input(L, 0), *out = output(L, 0);
  if (in->dtype != out->dtype || tensor_bytes(in) != tensor_bytes(out))
    error_at(L->g, L->op->index, "input and output sizes differ");
  L->l->kernel = "@copy";
  add_arg(L, ARG_INT, -1, (int64_t)tensor_bytes(in));
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
}
