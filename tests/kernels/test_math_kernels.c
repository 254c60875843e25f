/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Edge cases of the element-wise math kernels (ta_kernels_math.h) that
 * random single-op models rarely reach: FLOOR_DIV / FLOOR_MOD signs, the
 * int32 corner INT32_MIN / -1 and zero divisors, ROUND's halves, int8
 * comparisons of equal reals under different quantizations, saturation
 * of SQUARED_DIFFERENCE and PRELU, DIV by a zero real, and the three-way
 * broadcast of SELECT, int32 POW's wrap-around and negative exponents,
 * ERF against tabulated values, CAST to float16's rounding (ties to even,
 * subnormals, overflow) and back.  Expected values are worked out by hand in the
 * comments (FloorDiv / FloorMod / RoundToNearest as TFLite defines them).
 * Outputs sit between canary bytes.
 */
#include "test.h"
#include "ta_kernels.h"
#include "tinyaot.h"
#include "ref.h"

#include <math.h>

/* An element-wise walk of n elements (no broadcast). */
static ta_bcast flat(int32_t n) {
  ta_bcast b = {1, {n}, {1}, {1}};
  return b;
}

static void test_floor_div_mod(void) {
  /* a, b, floor(a / b), a - b * floor(a / b) */
  static const int32_t t[][4] = {
      {7, 2, 3, 1},    {7, -2, -4, -1},          {-7, 2, -4, 1},          {-7, -2, 3, -1},
      {6, -3, -2, 0},  {0, -5, 0, 0},            {INT32_MIN, -1, INT32_MIN, 0},
      {INT32_MAX, 2, 1073741823, 1},             {INT32_MIN, 3, -715827883, 1},
  };
  enum { N = sizeof t / sizeof t[0] };
  int32_t a[N], b[N];
  for (int i = 0; i < N; i++)
    a[i] = t[i][0], b[i] = t[i][1];
  int32_t *q = canary_alloc(sizeof(int32_t) * N), *m = canary_alloc(sizeof(int32_t) * N);
  ta_bcast s = flat(N);
  ta_status sq = ta_floor_div_s32(&s, a, b, q), sm = ta_floor_mod_s32(&s, a, b, m);
  int bad = -1;
  for (int i = 0; i < N && bad < 0; i++)
    if (q[i] != t[i][2] || m[i] != t[i][3])
      bad = i;
  CHECK(sq == TA_OK && sm == TA_OK && bad < 0 && canary_ok(q, sizeof(int32_t) * N) &&
            canary_ok(m, sizeof(int32_t) * N),
        "int32 FLOOR_DIV and FLOOR_MOD round toward minus infinity for every sign%s",
        bad < 0 ? ""
                : arena_printf(": %d, %d: expected %d, %d; actual %d, %d", t[bad][0], t[bad][1],
                               t[bad][2], t[bad][3], q[bad], m[bad]));
  int32_t z[2] = {5, 0};
  sq = ta_floor_div_s32(&(ta_bcast){1, {2}, {1}, {1}}, a, z, q);
  sm = ta_floor_mod_s32(&(ta_bcast){1, {2}, {1}, {1}}, a, z, m);
  CHECK(sq == TA_ERR_ARG && sm == TA_ERR_ARG,
        "int32 FLOOR_DIV and FLOOR_MOD report a zero divisor (status %d, %d)", (int)sq,
        (int)sm);
  canary_free(q);
  canary_free(m);

  float fa[4] = {-7.5f, 7.5f, -7.5f, 6.0f}, fb[4] = {2.0f, -2.0f, -2.0f, 3.0f};
  float fm[4], fd[4], em[4] = {0.5f, -0.5f, -1.5f, 0.0f}, ed[4] = {-4.0f, -4.0f, 3.0f, 2.0f};
  ta_bcast s4 = flat(4);
  ta_floor_mod_f32(&s4, fa, fb, fm);
  ta_floor_div_f32(&s4, fa, fb, fd);
  bad = -1;
  for (int i = 0; i < 4 && bad < 0; i++)
    if (fm[i] != em[i] || fd[i] != ed[i])
      bad = i;
  CHECK(bad < 0, "float FLOOR_MOD takes the divisor's sign and FLOOR_DIV floors%s",
        bad < 0 ? ""
                : arena_printf(": element %d: expected %g, %g; actual %g, %g", bad, ed[bad],
                               em[bad], fd[bad], fm[bad]));
}

