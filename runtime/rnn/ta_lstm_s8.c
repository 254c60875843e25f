/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_lstm_s8 - integer UNIDIRECTIONAL_SEQUENCE_LSTM: int8 activations and
 * weights, int16 cell state, int32 biases.
 *
 * Matches TFLite Micro's EvalLstm<int8_t, int8_t, int16_t, int32_t>
 * (kernels/lstm_eval.h, lstm_eval.cc) step by step:
 *
 *   gate(x, h) = act(sat16(FC_in(x) + FC_hidden(h)))
 *     FC: acc = bias[o] + sum_i (w[o][i] + w_off) * (x[i] + x_off),
 *         sat16(MultiplyByQuantizedMultiplier(acc, m, s))
 *     act: int16 sigmoid, or tanh with the Q3.12 input (rnn_common.h)
 *   f = gate_f, i = gate_i, g = gate_c            (in that order)
 *   c = mul16(f, c); t = mul16(i, g); c = sat16(c + t); clip
 *   o = gate_o; h = mul8(tanh_c(c), o); out[t] = h
 *
 * with mulN(a, b) = clamp(MultiplyByQuantizedMultiplier(a * b, m, s) +
 * zero point) (MulElementwise) and tanh_c the int16 tanh whose input
 * shift comes from the cell scale: left shift 15 + cell_scale_power - 3
 * (multiplier 3 and a right shift when that is negative).
 *
 * Batch-major input runs each batch's sequence on its own state row;
 * time-major input runs all batches of a time step together.  Scratch:
 * four int16 buffers of one step's states (batches or 1, times S).
 */
#include <string.h>

#include "rnn_common.h"
#include "ta_dsp.h"
#include "ta_fixedpoint.h"
#include "ta_kernels.h"

typedef struct {
  const ta_lstm_params *p;
  const int8_t *w_in[4], *w_hid[4];
  const int32_t *bias[4];
} lstm_s8;

static int32_t step_batches(const ta_lstm_params *p) {
  return p->time_major ? p->batches : 1;
}

size_t ta_lstm_s8_scratch_size(const ta_lstm_params *p) {
  if (p->batches < 0 || p->state_dim < 0)
    return 0;
  return 4 * (size_t)step_batches(p) * (size_t)p->state_dim * sizeof(int16_t);
}

/* sum_k (w[k] + w_off) (x[k] + x_off) for k from k0 to n, wrapping as
 * TFLite's int32 sums do. */
static int32_t dot_off(const int8_t *w, int32_t w_off, const int8_t *x, int32_t x_off,
                       int32_t k0, int32_t n, int32_t acc) {
  for (int32_t k = k0; k < n; k++)
    acc = ta_wrap_add(acc, ((int32_t)w[k] + w_off) * ((int32_t)x[k] + x_off));
  return acc;
}


/* v requantized (ta_requant()), plus the zero point zp, clamped to
 * [lo, hi].  Out of line: one copy of the general requantization for
 * the state's products (mul_q()) and the gates' FULLY_CONNECTEDs whose
 * form has no cheaper path (gate_fc()). */
TA_NOINLINE static int32_t requant_q(int32_t v, int32_t mult, int32_t shift, int32_t zp,
                                     int32_t lo, int32_t hi, int32_t rounding) {
  return ta_clamp_i32(ta_requant(v, mult, shift, rounding) + zp, lo, hi);
}

/* One FULLY_CONNECTED to int16: rows of x [nb][n_in], w [S][n_in].  On a
 * core with the DSP extension, rows two at a time through ta_dot2_off_s8()
 * where the weights' offset is 0 (symmetric int8 weights) and the
 * input's that of an int8 zero point; the requantization's form (double
 * rounding, a right shift) chosen once. */
static void gate_fc(const int8_t *x, int32_t nb, int32_t n_in, int32_t x_off,
                    const int8_t *w, int32_t w_off, const int32_t *bias, int32_t S,
                    int32_t mult, int32_t shift, int32_t rounding, int16_t *out) {
  const int rs = rounding == TA_ROUND_DOUBLE && shift < 0 && shift >= -31 && mult >= 0;
  const int64_t round = rs ? ta_requant_rs_round((int)-shift) : 0;
  int32_t n4 = 0;
#if defined(TA_DSP)
  if (w_off == 0 && x_off >= -128 && x_off <= 128)
    n4 = n_in & ~3;
#endif
  for (int32_t b = 0; b < nb; b++) {
    const int8_t *xb = x + (size_t)b * (size_t)n_in;
    for (int32_t o = 0; o < S; o += 2) {
      const int32_t g = S - o < 2 ? 1 : 2;
      const int8_t *wo = w + (size_t)o * (size_t)n_in;
      int32_t acc[2] = {0, 0};
#if defined(TA_DSP)
      if (n4)
        ta_dot2_off_s8(wo, g == 2 ? wo + n_in : wo, xb, x_off, n4, acc);
#endif
      for (int32_t j = 0; j < g; j++) {
        int32_t a = dot_off(wo + (size_t)j * (size_t)n_in, w_off, xb, x_off, n4, n_in, acc[j]);
        if (bias)
          a = ta_wrap_add(a, bias[o + j]);
        a = rs ? ta_clamp_i32(ta_requant_double_rsc(a, mult, (int)-shift, round), -32768, 32767)
               : requant_q(a, mult, shift, 0, -32768, 32767, rounding);
        out[(size_t)b * (size_t)S + (size_t)(o + j)] = (int16_t)a;
      }
    }
  }
}

