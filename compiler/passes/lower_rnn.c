/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lower_rnn.c - lowering of the stateful ops: UNIDIRECTIONAL_SEQUENCE_LSTM
 * and SVDF.
 *
 * Needs: lower.h's helpers; the op's state tensors are variables (the
 * planner puts them in the persistent area, the runner passes them
 * writable).  Computes on the host what TFLite Micro's Prepare computes:
 * for the LSTM, each gate's two FULLY_CONNECTED requantizations to the
 * gate scale 2^-12 (CreateGateParams -> CalculateOpDataFullyConnected,
 * the float product of the scales), the three element-wise products'
 * multipliers (CreateInterGateMulParams, double products), the cell
 * scale's power of two (CheckedLog2, float) and the quantized cell clip;
 * for SVDF the two effective scales (float products, QuantizeMultiplier).
 * Anything TFLite Micro's kernels refuse is refused here with error_at().
 */
#include <float.h>
#include <math.h>

#include "lower.h"


static void need_variable(Lower *L, const Tensor *t, const char *role) {
  if (!t->is_variable)
    error_at(L->g, L->op->index, "the %s (tensor %d) must be a variable tensor", role,
             t->index);
}

static void need_per_tensor(Lower *L, const Tensor *t, const char *role) {
  if (t->q.nscale != 1)
    error_at(L->g, L->op->index, "the %s (tensor %d) must be quantized per tensor", role,
             t->index);
}

static void need_shape2(Lower *L, const Tensor *t, int32_t d0, int32_t d1,
                        const char *role) {
  if (t->ndims != 2 || t->dims[0] != d0 || t->dims[1] != d1)
    error_at(L->g, L->op->index, "the %s (tensor %d) must be [%d,%d]", role, t->index,
             (int)d0, (int)d1);
}

/* ------------------------------------------------------------- LSTM */

enum {
  LSTM_IN = 0,
  LSTM_W_INPUT = 1,   /* 1..4: input to input, forget, cell, output */
  LSTM_W_HIDDEN = 5,  /* 5..8: recurrent to input, forget, cell, output */
  LSTM_PEEPHOLE = 9,  /* 9..11 */
  LSTM_BIAS = 12,     /* 12..15 */
  LSTM_PROJECTION = 16, /* 16..17 */
  LSTM_HIDDEN = 18,
  LSTM_CELL = 19,
  LSTM_LAYER_NORM = 20, /* 20..23 */
};

static const char *const gate_names[4] = {"input", "forget", "cell", "output"};

/* FC requantization of an LSTM gate: input scale x weight scale (float
 * product) / 2^-12, as GetQuantizedConvolutionMultipler. */
static void gate_fc_quant(Lower *L, const Tensor *x, const Tensor *w, int32_t *offset,
                          int32_t *w_offset, int32_t *mult, int32_t *shift) {
  need_per_tensor(L, w, "weights");
  *offset = -zp_of(x);
  *w_offset = -zp_of(w);
  if (!fc_multiplier(scale_of(L, x), scale_of(L, w), 0.000244140625f, L->rounding,
                     mult, shift))
    error_at(L->g, L->op->index, "cannot represent the requantization of tensor %d",
             w->index);
}

static void mul_quant(Lower *L, double s1, double s2, double so, int32_t *mult,
                      int32_t *shift) {
  if (!quantize_multiplier(s1 * s2 / so, L->rounding, mult, shift))
    error_at(L->g, L->op->index, "cannot represent an element-wise product's scale");
}

