/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The CAST kernels of ONNX's small types (runtime/cast/minifloat.h)
 * against hand-checked encodings: each row's expected code worked out
 * from the format's definition (ONNX's doc/docsgen float8 and float4
 * tables: bias, largest value, NaN spelling) and round-to-nearest-even,
 * not from the kernels' output.
 */
#include "test.h"

#include <math.h>
#include <string.h>

#include "ta_kernels.h"

typedef ta_status (*sat_fn)(int32_t, int32_t, const float *, void *);

static void check_f8(const char *what, sat_fn f, float x, int sat, unsigned want) {
  uint8_t out = 0xaa;
  ta_status s = f(1, sat, &x, &out);
  CHECK(s == TA_OK && out == want, "%s of %g (saturate %d) is 0x%02x (got 0x%02x)", what,
        (double)x, sat, want, out);
}

int main(void) {
  /* float8e4m3fn: bias 7, max 448 = 0x7e, NaN 0x7f. */
  check_f8("e4m3fn", ta_cast_f32_e4m3fn, 1.0f, 1, 0x38);
  check_f8("e4m3fn", ta_cast_f32_e4m3fn, 448.0f, 1, 0x7e);
  check_f8("e4m3fn", ta_cast_f32_e4m3fn, 464.0f, 0, 0x7e); /* tie 448/480: even 448 */
  check_f8("e4m3fn", ta_cast_f32_e4m3fn, 480.0f, 0, 0x7f); /* beyond: NaN */
  check_f8("e4m3fn", ta_cast_f32_e4m3fn, 480.0f, 1, 0x7e);
  check_f8("e4m3fn", ta_cast_f32_e4m3fn, -HUGE_VALF, 1, 0xfe);
  check_f8("e4m3fn", ta_cast_f32_e4m3fn, ldexpf(1.0f, -9), 1, 0x01); /* smallest subnormal */
  check_f8("e4m3fn", ta_cast_f32_e4m3fn, ldexpf(1.0f, -10), 1, 0x00); /* tie 0/2^-9: 0 */
  check_f8("e4m3fn", ta_cast_f32_e4m3fn, ldexpf(3.0f, -10), 1, 0x02); /* tie 1/2: even 2 */
  /* float8e4m3fnuz: bias 8, max 240 = 0x7f, NaN 0x80, no -0. */
  check_f8("e4m3fnuz", ta_cast_f32_e4m3fnuz, 1.0f, 1, 0x40);
  check_f8("e4m3fnuz", ta_cast_f32_e4m3fnuz, 240.0f, 1, 0x7f);
  check_f8("e4m3fnuz", ta_cast_f32_e4m3fnuz, 1000.0f, 0, 0x80);
  check_f8("e4m3fnuz", ta_cast_f32_e4m3fnuz, -0.0f, 1, 0x00);
  /* float8e5m2: bias 15, max 57344 = 0x7b, inf 0x7c. */
  check_f8("e5m2", ta_cast_f32_e5m2, 1.0f, 1, 0x3c);
  check_f8("e5m2", ta_cast_f32_e5m2, 57344.0f, 0, 0x7b);
  check_f8("e5m2", ta_cast_f32_e5m2, 61440.0f, 0, 0x7c); /* tie 57344/65536: even 65536 = inf */
  check_f8("e5m2", ta_cast_f32_e5m2, 61440.0f, 1, 0x7b);
  check_f8("e5m2", ta_cast_f32_e5m2, -HUGE_VALF, 0, 0xfc);
  /* float8e5m2fnuz: bias 16, max 57344 = 0x7f. */
  check_f8("e5m2fnuz", ta_cast_f32_e5m2fnuz, 1.0f, 1, 0x40); /* exponent 16 */
  check_f8("e5m2fnuz", ta_cast_f32_e5m2fnuz, HUGE_VALF, 1, 0x7f);
  check_f8("e5m2fnuz", ta_cast_f32_e5m2fnuz, NAN, 1, 0x80);

  /* float8e8m0: 2^(code - 127). */
  const float e8[3] = {1.5f, 1.25f, 1.0f};
  const unsigned want_e8[3][3] = {{0x80, 0x80, 0x7f}, {0x7f, 0x80, 0x7f}, {0x7f, 0x7f, 0x7f}};
  const int mode_of[3] = {2, 0, 1}; /* nearest, up, down */
  for (int k = 0; k < 3; k++)
    for (int r = 0; r < 3; r++) {
      uint8_t out = 0;
      ta_cast_f32_e8m0(1, 1, mode_of[r], &e8[k], &out);
      CHECK(out == want_e8[k][r], "e8m0 of %g in round_mode %d is 0x%02x (got 0x%02x)",
            (double)e8[k], mode_of[r], want_e8[k][r], out);
    }

  /* float4e2m1, packed: 0.25 -> 0 (tie 0/0.5), 0.75 -> 1.0 (tie, even),
   * 2.5 -> 2 (tie 2/3), 5 -> 4 (tie 4/6), 7 -> 6, -1 -> 0xa. */
  const float f4[6] = {0.25f, 0.75f, 2.5f, 5.0f, 7.0f, -1.0f};
  uint8_t p4[3] = {0xff, 0xff, 0xff};
  ta_cast_f32_e2m1(6, f4, p4);
  CHECK(p4[0] == 0x20 && p4[1] == 0x64 && p4[2] == 0xa7,
        "float4e2m1 packs 0.25 0.75 2.5 5 7 -1 as 20 64 a7 (got %02x %02x %02x)", p4[0], p4[1],
        p4[2]);
  float back[6];
  ta_cast_e2m1_f32(6, p4, back);
  CHECK(back[0] == 0.0f && back[1] == 1.0f && back[2] == 2.0f && back[3] == 4.0f &&
            back[4] == 6.0f && back[5] == -1.0f,
        "float4e2m1 decodes back to 0 1 2 4 6 -1");

  /* int4 and int2: low bits, ONNX's packing, unused bits 0. */
  const float s4[3] = {-8.0f, 7.0f, 1.0f};
  uint8_t q4[2] = {0xff, 0xff};
  ta_cast_f32_s4(3, s4, q4);
  CHECK(q4[0] == 0x78 && q4[1] == 0x01, "int4 packs -8 7 1 as 78 01 (got %02x %02x)", q4[0],
        q4[1]);
  int8_t w[3];
  ta_cast_s4_s8(3, q4, w);
  CHECK(w[0] == -8 && w[1] == 7 && w[2] == 1, "int4 78 01 widens to -8 7 1");
  const float s2[5] = {-2.0f, -1.0f, 0.0f, 1.0f, -1.0f};
  uint8_t q2[2] = {0xff, 0xff};
  ta_cast_f32_s2(5, s2, q2);
  CHECK(q2[0] == 0x4e && q2[1] == 0x03, "int2 packs -2 -1 0 1 -1 as 4e 03 (got %02x %02x)",
        q2[0], q2[1]);

  /* bfloat16: ties to even. */
  uint32_t bits[2] = {0x3f808000u, 0x3f818000u};
  float bf_in[2];
  memcpy(bf_in, bits, 8);
  uint8_t bf[4];
  ta_cast_f32_bf16(2, bf_in, bf);
  CHECK(bf[0] == 0x80 && bf[1] == 0x3f && bf[2] == 0x82 && bf[3] == 0x3f,
        "bfloat16 rounds 0x3f808000 to 0x3f80 and 0x3f818000 to 0x3f82");
  return test_exit();
}
