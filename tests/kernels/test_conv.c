/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Tests of the int8 convolution kernels: ta_conv2d_s8, ta_conv2d_fold_s8,
 * ta_depthwise_conv2d_s8, ta_depthwise_conv2d_fold_s8 and its backward walk
 * ta_depthwise_conv2d_fold_rev_s8.
 *
 *  - TFLite's SimplePerChannelTest (tensorflow/lite/kernels/conv_test.cc):
 *    input 1x2x3x2 at scale 0.5 / zero point -1, filter 2x2x2x2 with
 *    per-channel scales, bias {3, -2}; TFLite expects the int8 output
 *    {61, 111, -115, -89}.  The filter is quantized here with scales 1
 *    and 0.5 (powers of two), so the requantization is exact and TFLite's
 *    expected bytes apply unchanged.
 *  - SAME padding at every border with a non-zero input zero point
 *    (hand-computed: each output counts the taps inside the input).
 *  - Depth multiplier 2, hand-computed.
 *  - Hundreds of random shapes, strides, dilations, paddings, groups,
 *    multipliers (per tensor, per channel, negative and positive shifts),
 *    activation ranges and both roundings, each compared byte for byte
 *    with ref.h's transliteration of TFLite's reference loops; outputs
 *    sit between canary bytes.
 *  - As many in the form the Arm DSP paths take (tests/arm runs this
 *    program on Cortex-M cores): double rounding, right shifts 1..31 and
 *    zero multipliers,
 *    ungrouped convolutions with up to 20 output channels and filter
 *    windows of any length, depthwise with depth multiplier 1 and
 *    channels a multiple of 4, 3x3 and other filters up to 8x8, borders
 *    and strides.  On other cores they take the portable paths, but for
 *    the 3x3 depthwise entries, whose walk is the same on every core.
 *  - 3x3 depthwise ops of that walk with the output inside the input's
 *    buffer, forwards and backwards, at every distance the walk allows
 *    (in-place depthwise).
 */
#include "test.h"
#include "ta_fixedpoint.h"
#include "ta_kernels.h"
#include "ta_pack.h"
#include "tinyaot.h"
#include "ref.h"

typedef ta_status (*conv_fn)(const ta_conv_params *, const ta_quant *, const ta_dims *,
                             const int8_t *, const ta_dims *, const int8_t *, const int32_t *,
                             const ta_dims *, int8_t *, void *);

static size_t dims_count(const ta_dims *d) { return (size_t)d->n * d->h * d->w * d->c; }

static void test_simple_per_channel(void) {
  /* Real input values and 2q - 1 = x * 2 - 1 quantization (scale 0.5, zp -1). */
  const float x[12] = {3, 2, 1, -1, -2, -3, 4, 3, 2, -2, -3, -4};
  int8_t in[12];
  for (int i = 0; i < 12; i++)
    in[i] = (int8_t)(x[i] * 2 - 1);
  /* Channel 0 at filter scale 1, channel 1 at scale 0.5 (q = 2w). */
  const int8_t filter[16] = {1, 2, 3, 4, 3, 4, 5, 6, 14, 16, 10, 12, 6, 8, 2, 4};
  /* Bias at scale input * filter: 3 / 0.5 = 6, -2 / 0.25 = -8. */
  const int32_t bias[2] = {6, -8};
  int32_t mult[2], shift[2];
  conv_multiplier(0.5f, 1.0f, 0.5f, TA_ROUND_DOUBLE, &mult[0], &shift[0]);
  conv_multiplier(0.5f, 0.5f, 0.5f, TA_ROUND_DOUBLE, &mult[1], &shift[1]);
  ta_quant q = {mult, shift, 1, TA_ROUND_DOUBLE, 0};
  ta_conv_params p = {1, 1, 1, 1, 0, 0, 1, 1, -1, -128, 127, 0, 0};
  ta_dims id = {1, 2, 3, 2}, fd = {2, 2, 2, 2}, od = {1, 1, 2, 2};
  const int8_t expect[4] = {61, 111, -115, -89};
  int32_t bf[2];
  fold_bias_s8(filter, 2, 8, bias, p.input_offset, bf);
  q.mmla = ta_quant_mmla_ok(&q, 2, bf, 8);
  size_t ns = ta_conv2d_fold_s8_scratch_size(&p, &id, &fd, &od);
  void *scratch = canary_alloc(ns);
  for (int v = 0; v < 2; v++) {
    int8_t *out = canary_alloc(4);
    ta_status st = v ? ta_conv2d_fold_s8(&p, &q, &id, in, &fd, filter, bf, &od, out, scratch)
                     : ta_conv2d_s8(&p, &q, &id, in, &fd, filter, bias, &od, out, NULL);
    long d = first_diff(out, expect, 4);
    CHECK(st == TA_OK && d < 0 && canary_ok(out, 4) && canary_ok(scratch, ns),
          "%s reproduces TFLite's SimplePerChannelTest {61, 111, -115, -89}%s%d: %d",
          v ? "ta_conv2d_fold_s8" : "ta_conv2d_s8", d < 0 ? "" : " (index, expected, actual) ",
          d < 0 ? 0 : (int)expect[d], d < 0 ? 0 : (int)out[d]);
    canary_free(out);
  }
  canary_free(scratch);
}

static void test_same_padding_borders(void) {
  /* 3x3 input of real 1 (q = -4 with zero point -5), 3x3 filter of ones,
   * SAME: each output is the number of taps inside: 4 6 4 / 6 9 6 / 4 6 4. */
  int8_t in[9], filter[9];
  for (int i = 0; i < 9; i++) {
    in[i] = -4;
    filter[i] = 1;
  }
  int32_t mult = 1 << 30, shift = 1, bf;
  ta_quant q = {&mult, &shift, 0, TA_ROUND_DOUBLE, 0};
  ta_conv_params p = {1, 1, 1, 1, 1, 1, 1, 5, 0, -128, 127, 0, 0};
  ta_dims id = {1, 3, 3, 1}, fd = {1, 3, 3, 1}, od = {1, 3, 3, 1};
  fold_bias_s8(filter, 1, 9, NULL, 5, &bf);
  const int8_t expect[9] = {4, 6, 4, 6, 9, 6, 4, 6, 4};
  int8_t *o1 = canary_alloc(9), *o2 = canary_alloc(9);
  ta_conv2d_s8(&p, &q, &id, in, &fd, filter, NULL, &od, o1, NULL);
  size_t ns = ta_conv2d_fold_s8_scratch_size(&p, &id, &fd, &od);
  void *scratch = canary_alloc(ns);
  ta_conv2d_fold_s8(&p, &q, &id, in, &fd, filter, &bf, &od, o2, scratch);
  CHECK(first_diff(o1, expect, 9) < 0 && canary_ok(o1, 9),
        "SAME padding counts only the taps inside the input (reference form)");
  CHECK(first_diff(o2, expect, 9) < 0 && canary_ok(o2, 9) && canary_ok(scratch, ns),
        "SAME padding with a folded bias pads with the zero point");
  canary_free(scratch);
  /* The same through the depthwise kernels (filter 1x3x3x1). */
  int32_t bdw;
  fold_bias_depthwise_s8(filter, 9, 1, NULL, 5, &bdw);
  memset(o1, 0, 9);
  memset(o2, 0, 9);
  ta_depthwise_conv2d_s8(&p, &q, &id, in, &fd, filter, NULL, &od, o1, NULL);
  ta_depthwise_conv2d_fold_s8(&p, &q, &id, in, &fd, filter, &bdw, &od, o2, NULL);
  CHECK(first_diff(o1, expect, 9) < 0 && first_diff(o2, expect, 9) < 0 && canary_ok(o1, 9) &&
            canary_ok(o2, 9),
        "depthwise SAME padding at the borders, both forms");
  canary_free(o1);
  canary_free(o2);
}

