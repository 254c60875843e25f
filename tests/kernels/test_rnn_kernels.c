/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The stateful and signal kernels beyond what the shared models reach
 * (the models, bit-exact with TFLM, are in tests/models/test_stateful.c):
 *
 *  - SignalRfft int16 of 64 points (radix 4, 4, 2: the radix-2 butterfly
 *    no shared model uses) and SignalFftAutoScale against TFLite Micro's
 *    own unit tests (signal/micro/kernels/fft_test.cc: RfftTestSize64Int16,
 *    FftAutoScaleTestSmall, FftAutoScaleTestScaleBit);
 *  - LSTM (int8 and float) with two batches: batch-major and time-major
 *    layouts must give every batch the result of running it alone (the
 *    shared models all have one batch);
 *  - SVDF with rank 2 and two batches against a plain loop written here
 *    from the op's definition, and the int8 state's wrap-around;
 *  - every kernel's scratch and state surrounded by canary bytes.
 */
#include "test.h"
#include "tinyaot.h"
#include "lower.h"

#include <math.h>

static uint32_t rng = 12345;
static uint32_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng;
}
static int8_t r8(void) { return (int8_t)(next() & 0xff); }

#define CANARY 0xA7
static uint8_t *guarded(size_t n) {
  uint8_t *b = malloc(n + 64);
  memset(b, CANARY, n + 64);
  return b + 32;
}
static int intact(uint8_t *p, size_t n) {
  for (size_t i = 0; i < 32; i++)
    if (p[-1 - (long)i] != CANARY || p[n + i] != CANARY)
      return 0;
  return 1;
}
static void release(uint8_t *p) { free(p - 32); }

/* ------------------------------------------------------------- FFT */

static void test_rfft64(void) {
  ta_rfft_params p = {0};
  int16_t tw[64], stw[32];
  bool planned = rfft_tables(64, &p, tw, stw);
  CHECK(planned && p.nfactors == 3 && p.factors[0] == 4 &&
            p.factors[2] == 4 && p.factors[4] == 2,
        "a 64-point real FFT is planned as radices 4, 4, 2 (got %d factors)", p.nfactors);
  p.input_length = 64;
  p.input_size = 64;
  p.output_length = 33;
  int16_t in[64] = {16384}, out[66];
  size_t ns = ta_signal_rfft_s16_scratch_size(&p);
  uint8_t *scratch = guarded(ns);
  ta_status st = ta_signal_rfft_s16(&p, tw, stw, in, out, scratch);
  int bad = -1;
  for (int i = 0; i < 66 && bad < 0; i++)
    if (out[i] != (i % 2 ? 0 : 256))
      bad = i;
  CHECK(st == TA_OK && bad < 0,
        "RFFT int16 of an impulse of 16384 over 64 points is 256 + 0i in every bin "
        "(TFLM fft_test RfftTestSize64Int16)%s",
        bad < 0 ? "" : arena_printf(": value %d is %d", bad, out[bad]));
  CHECK(intact(scratch, ns), "the RFFT stays inside its %zu bytes of scratch", ns);
  release(scratch);
  ta_rfft_params q;
  CHECK(!rfft_tables(96, &q, tw, stw), "a 96-point FFT (factor 3) is not planned");
}