static const char *lstm_init(const ta_lstm_params *p) {
  const char *gates = "";
  for (int g = 0; g < 4; g++) {
    const ta_lstm_gate *q = &p->gate[g];
    gates = arena_printf(
        "%s%s{%d, %d, %s, %s, %d, %d, %s, %s}", gates, g ? ",\n      " : "",
        (int)q->input_offset, (int)q->input_weights_offset, ilit(q->input_multiplier),
        ilit(q->input_shift), (int)q->hidden_offset, (int)q->hidden_weights_offset,
        ilit(q->hidden_multiplier), ilit(q->hidden_shift));
  }
  return arena_printf(
      "{.batches = %d, .time_steps = %d, .input_dim = %d, .state_dim = %d,\n"
      "    .time_major = %d, .cell_gate_tanh = %d,\n"
      "    .gate = {%s},\n"
      "    .forget_multiplier = %s, .forget_shift = %s,\n"
      "    .input_multiplier = %s, .input_shift = %s,\n"
      "    .output_multiplier = %s, .output_shift = %s,\n"
      "    .hidden_zero_point = %d, .cell_scale_power = %d, .has_clip = %d,\n"
      "    .cell_clip = %d, .cell_clip_f32 = %s, .rounding = %s}",
      (int)p->batches, (int)p->time_steps, (int)p->input_dim, (int)p->state_dim,
      (int)p->time_major, (int)p->cell_gate_tanh, gates, ilit(p->forget_multiplier),
      ilit(p->forget_shift), ilit(p->input_multiplier), ilit(p->input_shift),
      ilit(p->output_multiplier), ilit(p->output_shift), (int)p->hidden_zero_point,
      (int)p->cell_scale_power, (int)p->has_clip, (int)p->cell_clip,
      flit(p->cell_clip_f32), rounding_str(p->rounding));
}