static void test_round(void) {
  float x[10] = {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 2.4999998f, -3.7f, 1e8f, 0.0f};
  float e[10] = {0.0f, 2.0f, 2.0f, -0.0f, -2.0f, -2.0f, 2.0f, -4.0f, 1e8f, 0.0f};
  float *y = canary_alloc(sizeof x);
  ta_unary_params p = {.size = 10};
  ta_status st = ta_round_f32(&p, x, y);
  int bad = -1;
  for (int i = 0; i < 10 && bad < 0; i++)
    if (y[i] != e[i])
      bad = i;
  CHECK(st == TA_OK && bad < 0 && canary_ok(y, sizeof x),
        "float ROUND takes halves to the even integer%s",
        bad < 0 ? "" : arena_printf(": %g: expected %g, actual %g", x[bad], e[bad], y[bad]));
  canary_free(y);
}

/* int8 comparison parameters as lower_math.c derives them. */
static ta_add_params compare_params(float s1, int32_t zp1, float s2, int32_t zp2) {
  ta_add_params p = {0};
  p.input1_offset = -zp1;
  p.input2_offset = -zp2;
  p.left_shift = 8;
  quantize_multiplier_smaller_than_one_exp(s1, TA_ROUND_DOUBLE, &p.input1_multiplier,
                                           &p.input1_shift);
  quantize_multiplier_smaller_than_one_exp(s2, TA_ROUND_DOUBLE, &p.input2_multiplier,
                                           &p.input2_shift);
  return p;
}

static void test_compare_s8(void) {
  /* a: scale 0.5, zero point 0; b: scale 0.25, zero point 2.  Reals:
   * a = 4 -> 2.0 and b = 10 -> 2.0 (equal); a = 5 -> 2.5 > 2.0;
   * a = -128 -> -64 < b = -128 -> -32.5; a = 127 -> 63.5 > b = 127 -> 31.25. */
  ta_add_params p = compare_params(0.5f, 0, 0.25f, 2);
  int8_t a[4] = {4, 5, -128, 127}, b[4] = {10, 10, -128, 127};
  uint8_t eq[4], lt[4], ge[4];
  ta_bcast s = flat(4);
  ta_equal_s8(&p, &s, a, b, eq);
  ta_less_s8(&p, &s, a, b, lt);
  ta_greater_equal_s8(&p, &s, a, b, ge);
  int ok = eq[0] == 1 && eq[1] == 0 && eq[2] == 0 && eq[3] == 0 && lt[0] == 0 && lt[1] == 0 &&
           lt[2] == 1 && lt[3] == 0 && ge[0] == 1 && ge[1] == 1 && ge[2] == 0 && ge[3] == 1;
  CHECK(ok,
        "int8 EQUAL, LESS and GREATER_EQUAL compare the real values of differently "
        "quantized inputs (EQUAL %d %d %d %d, LESS %d %d %d %d)",
        eq[0], eq[1], eq[2], eq[3], lt[0], lt[1], lt[2], lt[3]);
}

