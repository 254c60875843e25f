/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Tests of FULLY_CONNECTED, the pools, ADD, SOFTMAX, QUANTIZE,
 * DEQUANTIZE and uint8 MEAN kernels, and the int8 LSTM's two paths: hand-computed edge cases, values from TFLite's unit
 * tests, and random cases against ref.h's transliterations of TFLite's
 * reference loops.  Outputs sit between canary bytes.
 *
 * Provenance of tabled values:
 *  [SM] tflite-micro tensorflow/lite/micro/kernels/softmax_test.cc:
 *       input_data_3d / golden_3d (beta 1; int8 input at scale 0.1; TFLM
 *       accepts an int8 output within 1 step of the quantized golden).
 */
#include "test.h"
#include "ta_kernels.h"
#include "ta_kernels_rnn.h"
#include "ta_pack.h"
#include "tinyaot.h"
#include "lower.h" /* mul_params() */
#include "ref.h"

#include <math.h>

/* ----------------------------------------------------- FULLY_CONNECTED */

/* Output rows of the random cases: past the DSP path's 32 rows per call
 * when the input's length is no multiple of 4. */
#define FC_MAX_O 72

static void test_fc_random(void) {
  int bad = 0, n = 300, dsp_entries = 0, shared_cases = 0, wide_entries = 0;
  for (int k = 0; k < n; k++) {
    ta_fc_params p;
    memset(&p, 0, sizeof p);
    const int dsp = k & 1;
    p.batches = ref_rand(1, 3);
    p.in_depth = dsp && ref_rand(0, 3) ? 4 * ref_rand(1, 18) : ref_rand(1, 70);
    p.out_depth = ref_rand(0, 5) ? ref_rand(1, 13) : ref_rand(14, FC_MAX_O);
    p.input_offset = ref_rand(-127, 128);
    int fold = ref_rand(0, 1);
    p.filter_offset = fold ? 0 : (ref_rand(0, 2) == 0 ? ref_rand(-127, 128) : 0);
    p.output_offset = ref_rand(-128, 127);
    p.act_min = ref_rand(-128, 0);
    p.act_max = ref_rand(p.act_min, 127);
    /* Every other case in the form of the Arm DSP path (double
     * rounding, right shifts, some dead channels, inputs mostly a
     * multiple of 4). */
    int rounding = dsp ? TA_ROUND_DOUBLE : ref_rand(0, 1), per_channel = ref_rand(0, 1);
    int32_t mult[FC_MAX_O], shift[FC_MAX_O], bias[FC_MAX_O], bf[FC_MAX_O];
    for (int i = 0; i < FC_MAX_O; i++) {
      mult[i] = (int32_t)((1u << 30) + (ref_next() & 0x3fffffffu));
      shift[i] = dsp ? ref_rand(-31, -1) : ref_rand(-14, rounding ? 0 : 2);
      if (dsp && ref_rand(0, 9) == 0)
        mult[i] = shift[i] = 0;
      bias[i] = ref_rand(-30000, 30000);
    }
    ta_quant q = {mult, shift, per_channel, rounding, 0};
    size_t ni = (size_t)p.batches * p.in_depth, nw = (size_t)p.out_depth * p.in_depth;
    size_t no = (size_t)p.batches * p.out_depth;
    int8_t *in = canary_alloc(ni), *w = canary_alloc(nw), *out = canary_alloc(no);
    int8_t *expect = malloc(no);
    ref_fill_s8(in, ni);
    ref_fill_s8(w, nw);
    int with_bias = ref_rand(0, 3) != 0;
    ref_fc_s8(&p, &q, in, w, with_bias ? bias : NULL, expect);
    ta_status st;
    if (fold) {
      fold_bias_s8(w, p.out_depth, p.in_depth, with_bias ? bias : NULL, p.input_offset, bf);
      st = ta_fully_connected_fold_s8(&p, &q, in, w, bf, out);
      /* And through the entry point of the one path the compiler picks
       * for the op (lower_nn.c): the DSP one with the filter packed and
       * the records (ta_pack.h, blocks of 4 rows) where they fit; the
       * same bytes. */
      int32_t rec[4 * FC_MAX_O];
      int8_t *packed = canary_alloc(ta_pack_size(p.out_depth, p.in_depth));
      int shared = 0;
      if (rounding == TA_ROUND_DOUBLE &&
          ta_pack_records_fc(&q, p.out_depth, bf, p.in_depth, p.output_offset, &shared, rec)) {
        q.mmla = (uint16_t)(1 | TA_MMLA_RECORDS | (shared ? TA_MMLA_SHARED : 0));
        shared_cases += shared;
        ta_pack_rows_s8(&q, bf, w, p.out_depth, p.in_depth, 4, packed);
      }
      const int dsp_path = ta_fully_connected_fold_dsp_ok(&p, &q);
      dsp_entries += dsp_path;
      int8_t *o2 = canary_alloc(no);
      ta_status st2 = dsp_path
                          ? ta_fully_connected_fold_dsp_s8(&p, &q, in, packed, rec, o2)
                          : ta_fully_connected_fold_portable_s8(&p, &q, in, w, bf, o2);
      if (st == TA_OK && (st2 != TA_OK || memcmp(o2, out, no) || !canary_ok(o2, no) ||
                          !canary_ok(packed, ta_pack_size(p.out_depth, p.in_depth))))
        st = TA_ERR_ARG; /* reported as a mismatch below */
      /* And the wide entry (--optimize speed) over that filter widened
       * to int16 (ta_pack_wide_s8()): the same bytes for a multiple of 4
       * rows, TA_ERR_ARG for any other number. */
      if (dsp_path) {
        const size_t nw16 = ta_pack_size(p.out_depth, p.in_depth);
        int16_t *wide = (int16_t *)canary_alloc(nw16 * sizeof(int16_t));
        ta_pack_wide_s8(packed, nw16, wide);
        memset(o2, 0x5a, no);
        ta_status sw = ta_fully_connected_fold_wide_dsp_s8(&p, &q, in, wide, rec, o2);
        if (p.out_depth & 3) {
          if (sw != TA_ERR_ARG)
            st = TA_ERR_ARG;
        } else {
          wide_entries++;
          if (st == TA_OK && (sw != TA_OK || memcmp(o2, out, no) || !canary_ok(o2, no)))
            st = TA_ERR_ARG;
        }
        canary_free(wide);
      }
      canary_free(o2);
      canary_free(packed);
    } else {
      st = ta_fully_connected_s8(&p, &q, in, w, with_bias ? bias : NULL, out);
    }
    long d = first_diff(out, expect, no);
    if (st != TA_OK || d >= 0 || !canary_ok(out, no)) {
      if (!bad)
        CHECK(0, "FC random case %d (%s, %dx%d -> %d) matches the reference: index %ld", k,
              fold ? "folded" : "reference form", p.batches, p.in_depth, p.out_depth, d);
      bad++;
    }
    canary_free(in);
    canary_free(w);
    canary_free(out);
    free(expect);
  }
  CHECK(bad == 0, "%d random FULLY_CONNECTED cases (filter offsets, per-channel, both "
                  "roundings, both forms) match TFLite's reference loop",
        n);
  CHECK(dsp_entries > n / 8 && shared_cases > 0,
        "%d of them ran through ta_fully_connected_fold_dsp_s8 too, %d with one "
        "requantization record for all rows (TA_MMLA_SHARED)",
        dsp_entries, shared_cases);
  CHECK(wide_entries > n / 40,
        "%d of them (a multiple of 4 rows) through ta_fully_connected_fold_wide_dsp_s8 "
        "with the filter widened to int16, the others refused",
        wide_entries);
  ta_fc_params p = {1, 2, 1, 0, 3, 0, -128, 127, 0, 0};
  int32_t m = 1 << 30, s = 0, b = 0;
  ta_quant q = {&m, &s, 0, 0, 0};
  int8_t buf[4] = {0};
  CHECK(ta_fully_connected_fold_s8(&p, &q, buf, buf, &b, buf) == TA_ERR_ARG,
        "the folded FULLY_CONNECTED refuses a filter zero point");
}

