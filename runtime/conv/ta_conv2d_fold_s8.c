/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_conv2d_fold_s8 - int8 CONV_2D with the input zero point folded into
 * the bias: the same bytes as ta_conv2d_s8 (TFLite's ConvPerChannel),
 * fewer operations.
 *
 * The compiler passes bias_fold[oc] = bias[oc] + input_offset * (sum of
 * all filter[oc] weights) (fold_bias_s8()).  A filter tap in the padding
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
 *  - Portable C (ta_conv2d_fold_portable_s8, _ort_s8): OHWI filter, the
 *    folded bias; four channels at a time (ta_dot_s8.h), any groups.
 *  - The DSP path (ta_conv2d_fold_dsp_s8), ungrouped convolutions with
 *    TFLite Micro's double rounding, takes what the compiler prepared
 *    (ta_pack.h, blocks of G = 2 rows): the filter packed for it
 *    (ta_pack_rows_s8(): channel pairs interleaved four taps at a time,
 *    rows padded with zeros to K4 = K rounded up to 4) and, instead of
 *    the bias, the pairs' records (ta_pack_records(): both biases, then
 *    per channel the SMMLAR multiplier M, the addend c with the output
 *    offset in it and the shift e).  On a core with the Arm DSP extension (ta_dsp.h) it
 *    runs output pixels four at a time: their windows widened into four
 *    interleaved columns, then one block of assembly over every channel
 *    pair (dsp_block_run()): 8 sums in registers, per group of 4 taps 2
 *    LDRD of the pair's weights, 4 SXTB16, 4 LDRD of the columns and 16
 *    SMLAD (26 instructions for 32 multiply-adds; four groups per
 *    pass of the loop, entered part-way for a count not a multiple of
 *    4), then per sum SMMLAR,
 *    ADD, SUB, ASR, SSAT and a halfword store per pixel.  Elsewhere the
 *    same arithmetic in C, one pixel at a time.
 *    ta_conv2d_fold_wide_dsp_s8 (--optimize speed) is the same over the
 *    packed filter widened to int16 on the host (ta_pack_wide_s8(): per
 *    group the pair's even taps, then its odd ones), for an even number
 *    of output channels: two LDRD of weights per group and no SXTB16,
 *    22 instructions for 32 multiply-adds.  The lean entries
 *    (ta_conv2d_fold_lean_dsp_s8, _add_lean_dsp_s8) run the same with
 *    blocks of two pixels in C, in half the scratch: what the compiler
 *    picks for the op at a RAM peak under --ram-limit.
 *
 * The requantization in SMMLAR form (ta_requant_double_mmla()) is
 * TFLite Micro's double rounding exactly where the compiler found it so
 * (ta_pack_records() returns 0 otherwise: the portable path runs), the
 * output offset added inside the rounding step:
 * floor((v + 2^(e-1) + off 2^e) / 2^e) = floor((v + 2^(e-1)) / 2^e) + off.
 *
 * Scratch (ta_conv2d_fold_s8_scratch_size()): 8 * K4 bytes (four int16
 * columns; the portable path uses the first 2 K), plus 4 K4 for
 * gathering the four windows as int8 when the filter's channels are not
 * a multiple of 4; half of each in the lean entries.
 *
 * Entry points: ta_conv2d_fold_dsp_s8, ta_conv2d_fold_portable_s8
 * (TFLite's roundings) and ta_conv2d_fold_ort_s8 (ONNX Runtime's float
 * requantization) each run one path and refuse the ops it does not take,
 * so that a program links only the paths its calls name: the compiler
 * picks one per op (ta_conv2d_fold_dsp_ok()).  ta_conv2d_fold_s8 picks
 * the portable or the ONNX Runtime path per call, for code that calls
 * the kernel itself with an OHWI filter.
 *
 * ta_conv2d_fold_add_{dsp,portable}_s8 run the DSP or the portable path
 * with a residual ADD in the epilogue: each block's int8 outputs go to
 * the scratch after the columns, and add_s8.h's ADD writes the output
 * from them and the residual, element by element.
 */
#include <string.h>

#include "ta_fixedpoint.h"
#include "ta_kernels.h"
#include "ta_pack.h"
#include "conv_common.h"
#include "ta_dot_s8.h"
#include "ta_dsp.h"
#include "../elementwise/add_s8.h"

/* K4: a filter row's taps rounded up to 4. */
static size_t row4(const ta_dims *filter_dims) {
  return ((size_t)filter_dims->h * (size_t)filter_dims->w * (size_t)filter_dims->c + 3) &
         ~(size_t)3;
}

/* The columns of P pixels (int16) and, when the filter's channels are
 * not a multiple of 4, their windows as int8. */
static size_t cols_size(const ta_dims *filter_dims, size_t P) {
  const size_t K4 = row4(filter_dims);
  return 2 * P * K4 + (filter_dims->c % 4 ? P * K4 : 0);
}

size_t ta_conv2d_fold_s8_scratch_size(const ta_conv_params *p, const ta_dims *in_dims,
                                      const ta_dims *filter_dims, const ta_dims *out_dims) {
  (void)p;
  (void)in_dims;
  (void)out_dims;
  return cols_size(filter_dims, 4);
}

size_t ta_conv2d_fold_lean_dsp_s8_scratch_size(const ta_conv_params *p, const ta_dims *in_dims,
                                               const ta_dims *filter_dims,
                                               const ta_dims *out_dims) {
  (void)p;
  (void)in_dims;
  (void)out_dims;
  return cols_size(filter_dims, 2);
}

/* The fused entries' scratch: the convolution's, then the int8 outputs of
 * P pixels (the epilogue's ADD reads them with the residual). */
static size_t add_tmp_offset(const ta_dims *filter_dims, size_t P) {
  return (cols_size(filter_dims, P) + 3) & ~(size_t)3;
}

size_t ta_conv2d_fold_add_s8_scratch_size(const ta_conv_params *p, const ta_dims *in_dims,
                                          const ta_dims *filter_dims, const ta_dims *out_dims) {
  (void)p;
  (void)in_dims;
  return add_tmp_offset(filter_dims, 4) + 4 * (size_t)out_dims->c;
}

size_t ta_conv2d_fold_add_lean_dsp_s8_scratch_size(const ta_conv_params *p,
                                                   const ta_dims *in_dims,
                                                   const ta_dims *filter_dims,
                                                   const ta_dims *out_dims) {
  (void)p;
  (void)in_dims;
  return add_tmp_offset(filter_dims, 2) + 2 * (size_t)out_dims->c;
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
/*
 * The DSP path's P columns (P = 4 pixels per block, 2 in the lean
 * entries) share one buffer of P K4 int16 (K4 = K rounded up to 4,
 * 4-byte aligned), interleaved so that the block walks one pointer: for
 * each group g of 4 taps (k = 4g .. 4g + 3) 2 P words, columns 0 .. P-1's
 * (x0, x2), then their (x1, x3).  Taps past K hold 0 (their weights are
 * 0 too).
 */

/* n bytes v at dst; the byte after them. */
static int8_t *fill_bytes(int8_t *dst, int8_t v, int32_t n) {
  for (; n > 0; n--)
    *dst++ = v;
  return dst;
}

/* n bytes from src to dst, a word at a time while it can; dst + n. */
TA_INLINE int8_t *copy_run(int8_t *dst, const int8_t *src, int32_t n) {
  for (; n >= 4; n -= 4, dst += 4, src += 4)
    ta_st32(dst, ta_ld32(src));
  for (; n > 0; n--)
    *dst++ = *src++;
  return dst;
}

/* One segment of a window, n bytes (a multiple of 4 when P > 0): from
 * src, or the zero point where src is NULL.  P > 0: widened into a
 * column's words at dst (dst[0] = values 0 and 2, dst[P] = 1 and 3, then
 * 2 P words on; zp2 the zero point in both halves); P == 0: bytes at dst
 * (zp2's low byte).  Returns where the next segment goes. */
TA_NOINLINE static void *put_segment(void *dst, const int8_t *src, int32_t n, uint32_t zp2,
                                     int32_t P) {
  if (!P)
    return src ? copy_run((int8_t *)dst, src, n) : fill_bytes((int8_t *)dst, (int8_t)zp2, n);
  uint32_t *d = (uint32_t *)dst;
  if (src) {
    for (; n > 0; n -= 4, src += 4, d += 2 * P) {
      const uint32_t v = ta_ld32(src);
      d[0] = (uint32_t)ta_sxtb16_even(v);
      d[P] = (uint32_t)ta_sxtb16_odd(v);
    }
  } else {
    for (; n > 0; n -= 4, d += 2 * P)
      d[0] = d[P] = zp2;
  }
  return d;
}

/* Output pixel (oy, ox)'s window of in_b, the zero point zp in the
 * padding: C a multiple of 4, widened into column j of the P in col;
 * else copied as int8 to stage (K bytes, zeros up to K4), for
 * dsp_widen() to widen the P windows at once.  Undilated across, each
 * window row is one segment of the input (taps lo .. hi - 1) with the
 * zero point either side; dilated, each tap is one. */
static void dsp_gather(const ta_conv_params *p, const int8_t *in_b, int32_t H, int32_t W,
                       int32_t C, int32_t KH, int32_t KW, int32_t oy, int32_t ox,
                       int16_t zp, uint32_t *col, int32_t j, int32_t P, int8_t *stage) {
  const int32_t iy0 = oy * p->stride_h - p->pad_h, ix0 = ox * p->stride_w - p->pad_w;
  const uint32_t zp2 = (uint16_t)zp | ((uint32_t)(uint16_t)zp << 16);
  const int wide = (C & 3) == 0;
  const int32_t K = KH * KW * C, seg = KW * C, Q = wide ? P : 0;
  void *d = wide ? (void *)(col + j) : (void *)stage;
  if (p->dilation_w == 1 && ix0 >= 0 && ix0 + KW <= W && iy0 >= 0 &&
      iy0 + (KH - 1) * p->dilation_h < H) {
    /* The whole window inside: KH segments. */
    const int8_t *src = in_b + ((size_t)iy0 * (size_t)W + (size_t)ix0) * (size_t)C;
    const size_t rs = (size_t)p->dilation_h * (size_t)W * (size_t)C;
    for (int32_t ky = 0; ky < KH; ky++, src += rs) /* bytes here, without a call */
      d = wide ? put_segment(d, src, seg, zp2, Q) : copy_run((int8_t *)d, src, seg);
  } else {
    /* A window that leaves the input, or dilated across: row by row,
     * the zero point for the rows and taps outside. */
    int32_t lo = 0, hi = KW;
    if (p->dilation_w == 1) {
      lo = ix0 < 0 ? (-ix0 < KW ? -ix0 : KW) : 0;
      hi = W - ix0 < KW ? W - ix0 : KW;
      hi = hi < lo ? lo : hi;
    }
    for (int32_t ky = 0; ky < KH; ky++) {
      const int32_t iy = iy0 + ky * p->dilation_h;
      if (iy < 0 || iy >= H) {
        d = put_segment(d, NULL, seg, zp2, Q);
        continue;
      }
      const int8_t *row = in_b + (size_t)iy * (size_t)W * (size_t)C;
      if (p->dilation_w == 1) {
        if (lo)
          d = put_segment(d, NULL, lo * C, zp2, Q);
        if (hi > lo)
          d = put_segment(d, row + (size_t)(ix0 + lo) * (size_t)C, (hi - lo) * C, zp2, Q);
        if (hi < KW)
          d = put_segment(d, NULL, (KW - hi) * C, zp2, Q);
        continue;
      }
      for (int32_t kx = 0; kx < KW; kx++) {
        const int32_t ix = ix0 + kx * p->dilation_w;
        d = put_segment(d, ix >= 0 && ix < W ? row + (size_t)ix * (size_t)C : NULL, C, zp2, Q);
      }
    }
  }
  if (!wide)
    fill_bytes((int8_t *)d, 0, ((K + 3) & ~3) - K);
}

/* P int8 windows of groups * 4 values, `stride` bytes apart from x (the
 * staged windows, or the pixels of a pointwise convolution: 1x1, stride
 * 1, no padding, C a multiple of 4), widened into the P columns. */
static void dsp_widen(const int8_t *x, int32_t stride, uint32_t *col, int32_t groups,
                      int32_t P) {
  for (; groups > 0; groups--, x += 4, col += 2 * P)
    for (int32_t j = 0; j < P; j++) {
      const uint32_t v = ta_ld32(x + j * stride);
      col[j] = (uint32_t)ta_sxtb16_even(v);
      col[P + j] = (uint32_t)ta_sxtb16_odd(v);
    }
}

/* dsp_widen() for the four columns of the full block: per group of 4
 * channels 4 LDR, 8 SXTB16 and 2 STM. */
#if defined(TA_DSP_GEMM_ASM)
__attribute__((naked)) static void dsp_gather_pw(const int8_t *x __attribute__((unused)),
                                                 int32_t C __attribute__((unused)),
                                                 uint32_t *col __attribute__((unused)),
                                                 int32_t groups __attribute__((unused))) {
  __asm__ volatile("push   {r4-r11, lr}\n\t"
                   "add    ip, r0, r1, lsl #1\n\t" /* pixels 2 and 3 */
                   "1:\n\t"
                   "ldr    r5, [r0, r1]\n\t"
                   "ldr    r4, [r0], #4\n\t"
                   "ldr    r7, [ip, r1]\n\t"
                   "ldr    r6, [ip], #4\n\t"
                   "sxtb16 r8, r4\n\t"
                   "sxtb16 r9, r5\n\t"
                   "sxtb16 r10, r6\n\t"
                   "sxtb16 r11, r7\n\t"
                   "stm    r2!, {r8-r11}\n\t"
                   "sxtb16 r4, r4, ror #8\n\t"
                   "sxtb16 r5, r5, ror #8\n\t"
                   "sxtb16 r6, r6, ror #8\n\t"
                   "sxtb16 r7, r7, ror #8\n\t"
                   "stm    r2!, {r4-r7}\n\t"
                   "subs   r3, r3, #1\n\t"
                   "bne    1b\n\t"
                   "pop    {r4-r11, pc}\n\t");
}
#else
static void dsp_gather_pw(const int8_t *x, int32_t C, uint32_t *col, int32_t groups) {
  dsp_widen(x, C, col, groups, 4);
}
#endif

/* What the block below needs; the order is the assembly's. */
typedef struct {
  int8_t *o[4];              /* the pixels' outputs, at the pair's first channel */
  const uint32_t *col, *col_end; /* the columns; col + 2 P groups */
  const int32_t *rec, *rec_end;  /* the pairs' records; rec + 8 * pairs */
  uint32_t lo4, hi4;         /* the clamp, in every byte */
  int32_t clamp;             /* the range is narrower than int8's */
  const int8_t *w;           /* the packed filter */
} dsp_block;

/*
 * Four columns times every channel pair: per pair 8 sums, started at
 * the pair's biases, each group of 4 taps 2 LDRD of the pair's weights
 * (the same 8 bytes twice: even then odd halves), 4 SXTB16, 4 LDRD of the
 * columns and 16 SMLAD: 26 instructions for 32 multiply-adds.  Then
 * per channel its record (one LDM: M, c, e) and per sum SMMLAR, ADD,
 * SUB, ASR, SSAT (ta_requant_mmla with the output offset in c); the two
 * channels of a pixel in one halfword (BFI), clamped as a word when the
 * range asks (SSUB8, SEL), stored with STRH.  *b is left as it was.
 */
#if defined(TA_DSP_GEMM_ASM)
#define DSP_HALF_EVEN                                                     \
  "ldrd   r10, r11, [r8]\n\t"                                             \
  "sxtb16 r10, r10\n\t"                                                   \
  "sxtb16 r11, r11\n\t"
#define DSP_HALF_ODD                                                      \
  "ldrd   r10, r11, [r8], #8\n\t"                                         \
  "sxtb16 r10, r10, ror #8\n\t"                                           \
  "sxtb16 r11, r11, ror #8\n\t"
#define DSP_HALF_MACS                                                     \
  "ldrd   ip, lr, [r9], #8\n\t"                                           \
  "smlad  r0, r10, ip, r0\n\t"                                            \
  "smlad  r4, r11, ip, r4\n\t"                                            \
  "smlad  r1, r10, lr, r1\n\t"                                            \
  "smlad  r5, r11, lr, r5\n\t"                                            \
  "ldrd   ip, lr, [r9], #8\n\t"                                           \
  "smlad  r2, r10, ip, r2\n\t"                                            \
  "smlad  r6, r11, ip, r6\n\t"                                            \
  "smlad  r3, r10, lr, r3\n\t"                                            \
  "smlad  r7, r11, lr, r7\n\t"
#define DSP_GROUP DSP_HALF_EVEN DSP_HALF_MACS DSP_HALF_ODD DSP_HALF_MACS
#define DSP_REQUANT(a)                                                    \
  "smmlar ip, " a ", r10, r11\n\t"                                        \
  "add    ip, ip, " a "\n\t"                                              \
  "sub    ip, ip, " a ", lsr #31\n\t"                                     \
  "asr    ip, ip, lr\n\t"                                                 \
  "ssat   " a ", #8, ip\n\t"
#define DSP_CLAMP(a)                                                      \
  "ssub8  ip, " a ", r10\n\t"                                             \
  "sel    " a ", " a ", r10\n\t"                                          \
  "ssub8  ip, " a ", r11\n\t"                                             \
  "sel    " a ", r11, " a "\n\t"

/* r0-r3 channel A's sums of columns 0-3, r4-r7 channel B's, r8 the
 * filter, r9 the columns (then the records), r10 r11 the widened weights
 * (then M, c), ip lr two column words (then e); the rest on the stack:
 * [sp] o[0..3], [sp + 16] col, col_end, rec, rec_end, lo4, hi4, clamp. */
#define DSP_BLOCK_ASM(GROUP)                                              \
  "push   {r4-r11, lr}\n\t"                                               \
  "sub    sp, sp, #48\n\t"                                                \
  "ldm    r0!, {r1-r8}\n\t"                                               \
  "stm    sp, {r1-r8}\n\t"                                                \
  "ldm    r0, {r1-r3, r8}\n\t"                                            \
  "add    ip, sp, #32\n\t"                                                \
  "stm    ip, {r1-r3}\n\t"                                                \
  "ldr    r9, [sp, #24]\n\t"                                              \
  "1:\n\t"                                                                \
  "ldm    r9!, {r0, r4}\n\t" /* the biases */                             \
  "str    r9, [sp, #24]\n\t"                                              \
  "mov    r1, r0\n\t"                                                     \
  "mov    r2, r0\n\t"                                                     \
  "mov    r3, r0\n\t"                                                     \
  "mov    r5, r4\n\t"                                                     \
  "mov    r6, r4\n\t"                                                     \
  "mov    r7, r4\n\t"                                                     \
  "ldr    r9, [sp, #16]\n\t"                                              \
  "ldr    ip, [sp, #20]\n\t"                                              \
  "sub    ip, ip, r9\n\t"                                                 \
  "ands   ip, ip, #96\n\t" /* r = groups mod 4: enter at copy 4 - r of 4 */ \
  "beq    2f\n\t"                                                         \
  "cmp    ip, #64\n\t"                                                    \
  "beq    6f\n\t"                                                         \
  "bhi    5f\n\t"                                                         \
  "b      3f\n\t"                                                         \
  "2:\n\t" GROUP "5:\n\t" GROUP "6:\n\t" GROUP "3:\n\t" GROUP              \
  "ldr    ip, [sp, #20]\n\t"                                              \
  "cmp    r9, ip\n\t"                                                     \
  "bne    2b\n\t"                                                         \
  "ldr    r9, [sp, #24]\n\t"                                              \
  "ldm    r9!, {r10, r11, lr}\n\t" DSP_REQUANT("r0") DSP_REQUANT("r1")    \
  DSP_REQUANT("r2") DSP_REQUANT("r3")                                     \
  "ldm    r9!, {r10, r11, lr}\n\t" DSP_REQUANT("r4") DSP_REQUANT("r5")    \
  DSP_REQUANT("r6") DSP_REQUANT("r7")                                     \
  "str    r9, [sp, #24]\n\t"                                              \
  "bfi    r0, r4, #8, #8\n\t"                                             \
  "bfi    r1, r5, #8, #8\n\t"                                             \
  "bfi    r2, r6, #8, #8\n\t"                                             \
  "bfi    r3, r7, #8, #8\n\t"                                             \
  "ldr    ip, [sp, #40]\n\t"                                              \
  "cmp    ip, #0\n\t"                                                     \
  "beq    4f\n\t"                                                         \
  "ldrd   r10, r11, [sp, #32]\n\t" DSP_CLAMP("r0") DSP_CLAMP("r1") DSP_CLAMP("r2") \
  DSP_CLAMP("r3")                                                         \
  "4:\n\t"                                                                \
  "ldm    sp, {r4-r7}\n\t"                                                \
  "strh   r0, [r4], #2\n\t"                                               \
  "strh   r1, [r5], #2\n\t"                                               \
  "strh   r2, [r6], #2\n\t"                                               \
  "strh   r3, [r7], #2\n\t"                                               \
  "stm    sp, {r4-r7}\n\t"                                                \
  "ldr    ip, [sp, #28]\n\t"                                              \
  "cmp    r9, ip\n\t"                                                     \
  "bne    1b\n\t"                                                         \
  "add    sp, sp, #48\n\t"                                                \
  "pop    {r4-r11, pc}\n\t"
__attribute__((naked)) static void dsp_block_run(dsp_block *b __attribute__((unused))) {
  __asm__ volatile(DSP_BLOCK_ASM(DSP_GROUP));
}

/* The same over a filter widened on the host (ta_pack_wide_s8(): per
 * group the pair's even halves, then its odd halves, as int16): two
 * LDRD of weights per group and no SXTB16, 22 instructions for 32
 * multiply-adds. */
#define DSP_HALF_WIDE "ldrd   r10, r11, [r8], #8\n\t"
#define DSP_GROUP_WIDE DSP_HALF_WIDE DSP_HALF_MACS DSP_HALF_WIDE DSP_HALF_MACS
__attribute__((naked)) static void dsp_block_run_wide(dsp_block *b __attribute__((unused))) {
  __asm__ volatile(DSP_BLOCK_ASM(DSP_GROUP_WIDE));
}
#else
/* The same in C; wide: the filter widened on the host (ta_pack_wide_s8()). */
TA_INLINE void dsp_block_c(dsp_block *b, int wide) {
  const int32_t P = 4;
  const int8_t *w = b->w;
  int8_t *o[4] = {b->o[0], b->o[1], b->o[2], b->o[3]};
  for (const int32_t *r = b->rec; r != b->rec_end; r += 8) {
    int32_t a[2][4];
    for (int h = 0; h < 2; h++)
      a[h][0] = a[h][1] = a[h][2] = a[h][3] = r[h];
    for (const uint32_t *x = b->col; x != b->col_end; x += 2 * P, w += wide ? 16 : 8)
      for (int h = 0; h < 2; h++) {
        const uint32_t v = ta_ld32a(w + 4 * h);
        const int32_t ev = wide ? (int32_t)v : ta_sxtb16_even(v);
        const int32_t od = wide ? (int32_t)ta_ld32a(w + 8 + 4 * h) : ta_sxtb16_odd(v);
        for (int32_t j = 0; j < P; j++)
          a[h][j] = __smlad(od, (int32_t)x[P + j], __smlad(ev, (int32_t)x[j], a[h][j]));
      }
    for (int32_t j = 0; j < P; j++) {
      uint32_t v = 0;
      for (int h = 0; h < 2; h++)
        v |= ((uint32_t)ta_ssat(ta_dsp_requant_rec(a[h][j], r + 2 + 3 * h), 8) & 0xff) << (8 * h);
      if (b->clamp)
        v = ta_dsp_clamp4(v, b->lo4, b->hi4);
      ta_st16(o[j], v);
      o[j] += 2;
    }
  }
}

static void dsp_block_run(dsp_block *b) { dsp_block_c(b, 0); }
static void dsp_block_run_wide(dsp_block *b) { dsp_block_c(b, 1); }

#endif

/* The lean entries' block: two columns, per group of 4 taps the pair's
 * 8 weights widened once for both (4 SXTB16) and 8 SMLAD. */
static void dsp_pair_run(dsp_block *b) {
  const int8_t *w = b->w;
  int8_t *o0 = b->o[0], *o1 = b->o[1];
  for (const int32_t *r = b->rec; r != b->rec_end; r += 8) {
    int32_t a0 = r[0], a1 = r[0], c0 = r[1], c1 = r[1];
    for (const uint32_t *x = b->col; x != b->col_end; x += 4, w += 8) {
      const uint32_t v = ta_ld32a(w), u = ta_ld32a(w + 4);
      const int32_t x0 = (int32_t)x[0], x1 = (int32_t)x[1], x2 = (int32_t)x[2],
                    x3 = (int32_t)x[3];
      const int32_t ve = ta_sxtb16_even(v), vo = ta_sxtb16_odd(v);
      a0 = __smlad(vo, x2, __smlad(ve, x0, a0));
      a1 = __smlad(vo, x3, __smlad(ve, x1, a1));
      const int32_t ue = ta_sxtb16_even(u), uo = ta_sxtb16_odd(u);
      c0 = __smlad(uo, x2, __smlad(ue, x0, c0));
      c1 = __smlad(uo, x3, __smlad(ue, x1, c1));
    }
    uint32_t v0 = ((uint32_t)ta_ssat(ta_dsp_requant_rec(a0, r + 2), 8) & 0xff) |
                  ((uint32_t)ta_ssat(ta_dsp_requant_rec(c0, r + 5), 8) & 0xff) << 8;
    uint32_t v1 = ((uint32_t)ta_ssat(ta_dsp_requant_rec(a1, r + 2), 8) & 0xff) |
                  ((uint32_t)ta_ssat(ta_dsp_requant_rec(c1, r + 5), 8) & 0xff) << 8;
    if (b->clamp) {
      v0 = ta_dsp_clamp4(v0, b->lo4, b->hi4);
      v1 = ta_dsp_clamp4(v1, b->lo4, b->hi4);
    }
    ta_st16(o0, v0);
    ta_st16(o1, v1);
    o0 += 2;
    o1 += 2;
  }
}

/* An odd last channel (after `pairs` pairs): its P sums in C, filter
 * packed alone, record bias, M, c, e. */
static void dsp_last_channel(const dsp_block *b, int32_t pairs, const int8_t *w,
                             const int32_t *r, int32_t P) {
  int32_t a[4] = {r[0], r[0], r[0], r[0]};
  for (const uint32_t *x = b->col; x != b->col_end; x += 2 * P, w += 4) {
    const uint32_t v = ta_ld32a(w);
    const int32_t e = ta_sxtb16_even(v), o = ta_sxtb16_odd(v);
    for (int32_t j = 0; j < P; j++)
      a[j] = __smlad(o, (int32_t)x[P + j], __smlad(e, (int32_t)x[j], a[j]));
  }
  for (int32_t j = 0; j < P; j++) {
    uint32_t v = (uint32_t)ta_ssat(ta_dsp_requant_rec(a[j], r + 1), 8) & 0xff;
    if (b->clamp)
      v = ta_dsp_clamp4(v, b->lo4, b->hi4);
    b->o[j][2 * pairs] = (int8_t)v;
  }
}

/*
 * Ungrouped convolution: output pixels P at a time (4, or 2 in the lean
 * entries; the block may span rows and images; the last one repeats the
 * last pixel, which then writes the same bytes up to P times).  With add
 * (the fused entry): the block's outputs go to tmp, and the residual ADD
 * writes out from them and res, element by element (so out may be res
 * itself).
 */
TA_INLINE void conv_dsp_body(const ta_conv_params *p, const ta_dims *in_dims,
                             const int8_t *in, const ta_dims *filter_dims,
                             const int8_t *filter, const int32_t *rec,
                             const ta_dims *out_dims, int8_t *out, uint32_t *col,
                             const ta_add_s8_tab *add, const int8_t *res, int8_t *tmp,
                             const int32_t P, const int wide) {
  const int32_t H = in_dims->h, W = in_dims->w, C = in_dims->c;
  const int32_t KH = filter_dims->h, KW = filter_dims->w;
  const int32_t OH = out_dims->h, OW = out_dims->w, OC = out_dims->c;
  const int32_t K4 = (KH * KW * C + 3) & ~3, pairs = OC >> 1;
  const int16_t zp = (int16_t)ta_clamp_i32(-p->input_offset, -128, 127);
  int8_t *stage = (int8_t *)(col + P * K4 / 2);
  dsp_block blk;
  blk.col = col;
  blk.col_end = col + P * K4 / 2;
  blk.lo4 = ta_dsp_bytes4(p->act_min);
  blk.hi4 = ta_dsp_bytes4(p->act_max);
  blk.clamp = p->act_min > -128 || p->act_max < 127;
  const int8_t *w_last = filter + (size_t)pairs * 2 * (size_t)K4;
  const int32_t *r_last = rec + 8 * pairs;
  blk.rec = rec;
  blk.rec_end = r_last;
  blk.w = filter;
  const size_t npix = (size_t)in_dims->n * (size_t)OH * (size_t)OW;
  const size_t image = (size_t)H * (size_t)W * (size_t)C;
  const size_t oc = (size_t)OC, c = (size_t)C, k4 = (size_t)K4, np = (size_t)P;
  /* Pointwise: pixel i's window is input pixel i. */
  const int pw = KH == 1 && KW == 1 && p->stride_h == 1 && p->stride_w == 1 && p->pad_h == 0 &&
                 p->pad_w == 0 && H == OH && W == OW && (C & 3) == 0;
  int32_t b = 0, oy = 0, ox = 0;
  for (size_t i = 0; i < npix; i += np) {
    const size_t n = npix - i < np ? npix - i : np;
    int8_t *o = (add ? tmp : out + i * oc);
    blk.o[0] = o;
    blk.o[1] = o + oc;
    blk.o[2] = o + 2 * oc;
    blk.o[3] = o + 3 * oc;
    if (pw && n == np) {
      if (P == 4)
        dsp_gather_pw(in + i * c, C, col, K4 / 4);
      else
        dsp_widen(in + i * c, C, col, K4 / 4, P);
    } else {
      for (size_t j = 0; j < np; j++) {
        blk.o[j] = o + (j < n ? j : n - 1) * oc;
        dsp_gather(p, in + (size_t)b * image, H, W, C, KH, KW, oy, ox, zp, col, (int32_t)j, P,
                   stage + j * k4);
        if (j + 1 < n && ++ox == OW) {
          ox = 0;
          if (++oy == OH) {
            oy = 0;
            b++;
          }
        }
      }
      if (++ox == OW) {
        ox = 0;
        if (++oy == OH) {
          oy = 0;
          b++;
        }
      }
      if ((C & 3) && P == 4) /* the int8 windows, widened */
        dsp_gather_pw(stage, K4, col, K4 / 4);
      else if (C & 3)
        dsp_widen(stage, K4, col, K4 / 4, P);
    }
    if (pw && n == np) {
      /* (b, oy, ox) is not followed here: only the last block, which
       * may be short, gathers pixel by pixel; it starts at pixel i + P. */
      if (npix - (i + np) < np) {
        const size_t next = i + np, ow = (size_t)OW;
        b = (int32_t)(next / ((size_t)OH * ow));
        oy = (int32_t)(next / ow % (size_t)OH);
        ox = (int32_t)(next % ow);
      }
    }
    if (pairs && P == 4 && wide)
      dsp_block_run_wide(&blk);
    else if (pairs && P == 4)
      dsp_block_run(&blk);
    else if (pairs)
      dsp_pair_run(&blk);
    if ((OC & 1) && !wide) /* (the wide entry takes even OC only) */
      dsp_last_channel(&blk, pairs, w_last, r_last, P);
    if (add)
      ta_add_s8_tab_row(add, tmp, 1, res + i * oc, 1, out + i * oc, (int32_t)n * OC);
  }
}

static void conv_dsp(const ta_conv_params *p, const ta_dims *in_dims, const int8_t *in,
                     const ta_dims *filter_dims, const int8_t *filter, const int32_t *rec,
                     const ta_dims *out_dims, int8_t *out, uint32_t *col) {
  conv_dsp_body(p, in_dims, in, filter_dims, filter, rec, out_dims, out, col, NULL, NULL, NULL,
                4, 0);
}

static void conv_wide(const ta_conv_params *p, const ta_dims *in_dims, const int8_t *in,
                      const ta_dims *filter_dims, const int8_t *filter, const int32_t *rec,
                      const ta_dims *out_dims, int8_t *out, uint32_t *col) {
  conv_dsp_body(p, in_dims, in, filter_dims, filter, rec, out_dims, out, col, NULL, NULL, NULL,
                4, 1);
}

TA_NOINLINE static void conv_dsp_add(const ta_conv_params *p, const ta_dims *in_dims,
                                     const int8_t *in, const ta_dims *filter_dims,
                                     const int8_t *filter, const int32_t *rec,
                                     const ta_dims *out_dims, int8_t *out, uint32_t *col,
                                     const ta_add_s8_tab *add, const int8_t *res,
                                     int8_t *tmp) {
  conv_dsp_body(p, in_dims, in, filter_dims, filter, rec, out_dims, out, col, add, res, tmp, 4,
                0);
}

static void conv_lean(const ta_conv_params *p, const ta_dims *in_dims, const int8_t *in,
                      const ta_dims *filter_dims, const int8_t *filter, const int32_t *rec,
                      const ta_dims *out_dims, int8_t *out, uint32_t *col) {
  conv_dsp_body(p, in_dims, in, filter_dims, filter, rec, out_dims, out, col, NULL, NULL, NULL,
                2, 0);
}

TA_NOINLINE static void conv_lean_add(const ta_conv_params *p, const ta_dims *in_dims,
                                      const int8_t *in, const ta_dims *filter_dims,
                                      const int8_t *filter, const int32_t *rec,
                                      const ta_dims *out_dims, int8_t *out, uint32_t *col,
                                      const ta_add_s8_tab *add, const int8_t *res,
                                      int8_t *tmp) {
  conv_dsp_body(p, in_dims, in, filter_dims, filter, rec, out_dims, out, col, add, res, tmp, 2,
                0);
}

#else

/*
 * The DSP path's arithmetic on cores without the extension: one pixel
 * at a time, its window in natural order as int16 (zero point in the
 * padding, zeros past K up to K4), each channel's sum over its packed
 * row, requantized with its record.
 */
TA_INLINE void conv_dsp_body(const ta_conv_params *p, const ta_dims *in_dims,
                             const int8_t *in, const ta_dims *filter_dims,
                             const int8_t *filter, const int32_t *rec,
                             const ta_dims *out_dims, int8_t *out, int16_t *col,
                             const ta_add_s8_tab *add, const int8_t *res, int8_t *tmp,
                             const int wide) {
  const int32_t H = in_dims->h, W = in_dims->w, C = in_dims->c;
  const int32_t KH = filter_dims->h, KW = filter_dims->w;
  const int32_t OH = out_dims->h, OW = out_dims->w, OC = out_dims->c;
  const int32_t K = KH * KW * C, K4 = (K + 3) & ~3, pairs = OC >> 1;
  const int16_t zp = (int16_t)ta_clamp_i32(-p->input_offset, -128, 127);
  for (int32_t k = K; k < K4; k++)
    col[k] = 0;
  for (int32_t b = 0; b < in_dims->n; b++) {
    const int8_t *in_b = in + (size_t)b * (size_t)H * (size_t)W * (size_t)C;
    for (int32_t oy = 0; oy < OH; oy++) {
      const ta_window wy = ta_conv_window(oy * p->stride_h - p->pad_h, p->dilation_h, KH, H);
      for (int32_t ox = 0; ox < OW; ox++) {
        const ta_window wx = ta_conv_window(ox * p->stride_w - p->pad_w, p->dilation_w, KW, W);
        const size_t at = (((size_t)b * (size_t)OH + (size_t)oy) * (size_t)OW + (size_t)ox) * (size_t)OC;
        int8_t *o = add ? tmp : out + at;
        int16_t *dst = col;
        for (int32_t ky = 0; ky < KH; ky++) {
          const int32_t iy = wy.origin + ky * p->dilation_h;
          const int iny = ky >= wy.start && ky < wy.end;
          for (int32_t kx = 0; kx < KW; kx++, dst += C) {
            if (!iny || kx < wx.start || kx >= wx.end) {
              for (int32_t c = 0; c < C; c++)
                dst[c] = zp;
              continue;
            }
            const int8_t *src =
                in_b + ((size_t)iy * (size_t)W + (size_t)wx.origin + (size_t)kx * (size_t)p->dilation_w) * (size_t)C;
            for (int32_t c = 0; c < C; c++)
              dst[c] = src[c];
          }
        }
        for (int32_t oc = 0; oc < OC; oc++) {
          const int32_t j = oc >> 1, h = oc & 1, lone = oc == 2 * pairs;
          const int32_t *r = rec + 8 * j, step = lone ? 4 : 8;
          int32_t acc = lone ? r[0] : r[h];
          if (wide) { /* per group of 4 taps: the pair's taps 0, 2, then 1, 3 (int16) */
            const int8_t *w = filter + (size_t)j * 4 * (size_t)K4 + (size_t)(4 * h);
            for (int32_t k = 0; k < K4; k++) {
              int16_t v; /* the filter's int16, read where it lies */
              memcpy(&v, w + (k >> 2) * 16 + (k & 1) * 8 + (k & 2), sizeof v);
              acc += v * col[k];
            }
          } else {
            const int8_t *w = filter + (size_t)j * 2 * (size_t)K4 + (size_t)(4 * h);
            for (int32_t k = 0; k < K4; k++)
              acc += w[(k >> 2) * step + (k & 3)] * col[k];
          }
          const int32_t *m = lone ? r + 1 : r + 2 + 3 * h;
          const ta_requant_mmla rq = {m[0], m[1], m[2]};
          o[oc] = (int8_t)ta_clamp_i32(ta_requant_double_mmla(acc, &rq), p->act_min, p->act_max);
        }
        if (add)
          ta_add_s8_tab_row(add, tmp, 1, res + at, 1, out + at, OC);
      }
    }
  }
}

static void conv_dsp(const ta_conv_params *p, const ta_dims *in_dims, const int8_t *in,
                     const ta_dims *filter_dims, const int8_t *filter, const int32_t *rec,
                     const ta_dims *out_dims, int8_t *out, int16_t *col) {
  conv_dsp_body(p, in_dims, in, filter_dims, filter, rec, out_dims, out, col, NULL, NULL, NULL,
                0);
}

static void conv_wide(const ta_conv_params *p, const ta_dims *in_dims, const int8_t *in,
                      const ta_dims *filter_dims, const int8_t *filter, const int32_t *rec,
                      const ta_dims *out_dims, int8_t *out, int16_t *col) {
  conv_dsp_body(p, in_dims, in, filter_dims, filter, rec, out_dims, out, col, NULL, NULL, NULL,
                1);
}

TA_NOINLINE static void conv_dsp_add(const ta_conv_params *p, const ta_dims *in_dims,
                                     const int8_t *in, const ta_dims *filter_dims,
                                     const int8_t *filter, const int32_t *rec,
                                     const ta_dims *out_dims, int8_t *out, int16_t *col,
                                     const ta_add_s8_tab *add, const int8_t *res,
                                     int8_t *tmp) {
  conv_dsp_body(p, in_dims, in, filter_dims, filter, rec, out_dims, out, col, add, res, tmp, 0);
}

/* The lean entries: the same (one pixel at a time needs 2 K4 bytes). */
#define conv_lean conv_dsp
#define conv_lean_add conv_dsp_add
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

/* The DSP path: packed filter and records (TA_ERR_ARG for an op it does
 * not take); in C on cores without the extension. */
ta_status ta_conv2d_fold_dsp_s8(const ta_conv_params *p, const ta_quant *q,
                                const ta_dims *in_dims, const int8_t *in,
                                const ta_dims *filter_dims, const int8_t *filter,
                                const int32_t *bias_fold,
                                const ta_dims *out_dims, int8_t *out, void *scratch) {
  if (!conv_args_ok(p, in_dims, filter_dims, out_dims, bias_fold, scratch) ||
      !conv_dsp_ok(q, in_dims, filter_dims, scratch))
    return TA_ERR_ARG;
  conv_dsp(p, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, scratch);
  return TA_OK;
}

/* The same over the filter widened on the host (ta_pack_wide_s8()),
 * output channels in pairs only. */
ta_status ta_conv2d_fold_wide_dsp_s8(const ta_conv_params *p, const ta_quant *q,
                                     const ta_dims *in_dims, const int8_t *in,
                                     const ta_dims *filter_dims, const int16_t *filter,
                                     const int32_t *bias_fold, const ta_dims *out_dims,
                                     int8_t *out, void *scratch) {
  if (!conv_args_ok(p, in_dims, filter_dims, out_dims, bias_fold, scratch) ||
      !conv_dsp_ok(q, in_dims, filter_dims, scratch) || (out_dims->c & 1) || !filter)
    return TA_ERR_ARG;
  conv_wide(p, in_dims, in, filter_dims, (const int8_t *)(const void *)filter, bias_fold,
            out_dims, out, scratch);
  return TA_OK;
}

/* The same, two pixels per block: half the columns' scratch. */
ta_status ta_conv2d_fold_lean_dsp_s8(const ta_conv_params *p, const ta_quant *q,
                                     const ta_dims *in_dims, const int8_t *in,
                                     const ta_dims *filter_dims, const int8_t *filter,
                                     const int32_t *bias_fold, const ta_dims *out_dims,
                                     int8_t *out, void *scratch) {
  if (!conv_args_ok(p, in_dims, filter_dims, out_dims, bias_fold, scratch) ||
      !conv_dsp_ok(q, in_dims, filter_dims, scratch))
    return TA_ERR_ARG;
  conv_lean(p, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, scratch);
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
 * The fused entries: the convolution (DSP path with its packed filter
 * and records, or the portable one with TFLite's roundings), then
 * ADD(its int8 output, residual) as ta_add_s8 computes it (add: the
 * ADD's parameters with the convolution's output as input 1), written
 * to out; out may be residual.
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
  conv_dsp_add(p, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, scratch, &c,
               residual, (int8_t *)scratch + add_tmp_offset(filter_dims, 4));
  return TA_OK;
}

ta_status ta_conv2d_fold_add_lean_dsp_s8(const ta_conv_params *p, const ta_quant *q,
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
  conv_lean_add(p, in_dims, in, filter_dims, filter, bias_fold, out_dims, out, scratch, &c,
                residual, (int8_t *)scratch + add_tmp_offset(filter_dims, 2));
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
                 residual, (int8_t *)scratch + add_tmp_offset(filter_dims, 4));
  return TA_OK;
}

/* The portable or the ONNX Runtime path, chosen per call (an OHWI
 * filter and the folded bias). */
ta_status ta_conv2d_fold_s8(const ta_conv_params *p, const ta_quant *q,
                            const ta_dims *in_dims, const int8_t *in,
                            const ta_dims *filter_dims, const int8_t *filter,
                            const int32_t *bias_fold,
                            const ta_dims *out_dims, int8_t *out, void *scratch) {
  if (q->rounding == TA_ROUND_ORT)
    return ta_conv2d_fold_ort_s8(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims,
                                 out, scratch);
  return ta_conv2d_fold_portable_s8(p, q, in_dims, in, filter_dims, filter, bias_fold, out_dims,
                                    out, scratch);
}