/* gate = act(FC(x) + FC(h)) into out; tmp is a second buffer. */
static void gate(const lstm_s8 *k, int g, const int8_t *x, const int8_t *h, int32_t nb,
                 int use_tanh, int16_t *out, int16_t *tmp) {
  const ta_lstm_params *p = k->p;
  const ta_lstm_gate *q = &p->gate[g];
  const int32_t S = p->state_dim, n = nb * S;
  gate_fc(x, nb, p->input_dim, q->input_offset, k->w_in[g], q->input_weights_offset,
          k->bias[g], S, q->input_multiplier, q->input_shift, p->rounding, out);
  gate_fc(h, nb, S, q->hidden_offset, k->w_hid[g], q->hidden_weights_offset, NULL, S,
          q->hidden_multiplier, q->hidden_shift, p->rounding, tmp);
  for (int32_t j = 0; j < n; j++)
    out[j] = (int16_t)ta_clamp_i32((int32_t)out[j] + tmp[j], -32768, 32767);
  for (int32_t j = 0; j < n; j++)
    out[j] = use_tanh ? ta_lstm_tanh_s16(out[j], 0, 0) : ta_lstm_sigmoid_s16(out[j], 0, 0);
}

static int32_t mul_q(int16_t a, int16_t b, int32_t mult, int32_t shift, int32_t zp,
                     int32_t lo, int32_t hi, int32_t rounding) {
  return requant_q((int32_t)a * b, mult, shift, zp, lo, hi, rounding);
}

/* One time step for nb batch rows. */
static void step(const lstm_s8 *k, const int8_t *x, int8_t *h, int16_t *c, int8_t *out,
                 int32_t nb, int16_t *buf) {
  const ta_lstm_params *p = k->p;
  const int32_t S = p->state_dim, n = nb * S;
  int16_t *b0 = buf, *b1 = buf + n, *b2 = buf + 2 * n, *b3 = buf + 3 * n;

  gate(k, TA_LSTM_FORGET, x, h, nb, 0, b0, b3);
  gate(k, TA_LSTM_INPUT, x, h, nb, 0, b1, b3);
  gate(k, TA_LSTM_CELL, x, h, nb, p->cell_gate_tanh, b2, b3);

  for (int32_t j = 0; j < n; j++)
    c[j] = (int16_t)mul_q(b0[j], c[j], p->forget_multiplier, p->forget_shift, 0, -32768,
                          32767, p->rounding);
  for (int32_t j = 0; j < n; j++)
    b1[j] = (int16_t)mul_q(b1[j], b2[j], p->input_multiplier, p->input_shift, 0, -32768,
                           32767, p->rounding);
  for (int32_t j = 0; j < n; j++)
    c[j] = (int16_t)ta_clamp_i32((int32_t)c[j] + b1[j], -32768, 32767);
  if (p->has_clip)
    for (int32_t j = 0; j < n; j++)
      c[j] = (int16_t)ta_clamp_i32(c[j], -p->cell_clip, p->cell_clip);

  gate(k, TA_LSTM_OUTPUT, x, h, nb, 0, b1, b3);

  /* tanh(c): input left shift 15 + power - 3; negative -> multiplier 3. */
  int32_t shift = 15 + p->cell_scale_power - 3, mult = 0;
  if (shift < 0) {
    shift = -shift;
    mult = 3;
  }
  for (int32_t j = 0; j < n; j++)
    b0[j] = ta_lstm_tanh_s16(c[j], mult, shift);
  for (int32_t j = 0; j < n; j++)
    h[j] = (int8_t)mul_q(b0[j], b1[j], p->output_multiplier, p->output_shift,
                         p->hidden_zero_point, -128, 127, p->rounding);
  memcpy(out, h, (size_t)n);
}

ta_status ta_lstm_s8(const ta_lstm_params *p, const int8_t *in,
                     const int8_t *w_input_i, const int8_t *w_input_f,
                     const int8_t *w_input_c, const int8_t *w_input_o,
                     const int8_t *w_hidden_i, const int8_t *w_hidden_f,
                     const int8_t *w_hidden_c, const int8_t *w_hidden_o,
                     const int32_t *bias_i, const int32_t *bias_f,
                     const int32_t *bias_c, const int32_t *bias_o,
                     int8_t *hidden, int16_t *cell, int8_t *out, void *scratch) {
  const int32_t B = p->batches, T = p->time_steps, I = p->input_dim, S = p->state_dim;
  if (B < 0 || T < 0 || I < 0 || S < 0 || p->cell_scale_power < -30 ||
      p->cell_scale_power > 15 || (!scratch && B && S))
    return TA_ERR_ARG;
  lstm_s8 k = {p,
               {w_input_i, w_input_f, w_input_c, w_input_o},
               {w_hidden_i, w_hidden_f, w_hidden_c, w_hidden_o},
               {bias_i, bias_f, bias_c, bias_o}};
  int16_t *buf = (int16_t *)scratch;
  if (p->time_major) {
    for (int32_t t = 0; t < T; t++)
      step(&k, in + (size_t)t * (size_t)B * (size_t)I, hidden, cell, out + (size_t)t * (size_t)B * (size_t)S, B, buf);
  } else {
    for (int32_t b = 0; b < B; b++)
      for (int32_t t = 0; t < T; t++)
        step(&k, in + ((size_t)b * (size_t)T + (size_t)t) * (size_t)I, hidden + (size_t)b * (size_t)S,
             cell + (size_t)b * (size_t)S, out + ((size_t)b * (size_t)T + (size_t)t) * (size_t)S, 1, buf);
  }
  return TA_OK;
}
