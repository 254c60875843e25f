/* SPDX-License-Identifier: Apache-2.0 */
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

/* ============================================ CIRCULAR_BUFFER (custom, TFLM) */

/*
 * ta_circular_buffer_s8 - TFLite Micro's CIRCULAR_BUFFER custom op
 * (kernels/circular_buffer.cc), which strided streaming models (the
 * micro_speech family) put in front of a convolution over time.  The
 * state holds num_slots frames of frame_bytes each (TFLM keeps them in
 * the op's output tensor) and a count of the calls since the last one
 * that ran the rest of the graph.  Every call:
 *   frames = frames[1..num_slots-1], input      (the oldest frame dropped)
 *   count += 1
 *   count <  cycles_max: return TA_PENDING     (TFLM: kTfLiteAbort, the
 *                                               interpreter stops there)
 *   count == cycles_max: count = 0, output = frames, return TA_OK
 * TFLM's cycles_until_run counts down from cycles_max; count is
 * cycles_max - cycles_until_run, so that a zeroed state (what
 * <prefix>_reset() writes: every frame 0, count 0) is TFLM's state after
 * Prepare.  The output is written only when the call returns TA_OK.
 * The count is kept in the state's first 4 bytes (little-endian, read
 * byte by byte: no alignment needed), the frames after it.
 */
typedef struct {
  int32_t frame_bytes; /* one frame: the input's bytes */
  int32_t num_slots;   /* frames kept: the output's dimension 1 */
  int32_t cycles_max;  /* calls per output, >= 1 */
} ta_circular_buffer_params;
size_t ta_circular_buffer_s8_state_size(const ta_circular_buffer_params *p);
ta_status ta_circular_buffer_s8(const ta_circular_buffer_params *p, const int8_t *in,
                                int8_t *out, void *state);

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
 * reference order; peep_i/f/o the optional peephole weights [state_dim]
 * (NULL: none). */