static void test_squared_difference_s8(void) {
  /* Scales 1 and 1, output scale 1, zero points 0: TFLM's arithmetic is
   * exact there: (a - b)^2 saturated to 127. */
  ta_add_params p = {0};
  p.left_shift = 7;
  double twice = 2.0;
  quantize_multiplier_smaller_than_one_exp(1.0 / twice, TA_ROUND_DOUBLE, &p.input1_multiplier,
                                           &p.input1_shift);
  p.input2_multiplier = p.input1_multiplier;
  p.input2_shift = p.input1_shift;
  quantize_multiplier(twice * twice / (double)(1 << 14), TA_ROUND_DOUBLE, &p.output_multiplier,
                      &p.output_shift);
  p.act_min = -128;
  p.act_max = 127;
  p.output_offset = -3; /* the output zero point is added after squaring */
  int8_t a[5] = {3, -3, 127, 0, 11}, b[5] = {1, 1, -128, 0, 0};
  int8_t e[5] = {1, 13, 127, -3, 118};
  int8_t *y = canary_alloc(5);
  ta_bcast s = flat(5);
  ta_status st = ta_squared_difference_s8(&p, &s, a, b, y);
  long d = first_diff(y, e, 5);
  CHECK(st == TA_OK && d < 0 && canary_ok(y, 5),
        "int8 SQUARED_DIFFERENCE squares, adds the zero point and saturates%s",
        d < 0 ? "" : arena_printf(": element %ld: expected %d, actual %d", d, e[d], y[d]));
  canary_free(y);
}

static void test_prelu_s8(void) {
  /* Input and output scale 1 (zero points 1 and 0), alpha scale 1/4
   * (zero point 0), one alpha per channel: x - 1 >= 0 stays, else
   * (x - 1) * alpha / 4, saturated. */
  ta_prelu_params p = {-1, 0, 0, 0, 0, 0, 0};
  quantize_multiplier(1.0, TA_ROUND_DOUBLE, &p.mult_pos, &p.shift_pos);
  quantize_multiplier(0.25, TA_ROUND_DOUBLE, &p.mult_neg, &p.shift_neg);
  int8_t x[6] = {1, -7, 127, -128, -128, 5}, alpha[2] = {4, 127};
  /* channel 0: alpha 1; channel 1: alpha 31.75.  -8 * 31.75 and
   * -129 * 31.75 saturate; so does -129 * 1. */
  int8_t e[6] = {0, -128, 126, -128, -128, 4};
  int8_t *y = canary_alloc(6);
  ta_bcast s = {2, {3, 2}, {2, 1}, {0, 1}};
  ta_status st = ta_prelu_s8(&p, &s, x, alpha, y);
  long d = first_diff(y, e, 6);
  CHECK(st == TA_OK && d < 0 && canary_ok(y, 6),
        "int8 PRELU broadcasts alpha per channel and saturates%s",
        d < 0 ? "" : arena_printf(": element %ld: expected %d, actual %d", d, e[d], y[d]));
  canary_free(y);
}

static void test_div_s8(void) {
  ta_add_params p = {0};
  p.input2_offset = -5; /* the divisor's zero point 5 */
  p.act_min = -128;
  p.act_max = 127;
  quantize_multiplier(1.0, TA_ROUND_DOUBLE, &p.output_multiplier, &p.output_shift);
  int8_t a[3] = {100, 0, -100}, b[3] = {9, 7, 5};
  int8_t y[3];
  ta_bcast s = flat(3);
  ta_status st = ta_div_s8(&p, &s, a, b, y);
  CHECK(st == TA_ERR_ARG, "int8 DIV reports a divisor at its zero point (status %d)", (int)st);
  s.shape[0] = 2;
  st = ta_div_s8(&p, &s, a, b, y);
  CHECK(st == TA_OK && y[0] == 25 && y[1] == 0,
        "int8 DIV divides the real values (100 / 4 = %d, 0 / 2 = %d)", y[0], y[1]);
}

static void test_select(void) {
  /* Output [2, 3]: condition [2, 1] (one per row), x [1, 3] (one row),
   * y a scalar broadcast everywhere. */
  ta_select_shape s = {2, {2, 3}, {1, 0}, {0, 1}, {0, 0}};
  uint8_t c[2] = {1, 0};
  int32_t x[3] = {10, 11, 12}, y[1] = {-1};
  int32_t e[6] = {10, 11, 12, -1, -1, -1};
  int32_t *o = canary_alloc(sizeof e);
  ta_status st = ta_select_x32(&s, c, x, y, o);
  long d = first_diff(o, e, sizeof e);
  CHECK(st == TA_OK && d < 0 && canary_ok(o, sizeof e),
        "SELECT_V2 broadcasts condition, x and y against each other%s",
        d < 0 ? "" : arena_printf(" (byte %ld differs)", d));
  canary_free(o);
  uint8_t z[12];
  memset(z, 0x5a, sizeof z);
  ta_unary_params zp = {.size = 10};
  st = ta_zeros_like_x8(&zp, z);
  CHECK(st == TA_OK && z[0] == 0 && z[9] == 0 && z[10] == 0x5a,
        "ZEROS_LIKE writes exactly its byte count");
}

