/*
 * ta_kernels_rnn.h - the stateful kernels (UNIDIRECTIONAL_SEQUENCE_LSTM,
 * SVDF), the TFLite Micro signal library's kernels, and the interface of
 * user-supplied kernels for custom ops.  Included by ta_kernels.h.
 *
 * State: the LSTM's hidden and cell state and the SVDF's activation
 * state are variable tensors; the generated runner keeps them in the
 * persistent area (never shared with the workspace), and <prefix>_reset()
 * clears them (int8 to the zero point, everything else to 0).  Signal
 * kernels that keep state of their own (noise estimates) take a `state`
 * pointer into the persistent area, of <kernel>_state_size() bytes,
 * cleared to zero bytes by <prefix>_reset().
 */
#ifndef TA_KERNELS_RNN_H
#define TA_KERNELS_RNN_H

#include "ta_types.h"

/* ============================================ UNIDIRECTIONAL_SEQUENCE_LSTM */

/* Gate indices, the order of ta_lstm_params.gate[] and of the weights. */
#define TA_LSTM_INPUT 0
#define TA_LSTM_FORGET 1
#define TA_LSTM_CELL 2
#define TA_LSTM_OUTPUT 3

/* One gate of the integer LSTM: gate = act(FC(x) + FC(h)), each FC an
 * int8 x int8 -> int16 FULLY_CONNECTED with its own requantization to
 * the gate's input scale 2^-12 (TFLM CreateGateParams). */
typedef struct {
  int32_t input_offset;   /* -input zero point */
  int32_t input_weights_offset; /* -input-to-gate weights zero point */
  int32_t input_multiplier, input_shift;
  int32_t hidden_offset;  /* -hidden state zero point */
  int32_t hidden_weights_offset;
  int32_t hidden_multiplier, hidden_shift;
} ta_lstm_gate;

/*
 * UNIDIRECTIONAL_SEQUENCE_LSTM without peepholes, projection or layer
 * normalization (what TFLite Micro supports).  Input [B][T][I] (batch
 * major) or [T][B][I] (time_major), state [B][S], output like the input
 * with S for I.
 */
typedef struct {
  int32_t batches, time_steps, input_dim, state_dim;
  int32_t time_major;
  int32_t cell_gate_tanh; /* 1: the cell gate's activation is tanh, 0: sigmoid */
  ta_lstm_gate gate[4];   /* int8 kernel only */
  /* int8 kernel: element-wise products (MulElementwise), all inputs
   * symmetric: forget x cell -> cell, input x cell gate -> cell (int16),
   * tanh(cell) x output gate -> hidden (int8, + hidden_zero_point). */
  int32_t forget_multiplier, forget_shift;
  int32_t input_multiplier, input_shift;
  int32_t output_multiplier, output_shift;
  int32_t hidden_zero_point;
  int32_t cell_scale_power; /* cell state scale = 2^cell_scale_power */
  int32_t has_clip;         /* cell_clip > 0 in the model */
  int32_t cell_clip;        /* int8 kernel: the clip in cell units */
  float cell_clip_f32;      /* float kernel */
  int32_t rounding;
} ta_lstm_params;

/*
 * ta_lstm_s8 - int8 activations and weights, int16 cell state, int32
 * biases: tflite::EvalLstm<int8_t, int8_t, int16_t, int32_t> (TFLM
 * lstm_eval.h).  Per time step:
 *   g_f = sigmoid(FC_f(x) + FC_f(h)), g_i likewise, g_c = tanh(...) (or
 *   sigmoid), each FC = reference_integer_ops::FullyConnected to int16,
 *   the sum saturated to int16, sigmoid/tanh = TFLite's int16 LUT
 *   kernels (Logistic/Tanh with input_multiplier 0, Q3.12 in, Q0.15 out);
 *   c = sat16(c * g_f + g_i * g_c), clipped to +-cell_clip;
 *   g_o as g_f; h = tanh(c) * g_o (int8); out[t] = h.
 * The weights are [S][I] (input) and [S][S] (recurrent), biases [S]
 * (NULL for none).  hidden [B][S] int8 and cell [B][S] int16 are read
 * and updated.  scratch: ta_lstm_s8_scratch_size() bytes.
 */
