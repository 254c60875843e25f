/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tflm_math.h - the element-wise ops whose TFLM arithmetic TFLite's
 * builtin kernels cannot check (a part of test_ops_tflm.c, included
 * there before main(); it uses that file's model helpers):
 *
 *   DIV int8                 TFLM div.cc, reference_ops::DivElementwise
 *                            (TFLite's DIV has no int8)
 *   SQUARED_DIFFERENCE int16 TFLM squared_difference.cc, left_shift 0
 *                            (TFLite's has no int16)
 *   GREATER int16            TFLM comparisons.cc, GreaterWithScaling
 *                            (TFLite's comparisons have no int16)
 *   ADD_N int8               TFLM add_n.cc, reference_ops::AddN (int8;
 *                            TFLite's ADD_N has no int8)
 *   the six comparisons int64  raw comparisons, broadcasting (the oracle's
 *                            runner takes no int64 inputs)
 *
 * The expected bytes come from transliterations written here (GetReciprocal
 * on this file's gemmlowp Newton-Raphson, newton()); nothing from compiler/
 * or runtime/.
 */

/* CountLeadingSignBits (int32). */
static int lead_sign_bits(int32_t x) {
  int n = 0;
  uint32_t u = (uint32_t)x, top = u & 0x80000000u;
  while (n < 31 && ((u << (n + 1)) & 0x80000000u) == top)
    n++;
  return n;
}

/* GetReciprocal(x, 31, &bits): 1/x = result * 2^-bits, result Q0.31. */
static int32_t reciprocal(int32_t x, int *bits) {
  int headroom_plus_one = 0;
  while (headroom_plus_one < 32 && !(((uint32_t)x << headroom_plus_one) & 0x80000000u))
    headroom_plus_one++;
  *bits = 31 - headroom_plus_one;
  int32_t shifted = (int32_t)(((uint32_t)x << headroom_plus_one) - 0x80000000u);
  return newton(shifted, 0);
}

/* MultiplyByQuantizedMultiplierSmallerThanOneExp.  A right shift of 32
 * or more is undefined in TFLM's C++ (DIV reaches one when the quotient is
 * below 2^-31 output steps: a dividend of 1 or 2 and a large divisor);
 * the rounded quotient is then 0, which tinyaot returns
 * (doc/operators.md). */
static int32_t mbqm_le1(int32_t x, int32_t m, int left_shift) {
  if (-left_shift > 31)
    return 0;
  return ref_rdbpot(ref_srdhm(x, m), -left_shift);
}

static int8_t div_s8_ref(int8_t x, int8_t y, int32_t zp1, int32_t zp2, int32_t zpo,
                         int32_t mult, int shift) {
  int32_t a = x - zp1, b = y - zp2;
  int rs;
  int32_t inv = b > 0 ? reciprocal(b, &rs) : -reciprocal(-b, &rs);
  int h = lead_sign_bits(a);
  int32_t q = ref_srdhm((int32_t)((uint32_t)a << h), inv); /* ...GreaterThanOne */
  int32_t v = zpo + mbqm_le1(q, mult, shift - rs - h);
  return (int8_t)ref_clamp(v, -128, 127);
}

static void test_div_s8(void) {
  Model md = {.m = tfw_new()};
  for (int inst = 0; inst < NINST / 2; inst++) { /* two inputs each */
    /* Instance 0 divides by a scalar (broadcast), the others elementwise. */
    int32_t d[2] = {rint_in(1, 6), rint_in(1, 40)}, one[1] = {1};
    int n = d[0] * d[1], nb = inst == 0 ? 1 : n;
    float s1 = runif(0.005f, 0.1f), s2 = runif(0.005f, 0.1f), so = runif(0.01f, 0.5f);
    int zp1 = rint_in(-20, 20), zp2 = rint_in(-20, 20), zpo = rint_in(-20, 20);
    int8_t x[240], y[240], out[240];
    random_s8(x, n);
    random_s8(y, nb);
    for (int i = 0; i < nb; i++)
      if (y[i] == zp2) /* a zero divisor: TFLM only DCHECKs it */
        y[i] = (int8_t)(zp2 + 1);
    int32_t mult;
    int shift;
    qmult((double)(s1 / (s2 * so)), &mult, &shift); /* in float, as TFLM */
    for (int i = 0; i < n; i++)
      out[i] = div_s8_ref(x[i], y[inst == 0 ? 0 : i], zp1, zp2, zpo, mult, shift);
    int ta = add_input(&md, "x", TFW_INT8, 2, d, s1, zp1, x, (size_t)n);
    int tb = add_input(&md, "y", TFW_INT8, inst == 0 ? 1 : 2, inst == 0 ? one : d, s2, zp2, y,
                       (size_t)nb);
    int to = add_output(&md, "out", TFW_INT8, 2, d, so, zpo, out, (size_t)n);
    tfw_op(md.m, 42 /* DIV */, 2, (int[]){ta, tb}, 1, &to);
  }
  finish(&md, "DIV int8");
}

static void test_squared_difference_s16(void) {
  Model md = {.m = tfw_new()};
  for (int inst = 0; inst < NINST / 2; inst++) { /* two inputs each */
    int32_t d[2] = {rint_in(1, 6), rint_in(1, 40)};
    int n = d[0] * d[1];
    float s1 = runif(1e-4f, 1e-3f), s2 = runif(1e-4f, 1e-3f), so = runif(1e-3f, 0.05f);
    int16_t x[240], y[240], out[240];
    for (int i = 0; i < n; i++) {
      x[i] = (int16_t)(rnext() & 0xFFFF);
      y[i] = (int16_t)(rnext() & 0xFFFF);
    }
    /* PrepareQuantized with left_shift 0. */
    double twice_max = 2.0 * (double)(s1 > s2 ? s1 : s2);
    int32_t m1, m2, mo;
    int sh1, sh2, sho;
    qmult((double)s1 / twice_max, &m1, &sh1);
    qmult((double)s2 / twice_max, &m2, &sh2);
    qmult(twice_max * twice_max / (double)(1.0f * so), &mo, &sho);
    for (int i = 0; i < n; i++) {
      int32_t a = mbqm_le1(x[i], m1, sh1), b = mbqm_le1(y[i], m2, sh2);
      int32_t diff = a - b;
      int32_t v = ref_mbqm((int32_t)((uint32_t)diff * (uint32_t)diff), mo, sho, TA_ROUND_DOUBLE);
      out[i] = (int16_t)ref_clamp(v, -32768, 32767);
    }
    int ta = add_input(&md, "x", TFW_INT16, 2, d, s1, 0, x, sizeof(int16_t) * (size_t)n);
    int tb = add_input(&md, "y", TFW_INT16, 2, d, s2, 0, y, sizeof(int16_t) * (size_t)n);
    int to = add_output(&md, "out", TFW_INT16, 2, d, so, 0, out, sizeof(int16_t) * (size_t)n);
    tfw_op(md.m, 99 /* SQUARED_DIFFERENCE */, 2, (int[]){ta, tb}, 1, &to);
  }
  finish(&md, "SQUARED_DIFFERENCE int16");
}

static void test_greater_s16(void) {
  Model md = {.m = tfw_new()};
  for (int inst = 0; inst < NINST / 2; inst++) { /* two inputs each */
    int32_t d[2] = {rint_in(1, 6), rint_in(1, 40)};
    int n = d[0] * d[1];
    float s1 = runif(1e-4f, 1e-3f), s2 = inst == 0 ? s1 : runif(1e-4f, 1e-3f);
    int16_t x[240], y[240];
    uint8_t out[240];
    for (int i = 0; i < n; i++) {
      x[i] = (int16_t)(rnext() & 0xFFFF);
      y[i] = inst == 0 && i % 3 == 0 ? x[i] : (int16_t)(rnext() & 0xFFFF);
    }
    /* ComparisonsPrepare: QuantizeMultiplierSmallerThanOneExp(scale),
     * inputs shifted left by 8 (zero points 0 here). */
    int32_t m1, m2;
    int sh1, sh2;
    qmult((double)s1, &m1, &sh1);
    qmult((double)s2, &m2, &sh2);
    for (int i = 0; i < n; i++)
      out[i] = mbqm_le1(x[i] * 256, m1, sh1) > mbqm_le1(y[i] * 256, m2, sh2);
    int ta = add_input(&md, "x", TFW_INT16, 2, d, s1, 0, x, sizeof(int16_t) * (size_t)n);
    int tb = add_input(&md, "y", TFW_INT16, 2, d, s2, 0, y, sizeof(int16_t) * (size_t)n);
    int to = tfw_tensor(md.m, "out", TFW_BOOL, 2, d, 0);
    md.out[md.nout] = to;
    md.expect[md.nout] = malloc((size_t)n);
    memcpy(md.expect[md.nout], out, (size_t)n);
    md.out_bytes[md.nout++] = (size_t)n;
    tfw_op(md.m, 61 /* GREATER */, 2, (int[]){ta, tb}, 1, &to);
  }
  finish(&md, "GREATER int16");
}

static void test_add_n_s8(void) {
  Model md = {.m = tfw_new()};
  /* Two instances: three inputs (zero point nonzero: TFLM's sum starts
   * from the scaled offset) and two. */
  for (int inst = 0; inst < 2; inst++) {
    int k = inst == 0 ? 3 : 2;
    int32_t d[2] = {rint_in(1, 5), rint_in(1, 30)};
    int n = d[0] * d[1];
    float si = runif(0.01f, 0.1f), so = runif(0.02f, 0.3f);
    int zpi = rint_in(-30, 30), zpo = rint_in(-30, 30);
    int8_t x[3][150], out[150];
    for (int j = 0; j < k; j++)
      random_s8(x[j], n);
    /* CalculateOpData: QuantizeMultiplierSmallerThanOneExp of 1/2 and of
     * 2 si / (2^20 so); left shift 20. */
    double twice = 2.0 * (double)si;
    int32_t mi, mo;
    int shi, sho;
    qmult((double)si / twice, &mi, &shi);
    qmult(twice / ((1 << 20) * (double)so), &mo, &sho);
    for (int i = 0; i < n; i++) {
      int32_t acc = mbqm_le1((int32_t)((uint32_t)(-zpi) << 20), mi, shi);
      for (int j = 0; j < k; j++)
        acc += mbqm_le1((int32_t)((uint32_t)(x[j][i] - zpi) << 20), mi, shi);
      out[i] = (int8_t)ref_clamp(mbqm_le1(acc, mo, sho) + zpo, -128, 127);
    }
    int ins[3];
    for (int j = 0; j < k; j++)
      ins[j] = add_input(&md, "x", TFW_INT8, 2, d, si, zpi, x[j], (size_t)n);
    int to = add_output(&md, "out", TFW_INT8, 2, d, so, zpo, out, (size_t)n);
    tfw_op(md.m, 106 /* ADD_N */, k, ins, 1, &to);
  }
  finish(&md, "ADD_N int8");
}

/* An unquantized tensor of the model, its bytes given (input) or expected
 * (output). */
static int raw_tensor(Model *md, int is_out, int dtype, int nd, const int32_t *d,
                      const void *bytes, size_t n) {
  int t = tfw_tensor(md->m, is_out ? "out" : "in", dtype, nd, d, 0);
  if (is_out) {
    md->out[md->nout] = t;
    md->expect[md->nout] = malloc(n);
    memcpy(md->expect[md->nout], bytes, n);
    md->out_bytes[md->nout++] = n;
  } else {
    md->in[md->nin] = t;
    md->in_data[md->nin] = malloc(n);
    memcpy(md->in_data[md->nin], bytes, n);
    md->in_bytes[md->nin++] = n;
  }
  return t;
}

static void test_compare_s64(void) {
  /* x [4, 5] against y [5] (broadcast over rows): values in [-3, 3],
   * some scaled by 2^40 so that int32 truncation would show. */
  static const int codes[6] = {71, 72, 61, 62, 58, 63}; /* EQUAL ... LESS_EQUAL */
  int32_t d[2] = {4, 5}, dy[1] = {5};
  int64_t x[20], y[5];
  for (int i = 0; i < 20; i++)
    x[i] = (int64_t)rint_in(-3, 3) * (rint_in(0, 4) ? 1 : INT64_C(1) << 40);
  for (int i = 0; i < 5; i++)
    y[i] = (int64_t)rint_in(-3, 3) * (i == 4 ? INT64_C(1) << 40 : 1);
  Model md = {.m = tfw_new()};
  int tx = raw_tensor(&md, 0, TFW_INT64, 2, d, x, sizeof x);
  int ty = raw_tensor(&md, 0, TFW_INT64, 1, dy, y, sizeof y);
  for (int k = 0; k < 6; k++) {
    uint8_t out[20];
    for (int i = 0; i < 20; i++) {
      int64_t a = x[i], b = y[i % 5];
      int v[6] = {a == b, a != b, a > b, a >= b, a < b, a <= b};
      out[i] = (uint8_t)v[k];
    }
    int to = raw_tensor(&md, 1, TFW_BOOL, 2, d, out, sizeof out);
    tfw_op(md.m, codes[k], 2, (int[]){tx, ty}, 1, &to);
  }
  finish(&md, "EQUAL, NOT_EQUAL, GREATER, GREATER_EQUAL, LESS, LESS_EQUAL int64");
}