void lower_lstm(Lower *L) {
  Op *op = L->op;
  if (op->ninputs != 24 || op->noutputs != 1)
    error_at(L->g, op->index, "has %d inputs and %d outputs, expected 24 and 1",
             op->ninputs, op->noutputs);
  for (int k = LSTM_PROJECTION; k < LSTM_PROJECTION + 2; k++)
    if (optional_input(L, k))
      error_at(L->g, op->index, "a projection is not supported (as in TFLite Micro)");
  for (int k = LSTM_LAYER_NORM; k < LSTM_LAYER_NORM + 4; k++)
    if (optional_input(L, k))
      error_at(L->g, op->index, "layer normalization is not supported (as in TFLite "
               "Micro)");
  Tensor *in = input(L, LSTM_IN), *out = output(L, 0);
  Tensor *w_in[4], *w_hid[4], *bias[4];
  for (int g = 0; g < 4; g++) {
    w_in[g] = optional_input(L, LSTM_W_INPUT + g);
    w_hid[g] = optional_input(L, LSTM_W_HIDDEN + g);
    bias[g] = optional_input(L, LSTM_BIAS + g);
    if (!w_in[g] || !w_hid[g] || !bias[g])
      error_at(L->g, op->index, "the %s gate's weights or bias are missing (CIFG is "
               "not supported, as in TFLite Micro)", gate_names[g]);
    need_const(L, w_in[g], "weight");
    need_const(L, w_hid[g], "weight");
    need_const(L, bias[g], "bias");
  }
  Tensor *hidden = input(L, LSTM_HIDDEN), *cell = input(L, LSTM_CELL);
  need_variable(L, hidden, "hidden state");
  need_variable(L, cell, "cell state");

  bool f32 = in->dtype == DT_FLOAT32 && out->dtype == DT_FLOAT32 &&
             hidden->dtype == DT_FLOAT32 && cell->dtype == DT_FLOAT32;
  bool s8 = in->dtype == DT_INT8 && out->dtype == DT_INT8 && hidden->dtype == DT_INT8 &&
            cell->dtype == DT_INT16;
  for (int g = 0; g < 4; g++) {
    DType wt = f32 ? DT_FLOAT32 : DT_INT8, bt = f32 ? DT_FLOAT32 : DT_INT32;
    if (w_in[g]->dtype != wt || w_hid[g]->dtype != wt || bias[g]->dtype != bt)
      f32 = s8 = false;
  }
  if (!f32 && !s8)
    unsupported_types(L);
  /* Peepholes (cell_to_input, cell_to_forget, cell_to_output): float only
   * (TFLite Micro has none). */
  Tensor *peep[3];
  for (int k = 0; k < 3; k++) {
    peep[k] = optional_input(L, LSTM_PEEPHOLE + k);
    if (peep[k] && !f32)
      error_at(L->g, op->index, "peephole connections are supported for float32 only (TFLite "
               "Micro has none)");
    if (peep[k] && peep[k]->dtype != DT_FLOAT32)
      unsupported_types(L);
    if (peep[k])
      need_const(L, peep[k], "peephole weight");
  }

  const Options *opt = &op->opt;
  if (in->ndims != 3)
    error_at(L->g, op->index, "the input must have rank 3");
  ta_lstm_params p = {0};
  p.time_major = opt->time_major;
  p.batches = opt->time_major ? in->dims[1] : in->dims[0];
  p.time_steps = opt->time_major ? in->dims[0] : in->dims[1];
  p.input_dim = in->dims[2];
  if (hidden->ndims != 2)
    error_at(L->g, op->index, "the hidden state must have rank 2");
  p.state_dim = hidden->dims[1];
  for (int g = 0; g < 4; g++) {
    need_shape2(L, w_in[g], p.state_dim, p.input_dim, "input weights");
    need_shape2(L, w_hid[g], p.state_dim, p.state_dim, "recurrent weights");
    if (bias[g]->ndims != 1 || bias[g]->dims[0] != p.state_dim)
      error_at(L->g, op->index, "the %s gate's bias must have %d values", gate_names[g],
               (int)p.state_dim);
  }
  for (int k = 0; k < 3; k++)
    if (peep[k] && (peep[k]->ndims != 1 || peep[k]->dims[0] != p.state_dim))
      error_at(L->g, op->index, "peephole weights must have %d values", (int)p.state_dim);
  int64_t states = (int64_t)p.batches * p.state_dim;
  if (tensor_elems(hidden) != states || tensor_elems(cell) != states)
    error_at(L->g, op->index, "the states must hold %d x %d values", (int)p.batches,
             (int)p.state_dim);
  if (out->ndims != 3 || out->dims[0] != in->dims[0] || out->dims[1] != in->dims[1] ||
      out->dims[2] != p.state_dim)
    error_at(L->g, op->index, "the output must be [%d,%d,%d]", (int)in->dims[0],
             (int)in->dims[1], (int)p.state_dim);
  if (opt->activation == ACT_TANH)
    p.cell_gate_tanh = 1;
  else
    error_at(L->g, op->index, "cell gate activation %d is not supported (tanh only)",
             (int)opt->activation);
  p.rounding = L->rounding;
  p.has_clip = opt->cell_clip > 0.0f;
  p.cell_clip_f32 = opt->cell_clip;
  if (!isfinite(opt->cell_clip))
    error_at(L->g, op->index, "the cell clip is not finite");

  if (s8) {
    for (int g = 0; g < 4; g++) {
      ta_lstm_gate *q = &p.gate[g];
      gate_fc_quant(L, in, w_in[g], &q->input_offset, &q->input_weights_offset,
                    &q->input_multiplier, &q->input_shift);
      gate_fc_quant(L, hidden, w_hid[g], &q->hidden_offset, &q->hidden_weights_offset,
                    &q->hidden_multiplier, &q->hidden_shift);
    }
    need_per_tensor(L, cell, "cell state");
    need_per_tensor(L, hidden, "hidden state");
    const double gate_out = 0.000030517578125; /* 2^-15 */
    const float cell_scale = scale_of(L, cell);
    mul_quant(L, gate_out, cell_scale, cell_scale, &p.forget_multiplier, &p.forget_shift);
    mul_quant(L, gate_out, gate_out, cell_scale, &p.input_multiplier, &p.input_shift);
    mul_quant(L, gate_out, gate_out, scale_of(L, hidden), &p.output_multiplier,
              &p.output_shift);
    p.hidden_zero_point = zp_of(hidden);
    if (zp_of(cell) != 0)
      error_at(L->g, op->index, "the cell state's zero point must be 0");
    /* CheckedLog2: round(log(x) / log(2)) in float. */
    const float l2 = logf(cell_scale) * (1.0f / logf(2.0f));
    p.cell_scale_power = (int32_t)roundf(l2);
    if (p.cell_scale_power < -30 || p.cell_scale_power > 15)
      error_at(L->g, op->index, "the cell state's scale %g is out of range",
               (double)cell_scale);
    double clip = (double)opt->cell_clip / (double)cell_scale;
    clip = clip < -32768.0 ? -32768.0 : clip > 32767.0 ? 32767.0 : clip;
    p.cell_clip = (int16_t)clip;
  }

  L->l->kernel = s8 ? "ta_lstm_s8" : "ta_lstm_f32";
  L->op->scratch_bytes = s8 ? ta_lstm_s8_scratch_size(&p) : ta_lstm_f32_scratch_size(&p);
  const_struct(L, "params", "ta_lstm_params", lstm_init(&p), true);
  arg_tensor(L, in->index);
  for (int g = 0; g < 4; g++)
    arg_tensor(L, w_in[g]->index);
  for (int g = 0; g < 4; g++)
    arg_tensor(L, w_hid[g]->index);
  for (int g = 0; g < 4; g++)
    arg_tensor(L, bias[g]->index);
  if (f32)
    for (int k = 0; k < 3; k++)
      arg_optional(L, peep[k]);
  arg_tensor(L, hidden->index);
  arg_tensor(L, cell->index);
  arg_tensor(L, out->index);
  arg_scratch(L);
}