/* --------------------------------------------------------------- pools */

static void test_pool_random(void) {
  int bad = 0, n = 300;
  for (int k = 0; k < n; k++) {
    ta_pool_params p;
    ta_dims id, od;
    if (!ref_random_pool(&p, &id, &od, -128, 127))
      continue;
    size_t ni = (size_t)id.n * id.h * id.w * id.c, no = (size_t)od.n * od.h * od.w * od.c;
    int8_t *in = canary_alloc(ni), *out = canary_alloc(no), *expect = malloc(no);
    ref_fill_s8(in, ni);
    for (int avg = 0; avg < 2; avg++) {
      ref_pool_s8(avg, &p, &id, in, &od, expect);
      ta_status st = avg ? ta_avg_pool2d_s8(&p, &id, in, &od, out)
                         : ta_max_pool2d_s8(&p, &id, in, &od, out);
      long d = first_diff(out, expect, no);
      if (st != TA_OK || d >= 0 || !canary_ok(out, no)) {
        if (!bad)
          CHECK(0, "%s pool random case %d matches the reference: index %ld",
                avg ? "average" : "max", k, d);
        bad++;
      }
    }
    canary_free(in);
    canary_free(out);
    free(expect);
  }
  CHECK(bad == 0, "random AVERAGE_POOL_2D and MAX_POOL_2D cases with SAME/VALID padding "
                  "match TFLite's reference loops");
  /* The DSP path's own forms: whole 3 x 3 windows and one-tap windows,
   * channels a multiple of 4, with and without a clamp. */
  int bad_dsp = 0, dsp_cases = 0;
  const int forms[4][4] = {{3, 1, PAD_SAME}, {3, 2, PAD_VALID}, {3, 2, PAD_SAME}, {1, 2, PAD_VALID}};
  for (int f = 0; f < 4; f++)
    for (int32_t c = 4; c <= 12; c += 8)
      for (int clampk = 0; clampk < 2; clampk++) {
        ta_pool_params pp = {0};
        ta_dims pi = {1, 9, 8, c}, po = {1, 0, 0, c};
        pp.filter_h = pp.filter_w = forms[f][0];
        pp.stride_h = pp.stride_w = forms[f][1];
        compute_padding((Padding)forms[f][2], pi.h, pp.filter_h, pp.stride_h, 1, &po.h, &pp.pad_h);
        compute_padding((Padding)forms[f][2], pi.w, pp.filter_w, pp.stride_w, 1, &po.w, &pp.pad_w);
        pp.act_min = clampk ? -20 : -128;
        pp.act_max = clampk ? 50 : 127;
        size_t ni = (size_t)pi.h * pi.w * c, no = (size_t)po.h * po.w * c;
        int8_t *pin = canary_alloc(ni), *pout = canary_alloc(no), *want = malloc(no);
        ref_fill_s8(pin, ni);
        ref_pool_s8(0, &pp, &pi, pin, &po, want);
        ta_status st = ta_max_pool2d_s8(&pp, &pi, pin, &po, pout);
        if (st != TA_OK || first_diff(pout, want, no) >= 0 || !canary_ok(pout, no))
          bad_dsp++;
        dsp_cases++;
        canary_free(pin);
        canary_free(pout);
        free(want);
      }
  CHECK(bad_dsp == 0, "%d int8 MAX_POOL_2D cases of 3 x 3 (stride 1 and 2, SAME and VALID) and "
                      "1 x 1 stride 2 windows over 4 and 12 channels, with and without a clamp, "
                      "match TFLite's reference loop (%d differ)",
        dsp_cases, bad_dsp);
  /* Rounding of the average: -3 and -4 in a 1x2 window average to -3.5,
   * which TFLite rounds away from zero (-4); 3 and 4 give 4; -1, -2, 0
   * give -1 (-1 rounds -3/3 = -1). */
  const int8_t in[7] = {-3, -4, 3, 4, -1, -2, 0};
  ta_pool_params p = {1, 2, 1, 2, 0, 0, -128, 127, 0, 0};
  ta_dims id = {1, 1, 2, 1}, od = {1, 1, 1, 1};
  int8_t o1, o2, o3;
  ta_avg_pool2d_s8(&p, &id, in, &od, &o1);
  ta_avg_pool2d_s8(&p, &id, in + 2, &od, &o2);
  ta_pool_params p3 = {1, 3, 1, 3, 0, 0, -128, 127, 0, 0};
  ta_dims id3 = {1, 1, 3, 1};
  ta_avg_pool2d_s8(&p3, &id3, in + 4, &od, &o3);
  CHECK(o1 == -4 && o2 == 4 && o3 == -1,
        "the int8 average rounds half away from zero (-3.5 -> -4, 3.5 -> 4, -1 -> -1): got "
        "%d %d %d",
        o1, o2, o3);
  ta_pool_params pz = {1, 1, 1, 1, 5, 5, -128, 127, 0, 0};
  CHECK(ta_avg_pool2d_s8(&pz, &id, in, &od, &o1) == TA_ERR_ARG,
        "a window entirely in the padding is TA_ERR_ARG, as TFLite fails there");
}

/* ----------------------------------------------------------------- ADD */

/* MulElementwise: the product of the offset inputs, requantized (for
 * ref_broadcast_s8()). */
static int8_t ref_mul_f(int8_t x, int8_t y, const void *v) {
  const ta_mul_params *p = (const ta_mul_params *)v;
  const int32_t prod = (x + p->input1_offset) * (y + p->input2_offset);
  return (int8_t)ref_clamp(ref_mbqm(prod, p->multiplier, p->shift, p->rounding) +
                               p->output_offset,
                           p->act_min, p->act_max);
}

/* The tabled ADD (ta_add_s8, and ta_add_table_s8's 32-bit rows) on every
 * pair of input bytes, with output shifts of 1..4 so that the rounding
 * ties of SRDHM and RoundingDivideByPOT (which random scales almost never
 * reach) come up thousands of times, positive and negative; against
 * AddFunc.  Input terms of about x + offset (shift 19 after the left
 * shift of 20), output offsets of both signs, RELU-like clamps. */