static void test_fft_auto_scale(void) {
  const int16_t a[8] = {0x0000, 0x1111, 0x2222, 0x3333, 0x3333, 0x2222, 0x1111, 0x0000};
  const int16_t ga[8] = {0x0000, 0x2222, 0x4444, 0x6666, 0x6666, 0x4444, 0x2222, 0x0000};
  const int16_t b[8] = {238, 113, -88, -243, -5, -130, 159, -70};
  const int16_t gb[8] = {30464, 14464, -11264, -31104, -640, -16640, 20352, -8960};
  int16_t out[8];
  int32_t bits = -1;
  ta_signal_fft_auto_scale_s16(8, a, out, &bits);
  CHECK(bits == 1 && !memcmp(out, ga, sizeof ga),
        "FftAutoScale doubles a signal peaking at 0x3333 (TFLM FftAutoScaleTestSmall; "
        "scale bits %d)", (int)bits);
  ta_signal_fft_auto_scale_s16(8, b, out, &bits);
  CHECK(bits == 7 && !memcmp(out, gb, sizeof gb),
        "FftAutoScale shifts a signal peaking at -243 by 7 (TFLM "
        "FftAutoScaleTestScaleBit; scale bits %d)", (int)bits);
  const int16_t z[4] = {0, 0, 0, 0};
  ta_signal_fft_auto_scale_s16(4, z, out, &bits);
  CHECK(bits == 0, "FftAutoScale leaves an all-zero frame unscaled (TFLM's gcc "
                   "MostSignificantBit32(0) = 32)");
}

/* ------------------------------------------------------------- LSTM */

enum { B = 2, T = 3, I = 5, S = 4 };

typedef struct {
  int8_t w_in[4][S * I], w_hid[4][S * S];
  int32_t bias[4][S];
  float fw_in[4][S * I], fw_hid[4][S * S], fbias[4][S];
} LstmWeights;

static ta_lstm_params lstm_params(int32_t batches, int time_major) {
  ta_lstm_params p = {0};
  p.batches = batches;
  p.time_steps = T;
  p.input_dim = I;
  p.state_dim = S;
  p.time_major = time_major;
  p.cell_gate_tanh = 1;
  for (int g = 0; g < 4; g++) {
    p.gate[g] = (ta_lstm_gate){3, 0, 1518500250, -6, -2, 0, 1300000000, -5};
  }
  p.forget_multiplier = 1073741824, p.forget_shift = -14;
  p.input_multiplier = 1073741824, p.input_shift = -17;
  p.output_multiplier = 1100000000, p.output_shift = -21;
  p.hidden_zero_point = 2;
  p.cell_scale_power = -11;
  p.has_clip = 1;
  p.cell_clip = 20000;
  p.cell_clip_f32 = 0.5f;
  p.rounding = TA_ROUND_DOUBLE;
  return p;
}

static ta_status run_s8(const ta_lstm_params *p, const LstmWeights *w, const int8_t *in,
                        int8_t *h, int16_t *c, int8_t *out, int *ok) {
  size_t ns = ta_lstm_s8_scratch_size(p);
  uint8_t *scratch = guarded(ns);
  ta_status st = ta_lstm_s8(p, in, w->w_in[0], w->w_in[1], w->w_in[2], w->w_in[3],
                            w->w_hid[0], w->w_hid[1], w->w_hid[2], w->w_hid[3], w->bias[0],
                            w->bias[1], w->bias[2], w->bias[3], h, c, out, scratch);
  *ok &= intact(scratch, ns);
  release(scratch);
  return st;
}

static ta_status run_f32(const ta_lstm_params *p, const LstmWeights *w, const float *in,
                         float *h, float *c, float *out, int *ok) {
  size_t ns = ta_lstm_f32_scratch_size(p);
  uint8_t *scratch = guarded(ns);
  ta_status st = ta_lstm_f32(p, in, w->fw_in[0], w->fw_in[1], w->fw_in[2], w->fw_in[3],
                             w->fw_hid[0], w->fw_hid[1], w->fw_hid[2], w->fw_hid[3],
                             w->fbias[0], w->fbias[1], w->fbias[2], w->fbias[3], NULL, NULL,
                             NULL, h, c, out, scratch);
  *ok &= intact(scratch, ns);
  release(scratch);
  return st;
}