size_t ta_lstm_f32_scratch_size(const ta_lstm_params *p);
ta_status ta_lstm_f32(const ta_lstm_params *p, const float *in,
                      const float *w_input_i, const float *w_input_f,
                      const float *w_input_c, const float *w_input_o,
                      const float *w_hidden_i, const float *w_hidden_f,
                      const float *w_hidden_c, const float *w_hidden_o,
                      const float *bias_i, const float *bias_f,
                      const float *bias_c, const float *bias_o,
                      const float *peep_i, const float *peep_f, const float *peep_o,
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

/* ======================================================== signal library */

/*
 * The kernels of TensorFlow Lite Micro's signal library (signal/src and
 * signal/micro/kernels; custom ops "Signal..."), integer arithmetic bit
 * for bit.  Their options (FlexBuffers in the model) become the fields
 * below; constant tables (FFT twiddles) are computed by the compiler.
 */

/* SignalWindow: out[i] = sat16((in[i] * w[i mod weight_size]) >> shift). */
typedef struct {
  int32_t size, weight_size, shift;
} ta_window_params;
ta_status ta_signal_window_s16(const ta_window_params *p, const int16_t *in,
                               const int16_t *weights, int16_t *out);

/* SignalFftAutoScale: shift every value left by the largest s with
 * max|in| << s still in int16 (0 for an all-zero input), s to *scale_bits. */
ta_status ta_signal_fft_auto_scale_s16(int32_t size, const int16_t *in, int16_t *out,
                                       int32_t *scale_bits);

/* SignalRfft (int16): per frame of input_length values, zero-padded to
 * fft_length, kiss_fftr in 16-bit fixed point (FIXED_POINT=16: every
 * butterfly divides by its radix with rounding, products rounded to
 * Q15).  fft_length is even; its half is factored into radices 4 and 2
 * (factors: radix, remaining length pairs, as kiss_fft's kf_factor).
 * twiddles: half complex int16 pairs; super_twiddles: half / 2 pairs.
 * Output: output_length complex (re, im) pairs per frame.  scratch:
 * ta_signal_rfft_s16_scratch_size() bytes. */
#define TA_RFFT_MAX_FACTORS 32
typedef struct {
  int32_t fft_length, input_length, input_size, output_length;
  int32_t nfactors;                          /* pairs in factors[] */
  int32_t factors[2 * TA_RFFT_MAX_FACTORS];  /* radix, remaining length */
} ta_rfft_params;
size_t ta_signal_rfft_s16_scratch_size(const ta_rfft_params *p);
ta_status ta_signal_rfft_s16(const ta_rfft_params *p, const int16_t *twiddles,
                             const int16_t *super_twiddles, const int16_t *in,
                             int16_t *out, void *scratch);

/* SignalEnergy: out[i] = re^2 + im^2 of complex input i for start <= i <
 * end; the other size - (end - start) outputs are 0 (TFLM leaves them
 * unwritten). */
typedef struct {
  int32_t size, start_index, end_index;
} ta_energy_params;
ta_status ta_signal_energy_s16(const ta_energy_params *p, const int16_t *in,
                               uint32_t *out);

/* SignalFilterBank: num_channels + 1 weighted sums (uint64) of the input
 * spectrum; channel 0 is scratch and dropped (FilterbankAccumulateChannels).
 * The compiler checks every index against the input and weight sizes.
 * scratch: (num_channels + 1) uint64. */
typedef struct {
  int32_t num_channels;
} ta_filter_bank_params;
size_t ta_signal_filter_bank_u32_scratch_size(const ta_filter_bank_params *p);
ta_status ta_signal_filter_bank_u32(const ta_filter_bank_params *p, const uint32_t *in,
                                    const int16_t *weights, const int16_t *unweights,
                                    const int16_t *channel_frequency_starts,
                                    const int16_t *channel_weight_starts,
                                    const int16_t *channel_widths, uint64_t *out,
                                    void *scratch);

/* SignalFilterBankSquareRoot: out[i] = Sqrt64(in[i]) >> *scale_bits
 * (TFLM's bitwise integer square root, rounded). */
ta_status ta_signal_filter_bank_sqrt_u64(int32_t num_channels, const uint64_t *in,
                                         const int32_t *scale_bits, uint32_t *out);

/* SignalFilterBankSpectralSubtraction: the noise estimate (state,
 * num_channels uint32, persistent, zero after reset) follows the input
 * through a one-pole low-pass filter; the output is the input minus the
 * estimate, floored at min_signal_remaining of the input.  noise_out gets
 * a copy of the updated estimate.  state: ..._state_size() bytes. */
typedef struct {
  int32_t num_channels;
  uint32_t smoothing, one_minus_smoothing;
  uint32_t alternate_smoothing, alternate_one_minus_smoothing;
  uint32_t min_signal_remaining;
  uint32_t smoothing_bits, spectral_subtraction_bits;
  int32_t clamping;
} ta_spectral_subtraction_params;
size_t ta_signal_spectral_subtraction_u32_state_size(
    const ta_spectral_subtraction_params *p);
ta_status ta_signal_spectral_subtraction_u32(const ta_spectral_subtraction_params *p,
                                             const uint32_t *in, uint32_t *out,
                                             uint32_t *noise_out, void *state);

/* SignalPCAN: per-channel energy normalization with the gain looked up
 * (WideDynamicFunction) from the noise estimate; gain_lut has
 * 4 * 32 - 3 = 125 entries (the compiler checks). */
typedef struct {
  int32_t num_channels, snr_shift;
} ta_pcan_params;
ta_status ta_signal_pcan_u32(const ta_pcan_params *p, const uint32_t *in,
                             const uint32_t *noise_estimate, const int16_t *gain_lut,
                             uint32_t *out);

/* SignalFilterBankLog: out[i] = min(Log32(in[i] << input_correction_bits,
 * output_scale), 32767), 0 for a scaled input <= 1. */
typedef struct {
  int32_t num_channels, output_scale, input_correction_bits;
} ta_filter_bank_log_params;
ta_status ta_signal_filter_bank_log_u32(const ta_filter_bank_log_params *p,
                                        const uint32_t *in, int16_t *out);

/* ===================================== integer ops of the audio front end */

/* CAST (TFLM cast.cc: static_cast<To>(from) per element; integer
 * narrowing keeps the low bits, two's complement). */
ta_status ta_cast_u32_s32(int32_t n, const uint32_t *in, int32_t *out);
ta_status ta_cast_s32_u32(int32_t n, const int32_t *in, uint32_t *out);
ta_status ta_cast_s16_s32(int32_t n, const int16_t *in, int32_t *out);
ta_status ta_cast_s8_s32(int32_t n, const int8_t *in, int32_t *out);
ta_status ta_cast_s32_s8(int32_t n, const int32_t *in, int8_t *out);
ta_status ta_cast_s32_s16(int32_t n, const int32_t *in, int16_t *out);
ta_status ta_cast_s16_f32(int32_t n, const int16_t *in, float *out);
ta_status ta_cast_s32_f32(int32_t n, const int32_t *in, float *out);
ta_status ta_cast_s8_f32(int32_t n, const int8_t *in, float *out);

/* ADD int32 (reference_ops::Add / BroadcastAdd6DSlow for int32): out =
 * clamp(in1 + in2, act_min, act_max), the sum wrapping around. */
ta_status ta_add_s32(const ta_add_params *p, const ta_bcast *shape, const int32_t *in1,
                     const int32_t *in2, int32_t *out);
/* SUB int32 (TFLM sub.cc: reference_ops::SubWithActivation /
 * BroadcastSubSlow for int32): out = clamp(in1 - in2, act_min, act_max),
 * the difference wrapping around. */
ta_status ta_sub_s32(const ta_add_params *p, const ta_bcast *shape, const int32_t *in1,
                     const int32_t *in2, int32_t *out);

/* DIV (reference_ops::Div / BroadcastDivSlow): int32 divides with C's
 * truncation toward zero, float32 in float; then the activation clamp.
 * A zero divisor (or INT32_MIN / -1) returns TA_ERR_ARG before writing
 * anything (TFLite would crash). */
typedef struct {
  int32_t act_min, act_max;
  float act_min_f32, act_max_f32;
} ta_div_params;
ta_status ta_div_s32(const ta_div_params *p, const ta_bcast *shape, const int32_t *in1,
                     const int32_t *in2, int32_t *out);
ta_status ta_div_f32(const ta_div_params *p, const ta_bcast *shape, const float *in1,
                     const float *in2, float *out);

/* ============================================ user-supplied custom kernels */

/*
 * A custom op tinyaot has no kernel for runs a function the user writes
 * and names with `--custom-op NAME=function` (see doc/generated-code.md):
 *
 *   ta_status function(const ta_custom_op *op, const void *const *inputs,
 *                      void *const *outputs, void *scratch);
 *
 * inputs[k] / outputs[k] point at the op's k-th input / output (NULL for
 * an optional input left out), laid out as TFLite does (row-major, the
 * element type below); op describes them and the op itself; scratch has
 * op->scratch_size bytes (`--custom-op-scratch NAME=BYTES`, default 0:
 * NULL), is planned in the workspace and lives only during the call.
 * The function returns TA_OK (0) or an error status, which the runner
 * returns at once.  It must not keep pointers between calls: the
 * workspace is reused.
 */

/* TFLite's TensorType values (ta_tensor_info.type). */
#define TA_TYPE_FLOAT32 0
#define TA_TYPE_INT32 2
#define TA_TYPE_UINT8 3
#define TA_TYPE_INT64 4
#define TA_TYPE_BOOL 6
#define TA_TYPE_INT16 7
#define TA_TYPE_INT8 9
#define TA_TYPE_UINT32 15
#define TA_TYPE_UINT16 16

typedef struct {
  int32_t type;              /* TA_TYPE_*, -1 for an input left out */
  int32_t ndims;
  const int32_t *dims;       /* ndims entries */
  size_t bytes;              /* of the data */
  int32_t nscale;            /* 0: not quantized, 1: per tensor, > 1: per channel */
  const float *scale;        /* nscale entries */
  const int32_t *zero_point; /* nscale entries */
  int32_t quantized_dimension;
  int32_t is_const;          /* the data is a weight in flash */
} ta_tensor_info;

typedef struct {
  const char *name;          /* the custom op's name in the model */
  int32_t op_index;          /* its position in the model */
  const uint8_t *options;    /* its custom_options bytes (FlexBuffers), or NULL */
  size_t options_size;
  int32_t ninputs, noutputs;
  const ta_tensor_info *inputs;
  const ta_tensor_info *outputs;
  size_t scratch_size;
} ta_custom_op;

#endif