static void test_add_tabled_ties(void) {
  enum { N = 256 * 256 };
  int8_t *a = malloc(N), *c = malloc(N), *out = malloc(N), *expect = malloc(N);
  int32_t t1[256], t2[256];
  int bad = 0, cases = 0;
  for (int i = 0; i < N; i++) {
    a[i] = (int8_t)(i & 255);
    c[i] = (int8_t)(i >> 8);
  }
  const int32_t shape[1] = {N};
  ta_bcast b;
  CHECK(make_broadcast(shape, 1, shape, 1, &b, NULL, NULL), "make_broadcast of [65536] twice");
  for (int e = 1; e <= 4; e++)
    for (int k = 0; k < 3; k++) {
      ta_add_params p;
      memset(&p, 0, sizeof p);
      p.input1_offset = k == 0 ? 128 : k == 1 ? -127 : 3;
      p.input2_offset = k == 0 ? -128 : k == 1 ? 0 : 127;
      p.output_offset = k == 0 ? -128 : k == 1 ? 5 : 127;
      p.left_shift = 20;
      p.input1_multiplier = 1073741824 + 12345 * k;
      p.input1_shift = -19;
      p.input2_multiplier = 2147483647 - 999 * k;
      p.input2_shift = -20;
      p.output_multiplier = 1073741824 + (k == 2 ? 1 << 28 : 0);
      p.output_shift = -e;
      p.act_min = k == 1 ? -100 : -128;
      p.act_max = k == 1 ? 100 : 127;
      p.rounding = TA_ROUND_DOUBLE;
      add_tables(&p, t1, t2);
      p.table1 = t1;
      p.table2 = t2;
      ref_add_s8(&p, 1, shape, shape, a, c, expect);
      ta_status st = ta_add_s8(&p, &b, a, c, out);
      if (st == TA_OK && first_diff(out, expect, N) < 0) {
        memset(out, 0, N);
        st = ta_add_table_ok(&p) ? ta_add_table_s8(&p, &b, a, c, out) : TA_ERR_ARG;
      }
      cases++;
      if (st != TA_OK || first_diff(out, expect, N) >= 0) {
        if (!bad)
          CHECK(0, "tabled ADD, output shift -%d, offsets case %d: index %ld", e, k,
                first_diff(out, expect, N));
        bad++;
      }
    }
  CHECK(!bad, "the tabled int8 ADD (ta_add_s8 and ta_add_table_s8) equals AddFunc on all 65,536 "
              "input pairs for %d parameter sets with output shifts -1..-4 (rounding ties of "
              "both signs)", cases);
  free(a);
  free(c);
  free(out);
  free(expect);
}

static void test_add_random(void) {
  int bad = 0, bad_sub = 0, bad_mul = 0, mul_cases = 0, mul_double = 0, double_cases = 0;
  int table_cases = 0;
  const int n = 300;
  for (int k = 0; k < n; k++) {
    int rank = ref_rand(1, 6);
    int32_t so[6], s1[6], s2[6];
    size_t n1 = 1, n2 = 1, no = 1;
    for (int d = 0; d < rank; d++) {
      so[d] = ref_rand(1, 5);
      s1[d] = ref_rand(0, 2) == 0 ? 1 : so[d];
      s2[d] = ref_rand(0, 2) == 0 ? 1 : so[d];
      if (s1[d] == 1 && s2[d] == 1)
        so[d] = 1;
      n1 *= s1[d];
      n2 *= s2[d];
      no *= so[d];
    }
    /* The second input may have lower rank (numpy alignment). */
    int drop = ref_rand(0, rank - 1);
    int all_one = 1;
    for (int d = 0; d < drop; d++)
      all_one &= s2[d] == 1;
    if (!all_one)
      drop = 0;
    ta_bcast b;
    if (!make_broadcast(s1, rank, s2 + drop, rank - drop, &b, NULL, NULL)) {
      CHECK(0, "random ADD case %d: make_broadcast accepts broadcastable shapes", k);
      return;
    }
    ta_add_params p;
    float sc1 = 0.01f + (ref_next() % 1000) / 10000.0f, sc2 = 0.01f + (ref_next() % 1000) / 10000.0f;
    float sco = 0.01f + (ref_next() % 1000) / 5000.0f;
    int rounding = ref_rand(0, 1);
    Activation act = ref_rand(0, 3) == 0 ? ACT_RELU6 : ACT_NONE;
    if (!add_params(sc1, ref_rand(-128, 127), sc2, ref_rand(-128, 127), sco, ref_rand(-128, 127),
                    DT_INT8, act, rounding, &p))
      continue;
    int8_t *a = canary_alloc(n1), *c = canary_alloc(n2), *out = canary_alloc(no);
    int8_t *expect = malloc(no);
    ref_fill_s8(a, n1);
    ref_fill_s8(c, n2);
    ref_add_s8(&p, rank, s1, s2, a, c, expect);
    ta_status st = ta_add_s8(&p, &b, a, c, out);
    long d = first_diff(out, expect, no);
    if (d < 0 && st == TA_OK && ta_add_double_ok(&p)) { /* the 32-bit entry */
      double_cases++;
      memset(out, 0, no);
      st = ta_add_double_s8(&p, &b, a, c, out);
      d = first_diff(out, expect, no);
    }
    if (d < 0 && st == TA_OK) { /* and again through the input tables */
      int32_t t1[256], t2[256];
      add_tables(&p, t1, t2);
      p.table1 = t1;
      p.table2 = t2;
      memset(out, 0, no);
      st = ta_add_s8(&p, &b, a, c, out);
      d = first_diff(out, expect, no);
      if (d < 0 && st == TA_OK && ta_add_table_ok(&p)) { /* the 32-bit entry */
        table_cases++;
        memset(out, 0, no);
        st = ta_add_table_s8(&p, &b, a, c, out);
        d = first_diff(out, expect, no);
      }
    }
    if (st != TA_OK || d >= 0 || !canary_ok(out, no)) {
      if (!bad)
        CHECK(0, "ADD random case %d (rank %d) matches the reference: index %ld expected %d "
                 "actual %d",
              k, rank, d, d >= 0 ? expect[d] : 0, d >= 0 ? out[d] : 0);
      bad++;
    }
    /* MUL of the same inputs (MulElementwise), scales from the
     * compiler's mul_params(): left and right shifts, both roundings. */
    {
      ta_mul_params mp;
      const float sm = sc1 * sc2 * (0.2f + (ref_next() % 1000) / 100.0f);
      if (mul_params(sc1, ref_rand(-128, 127), sc2, ref_rand(-128, 127), sm, ref_rand(-128, 127),
                     DT_INT8, act, false, rounding, &mp)) {
        ref_broadcast_s8(rank, s1, s2, a, c, expect, ref_mul_f, &mp);
        memset(out, 0, no);
        st = ta_mul_s8(&mp, &b, a, c, out);
        d = first_diff(out, expect, no);
        if (d < 0 && st == TA_OK && ta_mul_double_ok(&mp)) { /* the 32-bit entry */
          mul_double++;
          memset(out, 0, no);
          st = ta_mul_double_s8(&mp, &b, a, c, out);
          d = first_diff(out, expect, no);
        }
        mul_cases++;
        if (st != TA_OK || d >= 0 || !canary_ok(out, no)) {
          if (!bad_mul)
            CHECK(0, "MUL random case %d (rank %d, shift %d) matches the reference: index %ld",
                  k, rank, (int)mp.shift, d);
          bad_mul++;
        }
      }
    }
    /* SUB with the same parameters (TFLite's SubFunc: the same scaling,
     * the difference), without tables. */
    p.table1 = p.table2 = NULL;
    ref_add_sub_s8(&p, rank, s1, s2, a, c, expect, 1);
    memset(out, 0, no);
    st = ta_sub_s8(&p, &b, a, c, out);
    d = first_diff(out, expect, no);
    if (d < 0 && st == TA_OK && ta_add_double_ok(&p)) { /* the 32-bit entry */
      memset(out, 0, no);
      st = ta_sub_double_s8(&p, &b, a, c, out);
      d = first_diff(out, expect, no);
    }
    if (st != TA_OK || d >= 0 || !canary_ok(out, no)) {
      if (!bad_sub)
        CHECK(0, "SUB random case %d (rank %d) matches the reference: index %ld expected %d "
                 "actual %d",
              k, rank, d, d >= 0 ? expect[d] : 0, d >= 0 ? out[d] : 0);
      bad_sub++;
    }
    canary_free(a);
    canary_free(c);
    canary_free(out);
    free(expect);
  }
  CHECK(bad == 0, "%d random broadcasting ADDs up to rank 6 (both roundings, with and without input "
                  "tables) match TFLite's AddFunc over numpy broadcasting",
        n);
  CHECK(bad_sub == 0, "%d random broadcasting int8 SUBs with the same parameters match "
                      "TFLite's SubFunc",
        n);
  CHECK(double_cases > n / 4, "%d of the ADDs and SUBs (double rounding) also through "
                              "ta_add_double_s8 and ta_sub_double_s8",
        double_cases);
  CHECK(table_cases > n / 4, "%d of the ADDs with tables also through ta_add_table_s8",
        table_cases);
  CHECK(bad_mul == 0 && mul_cases > n / 2 && mul_double > n / 4,
        "%d random broadcasting int8 MULs of the same inputs match TFLite's MulElementwise, "
        "%d of them also through ta_mul_double_s8",
        mul_cases, mul_double);
  /* Float: [2,1] + [3] broadcasts to [2,3] with RELU6. */
  const float x[2] = {1.0f, 5.5f}, y[3] = {-2.0f, 0.25f, 1.0f};
  const float expect[6] = {0.0f, 1.25f, 2.0f, 3.5f, 5.75f, 6.0f};
  const int32_t sx[2] = {2, 1}, sy[1] = {3};
  ta_bcast b;
  ta_add_params p;
  memset(&p, 0, sizeof p);
  activation_range_float(ACT_RELU6, &p.act_min_f32, &p.act_max_f32);
  make_broadcast(sx, 2, sy, 1, &b, NULL, NULL);
  float *out = canary_alloc(sizeof expect);
  ta_add_f32(&p, &b, x, y, out);
  CHECK(first_diff(out, expect, sizeof expect) < 0 && canary_ok(out, sizeof expect),
        "float ADD of [2,1] + [3] with RELU6 is {0, 1.25, 2, 3.5, 5.75, 6}");
  canary_free(out);
}

