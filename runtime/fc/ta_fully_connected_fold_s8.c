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
 * Arm DSP extension (ta_dsp.h): four rows at a time as well, four input
 * values per step widened once by two SXTB16 and shared by the rows,
 * each row's filter word widened by two more and two SMLADs: 23
 * instructions for 16 multiply-adds.
 *
 * Entry points: ta_fully_connected_fold_dsp_s8 (the DSP path; the
 * portable one on cores without the extension), _portable_s8 (TFLite's
 * roundings) and _ort_s8 (ONNX Runtime's float requantization) run one
 * path each and refuse the ops it does not take, so that a program links
 * only the paths its calls name: the compiler picks one per op
 * (ta_fully_connected_fold_dsp_ok()).  ta_fully_connected_fold_s8 picks
 * per call.
 */
#include "ta_dot_s8.h"
#include "ta_dsp.h"
#include "ta_fixedpoint.h"
#include "ta_kernels.h"

#if defined(TA_DSP)
/* acc[r] += filter row r (rows D apart, r = 0..3) . x, D values. */
TA_NOINLINE static void fc_dot4(const int8_t *x, const int8_t *w, int32_t D, int32_t acc[4]) {
  int32_t a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
  const int8_t *w2 = w + 2 * D;
  int32_t n = D >> 2;
#if defined(TA_DSP_GEMM_ASM)
  /* As the C below; the compiler keeps a pointer per row and spills. */
  uint32_t v, xe, xo, e;
#define FC_ROW(addr, acc)                                                  \
  "ldr    %[v], " addr "\n\t"                                              \
  "sxtb16 %[e], %[v]\n\t"                                                  \
  "smlad  %[" acc "], %[e], %[xe], %[" acc "]\n\t"                         \
  "sxtb16 %[e], %[v], ror #8\n\t"                                          \
  "smlad  %[" acc "], %[e], %[xo], %[" acc "]\n\t"
#define FC_STEP                                                            \
  "ldr    %[v], [%[x]], #4\n\t"                                            \
  "sxtb16 %[xe], %[v]\n\t"                                                 \
  "sxtb16 %[xo], %[v], ror #8\n\t"                                         \
  FC_ROW("[%[w], %[d]]", "a1") FC_ROW("[%[w2], %[d]]", "a3")               \
  FC_ROW("[%[w2]], #4", "a2") FC_ROW("[%[w]], #4", "a0")
#define FC_OPERANDS                                                        \
  : [a0] "+r"(a0), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [x] "+r"(x), \
    [w] "+r"(w), [w2] "+r"(w2), [n] "+r"(n), [v] "=&r"(v), [xe] "=&r"(xe), \
    [xo] "=&r"(xo), [e] "=&r"(e)                                           \
  : [d] "r"(D)                                                             \
  : "cc", "memory"
  const int32_t odd = n & 1;
  n >>= 1;
  if (n > 0)
    __asm__("1:\n\t" FC_STEP FC_STEP
            "subs   %[n], %[n], #1\n\t"
            "bne    1b" FC_OPERANDS);
  if (odd)
    __asm__(FC_STEP FC_OPERANDS);
#undef FC_ROW
#undef FC_STEP
#undef FC_OPERANDS
#else
  for (; n > 0; n--, x += 4, w += 4, w2 += 4) {
    const uint32_t xv = ta_ld32(x);
    const int32_t xe = ta_sxtb16_even(xv), xo = ta_sxtb16_odd(xv);
    uint32_t v = ta_ld32(w);
    a0 = __smlad(ta_sxtb16_even(v), xe, a0);
    a0 = __smlad(ta_sxtb16_odd(v), xo, a0);
    v = ta_ld32(w + D);
    a1 = __smlad(ta_sxtb16_even(v), xe, a1);
    a1 = __smlad(ta_sxtb16_odd(v), xo, a1);
    v = ta_ld32(w2);
    a2 = __smlad(ta_sxtb16_even(v), xe, a2);
    a2 = __smlad(ta_sxtb16_odd(v), xo, a2);
    v = ta_ld32(w2 + D);
    a3 = __smlad(ta_sxtb16_even(v), xe, a3);
    a3 = __smlad(ta_sxtb16_odd(v), xo, a3);
  }
#endif
  for (int32_t i = 0; i < (D & 3); i++) {
    const int32_t xv = x[i];
    a0 += w[i] * xv;
    a1 += w[D + i] * xv;
    a2 += w2[i] * xv;
    a3 += w2[D + i] * xv;
  }
  acc[0] = a0;
  acc[1] = a1;
  acc[2] = a2;
  acc[3] = a3;
}
#endif

/* The locals every path reads (the int8 output may alias the
 * parameters). */
#define FC_LOCALS                                                                    \
  const int32_t B = p->batches, D = p->in_depth, O = p->out_depth;                  \
  const int32_t *mult = q->multiplier, *shift = q->shift;                           \
  const int32_t step = q->per_channel ? 1 : 0, rounding = q->rounding;              \
  const int32_t out_off = p->output_offset, lo = p->act_min, hi = p->act_max;       \
  (void)rounding

#if defined(TA_DSP)
/* Four rows, then their four outputs requantized (ta_dsp_requant()),
 * saturated and clamped together and stored as one word; only where
 * ta_quant_rs_ok(). */
static void fc_dsp(const ta_fc_params *p, const ta_quant *q, const int8_t *in,
                   const int8_t *filter, const int32_t *bias_fold, int8_t *out) {
  FC_LOCALS;
  const uint32_t lo4 = ta_dsp_bytes4(lo), hi4 = ta_dsp_bytes4(hi);
  const int clamp = lo > -128 || hi < 127;
  for (int32_t b = 0; b < B; b++) {
    const int8_t *x = in + (size_t)b * D;
    int8_t *y = out + (size_t)b * O;
    int32_t o = 0;
    for (; o + 4 <= O; o += 4) {
      int32_t acc[4] = {bias_fold[o], bias_fold[o + 1], bias_fold[o + 2], bias_fold[o + 3]};
      fc_dot4(x, filter + (size_t)o * D, D, acc);
      ta_dsp_rq r = ta_dsp_rq_make(mult[o * step], shift[o * step], out_off);
      const int32_t y0 = ta_dsp_requant(acc[0], &r);
      if (step)
        r = ta_dsp_rq_make(mult[o + 1], shift[o + 1], out_off);
      const int32_t y1 = ta_dsp_requant(acc[1], &r);
      if (step)
        r = ta_dsp_rq_make(mult[o + 2], shift[o + 2], out_off);
      const int32_t y2 = ta_dsp_requant(acc[2], &r);
      if (step)
        r = ta_dsp_rq_make(mult[o + 3], shift[o + 3], out_off);
      uint32_t v = ta_dsp_sat4(y0, y1, y2, ta_dsp_requant(acc[3], &r));
      if (clamp)
        v = ta_dsp_clamp4(v, lo4, hi4);
      ta_st32(y + o, v);
    }
    for (; o < O; o++) {
      const ta_dsp_rq r = ta_dsp_rq_make(mult[o * step], shift[o * step], out_off);
      const int32_t v =
          ta_dsp_requant(bias_fold[o] + ta_dot1_s8(x, filter + (size_t)o * D, D), &r);
      y[o] = (int8_t)(v < lo ? lo : v > hi ? hi : v);
    }
  }
}
#endif

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
  return ta_quant_rs_ok(q, p->out_depth);
}