static void test_lstm_batches(void) {
  static LstmWeights w;
  for (int g = 0; g < 4; g++) {
    for (int k = 0; k < S * I; k++) {
      w.w_in[g][k] = r8();
      w.fw_in[g][k] = w.w_in[g][k] / 128.0f;
    }
    for (int k = 0; k < S * S; k++) {
      w.w_hid[g][k] = r8();
      w.fw_hid[g][k] = w.w_hid[g][k] / 128.0f;
    }
    for (int k = 0; k < S; k++) {
      w.bias[g][k] = (int32_t)(next() % 20001) - 10000;
      w.fbias[g][k] = w.bias[g][k] / 10000.0f;
    }
  }
  /* Batch-major input [B][T][I] and its time-major copy [T][B][I]. */
  int8_t x[B * T * I], xt[B * T * I];
  float fx[B * T * I], fxt[B * T * I];
  for (int b = 0; b < B; b++)
    for (int t = 0; t < T; t++)
      for (int i = 0; i < I; i++) {
        int8_t v = r8();
        x[(b * T + t) * I + i] = xt[(t * B + b) * I + i] = v;
        fx[(b * T + t) * I + i] = fxt[(t * B + b) * I + i] = v / 64.0f;
      }
  int8_t h0[B * S], h_bm[B * S], h_tm[B * S], out_bm[B * T * S], out_tm[B * T * S];
  int16_t c0[B * S], c_bm[B * S], c_tm[B * S];
  for (int k = 0; k < B * S; k++) {
    h0[k] = r8();
    c0[k] = (int16_t)(next() & 0xffff);
  }
  memcpy(h_bm, h0, sizeof h0), memcpy(h_tm, h0, sizeof h0);
  memcpy(c_bm, c0, sizeof c0), memcpy(c_tm, c0, sizeof c0);
  int ok = 1;
  ta_lstm_params pb = lstm_params(B, 0), pt = lstm_params(B, 1), p1 = lstm_params(1, 0);
  ta_status s1 = run_s8(&pb, &w, x, h_bm, c_bm, out_bm, &ok);
  ta_status s2 = run_s8(&pt, &w, xt, h_tm, c_tm, out_tm, &ok);
  int same = s1 == TA_OK && s2 == TA_OK;
  for (int b = 0; b < B && same; b++) {
    int8_t h[S], out[T * S];
    int16_t c[S];
    memcpy(h, h0 + b * S, sizeof h);
    memcpy(c, c0 + b * S, sizeof c);
    run_s8(&p1, &w, x + b * T * I, h, c, out, &ok);
    same = !memcmp(h, h_bm + b * S, sizeof h) && !memcmp(c, c_bm + b * S, sizeof c) &&
           !memcmp(out, out_bm + b * T * S, sizeof out) &&
           !memcmp(h, h_tm + b * S, sizeof h) && !memcmp(c, c_tm + b * S, sizeof c);
    for (int t = 0; t < T && same; t++)
      same = !memcmp(out + t * S, out_tm + (t * B + b) * S, S);
  }
  CHECK(same, "LSTM int8: with two batches, batch-major and time-major layouts give each "
              "batch its own sequence's outputs and states");
  CHECK(ok, "LSTM int8 stays inside its scratch");

  float fh0[B * S], fc0[B * S], fh_bm[B * S], fc_bm[B * S], fh_tm[B * S], fc_tm[B * S];
  float fo_bm[B * T * S], fo_tm[B * T * S];
  for (int k = 0; k < B * S; k++) {
    fh0[k] = (float)r8() / 128.0f;
    fc0[k] = (float)r8() / 32.0f;
  }
  memcpy(fh_bm, fh0, sizeof fh0), memcpy(fh_tm, fh0, sizeof fh0);
  memcpy(fc_bm, fc0, sizeof fc0), memcpy(fc_tm, fc0, sizeof fc0);
  ok = 1;
  s1 = run_f32(&pb, &w, fx, fh_bm, fc_bm, fo_bm, &ok);
  s2 = run_f32(&pt, &w, fxt, fh_tm, fc_tm, fo_tm, &ok);
  same = s1 == TA_OK && s2 == TA_OK;
  float maxc = 0;
  for (int b = 0; b < B && same; b++) {
    float h[S], c[S], out[T * S];
    memcpy(h, fh0 + b * S, sizeof h);
    memcpy(c, fc0 + b * S, sizeof c);
    run_f32(&p1, &w, fx + b * T * I, h, c, out, &ok);
    same = !memcmp(h, fh_bm + b * S, sizeof h) && !memcmp(c, fc_bm + b * S, sizeof c) &&
           !memcmp(out, fo_bm + b * T * S, sizeof out) &&
           !memcmp(h, fh_tm + b * S, sizeof h) && !memcmp(c, fc_tm + b * S, sizeof c);
    for (int k = 0; k < S; k++)
      maxc = fabsf(c[k]) > maxc ? fabsf(c[k]) : maxc;
  }
  CHECK(same, "LSTM float: with two batches, both layouts give each batch its own "
              "sequence's outputs and states");
  CHECK(maxc == 0.5f, "LSTM float clips the cell state to +-cell_clip 0.5 (max |c| %g)",
        (double)maxc);
  CHECK(ok, "LSTM float stays inside its scratch");
}