/* ------------------------------------------------------------- SOFTMAX */

static const float sm_in[60] = {
    3, 6, -5, 4, -9, -10, -10, -8, 2, 2, 8, -5, -8, 5, -6, -8, 6, 1, -10, -8,
    7, 6, -10, -4, -5, 2, 7, 9, -9, 7, -4, -2, 8, 2, 2, 3, 6, 6, 2, 4,
    9, 7, -7, 0, 4, -3, 8, 8, -3, -4, -9, -9, 4, -8, -1, -10, -2, 6, -7, 0};
static const float sm_golden[60] = {
    0.042009463, 0.843782625, 0.000014093, 0.114193561, 0.000000258, 0.000003072, 0.000003072,
    0.000022699, 0.499985578, 0.499985578, 0.952571219, 0.000002153, 0.000000107, 0.047425728,
    0.000000792, 0.000000826, 0.993305397, 0.006692839, 0.000000112, 0.000000826, 0.731046347,
    0.268936922, 0.000000030, 0.000012210, 0.000004492, 0.000717124, 0.106430599, 0.786421666,
    0.000000012, 0.106430599, 0.000006114, 0.000045174, 0.995015917, 0.002466398, 0.002466398,
    0.022595176, 0.453836234, 0.453836234, 0.008312301, 0.061420055, 0.875505904, 0.118486839,
    0.000000099, 0.000108046, 0.005899112, 0.000008351, 0.499990113, 0.499990113, 0.000008351,
    0.000003072, 0.000002245, 0.000002245, 0.993296627, 0.000006103, 0.006692780, 0.000000112,
    0.000334520, 0.997191323, 0.000002254, 0.002471790};

static void test_softmax(void) {
  int8_t in[60], out8[60];
  int16_t out16[60];
  for (int i = 0; i < 60; i++)
    in[i] = (int8_t)lrintf(sm_in[i] / 0.1f);
  ta_softmax_params p;
  softmax_params(1.0f, 0.1f, TA_ROUND_DOUBLE, &p);
  p.outer = 12;
  p.depth = 5;
  int8_t *o = canary_alloc(60);
  ta_softmax_s8(&p, in, o);
  int worst = 0;
  for (int i = 0; i < 60; i++) {
    int g = (int)lrintf(sm_golden[i] * 256.0f) - 128;
    g = g > 127 ? 127 : g;
    int d = abs(o[i] - g);
    worst = d > worst ? d : worst;
  }
  CHECK(worst <= 1 && canary_ok(o, 60),
        "[SM] int8 softmax of the 3-D test data is within TFLM's tolerance of 1 (worst %d)",
        worst);
  memcpy(out8, o, 60);
  /* With the exp table: the same bytes. */
  int32_t table[256];
  softmax_exp_table(&p, table);
  p.exp_table = table;
  ta_softmax_s8(&p, in, o);
  CHECK(first_diff(o, out8, 60) < 0, "the exp table gives the same int8 softmax bytes");
  /* In place. */
  memcpy(o, in, 60);
  ta_softmax_s8(&p, o, o);
  CHECK(first_diff(o, out8, 60) < 0, "softmax in place gives the same bytes");
  canary_free(o);
  /* int16 output (scale 1/65536, zero point -32768). */
  int16_t *o16 = canary_alloc(120);
  p.exp_table = NULL;
  ta_softmax_s8_s16(&p, in, o16);
  memcpy(out16, o16, 120);
  int worst16 = 0;
  for (int i = 0; i < 60; i++) {
    long g = lrint(sm_golden[i] * 65536.0) - 32768;
    g = g > 32767 ? 32767 : g;
    long d = labs(o16[i] - g);
    worst16 = d > worst16 ? (int)d : worst16;
  }
  p.exp_table = table;
  ta_softmax_s8_s16(&p, in, o16);
  CHECK(worst16 <= 128 && canary_ok(o16, 120) && first_diff(o16, out16, 120) < 0,
        "int8 -> int16 softmax is within 128 steps of 1/65536 of the float golden, table or not "
        "(worst %d)",
        worst16);
  canary_free(o16);
  /* Saturated rows: one element far above the others takes everything. */
  const int8_t hot[4] = {127, -128, -128, -128};
  int8_t ho[4];
  p.exp_table = NULL;
  p.outer = 1;
  p.depth = 4;
  ta_softmax_s8(&p, hot, ho);
  CHECK(ho[0] == 127 && ho[1] == -128 && ho[2] == -128 && ho[3] == -128,
        "a dominant element saturates to 127 and the rest to -128");
  /* Float: [SM] golden within 1e-5. */
  float fo[60];
  ta_softmax_params pf = {12, 5, 0, 0, 0, 0, NULL, 1.0f};
  ta_softmax_f32(&pf, sm_in, fo);
  float fw = 0;
  for (int i = 0; i < 60; i++)
    fw = fabsf(fo[i] - sm_golden[i]) > fw ? fabsf(fo[i] - sm_golden[i]) : fw;
  CHECK(fw < 1e-5f, "[SM] float softmax of the 3-D test data is within 1e-5 (worst %g)", fw);
}

/* ------------------------------------------------ QUANTIZE / DEQUANTIZE */

