/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_rfft2d_f32 - RFFT2D for float32 input (TFLite's rfft2d.cc, which
 * computes tf.signal.rfft2d with Ooura's rdft2d in double; here in float,
 * within the tolerance doc/operators.md states).
 *
 * Per slice, with N = fft_w and M = N / 2:
 *  1. Rows.  Row r of the output (N / 2 + 1 complex values, N + 2 floats)
 *     first holds input row r cropped or zero-padded to N values (rows
 *     at or past in_h are all zero and stay so).  Read as M complex
 *     values z[n] = x[2n] + i x[2n + 1], a complex FFT of M points
 *     transforms them in place; the split step then gives the real FFT:
 *       a = z[k], b = conj(z[M - k]), E = (a + b) / 2, O = -i (a - b) / 2,
 *       T = e^(-2 pi i k / N) O, X[k] = E + T, X[M - k] = conj(E - T)
 *     for k = 1 .. M / 2, and X[0] = z0.re + z0.im, X[M] = z0.re - z0.im
 *     (both real).
 *  2. Columns.  Each of the N / 2 + 1 columns (stride N / 2 + 1 complex)
 *     gets a complex FFT of fft_h points in place.
 * The complex FFT is radix-2 decimation in time: a bit-reversal
 * permutation, then butterflies u + w v, u - w v with w = e^(-2 pi i j /
 * len) read from the twiddle table (entry j * table_n / len).
 */
#include <stddef.h>
#include <string.h>

#include "ta_kernels.h"

static int is_pow2(int32_t v) { return v > 0 && (v & (v - 1)) == 0; }

/* In-place complex FFT of n points at z, z + 2 stride, ...; twiddle j
 * of length len is tw[2 (j * step * (n / len))]. */
static void cfft(float *z, int32_t n, size_t stride, const float *tw, int32_t step) {
  for (int32_t i = 1, j = 0; i < n; i++) {
    int32_t bit = n >> 1;
    for (; j & bit; bit >>= 1)
      j ^= bit;
    j ^= bit;
    if (i < j) {
      float *a = z + 2 * stride * (size_t)i, *b = z + 2 * stride * (size_t)j;
      const float re = a[0], im = a[1];
      a[0] = b[0];
      a[1] = b[1];
      b[0] = re;
      b[1] = im;
    }
  }
  for (int32_t len = 2; len <= n; len <<= 1) {
    const int32_t half = len / 2, tstep = step * (n / len);
    for (int32_t i = 0; i < n; i += len)
      for (int32_t j = 0; j < half; j++) {
        float *u = z + 2 * stride * (size_t)(i + j), *v = u + 2 * stride * (size_t)half;
        const float wr = tw[2 * (size_t)(j * tstep)], wi = tw[2 * (size_t)(j * tstep) + 1];
        const float vr = v[0] * wr - v[1] * wi, vi = v[0] * wi + v[1] * wr;
        v[0] = u[0] - vr;
        v[1] = u[1] - vi;
        u[0] += vr;
        u[1] += vi;
      }
  }
}

/* The real FFT of the N values at r (N + 2 floats of room). */
static void rfft_row(float *r, int32_t n, const float *tw, int32_t table_n) {
  if (n == 1) {
    r[1] = 0.0f;
    return;
  }
  const int32_t m = n / 2;
  cfft(r, m, 1, tw, table_n / m);
  const float z0r = r[0], z0i = r[1];
  r[0] = z0r + z0i;
  r[1] = 0.0f;
  r[2 * m] = z0r - z0i;
  r[2 * m + 1] = 0.0f;
  for (int32_t k = 1; k <= m / 2; k++) {
    float *zk = r + 2 * k, *zm = r + 2 * (m - k);
    const float ar = zk[0], ai = zk[1], br = zm[0], bi = -zm[1];
    const float er = 0.5f * (ar + br), ei = 0.5f * (ai + bi);
    const float dr = 0.5f * (ar - br), di = 0.5f * (ai - bi);
    const float or_ = di, oi = -dr; /* -i (a - b) / 2 */
    const size_t t = 2 * (size_t)(k * (table_n / n));
    const float wr = tw[t], wi = tw[t + 1];
    const float tr = wr * or_ - wi * oi, ti = wr * oi + wi * or_;
    zk[0] = er + tr;
    zk[1] = ei + ti;
    zm[0] = er - tr;
    zm[1] = ti - ei;
  }
}

ta_status ta_rfft2d_f32(const ta_rfft2d_params *p, const float *twiddles, const float *in,
                        float *out) {
  const int32_t fh = p->fft_h, fw = p->fft_w;
  if (p->slices < 0 || p->in_h < 0 || p->in_w < 0 || !is_pow2(fh) || !is_pow2(fw) ||
      !is_pow2(p->table_n) || p->table_n < 2 || p->table_n < fh || p->table_n < fw)
    return TA_ERR_ARG;
  const int32_t ow = fw / 2 + 1;
  const int32_t rows = p->in_h < fh ? p->in_h : fh, cols = p->in_w < fw ? p->in_w : fw;
  const size_t in_slice = (size_t)p->in_h * (size_t)p->in_w;
  const size_t out_slice = 2 * (size_t)fh * (size_t)ow;
  for (int32_t s = 0; s < p->slices; s++) {
    const float *x = in + (size_t)s * in_slice;
    float *y = out + (size_t)s * out_slice;
    memset(y, 0, out_slice * sizeof(float));
    for (int32_t r = 0; r < rows; r++) {
      float *row = y + 2 * (size_t)r * (size_t)ow;
      memcpy(row, x + (size_t)r * (size_t)p->in_w, (size_t)cols * sizeof(float));
      rfft_row(row, fw, twiddles, p->table_n);
    }
    if (fh > 1)
      for (int32_t c = 0; c < ow; c++)
        cfft(y + 2 * (size_t)c, fh, (size_t)ow, twiddles, p->table_n / fh);
  }
  return TA_OK;
}