/* ------------------------------------------------------------- SVDF */

enum { SB = 2, SI = 6, SF = 8, SR = 2, SM = 5, SU = SF / SR };

static int32_t req(int32_t x, int32_t m, int32_t s) {
  /* MultiplyByQuantizedMultiplier, double rounding, written out. */
  int64_t v = (int64_t)x * (s > 0 ? (1 << s) : 1);
  int64_t ab = v * m;
  int64_t nudge = ab >= 0 ? (1 << 30) : (1 - (1 << 30));
  int32_t hi = (int32_t)((ab + nudge) / ((int64_t)1 << 31));
  int e = s > 0 ? 0 : -s;
  int32_t mask = (int32_t)(((int64_t)1 << e) - 1), rem = hi & mask;
  int32_t th = (mask >> 1) + (hi < 0);
  return (hi >> e) + (rem > th);
}

/* One float step with a single unit, all weights 0, input x = 1 and
 * biases 0 (input, forget, output gates) and 1 (cell gate), from zero
 * states: i = f = 1/2, g = tanh 1, c = g / 2.  The output gate's
 * peephole weight 2 makes o = sigmoid(2c) instead of 1/2, so
 * h = tanh(c) * sigmoid(tanh(1)) = 0.247729 (without it 0.181700). */
static void test_lstm_peephole(void) {
  ta_lstm_params p = {0};
  p.batches = 1, p.time_steps = 1, p.input_dim = 1, p.state_dim = 1, p.time_major = 1;
  p.cell_gate_tanh = 1;
  const float x = 1, zero = 0, one = 1, two = 2;
  float h = 0, c = 0, out = 0, scratch[4];
  ta_status st = ta_lstm_f32(&p, &x, &zero, &zero, &zero, &zero, &zero, &zero, &zero, &zero,
                             &zero, &zero, &one, &zero, NULL, NULL, &two, &h, &c, &out,
                             scratch);
  CHECK(st == TA_OK && fabsf(out - 0.247729f) < 1e-5f && fabsf(c - 0.380797f) < 1e-5f,
        "float LSTM adds the output gate's peephole weight times the new cell (h %g, "
        "expected 0.247729; c %g, expected 0.380797)", (double)out, (double)c);
  float h2 = 0, c2 = 0, out2 = 0;
  st = ta_lstm_f32(&p, &x, &zero, &zero, &zero, &zero, &zero, &zero, &zero, &zero, &zero,
                   &zero, &one, &zero, NULL, NULL, NULL, &h2, &c2, &out2, scratch);
  CHECK(st == TA_OK && fabsf(out2 - 0.181700f) < 1e-5f,
        "float LSTM without peepholes: h %g, expected tanh(tanh(1) / 2) / 2 = 0.181700",
        (double)out2);
  (void)h;
}