static void test_quantize(void) {
  /* float -> int8 at scale 0.5, zero point -1: round half away from zero. */
  const float x[8] = {0.25f, -0.25f, 0.75f, -0.75f, 100.0f, -100.0f, 1e30f, -1e30f};
  const int8_t ex[8] = {0, -2, 1, -3, 127, -128, 127, -128};
  ta_affine_params ap = {8, 0.5f, -1};
  int8_t *o = canary_alloc(8);
  ta_quantize_f32_s8(&ap, x, o);
  long d = first_diff(o, ex, 8);
  CHECK(d < 0 && canary_ok(o, 8),
        "QUANTIZE float -> int8 rounds half away from zero and saturates (index %ld)", d);
  canary_free(o);
  int16_t o16[3];
  const float x16[3] = {1.0f, -1.0f, 1000.0f};
  ta_affine_params ap16 = {3, 1.0f / 4096, 0};
  ta_quantize_f32_s16(&ap16, x16, o16);
  CHECK(o16[0] == 4096 && o16[1] == -4096 && o16[2] == 32767, "QUANTIZE float -> int16");
  /* x / scale = 28149.4998861... in double but rounds to 28149.5f in
   * float: TFLite Micro (float division) gives 28150, TFLite's int16
   * QUANTIZE (double division) 28149.  Values from a TFLite oracle case
   * (tests/ops QUANTIZE float32_int16, seed 7 case 26: TFLite gives 28149). */
  {
    const float xv = 0x1.e2be16p-1f, sv = 0x1.18f92p-15f; /* 0.942856491, 3.34946089e-05 */
    ta_affine_params pq = {1, sv, 0};
    int16_t of, od;
    ta_quantize_f32_s16(&pq, &xv, &of);
    ta_quantize_double_f32_s16(&pq, &xv, &od);
    CHECK(of == 28150 && od == 28149,
          "QUANTIZE float -> int16 divides in float (TFLite Micro: 28150, got %d), "
          "ta_quantize_double_f32_s16 in double (TFLite: 28149, got %d)",
          of, od);
  }
  /* Rounding without roundf: x / 1 around every half (k + 0.5 and its
   * float neighbours) and random values, against roundf itself. */
  {
    enum { NQ = 4096 };
    float *xq = malloc(NQ * sizeof(float));
    int16_t *oq = malloc(NQ * sizeof(int16_t));
    for (int i = 0; i < NQ; i++) {
      const float h = (float)(i / 4 - 512) + 0.5f;
      switch (i % 4) {
      case 0: xq[i] = h; break;
      case 1: xq[i] = nextafterf(h, 1e9f); break;
      case 2: xq[i] = nextafterf(h, -1e9f); break;
      default: xq[i] = (float)((int32_t)ref_next() % 2000000) / 977.0f; break;
      }
    }
    ta_affine_params pr = {NQ, 1.0f, 3};
    ta_quantize_f32_s16(&pr, xq, oq);
    int bad = -1, nbad = 0;
    for (int i = 0; i < NQ; i++) {
      const float r = roundf(xq[i]) + 3.0f;
      const int32_t e = r < -32768.0f ? -32768 : r > 32767.0f ? 32767 : (int32_t)r;
      if (oq[i] != e && nbad++ == 0)
        bad = i;
    }
    CHECK(nbad == 0, "QUANTIZE rounds as roundf at every half, its float neighbours and "
                     "random values (%d of %d differ, first at x = %g)",
          nbad, (int)NQ, bad < 0 ? 0.0 : (double)xq[bad]);
    free(xq);
    free(oq);
  }
  /* int8 with its clamps: every half from -140.5 to 140.5 and its float
   * neighbours, integers, infinities and NaN, zero points -1 and 100,
   * against roundf and a clamp (NaN: the lower bound, as before). */
  for (int zi = 0; zi < 2; zi++) {
    enum { NS = 4 * 282 + 3 };
    float xs[NS];
    int8_t os[NS];
    const int32_t zp8 = zi ? 100 : -1;
    for (int i = 0; i < 4 * 282; i++) {
      const float h = (float)(i / 4 - 141) + 0.5f;
      xs[i] = i % 4 == 0 ? h : i % 4 == 1 ? nextafterf(h, 1e9f)
            : i % 4 == 2 ? nextafterf(h, -1e9f) : h - 0.5f;
    }
    xs[NS - 3] = INFINITY;
    xs[NS - 2] = -INFINITY;
    xs[NS - 1] = NAN;
    ta_affine_params p8 = {NS, 1.0f, zp8};
    ta_quantize_f32_s8(&p8, xs, os);
    int nbad = 0, first = -1;
    for (int i = 0; i < NS; i++) {
      const float r = isnan(xs[i]) ? -1e9f : roundf(xs[i]) + (float)zp8;
      const int32_t e = r < -128.0f ? -128 : r > 127.0f ? 127 : (int32_t)r;
      if (os[i] != e && nbad++ == 0)
        first = i;
    }
    CHECK(nbad == 0, "QUANTIZE float -> int8 (zero point %d) rounds as roundf and clamps at "
                     "every half and its neighbours up to -140.5..140.5, infinities, NaN (%d "
                     "differ, first at %d)",
          (int)zp8, nbad, first);
  }
  uint8_t ou[2];
  const float xu[2] = {0.0f, -1.0f};
  ta_affine_params apu = {2, 1.0f / 128, 128};
  ta_quantize_f32_u8(&apu, xu, ou);
  CHECK(ou[0] == 128 && ou[1] == 0, "QUANTIZE float -> uint8 with zero point 128");

  /* int8 -> int8 at the same scale, zero point shifted: exact copy+shift. */
  ta_requant_params rp;
  requant_params(0.5f, 0, 0.5f, 10, TA_ROUND_DOUBLE, &rp);
  rp.size = 4;
  const int8_t ri[4] = {0, 100, 117, 127};
  int8_t ro[4];
  ta_requantize_s8_s8(&rp, ri, ro);
  CHECK(ro[0] == 10 && ro[1] == 110 && ro[2] == 127 && ro[3] == 127,
        "requantizing int8 -> int8 shifts the zero point and saturates");
  /* uint8 <-> int8: zero points 128 and 0 at one scale is the 0x80 flip. */
  requant_params(0.1f, 128, 0.1f, 0, TA_ROUND_DOUBLE, &rp);
  rp.size = 3;
  const uint8_t ui[3] = {0, 128, 255};
  int8_t so[3];
  ta_requantize_u8_s8(&rp, ui, so);
  CHECK(so[0] == -128 && so[1] == 0 && so[2] == 127, "uint8 -> int8 with zero point 128 -> 0");
  requant_params(0.1f, 0, 0.1f, 128, TA_ROUND_DOUBLE, &rp);
  rp.size = 3;
  const int8_t si[3] = {-128, 0, 127};
  uint8_t uo[3];
  ta_requantize_s8_u8(&rp, si, uo);
  CHECK(uo[0] == 0 && uo[1] == 128 && uo[2] == 255, "int8 -> uint8 with zero point 0 -> 128");
  /* A scale of one (multiplier 2^30, shift 1) runs as the offset alone:
   * every 8-bit value, random zero points, both roundings, against
   * Requantize's MultiplyByQuantizedMultiplier. */
  int offset_bad = 0;
  for (int k = 0; k < 40; k++) {
    ta_requant_params q1 = {256, ref_rand(-128, 255), ref_rand(-128, 255), 1 << 30, 1,
                            k & 1 ? TA_ROUND_SINGLE : TA_ROUND_DOUBLE};
    int8_t s8[256], s8o[256];
    uint8_t u8[256], u8o[256];
    for (int i = 0; i < 256; i++) {
      s8[i] = (int8_t)(i - 128);
      u8[i] = (uint8_t)i;
    }
    ta_requantize_s8_s8(&q1, s8, s8o);
    for (int i = 0; i < 256; i++)
      offset_bad += s8o[i] != ref_clamp(ref_mbqm(s8[i] - q1.input_zero_point, 1 << 30, 1,
                                                 q1.rounding) + q1.output_zero_point,
                                        -128, 127);
    ta_requantize_u8_s8(&q1, u8, s8o);
    for (int i = 0; i < 256; i++)
      offset_bad += s8o[i] != ref_clamp(ref_mbqm(u8[i] - q1.input_zero_point, 1 << 30, 1,
                                                 q1.rounding) + q1.output_zero_point,
                                        -128, 127);
    ta_requantize_s8_u8(&q1, s8, u8o);
    for (int i = 0; i < 256; i++)
      offset_bad += u8o[i] != ref_clamp(ref_mbqm(s8[i] - q1.input_zero_point, 1 << 30, 1,
                                                 q1.rounding) + q1.output_zero_point,
                                        0, 255);
    ta_requantize_u8_u8(&q1, u8, u8o);
    for (int i = 0; i < 256; i++)
      offset_bad += u8o[i] != ref_clamp(ref_mbqm(u8[i] - q1.input_zero_point, 1 << 30, 1,
                                                 q1.rounding) + q1.output_zero_point,
                                        0, 255);
  }
  CHECK(offset_bad == 0,
        "8-bit requantizations at a scale of one (the offset alone) equal Requantize for "
        "every value, 40 zero-point pairs, both roundings (%d differ)",
        offset_bad);
  /* int8 -> int16: scale 1/16 -> 1/4096 multiplies by 256. */
  requant_params(1.0f / 16, 0, 1.0f / 4096, 0, TA_ROUND_DOUBLE, &rp);
  rp.size = 2;
  int16_t wide[2];
  ta_requantize_s8_s16(&rp, si, wide);
  CHECK(wide[0] == -32768 && wide[1] == 0, "int8 -> int16 widens by 256 (-128 -> -32768)");
  /* int16 -> int8: divides by 256 with rounding, half away from zero. */
  requant_params(1.0f / 4096, 0, 1.0f / 16, 0, TA_ROUND_DOUBLE, &rp);
  rp.size = 4;
  const int16_t ni[4] = {384, -384, 32767, -32768};
  int8_t no[4];
  ta_requantize_s16_s8(&rp, ni, no);
  CHECK(no[0] == 2 && no[1] == -2 && no[2] == 127 && no[3] == -128,
        "int16 -> int8 narrows by 256, 1.5 -> 2, -1.5 -> -2, saturating (got %d %d %d %d)", no[0],
        no[1], no[2], no[3]);
  requant_params(1.0f / 4096, 0, 1.0f / 8192, 0, TA_ROUND_DOUBLE, &rp);
  rp.size = 2;
  int16_t n16[2];
  ta_requantize_s16_s16(&rp, ni, n16);
  CHECK(n16[0] == 768 && n16[1] == -768, "int16 -> int16 doubles at half the scale");

  /* DEQUANTIZE: (float)((double)scale * (q - zp)). */
  const int8_t dq[3] = {-128, 0, 127};
  float fo[3];
  ta_affine_params dp = {3, 0.1f, -3};
  ta_dequantize_s8_f32(&dp, dq, fo);
  int exact = 1;
  for (int i = 0; i < 3; i++)
    exact &= fo[i] == (float)((double)0.1f * (dq[i] + 3));
  CHECK(exact, "DEQUANTIZE int8 equals (float)((double)scale * (q - zero_point))");
  const uint8_t du[2] = {0, 255};
  ta_affine_params dpu = {2, 0.5f, 128};
  ta_dequantize_u8_f32(&dpu, du, fo);
  CHECK(fo[0] == -64.0f && fo[1] == 63.5f, "DEQUANTIZE uint8");
  const int16_t ds[2] = {-32768, 32767};
  ta_affine_params dps = {2, 1.0f / 32768, 0};
  ta_dequantize_s16_f32(&dps, ds, fo);
  CHECK(fo[0] == -1.0f && fo[1] == 32767.0f / 32768, "DEQUANTIZE int16");
}

