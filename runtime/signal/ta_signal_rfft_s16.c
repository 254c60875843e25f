/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_signal_rfft_s16 - SignalRfft for int16 (TFLM RfftInt16Apply: KISS FFT
 * v1.3.0's kiss_fftr built with FIXED_POINT=16), bit for bit.
 *
 * A real FFT of n = fft_length points is a complex FFT of n / 2 points
 * of the input read as (even, odd) pairs, followed by a split step.
 * Fixed-point arithmetic (Q15, int16 values, int32 products):
 *   sround(x)   = (x + 2^14) >> 15, narrowed to int16
 *   C_FIXDIV(c, k): each part = sround(part * (32767 / k))
 *   C_MUL(a, b) = (sround(ar br - ai bi), sround(ar bi + ai br))
 *   sums and differences narrowed to int16 (wrapping)
 * The complex FFT is KISS FFT's mixed-radix decimation in time: the input
 * is gathered in digit-reversed order, then each stage (last factor
 * first) runs its radix-4 or radix-2 butterflies, which first divide
 * their inputs by the radix.  KISS FFT recurses; the same butterflies on
 * the same data run here in a loop (each stage's blocks are independent,
 * so the order among them does not change any value).
 * Split: dc = C_FIXDIV(z[0], 2); out[0] = (dc.r + dc.i, 0),
 * out[n/2] = (dc.r - dc.i, 0); for k = 1..n/4, with a = C_FIXDIV(z[k], 2),
 * b = C_FIXDIV(conj(z[n/2 - k]), 2), f1 = a + b, t = (a - b) * s[k - 1]:
 *   out[k] = ((f1 + t) >> 1), out[n/2 - k] = ((f1.r - t.r) >> 1,
 *   (t.i - f1.i) >> 1)  (written second: wins at k = n/4).
 * Twiddles (w[i] = round(32767 e^(-2 pi i i / (n/2)))) and split twiddles
 * s come from the compiler.  Frames shorter than fft_length are zero-
 * padded.  scratch: the padded frame, then the complex FFT's output.
 */
#include <string.h>

#include "signal_common.h"
#include "ta_kernels.h"

typedef struct {
  int16_t r, i;
} cpx;

size_t ta_signal_rfft_s16_scratch_size(const ta_rfft_params *p) {
  if (p->fft_length <= 0)
    return 0;
  return (size_t)p->fft_length * sizeof(int16_t) +
         (size_t)(p->fft_length / 2) * sizeof(cpx);
}

static int16_t sround(int32_t x) { return ta_wrap16((x + (1 << 14)) >> 15); }

static cpx fixdiv(cpx c, int32_t k) {
  const int32_t d = 32767 / k;
  cpx r = {sround(c.r * d), sround(c.i * d)};
  return r;
}

static cpx cmul(cpx a, cpx b) {
  cpx m = {sround((int32_t)a.r * b.r - (int32_t)a.i * b.i),
           sround((int32_t)a.r * b.i + (int32_t)a.i * b.r)};
  return m;
}

static cpx cadd(cpx a, cpx b) {
  cpx r = {ta_wrap16(a.r + b.r), ta_wrap16(a.i + b.i)};
  return r;
}

static cpx csub(cpx a, cpx b) {
  cpx r = {ta_wrap16(a.r - b.r), ta_wrap16(a.i - b.i)};
  return r;
}

static void bfly2(cpx *f, int32_t fstride, const cpx *tw, int32_t m) {
  for (int32_t k = 0; k < m; k++) {
    cpx *f0 = f + k, *f1 = f + m + k;
    *f0 = fixdiv(*f0, 2);
    *f1 = fixdiv(*f1, 2);
    const cpx t = cmul(*f1, tw[k * fstride]);
    *f1 = csub(*f0, t);
    *f0 = cadd(*f0, t);
  }
}

static void bfly4(cpx *f, int32_t fstride, const cpx *tw, int32_t m) {
  for (int32_t k = 0; k < m; k++) {
    cpx *f0 = f + k, *f1 = f + m + k, *f2 = f + 2 * m + k, *f3 = f + 3 * m + k;
    *f0 = fixdiv(*f0, 4);
    *f1 = fixdiv(*f1, 4);
    *f2 = fixdiv(*f2, 4);
    *f3 = fixdiv(*f3, 4);
    const cpx s0 = cmul(*f1, tw[k * fstride]);
    const cpx s1 = cmul(*f2, tw[2 * k * fstride]);
    const cpx s2 = cmul(*f3, tw[3 * k * fstride]);
    const cpx s5 = csub(*f0, s1);
    *f0 = cadd(*f0, s1);
    const cpx s3 = cadd(s0, s2);
    const cpx s4 = csub(s0, s2);
    *f2 = csub(*f0, s3);
    *f0 = cadd(*f0, s3);
    f1->r = ta_wrap16(s5.r + s4.i);
    f1->i = ta_wrap16(s5.i - s4.r);
    f3->r = ta_wrap16(s5.r - s4.i);
    f3->i = ta_wrap16(s5.i + s4.r);
  }
}

/* The complex FFT of nfft points: in (read as pairs) -> out. */
static void cfft(const ta_rfft_params *p, const cpx *tw, const cpx *in, cpx *out,
                 int32_t nfft) {
  const int32_t nf = p->nfactors;
  /* Digit-reversed gather: position j = sum q_k m_k reads sum q_k s_k,
   * s_k the product of the radices before stage k. */
  for (int32_t j = 0; j < nfft; j++) {
    int32_t rest = j, src = 0, stride = 1;
    for (int32_t s = 0; s < nf; s++) {
      const int32_t radix = p->factors[2 * s], m = p->factors[2 * s + 1];
      src += (rest / m) * stride;
      rest %= m;
      stride *= radix;
    }
    out[j] = in[src];
  }
  /* Butterflies, deepest stage first. */
  for (int32_t s = nf - 1; s >= 0; s--) {
    const int32_t radix = p->factors[2 * s], m = p->factors[2 * s + 1];
    int32_t fstride = 1;
    for (int32_t k = 0; k < s; k++)
      fstride *= p->factors[2 * k];
    for (int32_t b = 0; b < fstride; b++) {
      cpx *blk = out + (size_t)b * (size_t)radix * (size_t)m;
      if (radix == 4)
        bfly4(blk, fstride, tw, m);
      else
        bfly2(blk, fstride, tw, m);
    }
  }
}

ta_status ta_signal_rfft_s16(const ta_rfft_params *p, const int16_t *twiddles,
                             const int16_t *super_twiddles, const int16_t *in,
                             int16_t *out, void *scratch) {
  const int32_t n = p->fft_length, ncfft = n / 2;
  if (n <= 0 || n % 2 || p->input_length < 0 || p->input_length > n ||
      p->input_size < 0 || p->output_length != ncfft + 1 || p->nfactors < 0 ||
      p->nfactors > TA_RFFT_MAX_FACTORS || !scratch)
    return TA_ERR_ARG;
  int32_t prod = 1;
  for (int32_t s = 0; s < p->nfactors; s++) {
    const int32_t radix = p->factors[2 * s];
    if ((radix != 2 && radix != 4) || p->factors[2 * s + 1] * radix * prod != ncfft)
      return TA_ERR_ARG;
    prod *= radix;
  }
  if (prod != ncfft || (p->input_length == 0 && p->input_size != 0) ||
      (p->input_length && p->input_size % p->input_length))
    return TA_ERR_ARG;
  int16_t *work = (int16_t *)scratch;
  cpx *z = (cpx *)(void *)(work + n);
  const cpx *tw = (const cpx *)(const void *)twiddles;
  const cpx *stw = (const cpx *)(const void *)super_twiddles;
  int32_t frame = 0;
  for (int32_t at = 0; at < p->input_size; at += p->input_length, frame++) {
    memcpy(work, in + at, (size_t)p->input_length * sizeof(int16_t));
    memset(work + p->input_length, 0, (size_t)(n - p->input_length) * sizeof(int16_t));
    cfft(p, tw, (const cpx *)(const void *)work, z, ncfft);
    cpx *o = (cpx *)(void *)(out + (size_t)frame * 2 * (size_t)p->output_length);
    const cpx dc = fixdiv(z[0], 2);
    o[0].r = ta_wrap16(dc.r + dc.i);
    o[ncfft].r = ta_wrap16(dc.r - dc.i);
    o[0].i = o[ncfft].i = 0;
    for (int32_t k = 1; k <= ncfft / 2; k++) {
      cpx fpk = z[k], fpnk = {z[ncfft - k].r, ta_wrap16(-(int32_t)z[ncfft - k].i)};
      fpk = fixdiv(fpk, 2);
      fpnk = fixdiv(fpnk, 2);
      const cpx f1 = cadd(fpk, fpnk), f2 = csub(fpk, fpnk);
      const cpx t = cmul(f2, stw[k - 1]);
      o[k].r = (int16_t)((f1.r + t.r) >> 1);
      o[k].i = (int16_t)((f1.i + t.i) >> 1);
      o[ncfft - k].r = (int16_t)((f1.r - t.r) >> 1);
      o[ncfft - k].i = (int16_t)((t.i - f1.i) >> 1);
    }
  }
  return TA_OK;
}