/* The DSP path where the core has one (TA_ERR_ARG for an op it does not
 * take), the portable path elsewhere. */
ta_status ta_fully_connected_fold_dsp_s8(const ta_fc_params *p, const ta_quant *q,
                                         const int8_t *in, const int8_t *filter,
                                         const int32_t *bias_fold, int8_t *out) {
  if (!fc_args_ok(p, bias_fold) || !ta_quant_rs_ok(q, p->out_depth))
    return TA_ERR_ARG;
#if defined(TA_DSP)
  fc_dsp(p, q, in, filter, bias_fold, out);
#else
  fc_fixed(p, q, in, filter, bias_fold, out);
#endif
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

/* Every path, chosen per call: the entry point above that takes the op. */
ta_status ta_fully_connected_fold_s8(const ta_fc_params *p, const ta_quant *q,
                                     const int8_t *in, const int8_t *filter,
                                     const int32_t *bias_fold, int8_t *out) {
#if defined(TA_DSP)
  if (ta_fully_connected_fold_dsp_ok(p, q))
    return ta_fully_connected_fold_dsp_s8(p, q, in, filter, bias_fold, out);
#endif
  if (q->rounding == TA_ROUND_ORT)
    return ta_fully_connected_fold_ort_s8(p, q, in, filter, bias_fold, out);
  return ta_fully_connected_fold_portable_s8(p, q, in, filter, bias_fold, out);
}