/* -------------------------------------------------------- float kernels */

static void test_float_kernels(void) {
  /* Hand-computed: 3x3 input 1..9, 2x2 filter {1,0,0,1} + bias 0.5,
   * VALID, stride 1: x[y][x] + x[y+1][x+1] + 0.5. */
  const float in[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9}, f[4] = {1, 0, 0, 1}, b[1] = {0.5f};
  const float expect[4] = {6.5f, 8.5f, 12.5f, 14.5f};
  ta_conv_params p;
  memset(&p, 0, sizeof p);
  p.stride_h = p.stride_w = p.dilation_h = p.dilation_w = p.depth_multiplier = 1;
  activation_range_float(ACT_NONE, &p.act_min_f32, &p.act_max_f32);
  ta_dims id = {1, 3, 3, 1}, fd = {1, 2, 2, 1}, od = {1, 2, 2, 1};
  float *o = canary_alloc(sizeof expect);
  ta_conv2d_f32(&p, &id, in, &fd, f, b, &od, o);
  CHECK(first_diff(o, expect, sizeof expect) < 0 && canary_ok(o, sizeof expect),
        "float CONV_2D of a diagonal 2x2 filter");
  ta_depthwise_conv2d_f32(&p, &id, in, &fd, f, b, &od, o);
  CHECK(first_diff(o, expect, sizeof expect) < 0 && canary_ok(o, sizeof expect),
        "float DEPTHWISE_CONV_2D of the same single channel");
  canary_free(o);
  /* FC with RELU: {1,2,3} . {1,-1,1} + 1 = 3; . {-1,-1,-1} = -6 -> 0. */
  const float x[3] = {1, 2, 3}, w[6] = {1, -1, 1, -1, -1, -1}, fb[2] = {1, 0};
  float fo[2];
  ta_fc_params fp;
  memset(&fp, 0, sizeof fp);
  fp.batches = 1;
  fp.in_depth = 3;
  fp.out_depth = 2;
  activation_range_float(ACT_RELU, &fp.act_min_f32, &fp.act_max_f32);
  ta_fully_connected_f32(&fp, x, w, fb, fo);
  CHECK(fo[0] == 3.0f && fo[1] == 0.0f, "float FULLY_CONNECTED with RELU");
  /* Pools: 2x2 window over 1..4 -> average 2.5, max 4. */
  const float pi[4] = {1, 2, 3, 4};
  float pa, pm;
  ta_pool_params pp = {1, 1, 2, 2, 0, 0, 0, 0, -FLT_MAX, FLT_MAX};
  ta_dims pid = {1, 2, 2, 1}, pod = {1, 1, 1, 1};
  ta_avg_pool2d_f32(&pp, &pid, pi, &pod, &pa);
  ta_max_pool2d_f32(&pp, &pid, pi, &pod, &pm);
  CHECK(pa == 2.5f && pm == 4.0f, "float pools: average 2.5, max 4");
}

/* ---------------------------------------------------------- MEAN uint8 */

/* TFLite's three uint8 MEAN paths, transliterated for an input
 * [outer][count] reduced over its last dimension, or (every other case)
 * [count][outer] over its first, a strided inner walk as a channels-last
 * global mean has (the walks are the compiler's business; here they are
 * written by hand):
 *   path 0: optimized_ops::Mean (4-D, axes {1, 2}): MBQM(sum) + bias
 *   path 1: reference_ops::Mean<uint8_t, int>: sum / count
 *   path 2: QuantizedMeanOrSum: round(sum / count * scale + bias) + zp. */
