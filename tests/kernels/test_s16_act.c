/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Tests of the int16 LOGISTIC, TANH and SOFTMAX kernels
 * (ta_logistic_s16, ta_tanh_s16, ta_softmax_s16) and of the host
 * arithmetic that feeds them (quant_ops.c):
 *
 *  - the sigmoid table against entries of TFLite's sigmoid_table_uint16
 *    (kernels/internal/common.h) and against the integer LSTM's copy
 *    (runtime/rnn/rnn_common.h);
 *  - LogisticPrepare / TanhPrepare's int16 multiplier on hand-worked
 *    scales (power-of-two and general);
 *  - both kernels on all 65536 inputs against the LSTM's int16 sigmoid
 *    and tanh (written separately from TFLite's reference_integer_ops
 *    for the LSTM), for several scales;
 *  - the power-of-two kernels (gemmlowp int16) near the real functions;
 *  - gen_lut in float (TFLite Micro's softmax_common.cc) and in double
 *    (TFLite's activations.cc of the oracle's build), transliterated here,
 *    against softmax_s16_luts(), and a few entries worked by hand;
 *  - SoftmaxInt16 (reference/softmax.h) transliterated here, with
 *    generic_int16_table_lookup, against ta_softmax_s16 on random rows.
 *
 * Every output sits between canary bytes.
 */
#include "test.h"
#include "ta_kernels.h"
#include "tinyaot.h"
#include "lower.h"
#include "ref.h"

#include "../../runtime/rnn/rnn_common.h"

static double tanh_ref(double x) { return tanh(x); }

/* ----------------------------------------------------- sigmoid table */

static void test_sigmoid_table(void) {
  const uint16_t *t = sigmoid_table_q16();
  /* Entries of sigmoid_table_uint16: 0, 1, 4 (not round(65536 *
   * sigmoid(4 / 24)) = 35492), 128 and the last. */
  CHECK(t[0] == 32768 && t[1] == 33451 && t[4] == 35493 && t[128] == 65221 &&
            t[255] == 65535,
        "the sigmoid table has TFLite's entries 0, 1, 4, 128, 255 (got %d %d %d %d %d)",
        t[0], t[1], t[4], t[128], t[255]);
  int bad = -1;
  for (int i = 0; i < 256 && bad < 0; i++)
    if (t[i] != ta_sigmoid_table_u16[i])
      bad = i;
  CHECK(bad < 0, "the compiler's sigmoid table equals the LSTM kernel's: first mismatch at "
        "%d, expected %d, actual %d", bad, bad < 0 ? 0 : ta_sigmoid_table_u16[bad],
        bad < 0 ? 0 : t[bad]);
}

/* --------------------------------------------- Logistic/TanhPrepare */

static void test_prepare(void) {
  int32_t m, s;
  bool pot;
  bool ok = sigmoid_s16_params(1.0f / 4096, false, &m, &s, &pot);
  CHECK(ok && pot && m == 3 && s == 0,
        "LOGISTIC scale 2^-12 takes the power-of-two branch: multiplier 3, shift 0 "
        "(got %d %d %d)", (int)pot, (int)m, (int)s);
  /* Left shift 12 + log2(scale): TANH's second power of two is 2^-11. */
  ok = sigmoid_s16_params(1.0f / 2048, true, &m, &s, &pot);
  CHECK(ok && pot && m == 6 && s == 0,
        "TANH scale 2^-11 takes the power-of-two branch: 3 << 1 (got %d %d %d)", (int)pot,
        (int)m, (int)s);
  ok = sigmoid_s16_params(1.0f / 2048, false, &m, &s, &pot);
  CHECK(ok && !pot, "LOGISTIC scale 2^-11 does not (got %d)", (int)pot);
  /* LOGISTIC 2^-13 is general: 2^-13 * 12288 = 1.5, doubled 14 times to
   * 24576 (the first value above 32767 / 2). */
  ok = sigmoid_s16_params(1.0f / 8192, false, &m, &s, &pot);
  CHECK(ok && !pot && m == 24576 && s == 14,
        "LOGISTIC scale 2^-13: multiplier 24576, shift 14 (got %d %d %d)", (int)pot,
        (int)m, (int)s);
  /* 8 / 32767 is 2^-12 within CheckedLog2's 1e-3 (log2 -11.99996). */
  ok = sigmoid_s16_params(8.0f / 32767, true, &m, &s, &pot);
  CHECK(ok && pot && m == 3 && s == 0,
        "TANH scale 8/32767 counts as 2^-12 (got %d %d %d)", (int)pot, (int)m, (int)s);
  /* (float)(5 / 32767) * 12288 = 1.87505..., times 2^14 = 30720.94 -> 30720. */
  ok = sigmoid_s16_params(5.0f / 32767, true, &m, &s, &pot);
  CHECK(ok && !pot && m == 30720 && s == 14,
        "TANH scale 5/32767: multiplier 30720, shift 14 (got %d %d %d)", (int)pot, (int)m,
        (int)s);
  CHECK(!sigmoid_s16_params(8.0f, false, &m, &s, &pot),
        "an input scale whose multiplier exceeds 65535 is refused");
}

/* ------------------------------------------- the kernels, all inputs */

static void test_sigmoid_kernels(void) {
  static const float scales[] = {1.0f / 4096, 1.0f / 2048, 8.0f / 32767, 1.0f / 32767,
                                 3.5f / 32767, 0.001f,     0.5f,         1e-7f};
  int16_t *in = canary_alloc(65536 * 2), *out = canary_alloc(65536 * 2);
  for (int i = 0; i < 65536; i++)
    in[i] = (int16_t)(i - 32768);
  for (int fn = 0; fn < 2; fn++) {
    bool tanh = fn == 1;
    int bad = 0, cases = 0;
    char first[160] = "";
    for (size_t k = 0; k < sizeof scales / sizeof *scales; k++) {
      ta_sigmoid_s16_params p = {.size = 65536, .table = sigmoid_table_q16()};
      bool pot;
      if (!sigmoid_s16_params(scales[k], tanh, &p.input_multiplier, &p.input_left_shift,
                              &pot))
        continue;
      cases++;
      /* The LSTM helpers take TFLite's raw numbers: 0 for power of two. */
      int32_t rm = pot ? 0 : p.input_multiplier;
      int32_t rs = pot ? (p.input_multiplier == 6) : p.input_left_shift;
      ta_status st = tanh ? ta_tanh_s16(&p, in, out) : ta_logistic_s16(&p, in, out);
      for (int i = 0; i < 65536; i++) {
        int16_t want = tanh ? ta_lstm_tanh_s16(in[i], rm, rs)
                            : ta_lstm_sigmoid_s16(in[i], rm, rs);
        if (st != TA_OK || out[i] != want) {
          if (!bad++)
            snprintf(first, sizeof first, "scale %g input %d: expected %d, actual %d",
                     (double)scales[k], in[i], want, out[i]);
          break;
        }
      }
    }
    CHECK(bad == 0 && cases == 8 && canary_ok(out, 65536 * 2),
          "%s int16 equals reference_integer_ops on all 65536 inputs at %d scales: %s",
          tanh ? "TANH" : "LOGISTIC", cases, first);
  }
  canary_free(in);
  canary_free(out);
}

/* TFLite's power-of-two path, gemmlowp's int16 fixed point: near the
 * true function on all inputs - 16-bit arithmetic is coarse, the worst
 * errors are 6 steps (LOGISTIC) and 12 (TANH) of 2^-15 - and exact at 0.
 * (Exactness comes from the TFLite runs of make test-ops, which draw
 * these scales.) */
static void test_pot_kernels(void) {
  int16_t *in = canary_alloc(65536 * 2), *out = canary_alloc(65536 * 2);
  for (int i = 0; i < 65536; i++)
    in[i] = (int16_t)(i - 32768);
  for (int k = 0; k < 3; k++) {
    bool tanh = k > 0;
    int shift = k == 2;
    ta_sigmoid_s16_params p = {.size = 65536, .input_left_shift = shift};
    ta_status st = tanh ? ta_tanh_pot_s16(&p, in, out) : ta_logistic_pot_s16(&p, in, out);
    int worst = 0, at = 0;
    for (int i = 0; i < 65536; i++) {
      double x = in[i] / 4096.0 * (1 << shift);
      if (x > 8.0 - 1.0 / 4096)
        x = 8.0 - 1.0 / 4096; /* the doubling saturates */
      if (x < -8.0)
        x = -8.0;
      double f = tanh ? tanh_ref(x) : 1.0 / (1.0 + exp(-x));
      int d = abs(out[i] - (int)fmin(round(f * 32768.0), 32767.0));
      if (d > worst) {
        worst = d;
        at = in[i];
      }
    }
    int16_t zero = 0, z = 0;
    ta_sigmoid_s16_params one = {.size = 1, .input_left_shift = shift};
    if (tanh)
      ta_tanh_pot_s16(&one, &zero, &z);
    else
      ta_logistic_pot_s16(&one, &zero, &z);
    CHECK(st == TA_OK && worst <= 16 && z == (tanh ? 0 : 16384) && canary_ok(out, 65536 * 2),
          "%s (power-of-two scale, shift %d) is within 16 of the real function and exact at "
          "0: worst %d at input %d, f(0) = %d", tanh ? "TANH" : "LOGISTIC", shift, worst, at,
          z);
  }
  canary_free(in);
  canary_free(out);
}

/* ------------------------------------------------------- SOFTMAX */

/* gen_lut<float, int16_t, int16_t> (TFLite Micro, kernels/internal/common.h). */
static float ref_exp_f(float x) { return expf(x); }
static float ref_recip_f(float x) { return 1.0f / (1.0f + x); }

static void ref_gen_lut_f(float (*func)(float), float input_min, float input_max,
                          int16_t *lut) {
  const int nb_steps = 512;
  const float step = (input_max - input_min) / nb_steps;
  const float half_step = step / 2;
  const float output_scaling_inv = (float)(32767 - (-32768) + 1) / (1.0f - -1.0f);
  for (int i = 0; i < nb_steps; i++) {
    volatile float a = input_min + i * step, b = input_min + i * step + half_step;
    volatile float c = input_min + (i + 1) * step;
    const float val = func(a), val_midpoint = func(b), val_next = func(c);
    volatile float sv = val * output_scaling_inv, nv = val_next * output_scaling_inv;
    const float sample_val = roundf(sv);
    volatile float isum = nv + roundf(sv);
    const float midpoint_interp_val = roundf(isum / 2);
    volatile float mv = val_midpoint * output_scaling_inv;
    const float midpoint_val = roundf(mv);
    const float midpoint_err = midpoint_interp_val - midpoint_val;
    const float bias = roundf(midpoint_err / 2);
    float v = sample_val - bias;
    lut[i] = (int16_t)fminf(fmaxf(v, -32768.0f), 32767.0f);
  }
  volatile float last = func(input_max) * output_scaling_inv;
  lut[nb_steps] = (int16_t)fminf(fmaxf(roundf(last), -32768.0f), 32767.0f);
}

/* gen_lut(const std::function<double(double)>&, ...) (TFLite's older
 * common.h, num = 513). */
static double ref_exp_d(double x) { return exp(x); }
static double ref_recip_d(double x) { return 1.0 / (1.0 + x); }

static void ref_gen_lut_d(double (*func)(double), double min, double max, int16_t *table,
                          int num) {
  double step = (max - min) / (num - 1);
  double half_step = step / 2.0;
  for (int i = 0; i < num - 1; i++) {
    double sample_val = round(func(min + i * step) * 32768.0);
    double midpoint_interp_val =
        round((func(min + (i + 1) * step) * 32768.0 + round(func(min + i * step) * 32768.0)) /
              2.0);
    double midpoint_val = round(func(min + i * step + half_step) * 32768.0);
    double midpoint_err = midpoint_interp_val - midpoint_val;
    double bias = round(midpoint_err / 2.0);
    table[i] = (int16_t)fmin(fmax(sample_val - bias, -32768.0), 32767.0);
  }
  table[num - 1] = (int16_t)fmin(fmax(round(func(max) * 32768.0), -32768.0), 32767.0);
}

static int first_diff16(const int16_t *a, const int16_t *b, int n) {
  for (int i = 0; i < n; i++)
    if (a[i] != b[i])
      return i;
  return -1;
}

static void test_softmax_luts(void) {
  int16_t e[513], r[513], re[513], rr[513];
  softmax_s16_luts(false, e, r);
  ref_gen_lut_f(ref_exp_f, -10.0f, 0.0f, re);
  ref_gen_lut_f(ref_recip_f, 0.0f, 1.0f, rr);
  int de = first_diff16(re, e, 513), dr = first_diff16(rr, r, 513);
  CHECK(de < 0 && dr < 0, "the float exp and 1/(1+x) tables equal TFLite Micro's gen_lut: "
        "first mismatch exp %d, 1/(1+x) %d", de, dr);
  /* By hand: exp(0) and 1/(1+0) saturate to 32767; 1/(1+1) = 16384. */
  CHECK(e[512] == 32767 && r[0] == 32767 && r[512] == 16384,
        "gen_lut's end points: exp(0) 32767, 1/(1+0) 32767, 1/2 16384 (got %d %d %d)",
        e[512], r[0], r[512]);
  int16_t d[513], dd[513];
  softmax_s16_luts(true, d, dd);
  ref_gen_lut_d(ref_exp_d, -10.0, 0.0, re, 513);
  ref_gen_lut_d(ref_recip_d, 0.0, 1.0, rr, 513);
  de = first_diff16(re, d, 513);
  dr = first_diff16(rr, dd, 513);
  CHECK(de < 0 && dr < 0, "the double exp and 1/(1+x) tables equal TFLite's gen_lut: "
        "first mismatch exp %d, 1/(1+x) %d", de, dr);
  int ndiff = 0, maxdiff = 0;
  for (int i = 0; i < 513; i++) {
    int a = abs(d[i] - e[i]), b = abs(dd[i] - r[i]);
    ndiff += (a != 0) + (b != 0);
    maxdiff = a > maxdiff ? a : b > maxdiff ? b : maxdiff;
  }
  CHECK(ndiff > 0 && maxdiff == 1,
        "the float and double tables differ, by at most 1 (%d entries, max %d)", ndiff,
        maxdiff);
}

/* generic_int16_table_lookup. */
static int16_t ref_lut(int16_t value, const int16_t *lut) {
  uint16_t index = (uint16_t)(256 + (value >> 7));
  int16_t offset = (int16_t)(value & 0x7f);
  int16_t base = lut[index];
  int16_t slope = (int16_t)(lut[index + 1] - lut[index]);
  int32_t delta = ((int32_t)slope * offset + 64) >> 7;
  return (int16_t)(base + delta);
}

static int clz32(uint32_t x) {
  int n = 0;
  while (n < 32 && !(x & 0x80000000u)) {
    x <<= 1;
    n++;
  }
  return n;
}

/* reference_ops::SoftmaxInt16. */
static void ref_softmax_s16(const ta_softmax_s16_params *p, const int16_t *input_data,
                            int16_t *output_data) {
  for (int i = 0; i < p->outer; ++i) {
    int16_t max_in_row = INT16_MIN;
    for (int c = 0; c < p->depth; ++c)
      max_in_row = input_data[i * p->depth + c] > max_in_row ? input_data[i * p->depth + c]
                                                             : max_in_row;
    int32_t sum_of_exps = 0;
    int16_t *exp_results_Q015 = output_data + i * p->depth;
    for (int c = 0; c < p->depth; ++c) {
      int32_t input_diff = input_data[i * p->depth + c] - max_in_row;
      int32_t scaled_diff = ref_mbqm(input_diff, p->input_multiplier,
                                     (int)p->input_left_shift, TA_ROUND_DOUBLE);
      int32_t sym_scaled_diff = scaled_diff + 32767;
      int16_t sat = (int16_t)ref_clamp(sym_scaled_diff, -32768, 32767);
      exp_results_Q015[c] = ref_lut(sat, p->exp_lut);
      sum_of_exps += exp_results_Q015[c];
    }
    uint8_t headroom_plus_one = (uint8_t)clz32((uint32_t)sum_of_exps);
    int32_t shifted_sum =
        (int32_t)((((int64_t)sum_of_exps << (headroom_plus_one - 1)) + (1 << 13)) >> 14);
    int32_t sym_shifted_sum = shifted_sum + (-((1 << 15) + (1 << 16)));
    int16_t sat_sym_shifted_sum = (int16_t)ref_clamp(sym_shifted_sum, -32768, 32767);
    int16_t reciprocal_scale_Q015 = ref_lut(sat_sym_shifted_sum, p->one_over_one_plus_x_lut);
    for (int c = 0; c < p->depth; ++c) {
      uint8_t right_shift = (uint8_t)(31 - headroom_plus_one);
      int64_t round = 1 << (right_shift - 1);
      int32_t result = (int32_t)(((int64_t)exp_results_Q015[c] *
                                      (int64_t)reciprocal_scale_Q015 +
                                  round) >>
                                 right_shift);
      output_data[i * p->depth + c] = (int16_t)ref_clamp(result, 0, 32767);
    }
  }
}

static void test_softmax_kernel(void) {
  enum { N = 4096 };
  static int16_t e[513], r[513];
  int16_t *in = canary_alloc(N * 2), *out = canary_alloc(N * 2), *want = malloc(N * 2);
  int bad = 0;
  char first[160] = "";
  for (int k = 0; k < 400 && !bad; k++) {
    softmax_s16_luts(k & 1, e, r);
    ta_softmax_s16_params p = {.exp_lut = e, .one_over_one_plus_x_lut = r};
    p.depth = k % 7 == 0 ? ref_rand(1, 3) : ref_rand(1, 600);
    p.outer = ref_rand(1, N / p.depth);
    /* beta * input scale / (10 / 65535): from 1e-3 to 1e3. */
    double real = pow(10.0, ref_rand(-3000, 3000) / 1000.0);
    if (!quantize_multiplier(real, TA_ROUND_DOUBLE, &p.input_multiplier, &p.input_left_shift))
      continue;
    int32_t lo = ref_rand(-32768, 32767), hi = ref_rand(lo, 32767);
    for (int i = 0; i < p.outer * p.depth; i++)
      in[i] = (int16_t)ref_rand(lo, hi);
    ref_softmax_s16(&p, in, want);
    if (ta_softmax_s16(&p, in, out) != TA_OK) {
      bad++;
      snprintf(first, sizeof first, "case %d: kernel refused", k);
      break;
    }
    for (int i = 0; i < p.outer * p.depth; i++)
      if (out[i] != want[i]) {
        bad++;
        snprintf(first, sizeof first, "case %d index %d: expected %d, actual %d", k, i,
                 want[i], out[i]);
        break;
      }
  }
  CHECK(bad == 0 && canary_ok(out, N * 2),
        "SOFTMAX int16 equals reference_ops::SoftmaxInt16 on 400 random cases: %s", first);
  /* In place: the kernel keeps its exp values in the output. */
  ta_softmax_s16_params p = {.outer = 4, .depth = 100, .input_multiplier = 1 << 30,
                             .input_left_shift = 3, .exp_lut = e,
                             .one_over_one_plus_x_lut = r};
  for (int i = 0; i < 400; i++)
    in[i] = (int16_t)ref_rand(-3000, 3000);
  ref_softmax_s16(&p, in, want);
  ta_softmax_s16(&p, in, in);
  int d = first_diff16(want, in, 400);
  CHECK(d < 0, "SOFTMAX int16 runs in place: first mismatch at %d", d);
  canary_free(in);
  canary_free(out);
  free(want);
}

int main(void) {
  test_sigmoid_table();
  test_prepare();
  test_sigmoid_kernels();
  test_pot_kernels();
  test_softmax_luts();
  test_softmax_kernel();
  return test_exit();
}
