/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Tests of compiler/quant.c (the host-side parameter derivations) and of
 * runtime/include/ta_fixedpoint.h.
 *
 * Expected values with provenance:
 *  [QU] tensorflow/lite/kernels/internal/quantization_util_test.cc
 *       (QuantizeMultiplierSmallerThanOneExp, QuantizeMultiplierGreaterThanOne,
 *        QuantizeMultiplierUnderflow, QuantizeMultiplierArray,
 *        MultiplyByQuantizedMultiplierInt32, PreprocessSoftmaxScaling,
 *        CalculateInputRadius)
 *  [PAD] tensorflow/lite/kernels/padding.h, worked by hand.
 * The rest is hand-computed in the comments.
 */
#include "test.h"
#include "tinyaot.h"
#include "ta_fixedpoint.h"
#include "ta_dsp.h"
#include "ref.h"

#include <float.h>
#include <math.h>

static void check_qm(double real, int rounding, int32_t em, int32_t es, const char *what) {
  int32_t m, s;
  bool ok = quantize_multiplier(real, rounding, &m, &s);
  CHECK(ok && m == em && s == es, "QuantizeMultiplier(%s) is (%d, %d): got (%d, %d)", what,
        (int)em, (int)es, (int)m, (int)s);
}

static int32_t quant_and_multiply(int32_t x, double real) {
  int32_t m, s;
  quantize_multiplier(real, TA_ROUND_DOUBLE, &m, &s);
  return ta_requant_double(x, m, s);
}