static void test_pow_erf(void) {
  /* 3^4 = 81, (-2)^3 = -8, 7^0 = 1, 0^0 = 1, 2^31 wraps to INT32_MIN,
   * 3^21 = 10460353203 wraps to 10460353203 - 2 * 2^32 = 1870418611. */
  static const int32_t a[] = {3, -2, 7, 0, 2, 3}, b[] = {4, 3, 0, 0, 31, 21};
  static const int32_t e[] = {81, -8, 1, 1, INT32_MIN, 1870418611};
  int32_t *o = canary_alloc(sizeof e);
  ta_bcast s = flat(6);
  ta_status st = ta_pow_s32(&s, a, b, o);
  long d = first_diff(o, e, sizeof e);
  CHECK(st == TA_OK && d < 0 && canary_ok(o, sizeof e),
        "int32 POW multiplies by repeated squaring and wraps around%s",
        d < 0 ? "" : arena_printf(" (byte %ld differs)", d));
  static const int32_t neg[] = {2, -1};
  st = ta_pow_s32(&(ta_bcast){1, {1}, {1}, {1}}, neg, neg + 1, o);
  CHECK(st == TA_ERR_ARG, "int32 POW refuses a negative exponent");
  /* int64: 3^40 = 12157665459056928801 wraps to that minus 2^64,
   * (-2)^5 = -32, 10^18 fits. */
  static const int64_t a64[] = {3, -2, 10}, b64[] = {40, 5, 18};
  static const int64_t e64[] = {INT64_C(-6289078614652622815), -32,
                                INT64_C(1000000000000000000)};
  int64_t *o64 = canary_alloc(sizeof e64);
  st = ta_pow_s64(&(ta_bcast){1, {3}, {1}, {1}}, a64, b64, o64);
  d = first_diff(o64, e64, sizeof e64);
  CHECK(st == TA_OK && d < 0 && canary_ok(o64, sizeof e64),
        "int64 POW multiplies by repeated squaring and wraps around%s",
        d < 0 ? "" : arena_printf(" (byte %ld differs)", d));
  canary_free(o64);
  canary_free(o);
  /* erf(0), erf(0.5), erf(1), erf(-2), erf(3) (Abramowitz and Stegun,
   * table 7.1, to 9 digits). */
  static const float x[] = {0.0f, 0.5f, 1.0f, -2.0f, 3.0f};
  static const double ref[] = {0.0, 0.520499878, 0.842700793, -0.995322265, 0.999977910};
  float *y = canary_alloc(sizeof x);
  ta_unary_params up = {.size = 5};
  st = ta_erf_f32(&up, x, y);
  int bad = -1;
  for (int i = 0; i < 5 && bad < 0; i++)
    if (fabs((double)y[i] - ref[i]) > 1e-7)
      bad = i;
  CHECK(st == TA_OK && bad < 0 && canary_ok(y, sizeof x),
        "ERF matches the tabulated error function to 1e-7%s",
        bad < 0 ? "" : arena_printf(" (x = %g: %.9g)", (double)x[bad], (double)y[bad]));
  canary_free(y);
}

