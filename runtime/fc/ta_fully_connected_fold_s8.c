/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_fully_connected_fold_s8 - int8 FULLY_CONNECTED with the input zero
 * point folded into the bias: the same bytes as ta_fully_connected_s8
 * (TFLite's FullyConnected with filter_offset 0).
 *
 * bias_fold[o] = bias[o] + input_offset * sum_i filter[o][i]
 * (fold_bias_s8()), so acc = bias_fold[o] + sum_i filter[o][i] * in[b][i]:
 * four output rows at a time through ta_dot_s8.h's blocked dot products.
 *
 * The DSP path (ta_fully_connected_fold_dsp_s8, TFLite Micro's double
 * rounding) takes what the compiler prepared
 * (ta_pack.h, blocks of G = 4 rows): the filter packed so that one LDM
 * loads four bytes of each of four rows, and the records instead of the
 * folded bias (ta_pack_records_fc(): the biases, then per row SMMLAR's
 * multiplier, the addend with the output offset, the shift; one of
 * those for every row, TA_MMLA_SHARED, where the quantization is per
 * tensor).  On a core with the Arm DSP
 * extension, per block of four rows and per group of four inputs: the
 * inputs widened once by two SXTB16, the rows' words widened by two
 * more each and two SMLADs (fc_blocks(): 20 instructions for 16
 * multiply-adds; over the filter widened to int16 on the host,
 * ta_fully_connected_fold_wide_dsp_s8 under --optimize speed, two LDM
 * of ready weights and eight SMLADs, 13), then the four outputs
 * requantized and stored as one word (an input whose length is no
 * multiple of 4: its last word, shifted down, times the zero-padded last
 * group); the rows past the last full block, and every row elsewhere, in
 * C with the same arithmetic.
 *
 * Entry points: ta_fully_connected_fold_dsp_s8 (and _wide_dsp_s8),
 * _portable_s8 (TFLite's roundings) and _ort_s8 (ONNX Runtime's float
 * requantization) run one path each and refuse the ops it does not
 * take, so that a program links only the paths its calls name: the compiler picks one per op
 * (ta_fully_connected_fold_dsp_ok()).  ta_fully_connected_fold_s8 picks
 * the portable or the ONNX Runtime path per call.
 */
#include "ta_dot_s8.h"
#include "ta_dsp.h"
#include "ta_fixedpoint.h"
#include "ta_kernels.h"
#include "ta_pack.h"

/* The locals every path reads (the int8 output may alias the
 * parameters). */
#define FC_LOCALS                                                                    \
  const int32_t B = p->batches, D = p->in_depth, O = p->out_depth;                  \
  const int32_t *mult = q->multiplier, *shift = q->shift;                           \
  const int32_t step = q->per_channel ? 1 : 0, rounding = q->rounding;              \
  const int32_t out_off = p->output_offset, lo = p->act_min, hi = p->act_max;       \
  (void)rounding

/* The DSP path's arithmetic, row by row in C: the packed filter's row
 * r0 + j (block of g rows at r0, 4 g bytes a group, rows of K4 = D
 * rounded up to 4 taps) and its record (ta_pack_records_fc(): the
 * biases, then M, c, e per row or shared); wide, the int16 filter
 * ta_pack_wide_s8() made of it (blocks of 4 rows: per pair of rows and
 * group, the pair's even taps, then its odd ones). */
static int32_t fc_row_sum(const int8_t *x, int32_t D, const void *filter, int wide, int32_t r0,
                          int32_t g, int32_t j) {
  const size_t blk = (size_t)r0 * (size_t)((D + 3) & ~3);
  int32_t acc = 0;
  for (int32_t k = 0; k < D; k++) {
    const size_t at = (size_t)((k >> 2) * 4 * g);
    const int32_t w =
        wide ? ((const int16_t *)filter)[blk + at + (size_t)(8 * (j >> 1) + 4 * (k & 1) +
                                                             2 * (j & 1) + ((k >> 1) & 1))]
             : ((const int8_t *)filter)[blk + at + (size_t)(4 * j + (k & 3))];
    acc += w * x[k];
  }
  return acc;
}

static int8_t fc_row_out(int32_t acc, const int32_t *rec, int32_t O, int shared, int32_t r,
                         int32_t lo, int32_t hi) {
  const int32_t *t = rec + O + (shared ? 0 : 3 * r);
  const ta_requant_mmla m = {t[0], t[1], t[2]};
  const int32_t v = ta_requant_double_mmla(acc + rec[r], &m);
  return (int8_t)(v < lo ? lo : v > hi ? hi : v);
}

#if defined(TA_DSP) && defined(TA_DSP_GEMM_ASM)
/* What fc_blocks() reads; the order is the assembly's. */
typedef struct {
  const int8_t *x, *x_end; /* one batch's input: its groups of 4 (1 or more) */
  const void *w;           /* the packed filter (blocks of 4 rows) */
  const int32_t *bias;     /* the records' biases */
  int8_t *out;             /* the batch's outputs */
  int32_t blocks;          /* blocks of 4 rows */
  uint32_t lo4, hi4;       /* the clamp, in every byte */
  int32_t clamp;           /* the range is narrower than int8's */
  const int32_t *req;      /* the records' M, c, e */
  int32_t req_step;        /* bytes from one row's to the next's: 12, or 0 shared */
  int32_t tail_bits;       /* 8 (4 - t) for the last t = D & 3 inputs, or 0 */
} fc_run;

/* One group of 4 inputs, widened once (SXTB16 twice), times the block's
 * four rows (one LDM of their four words, each widened twice, two
 * SMLADs): 20 instructions for 16 multiply-adds. */
#define FC_ROW(w, acc)                                                    \
  "sxtb16 ip, " w "\n\t"                                                  \
  "smlad  " acc ", ip, r10, " acc "\n\t"                                  \
  "sxtb16 " w ", " w ", ror #8\n\t"                                       \
  "smlad  " acc ", " w ", r11, " acc "\n\t"
#define FC_WORD                                                           \
  "sxtb16 r10, ip\n\t"                                                    \
  "sxtb16 r11, ip, ror #8\n\t"                                            \
  "ldm    r8!, {r4-r7}\n\t"                                               \
  FC_ROW("r4", "r0") FC_ROW("r5", "r1") FC_ROW("r6", "r2") FC_ROW("r7", "r3")
/* The same over a filter widened on the host (ta_pack_wide_s8(): per
 * pair of rows, both rows' even taps, then their odd ones, as int16):
 * two LDM of ready weights and eight SMLADs, 13 instructions for 16
 * multiply-adds. */
#define FC_PAIR_WIDE(a, b)                                                \
  "ldm    r8!, {r4-r7}\n\t"                                               \
  "smlad  " a ", r10, r4, " a "\n\t"                                      \
  "smlad  " b ", r10, r5, " b "\n\t"                                      \
  "smlad  " a ", r11, r6, " a "\n\t"                                      \
  "smlad  " b ", r11, r7, " b "\n\t"
#define FC_WORD_WIDE                                                      \
  "sxtb16 r10, ip\n\t"                                                    \
  "sxtb16 r11, ip, ror #8\n\t"                                            \
  FC_PAIR_WIDE("r0", "r1") FC_PAIR_WIDE("r2", "r3")
#define FC_REQUANT(a)                                                     \
  "ldm    lr, {r4-r6}\n\t"                                                \
  "add    lr, lr, r10\n\t"                                                \
  "smmlar ip, " a ", r4, r5\n\t"                                          \
  "add    ip, ip, " a "\n\t"                                              \
  "sub    ip, ip, " a ", lsr #31\n\t"                                     \
  "asr    ip, ip, r6\n\t"                                                 \
  "ssat   " a ", #8, ip\n\t"

/*
 * Every block of four rows: the sums (r0-r3, from the block's biases)
 * over the input (WORD: one group of 4 inputs in ip times the block's
 * rows), then per row its M, c, e: SMMLAR, ADD, SUB, ASR, SSAT; the four
 * bytes in one word (BFI), clamped when the range asks, one store.  r8
 * the filter, r9 the input, lr its end, r10 r11 its widened word, r4-r7
 * the rows' words (then M, c, e); [sp] the struct's copy.
 */
#define FC_BLOCKS_ASM(WORD)                                               \
  "push   {r4-r11, lr}\n\t"                                               \
  "sub    sp, sp, #48\n\t"                                                \
  "ldm    r0!, {r1-r8}\n\t"                                               \
  "stm    sp, {r1-r8}\n\t"                                                \
  "ldm    r0, {r1-r4}\n\t"                                                \
  "add    ip, sp, #32\n\t"                                                \
  "stm    ip, {r1-r4}\n\t"                                                \
  "ldr    r8, [sp, #8]\n\t"                                               \
  "1:\n\t"                                                                \
  "ldr    lr, [sp, #12]\n\t"                                              \
  "ldm    lr!, {r0-r3}\n\t"                                               \
  "str    lr, [sp, #12]\n\t"                                              \
  "ldrd   r9, lr, [sp]\n\t"                                               \
  "sub    ip, lr, r9\n\t"                                                 \
  "tst    ip, #4\n\t" /* an odd number of groups: enter at the second */  \
  "bne    3f\n\t"                                                         \
  "2:\n\t"                                                                \
  "ldr    ip, [r9], #4\n\t" WORD                                          \
  "3:\n\t"                                                                \
  "ldr    ip, [r9], #4\n\t" WORD                                          \
  "cmp    r9, lr\n\t"                                                     \
  "bne    2b\n\t"                                                         \
  "ldr    r10, [sp, #44]\n\t" /* the last 1 to 3 inputs: the word that */ \
  "cmp    r10, #0\n\t"        /* ends the input, shifted down, times */   \
  "beq    5f\n\t"             /* the block's last group (zero-padded) */  \
  "add    r9, r9, #4\n\t"                                                 \
  "sub    r9, r9, r10, lsr #3\n\t"                                        \
  "ldr    ip, [r9, #-4]\n\t"                                              \
  "lsr    ip, ip, r10\n\t" WORD                                           \
  "5:\n\t"                                                                \
  "ldrd   lr, r10, [sp, #36]\n\t"                                         \
  FC_REQUANT("r0") FC_REQUANT("r1") FC_REQUANT("r2") FC_REQUANT("r3")     \
  "str    lr, [sp, #36]\n\t"                                              \
  "bfi    r0, r1, #8, #8\n\t"                                             \
  "bfi    r0, r2, #16, #8\n\t"                                            \
  "bfi    r0, r3, #24, #8\n\t"                                            \
  "ldr    ip, [sp, #32]\n\t"                                              \
  "cmp    ip, #0\n\t"                                                     \
  "beq    4f\n\t"                                                         \
  "ldrd   r10, r11, [sp, #24]\n\t"                                        \
  "ssub8  ip, r0, r10\n\t"                                                \
  "sel    r0, r0, r10\n\t"                                                \
  "ssub8  ip, r0, r11\n\t"                                                \
  "sel    r0, r11, r0\n\t"                                                \
  "4:\n\t"                                                                \
  "ldr    ip, [sp, #16]\n\t"                                              \
  "str    r0, [ip], #4\n\t"                                               \
  "str    ip, [sp, #16]\n\t"                                              \
  "ldr    ip, [sp, #20]\n\t"                                              \
  "subs   ip, ip, #1\n\t"                                                 \
  "str    ip, [sp, #20]\n\t"                                              \
  "bne    1b\n\t"                                                         \
  "add    sp, sp, #48\n\t"                                                \
  "pop    {r4-r11, pc}\n\t"
__attribute__((naked)) static void fc_blocks(fc_run *r __attribute__((unused))) {
  __asm__ volatile(FC_BLOCKS_ASM(FC_WORD));
}
__attribute__((naked)) static void fc_blocks_wide(fc_run *r __attribute__((unused))) {
  __asm__ volatile(FC_BLOCKS_ASM(FC_WORD_WIDE));
}
#undef FC_ROW
#undef FC_WORD
#undef FC_PAIR_WIDE
#undef FC_WORD_WIDE
#undef FC_REQUANT
#undef FC_BLOCKS_ASM
#endif

/* The DSP path: the filter packed in blocks of 4 rows (wide: then
 * widened to int16, a multiple of 4 rows), the records instead of the
 * folded bias (ta_pack.h; shared: one M, c, e for all rows); blocks of 4
 * rows in assembly where there is some (inputs of 4 and more), the
 * others (and every row elsewhere) in C.  Inlined in each entry with
 * `wide` a constant, so that each links its own block loop only. */
TA_INLINE void fc_dsp(const ta_fc_params *p, const int8_t *in, const void *filter, int wide,
                      const int32_t *rec, int shared, int8_t *out) {
  const int32_t B = p->batches, D = p->in_depth, O = p->out_depth;
  const int32_t lo = p->act_min, hi = p->act_max;
  int32_t r0 = 0;
#if defined(TA_DSP) && defined(TA_DSP_GEMM_ASM)
  if (D >= 4) {
    r0 = O & ~3;
    fc_run r;
    r.lo4 = ta_dsp_bytes4(lo);
    r.hi4 = ta_dsp_bytes4(hi);
    r.clamp = lo > -128 || hi < 127;
    r.req_step = shared ? 0 : 12;
    r.tail_bits = D & 3 ? 8 * (4 - (D & 3)) : 0;
    for (int32_t b = 0; b < B && r0 > 0; b++) {
      r.x = in + (size_t)b * (size_t)D;
      r.x_end = r.x + (D & ~3);
      r.w = filter;
      r.bias = rec;
      r.req = rec + O;
      r.out = out + (size_t)b * (size_t)O;
      r.blocks = O >> 2;
      if (wide)
        fc_blocks_wide(&r);
      else
        fc_blocks(&r);
    }
  }
#endif
  for (; r0 < O; r0 += 4) {
    const int32_t g = O - r0 < 4 ? O - r0 : 4;
    for (int32_t b = 0; b < B; b++)
      for (int32_t j = 0; j < g; j++)
        out[(size_t)b * (size_t)O + (size_t)(r0 + j)] =
            fc_row_out(fc_row_sum(in + (size_t)b * (size_t)D, D, filter, wide, r0, g, j), rec, O,
                       shared, r0 + j, lo, hi);
  }
}

/* The portable path, four rows at a time (ta_dot_s8.h); ort: ONNX
 * Runtime's rounding, else TFLite's (a constant in each of the two
 * copies below). */
TA_INLINE void fc_portable(const ta_fc_params *p, const ta_quant *q, const int8_t *in,
                           const int8_t *filter, const int32_t *bias_fold, int8_t *out,
                           int ort) {
  FC_LOCALS;
  for (int32_t b = 0; b < B; b++) {
    const int8_t *x = in + (size_t)b * (size_t)D;
    int8_t *y = out + (size_t)b * (size_t)O;
    int32_t o = 0;
    for (; o < O; o += 4) {
      const int32_t n = O - o < 4 ? O - o : 4;
      int32_t acc[4] = {0, 0, 0, 0};
      const int8_t *w = filter + (size_t)o * (size_t)D;
      if (n == 4)
        ta_dot4_s8(x, w, D, D, acc);
      else
        for (int32_t j = 0; j < n; j++)
          acc[j] = ta_dot1_s8(x, w + (size_t)j * (size_t)D, D);
      for (int32_t j = 0; j < n; j++) {
        const int32_t ch = (o + j) * step;
        const int32_t v =
            (ort ? ta_requant_ort(acc[j] + bias_fold[o + j], mult[ch])
                 : ta_requant_fixed(acc[j] + bias_fold[o + j], mult[ch], shift[ch], rounding)) + out_off;
        y[o + j] = (int8_t)(v < lo ? lo : v > hi ? hi : v);
      }
    }
  }
}

TA_NOINLINE static void fc_fixed(const ta_fc_params *p, const ta_quant *q, const int8_t *in,
                                 const int8_t *filter, const int32_t *bias_fold, int8_t *out) {
  fc_portable(p, q, in, filter, bias_fold, out, 0);
}

TA_NOINLINE static void fc_ort(const ta_fc_params *p, const ta_quant *q, const int8_t *in,
                               const int8_t *filter, const int32_t *bias_fold, int8_t *out) {
  fc_portable(p, q, in, filter, bias_fold, out, 1);
}

static inline int fc_args_ok(const ta_fc_params *p, const int32_t *bias_fold) {
  return p->batches >= 0 && p->in_depth >= 0 && p->out_depth >= 0 && p->filter_offset == 0 &&
         bias_fold;
}

int ta_fully_connected_fold_dsp_ok(const ta_fc_params *p, const ta_quant *q) {
  return (q->mmla & TA_MMLA_RECORDS) && q->rounding == TA_ROUND_DOUBLE && p->in_depth > 0;
}

/* The DSP path (its arithmetic in C on cores without the extension);
 * TA_ERR_ARG for an op it does not take. */
ta_status ta_fully_connected_fold_dsp_s8(const ta_fc_params *p, const ta_quant *q,
                                         const int8_t *in, const int8_t *filter,
                                         const int32_t *bias_fold, int8_t *out) {
  if (!fc_args_ok(p, bias_fold) || !ta_fully_connected_fold_dsp_ok(p, q))
    return TA_ERR_ARG;
  fc_dsp(p, in, filter, 0, bias_fold, (q->mmla & TA_MMLA_SHARED) != 0, out);
  return TA_OK;
}

/* The same over the filter widened to int16 (ta_pack_wide_s8()); a
 * multiple of 4 rows. */
ta_status ta_fully_connected_fold_wide_dsp_s8(const ta_fc_params *p, const ta_quant *q,
                                              const int8_t *in, const int16_t *filter,
                                              const int32_t *bias_fold, int8_t *out) {
  if (!fc_args_ok(p, bias_fold) || !ta_fully_connected_fold_dsp_ok(p, q) || (p->out_depth & 3))
    return TA_ERR_ARG;
  fc_dsp(p, in, filter, 1, bias_fold, (q->mmla & TA_MMLA_SHARED) != 0, out);
  return TA_OK;
}

/* The portable path, TFLite's roundings. */
ta_status ta_fully_connected_fold_portable_s8(const ta_fc_params *p, const ta_quant *q,
                                              const int8_t *in, const int8_t *filter,
                                              const int32_t *bias_fold, int8_t *out) {
  if (!fc_args_ok(p, bias_fold) || q->rounding == TA_ROUND_ORT)
    return TA_ERR_ARG;
  fc_fixed(p, q, in, filter, bias_fold, out);
  return TA_OK;
}

/* The portable path, ONNX Runtime's rounding. */
ta_status ta_fully_connected_fold_ort_s8(const ta_fc_params *p, const ta_quant *q,
                                         const int8_t *in, const int8_t *filter,
                                         const int32_t *bias_fold, int8_t *out) {
  if (!fc_args_ok(p, bias_fold) || q->rounding != TA_ROUND_ORT)
    return TA_ERR_ARG;
  fc_ort(p, q, in, filter, bias_fold, out);
  return TA_OK;
}

/* The portable or the ONNX Runtime path, chosen per call (the filter
 * as the model has it, the folded bias). */
ta_status ta_fully_connected_fold_s8(const ta_fc_params *p, const ta_quant *q,
                                     const int8_t *in, const int8_t *filter,
                                     const int32_t *bias_fold, int8_t *out) {
  if (q->rounding == TA_ROUND_ORT)
    return ta_fully_connected_fold_ort_s8(p, q, in, filter, bias_fold, out);
  return ta_fully_connected_fold_portable_s8(p, q, in, filter, bias_fold, out);
}