/* ------------------------------------------------------------- SVDF */

void lower_svdf(Lower *L) {
  Op *op = L->op;
  if (op->ninputs != 5 || op->noutputs != 1)
    error_at(L->g, op->index, "has %d inputs and %d outputs, expected 5 and 1",
             op->ninputs, op->noutputs);
  Tensor *in = input(L, 0), *wf = input(L, 1), *wt = input(L, 2);
  Tensor *bias = optional_input(L, 3), *state = input(L, 4), *out = output(L, 0);
  need_const(L, wf, "feature weights");
  need_const(L, wt, "time weights");
  if (bias)
    need_const(L, bias, "bias");
  need_variable(L, state, "activation state");
  ta_svdf_params p = {0};
  p.rank = op->opt.rank;
  if (in->ndims != 2 || wf->ndims != 2 || wt->ndims != 2 || state->ndims != 2 ||
      out->ndims != 2)
    error_at(L->g, op->index, "input, weights, state and output must have rank 2");
  p.batches = in->dims[0];
  p.input_size = in->dims[1];
  p.num_filters = wf->dims[0];
  p.memory_size = wt->dims[1];
  if (p.rank <= 0 || p.num_filters % p.rank)
    error_at(L->g, op->index, "rank %d does not divide the %d filters", (int)p.rank,
             (int)p.num_filters);
  int32_t units = p.num_filters / p.rank;
  if (wf->dims[1] != p.input_size || wt->dims[0] != p.num_filters ||
      state->dims[0] != p.batches ||
      (int64_t)state->dims[1] != (int64_t)p.memory_size * p.num_filters ||
      out->dims[0] != p.batches || out->dims[1] != units ||
      (bias && (bias->ndims != 1 || bias->dims[0] != units)))
    error_at(L->g, op->index, "the shapes of the inputs, state and output disagree");
  p.rounding = L->rounding;

  bool f32 = in->dtype == DT_FLOAT32 && wf->dtype == DT_FLOAT32 &&
             wt->dtype == DT_FLOAT32 && state->dtype == DT_FLOAT32 &&
             out->dtype == DT_FLOAT32 && (!bias || bias->dtype == DT_FLOAT32);
  bool s8 = in->dtype == DT_INT8 && wf->dtype == DT_INT8 && out->dtype == DT_INT8 &&
            (!bias || bias->dtype == DT_INT32) &&
            ((wt->dtype == DT_INT16 && state->dtype == DT_INT16) ||
             (wt->dtype == DT_INT8 && state->dtype == DT_INT8));
  if (!f32 && !s8)
    unsupported_types(L);
  /* Peepholes (cell_to_input, cell_to_forget, cell_to_output): float only
   * (TFLite Micro has none). */
  Tensor *peep[3];
  for (int k = 0; k < 3; k++) {
    peep[k] = optional_input(L, LSTM_PEEPHOLE + k);
    if (peep[k] && !f32)
      error_at(L->g, op->index, "peephole connections are supported for float32 only (TFLite "
               "Micro has none)");
    if (peep[k] && peep[k]->dtype != DT_FLOAT32)
      unsupported_types(L);
    if (peep[k])
      need_const(L, peep[k], "peephole weight");
  }
  p.act_min_f32 = -FLT_MAX;
  p.act_max_f32 = FLT_MAX;
  if (f32) {
    if (!activation_range_float(op->opt.activation, &p.act_min_f32, &p.act_max_f32))
      error_at(L->g, op->index, "fused activation %d is not supported",
               (int)op->opt.activation);
  } else {
    need_per_tensor(L, wf, "feature weights");
    need_per_tensor(L, wt, "time weights");
    need_per_tensor(L, state, "activation state");
    float si = scale_of(L, in), sf = scale_of(L, wf), ss = scale_of(L, state);
    float st = scale_of(L, wt), so = scale_of(L, out);
    /* TFLM: static_cast<double>(a * b / c) with float a, b, c. */
    float e1 = si * sf / ss, e2 = ss * st / so;
    if (!quantize_multiplier((double)e1, L->rounding, &p.multiplier1, &p.shift1) ||
        !quantize_multiplier((double)e2, L->rounding, &p.multiplier2, &p.shift2))
      error_at(L->g, op->index, "cannot represent the effective scales");
    p.input_zero_point = zp_of(in);
    p.state_zero_point = zp_of(state);
    p.output_zero_point = zp_of(out);
  }
  const char *k = f32 ? "ta_svdf_f32"
                  : state->dtype == DT_INT16 ? "ta_svdf_state16_s8"
                                             : "ta_svdf_state8_s8";
  L->l->kernel = k;
  L->op->scratch_bytes = f32 ? ta_svdf_f32_scratch_size(&p)
                             : ta_svdf_state16_s8_scratch_size(&p);
  const_struct(
      L, "params", "ta_svdf_params",
      arena_printf("{.batches = %d, .input_size = %d, .num_filters = %d, .rank = %d,\n"
                   "    .memory_size = %d, .input_zero_point = %d,\n"
                   "    .state_zero_point = %d, .output_zero_point = %d,\n"
                   "    .multiplier1 = %s, .shift1 = %s, .multiplier2 = %s,\n"
                   "    .shift2 = %s, .rounding = %s, .act_min_f32 = %s,\n"
                   "    .act_max_f32 = %s}",
                   (int)p.batches, (int)p.input_size, (int)p.num_filters, (int)p.rank,
                   (int)p.memory_size, (int)p.input_zero_point,
                   (int)p.state_zero_point, (int)p.output_zero_point,
                   ilit(p.multiplier1), ilit(p.shift1), ilit(p.multiplier2),
                   ilit(p.shift2), rounding_str(p.rounding), flit(p.act_min_f32),
                   flit(p.act_max_f32)),
      true);
  arg_tensor(L, in->index);
  arg_tensor(L, wf->index);
  arg_tensor(L, wt->index);
  arg_optional(L, bias);
  arg_tensor(L, state->index);
  arg_tensor(L, out->index);
  arg_scratch(L);
}