static void test_mean_u8(void) {
  enum { MAXC = 300, MAXO = 8 };
  int bad = 0;
  for (int k = 0; k < 300; k++) {
    const int path = k % 3;
    const int32_t count = ref_rand(1, MAXC), outer = ref_rand(1, MAXO);
    uint8_t in[MAXC * MAXO], out[MAXO], want[MAXO];
    int32_t sums[MAXO]; /* each output's int32 sum, as all three paths take it */
    for (int i = 0; i < count * outer; i++)
      in[i] = (uint8_t)ref_rand(0, 255);
    const int across = (k / 3) % 2; /* [count][outer] */
    for (int o = 0; o < outer; o++) {
      sums[o] = 0;
      for (int i = 0; i < count; i++)
        sums[o] += in[across ? i * outer + o : o * count + i];
    }
    ta_mean_params p = {.count = count, .rounding = TA_ROUND_DOUBLE};
    p.outer.ndims = 1;
    p.outer.shape[0] = outer;
    p.outer.stride[0] = across ? 1 : count;
    p.inner.ndims = 1;
    p.inner.shape[0] = count;
    p.inner.stride[0] = across ? outer : 1;
    const float si = 0.01f + 0.1f * (float)ref_rand(0, 1000) / 1000.0f;
    const float so = 0.01f + 0.1f * (float)ref_rand(0, 1000) / 1000.0f;
    const int32_t zi = ref_rand(0, 255), zo = ref_rand(0, 255);
    ta_status st;
    if (path == 0) {
      const float num = (float)count;
      float temp = (float)zi * si / so;
      temp = temp > 0 ? temp + 0.5f : temp - 0.5f;
      const int32_t bias = zo - (int32_t)temp;
      int32_t m;
      int32_t sh;
      quantize_multiplier((double)(si / (num * so)), TA_ROUND_DOUBLE, &m, &sh);
      p.multiplier = m;
      p.shift = sh;
      p.output_zero_point = bias;
      for (int o = 0; o < outer; o++) {
        const int32_t acc = ref_mbqm(sums[o], m, sh, TA_ROUND_DOUBLE) + bias;
        want[o] = (uint8_t)ref_clamp(acc, 0, 255);
      }
      st = ta_mean_hw_u8(&p, in, out);
    } else if (path == 1) {
      for (int o = 0; o < outer; o++)
        want[o] = (uint8_t)(sums[o] / count);
      st = ta_mean_div_u8(&p, in, out);
    } else {
      volatile float scale = si / so;
      volatile float bias = (float)-zi * scale;
      p.scale = scale;
      p.bias = bias;
      p.output_zero_point = zo;
      for (int o = 0; o < outer; o++) {
        volatile float mean = (float)sums[o] / (float)count;
        volatile float prod = mean * scale;
        volatile float x = prod + bias;
        float r = roundf(x) + (float)zo;
        r = r < 255.0f ? r : 255.0f;
        r = r > 0.0f ? r : 0.0f;
        want[o] = (uint8_t)r;
      }
      st = ta_mean_u8(&p, in, out);
    }
    long d = first_diff(out, want, (size_t)outer);
    if (st != TA_OK || d >= 0) {
      if (!bad)
        CHECK(0, "MEAN uint8 case %d (path %d) matches TFLite's loop: index %ld, "
                 "expected %d, actual %d", k, path, d, d >= 0 ? want[d] : -1,
              d >= 0 ? out[d] : -1);
      bad++;
    }
  }
  CHECK(bad == 0, "300 random uint8 MEAN cases (the height-width multiplier path, the "
                  "integer division and QuantizedMeanOrSum in float) match TFLite's code");
  /* QuantizedMeanOrSum rounds half away from zero and has no + 0.5: a
   * mean of 2.5 at scale 1, zero points 0, gives 3; 2.25 gives 2. */
  uint8_t two[4] = {2, 3, 2, 2}, o1 = 0, o2 = 0;
  ta_mean_params q = {.count = 2, .scale = 1.0f, .bias = 0.0f};
  q.outer.ndims = 0;
  q.inner.ndims = 1;
  q.inner.shape[0] = 2;
  q.inner.stride[0] = 1;
  ta_mean_u8(&q, two, &o1);
  q.count = 4;
  q.inner.shape[0] = 4;
  ta_mean_u8(&q, two, &o2);
  CHECK(o1 == 3 && o2 == 2, "the uint8 mean rounds 2.5 to 3 and 2.25 to 2 (got %d, %d)", o1,
        o2);
}

/* ------------------------------------------------------------- LSTM */

/* The int8 LSTM's gate FULLY_CONNECTED has two paths: symmetric weights
 * (offset 0) run two rows at a time with SMLAD on a core with the DSP
 * extension, other weights one product at a time.  The same sums through
 * both: weights w + 1 with offset -1 are the weights w (in [-127, 126]),
 * so every output, hidden and cell value must be equal.  An odd number
 * of state rows and inputs no multiple of 4 (the rows and taps the DSP
 * loop leaves), two batches batch-major, random offsets and shifts. */
#define LS 5
#define LI 7
#define LT 3
#define LB 2
static void test_lstm_paths(void) {
  int bad = 0;
  const int n = 40;
  for (int k = 0; k < n; k++) {
    static int8_t w[2][8][LS * LI > LS * LS ? LS * LI : LS * LS];
    int32_t bias[4][LS];
    ta_lstm_params p;
    memset(&p, 0, sizeof p);
    p.batches = LB;
    p.time_steps = LT;
    p.input_dim = LI;
    p.state_dim = LS;
    p.cell_gate_tanh = 1;
    for (int g = 0; g < 4; g++)
      p.gate[g] = (ta_lstm_gate){ref_rand(-128, 128), 0, ref_rand(1 << 30, INT32_MAX),
                                 ref_rand(-9, -1), ref_rand(-128, 128), 0,
                                 ref_rand(1 << 30, INT32_MAX), ref_rand(-9, -1)};
    p.forget_multiplier = 1073741824, p.forget_shift = -14;
    p.input_multiplier = 1073741824, p.input_shift = -17;
    p.output_multiplier = 1100000000, p.output_shift = -21;
    p.hidden_zero_point = ref_rand(-20, 20);
    p.cell_scale_power = -11;
    p.rounding = TA_ROUND_DOUBLE;
    for (int m = 0; m < 8; m++)
      for (int i = 0; i < LS * LI; i++) {
        w[0][m][i] = (int8_t)ref_rand(-127, 126);
        w[1][m][i] = (int8_t)(w[0][m][i] + 1);
      }
    for (int g = 0; g < 4; g++)
      for (int i = 0; i < LS; i++)
        bias[g][i] = ref_rand(-20000, 20000);
    int8_t x[LB * LT * LI], h0[LB * LS], h[2][LB * LS], out[2][LB * LT * LS];
    int16_t c0[LB * LS], c[2][LB * LS];
    ref_fill_s8(x, sizeof x);
    ref_fill_s8(h0, sizeof h0);
    for (int i = 0; i < LB * LS; i++)
      c0[i] = (int16_t)ref_rand(-32768, 32767);
    ta_status st[2];
    for (int v = 0; v < 2; v++) {
      ta_lstm_params q = p;
      for (int g = 0; g < 4; g++)
        q.gate[g].input_weights_offset = q.gate[g].hidden_weights_offset = -v;
      int16_t scratch[4 * LS];
      memcpy(h[v], h0, sizeof h0);
      memcpy(c[v], c0, sizeof c0);
      st[v] = ta_lstm_s8(&q, x, w[v][0], w[v][1], w[v][2], w[v][3], w[v][4], w[v][5], w[v][6],
                         w[v][7], bias[0], bias[1], bias[2], bias[3], h[v], c[v], out[v],
                         scratch);
    }
    if (st[0] != TA_OK || st[1] != TA_OK || memcmp(out[0], out[1], sizeof out[0]) ||
        memcmp(h[0], h[1], sizeof h[0]) || memcmp(c[0], c[1], sizeof c[0]))
      bad++;
  }
  CHECK(bad == 0,
        "%d random int8 LSTMs (5 states, 7 inputs): symmetric weights and the same weights "
        "with an offset give the same outputs, hidden and cell states (%d differ)",
        n, bad);
}