static void test_svdf(void) {
  ta_svdf_params p = {SB, SI, SF, SR, SM, 3, 0, -5, 1300000000, -8, 1500000000, -24,
                      TA_ROUND_DOUBLE, 0, 0};
  int8_t in[SB * SI], wf[SF * SI];
  int16_t wt[SF * SM], state[SB * SF * SM], ref_state[SB * SF * SM];
  int32_t bias[SU];
  for (int k = 0; k < SB * SI; k++)
    in[k] = r8();
  for (int k = 0; k < SF * SI; k++)
    wf[k] = r8();
  for (int k = 0; k < SF * SM; k++)
    wt[k] = (int16_t)(next() & 0xffff);
  for (int k = 0; k < SU; k++)
    bias[k] = (int32_t)(next() % 200001) - 100000;
  for (int k = 0; k < SB * SF * SM; k++)
    state[k] = ref_state[k] = (int16_t)(next() & 0xfff);
  /* The op's definition: state[b][f] is a queue of the last SM feature
   * activations; the output sums rank filters per unit. */
  int8_t ref_out[SB * SU];
  for (int b = 0; b < SB; b++) {
    int32_t unit[SU];
    for (int u = 0; u < SU; u++)
      unit[u] = bias[u];
    for (int f = 0; f < SF; f++) {
      int16_t *q = ref_state + (b * SF + f) * SM;
      /* The whole state shifts by one element: q[SM-1] takes the next
       * filter's oldest value before being overwritten below. */
      int32_t act = 0;
      for (int i = 0; i < SI; i++)
        act += wf[f * SI + i] * (in[b * SI + i] - p.input_zero_point);
      act = req(act, p.multiplier1, p.shift1);
      act = act < -32768 ? -32768 : act > 32767 ? 32767 : act;
      for (int m = 0; m + 1 < SM; m++)
        q[m] = q[m + 1];
      q[SM - 1] = (int16_t)act;
      int32_t dot = 0;
      for (int m = 0; m < SM; m++)
        dot += wt[f * SM + m] * (q[m] - p.state_zero_point);
      unit[f / SR] += dot;
    }
    for (int u = 0; u < SU; u++) {
      int32_t v = req(unit[u], p.multiplier2, p.shift2) + p.output_zero_point;
      ref_out[b * SU + u] = (int8_t)(v < -128 ? -128 : v > 127 ? 127 : v);
    }
  }
  int8_t out[SB * SU];
  size_t ns = ta_svdf_state16_s8_scratch_size(&p);
  uint8_t *scratch = guarded(ns);
  ta_status st = ta_svdf_state16_s8(&p, in, wf, wt, bias, state, out, scratch);
  int inside = 0;
  for (int k = 0; k < SB * SU; k++)
    inside += ref_out[k] > -128 && ref_out[k] < 127;
  CHECK(st == TA_OK && !memcmp(out, ref_out, sizeof out) && inside >= SB * SU / 2,
        "SVDF int16 state, rank 2, two batches: the output equals the op's definition "
        "(first output %d, expected %d; %d of %d unsaturated)", out[0], ref_out[0], inside,
        SB * SU);
  CHECK(!memcmp(state, ref_state, sizeof state),
        "SVDF: the state is the previous state shifted by one with the new activations "
        "last");
  CHECK(intact(scratch, ns), "SVDF stays inside its %zu bytes of scratch", ns);
  release(scratch);

  /* int8 state: the activation is clamped, then the zero point added and
   * the sum wrapped to int8 (TFLM at the reference commit). */
  ta_svdf_params q = {1, 1, 1, 1, 1, 0, 100, 0, 1073741824, 1, 1073741824, 0,
                      TA_ROUND_DOUBLE, 0, 0};
  int8_t x1 = 100, w1 = 100, t1 = 1, s8 = 0, o1;
  int32_t sc[4];
  ta_svdf_state8_s8(&q, &x1, &w1, &t1, NULL, &s8, &o1, sc);
  CHECK(s8 == (int8_t)(127 + 100 - 256),
        "SVDF int8 state: clamp(10000) + zero point 100 wraps to %d (got %d)",
        127 + 100 - 256, s8);
}

int main(void) {
  test_rfft64();
  test_fft_auto_scale();
  test_lstm_batches();
  test_lstm_peephole();
  test_svdf();
  arena_reset();
  return test_exit();
}
