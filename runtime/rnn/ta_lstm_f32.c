/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_lstm_f32 - float UNIDIRECTIONAL_SEQUENCE_LSTM.
 *
 * Matches TFLite Micro's EvalLstm<float, float, float, float>: the same
 * steps as ta_lstm_s8 with reference_ops::FullyConnected (sum over k in
 * order, then + bias), reference_ops::Logistic (1 for x > 16.619047,
 * exp(x) below -9, else 1 / (1 + exp(-x))), tanh, products and sums in
 * float, and the cell clipped to +-cell_clip_f32 when has_clip.
 * Peephole weights (TFLite's cell_to_input/forget/output, ONNX LSTM's P;
 * TFLite Micro has none), when given, add w[j] * c[j] to the input and
 * forget gates with the previous cell and to the output gate with the
 * new one, after the recurrent sum and before the activation.
 */
#include <math.h>
#include <string.h>

#include "ta_kernels.h"

typedef struct {
  const ta_lstm_params *p;
  const float *w_in[4], *w_hid[4];
  const float *bias[4];
  const float *peep[4]; /* per gate, or NULL (never the cell gate) */
} lstm_f32;

static int32_t step_batches(const ta_lstm_params *p) {
  return p->time_major ? p->batches : 1;
}

size_t ta_lstm_f32_scratch_size(const ta_lstm_params *p) {
  if (p->batches < 0 || p->state_dim < 0)
    return 0;
  return 4 * (size_t)step_batches(p) * (size_t)p->state_dim * sizeof(float);
}

static void gate_fc(const float *x, int32_t nb, int32_t n_in, const float *w,
                    const float *bias, int32_t S, float *out) {
  for (int32_t b = 0; b < nb; b++) {
    const float *xb = x + (size_t)b * (size_t)n_in;
    for (int32_t o = 0; o < S; o++) {
      const float *wo = w + (size_t)o * (size_t)n_in;
      float total = 0.0f;
      for (int32_t k = 0; k < n_in; k++)
        total += xb[k] * wo[k];
      out[(size_t)b * (size_t)S + (size_t)o] = total + (bias ? bias[o] : 0.0f);
    }
  }
}

static float sigmoid(float v) {
  if (v > 16.619047164916992188f)
    return 1.0f;
  if (v < -9.0f)
    return expf(v);
  return 1.0f / (1.0f + expf(-v));
}

static void gate(const lstm_f32 *k, int g, const float *x, const float *h, const float *c,
                 int32_t nb, int use_tanh, float *out, float *tmp) {
  const ta_lstm_params *p = k->p;
  const int32_t S = p->state_dim, n = nb * S;
  gate_fc(x, nb, p->input_dim, k->w_in[g], k->bias[g], S, out);
  gate_fc(h, nb, S, k->w_hid[g], NULL, S, tmp);
  for (int32_t j = 0; j < n; j++)
    out[j] = out[j] + tmp[j];
  if (k->peep[g])
    for (int32_t j = 0; j < n; j++)
      out[j] = out[j] + k->peep[g][j % S] * c[j];
  for (int32_t j = 0; j < n; j++)
    out[j] = use_tanh ? tanhf(out[j]) : sigmoid(out[j]);
}

static void step(const lstm_f32 *k, const float *x, float *h, float *c, float *out,
                 int32_t nb, float *buf) {
  const ta_lstm_params *p = k->p;
  const int32_t S = p->state_dim, n = nb * S;
  float *b0 = buf, *b1 = buf + n, *b2 = buf + 2 * n, *b3 = buf + 3 * n;

  gate(k, TA_LSTM_FORGET, x, h, c, nb, 0, b0, b3);
  gate(k, TA_LSTM_INPUT, x, h, c, nb, 0, b1, b3);
  gate(k, TA_LSTM_CELL, x, h, c, nb, p->cell_gate_tanh, b2, b3);
  for (int32_t j = 0; j < n; j++)
    c[j] = b0[j] * c[j];
  for (int32_t j = 0; j < n; j++)
    b1[j] = b1[j] * b2[j];
  for (int32_t j = 0; j < n; j++)
    c[j] = c[j] + b1[j];
  if (p->has_clip) {
    const float clip = p->cell_clip_f32;
    for (int32_t j = 0; j < n; j++)
      c[j] = c[j] > clip ? clip : c[j] < -clip ? -clip : c[j];
  }
  gate(k, TA_LSTM_OUTPUT, x, h, c, nb, 0, b1, b3);
  for (int32_t j = 0; j < n; j++)
    b0[j] = tanhf(c[j]);
  for (int32_t j = 0; j < n; j++)
    h[j] = b0[j] * b1[j];
  memcpy(out, h, (size_t)n * sizeof(float));
}

ta_status ta_lstm_f32(const ta_lstm_params *p, const float *in,
                      const float *w_input_i, const float *w_input_f,
                      const float *w_input_c, const float *w_input_o,
                      const float *w_hidden_i, const float *w_hidden_f,
                      const float *w_hidden_c, const float *w_hidden_o,
                      const float *bias_i, const float *bias_f,
                      const float *bias_c, const float *bias_o,
                      const float *peep_i, const float *peep_f, const float *peep_o,
                      float *hidden, float *cell, float *out, void *scratch) {
  const int32_t B = p->batches, T = p->time_steps, I = p->input_dim, S = p->state_dim;
  if (B < 0 || T < 0 || I < 0 || S < 0 || (!scratch && B && S))
    return TA_ERR_ARG;
  lstm_f32 k = {p,
                {w_input_i, w_input_f, w_input_c, w_input_o},
                {w_hidden_i, w_hidden_f, w_hidden_c, w_hidden_o},
                {bias_i, bias_f, bias_c, bias_o},
                {peep_i, peep_f, NULL, peep_o}};
  float *buf = (float *)scratch;
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