int main(void) {
  /* [QU] QuantizeMultiplierArray: powers of two, both signs. */
  const double pw[] = {-4, -2, -1, -0.5, -0.25, -0.125, 0, 0.125, 0.25, 0.5, 1, 2, 4};
  const int32_t pw_m[] = {-1073741824, -1073741824, -1073741824, -1073741824, -1073741824,
                          -1073741824, 0,           1073741824,  1073741824,  1073741824,
                          1073741824,  1073741824,  1073741824};
  const int32_t pw_s[] = {3, 2, 1, 0, -1, -2, 0, -2, -1, 0, 1, 2, 3};
  for (int i = 0; i < 13; i++) {
    char buf[32];
    snprintf(buf, sizeof buf, "%g", pw[i]);
    check_qm(pw[i], TA_ROUND_DOUBLE, pw_m[i], pw_s[i], buf);
  }
  /* [QU] SmallerThanOneExp and GreaterThanOne boundaries. */
  int32_t m, s;
  CHECK(quantize_multiplier_smaller_than_one_exp(0.50 - 5e-9, 0, &m, &s) && m == 2147483627 &&
            s == -1,
        "0.5 - 5e-9 quantizes to (2147483627, -1)");
  CHECK(quantize_multiplier_smaller_than_one_exp(0.50 - 1e-10, 0, &m, &s) && m == 1073741824 &&
            s == 0,
        "0.5 - 1e-10 rounds up to (2^30, 0)");
  CHECK(quantize_multiplier_smaller_than_one_exp(0.75, 0, &m, &s) && m == 1610612736 && s == 0,
        "0.75 quantizes to (1610612736, 0)");
  CHECK(quantize_multiplier_smaller_than_one_exp(1 - 1e-9, 0, &m, &s) && m == 2147483646 && s == 0,
        "1 - 1e-9 quantizes to (2147483646, 0)");
  CHECK(!quantize_multiplier_smaller_than_one_exp(1 - 1e-15, 0, &m, &s) &&
            !quantize_multiplier_smaller_than_one_exp(1.0, 0, &m, &s) &&
            !quantize_multiplier_smaller_than_one_exp(0.0, 0, &m, &s) &&
            !quantize_multiplier_smaller_than_one_exp(-0.1, 0, &m, &s),
        "SmallerThanOneExp refuses 1 - 1e-15, 1, 0 and -0.1 (TFLite dies there)");
  CHECK(quantize_multiplier_greater_than_one(1 + 1e-11, 0, &m, &s) && m == 1073741824 && s == 1,
        "1 + 1e-11 quantizes to (2^30, 1)");
  CHECK(quantize_multiplier_greater_than_one(1.25, 0, &m, &s) && m == 1342177280 && s == 1,
        "1.25 quantizes to (1342177280, 1)");
  CHECK(quantize_multiplier_greater_than_one(1.75, 0, &m, &s) && m == 1879048192 && s == 1,
        "1.75 quantizes to (1879048192, 1)");
  CHECK(quantize_multiplier_greater_than_one(2 - 1e-9, 0, &m, &s) && m == 2147483647 && s == 1,
        "2 - 1e-9 quantizes to (2147483647, 1)");
  CHECK(quantize_multiplier_greater_than_one(2 - 1e-11, 0, &m, &s) && m == 1073741824 && s == 2,
        "2 - 1e-11 quantizes to (2^30, 2)");
  CHECK(!quantize_multiplier_greater_than_one(1 + 1e-16, 0, &m, &s),
        "GreaterThanOne refuses 1 + 1e-16 (TFLite dies there)");
  /* [QU] QuantizeMultiplierUnderflow (tiny scales flush to zero). */
  check_qm(ldexp(1.0, -31), 0, 1073741824, -30, "2^-31");
  check_qm(ldexp(1.0, -32), 0, 1073741824, -31, "2^-32");
  check_qm(ldexp(0.99f, -32), 0, 0, 0, "0.99 * 2^-32");
  check_qm(ldexp(1.0, -33), 0, 0, 0, "2^-33");
  /* Huge scales: single rounding saturates at shift 30 (quantization_util.cc). */
  check_qm(ldexp(1.0, 40), TA_ROUND_SINGLE, 2147483647, 30, "2^40, single rounding");
  CHECK(!quantize_multiplier(ldexp(1.0, 40), TA_ROUND_DOUBLE, &m, &s),
        "a multiplier of 2^40 is refused with double rounding");
  CHECK(!quantize_multiplier(-0.5, TA_ROUND_SINGLE, &m, &s) &&
            !quantize_multiplier(NAN, TA_ROUND_DOUBLE, &m, &s),
        "negative (single rounding) and NaN multipliers are refused");

  /* [QU] MultiplyByQuantizedMultiplierInt32 (double rounding). */
  CHECK(quant_and_multiply(0, 0.1) == 0 && quant_and_multiply(1, 0) == 0,
        "0 * 0.1 and 1 * 0 requantize to 0");
  CHECK(quant_and_multiply(10000, 0.00097656) == 10 && quant_and_multiply(10000, -0.00097656) == -10 &&
            quant_and_multiply(-10000, 0.00097656) == -10 &&
            quant_and_multiply(-10000, -0.00097656) == 10,
        "+-10000 * +-0.00097656 requantize to +-10");
  CHECK(quant_and_multiply(INT32_MIN, 0.00001) == -21475 &&
            quant_and_multiply(INT32_MIN, -0.00001) == 21475 &&
            quant_and_multiply(INT32_MAX, 0.00001) == 21475 &&
            quant_and_multiply(INT32_MAX, -0.00001) == -21475,
        "INT32_MIN/MAX * +-0.00001 requantize to -+21475");
  {
    int32_t x = INT32_MAX, qm = INT32_MAX;
    int32_t e = (int32_t)round((double)((int64_t)x * qm) / (double)(INT64_C(1) << 34));
    CHECK(ta_requant_double(x, qm, -3) == e && ta_requant_double(-x, qm, -3) == -e,
          "INT32_MAX * INT32_MAX * 2^-34 requantizes to %d (got %d)", (int)e,
          (int)ta_requant_double(x, qm, -3));
  }

  /* The fast double-rounding requantization against gemmlowp's literal
   * SaturatingRoundingDoublingHighMul + RoundingDivideByPOT (ref.h). */
  {
    long bad = 0, n = 0;
    const int32_t xs[] = {0, 1, -1, 2, -2, 3, -3, INT32_MAX, INT32_MIN, 1 << 30, -(1 << 30)};
    const int32_t ms[] = {1 << 30, (1 << 30) + 1, INT32_MAX, 1, 0, -(1 << 30), INT32_MIN};
    for (int s = -31; s <= 31; s++) {
      for (size_t i = 0; i < sizeof xs / sizeof *xs; i++)
        for (size_t j = 0; j < sizeof ms / sizeof *ms; j++, n++)
          bad += ta_requant_double(xs[i], ms[j], s) != ref_mbqm(xs[i], ms[j], s, TA_ROUND_DOUBLE);
      for (int k = 0; k < 20000; k++, n++) {
        int32_t x = (int32_t)ref_next(), m = (int32_t)ref_next();
        if (k & 1)
          x >>= ref_rand(0, 31);
        bad += ta_requant_double(x, m, s) != ref_mbqm(x, m, s, TA_ROUND_DOUBLE);
        if (s <= 30 && m >= 0)
          bad += ta_requant_single(x, m, s) != ref_mbqm(x, m, s, TA_ROUND_SINGLE);
      }
    }
    CHECK(bad == 0,
          "fast requantization equals gemmlowp's SRDHM + RoundingDivideByPOT and the single "
          "rounding formula on %ld values, shifts -31..31 (%ld differ)",
          n, bad);
  }

  /* The SMMLAR form (ta_requant_double_mmla(), and on a core with the
   * DSP extension ta_dsp_requant_m()) against gemmlowp's literal steps,
   * wherever ta_requant_mmla_ok() admits it. */
  {
    long bad = 0, n = 0, refused = 0;
    const int32_t xs[] = {0, 1, -1, 2, -2, 3, -3, INT32_MAX - 2, INT32_MIN + 3, 1 << 30,
                          -(1 << 30), 12345, -12345};
    const int32_t ms[] = {1 << 30, (1 << 30) + 1, INT32_MAX, 0, 1518500250};
    const int nx = (int)(sizeof xs / sizeof *xs), nm = (int)(sizeof ms / sizeof *ms);
    for (int s = -31; s <= -1; s++)
      for (int k = 0; k < 20000 + nx * nm; k++) {
        int32_t x, m;
        if (k < nx * nm) {
          x = xs[k % nx];
          m = ms[k / nx];
        } else {
          x = (int32_t)ref_next();
          if (k & 1)
            x >>= ref_rand(0, 31);
          m = (k % 7) ? (int32_t)((ref_next() >> 2) | (UINT32_C(1) << 30)) : 0;
        }
        const uint32_t ax = x < 0 ? 0u - (uint32_t)x : (uint32_t)x;
        if (!ta_requant_mmla_ok(ax, m, s)) {
          refused++;
          continue;
        }
        const int32_t want = ref_mbqm(x, m, s, TA_ROUND_DOUBLE);
        const ta_requant_mmla r = ta_requant_mmla_make(m, s);
        n++;
        bad += ta_requant_double_mmla(x, &r) != want;
#if defined(TA_DSP)
        bad += ta_dsp_requant_m(x, &r, 7) != want + 7;
#endif
      }
    CHECK(bad == 0 && n > 300000,
          "requantization in SMMLAR form equals gemmlowp's SRDHM + RoundingDivideByPOT on %ld "
          "values, shifts -31..-1 (%ld differ, %ld outside its range)",
          n, bad, refused);
    CHECK(!ta_requant_mmla_ok(100, (1 << 30) - 1, -5) && !ta_requant_mmla_ok(100, -1, -5) &&
              !ta_requant_mmla_ok(100, 1 << 30, 0) &&
              !ta_requant_mmla_ok(UINT32_C(1) << 31, 1 << 30, -5) &&
              !ta_requant_mmla_ok(INT32_MAX, INT32_MAX, -31) &&
              ta_requant_mmla_ok(INT32_MAX, 1 << 30, -30) && ta_requant_mmla_ok(1 << 30, 0, 3) &&
              !ta_requant_mmla_ok(INT32_MAX - 1, 0, 3),
          "the SMMLAR form refuses multipliers below 2^30 or negative, left shifts and sums "
          "that wrap, and takes a zero multiplier with any shift");
  }

  /* Fixed-point primitives, hand-computed. */
  CHECK(ta_srdhm(INT32_MIN, INT32_MIN) == INT32_MAX, "SRDHM(-2^31, -2^31) saturates to INT32_MAX");
  CHECK(ta_srdhm(3, 1 << 30) == 2 && ta_srdhm(-3, 1 << 30) == -1,
        "SRDHM(+-3, 2^30): 1.5 -> 2, -1.5 -> -1 (nudge, then truncation)");
  {
    /* gemmlowp's own definition: nudge by the product's sign, then a
     * division that truncates; against the one-shift form, on random and
     * edge operands (both signs, ties, the int32 limits). */
    static const int32_t edge[] = {INT32_MIN, INT32_MIN + 1, -(1 << 30), -3, -2, -1, 0, 1, 2, 3,
                                   1 << 30,   INT32_MAX - 1, INT32_MAX};
    const int ne = (int)(sizeof edge / sizeof edge[0]);
    uint32_t seed = 12345;
    long bad = 0, n = 0;
    for (long i = 0; i < 2000000 + ne * ne; i++) {
      int32_t a, b;
      if (i < ne * ne) {
        a = edge[i / ne];
        b = edge[i % ne];
      } else {
        seed = seed * 1664525u + 1013904223u;
        a = (int32_t)seed;
        seed = seed * 1664525u + 1013904223u;
        b = (int32_t)(seed >> (seed & 31)); /* small and large magnitudes */
        if (seed & 0x10000)
          b = (int32_t)(0u - (uint32_t)b);
      }
      int32_t want;
      if (a == INT32_MIN && b == INT32_MIN) {
        want = INT32_MAX;
      } else {
        int64_t ab = (int64_t)a * (int64_t)b;
        int64_t nudge = ab >= 0 ? (1 << 30) : (1 - (1 << 30));
        want = (int32_t)((ab + nudge) / ((int64_t)1 << 31));
      }
      bad += ta_srdhm(a, b) != want;
      n++;
    }
    CHECK(bad == 0, "SRDHM in one arithmetic shift equals gemmlowp's nudge-and-divide on %ld "
                    "operand pairs (%ld differ)", n, bad);
  }
  CHECK(ta_rdbpot(5, 1) == 3 && ta_rdbpot(-5, 1) == -3 && ta_rdbpot(6, 2) == 2 &&
            ta_rdbpot(-6, 2) == -2 && ta_rdbpot(-7, 2) == -2 && ta_rdbpot(7, 0) == 7,
        "RoundingDivideByPOT rounds ties away from zero");
  CHECK(ta_requant_single(-3, 1 << 30, 0) == -1 && ta_requant_single(3, 1 << 30, 0) == 2 &&
            ta_requant_single(-5, 1 << 30, -1) == -1,
        "single rounding rounds ties up: -1.5 -> -1, 1.5 -> 2, -1.25 -> -1");
  CHECK(ta_requant_double(-5, 1 << 30, -1) == -1 && ta_requant_double(-6, 1 << 30, -1) == -2,
        "double rounding: -1.25 -> -1, -1.5 -> -2");
  CHECK(ta_requant_double(100, 1 << 30, 3) == 400 && ta_requant_single(100, 1 << 30, 3) == 400,
        "a positive shift multiplies: 100 * 0.5 * 2^3 = 400 in both roundings");
  CHECK(ta_sat_shl(1 << 28, 3) == INT32_MAX && ta_sat_shl(-(1 << 28), 3) == INT32_MIN &&
            ta_sat_shl(5, 3) == 40,
        "saturating left shifts saturate at the int32 limits");
  CHECK(ta_rounding_half_sum(3, 4) == 4 && ta_rounding_half_sum(-3, -4) == -4 &&
            ta_rounding_half_sum(INT32_MAX, INT32_MAX) == INT32_MAX,
        "RoundingHalfSum rounds ties away from zero without overflow");
  /* exp_on_negative_values(Q5.26): exp(0) is one, and agreement with exp()
   * within 2^-24 over [-31, 0]. */
  CHECK(ta_exp_on_negative_values_5(0) == INT32_MAX, "exp(0) is INT32_MAX in Q0.31");
  {
    double worst = 0;
    for (int i = 0; i <= 31 * 64; i++) {
      double x = -i / 64.0;
      int32_t raw = (int32_t)(x * 67108864.0);
      double got = ta_exp_on_negative_values_5(raw) / 2147483648.0;
      double err = fabs(got - exp(raw / 67108864.0));
      worst = err > worst ? err : worst;
    }
    CHECK(worst < 1.0 / (1 << 21), "exp_on_negative_values is within 2^-21 of exp (worst %g)",
          worst);
  }
  {
    double worst = 0;
    for (int i = 0; i < 1000; i++) {
      double x = i / 1000.0;
      int32_t r = ta_one_over_one_plus_x((int32_t)(x * 2147483648.0));
      double err = fabs(r / 2147483648.0 - 1.0 / (1.0 + x));
      worst = err > worst ? err : worst;
    }
    CHECK(worst < 1.0 / (1 << 26), "one_over_one_plus_x is within 2^-26 of 1/(1+x) (worst %g)",
          worst);
    int bits;
    int32_t r = ta_get_reciprocal(3 << 19, 12, &bits); /* 1/3 in Q12.19 */
    CHECK(bits == 1 && fabs(r / 2147483648.0 / 2 - 1.0 / 3.0) < 1e-8,
          "GetReciprocal(3.0 in Q12.19) is 0.6667 * 2^-1 (bits %d, got %d)", bits, (int)r);
  }

  /* [QU] PreprocessSoftmaxScaling / CalculateInputRadius. */
  CHECK(calculate_input_radius(4, 27) == 15 && calculate_input_radius(3, 27) == 14 &&
            calculate_input_radius(3, 28) == 7 && calculate_input_radius(4, 2) == 503316480,
        "CalculateInputRadius gives TFLite's 15, 14, 7, 503316480");
  ta_softmax_params sp;
  CHECK(softmax_params(2.0f, 16.0f, TA_ROUND_DOUBLE, &sp) && sp.input_multiplier == 2147483647 &&
            sp.input_left_shift == 31,
        "softmax scaling of beta 2, scale 16 saturates to (2^31 - 1, 31)");
  CHECK(softmax_params(2.0f, 8.0f, TA_ROUND_DOUBLE, &sp) && sp.input_multiplier == 1073741824 &&
            sp.input_left_shift == 31 && sp.diff_min == 0,
        "softmax scaling of beta 2, scale 8 is (2^30, 31), diff_min 0");
  /* Softmax of the usual int8 models: beta 1, input scale 1/16:
   * 2^26/16 = 2^22 -> (2^30, 23); radius = 31 * 2^26 / 2^23 = 248. */
  CHECK(softmax_params(1.0f, 0.0625f, TA_ROUND_DOUBLE, &sp) && sp.input_multiplier == 1073741824 &&
            sp.input_left_shift == 23 && sp.diff_min == -248,
        "softmax params of beta 1, scale 1/16 are (2^30, 23), diff_min -248 (got %d %d %d)",
        (int)sp.input_multiplier, (int)sp.input_left_shift, (int)sp.diff_min);
  CHECK(softmax_params(1.0f, 16.0f, TA_ROUND_SINGLE, &sp) && sp.input_multiplier == 2147483646 &&
            sp.input_left_shift == 30,
        "single rounding caps the softmax multiplier at 2^30 - 1 (got %d, %d)",
        (int)sp.input_multiplier, (int)sp.input_left_shift);

  /* Conv / FC multipliers: double product vs float product. */
  CHECK(conv_multiplier(0.5f, 0.25f, 0.125f, 0, &m, &s) && m == 1073741824 && s == 1,
        "conv multiplier of 0.5 * 0.25 / 0.125 is (2^30, 1)");
  {
    /* 0.1f * 0.3f rounds differently in float than in double: the two
     * derivations must differ exactly where TFLite's do. */
    float a = 0.1f, b = 0.3f, o = 0.7f;
    volatile float pf = a * b;
    int32_t m1, s1, m2, s2, e1, es1, e2, es2;
    conv_multiplier(a, b, o, 0, &m1, &s1);
    fc_multiplier(a, b, o, 0, &m2, &s2);
    quantize_multiplier((double)a * (double)b / (double)o, 0, &e1, &es1);
    quantize_multiplier((double)pf / (double)o, 0, &e2, &es2);
    CHECK(m1 == e1 && s1 == es1 && m2 == e2 && s2 == es2 && m1 != m2,
          "conv uses the double product of the scales, FULLY_CONNECTED the float one "
          "(%d vs %d)", (int)m1, (int)m2);
  }

  /* Activation ranges (CalculateActivationRangeQuantized). */
  int32_t lo, hi;
  CHECK(activation_range_quantized(ACT_RELU6, DT_INT8, 0.05f, -10, &lo, &hi) && lo == -10 &&
            hi == 110,
        "RELU6 at scale 0.05, zero point -10 is [-10, 110] (got [%d, %d])", (int)lo, (int)hi);
  CHECK(activation_range_quantized(ACT_RELU6, DT_INT8, 0.01f, 0, &lo, &hi) && lo == 0 && hi == 127,
        "RELU6 clips to the int8 range when 6 is not representable");
  CHECK(activation_range_quantized(ACT_RELU_N1_TO_1, DT_INT8, 1.0f / 64, 5, &lo, &hi) &&
            lo == -59 && hi == 69,
        "RELU_N1_TO_1 at scale 1/64, zero point 5 is [-59, 69]");
  CHECK(activation_range_quantized(ACT_RELU, DT_UINT8, 0.1f, 128, &lo, &hi) && lo == 128 &&
            hi == 255,
        "RELU on uint8 with zero point 128 is [128, 255]");
  CHECK(activation_range_quantized(ACT_NONE, DT_INT16, 0.1f, 0, &lo, &hi) && lo == -32768 &&
            hi == 32767,
        "no activation on int16 is the whole int16 range");
  /* 0.25 / 0.1f = 2.4999999 -> 2; the float division matters: 2.5 would
   * round to 3.  Check the rounding is the float one, half away. */
  CHECK(activation_range_quantized(ACT_RELU6, DT_INT8, 4.0f, 0, &lo, &hi) && hi == 2,
        "6 / 4 = 1.5 rounds away from zero to 2 (got %d)", (int)hi);
  CHECK(!activation_range_quantized(ACT_TANH, DT_INT8, 1.0f, 0, &lo, &hi),
        "a TANH fused activation is refused");
  float flo, fhi;
  CHECK(activation_range_float(ACT_RELU6, &flo, &fhi) && flo == 0.0f && fhi == 6.0f &&
            activation_range_float(ACT_NONE, &flo, &fhi) && flo == -FLT_MAX && fhi == FLT_MAX,
        "float activation ranges: RELU6 [0, 6], NONE [-FLT_MAX, FLT_MAX]");

  /* [PAD] ComputePaddingHeightWidth. */
  int32_t out, pad;
  compute_padding(PAD_SAME, 5, 3, 2, 1, &out, &pad);
  CHECK(out == 3 && pad == 1, "SAME, in 5, filter 3, stride 2: out 3, pad 1 (got %d, %d)",
        (int)out, (int)pad);
  compute_padding(PAD_SAME, 4, 3, 2, 1, &out, &pad);
  CHECK(out == 2 && pad == 0, "SAME, in 4, filter 3, stride 2: out 2, total pad 1 -> top 0");
  compute_padding(PAD_VALID, 7, 3, 2, 1, &out, &pad);
  CHECK(out == 3 && pad == 0, "VALID, in 7, filter 3, stride 2: out 3, pad 0");
  compute_padding(PAD_SAME, 10, 3, 1, 2, &out, &pad);
  CHECK(out == 10 && pad == 2, "SAME, in 10, filter 3, dilation 2: out 10, pad 2");
  compute_padding(PAD_VALID, 10, 3, 1, 3, &out, &pad);
  CHECK(out == 4 && pad == 0, "VALID, in 10, filter 3, dilation 3: out 4");

  /* ADD parameters (CalculateOpDataAdd): equal scales 0.1, output 0.2:
   * twice_max = 0.2, input multipliers 0.5 -> (2^30, 0), output
   * 0.2 / (2^20 * 0.2) = 2^-20 -> (2^30, -19). */
  ta_add_params ap;
  CHECK(add_params(0.1f, 3, 0.1f, -4, 0.2f, 1, DT_INT8, ACT_NONE, 0, &ap) &&
            ap.left_shift == 20 && ap.input1_multiplier == 1073741824 && ap.input1_shift == 0 &&
            ap.input2_multiplier == 1073741824 && ap.output_multiplier == 1073741824 &&
            ap.output_shift == -19 && ap.input1_offset == -3 && ap.input2_offset == 4 &&
            ap.output_offset == 1 && ap.act_min == -128 && ap.act_max == 127,
        "ADD parameters of scales 0.1, 0.1 -> 0.2 (got out shift %d)", (int)ap.output_shift);
  CHECK(add_params(0.1f, 0, 0.1f, 0, 0.2f, 0, DT_INT16, ACT_NONE, 0, &ap) && ap.left_shift == 15,
        "ADD on int16 uses left shift 15");

  /* QUANTIZE requantization: 0.5 / 0.25 = 2 -> (2^30, 2). */
  ta_requant_params rp;
  CHECK(requant_params(0.5f, 3, 0.25f, -7, 0, &rp) && rp.multiplier == 1073741824 &&
            rp.shift == 2 && rp.input_zero_point == 3 && rp.output_zero_point == -7,
        "requantization 0.5 -> 0.25 is (2^30, 2)");

  /* Folded biases. */
  {
    const int8_t w[6] = {1, 2, 3, -4, -5, 6};
    const int32_t bias[2] = {10, -10};
    int32_t f[2], fd[3];
    fold_bias_s8(w, 2, 3, bias, 128, f);
    CHECK(f[0] == 10 + 128 * 6 && f[1] == -10 + 128 * -3, "fold_bias_s8 adds offset * row sums");
    fold_bias_depthwise_s8(w, 2, 3, NULL, -2, fd);
    CHECK(fd[0] == -2 * -3 && fd[1] == -2 * -3 && fd[2] == -2 * 9,
          "fold_bias_depthwise_s8 sums each channel over the taps");
  }

  /* Broadcast walks. */
  {
    ta_bcast b;
    int32_t os[TA_MAX_DIMS];
    int on;
    const int32_t a1[] = {1, 8, 8, 16}, a2[] = {1, 8, 8, 16};
    CHECK(make_broadcast(a1, 4, a2, 4, &b, os, &on) && b.ndims == 1 && b.shape[0] == 1024 &&
              b.stride1[0] == 1 && b.stride2[0] == 1 && on == 4,
          "equal shapes merge into one dense dimension");
    const int32_t c1[] = {1, 8, 8, 16}, c2[] = {16};
    CHECK(make_broadcast(c1, 4, c2, 1, &b, os, &on) && b.ndims == 2 && b.shape[0] == 64 &&
              b.shape[1] == 16 && b.stride1[0] == 16 && b.stride2[0] == 0 &&
              b.stride1[1] == 1 && b.stride2[1] == 1,
          "a per-channel vector broadcasts over 64 rows");
    const int32_t d1[] = {2, 1, 3}, d2[] = {4, 1};
    CHECK(make_broadcast(d1, 3, d2, 2, &b, os, &on) && on == 3 && os[0] == 2 && os[1] == 4 &&
              os[2] == 3 && b.ndims == 3 && b.stride1[0] == 3 && b.stride1[1] == 0 &&
              b.stride1[2] == 1 && b.stride2[0] == 0 && b.stride2[1] == 1 && b.stride2[2] == 0,
          "[2,1,3] + [4,1] broadcasts to [2,4,3] with the right strides");
    const int32_t e1[] = {3, 2}, e2[] = {4, 2};
    CHECK(!make_broadcast(e1, 2, e2, 2, &b, os, &on), "[3,2] and [4,2] do not broadcast");
    CHECK(make_broadcast(NULL, 0, c2, 1, &b, os, &on) && b.ndims == 1 && b.shape[0] == 16 &&
              b.stride1[0] == 0,
          "a scalar broadcasts against a vector");
  }
  /* ONNX Runtime's requantization (ta_requant_ort): float32 product,
   * ties to even, against nearbyintf in the default rounding mode over
   * accumulators and scales that hit exact halves. */
  {
    int32_t m, sh;
    CHECK(ort_multiplier(0.5f, 1.0f, 1.0f, &m, &sh) && sh == 0,
          "ort_multiplier gives the float's bits and shift 0");
    CHECK(ta_requant_ort(1, m) == 0 && ta_requant_ort(3, m) == 2 && ta_requant_ort(5, m) == 2 &&
              ta_requant_ort(-1, m) == 0 && ta_requant_ort(-3, m) == -2 &&
              ta_requant_ort(-5, m) == -2 && ta_requant_ort(7, m) == 4,
          "ta_requant_ort rounds halves to even (0.5 -> 0, 1.5 -> 2, 2.5 -> 2, -1.5 -> -2)");
    CHECK(ta_requant_ort(INT32_MAX, m) == 1073741824 && ta_requant_ort(INT32_MIN, m) == -1073741824,
          "ta_requant_ort clamps to +-2^30");
    uint32_t rs = 12345;
    int bad = 0;
    for (int k = 0; k < 200000; k++) {
      rs = rs * 1103515245u + 12345u;
      int32_t x = (int32_t)(rs >> 8) - (1 << 23);
      rs = rs * 1103515245u + 12345u;
      float scale = ldexpf((float)(rs >> 12) / 1048576.0f + 0.25f, -(int)(rs & 15));
      if (!ort_multiplier(scale, 1.0f, 1.0f, &m, &sh))
        continue;
      volatile float f = (float)x * scale;
      bad += ta_requant_ort(x, m) != (int32_t)nearbyintf(f);
    }
    CHECK(bad == 0, "ta_requant_ort equals nearbyintf(x * scale) on 200000 random cases (%d differ)",
          bad);
  }
  return test_exit();
}
