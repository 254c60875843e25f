/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_rfft2d_f32 against the 2-D DFT written out (in double, straight from
 * the definition out[k1][k2] = sum x[n1][n2] e^(-2 pi i (k1 n1 / H + k2 n2
 * / W))), on the shapes the differential rows reach rarely or not at all:
 * fft_length 1 in either direction, inputs cropped and padded at once,
 * an impulse (every bin 1) and a constant (only the DC bin), several
 * slices; the output between canary bytes.  ta_complex_abs_f32 on a few
 * Pythagorean pairs.  The twiddles are made here as the compiler makes
 * them (e^(-2 pi i k / n), n = max(2, H, W)).
 */
#include "test.h"
#include "ta_kernels.h"
#include "tinyaot.h"
#include "ref.h"

#include <math.h>

/* slices x [h][w] random in [-1, 1] (or the pattern), transformed to
 * [fh][fw / 2 + 1]; the largest difference from the DFT over the largest
 * magnitude. */
static double check(int32_t slices, int32_t h, int32_t w, int32_t fh, int32_t fw, int pattern,
                    int *status_ok, int *canaries_ok) {
  const double pi = 3.14159265358979323846;
  ta_rfft2d_params p = {slices, h, w, fh, fw, fh > fw ? fh : fw};
  if (p.table_n < 2)
    p.table_n = 2;
  float *tw = malloc(sizeof(float) * (size_t)p.table_n);
  for (int32_t k = 0; k < p.table_n / 2; k++) {
    tw[2 * k] = (float)cos(2 * pi * k / p.table_n);
    tw[2 * k + 1] = (float)-sin(2 * pi * k / p.table_n);
  }
  const int32_t ow = fw / 2 + 1;
  size_t nin = (size_t)slices * (size_t)h * (size_t)w, nout = 2 * (size_t)slices * (size_t)fh * (size_t)ow;
  float *x = malloc(sizeof(float) * nin);
  for (size_t i = 0; i < nin; i++)
    x[i] = pattern == 1 ? (i % ((size_t)h * (size_t)w) == 0 ? 1.0f : 0.0f)
         : pattern == 2 ? 0.5f
                        : (float)ref_rand(-1000, 1000) / 1000.0f;
  float *y = canary_alloc(sizeof(float) * nout);
  *status_ok = ta_rfft2d_f32(&p, tw, x, y) == TA_OK;
  double maxmag = 0, maxdiff = 0;
  for (int32_t s = 0; s < slices; s++)
    for (int32_t k1 = 0; k1 < fh; k1++)
      for (int32_t k2 = 0; k2 < ow; k2++) {
        double re = 0, im = 0;
        for (int32_t n1 = 0; n1 < h && n1 < fh; n1++)
          for (int32_t n2 = 0; n2 < w && n2 < fw; n2++) {
            double v = x[((size_t)s * (size_t)h + (size_t)n1) * (size_t)w + (size_t)n2];
            double a = -2 * pi * ((double)k1 * n1 / fh + (double)k2 * n2 / fw);
            re += v * cos(a);
            im += v * sin(a);
          }
        const float *o = y + 2 * (((size_t)s * (size_t)fh + (size_t)k1) * (size_t)ow + (size_t)k2);
        double d = fmax(fabs(o[0] - re), fabs(o[1] - im));
        maxdiff = fmax(maxdiff, d);
        maxmag = fmax(maxmag, hypot(re, im));
      }
  *canaries_ok = canary_ok(y, sizeof(float) * nout);
  canary_free(y);
  free(x);
  free(tw);
  return maxmag > 0 ? maxdiff / maxmag : maxdiff;
}

int main(void) {
  static const int32_t cases[][6] = {
      /* slices, h, w, fft_h, fft_w, pattern */
      {1, 1, 1, 1, 1, 0},   {2, 3, 5, 1, 1, 0},   {1, 1, 7, 1, 2, 0},   {3, 4, 1, 8, 1, 0},
      {1, 5, 9, 4, 16, 0},  {2, 9, 40, 16, 32, 0}, {1, 1, 400, 1, 512, 0}, {2, 6, 6, 8, 8, 1},
      {1, 3, 4, 4, 4, 2},   {1, 17, 3, 32, 4, 0},  {1, 2, 300, 2, 256, 0},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    const int32_t *k = cases[c];
    int st, can;
    double rel = check(k[0], k[1], k[2], k[3], k[4], (int)k[5], &st, &can);
    CHECK(st && can && rel < 1e-6,
          "RFFT2D of %d x [%d][%d] at fft_length [%d, %d]%s equals the DFT within %.1e of the "
          "largest magnitude (%.2e), inside its output",
          (int)k[0], (int)k[1], (int)k[2], (int)k[3], (int)k[4],
          k[5] == 1 ? " (impulses)" : k[5] == 2 ? " (a constant)" : "", 1e-6, rel);
  }
  ta_rfft2d_params bad = {1, 2, 2, 3, 4, 4};
  float tw[4] = {1, 0, 0, -1}, in[4] = {0}, out[12];
  CHECK(ta_rfft2d_f32(&bad, tw, in, out) == TA_ERR_ARG,
        "an fft_length that is not a power of two is an argument error");

  const float z[8] = {3, 4, -5, 12, 0, -8, 1e-20f, 0};
  float *m = canary_alloc(sizeof(float) * 4);
  ta_unary_params up = {.size = 4};
  ta_status st = ta_complex_abs_f32(&up, z, m);
  CHECK(st == TA_OK && m[0] == 5 && m[1] == 13 && m[2] == 8 && m[3] == 1e-20f &&
            canary_ok(m, sizeof(float) * 4),
        "COMPLEX_ABS of 3+4i, -5+12i, -8i, 1e-20 is 5, 13, 8, 1e-20 (hypot: no underflow)");
  canary_free(m);
  return test_exit();
}