size_t ta_lstm_s8_scratch_size(const ta_lstm_params *p);
ta_status ta_lstm_s8(const ta_lstm_params *p, const int8_t *in,
                     const int8_t *w_input_i, const int8_t *w_input_f,
                     const int8_t *w_input_c, const int8_t *w_input_o,
                     const int8_t *w_hidden_i, const int8_t *w_hidden_f,
                     const int8_t *w_hidden_c, const int8_t *w_hidden_o,
                     const int32_t *bias_i, const int32_t *bias_f,
                     const int32_t *bias_c, const int32_t *bias_o,
                     int8_t *hidden, int16_t *cell, int8_t *out, void *scratch);

/* ta_lstm_f32 - the same in float (EvalLstm<float, float, float, float>):
 * reference_ops::FullyConnected, Logistic, Tanh and Mul, sums in the
 * reference order. */
size_t ta_lstm_f32_scratch_size(const ta_lstm_params *p);
ta_status ta_lstm_f32(const ta_lstm_params *p, const float *in,
                      const float *w_input_i, const float *w_input_f,
                      const float *w_input_c, const float *w_input_o,
                      const float *w_hidden_i, const float *w_hidden_f,
                      const float *w_hidden_c, const float *w_hidden_o,
                      const float *bias_i, const float *bias_f,
                      const float *bias_c, const float *bias_o,
                      float *hidden, float *cell, float *out, void *scratch);

/* ================================================================== SVDF */

/*
 * SVDF: input [B][I], weights_feature [F][I], weights_time [F][M], bias
 * [F / rank] (optional), activation state [B][F * M] (variable), output
 * [B][F / rank].  Integer kernels: effective scale 1 = input * feature /
 * state, 2 = state * time / output (float products, QuantizeMultiplier).
 */
typedef struct {
  int32_t batches, input_size, num_filters, rank, memory_size;
  int32_t input_zero_point;
  int32_t state_zero_point;
  int32_t output_zero_point;
  int32_t multiplier1, shift1; /* feature matmul -> state */
  int32_t multiplier2, shift2; /* time matmul + bias -> output */
  int32_t rounding;
  float act_min_f32, act_max_f32; /* float kernel: the fused activation */
} ta_svdf_params;

/*
 * ta_svdf_state16_s8 / ta_svdf_state8_s8 - int8 input and output, int16
 * or int8 activation state and time weights (TFLM
 * EvalIntegerSvdfReference<int16_t / int8_t>):
 *   shift every state row left by one (the oldest value drops out);
 *   state[b][f][M-1] = clamp(state_zp + MBQM(sum_i w_f[f][i] * (x[b][i] -
 *                      input_zp), m1, s1)) in the state type;
 *   s[b][f] = sum_m w_t[f][m] * (state[b][f][m] - state_zp);
 *   out[b][u] = clamp8(MBQM(bias[u] + sum_r s[b][u*rank + r], m2, s2) + out_zp).
 * The fused activation is not applied (as TFLM).  scratch:
 * ta_svdf_state16_s8_scratch_size() bytes (both kernels).
 */
size_t ta_svdf_state16_s8_scratch_size(const ta_svdf_params *p);
ta_status ta_svdf_state16_s8(const ta_svdf_params *p, const int8_t *in,
                             const int8_t *w_feature, const int16_t *w_time,
                             const int32_t *bias, int16_t *state, int8_t *out,
                             void *scratch);
size_t ta_svdf_state8_s8_scratch_size(const ta_svdf_params *p);
ta_status ta_svdf_state8_s8(const ta_svdf_params *p, const int8_t *in,
                            const int8_t *w_feature, const int8_t *w_time,
                            const int32_t *bias, int8_t *state, int8_t *out,
                            void *scratch);
/* ta_svdf_f32 - float (EvalFloatSvdfReference), the fused activation as
 * a clamp to [act_min_f32, act_max_f32].  scratch: B * F floats. */
size_t ta_svdf_f32_scratch_size(const ta_svdf_params *p);
ta_status ta_svdf_f32(const ta_svdf_params *p, const float *in, const float *w_feature,
                      const float *w_time, const float *bias, float *state, float *out,
                      void *scratch);

/* QUANTIZE int16 -> int32 (reference_ops::Requantize). */
ta_status ta_requantize_s16_s32(const ta_requant_params *p, const int16_t *in,
                                int32_t *out);

#endif
