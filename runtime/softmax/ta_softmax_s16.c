/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_softmax_s16 - int16 SOFTMAX (ta_kernels_s16.h).
 *
 * Matches tflite::reference_ops::SoftmaxInt16 (TFLite and TFLite Micro).
 * Per row of depth values, max = the largest input:
 *
 *   e[c]  = lut(clamp16(MBQM(in[c] - max, input_multiplier,
 *                            input_left_shift) + 32767), exp_lut)   Q0.15
 *   sum   = e[0] + ... + e[depth - 1]                               int32
 *   h     = CountLeadingZeros(sum)
 *   x     = (((int64) sum << (h - 1)) + 2^13) >> 14   (the sum in [1, 2)
 *           as Q1.16 ...) - 3 * 2^15, clamped to int16
 *   inv   = lut(x, one_over_one_plus_x_lut)              1 / sum, scaled
 *   out   = clamp(((int64) e[c] * inv + 2^(30 - h)) >> (31 - h), 0, 32767)
 *
 * lut(v, t): t[256 + (v >> 7)] plus the slope to the next entry times
 * the low 7 bits of v, rounded ((slope * (v & 127) + 64) >> 7).  Like
 * TFLite the exp values are kept in `out` between the two passes, so
 * the kernel may run in place.
 */
#include "ta_fixedpoint.h"
#include "ta_kernels.h"

/* LUTLookup / generic_int16_table_lookup: 512 intervals over the int16
 * range, entry 512 only for the last slope. */
static int16_t lut_lookup(int16_t v, const int16_t *lut) {
  const int index = 256 + (v >> 7); /* 0 .. 511 */
  const int16_t offset = (int16_t)(v & 0x7F);
  const int16_t base = lut[index];
  const int16_t slope = (int16_t)(lut[index + 1] - lut[index]);
  const int32_t delta = ((int32_t)slope * offset + 64) >> 7;
  return (int16_t)(base + delta);
}

static int16_t clamp16(int32_t v) {
  return (int16_t)(v < -32768 ? -32768 : v > 32767 ? 32767 : v);
}

ta_status ta_softmax_s16(const ta_softmax_s16_params *p, const int16_t *in, int16_t *out) {
  if (p->outer < 0 || p->depth < 1 || p->depth > 65536 || !p->exp_lut ||
      !p->one_over_one_plus_x_lut || p->input_left_shift < -31 || p->input_left_shift > 31)
    return TA_ERR_ARG;
  for (int32_t r = 0; r < p->outer; r++, in += p->depth, out += p->depth) {
    int16_t max = INT16_MIN;
    for (int32_t c = 0; c < p->depth; c++)
      max = in[c] > max ? in[c] : max;
    int32_t sum = 0; /* at most 65536 * 32767: no overflow */
    for (int32_t c = 0; c < p->depth; c++) {
      const int32_t scaled = ta_requant((int32_t)in[c] - max, p->input_multiplier,
                                        p->input_left_shift, TA_ROUND_DOUBLE);
      out[c] = lut_lookup(clamp16(ta_wrap_add(scaled, 32767)), p->exp_lut);
      sum += out[c];
    }
    if (sum <= 0) /* the largest input contributes exp(0): a bad table */
      return TA_ERR_ARG;
    const int h = ta_clz32((uint32_t)sum);
    const int32_t shifted =
        (int32_t)((((int64_t)sum << (h - 1)) + (1 << 13)) >> 14);
    const int16_t inv =
        lut_lookup(clamp16(shifted - ((1 << 15) + (1 << 16))), p->one_over_one_plus_x_lut);
    const int right = 31 - h;
    const int64_t round = (int64_t)1 << (right - 1);
    for (int32_t c = 0; c < p->depth; c++) {
      const int32_t v = (int32_t)(((int64_t)out[c] * inv + round) >> right);
      out[c] = (int16_t)(v < 0 ? 0 : v > 32767 ? 32767 : v);
    }
  }
  return TA_OK;
}
