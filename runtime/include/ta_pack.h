/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_pack.h - the constants of the kernels' Arm DSP paths, laid out for
 * their loads: built on the host by the compiler (lower_nn.c), and by
 * code that calls those kernels itself.
 *
 * A filter of `rows` rows of `taps` int8 weights (OHWI flattened: one
 * row per output channel) is packed in blocks of G rows (the last block
 * may be smaller, g rows): for each group of four taps, the block's rows'
 * four bytes one after the other, so that one LDRD (G = 2) or LDM (G =
 * 4) loads a group of every row of the block; taps past `taps` up to K4
 * (taps rounded up to 4) are 0.  ta_conv2d_fold_dsp_s8 takes G = 2,
 * ta_fully_connected_fold_dsp_s8 G = 4.
 *
 * The requantization records replace the folded bias, per block of g
 * rows: the g biases, then per row three words: SMMLAR's multiplier M,
 * the addend c and the shift e, so that
 *
 *   out = SSAT8((SMMLAR(acc, M, c) + acc - [acc < 0]) >> e)
 *
 * is TFLite Micro's requantization of acc (MultiplyByQuantizedMultiplier,
 * double rounding) plus the output offset, exactly (ta_requant_mmla_make():
 * M = 2 mult mod 2^32, c = 2^(e-1) + off 2^e), for every sum the row can
 * have (|bias| + taps 2^14).  Rows whose requantization has one value v
 * over those sums (ta_requant_const()) get bias 0, zero weights, M 0, c =
 * 2 (v + off) + 1 and e = 1; rows whose offset does not fit but whose
 * requantization takes two values, one step (ta_requant_step()), get M 0
 * and that step's c and e.  4 words per row in all.
 */
#ifndef TA_PACK_H
#define TA_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "ta_fixedpoint.h"
#include "ta_types.h"

/* The packed filter's bytes: rows times taps rounded up to 4. */
TA_INLINE size_t ta_pack_size(int32_t rows, int32_t taps) {
  return (size_t)rows * (((size_t)taps + 3) & ~(size_t)3);
}

/* Whether row r of a filter computes a constant (its output is then
 * computed from a sum of 0). */
TA_INLINE int ta_pack_row_const(const ta_quant *q, const int32_t *bias, int32_t taps, int32_t r) {
  int32_t v;
  const int32_t k = q->per_channel ? r : 0;
  return ta_requant_const(bias[r], (uint32_t)taps << 14, q->multiplier[k], q->shift[k], &v);
}

/* filter (rows x taps) into dst (ta_pack_size() bytes) in blocks of G
 * rows; bias: the folded bias (rows of constant output are zeroed). */
TA_INLINE void ta_pack_rows_s8(const ta_quant *q, const int32_t *bias, const int8_t *filter,
                               int32_t rows, int32_t taps, int32_t G, int8_t *dst) {
  const int32_t K4 = (taps + 3) & ~3;
  for (int32_t r0 = 0; r0 < rows; r0 += G) {
    const int32_t g = rows - r0 < G ? rows - r0 : G;
    int8_t *d = dst + (size_t)r0 * (size_t)K4;
    for (int32_t j = 0; j < g; j++) {
      const int zero = ta_pack_row_const(q, bias, taps, r0 + j);
      const int8_t *w = filter + (size_t)(r0 + j) * (size_t)taps;
      for (int32_t k = 0; k < K4; k++)
        d[(k >> 2) * 4 * g + 4 * j + (k & 3)] = k < taps && !zero ? w[k] : 0;
    }
  }
}

/* A filter packed by ta_pack_rows_s8() in blocks of 2 rows (an even
 * number of rows, n = ta_pack_size() bytes) widened for
 * ta_conv2d_fold_wide_dsp_s8: per 8 bytes, a pair's 4 taps of each row
 * a0..a3 b0..b3, the int16 a0 a2 b0 b2 a1 a3 b1 b3 (what SXTB16 and
 * SXTB16 ROR #8 would make of the two words), n int16 in dst. */
TA_INLINE void ta_pack_wide_s8(const int8_t *packed, size_t n, int16_t *dst) {
  static const unsigned char from[8] = {0, 2, 4, 6, 1, 3, 5, 7};
  for (size_t i = 0; i + 8 <= n; i += 8)
    for (int k = 0; k < 8; k++)
      dst[i + (size_t)k] = packed[i + from[k]];
}

/* Row r's record: its bias (0 for a constant), M, c, e (see above);
 * 0 when it fits none of the forms. */
TA_INLINE int ta_pack_record_row(const ta_quant *q, int32_t r, const int32_t *bias, uint32_t dot,
                                 int32_t off, int32_t *out) {
  const int32_t k = q->per_channel ? r : 0, mult = q->multiplier[k], shift = q->shift[k];
  int32_t b = bias[r], m2 = 0, c, e = 1, v;
  if (ta_requant_const(b, dot, mult, shift, &v)) {
    b = 0;
    c = 2 * (v + off) + 1;
  } else if (ta_requant_step(b, dot, mult, shift, off, &c, &e)) {
    /* M 0: SMMLAR gives c, then c + acc - [acc < 0], shifted by e. */
  } else {
    const uint32_t bound = ta_sum_bound(b, dot);
    if (bound >= UINT32_C(0x80000000) || !ta_requant_mmla_ok(bound, mult, shift))
      return 0;
    const ta_requant_mmla m = ta_requant_mmla_make(mult, shift);
    /* As ta_requant_mmla_ok(): |the value before the shift| <= q1 + 2 +
     * 2^(e-1), now plus |off| 2^e. */
    const uint64_t q1 = ((uint64_t)bound * (uint32_t)mult) >> 31;
    const uint64_t aoff = (uint64_t)(off < 0 ? -off : off);
    if (q1 + 2 + ((uint64_t)1 << (m.e - 1)) + (aoff << m.e) >= UINT64_C(0x80000000))
      return 0;
    m2 = m.m2;
    c = (int32_t)((uint32_t)m.add + ((uint32_t)off << m.e));
    e = m.e;
  }
  out[0] = b;
  out[1] = m2;
  out[2] = c;
  out[3] = e;
  return 1;
}

