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
 * ta_depthwise_conv2d_fold_rev_s8 computes the same bytes walking the
 * output pixels from the last to the first (images, rows and columns
 * backwards; channels and taps as above), so that its output may lie
 * above its input (doc/memory-plan.md, 2c).
 *
 * Entry points, each way: _dsp_ (the DSP path; the portable one on
 * cores without the extension), _portable_ (TFLite's roundings) and
 * _ort_ (ONNX Runtime's float requantization) run one path each and
 * refuse the ops it does not take, so that a program links only the
 * paths its calls name: the compiler picks one per op
 * (ta_depthwise_conv2d_fold_dsp_ok()).  ta_depthwise_conv2d_fold_s8 and
 * _rev_s8 pick per call, for code that calls the kernel itself.
 */
#include "ta_fixedpoint.h"
#include "ta_kernels.h"
#include "conv_common.h"
#include "ta_dsp.h"

#define TA_DW_BLOCK 16

size_t ta_depthwise_conv2d_fold_s8_scratch_size(const ta_conv_params *p,
                                                const ta_dims *in_dims,
                                                const ta_dims *filter_dims,
                                                const ta_dims *out_dims) {
  (void)p;
  (void)in_dims;
  (void)filter_dims;
  (void)out_dims;
  return 0;
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
#if defined(TA_DSP_GEMM_ASM)
  const uint32_t *wp;          /* 3 x 3 filters: taps in pairs (dw_pairs3x3()) */
#endif
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

/* n output pixels of a row whose 3 x 3 windows lie inside the input:
 * window origins x, x + xstep, ...; taps cs apart in a row, rows rs
 * apart; outputs o, o + ostep, ... */
#if defined(TA_DSP_GEMM_ASM)
/* One tap in assembly: input word from addr, the tap's two weight words
 * at wt + woff (one LDRD), two SXTB16, four multiply-adds. */
#define DW_ASM_TAP(addr, woff)                                             \
  "ldr    %[v], " addr "\n\t"                                              \
  "ldrd   %[w0], %[w1], [%[wt], #" woff "]\n\t"                            \
  "sxtb16 %[e], %[v]\n\t"                                                  \
  "sxtb16 %[v], %[v], ror #8\n\t"                                          \
  "smlabb %[a0], %[e], %[w0], %[a0]\n\t"                                   \
  "smlatt %[a2], %[e], %[w0], %[a2]\n\t"                                   \
  "smlabb %[a1], %[v], %[w1], %[a1]\n\t"                                   \
  "smlatt %[a3], %[v], %[w1], %[a3]\n\t"
/* The same with the input word's address taken from a table at tp. */
#define DW_ASM_TAPP(poff, woff)                                            \
  "ldr    %[v], [%[tp], #" poff "]\n\t" DW_ASM_TAP("[%[v]]", woff)

/*
 * Two taps t, u of the same four channels in four SMLADs.  With the
 * input words t0 t1 t2 t3 (v0) and u0 u1 u2 u3 (v1), PKHBT gives the
 * bytes t0 t1 u0 u1 and PKHTB t2 t3 u2 u3; SXTB16 of those (plain and
 * rotated by 8) gives the pairs (t_c, u_c) of channel c = 0, 1, 2, 3,
 * and SMLAD adds t_c * wt_c + u_c * wu_c to channel c's sum with the
 * weights paired the same way at wp + woff (channel 0's, 1's, then at
 * woff8 2's, 3's: dw_pairs3x3()).  2 LDR, 2 PKH, 2 LDRD, 4 SXTB16, 4
 * SMLAD: 14 instructions for 8 multiply-adds, where two DW_ASM_TAP are
 * 16.  SMLAD adds modulo 2^32 as SMLABB and SMLATT do, so the sums are
 * the same whatever the order.  lda, ldb load v0, v1.
 */
#define DW_ASM_PAIR(lda, ldb, woff, woff8)                                 \
  lda ldb                                                                  \
  "pkhbt  %[e], %[v0], %[v1], lsl #16\n\t"                                \
  "pkhtb  %[v1], %[v1], %[v0], asr #16\n\t"                               \
  "ldrd   %[w0], %[w1], [%[wp], #" woff "]\n\t"                           \
  "sxtb16 %[v0], %[e]\n\t"                                                \
  "smlad  %[a0], %[v0], %[w0], %[a0]\n\t"                                 \
  "sxtb16 %[v0], %[e], ror #8\n\t"                                        \
  "smlad  %[a1], %[v0], %[w1], %[a1]\n\t"                                 \
  "ldrd   %[w0], %[w1], [%[wp], #" woff8 "]\n\t"                          \
  "sxtb16 %[v0], %[v1]\n\t"                                               \
  "smlad  %[a2], %[v0], %[w0], %[a2]\n\t"                                 \
  "sxtb16 %[v0], %[v1], ror #8\n\t"                                       \
  "smlad  %[a3], %[v0], %[w1], %[a3]\n\t"
/* A single tap (the ninth) as DW_ASM_TAP, input word in v0, weights at
 * wp + woff in the per-tap form. */
#define DW_ASM_LAST(ld, woff)                                              \
  ld                                                                       \
  "ldrd   %[w0], %[w1], [%[wp], #" woff "]\n\t"                           \
  "sxtb16 %[e], %[v0]\n\t"                                                \
  "sxtb16 %[v0], %[v0], ror #8\n\t"                                       \
  "smlabb %[a0], %[e], %[w0], %[a0]\n\t"                                  \
  "smlatt %[a2], %[e], %[w0], %[a2]\n\t"                                  \
  "smlabb %[a1], %[v0], %[w1], %[a1]\n\t"                                 \
  "smlatt %[a3], %[v0], %[w1], %[a3]\n\t"
#define DW_ASM_PAIR_OPERANDS                                               \
  [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [v0] "=&r"(v0), \
      [v1] "=&r"(v1), [e] "=&r"(e), [w0] "=&r"(w0), [w1] "=&r"(w1)

/* Number of words of the pair table: taps (0, 1), (2, 3), (4, 5), (6, 7)
 * four words each, then tap 8's two words in the per-tap form. */
#define DW_PAIRS_WORDS 18

/* A 3 x 3 group's taps paired for DW_ASM_PAIR into wp, from the filter
 * words (4 channels) of its taps, C bytes apart: for pair (t, u) and
 * channel c the word wt_c | wu_c << 16 (int16 halves), by the same
 * PKHBT, PKHTB and SXTB16 steps DW_ASM_PAIR applies to the input. */
static void dw_pairs3x3(const int8_t *f, int32_t C, uint32_t *wp) {
  for (int t = 0; t < 8; t += 2, wp += 4, f += 2 * C) {
    const uint32_t a = ta_ld32(f), b = ta_ld32(f + C);
    const uint32_t lo = (a & 0xffff) | b << 16, hi = (b & 0xffff0000) | a >> 16;
    wp[0] = (uint32_t)ta_sxtb16_even(lo);
    wp[1] = (uint32_t)ta_sxtb16_odd(lo);
    wp[2] = (uint32_t)ta_sxtb16_even(hi);
    wp[3] = (uint32_t)ta_sxtb16_odd(hi);
  }
  const uint32_t v = ta_ld32(f);
  wp[0] = (uint32_t)ta_sxtb16_even(v);
  wp[1] = (uint32_t)ta_sxtb16_odd(v);
}
#endif

/* n output pixels of a row whose 3 x 3 windows lie inside the input:
 * window origins x, x + xstep, ...; taps cs apart in a row, rows rs
 * apart; outputs o, o + ostep, ... */
TA_NOINLINE static void dw_run3x3(const dw_group *g, const int8_t *x, int32_t xstep,
                                  int32_t rs, int32_t cs, int8_t *o, int32_t ostep,
                                  int32_t n) {
#if defined(TA_DSP_GEMM_ASM)
  const int32_t rsm = rs - cs;
#else
  const int32_t cs2 = 2 * cs;
#endif
  for (; n > 0; n--, x += xstep, o += ostep) {
    int32_t a0 = g->bias[0], a1 = g->bias[1], a2 = g->bias[2], a3 = g->bias[3];
#if defined(TA_DSP_GEMM_ASM)
    /* The nine taps as written below in C, in assembly: the compiler
     * splits each tap's LDRD in two and spills. */
    /* Taps in pairs (0, 1), (2, 3), (4, 5), (6, 7), then 8, r walking
     * the window by cs and rsm = rs - cs (one register fewer than the
     * offsets 2 cs and rs would take). */
    const int8_t *r = x;
    uint32_t v0, v1, e, w0, w1;
    __asm__(DW_ASM_PAIR("ldr    %[v0], [%[r]]\n\t", "ldr    %[v1], [%[r], %[cs]]\n\t",
                        "0", "8")
            "add    %[r], %[r], %[cs]\n\t"
            DW_ASM_PAIR("ldr    %[v0], [%[r], %[cs]]\n\t",
                        "ldr    %[v1], [%[r], %[rsm]]\n\t", "16", "24")
            "add    %[r], %[r], %[rsm]\n\t"
            DW_ASM_PAIR("ldr    %[v0], [%[r], %[cs]]\n\t"
                        "add    %[r], %[r], %[cs]\n\t",
                        "ldr    %[v1], [%[r], %[cs]]\n\t", "32", "40")
            "add    %[r], %[r], %[rsm]\n\t"
            DW_ASM_PAIR("ldr    %[v0], [%[r]]\n\t", "ldr    %[v1], [%[r], %[cs]]\n\t",
                        "48", "56")
            "add    %[r], %[r], %[cs]\n\t"
            DW_ASM_LAST("ldr    %[v0], [%[r], %[cs]]\n\t", "64")
            : DW_ASM_PAIR_OPERANDS, [r] "+r"(r)
            : [wp] "r"(g->wp), [cs] "r"(cs), [rsm] "r"(rsm)
            : "memory");
#else
    const int8_t *r = x;
    DW_TAP(ta_ld32(r), g->wt[0]);
    DW_TAP(ta_ld32(r + cs), g->wt[1]);
    DW_TAP(ta_ld32(r + cs2), g->wt[2]);
    r += rs;
    DW_TAP(ta_ld32(r), g->wt[3]);
    DW_TAP(ta_ld32(r + cs), g->wt[4]);
    DW_TAP(ta_ld32(r + cs2), g->wt[5]);
    r += rs;
    DW_TAP(ta_ld32(r), g->wt[6]);
    DW_TAP(ta_ld32(r + cs), g->wt[7]);
    DW_TAP(ta_ld32(r + cs2), g->wt[8]);
#endif
    DW_STORE(o);
  }
}

/* One output pixel of a 3 x 3 filter whose window may leave the input:
 * the address of every tap's input word in a table, the zero point's
 * (zp4) for the taps outside. */
TA_NOINLINE static void dw_pixel3x3(const dw_group *g, const int8_t *in_b, int32_t H,
                                    int32_t W, int32_t C, int32_t dh, int32_t dw,
                                    int32_t iy0, int32_t ix0, int8_t *o) {
  const int8_t *tp[9];
  const int8_t *zp = (const int8_t *)&g->zp4;
  const int32_t ix1 = ix0 + dw, ix2 = ix1 + dw;
  const int c0 = (uint32_t)ix0 < (uint32_t)W, c1 = (uint32_t)ix1 < (uint32_t)W,
            c2 = (uint32_t)ix2 < (uint32_t)W;
  for (int ky = 0, iy = iy0; ky < 3; ky++, iy += dh) {
    if ((uint32_t)iy < (uint32_t)H) {
      const int8_t *row = in_b + (ptrdiff_t)iy * W * C;
      tp[3 * ky] = c0 ? row + ix0 * C : zp;
      tp[3 * ky + 1] = c1 ? row + ix1 * C : zp;
      tp[3 * ky + 2] = c2 ? row + ix2 * C : zp;
    } else {
      tp[3 * ky] = tp[3 * ky + 1] = tp[3 * ky + 2] = zp;
    }
  }
  int32_t a0 = g->bias[0], a1 = g->bias[1], a2 = g->bias[2], a3 = g->bias[3];
#if defined(TA_DSP_GEMM_ASM)
  uint32_t v0, v1, e, w0, w1;
#define DW_LDP(reg, off) "ldr    %[" reg "], [%[tp], #" off "]\n\t" \
                         "ldr    %[" reg "], [%[" reg "]]\n\t"
  __asm__(DW_ASM_PAIR(DW_LDP("v0", "0"), DW_LDP("v1", "4"), "0", "8")
          DW_ASM_PAIR(DW_LDP("v0", "8"), DW_LDP("v1", "12"), "16", "24")
          DW_ASM_PAIR(DW_LDP("v0", "16"), DW_LDP("v1", "20"), "32", "40")
          DW_ASM_PAIR(DW_LDP("v0", "24"), DW_LDP("v1", "28"), "48", "56")
          DW_ASM_LAST(DW_LDP("v0", "32"), "64")
          : DW_ASM_PAIR_OPERANDS
          : [wp] "r"(g->wp), [tp] "r"(tp)
          : "memory");
#undef DW_LDP
#else
  for (int t = 0; t < 9; t++)
    DW_TAP(ta_ld32(tp[t]), g->wt[t]);
#endif
  DW_STORE(o);
}

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
      for (int32_t i = 0; i < r->pad_w; i++)
        *d++ = zp4, *d2++ = zp4;
      for (int32_t i = 0; i < W; i++, x += C) {
        const uint32_t v = ta_ld32(x);
        *d++ = v, *d2++ = v;
      }
    }
    while (d < end)
      *d++ = zp4, *d2++ = zp4;
  }
  r->have_lo = iy0;
  r->have_hi = iy0 + R;
  return (const int8_t *)(r->buf + (((iy0 % R) + R) % R) * Wp);
}

/*
 * The DSP path, pixels forwards (rev 0) or backwards (rev 1).  k3: the
 * filter is 3 x 3 and runs through the 3 x 3 loops (else the loops for
 * any size); ring 1: rows with border pixels run from the padded rows
 * (ta_depthwise_conv2d_fold_ring_ok() holds), 0: their border pixels
 * one by one, 2: whichever that predicate says.  k3 and ring_mode are
 * constants in each copy (dw_dsp_any(), dw_dsp_3x3(), dw_dsp_3x3_ring()),
 * so each has only the loops it runs.
 */
TA_INLINE void dw_dsp(const ta_conv_params *p, const ta_quant *q, const ta_dims *in_dims,
                      const int8_t *in, const ta_dims *filter_dims, const int8_t *filter,
                      const int32_t *bias_fold, const ta_dims *out_dims, int8_t *out, int rev,
                      int k3, int ring_mode) {
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
  const int use_rows =
      ring_mode == 2 ? dw_ring_ok(p, in_dims, filter_dims, out_dims) : ring_mode;
  uint32_t rows[use_rows ? 2 * ring.R * ring.Wp : 1];
  ring.buf = rows;
  uint64_t wt[taps];
  dw_group g;
  g.wt = wt;
#if defined(TA_DSP_GEMM_ASM)
  uint32_t wp[DW_PAIRS_WORDS];
  g.wp = wp;
#endif
  g.off = p->output_offset;
  g.zp4 = ta_dsp_bytes4(ta_clamp_i32(-p->input_offset, -128, 127));
  g.lo4 = ta_dsp_bytes4(p->act_min);
  g.hi4 = ta_dsp_bytes4(p->act_max);
  g.clamp = p->act_min > -128 || p->act_max < 127;
  for (int32_t c0 = 0; c0 < C; c0 += 4) {
#if defined(TA_DSP_GEMM_ASM)
    if (k3) /* the 3 x 3 loops read only the pairs */
      dw_pairs3x3(filter + c0, C, wp);
    else
#endif
      for (int32_t t = 0; t < taps; t++) {
        const uint32_t v = ta_ld32(filter + (size_t)t * C + c0);
        g.wt[t] = (uint32_t)ta_sxtb16_even(v) | (uint64_t)(uint32_t)ta_sxtb16_odd(v) << 32;
      }
    for (int j = 0; j < 4; j++) {
      const int32_t ch = q->per_channel ? c0 + j : 0;
      g.bias[j] = bias_fold[c0 + j];
      g.rq[j] = ta_dsp_rqm_make(q->multiplier[ch], q->shift[ch]);
    }
    for (int32_t bi = 0; bi < in_dims->n; bi++) {
      const int32_t b = rev ? in_dims->n - 1 - bi : bi;
      const int8_t *in_b = in + (size_t)b * H * W * C + c0;
      int8_t *o_b = out + (size_t)b * OH * OW * C + c0;
      ring.have_lo = ring.have_hi = 0; /* the ring is empty */
      for (int32_t oyi = 0; oyi < OH; oyi++) {
        const int32_t oy = rev ? OH - 1 - oyi : oyi;
        const int32_t iy0 = oy * sh - p->pad_h;
        int8_t *o = o_b + (size_t)oy * OW * C;
        int32_t x0 = xa, x1 = xb;
        if (iy0 < 0 || iy0 + (KH - 1) * dh >= H)
          x0 = x1 = OW; /* every pixel of the row is a border pixel */
        if (use_rows && (x0 > 0 || x1 < OW)) {
          /* The whole row from the padded copy, forwards or backwards. */
          const int32_t first = rev ? OW - 1 : 0, step = rev ? -1 : 1;
          const int8_t *x = dw_rows(&ring, in_b, H, W, C, g.zp4, iy0) + first * sw * 4;
          const int32_t wrs = dh * ring.Wp * 4; /* tap rows dh slots apart */
          if (k3)
            dw_run3x3(&g, x, step * sw * 4, wrs, dw * 4, o + first * C, step * C, OW);
          else
            dw_run(&g, KH, KW, x, step * sw * 4, wrs, dw * 4, o + first * C, step * C, OW);
          continue;
        }
        if (ring_mode == 1) {
          /* The ring took every row with border pixels, so this one lies
           * inside (x0 = 0, x1 = OW): one run, forwards or backwards, and
           * no border-pixel code in this copy. */
          const int32_t first = rev ? OW - 1 : 0, step = rev ? -1 : 1;
          const int8_t *x = in_b + ((size_t)iy0 * W + (first * sw - p->pad_w)) * C;
          if (k3)
            dw_run3x3(&g, x, step * sw * C, rs, cs, o + first * C, step * C, OW);
          else
            dw_run(&g, KH, KW, x, step * sw * C, rs, cs, o + first * C, step * C, OW);
          continue;
        }
        if (rev) {
          /* The same pixels from the last to the first: the interior
           * run [x0, x1) backwards, from x1 - 1. */
          for (int32_t ox = OW - 1; ox >= 0; ox--) {
            if (ox == x1 - 1 && x1 > x0) {
              const int8_t *x = in_b + ((size_t)iy0 * W + ((x1 - 1) * sw - p->pad_w)) * C;
              if (k3)
                dw_run3x3(&g, x, -sw * C, rs, cs, o + (x1 - 1) * C, -C, x1 - x0);
              else
                dw_run(&g, KH, KW, x, -sw * C, rs, cs, o + (x1 - 1) * C, -C, x1 - x0);
              ox = x0;
              continue;
            }
            if (k3)
              dw_pixel3x3(&g, in_b, H, W, C, dh, dw, iy0, ox * sw - p->pad_w, o + ox * C);
            else
              dw_pixel(&g, in_b, H, W, C, KH, KW, dh, dw, iy0, ox * sw - p->pad_w, o + ox * C);
          }
          continue;
        }
        /* The border pixels left of x0 and from x1 on, one loop; the
         * run of interior pixels [x0, x1) in between. */
        for (int32_t ox = 0; ox < OW; ox++) {
          if (ox == x0 && x1 > x0) {
            const int8_t *x = in_b + ((size_t)iy0 * W + (x0 * sw - p->pad_w)) * C;
            if (k3)
              dw_run3x3(&g, x, sw * C, rs, cs, o + x0 * C, C, x1 - x0);
            else
              dw_run(&g, KH, KW, x, sw * C, rs, cs, o + x0 * C, C, x1 - x0);
            ox = x1 - 1;
            continue;
          }
          if (k3)
            dw_pixel3x3(&g, in_b, H, W, C, dh, dw, iy0, ox * sw - p->pad_w, o + ox * C);
          else
            dw_pixel(&g, in_b, H, W, C, KH, KW, dh, dw, iy0, ox * sw - p->pad_w, o + ox * C);
        }
      }
    }
  }
}
/* The three copies of dw_dsp(), each shared by its forward and backward
 * entry points. */
TA_NOINLINE static void dw_dsp_any(const ta_conv_params *p, const ta_quant *q,
                                   const ta_dims *in_dims, const int8_t *in,
                                   const ta_dims *filter_dims, const int8_t *filter,
                                   const int32_t *bias_fold, const ta_dims *out_dims,
                                   int8_t *out, int rev) {
  dw_dsp(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, rev, 0, 2);
}
TA_NOINLINE static void dw_dsp_3x3(const ta_conv_params *p, const ta_quant *q,
                                   const ta_dims *in_dims, const int8_t *in,
                                   const ta_dims *filter_dims, const int8_t *filter,
                                   const int32_t *bias_fold, const ta_dims *out_dims,
                                   int8_t *out, int rev) {
  dw_dsp(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, rev, 1, 0);
}
TA_NOINLINE static void dw_dsp_3x3_ring(const ta_conv_params *p, const ta_quant *q,
                                        const ta_dims *in_dims, const int8_t *in,
                                        const ta_dims *filter_dims, const int8_t *filter,
                                        const int32_t *bias_fold, const ta_dims *out_dims,
                                        int8_t *out, int rev) {
  dw_dsp(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, rev, 1, 1);
}

#undef DW_TAP
#undef DW_STORE
#undef DW_ASM_TAP
#undef DW_ASM_TAPP
#undef DW_ASM_PAIR
#undef DW_ASM_LAST
#undef DW_ASM_PAIR_OPERANDS
#endif

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

TA_INLINE int dw_dsp_ok(const ta_conv_params *p, const ta_quant *q, const ta_dims *in_dims,
                        const ta_dims *filter_dims) {
  return p->depth_multiplier == 1 && (in_dims->c & 3) == 0 &&
         (int64_t)filter_dims->h * filter_dims->w <= TA_DW_MAX_TAPS && q->mmla &&
         q->rounding == TA_ROUND_DOUBLE;
}

int ta_depthwise_conv2d_fold_dsp_ok(const ta_conv_params *p, const ta_quant *q,
                                    const ta_dims *in_dims, const ta_dims *filter_dims) {
  return dw_dsp_ok(p, q, in_dims, filter_dims);
}

/* Which code runs an op: */
enum {
  DW_DSP,          /* the DSP path, any filter (the portable one without the extension) */
  DW_DSP_3X3,      /* the same, 3 x 3 filters, border pixels one by one */
  DW_DSP_3X3_RING, /* the same, 3 x 3 filters, border rows from the padded rows */
  DW_PORTABLE,     /* the portable path, TFLite's roundings */
  DW_ORT           /* the portable path, ONNX Runtime's rounding */
};

/* The entry points: arguments checked, then the path of `how` (inlined
 * into each, so that each refers to its own path only). */
TA_INLINE ta_status dw_fold(const ta_conv_params *p, const ta_quant *q, const ta_dims *in_dims,
                            const int8_t *in, const ta_dims *filter_dims, const int8_t *filter,
                            const int32_t *bias_fold, const ta_dims *out_dims, int8_t *out,
                            int rev, int how) {
  if (!ta_dw_shapes_ok(p, in_dims, filter_dims, out_dims) || !bias_fold)
    return TA_ERR_ARG;
  const int ort = q->rounding == TA_ROUND_ORT;
  const int dsp = how == DW_DSP || how == DW_DSP_3X3 || how == DW_DSP_3X3_RING;
  if ((how == DW_PORTABLE && ort) || (how == DW_ORT && !ort))
    return TA_ERR_ARG;
  if (dsp && !dw_dsp_ok(p, q, in_dims, filter_dims))
    return TA_ERR_ARG;
  if ((how == DW_DSP_3X3 || how == DW_DSP_3X3_RING) &&
      (filter_dims->h != 3 || filter_dims->w != 3))
    return TA_ERR_ARG;
  if (how == DW_DSP_3X3_RING && !dw_ring_ok(p, in_dims, filter_dims, out_dims))
    return TA_ERR_ARG;
#if defined(TA_DSP)
  if (how == DW_DSP) {
    dw_dsp_any(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, rev);
    return TA_OK;
  }
  if (how == DW_DSP_3X3) {
    dw_dsp_3x3(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, rev);
    return TA_OK;
  }
  if (how == DW_DSP_3X3_RING) {
    dw_dsp_3x3_ring(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, rev);
    return TA_OK;
  }
#endif
  if (how == DW_ORT)
    dw_ort(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, rev);
  else
    dw_fixed(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, rev);
  return TA_OK;
}

/* The DSP path where the core has one (TA_ERR_ARG for an op it does not
 * take), the portable path elsewhere: any filter size; 3 x 3 filters
 * only, border pixels one by one; 3 x 3 only, border rows from the
 * padded rows (only where ta_depthwise_conv2d_fold_ring_ok()). */
ta_status ta_depthwise_conv2d_fold_dsp_s8(const ta_conv_params *p, const ta_quant *q,
                                          const ta_dims *in_dims, const int8_t *in,
                                          const ta_dims *filter_dims, const int8_t *filter,
                                          const int32_t *bias_fold, const ta_dims *out_dims,
                                          int8_t *out, void *scratch) {
  (void)scratch;
  return dw_fold(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, 0, DW_DSP);
}

ta_status ta_depthwise_conv2d_fold_rev_dsp_s8(const ta_conv_params *p, const ta_quant *q,
                                              const ta_dims *in_dims, const int8_t *in,
                                              const ta_dims *filter_dims, const int8_t *filter,
                                              const int32_t *bias_fold, const ta_dims *out_dims,
                                              int8_t *out, void *scratch) {
  (void)scratch;
  return dw_fold(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, 1, DW_DSP);
}

ta_status ta_depthwise_conv2d_fold_3x3_dsp_s8(const ta_conv_params *p, const ta_quant *q,
                                              const ta_dims *in_dims, const int8_t *in,
                                              const ta_dims *filter_dims, const int8_t *filter,
                                              const int32_t *bias_fold, const ta_dims *out_dims,
                                              int8_t *out, void *scratch) {
  (void)scratch;
  return dw_fold(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, 0, DW_DSP_3X3);
}

ta_status ta_depthwise_conv2d_fold_rev_3x3_dsp_s8(const ta_conv_params *p, const ta_quant *q,
                                                  const ta_dims *in_dims, const int8_t *in,
                                                  const ta_dims *filter_dims, const int8_t *filter,
                                                  const int32_t *bias_fold, const ta_dims *out_dims,
                                                  int8_t *out, void *scratch) {
  (void)scratch;
  return dw_fold(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, 1, DW_DSP_3X3);
}

ta_status ta_depthwise_conv2d_fold_3x3_ring_dsp_s8(
    const ta_conv_params *p, const ta_quant *q, const ta_dims *in_dims, const int8_t *in,
    const ta_dims *filter_dims, const int8_t *filter, const int32_t *bias_fold,
    const ta_dims *out_dims, int8_t *out, void *scratch) {
  (void)scratch;
  return dw_fold(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, 0,
                 DW_DSP_3X3_RING);
}

ta_status ta_depthwise_conv2d_fold_rev_3x3_ring_dsp_s8(
    const ta_conv_params *p, const ta_quant *q, const ta_dims *in_dims, const int8_t *in,
    const ta_dims *filter_dims, const int8_t *filter, const int32_t *bias_fold,
    const ta_dims *out_dims, int8_t *out, void *scratch) {
  (void)scratch;
  return dw_fold(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, 1,
                 DW_DSP_3X3_RING);
}

/* The portable path, TFLite's roundings. */
ta_status ta_depthwise_conv2d_fold_portable_s8(const ta_conv_params *p, const ta_quant *q,
                                               const ta_dims *in_dims, const int8_t *in,
                                               const ta_dims *filter_dims, const int8_t *filter,
                                               const int32_t *bias_fold, const ta_dims *out_dims,
                                               int8_t *out, void *scratch) {
  (void)scratch;
  return dw_fold(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, 0, DW_PORTABLE);
}

ta_status ta_depthwise_conv2d_fold_rev_portable_s8(
    const ta_conv_params *p, const ta_quant *q, const ta_dims *in_dims, const int8_t *in,
    const ta_dims *filter_dims, const int8_t *filter, const int32_t *bias_fold,
    const ta_dims *out_dims, int8_t *out, void *scratch) {
  (void)scratch;
  return dw_fold(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, 1, DW_PORTABLE);
}

/* The portable path, ONNX Runtime's rounding. */
ta_status ta_depthwise_conv2d_fold_ort_s8(const ta_conv_params *p, const ta_quant *q,
                                          const ta_dims *in_dims, const int8_t *in,
                                          const ta_dims *filter_dims, const int8_t *filter,
                                          const int32_t *bias_fold, const ta_dims *out_dims,
                                          int8_t *out, void *scratch) {
  (void)scratch;
  return dw_fold(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, 0, DW_ORT);
}

ta_status ta_depthwise_conv2d_fold_rev_ort_s8(const ta_conv_params *p, const ta_quant *q,
                                              const ta_dims *in_dims, const int8_t *in,
                                              const ta_dims *filter_dims, const int8_t *filter,
                                              const int32_t *bias_fold, const ta_dims *out_dims,
                                              int8_t *out, void *scratch) {
  (void)scratch;
  return dw_fold(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, 1, DW_ORT);
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
    if (filter_dims->h != 3 || filter_dims->w != 3)
      return ta_depthwise_conv2d_fold_dsp_s8(DW_ARGS);
    if (ta_depthwise_conv2d_fold_ring_ok(p, in_dims, filter_dims, out_dims))
      return ta_depthwise_conv2d_fold_3x3_ring_dsp_s8(DW_ARGS);
    return ta_depthwise_conv2d_fold_3x3_dsp_s8(DW_ARGS);
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
    if (filter_dims->h != 3 || filter_dims->w != 3)
      return ta_depthwise_conv2d_fold_rev_dsp_s8(DW_ARGS);
    if (ta_depthwise_conv2d_fold_ring_ok(p, in_dims, filter_dims, out_dims))
      return ta_depthwise_conv2d_fold_rev_3x3_ring_dsp_s8(DW_ARGS);
    return ta_depthwise_conv2d_fold_rev_3x3_dsp_s8(DW_ARGS);
  }
#endif
  if (q->rounding == TA_ROUND_ORT)
    return ta_depthwise_conv2d_fold_rev_ort_s8(DW_ARGS);
  return ta_depthwise_conv2d_fold_rev_portable_s8(DW_ARGS);
}