static void test_depth_multiplier(void) {
  /* 1x1x2x2 input {1, 2, 3, 4} (zero point 0), 1x2 filter, multiplier 2:
   * out channel oc = ic * 2 + m, filter columns (1,2,3,4) at x=0 and
   * (5,6,7,8) at x=1.  VALID: one output pixel:
   *   oc0 = 1*1 + 3*5 = 16, oc1 = 1*2 + 3*6 = 20,
   *   oc2 = 2*3 + 4*7 = 34, oc3 = 2*4 + 4*8 = 40; bias 1, 2, 3, 4. */
  const int8_t in[4] = {1, 2, 3, 4};
  const int8_t filter[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  const int32_t bias[4] = {1, 2, 3, 4};
  int32_t mult = 1 << 30, shift = 1, bf[4];
  ta_quant q = {&mult, &shift, 0, TA_ROUND_DOUBLE, 0};
  ta_conv_params p = {1, 1, 1, 1, 0, 0, 2, 0, 0, -128, 127, 0, 0};
  ta_dims id = {1, 1, 2, 2}, fd = {1, 1, 2, 4}, od = {1, 1, 1, 4};
  fold_bias_depthwise_s8(filter, 2, 4, bias, 0, bf);
  const int8_t expect[4] = {17, 22, 37, 44};
  int8_t *o1 = canary_alloc(4), *o2 = canary_alloc(4);
  ta_depthwise_conv2d_s8(&p, &q, &id, in, &fd, filter, bias, &od, o1, NULL);
  ta_depthwise_conv2d_fold_s8(&p, &q, &id, in, &fd, filter, bf, &od, o2, NULL);
  CHECK(first_diff(o1, expect, 4) < 0 && first_diff(o2, expect, 4) < 0 && canary_ok(o1, 4) &&
            canary_ok(o2, 4),
        "depth multiplier 2 maps input channel ic to output channels 2ic, 2ic+1");
  canary_free(o1);
  canary_free(o2);
}

/* A random but valid requantization: mostly realistic, sometimes extreme. */
static void random_quant(int32_t n, int32_t *mult, int32_t *shift, int rounding, int dsp) {
  for (int32_t i = 0; i < n; i++) {
    mult[i] = (int32_t)((1u << 30) + (ref_next() & 0x3fffffffu));
    int r = ref_rand(0, 9);
    shift[i] = r == 0 ? ref_rand(-31, -20) : r == 1 ? ref_rand(0, 3) : ref_rand(-12, -5);
    if (dsp) /* the edges of the DSP paths' range, and the usual */
      shift[i] = r == 0 ? -1 : r == 1 ? ref_rand(-31, -20) : r == 2 ? -2 : ref_rand(-12, -3);
    if (dsp && ref_rand(0, 19) == 0) { /* a dead channel: TFLite's (0, 0) */
      mult[i] = 0;
      shift[i] = 0;
    }
    if (rounding == TA_ROUND_SINGLE && shift[i] > 0)
      shift[i] = 0;
  }
}

/* Cases of random_conv_case() whose ta_quant.mmla was set, and those
 * that ran the kernel's _dsp_ entry point. */
static int mmla_cases, dsp_entries, dsp_3x3_cases;

/* A depthwise kernel entry point. */
typedef ta_status (*dw_fn)(const ta_conv_params *, const ta_quant *, const ta_dims *,
                           const int8_t *, const ta_dims *, const int8_t *, const int32_t *,
                           const ta_dims *, int8_t *, void *);

/* Cases that ran the fused convolution + residual ADD entries, and those
 * of them with the output in place over the residual. */
static int fused_cases;

/* Cases that ran the lean DSP entries (two pixels per block). */
static int lean_cases;
static int wide_cases;

/* The DSP entry's records and packed filter (ta_pack_records(),
 * ta_pack_rows_s8()): their layout, a dead channel, and the ops
 * whose offset does not fit. */
static void test_dsp_records(void) {
  int32_t mult[3] = {1 << 30, 0, 0x5a5a5a5a}, shift[3] = {-3, 0, -7};
  ta_quant q = {mult, shift, 1, TA_ROUND_DOUBLE, 0};
  const int32_t bf[3] = {100, -7, 12};
  int32_t rec[16];
  for (int i = 0; i < 16; i++)
    rec[i] = 0x7777;
  size_t n = ta_pack_records(&q, 3, bf, 5, -9, 2, rec);
  CHECK(n == 12 && rec[0] == 100 && rec[1] == 0 && rec[2] == (int32_t)(1u << 31) &&
            rec[3] == 4 - 9 * 8 && rec[4] == 3 && rec[5] == 0 && rec[6] == -17 &&
            rec[7] == 1 && rec[8] == 12 && rec[9] == (int32_t)(0x5a5a5a5au << 1) &&
            rec[10] == 64 - 9 * 128 && rec[11] == 7 && rec[12] == 0x7777,
        "three channels' records: a pair (biases, then M, c = 2^(e-1) + offset 2^e, e per "
        "channel; the dead one bias 0, M 0, c 2 offset + 1, e 1), then the odd one (%zu words)",
        n);
  int8_t f[15], pk[24];
  for (int i = 0; i < 15; i++)
    f[i] = (int8_t)(i + 1);
  memset(pk, 0x55, sizeof pk);
  ta_pack_rows_s8(&q, bf, f, 3, 5, 2, pk);
  const int8_t want[24] = {1, 2, 3, 4, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0,
                           11, 12, 13, 14, 15, 0, 0, 0};
  CHECK(ta_pack_size(3, 5) == 24 && first_diff(pk, want, 24) < 0,
        "the packed filter: the pair's rows four taps at a time, zeros past K and for the "
        "dead channel, then the odd channel's row");
  shift[0] = -24;
  CHECK(ta_pack_records(&q, 3, bf, 5, -128, 2, rec) == 12 && rec[0] == 0 &&
            rec[2] == 0 && rec[3] == -255 && rec[4] == 1,
        "a shift of 24 that the channel's sums (at most 100 + 5 x 2^14) cannot reach makes "
        "it a channel of constant output");
  /* Sums over 4096 taps reach 2^26 from 0: four steps of the shift by
   * 24, no constant, no single step. */
  CHECK(ta_pack_records(&q, 3, bf, 4096, -128, 2, rec) == 0 &&
            ta_pack_records(&q, 3, bf, 4096, 0, 2, rec) == 12,
        "with sums up to 2^26 and a shift of 24, the output offset -128 does not fit the "
        "records (offset 0 does)");
}

/* A bias near where the requantization by (mult, shift) steps from one
 * value to the next, at most b0 in magnitude: the first sum with the
 * higher value. */
static int32_t step_at(int32_t b0, int32_t mult, int32_t shift) {
  int32_t lo = b0 > 0 ? b0 - (1 << 26) : b0, hi = b0 > 0 ? b0 : b0 + (1 << 26);
  if (b0 > 0) {
    while (ta_requant_double(lo, mult, shift) == ta_requant_double(hi, mult, shift))
      lo -= 1 << 26;
  } else {
    while (ta_requant_double(lo, mult, shift) == ta_requant_double(hi, mult, shift))
      hi += 1 << 26;
  }
  const int32_t v = ta_requant_double(lo, mult, shift);
  while (hi - lo > 1) {
    const int32_t mid = lo + (hi - lo) / 2;
    if (ta_requant_double(mid, mult, shift) == v)
      lo = mid;
    else
      hi = mid;
  }
  return hi;
}

/*
 * Channels whose outputs barely vary, as in some of vww_96_int8's
 * pointwise convolutions (a folded bias near 2^30 and a right shift of
 * 26 to 28, its output offset -128 too large for the usual records):
 * the DSP entries compute them as a step or a constant
 * (ta_requant_step(), ta_requant_const()), with a zero multiplier and a
 * usual channel beside them; biases put near the step so that the sums
 * fall on both sides.  The same bytes as the reference loops.
 */
static void test_degenerate_channels(void) {
  int bad = 0, steps = 0, cases = 0;
  for (int k = 0; k < 40; k++) {
    const int dw = k & 1;
    ta_conv_params p;
    memset(&p, 0, sizeof p);
    p.stride_h = p.stride_w = p.dilation_h = p.dilation_w = p.depth_multiplier = 1;
    p.pad_h = p.pad_w = 1;
    p.input_offset = 0;
    p.output_offset = ref_rand(0, 1) ? -128 : ref_rand(-128, 127);
    p.act_min = -128;
    p.act_max = 127;
    ta_dims id = {1, 5, 6, 8}, fd = {dw ? 1 : 8, 3, 3, dw ? 8 : 8}, od = {1, 5, 6, 8};
    int32_t mult[8], shift[8], bias[8], bf[8];
    for (int c = 0; c < 8; c++) {
      mult[c] = (int32_t)((1u << 30) + (ref_next() & 0x3fffffffu));
      const int kind = c % 4; /* usual, step, constant, zero */
      shift[c] = kind == 0 ? -8 : kind == 1 ? -ref_rand(26, 28) : -30;
      if (kind == 3)
        mult[c] = shift[c] = 0;
      const int32_t sign = ref_rand(0, 1) ? 1 : -1;
      /* Depthwise sums must stay within 2^30 (doubled, they fit int32). */
      const int32_t near = dw ? (1 << 30) - (1 << 27) : 1 << 30;
      bias[c] = kind == 1   ? step_at(sign * near, mult[c], shift[c]) + ref_rand(-300, 300)
                : kind == 2 ? ref_rand(-100000, 100000)
                            : ref_rand(-20000, 20000);
    }
    ta_quant q = {mult, shift, 1, TA_ROUND_DOUBLE, 0};
    const size_t ni = dims_count(&id), nf = dims_count(&fd), no = dims_count(&od);
    int8_t *in = malloc(ni), *filter = malloc(nf), *expect = malloc(no), *out = canary_alloc(no);
    ref_fill_s8(in, ni);
    ref_fill_s8(filter, nf);
    const int32_t K = dw ? 9 : 72;
    ta_status st;
    if (dw) {
      ref_dw_s8(&p, &q, &id, in, &fd, filter, bias, &od, expect);
      fold_bias_depthwise_s8(filter, 9, 8, bias, 0, bf);
      int32_t rec[32];
      q.mmla = 1 | TA_MMLA_DOUBLED;
      const size_t ns = ta_depthwise_conv2d_fold_3x3_dsp_s8_scratch_size(&p, &id, &fd, &od);
      void *scratch = canary_alloc(ns);
      st = ta_pack_records_doubled(&q, 8, bf, K, p.output_offset, rec) &&
                   ta_depthwise_conv2d_fold_3x3_ok(&p, &q, &id, &fd)
               ? ta_depthwise_conv2d_fold_3x3_dsp_s8(&p, &q, &id, in, &fd, filter, rec, &od, out,
                                                     scratch)
               : TA_ERR_ARG;
      bad += !canary_ok(scratch, ns);
      canary_free(scratch);
    } else {
      ref_conv_s8(&p, &q, &id, in, &fd, filter, bias, &od, expect);
      fold_bias_s8(filter, 8, K, bias, 0, bf);
      q.mmla = (uint16_t)ta_quant_mmla_ok(&q, 8, bf, K);
      int32_t rec[32];
      int8_t *packed = malloc(ta_pack_size(8, K));
      st = TA_ERR_ARG;
      if (q.mmla && ta_pack_records(&q, 8, bf, K, p.output_offset, 2, rec)) {
        q.mmla |= TA_MMLA_RECORDS;
        ta_pack_rows_s8(&q, bf, filter, 8, K, 2, packed);
        const size_t ns = ta_conv2d_fold_s8_scratch_size(&p, &id, &fd, &od);
        void *scratch = canary_alloc(ns);
        st = ta_conv2d_fold_dsp_s8(&p, &q, &id, in, &fd, packed, rec, &od, out, scratch);
        bad += !canary_ok(scratch, ns);
        canary_free(scratch);
      }
      free(packed);
    }
    /* The step channels' outputs: both values seen. */
    for (int c = 1; c < 8; c += 4) {
      int lo = 0, hi = 0;
      for (size_t i = (size_t)c; i < no; i += 8)
        lo |= expect[i] == expect[c] ? 1 : 0, hi |= expect[i] != expect[c] ? 1 : 0;
      steps += lo && hi;
    }
    const long d = first_diff(out, expect, no);
    if (st != TA_OK || d >= 0 || !canary_ok(out, no)) {
      bad++;
      CHECK(0, "degenerate channels (%s, case %d): status %d, first difference %ld (%d, %d)",
            dw ? "depthwise" : "conv", k, st, d, d >= 0 ? expect[d] : 0, d >= 0 ? out[d] : 0);
    }
    cases++;
    free(in);
    free(filter);
    free(expect);
    canary_free(out);
  }
  CHECK(bad == 0 && steps > 10,
        "%d cases of channels with a step (%d of them seen taking both values), a constant "
        "output and a zero multiplier beside usual ones run through the DSP entries, the "
        "reference's bytes",
        cases, steps);
}

/*
 * ta_conv2d_fold_add_{dsp,portable}_s8 against the two ops they replace:
 * `conv` (the convolution's output, already checked against the
 * reference) then ta_add_s8 with a random residual and random ADD
 * quantization (the table form the compiler passes, add_params() and
 * add_tables() as lower_fuse.c calls them).  Once into a buffer of its
 * own, once with the output in place over the residual.  Returns 0 when
 * every byte agrees (1 when the ADD's quantization is not the fused
 * form: not run).
 */
static int fused_add_case(const ta_conv_params *p, const ta_quant *q, const ta_dims *id,
                          const int8_t *in, const ta_dims *fd, const int8_t *filter,
                          const int32_t *bf, const ta_dims *od, const int8_t *conv, int dsp) {
  const size_t no = (size_t)od->n * od->h * od->w * od->c;
  ta_add_params ap;
  memset(&ap, 0, sizeof ap);
  float sc = (float)ref_rand(1, 1000) / 4096.0f, sr = (float)ref_rand(1, 1000) / 4096.0f;
  float so = (float)ref_rand(1, 2000) / 4096.0f;
  Activation act = ref_rand(0, 1) ? ACT_RELU : ACT_NONE;
  if (!add_params(sc, p->output_offset, sr, ref_rand(-128, 127), so, ref_rand(-128, 127),
                  DT_INT8, act, TA_ROUND_DOUBLE, &ap))
    return 1;
  int32_t t1[256], t2[256];
  add_tables(&ap, t1, t2);
  ap.table1 = t1;
  ap.table2 = t2;
  if (ap.output_shift >= 0)
    return 1;
  int8_t *res = canary_alloc(no), *expect = malloc(no), *o1 = canary_alloc(no);
  ref_fill_s8(res, no);
  ta_bcast flat = {1, {(int32_t)no}, {1}, {1}};
  ta_status s0 = ta_add_s8(&ap, &flat, conv, res, expect);
  typedef ta_status (*fn)(const ta_conv_params *, const ta_quant *, const ta_dims *,
                          const int8_t *, const ta_dims *, const int8_t *, const int32_t *,
                          const ta_dims *, int8_t *, void *, const ta_add_params *,
                          const int8_t *);
  /* The DSP entries: the full blocks, then the lean ones in their own
   * (smaller) scratch. */
  int bad = 0;
  for (int e = 0; e < (dsp ? 2 : 1) && !bad; e++) {
    fn f = !dsp ? ta_conv2d_fold_add_portable_s8
           : e  ? ta_conv2d_fold_add_lean_dsp_s8
                : ta_conv2d_fold_add_dsp_s8;
    size_t ns = e ? ta_conv2d_fold_add_lean_dsp_s8_scratch_size(p, id, fd, od)
                  : ta_conv2d_fold_add_s8_scratch_size(p, id, fd, od);
    void *scratch = canary_alloc(ns);
    ta_status s1 = f(p, q, id, in, fd, filter, bf, od, o1, scratch, &ap, res);
    long d1 = first_diff(o1, expect, no);
    /* In place: the residual's bytes become the output. */
    memcpy(o1, res, no);
    ta_status s2 = f(p, q, id, in, fd, filter, bf, od, o1, scratch, &ap, o1);
    long d2 = first_diff(o1, expect, no);
    bad = s0 != TA_OK || s1 != TA_OK || s2 != TA_OK || d1 >= 0 || d2 >= 0 ||
          !canary_ok(o1, no) || !canary_ok(res, no) || !canary_ok(scratch, ns);
    if (bad)
      CHECK(0,
            "conv + residual ADD (%s, in %dx%dx%dx%d filter %dx%dx%dx%d) equals the conv then "
            "ta_add_s8: status %d/%d/%d, first difference %ld (own buffer), %ld (in place)",
            !dsp ? "portable entry" : e ? "lean dsp entry" : "dsp entry", id->n, id->h, id->w,
            id->c, fd->n, fd->h, fd->w, fd->c, s0, s1, s2, d1, d2);
    fused_cases++;
    lean_cases += e;
    canary_free(scratch);
  }
  canary_free(res);
  canary_free(o1);
  free(expect);
  return bad ? -1 : 0;
}

static int random_conv_case(int depthwise, int k, int dsp) {
  ta_conv_params p;
  memset(&p, 0, sizeof p);
  ta_dims id, fd, od;
  id.n = ref_rand(1, 2);
  id.h = ref_rand(1, 9);
  id.w = ref_rand(1, 9);
  int groups = depthwise || dsp ? 1 : (ref_rand(0, 3) == 0 ? 2 : 1);
  p.depth_multiplier = depthwise && !dsp ? ref_rand(1, 3) : 1;
  int fc = ref_rand(1, depthwise ? 9 : 7);
  if (dsp)
    fc = depthwise ? 4 * ref_rand(1, 4) : ref_rand(1, 3) == 1 ? 4 * ref_rand(1, 5) : ref_rand(1, 9);
  id.c = fc * groups;
  fd.h = ref_rand(1, 4);
  fd.w = ref_rand(1, 4);
  if (dsp && ref_rand(0, 1)) /* 3x3 (a loop of its own) or 1x1 */
    fd.h = fd.w = depthwise || ref_rand(0, 1) ? 3 : 1;
  else if (dsp && depthwise && ref_rand(0, 2) == 0) /* up to the DSP path's 8x8 */
    fd.h = fd.w = ref_rand(5, 8);
  p.stride_h = ref_rand(1, 3);
  p.stride_w = ref_rand(1, 3);
  p.dilation_h = ref_rand(0, 3) == 0 ? ref_rand(2, 3) : 1;
  p.dilation_w = ref_rand(0, 3) == 0 ? ref_rand(2, 3) : 1;
  Padding pad = ref_rand(0, 1) ? PAD_SAME : PAD_VALID;
  compute_padding(pad, id.h, fd.h, p.stride_h, p.dilation_h, &od.h, &p.pad_h);
  compute_padding(pad, id.w, fd.w, p.stride_w, p.dilation_w, &od.w, &p.pad_w);
  if (od.h < 1 || od.w < 1)
    return 0;
  if (ref_rand(0, 4) == 0) { /* odd explicit padding */
    p.pad_h = ref_rand(0, fd.h);
    p.pad_w = ref_rand(0, fd.w);
  }
  od.n = id.n;
  if (depthwise) {
    fd.n = 1;
    fd.c = id.c * p.depth_multiplier;
  } else {
    fd.n = ref_rand(1, dsp ? 20 : 10) * groups;
    fd.c = fc;
  }
  od.c = depthwise ? fd.c : fd.n;
  p.input_offset = ref_rand(-127, 128);
  p.output_offset = ref_rand(-128, 127);
  p.act_min = ref_rand(0, 3) == 0 ? ref_rand(-128, 0) : -128;
  p.act_max = ref_rand(0, 3) == 0 ? ref_rand(p.act_min, 127) : 127;
  int rounding = dsp ? TA_ROUND_DOUBLE : ref_rand(0, 1);
  int per_channel = ref_rand(0, 3) != 0;
  int32_t *mult = malloc(sizeof(int32_t) * od.c), *shift = malloc(sizeof(int32_t) * od.c);
  random_quant(od.c, mult, shift, rounding, dsp);
  ta_quant q = {mult, shift, per_channel, rounding, 0};

  size_t ni = dims_count(&id), nf = dims_count(&fd), no = dims_count(&od);
  int8_t *in = canary_alloc(ni), *filter = canary_alloc(nf);
  ref_fill_s8(in, ni);
  ref_fill_s8(filter, nf);
  /* bf: the folded bias */
  int32_t *bias = malloc(sizeof(int32_t) * od.c), *bf = malloc(sizeof(int32_t) * od.c);
  int with_bias = ref_rand(0, 4) != 0;
  for (int i = 0; i < od.c; i++)
    bias[i] = ref_rand(-20000, 20000);
  int8_t *expect = malloc(no), *o1 = canary_alloc(no), *o2 = canary_alloc(no);
  int8_t *o3 = canary_alloc(no), *o4 = canary_alloc(no), *o5 = canary_alloc(no);
  size_t ns = depthwise ? ta_depthwise_conv2d_fold_s8_scratch_size(&p, &id, &fd, &od)
                        : ta_conv2d_fold_s8_scratch_size(&p, &id, &fd, &od);
  void *scratch = canary_alloc(ns);
  ta_status s1, s2, s3, s5 = TA_OK;
  if (depthwise) {
    ref_dw_s8(&p, &q, &id, in, &fd, filter, with_bias ? bias : NULL, &od, expect);
    fold_bias_depthwise_s8(filter, fd.h * fd.w, fd.c, with_bias ? bias : NULL, p.input_offset,
                           bf);
    s1 = ta_depthwise_conv2d_s8(&p, &q, &id, in, &fd, filter, with_bias ? bias : NULL, &od, o1,
                                NULL);
    /* Once as the compiler would call it (ta_quant.mmla decided from
     * the op's constants, lower_nn.c), once with the flag clear. */
    s3 = ta_depthwise_conv2d_fold_s8(&p, &q, &id, in, &fd, filter, bf, &od, o3, scratch);
    q.mmla = ta_quant_mmla_ok(&q, od.c, bf, fd.h * fd.w);
    s2 = ta_depthwise_conv2d_fold_s8(&p, &q, &id, in, &fd, filter, bf, &od, o2, scratch);
    /* The entry points of one path each, as the compiler picks them
     * (lower_nn.c): the same bytes, forwards and (o4) backwards.  The
     * 3 x 3 ones take the records of ta_pack_records_doubled() instead
     * of the folded bias. */
    const int dsp_path = ta_depthwise_conv2d_fold_dsp_ok(&p, &q, &id, &fd);
    ta_quant q3 = q;
    q3.mmla = 1 | TA_MMLA_DOUBLED;
    int32_t *rec3 = malloc(sizeof(int32_t) * 4 * (size_t)od.c);
    const int k3 = ta_depthwise_conv2d_fold_3x3_ok(&p, &q3, &id, &fd) &&
                   ta_pack_records_doubled(&q, od.c, bf, 9, p.output_offset, rec3);
    dsp_entries += dsp_path || k3;
    dw_fn fwd = ta_depthwise_conv2d_fold_portable_s8;
    dw_fn back = ta_depthwise_conv2d_fold_rev_portable_s8;
    const ta_quant *qe = &q;
    const int32_t *be = bf;
    if (k3)
      fwd = ta_depthwise_conv2d_fold_3x3_dsp_s8, back = ta_depthwise_conv2d_fold_rev_3x3_dsp_s8,
      qe = &q3, be = rec3;
    else if (dsp_path)
      fwd = ta_depthwise_conv2d_fold_dsp_s8, back = ta_depthwise_conv2d_fold_rev_dsp_s8;
    s5 = fwd(&p, qe, &id, in, &fd, filter, be, &od, o5, scratch);
    if (s2 == TA_OK)
      s2 = back(&p, qe, &id, in, &fd, filter, be, &od, o4, scratch);
    free(rec3);
    /* A 3 x 3 op also through the DSP entries for any filter (both
     * ways). */
    if (dsp_path && k3 && s5 == TA_OK) {
      /* (The same op through the DSP entries for any filter, with the
       * folded bias.) */
      const dw_fn other[2] = {ta_depthwise_conv2d_fold_dsp_s8,
                              ta_depthwise_conv2d_fold_rev_dsp_s8};
      for (int e = 0; e < 2 && s5 == TA_OK; e++) {
        int8_t *oe = canary_alloc(no);
        s5 = other[e](&p, &q, &id, in, &fd, filter, bf, &od, oe, scratch);
        if (s5 == TA_OK && (memcmp(oe, o5, no) || !canary_ok(oe, no)))
          s5 = TA_ERR_ARG; /* reported as a status */
        canary_free(oe);
      }
      dsp_3x3_cases++;
    }

  } else {
    ref_conv_s8(&p, &q, &id, in, &fd, filter, with_bias ? bias : NULL, &od, expect);
    fold_bias_s8(filter, fd.n, fd.h * fd.w * fd.c, with_bias ? bias : NULL, p.input_offset, bf);
    s1 = ta_conv2d_s8(&p, &q, &id, in, &fd, filter, with_bias ? bias : NULL, &od, o1, NULL);
    s3 = ta_conv2d_fold_s8(&p, &q, &id, in, &fd, filter, bf, &od, o3, scratch);
    const int32_t K = fd.h * fd.w * fd.c;
    q.mmla = ta_quant_mmla_ok(&q, od.c, bf, K);
    s2 = ta_conv2d_fold_s8(&p, &q, &id, in, &fd, filter, bf, &od, o2, scratch);
    /* As the compiler passes it to the DSP entry: the records instead of
     * the bias, the filter packed (lower_nn.c). */
    size_t npk = ta_pack_size(fd.n, K);
    int8_t *packed = canary_alloc(npk);
    int32_t *rec = malloc(sizeof(int32_t) * 8 * (size_t)(od.c / 2 + 1));
    if (q.mmla && ta_pack_records(&q, od.c, bf, K, p.output_offset, 2, rec)) {
      q.mmla |= TA_MMLA_RECORDS;
      ta_pack_rows_s8(&q, bf, filter, fd.n, K, 2, packed);
    }
    const int dsp_path = ta_conv2d_fold_dsp_ok(&q, &id, &fd);
    dsp_entries += dsp_path;
    const int8_t *f5 = dsp_path ? packed : filter;
    const int32_t *b5 = dsp_path ? rec : bf;
    s5 = (dsp_path ? ta_conv2d_fold_dsp_s8 : ta_conv2d_fold_portable_s8)(
        &p, &q, &id, in, &fd, f5, b5, &od, o5, scratch);
    if (dsp_path && s5 == TA_OK) {
      /* The lean entry (two pixels per block): the same bytes in its own
       * scratch, half the size. */
      const size_t nl = ta_conv2d_fold_lean_dsp_s8_scratch_size(&p, &id, &fd, &od);
      void *sl = canary_alloc(nl);
      int8_t *ol = canary_alloc(no);
      s5 = ta_conv2d_fold_lean_dsp_s8(&p, &q, &id, in, &fd, f5, b5, &od, ol, sl);
      if (s5 == TA_OK && (memcmp(ol, o5, no) || !canary_ok(ol, no) || !canary_ok(sl, nl) ||
                          2 * nl != ns))
        s5 = TA_ERR_ARG; /* reported as a status */
      lean_cases++;
      canary_free(sl);
      canary_free(ol);
    }
    if (dsp_path && s5 == TA_OK) {
      /* The wide entry (the packed filter widened to int16 on the host,
       * ta_pack_wide_s8()): the same bytes for an even number of output
       * channels, TA_ERR_ARG for an odd one. */
      int16_t *wide = canary_alloc(2 * npk);
      int8_t *ow = canary_alloc(no);
      ta_pack_wide_s8(packed, npk, wide);
      const ta_status sw = ta_conv2d_fold_wide_dsp_s8(&p, &q, &id, in, &fd, wide, b5, &od, ow,
                                                      scratch);
      if (od.c & 1)
        s5 = sw == TA_ERR_ARG ? TA_OK : TA_ERR_ARG;
      else if (sw != TA_OK || memcmp(ow, o5, no) || !canary_ok(ow, no) ||
               !canary_ok(wide, 2 * npk))
        s5 = TA_ERR_ARG; /* reported as a status */
      else
        wide_cases++;
      canary_free(wide);
      canary_free(ow);
    }
    if (s5 == TA_OK && rounding == TA_ROUND_DOUBLE && first_diff(o5, expect, no) < 0 &&
        fused_add_case(&p, &q, &id, in, &fd, f5, b5, &od, o5, dsp_path) < 0)
      s5 = TA_ERR_ARG; /* reported above */
    if (!canary_ok(packed, npk))
      s5 = TA_ERR_ARG;
    canary_free(packed);
    free(rec);
  }
  mmla_cases += q.mmla != 0;
  long d1 = first_diff(o1, expect, no), d2 = first_diff(o2, expect, no);
  if (depthwise && d2 < 0) {
    d2 = first_diff(o4, expect, no);
    if (d2 >= 0)
      memcpy(o2, o4, no); /* report the backward kernel's byte */
  }
  long d3 = first_diff(o3, expect, no);
  if (d3 < 0 && (d3 = first_diff(o5, expect, no)) >= 0)
    memcpy(o3, o5, no); /* report the path entry's byte */
  int ok = s1 == TA_OK && s2 == TA_OK && s3 == TA_OK && s5 == TA_OK && d1 < 0 && d2 < 0 &&
           d3 < 0 && canary_ok(o5, no) &&
           canary_ok(o1, no) && canary_ok(o2, no) && canary_ok(o3, no) && canary_ok(o4, no) &&
           canary_ok(in, ni) &&
           canary_ok(filter, nf) && canary_ok(scratch, ns);
  if (!ok) {
    long d = d1 >= 0 ? d1 : d2 >= 0 ? d2 : d3;
    int8_t *o = d1 >= 0 ? o1 : d2 >= 0 ? o2 : o3;
    CHECK(0,
          "%s random case %d (in %dx%dx%dx%d filter %dx%dx%dx%d stride %d,%d dil %d,%d pad "
          "%d,%d M %d) matches the reference: status %d/%d, %s index %ld expected %d actual %d",
          depthwise ? "depthwise" : "conv", k, id.n, id.h, id.w, id.c, fd.n, fd.h, fd.w, fd.c,
          p.stride_h, p.stride_w, p.dilation_h, p.dilation_w, p.pad_h, p.pad_w,
          p.depth_multiplier, s1, s2, d1 >= 0 ? "plain" : d2 >= 0 ? "fold" : "fold, mmla 0", d,
          d >= 0 ? expect[d] : 0,
          d >= 0 ? o[d] : 0);
  }
  canary_free(in);
  canary_free(filter);
  canary_free(o1);
  canary_free(o2);
  canary_free(o3);
  canary_free(o4);
  canary_free(o5);
  canary_free(scratch);
  free(expect);
  free(bias);
  free(bf);
  free(mult);
  free(shift);
  return ok ? 1 : -1;
}

static void test_random(int depthwise, int dsp) {
  int run = 0, bad = 0;
  mmla_cases = dsp_entries = dsp_3x3_cases = fused_cases = lean_cases = wide_cases = 0;
  for (int k = 0; k < 400; k++) {
    int r = random_conv_case(depthwise, k, dsp);
    run += r != 0;
    bad += r < 0;
  }
  CHECK(bad == 0 && run > 200,
        "%d random %s cases (%s) match TFLite's reference loops byte for byte (%d differ)",
        run, depthwise ? "DEPTHWISE_CONV_2D" : "CONV_2D",
        dsp ? "in the form of the Arm DSP paths" : "both forms, both roundings", bad);
  if (dsp)
    CHECK(mmla_cases > run / 2,
          "%d of %d random %s cases in the DSP paths' form fit their SMMLAR requantization "
          "(ta_quant_mmla_ok())",
          mmla_cases, run, depthwise ? "DEPTHWISE_CONV_2D" : "CONV_2D");
  if (dsp)
    CHECK(dsp_entries > run / 2,
          "%d of %d of them ran through the kernel's _dsp_ entry point, the same bytes",
          dsp_entries, run);
  if (!depthwise)
    CHECK(fused_cases > run / 4,
          "%d of them also ran with a residual ADD in the epilogue (ta_conv2d_fold_add_*_s8), "
          "into their own buffer and in place over the residual: the bytes of the two ops",
          fused_cases);
  if (dsp && !depthwise)
    CHECK(lean_cases > run / 2,
          "%d runs of the lean DSP entries (ta_conv2d_fold_lean_dsp_s8, _add_lean_dsp_s8: two "
          "pixels per block, half the scratch, exactly) gave the same bytes",
          lean_cases);
  if (dsp && !depthwise)
    CHECK(wide_cases > run / 4,
          "%d runs of the wide DSP entry (ta_conv2d_fold_wide_dsp_s8: the filter widened to "
          "int16 on the host) with an even number of output channels gave the same bytes, and "
          "every odd one was TA_ERR_ARG",
          wide_cases);
  if (dsp && depthwise)
    CHECK(dsp_3x3_cases > run / 8,
          "%d 3x3 cases ran through both DSP forms, forwards and backwards, the same bytes",
          dsp_3x3_cases);
}

static void test_bad_args(void) {
  ta_conv_params p = {0, 1, 1, 1, 0, 0, 1, 0, 0, -128, 127, 0, 0};
  ta_dims id = {1, 2, 2, 2}, fd = {1, 1, 1, 2}, od = {1, 2, 2, 1};
  int32_t m = 1 << 30, s = 0;
  ta_quant q = {&m, &s, 0, 0, 0};
  int8_t buf[8] = {0};
  int32_t b = 0;
  CHECK(ta_conv2d_s8(&p, &q, &id, buf, &fd, buf, NULL, &od, buf, NULL) == TA_ERR_ARG,
        "a zero stride is TA_ERR_ARG");
  p.stride_h = 1;
  fd.c = 3;
  CHECK(ta_conv2d_fold_s8(&p, &q, &id, buf, &fd, buf, &b, &od, buf, NULL) == TA_ERR_ARG,
        "input channels not a multiple of the filter's are TA_ERR_ARG");
  fd.c = 2;
  CHECK(ta_conv2d_fold_s8(&p, &q, &id, buf, &fd, buf, NULL, &od, buf, NULL) == TA_ERR_ARG,
        "the folded kernel needs its folded bias");
  CHECK(ta_conv2d_s8_scratch_size(&p, &id, &fd, &od) == 0 &&
            ta_depthwise_conv2d_s8_scratch_size(&p, &id, &fd, &od) == 0,
        "the reference-form int8 convolutions need no scratch");
  fd.h = 3;
  fd.w = 2;
  CHECK(ta_conv2d_fold_s8_scratch_size(&p, &id, &fd, &od) == 144,
        "the folded CONV_2D needs four filter windows of int16 scratch and, for filter "
        "channels not a multiple of 4, four of int8 (4 x 3x2x2 x 2 + 4 x 12 = 144 bytes)");
  p.pad_h = 1;
  CHECK(ta_conv2d_fold_s8(&p, &q, &id, buf, &fd, buf, &b, &od, buf, NULL) == TA_ERR_ARG,
        "the folded CONV_2D without its scratch is TA_ERR_ARG");
  /* Each path's entry point refuses the ops it does not take, on every
   * core, instead of running another path. */
  p.pad_h = 0;
  fd.h = fd.w = 1;
  int32_t sc[64];
  ta_dims dd = {1, 2, 2, 4}, dfd = {1, 1, 1, 4};
  CHECK(ta_conv2d_fold_dsp_s8(&p, &q, &id, buf, &fd, buf, &b, &od, buf, sc) == TA_ERR_ARG &&
            ta_depthwise_conv2d_fold_dsp_s8(&p, &q, &dd, buf, &dfd, buf, &b, &dd, buf, NULL) ==
                TA_ERR_ARG,
        "a _dsp_ entry without ta_quant.mmla is TA_ERR_ARG");
  q.rounding = TA_ROUND_ORT;
  CHECK(ta_conv2d_fold_portable_s8(&p, &q, &id, buf, &fd, buf, &b, &od, buf, sc) == TA_ERR_ARG &&
            ta_depthwise_conv2d_fold_rev_portable_s8(&p, &q, &dd, buf, &dfd, buf, &b, &dd, buf,
                                                     NULL) == TA_ERR_ARG,
        "a _portable_ entry given ONNX Runtime's rounding is TA_ERR_ARG");
  q.rounding = TA_ROUND_SINGLE;
  CHECK(ta_conv2d_fold_ort_s8(&p, &q, &id, buf, &fd, buf, &b, &od, buf, sc) == TA_ERR_ARG &&
            ta_depthwise_conv2d_fold_ort_s8(&p, &q, &dd, buf, &dfd, buf, &b, &dd, buf, NULL) ==
                TA_ERR_ARG,
        "an _ort_ entry given another rounding is TA_ERR_ARG");
  CHECK(ta_conv2d_fold_portable_s8(&p, &q, &id, buf, &fd, buf, &b, &od, buf, sc) == TA_OK,
        "and the _portable_ entry takes single rounding");
}

/*
 * Depthwise borders with outputs that mostly do not saturate (the random
 * cases' scales saturate many): shapes of keyword spotting's 3x3 layers
 * (an input only 5 wide, so most pixels touch a border), stride 2,
 * dilation, a 5x5 filter, padding wider than the filter's reach (rows
 * with no tap inside), every zero point sign; per channel multipliers
 * near 2^-9, so the zero point's share of every border tap shows in the
 * bytes.  Compared with the reference loops, forwards and backwards, in
 * the form the compiler passes (ta_quant.mmla set).
 */
static void test_depthwise_borders(void) {
  static const struct {
    int32_t h, w, c, k, stride, dil, pad_h, pad_w;
  } cases[] = {
      {25, 5, 8, 3, 1, 1, 1, 1}, {9, 9, 4, 3, 2, 1, 1, 1}, {8, 7, 12, 3, 2, 1, 0, 0},
      {6, 6, 4, 3, 1, 2, 2, 2},  {7, 5, 8, 5, 1, 1, 2, 2}, {3, 4, 4, 3, 1, 1, 3, 2},
      {2, 2, 4, 3, 1, 1, 1, 1},  {1, 6, 8, 3, 1, 1, 1, 1}, {5, 1, 4, 3, 2, 1, 1, 1},
  };
  const int ncases = (int)(sizeof cases / sizeof cases[0]);
  int bad = 0, nout = 0, inside = 0;
  for (int k = 0; k < ncases; k++) {
    ta_conv_params p;
    memset(&p, 0, sizeof p);
    p.stride_h = p.stride_w = cases[k].stride;
    p.dilation_h = p.dilation_w = cases[k].dil;
    p.pad_h = cases[k].pad_h;
    p.pad_w = cases[k].pad_w;
    p.depth_multiplier = 1;
    p.input_offset = k % 3 == 0 ? 128 : k % 3 == 1 ? -127 : 37;
    p.output_offset = k % 2 ? -5 : 3;
    p.act_min = k % 4 == 3 ? -100 : -128;
    p.act_max = 127;
    const int32_t reach = (cases[k].k - 1) * cases[k].dil + 1;
    ta_dims id = {1 + k % 2, cases[k].h, cases[k].w, cases[k].c};
    ta_dims fd = {1, cases[k].k, cases[k].k, cases[k].c};
    ta_dims od = {id.n, (id.h + 2 * p.pad_h - reach) / p.stride_h + 1,
                  (id.w + 2 * p.pad_w - reach) / p.stride_w + 1, id.c};
    int32_t mult[16], shift[16], bias[16], bf[16];
    for (int c = 0; c < id.c; c++) {
      mult[c] = (int32_t)((1u << 30) + (ref_next() & 0x3fffffffu));
      shift[c] = -9 - (c % 2);
      bias[c] = ref_rand(-3000, 3000);
    }
    ta_quant q = {mult, shift, 1, TA_ROUND_DOUBLE, 0};
    const size_t ni = dims_count(&id), nf = dims_count(&fd), no = dims_count(&od);
    int8_t *in = canary_alloc(ni), *filter = canary_alloc(nf), *expect = malloc(no);
    int8_t *o1 = canary_alloc(no), *o2 = canary_alloc(no);
    ref_fill_s8(in, ni);
    ref_fill_s8(filter, nf);
    fold_bias_depthwise_s8(filter, fd.h * fd.w, fd.c, bias, p.input_offset, bf);
    q.mmla = ta_quant_mmla_ok(&q, od.c, bf, fd.h * fd.w);
    ref_dw_s8(&p, &q, &id, in, &fd, filter, bias, &od, expect);
    const ta_status s1 = ta_depthwise_conv2d_fold_s8(&p, &q, &id, in, &fd, filter, bf, &od, o1, NULL);
    const ta_status s2 =
        ta_depthwise_conv2d_fold_rev_s8(&p, &q, &id, in, &fd, filter, bf, &od, o2, NULL);
    const long d1 = first_diff(o1, expect, no), d2 = first_diff(o2, expect, no);
    for (size_t i = 0; i < no; i++)
      inside += expect[i] > p.act_min && expect[i] < 127;
    nout += (int)no;
    if (s1 != TA_OK || s2 != TA_OK || !q.mmla || d1 >= 0 || d2 >= 0 || !canary_ok(o1, no) ||
        !canary_ok(o2, no) || !canary_ok(in, ni)) {
      const long d = d1 >= 0 ? d1 : d2;
      bad++;
      CHECK(0,
            "depthwise border case %d (in %dx%dx%dx%d, %dx%d filter, stride %d, dilation %d, "
            "pad %d,%d) matches the reference: status %d/%d, mmla %d, %s index %ld expected "
            "%d actual %d",
            k, id.n, id.h, id.w, id.c, fd.h, fd.w, p.stride_h, p.dilation_h, p.pad_h, p.pad_w,
            s1, s2, q.mmla, d1 >= 0 ? "forwards" : "backwards", d, d >= 0 ? expect[d] : 0,
            d >= 0 ? (d1 >= 0 ? o1 : o2)[d] : 0);
    }
    canary_free(in);
    canary_free(filter);
    canary_free(o1);
    canary_free(o2);
    free(expect);
  }
  CHECK(bad == 0 && inside * 10 > nout * 9,
        "%d depthwise border cases (3x3 and 5x5, strides, dilation, wide padding) match the "
        "reference loops forwards and backwards, %d of %d outputs unsaturated",
        ncases - bad, inside, nout);
}

/* x rounded down (floor_to) or up (ceil_to) to a multiple of m > 0. */
static long floor_to(long x, long m) { return x >= 0 ? x / m * m : -((-x + m - 1) / m * m); }
static long ceil_to(long x, long m) { return -floor_to(-x, m); }

/*
 * How far the 3x3 depthwise walk lets its output overlap its input, in
 * bytes of delta = out_base - in_base (channel by channel: see
 * ta_depthwise_conv2d_fold_s8.c).  Forwards, after output row y of
 * image n the first input row not read yet is r = y*stride_h - pad_h +
 * 3 (at least 0) of image n, or image n + 1's first when r >= H: the
 * row's output must end at or below it, so delta is at most
 * max_ahead_3x3() (no bound when nothing is read after any row but the
 * last: the input's size, beyond which nothing overlaps).  Backwards,
 * after row y the input still to read ends at row r = y*stride_h -
 * pad_h (within [0, H]) of image n: the row's output must start at or
 * above it, so delta is at least min_above_3x3() (minus the output's
 * size when nothing bounds it).
 */
static long max_ahead_3x3(const ta_conv_params *p, const ta_dims *id, const ta_dims *od) {
  const long rin = (long)id->w * id->c, rout = (long)od->w * od->c;
  long m = (long)dims_count(id);
  for (int32_t n = 0; n < id->n; n++)
    for (int32_t y = 0; y < od->h; y++) {
      const int32_t r0 = y * p->stride_h - p->pad_h + 3, r = r0 > 0 ? r0 : 0;
      if (n == id->n - 1 && (y == od->h - 1 || r >= id->h))
        continue;
      const long next = r < id->h ? ((long)n * id->h + r) * rin : (long)(n + 1) * id->h * rin;
      const long v = next - ((long)n * od->h + y + 1) * rout;
      m = v < m ? v : m;
    }
  return m;
}

static long min_above_3x3(const ta_conv_params *p, const ta_dims *id, const ta_dims *od) {
  const long rin = (long)id->w * id->c, rout = (long)od->w * od->c;
  long m = -(long)dims_count(od);
  for (int32_t n = 0; n < id->n; n++)
    for (int32_t y = n == 0 ? 1 : 0; y < od->h; y++) {
      const int32_t r0 = y * p->stride_h - p->pad_h;
      const int32_t r = r0 < 0 ? 0 : r0 > id->h ? id->h : r0;
      const long v = ((long)n * id->h + r) * rin - ((long)n * od->h + y) * rout;
      m = v > m ? v : m;
    }
  return m;
}

/*
 * The 3x3 depthwise entries with the output inside the same buffer as
 * the input, as a compiler placing it in place would call them: random
 * ops of the 3x3 path (strides 1..2 wide and 1..3 high, SAME, VALID and
 * odd top/left padding, 1 or 2 images), the forward entry at every
 * distance delta (a multiple of C) from the output just below the input
 * up to max_ahead_3x3(), the backward one from min_above_3x3() up to
 * the output just above the input.  Each run is the reference's bytes,
 * with canaries around the buffer and the scratch.
 */
static void test_depthwise_3x3_in_place(void) {
  int cases = 0, bad = 0, fwd_runs = 0, back_runs = 0, exact = 0, below = 0;
  for (int k = 0; k < 120; k++) {
    ta_conv_params p;
    memset(&p, 0, sizeof p);
    p.stride_h = ref_rand(1, 3);
    p.stride_w = ref_rand(1, 2);
    p.dilation_h = p.dilation_w = p.depth_multiplier = 1;
    ta_dims id = {ref_rand(1, 2), ref_rand(1, 9), ref_rand(1, 9), 4 * ref_rand(1, 3)};
    ta_dims fd = {1, 3, 3, id.c}, od = {id.n, 0, 0, id.c};
    const Padding pad = ref_rand(0, 1) ? PAD_SAME : PAD_VALID;
    compute_padding(pad, id.h, 3, p.stride_h, 1, &od.h, &p.pad_h);
    compute_padding(pad, id.w, 3, p.stride_w, 1, &od.w, &p.pad_w);
    if (od.h < 1 || od.w < 1)
      continue;
    if (ref_rand(0, 2) == 0) { /* odd explicit padding */
      p.pad_h = ref_rand(0, 3);
      p.pad_w = ref_rand(0, 3);
    }
    p.input_offset = ref_rand(-127, 128);
    p.output_offset = ref_rand(-128, 127);
    p.act_min = ref_rand(0, 3) == 0 ? ref_rand(-128, 0) : -128;
    p.act_max = ref_rand(0, 3) == 0 ? ref_rand(p.act_min, 127) : 127;
    const int32_t C = id.c;
    int32_t mult[12], shift[12], bias[12], bf[12], rec[48];
    random_quant(C, mult, shift, TA_ROUND_DOUBLE, 1);
    for (int32_t c = 0; c < C; c++)
      bias[c] = ref_rand(-20000, 20000);
    ta_quant q = {mult, shift, ref_rand(0, 3) != 0, TA_ROUND_DOUBLE, 0};
    const size_t ni = dims_count(&id), nf = dims_count(&fd), no = dims_count(&od);
    int8_t *in = malloc(ni), *filter = malloc(nf), *expect = malloc(no);
    ref_fill_s8(in, ni);
    ref_fill_s8(filter, nf);
    ref_dw_s8(&p, &q, &id, in, &fd, filter, bias, &od, expect);
    fold_bias_depthwise_s8(filter, 9, C, bias, p.input_offset, bf);
    q.mmla = 1 | TA_MMLA_DOUBLED;
    if (!ta_depthwise_conv2d_fold_3x3_ok(&p, &q, &id, &fd) ||
        !ta_pack_records_doubled(&q, C, bf, 9, p.output_offset, rec)) {
      free(in);
      free(filter);
      free(expect);
      continue;
    }
    const size_t ns = ta_depthwise_conv2d_fold_3x3_dsp_s8_scratch_size(&p, &id, &fd, &od);
    void *scratch = canary_alloc(ns);
    const long ahead = floor_to(max_ahead_3x3(&p, &id, &od), C);
    const long above = ceil_to(min_above_3x3(&p, &id, &od), C);
    /* Forwards from -no up to ahead, then backwards from above up to ni. */
    const long nfwd = ahead >= -(long)no ? (ahead + (long)no) / C + 1 : 0;
    const long nback = above <= (long)ni ? ((long)ni - above) / C + 1 : 0;
    int failed = 0;
    for (long i = 0; i < nfwd + nback && !failed; i++) {
      const int rev = i >= nfwd;
      const long delta = rev ? above + (i - nfwd) * C : -(long)no + i * C;
      /* One buffer from the lower base to the higher end. */
      const long lo = delta < 0 ? delta : 0;
      const long hi = delta + (long)no > (long)ni ? delta + (long)no : (long)ni;
      int8_t *buf = canary_alloc((size_t)(hi - lo));
      int8_t *x = buf - lo, *o = x + delta;
      memset(buf, 0x5a, (size_t)(hi - lo));
      memcpy(x, in, ni);
      const ta_status st =
          (rev ? ta_depthwise_conv2d_fold_rev_3x3_dsp_s8 : ta_depthwise_conv2d_fold_3x3_dsp_s8)(
              &p, &q, &id, x, &fd, filter, rec, &od, o, scratch);
      const long d = first_diff(o, expect, no);
      if (st != TA_OK || d >= 0 || !canary_ok(buf, (size_t)(hi - lo)) || !canary_ok(scratch, ns)) {
        failed = 1;
        CHECK(0,
              "3x3 depthwise in place (%s, in %dx%dx%dx%d stride %d,%d pad %d,%d, output %ld "
              "bytes from the input) matches the reference: status %d, index %ld expected %d "
              "actual %d",
              rev ? "backwards" : "forwards", id.n, id.h, id.w, id.c, p.stride_h, p.stride_w,
              p.pad_h, p.pad_w, delta, st, d, d >= 0 ? expect[d] : 0, d >= 0 ? o[d] : 0);
      }
      fwd_runs += !rev;
      back_runs += rev;
      exact += !rev && delta == 0;
      below += !rev && delta < 0 && delta > -(long)no;
      canary_free(buf);
    }
    bad += failed;
    cases++;
    canary_free(scratch);
    free(in);
    free(filter);
    free(expect);
  }
  CHECK(bad == 0 && cases > 60 && exact > 20 && below > 60 && back_runs > cases,
        "%d 3x3 depthwise cases ran in place (forwards at %d distances, %d of them exactly "
        "over the input and %d partly below it; backwards at %d), the reference's bytes",
        cases, fwd_runs, exact, below, back_runs);
}

int main(void) {
  test_dsp_records();
  test_degenerate_channels();
  test_simple_per_channel();
  test_same_padding_borders();
  test_depth_multiplier();
  test_random(0, 0);
  test_random(1, 0);
  test_random(0, 1);
  test_random(1, 1);
  test_depthwise_borders();
  test_depthwise_3x3_in_place();
  test_bad_args();
  return test_exit();
}