static void test_cast_f16(void) {
  /* value, its float16 bits: ties (1 + 2^-11, 2^-25, 3 * 2^-25,
   * 2^-14 - 2^-25) go to the even neighbour; 65520 is the first value
   * that rounds to infinity. */
  static const double v[] = {1.0, 65504.0, 65519.0, 65520.0, 0x1p-24, 0x1p-25, 0x3p-25,
                             1.0 + 0x1p-11, 1.0 + 0x3p-11, -0.0, 0x1p-14 - 0x1p-25, -2.5};
  static const uint16_t e[] = {0x3c00, 0x7bff, 0x7bff, 0x7c00, 0x0001, 0x0000, 0x0002,
                               0x3c00, 0x3c02, 0x8000, 0x0400, 0xc100};
  enum { N = sizeof e / sizeof e[0] };
  float f[N];
  for (int i = 0; i < N; i++)
    f[i] = (float)v[i];
  uint16_t *h = canary_alloc(sizeof e), *hd = canary_alloc(sizeof e);
  ta_status st = ta_cast_f32_f16(N, f, h), sd = ta_cast_f64_f16(N, v, hd);
  long d = first_diff(h, e, sizeof e), dd = first_diff(hd, e, sizeof e);
  CHECK(st == TA_OK && sd == TA_OK && d < 0 && dd < 0 && canary_ok(h, sizeof e) &&
            canary_ok(hd, sizeof e),
        "CAST to float16 rounds to nearest, ties to even, from float and double%s",
        d < 0 && dd < 0 ? "" : arena_printf(" (byte %ld / %ld differs)", d, dd));
  float *back = canary_alloc(sizeof f);
  st = ta_cast_f16_f32(N, e, back);
  int bad = -1;
  static const int exact[] = {0, 1, 4, 9, 11}; /* representable in float16 */
  for (int k = 0; k < 5 && bad < 0; k++)
    if (back[exact[k]] != f[exact[k]] || signbit(back[exact[k]]) != signbit(f[exact[k]]))
      bad = exact[k];
  CHECK(st == TA_OK && bad < 0 && isinf(back[3]) && back[10] == 0x1p-14f &&
            canary_ok(back, sizeof f),
        "CAST from float16 is exact (subnormals, infinity)%s",
        bad < 0 ? "" : arena_printf(" (element %d: %g)", bad, (double)back[bad]));
  canary_free(h);
  canary_free(hd);
  canary_free(back);
}

/* The unsigned wide-integer kernels and float16/float64 MAXIMUM/MINIMUM,
 * on values worked out by hand: products and sums modulo 2^bits (65535^2
 * = (-1)^2 = 1 mod 2^16; 300^2 = 90000 = 65536 + 24464; 2^32 * 2^32 = 0
 * mod 2^64), truncating division, comparisons above the signed range. */
static void check_bytes(void *got, const void *want, size_t n, ta_status st,
                        const char *what) {
  long d = first_diff(got, want, n);
  CHECK(st == TA_OK && d < 0 && canary_ok(got, n), "%s%s", what,
        d < 0 ? "" : arena_printf(" (byte %ld differs)", d));
}