/* ---------------------------------------------------------------- SVDF */

/* One call of the integer SVDF (TFLM's EvalIntegerSvdfReference) over a
 * state of int32 values narrowed like the state type (tmin -128 or
 * -32768): the whole state shifted by one element, each filter's new
 * activation last, the time dot products, rank sums, the output. */
static void ref_svdf(const ta_svdf_params *p, const int8_t *in, const int8_t *wf,
                     const int32_t *wt, const int32_t *bias, int32_t *state, int32_t tmin,
                     int8_t *out) {
  const int B = p->batches, I = p->input_size, F = p->num_filters, M = p->memory_size;
  const int R = p->rank, U = F / R, n = B * F * M;
  for (int k = 0; k + 1 < n; k++)
    state[k] = state[k + 1];
  for (int b = 0; b < B; b++)
    for (int f = 0; f < F; f++) {
      int32_t dot = 0;
      for (int i = 0; i < I; i++)
        dot += wf[f * I + i] * (in[b * I + i] - p->input_zero_point); /* |dot| < 2^31 */
      int32_t a = ref_clamp(ref_mbqm(dot, p->multiplier1, p->shift1, p->rounding), tmin,
                            -tmin - 1) + p->state_zero_point;
      a = a > -tmin - 1 ? a + 2 * tmin : a < tmin ? a - 2 * tmin : a; /* wraps */
      state[(b * F + f) * M + M - 1] = a;
    }
  for (int b = 0; b < B; b++)
    for (int u = 0; u < U; u++) {
      int32_t acc = bias ? bias[u] : 0;
      for (int f = u * R; f < (u + 1) * R; f++)
        for (int m = 0; m < M; m++)
          acc = (int32_t)((uint32_t)acc + (uint32_t)(wt[f * M + m] *
                                                     (state[(b * F + f) * M + m] -
                                                      p->state_zero_point))); /* wraps */
      const int32_t v = ref_mbqm(acc, p->multiplier2, p->shift2, p->rounding);
      out[b * U + u] = (int8_t)ref_clamp(v + p->output_zero_point, -128, 127);
    }
}

/* Random SVDFs of both state types, three calls each (the state carried
 * over), input lengths and memory sizes of every remainder mod 4, zero
 * points zero and not: outputs and states equal to ref_svdf(). */
static void test_svdf_random(void) {
  int bad = 0, n = 120;
  for (int k = 0; k < n; k++) {
    const int s16 = k & 1;
    const int32_t tmin = s16 ? -32768 : -128;
    ta_svdf_params p = {0};
    p.batches = ref_rand(1, 2);
    p.input_size = ref_rand(1, 37);
    p.rank = ref_rand(1, 2);
    p.num_filters = p.rank * ref_rand(1, 6);
    p.memory_size = ref_rand(1, 11);
    p.input_zero_point = ref_rand(0, 1) ? 0 : ref_rand(-128, 127);
    p.state_zero_point = ref_rand(0, 1) ? 0 : s16 ? ref_rand(-300, 300) : ref_rand(-128, 127);
    p.output_zero_point = ref_rand(-128, 127);
    p.multiplier1 = ref_rand(1 << 30, INT32_MAX);
    p.shift1 = ref_rand(-12, 2);
    p.multiplier2 = ref_rand(1 << 30, INT32_MAX);
    p.shift2 = ref_rand(-20, 0);
    p.rounding = TA_ROUND_DOUBLE;
    const int B = p.batches, I = p.input_size, F = p.num_filters, M = p.memory_size;
    const int U = F / p.rank, ns = B * F * M;
    int8_t *in = malloc((size_t)(B * I)), *wf = malloc((size_t)(F * I));
    int8_t *out = canary_alloc((size_t)(B * U)), *want = malloc((size_t)(B * U));
    int32_t *wt = malloc(sizeof(int32_t) * (size_t)(F * M)), *bias = malloc(sizeof(int32_t) * (size_t)U);
    int32_t *rstate = malloc(sizeof(int32_t) * (size_t)ns);
    int16_t *wt16 = malloc(2 * (size_t)(F * M)), *st16 = canary_alloc(2 * (size_t)ns);
    int8_t *wt8 = malloc((size_t)(F * M)), *st8 = canary_alloc((size_t)ns);
    void *scratch = canary_alloc(ta_svdf_state16_s8_scratch_size(&p));
    ref_fill_s8(wf, (size_t)(F * I));
    for (int j = 0; j < F * M; j++) {
      wt[j] = s16 ? ref_rand(-32768, 32767) : ref_rand(-128, 127);
      wt16[j] = (int16_t)wt[j];
      wt8[j] = (int8_t)wt[j];
    }
    for (int j = 0; j < U; j++)
      bias[j] = ref_rand(-100000, 100000);
    for (int j = 0; j < ns; j++) {
      rstate[j] = s16 ? ref_rand(-32768, 32767) : ref_rand(-128, 127);
      st16[j] = (int16_t)rstate[j];
      st8[j] = (int8_t)rstate[j];
    }
    for (int call = 0; call < 3; call++) {
      ref_fill_s8(in, (size_t)(B * I));
      ref_svdf(&p, in, wf, wt, bias, rstate, tmin, want);
      const ta_status st = s16 ? ta_svdf_state16_s8(&p, in, wf, wt16, bias, st16, out, scratch)
                               : ta_svdf_state8_s8(&p, in, wf, wt8, bias, st8, out, scratch);
      int same = st == TA_OK && first_diff(out, want, (size_t)(B * U)) < 0;
      for (int j = 0; j < ns; j++)
        same = same && rstate[j] == (s16 ? st16[j] : st8[j]);
      if (!same) {
        if (!bad)
          CHECK(0, "SVDF random case %d (int%d state, I %d, M %d) call %d matches the "
                   "reference",
                k, s16 ? 16 : 8, I, M, call);
        bad++;
        break;
      }
    }
    int ok = canary_ok(out, (size_t)(B * U)) && canary_ok(st16, 2 * (size_t)ns) &&
             canary_ok(st8, (size_t)ns) &&
             canary_ok(scratch, ta_svdf_state16_s8_scratch_size(&p));
    if (!ok && !bad++)
      CHECK(0, "SVDF random case %d stays inside its buffers", k);
    free(in), free(wf), free(want), free(wt), free(bias), free(rstate), free(wt16), free(wt8);
    canary_free(out), canary_free(st16), canary_free(st8), canary_free(scratch);
  }
  CHECK(bad == 0, "%d random int8 SVDFs (int16 and int8 state, 3 calls each, zero points zero "
                  "and not, every input length and memory size mod 4) match TFLite Micro's "
                  "reference loop, outputs and states",
        n);
}

int main(void) {
  test_fc_random();
  test_lstm_paths();
  test_svdf_random();
  test_pool_random();
  test_add_random();
  test_add_tabled_ties();
  test_softmax();
  test_quantize();
  test_float_kernels();
  test_mean_u8();
  return test_exit();
}