/* Whether records can be made at all: double rounding, taps and the
 * offset in range. */
TA_INLINE int ta_pack_records_ok(const ta_quant *q, int32_t rows, int32_t taps, int32_t off) {
  return q->rounding == TA_ROUND_DOUBLE && taps >= 1 && taps < (1 << 16) && rows >= 1 &&
         off >= -128 && off <= 127;
}

/* The records (4 rows words, see above) of rows with folded bias `bias`,
 * `taps` products each, output offset off, blocks of G rows; the number
 * of words, or 0 when a row fits none of the forms (the DSP path cannot
 * take the op).  Double rounding only. */
TA_INLINE size_t ta_pack_records(const ta_quant *q, int32_t rows, const int32_t *bias,
                                 int32_t taps, int32_t off, int32_t G, int32_t *rec) {
  if (!ta_pack_records_ok(q, rows, taps, off))
    return 0;
  for (int32_t r0 = 0; r0 < rows; r0 += G) {
    const int32_t g = rows - r0 < G ? rows - r0 : G;
    int32_t *blk = rec + 4 * (size_t)r0;
    for (int32_t j = 0; j < g; j++) {
      int32_t one[4];
      if (!ta_pack_record_row(q, r0 + j, bias, (uint32_t)taps << 14, off, one))
        return 0;
      blk[j] = one[0];
      blk[g + 3 * j] = one[1];
      blk[g + 3 * j + 1] = one[2];
      blk[g + 3 * j + 2] = one[3];
    }
  }
  return 4 * (size_t)rows;
}

/* The records of FULLY_CONNECTED's DSP path: the rows' biases, then per
 * row its M, c, e, as above; or, when the quantization is per tensor
 * and every row has the same three (no constant or step rows), those
 * three once, *shared then set.  The number of words (4 rows, or
 * rows + 3), or 0 as ta_pack_records(). */
TA_INLINE size_t ta_pack_records_fc(const ta_quant *q, int32_t rows, const int32_t *bias,
                                    int32_t taps, int32_t off, int *shared, int32_t *rec) {
  if (!ta_pack_records_ok(q, rows, taps, off))
    return 0;
  int same = !q->per_channel;
  for (int32_t r = 0; r < rows; r++) {
    int32_t one[4];
    if (!ta_pack_record_row(q, r, bias, (uint32_t)taps << 14, off, one))
      return 0;
    rec[r] = one[0];
    for (int i = 0; i < 3; i++)
      rec[rows + 3 * r + i] = one[1 + i];
    same &= one[1] == rec[rows] && one[2] == rec[rows + 1] && one[3] == rec[rows + 2];
  }
  *shared = same;
  return same ? (size_t)rows + 3 : 4 * (size_t)rows;
}

/*
 * The records of the 3 x 3 depthwise DSP path (ta_depthwise_conv2d_fold_s8),
 * which doubles its weights and so its sums: per row (channel) the
 * doubled bias, SMMLAR's multiplier M, the addend c and the shift e, so
 * that for the doubled sum v = 2 acc
 *
 *   out = SSAT8((SMMLAR(v, M, c) - [v < 0]) >> e)
 *
 * is TFLite Micro's requantization of acc plus the output offset: M the
 * multiplier itself (SMMLAR of 2 acc is the rounding doubling product),
 * c = 2^(e-1) + off 2^e (ta_requant_mmla_doubled_fits()); a row of
 * constant output v: {0, 0, 2 (v + off) + 1, 1} (its weights are then
 * taken as 0: M 0 says so); a single step whose offset does not fit:
 * M = 2^31 - 1 (SMMLAR of 2 acc is then c + acc) and the step's c, e
 * (its sums within 2^30).  4 words per row; 0 when a row fits none.
 */
TA_INLINE size_t ta_pack_records_doubled(const ta_quant *q, int32_t rows, const int32_t *bias,
                                         int32_t taps, int32_t off, int32_t *rec) {
  if (q->rounding != TA_ROUND_DOUBLE || taps < 1 || taps >= (1 << 16) || rows < 1 ||
      off < -128 || off > 127)
    return 0;
  const uint32_t dot = (uint32_t)taps << 14;
  for (int32_t r = 0; r < rows; r++, rec += 4) {
    const int32_t k = q->per_channel ? r : 0, mult = q->multiplier[k], shift = q->shift[k];
    const int32_t b = bias[r];
    int32_t v, c, e;
    if (ta_requant_const(b, dot, mult, shift, &v)) {
      rec[0] = 0;
      rec[1] = 0;
      rec[2] = 2 * (v + off) + 1;
      rec[3] = 1;
    } else if (ta_requant_mmla_doubled_fits(b, dot, mult, shift, off)) {
      e = -shift;
      rec[0] = 2 * b;
      rec[1] = mult;
      rec[3] = e;
      rec[2] = (int32_t)(((uint32_t)1 << (e - 1)) + ((uint32_t)off << e));
    } else if (ta_sum_bound(b, dot) < UINT32_C(0x40000000) &&
               ta_requant_step(b, dot, mult, shift, off, &c, &e)) {
      rec[0] = 2 * b;
      rec[1] = INT32_MAX;
      rec[2] = c;
      rec[3] = e;
    } else {
      return 0;
    }
  }
  return 4 * (size_t)rows;
}

#endif