static void test_wide_unsigned(void) {
  const ta_bcast three = {1, {3}, {1}, {1}};
  static const uint16_t a16[] = {65535, 300, 7}, b16[] = {65535, 300, 2};
  static const uint16_t mul16[] = {1, 24464, 14}, div16[] = {1, 1, 3};
  uint16_t *o16 = canary_alloc(sizeof mul16);
  check_bytes(o16, mul16, sizeof mul16, ta_mul_u16(&three, a16, b16, o16),
              "uint16 MUL wraps around modulo 2^16 (65535 * 65535 = 1)");
  check_bytes(o16, div16, sizeof div16, ta_div_u16(&three, a16, b16, o16),
              "uint16 DIV truncates (7 / 2 = 3)");
  canary_free(o16);

  static const uint32_t a32[] = {0, 4294967295u, 5}, b32[] = {1, 2, 5};
  static const uint32_t sub32[] = {4294967295u, 4294967293u, 0}, add32[] = {1, 1, 10};
  uint32_t *o32 = canary_alloc(sizeof sub32);
  check_bytes(o32, sub32, sizeof sub32, ta_sub_u32(&three, a32, b32, o32),
              "uint32 SUB wraps around below zero (0 - 1 = 2^32 - 1)");
  check_bytes(o32, add32, sizeof add32, ta_add_u32(&three, a32, b32, o32),
              "uint32 ADD wraps around above 2^32 - 1");
  canary_free(o32);

  static const uint64_t a64[] = {UINT64_C(4294967296), UINT64_MAX, UINT64_C(9223372036854775808)};
  static const uint64_t b64[] = {UINT64_C(4294967296), 10, 1};
  static const uint64_t mul64[] = {0, UINT64_C(18446744073709551606), UINT64_C(9223372036854775808)};
  static const uint64_t div64[] = {1, UINT64_C(1844674407370955161), UINT64_C(9223372036854775808)};
  static const uint8_t gt64[] = {0, 1, 1}, lt64[] = {0, 0, 0}, eq64[] = {1, 0, 0};
  uint64_t *o64 = canary_alloc(sizeof mul64);
  check_bytes(o64, mul64, sizeof mul64, ta_mul_u64(&three, a64, b64, o64),
              "uint64 MUL wraps around modulo 2^64 (2^32 * 2^32 = 0)");
  check_bytes(o64, div64, sizeof div64, ta_div_u64(&three, a64, b64, o64),
              "uint64 DIV truncates, operands above 2^63 included");
  canary_free(o64);
  uint8_t *ob = canary_alloc(3);
  check_bytes(ob, gt64, 3, ta_greater_u64(&three, a64, b64, ob),
              "uint64 GREATER orders values above 2^63 as unsigned");
  check_bytes(ob, lt64, 3, ta_less_u64(&three, a64, b64, ob), "uint64 LESS is GREATER's mirror");
  check_bytes(ob, eq64, 3, ta_equal_u64(&three, a64, b64, ob), "uint64 EQUAL");
  canary_free(ob);

  static const uint32_t zero32[] = {1, 0, 1};
  uint32_t *oz = canary_alloc(sizeof zero32);
  memset(oz, 0x5a, sizeof zero32);
  ta_status st = ta_div_u32(&three, a32, zero32, oz);
  CHECK(st == TA_ERR_ARG && oz[0] == 0x5a5a5a5au && canary_ok(oz, sizeof zero32),
        "uint32 DIV by zero returns TA_ERR_ARG and writes nothing");
  canary_free(oz);

  /* float16 bits: -2 = 0xc000, 1 = 0x3c00, -0 = 0x8000, +0 = 0, NaN = 0x7e00,
   * 65504 = 0x7bff, -65504 = 0xfbff. */
  static const uint16_t h1[] = {0xc000, 0x8000, 0x7e00, 0xfbff}, h2[] = {0x3c00, 0x0000, 0x3c00, 0x7bff};
  static const uint16_t hmax[] = {0x3c00, 0x0000, 0x3c00, 0x7bff}, hmin[] = {0xc000, 0x0000, 0x3c00, 0xfbff};
  const ta_bcast four = {1, {4}, {1}, {1}};
  uint16_t *oh = canary_alloc(sizeof hmax);
  check_bytes(oh, hmax, sizeof hmax, ta_maximum_f16(&four, h1, h2, oh),
              "float16 MAXIMUM orders by sign and magnitude; -0 == +0 and NaN take the second operand");
  check_bytes(oh, hmin, sizeof hmin, ta_minimum_f16(&four, h1, h2, oh),
              "float16 MINIMUM orders by sign and magnitude");
  canary_free(oh);
  static const double d1[] = {1e300, -0.5, 3.0}, d2[] = {-1e300, 0.25, 3.0};
  static const double dmin[] = {-1e300, -0.5, 3.0}, dmax[] = {1e300, 0.25, 3.0};
  double *od = canary_alloc(sizeof dmin);
  check_bytes(od, dmin, sizeof dmin, ta_minimum_f64(&three, d1, d2, od),
              "float64 MINIMUM keeps values beyond float's range");
  check_bytes(od, dmax, sizeof dmax, ta_maximum_f64(&three, d1, d2, od), "float64 MAXIMUM");
  canary_free(od);
}

int main(void) {
  test_floor_div_mod();
  test_round();
  test_compare_s8();
  test_squared_difference_s8();
  test_prelu_s8();
  test_div_s8();
  test_select();
  test_pow_erf();
  test_cast_f16();
  test_wide_unsigned();
  return test_failures ? 1 : 0;
}
