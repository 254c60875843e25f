/*
 * lower_s16.c - lowerings for TFLite's 16x8 quantization scheme: int16
 * activations (symmetric), int8 weights, int64 biases.
 *
 * lower() asks lower_s16() first; it takes the ops whose activations are
 * int16 and that need an int16 kernel of their own: CONV_2D,
 * TRANSPOSE_CONV, ADD, SUB, LEAKY_RELU, and QUANTIZE between int32 and
 * int16.  Everything else (int16 QUANTIZE to or from int8/int16/float,
 * and the ops that only move int16 values, such as PAD or STRIDED_SLICE)
 * stays with lower.c's table.
 *
 * Which arithmetic.  --rounding double (the default) reproduces TensorFlow
 * Lite Micro's reference kernels; --rounding single reproduces TensorFlow
 * Lite's.  For these types the two differ only in Prepare:
 *
 *   SUB  TFLite Micro computes twice the larger input scale and the three
 *        real multipliers in float (sub_common.cc), TFLite in double
 *        (sub.cc, which also takes QuantizeMultiplierGreaterThanOne for
 *        an output multiplier above 1).  A multiplier can differ in its
 *        last bit, and outputs by 1.
 *   ADD, SUB with pot_scale_int16 set and power-of-two scales: TFLite
 *        takes its power-of-two path (ta_add_pot_s16, ta_sub_pot_s16);
 *        TFLite Micro always takes the general one.
 *
 * The kernels themselves requantize with gemmlowp's double rounding in
 * both modes: TFLite's int16 reference kernels do (its single rounding is
 * a build option its int8 kernels use; the 16x8 goldens of TFLite and of
 * TFLite Micro agree), and the convolutions use the 64-bit
 * MultiplyByQuantizedMultiplier, which has one rounding in both.
 */
#include "tinyaot.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "ta_kernels.h"

typedef struct {
  Graph *g;
  Op *op;
  const LowerOptions *o;
  Lowered *l;
  int argcap, constcap;
  bool tflite; /* TFLite's Prepare (--rounding single), else TFLite Micro's */
} S16;

/* The requantization rounding of the int16 kernels (see the opening
 * comment). */
#define S16_ROUNDING TA_ROUND_DOUBLE

/* ------------------------------------------------- the Lowered record */

static void add_arg(S16 *L, ArgKind kind, int index) {
  Lowered *l = L->l;
  if (l->nargs == L->argcap) {
    int cap = L->argcap ? 2 * L->argcap : 16;
    KernelArg *a = arena_array((size_t)cap, sizeof *a);
    if (l->nargs)
      memcpy(a, l->args, (size_t)l->nargs * sizeof *a);
    l->args = a;
    L->argcap = cap;
  }
  l->args[l->nargs++] = (KernelArg){.kind = kind, .index = index};
}

static void arg_tensor(S16 *L, const Tensor *t) { add_arg(L, ARG_TENSOR, t->index); }

static void add_const(S16 *L, ConstObj c, bool pass) {
  Lowered *l = L->l;
  if (l->nconsts == L->constcap) {
    int cap = L->constcap ? 2 * L->constcap : 8;
    ConstObj *a = arena_array((size_t)cap, sizeof *a);
    if (l->nconsts)
      memcpy(a, l->consts, (size_t)l->nconsts * sizeof *a);
    l->consts = a;
    L->constcap = cap;
  }
  l->consts[l->nconsts] = c;
  if (pass)
    add_arg(L, ARG_CONST, l->nconsts);
  l->nconsts++;
}

/* A parameter struct (passed as &obj). */
static void const_struct(S16 *L, const char *name, const char *ctype, const char *init) {
  add_const(L, (ConstObj){.name = name, .ctype = ctype, .init = init}, true);
}

/* An int32 array, not passed (a struct points at it through "@name"). */
static void const_i32(S16 *L, const char *name, const int32_t *v, int n) {
  add_const(L, (ConstObj){.name = name, .ctype = "int32_t", .dtype = DT_INT32,
                          .data = v, .count = (size_t)n},
            false);
}

/* --------------------------------------------------------- the model */

static Tensor *input(S16 *L, int k) {
  if (k >= L->op->ninputs || L->op->inputs[k] < 0)
    error_at(L->g, L->op->index, "input %d is missing", k);
  return &L->g->tensors[L->op->inputs[k]];
}

static Tensor *optional_input(S16 *L, int k) {
  return k < L->op->ninputs && L->op->inputs[k] >= 0 ? &L->g->tensors[L->op->inputs[k]]
                                                      : NULL;
}

static Tensor *output(S16 *L) {
  if (L->op->noutputs != 1)
    error_at(L->g, L->op->index, "has %d outputs, expected 1", L->op->noutputs);
  return &L->g->tensors[L->op->outputs[0]];
}

static TA_NORETURN void unsupported(S16 *L, const char *what) {
  error_at(L->g, L->op->index, "16x8 quantization: %s", what);
}

static float scale_of(S16 *L, const Tensor *t) {
  if (t->q.nscale < 1)
    error_at(L->g, L->op->index, "tensor %d (%s) is not quantized", t->index, t->name);
  return t->q.scale[0];
}

static int32_t zp_of(const Tensor *t) {
  return t->q.nscale > 0 && t->q.zero_point ? (int32_t)t->q.zero_point[0] : 0;
}

/* int16 activations are symmetric: TFLite refuses a zero point. */
static void need_symmetric(S16 *L, const Tensor *t) {
  if (zp_of(t) != 0)
    error_at(L->g, L->op->index, "int16 tensor %d has zero point %" PRId32
             "; 16x8 quantization needs 0", t->index, zp_of(t));
}

static ta_dims dims4(S16 *L, const Tensor *t) {
  if (t->ndims != 4)
    error_at(L->g, L->op->index, "tensor %d has rank %d, expected 4", t->index, t->ndims);
  return (ta_dims){t->dims[0], t->dims[1], t->dims[2], t->dims[3]};
}

/* ------------------------------------------------------ initializers */

static const char *ilit(int64_t v) {
  return v == INT32_MIN ? "(-2147483647 - 1)" : arena_printf("%" PRId64, v);
}

static const char *rounding_name(int r) {
  return r == TA_ROUND_SINGLE ? "TA_ROUND_SINGLE" : "TA_ROUND_DOUBLE";
}

static const char *dims_init(ta_dims d) {
  return arena_printf("{%" PRId32 ", %" PRId32 ", %" PRId32 ", %" PRId32 "}", d.n, d.h,
                      d.w, d.c);
}

static const char *conv_init(const ta_conv_params *p) {
  return arena_printf(
      "{.stride_h = %d, .stride_w = %d, .dilation_h = %d, .dilation_w = %d,\n"
      "    .pad_h = %d, .pad_w = %d, .act_min = %s, .act_max = %s}",
      (int)p->stride_h, (int)p->stride_w, (int)p->dilation_h, (int)p->dilation_w,
      (int)p->pad_h, (int)p->pad_w, ilit(p->act_min), ilit(p->act_max));
}

static const char *i32_list(const int32_t *v, int n) {
  const char *s = "";
  for (int i = 0; i < n; i++)
    s = arena_printf("%s%s%s", s, i ? ", " : "", ilit(v[i]));
  return arena_printf("{%s}", s);
}

static const char *add_init(const ta_add_params *p) {
  return arena_printf(
      "{.input1_offset = %s, .input2_offset = %s, .output_offset = %s,\n"
      "    .left_shift = %d, .input1_multiplier = %s, .input1_shift = %s,\n"
      "    .input2_multiplier = %s, .input2_shift = %s,\n"
      "    .output_multiplier = %s, .output_shift = %s,\n"
      "    .act_min = %s, .act_max = %s, .rounding = %s}",
      ilit(p->input1_offset), ilit(p->input2_offset), ilit(p->output_offset),
      (int)p->left_shift, ilit(p->input1_multiplier), ilit(p->input1_shift),
      ilit(p->input2_multiplier), ilit(p->input2_shift), ilit(p->output_multiplier),
      ilit(p->output_shift), ilit(p->act_min), ilit(p->act_max),
      rounding_name(p->rounding));
}

/* ------------------------------------------- CONV_2D, TRANSPOSE_CONV */

/* The per-channel (or per-tensor) multipliers of a 16x8 convolution
 * (PopulateConvolutionQuantizationParams): arrays "mult", "shift" and the
 * struct "quant", passed. */
static void conv_quant(S16 *L, const Tensor *in, const Tensor *filter, const Tensor *out,
                       int32_t nch) {
  const Quant *fq = &filter->q;
  if (fq->nscale < 1)
    unsupported(L, "the filter is not quantized");
  if (fq->nscale > 1 && (fq->nscale != nch || fq->axis != 0))
    error_at(L->g, L->op->index, "the filter has %d scales on axis %d; expected %d on "
             "axis 0", fq->nscale, fq->axis, (int)nch);
  for (int c = 0; c < fq->nscale; c++)
    if (fq->zero_point && fq->zero_point[c] != 0)
      error_at(L->g, L->op->index, "the filter's zero point is %" PRId64 " (channel %d); "
               "int8 filters must be symmetric", fq->zero_point[c], c);
  int n = fq->nscale > 1 ? (int)nch : 1;
  int32_t *mult = arena_array((size_t)n, sizeof(int32_t));
  int32_t *shift = arena_array((size_t)n, sizeof(int32_t));
  for (int c = 0; c < n; c++)
    if (!conv_multiplier(scale_of(L, in), fq->scale[c], scale_of(L, out), S16_ROUNDING,
                         &mult[c], &shift[c]) ||
        shift[c] >= 8)
      error_at(L->g, L->op->index, "cannot represent the requantization scale of "
               "channel %d", c);
  const_i32(L, "mult", mult, n);
  const_i32(L, "shift", shift, n);
  const_struct(L, "quant", "ta_quant",
               arena_printf("{@mult, @shift, %d, %s}", n > 1, rounding_name(S16_ROUNDING)));
}

/* A constant int64 bias of nout values, or NULL. */
static const Tensor *bias_s64(S16 *L, const Tensor *bias, int32_t nout) {
  if (!bias)
    return NULL;
  if (bias->dtype != DT_INT64)
    error_at(L->g, L->op->index, "16x8 quantization: a %s bias is not supported (int64 "
             "expected)", dtype_name(bias->dtype));
  if (!is_const(bias))
    error_at(L->g, L->op->index, "a non-constant bias is not supported");
  if (tensor_elems(bias) != nout)
    error_at(L->g, L->op->index, "the bias has %" PRId64 " values for %d channels",
             tensor_elems(bias), (int)nout);
  return bias;
}

static void lower_conv2d_s16(S16 *L) {
  Tensor *in = input(L, 0), *filter = input(L, 1), *out = output(L);
  const Options *opt = &L->op->opt;
  if (filter->dtype != DT_INT8 || out->dtype != DT_INT16)
    unsupported(L, "CONV_2D needs an int8 filter and an int16 output");
  if (!is_const(filter))
    unsupported(L, "a non-constant filter is not supported");
  need_symmetric(L, in);
  need_symmetric(L, out);
  ta_dims di = dims4(L, in), df = dims4(L, filter), dout = dims4(L, out);
  ta_conv_params p = {0};
  p.stride_h = opt->stride_h;
  p.stride_w = opt->stride_w;
  p.dilation_h = opt->dilation_h ? opt->dilation_h : 1;
  p.dilation_w = opt->dilation_w ? opt->dilation_w : 1;
  if (p.stride_h < 1 || p.stride_w < 1)
    error_at(L->g, L->op->index, "stride %dx%d is not positive", (int)p.stride_h,
             (int)p.stride_w);
  int32_t oh, ow;
  compute_padding(opt->padding, di.h, df.h, p.stride_h, p.dilation_h, &oh, &p.pad_h);
  compute_padding(opt->padding, di.w, df.w, p.stride_w, p.dilation_w, &ow, &p.pad_w);
  if (oh != dout.h || ow != dout.w || di.n != dout.n || df.n != dout.c || df.c < 1 ||
      di.c % df.c || dout.c % (di.c / df.c))
    error_at(L->g, L->op->index, "shapes [%d,%d,%d,%d] * [%d,%d,%d,%d] -> [%d,%d,%d,%d] "
             "do not fit", (int)di.n, (int)di.h, (int)di.w, (int)di.c, (int)df.n,
             (int)df.h, (int)df.w, (int)df.c, (int)dout.n, (int)dout.h, (int)dout.w,
             (int)dout.c);
  const Tensor *bias = bias_s64(L, optional_input(L, 2), dout.c);
  if (!activation_range_quantized(opt->activation, DT_INT16, scale_of(L, out), 0,
                                  &p.act_min, &p.act_max))
    error_at(L->g, L->op->index, "fused activation %d is not supported",
             (int)opt->activation);

  L->l->kernel = "ta_conv2d_s16";
  const_struct(L, "params", "ta_conv_params", conv_init(&p));
  conv_quant(L, in, filter, out, dout.c);
  const_struct(L, "in_dims", "ta_dims", dims_init(di));
  arg_tensor(L, in);
  const_struct(L, "filter_dims", "ta_dims", dims_init(df));
  arg_tensor(L, filter);
  if (bias)
    arg_tensor(L, bias);
  else
    add_arg(L, ARG_NULL, -1);
  const_struct(L, "out_dims", "ta_dims", dims_init(dout));
  arg_tensor(L, out);
}

/* TRANSPOSE_CONV inputs: output shape, filter, input, bias (optional).
 * The output's static shape decides; a constant output-shape input must
 * agree with it (TFLite Micro does not read that input at all). */
static void lower_transpose_conv_s16(S16 *L) {
  Tensor *shape = input(L, 0), *filter = input(L, 1), *in = input(L, 2);
  Tensor *out = output(L);
  const Options *opt = &L->op->opt;
  if (filter->dtype != DT_INT8 || out->dtype != DT_INT16)
    unsupported(L, "TRANSPOSE_CONV needs an int8 filter and an int16 output");
  if (!is_const(filter))
    unsupported(L, "a non-constant filter is not supported");
  if (opt->activation != ACT_NONE)
    unsupported(L, "a fused activation on TRANSPOSE_CONV is not supported");
  need_symmetric(L, in);
  need_symmetric(L, out);
  ta_dims di = dims4(L, in), df = dims4(L, filter), dout = dims4(L, out);
  if (shape->dtype != DT_INT32 || tensor_elems(shape) != 4)
    error_at(L->g, L->op->index, "the output shape input must be int32[4]");
  if (is_const(shape)) {
    const int32_t want[4] = {dout.n, dout.h, dout.w, dout.c};
    for (int k = 0; k < 4; k++) {
      int32_t v;
      memcpy(&v, shape->data + 4 * k, 4);
      if (v != want[k])
        error_at(L->g, L->op->index, "the output shape input disagrees with the "
                 "output tensor's shape");
    }
  }
  ta_conv_params p = {0};
  p.stride_h = opt->stride_h;
  p.stride_w = opt->stride_w;
  p.dilation_h = p.dilation_w = 1;
  if (p.stride_h < 1 || p.stride_w < 1)
    error_at(L->g, L->op->index, "stride %dx%d is not positive", (int)p.stride_h,
             (int)p.stride_w);
  /* TFLite pads as a convolution from the output back to the input. */
  int32_t unused;
  compute_padding(opt->padding, dout.h, df.h, p.stride_h, 1, &unused, &p.pad_h);
  compute_padding(opt->padding, dout.w, df.w, p.stride_w, 1, &unused, &p.pad_w);
  if (di.n != dout.n || df.c != di.c || df.n != dout.c)
    error_at(L->g, L->op->index, "shapes [%d,%d,%d,%d] * [%d,%d,%d,%d] -> [%d,%d,%d,%d] "
             "do not fit", (int)di.n, (int)di.h, (int)di.w, (int)di.c, (int)df.n,
             (int)df.h, (int)df.w, (int)df.c, (int)dout.n, (int)dout.h, (int)dout.w,
             (int)dout.c);
  const Tensor *bias = bias_s64(L, optional_input(L, 3), dout.c);
  p.act_min = -32768;
  p.act_max = 32767;

  L->l->kernel = "ta_transpose_conv_s16";
  const_struct(L, "params", "ta_conv_params", conv_init(&p));
  conv_quant(L, in, filter, out, dout.c);
  const_struct(L, "in_dims", "ta_dims", dims_init(di));
  arg_tensor(L, in);
  const_struct(L, "filter_dims", "ta_dims", dims_init(df));
  arg_tensor(L, filter);
  if (bias)
    arg_tensor(L, bias);
  else
    add_arg(L, ARG_NULL, -1);
  const_struct(L, "out_dims", "ta_dims", dims_init(dout));
  arg_tensor(L, out);
}

/* ----------------------------------------------------------- ADD, SUB */

/* CheckedLog2: log2(x) rounded, in float as TFLite; false unless x is a
 * power of two within 1e-3 in the exponent. */
static bool checked_log2(float x, int *log2_result) {
  volatile float x_log2 = logf(x) * (1.0f / logf(2.0f));
  float rounded = roundf(x_log2);
  volatile float frac = x_log2 - rounded;
  *log2_result = (int)rounded;
  return fabsf(frac) < 1e-3f;
}

/* SUB's general multipliers.  TFLite Micro (sub_common.cc) takes twice
 * the larger scale and each quotient in float; TFLite (sub.cc) in double,
 * with QuantizeMultiplierGreaterThanOne for an output multiplier above 1.
 * ADD's are the same in both (add_params()). */
static bool sub_params(S16 *L, float s1, float s2, float so, ta_add_params *p) {
  p->left_shift = 15;
  p->rounding = S16_ROUNDING;
  double real1, real2, real_out;
  if (L->tflite) {
    double twice_max = 2 * (double)(s1 > s2 ? s1 : s2);
    real1 = (double)s1 / twice_max;
    real2 = (double)s2 / twice_max;
    real_out = twice_max / (double)((float)(1 << 15) * so);
  } else {
    volatile float twice_max = 2 * (s1 > s2 ? s1 : s2);
    volatile float q1 = s1 / twice_max, q2 = s2 / twice_max;
    volatile float denom = (float)(1 << 15) * so;
    volatile float qo = twice_max / denom;
    real1 = q1;
    real2 = q2;
    real_out = qo;
  }
  if (!quantize_multiplier_smaller_than_one_exp(real1, S16_ROUNDING, &p->input1_multiplier,
                                                &p->input1_shift) ||
      !quantize_multiplier_smaller_than_one_exp(real2, S16_ROUNDING, &p->input2_multiplier,
                                                &p->input2_shift))
    return false;
  if (L->tflite && real_out > 1)
    return quantize_multiplier_greater_than_one(real_out, S16_ROUNDING,
                                                &p->output_multiplier, &p->output_shift);
  return quantize_multiplier_smaller_than_one_exp(real_out, S16_ROUNDING,
                                                  &p->output_multiplier, &p->output_shift);
}

static void lower_add_sub_s16(S16 *L, bool sub) {
  Tensor *a = input(L, 0), *b = input(L, 1), *out = output(L);
  if (a->dtype != DT_INT16 || b->dtype != DT_INT16)
    unsupported(L, "ADD and SUB need two int16 inputs");
  ta_bcast bc;
  int32_t shape[TA_MAX_DIMS];
  int nd;
  if (!make_broadcast(a->dims, a->ndims, b->dims, b->ndims, &bc, shape, &nd))
    error_at(L->g, L->op->index, "input shapes do not broadcast");
  int64_t n = 1;
  for (int i = 0; i < nd; i++)
    n *= shape[i];
  if (n != tensor_elems(out))
    error_at(L->g, L->op->index, "output shape disagrees with the broadcast shape");
  float s1 = scale_of(L, a), s2 = scale_of(L, b), so = scale_of(L, out);
  Activation act = L->op->opt.activation;
  ta_add_params p = {0};
  int l1, l2, lo;
  /* TFLite's power-of-two path (TFLite Micro has none). */
  bool pot = L->tflite && L->op->opt.pot_scale_int16 && checked_log2(s1, &l1) &&
             checked_log2(s2, &l2) && checked_log2(so, &lo);
  if (pot) {
    need_symmetric(L, a);
    need_symmetric(L, b);
    need_symmetric(L, out);
    p.input1_shift = l1 - lo;
    p.input2_shift = l2 - lo;
    if ((p.input1_shift != 0 && p.input2_shift != 0) || p.input1_shift > 0 ||
        p.input2_shift > 0 || p.input1_shift < -15 || p.input2_shift < -15)
      error_at(L->g, L->op->index, "power-of-two scales: input shifts %d and %d are not "
               "supported (one must be 0, both in [-15, 0])", (int)p.input1_shift,
               (int)p.input2_shift);
    p.rounding = S16_ROUNDING;
    if (!activation_range_quantized(act, DT_INT16, so, 0, &p.act_min, &p.act_max))
      error_at(L->g, L->op->index, "fused activation %d is not supported", (int)act);
    L->l->kernel = sub ? "ta_sub_pot_s16" : "ta_add_pot_s16";
  } else {
    bool ok = sub ? sub_params(L, s1, s2, so, &p)
                  : add_params(s1, zp_of(a), s2, zp_of(b), so, zp_of(out), DT_INT16, act,
                               S16_ROUNDING, &p);
    if (!ok)
      error_at(L->g, L->op->index, "cannot represent the rescaling of these scales");
    p.input1_offset = -zp_of(a);
    p.input2_offset = -zp_of(b);
    p.output_offset = zp_of(out);
    if (!activation_range_quantized(act, DT_INT16, so, zp_of(out), &p.act_min, &p.act_max))
      error_at(L->g, L->op->index, "fused activation %d is not supported", (int)act);
    L->l->kernel = sub ? "ta_sub_s16" : "ta_add_s16";
  }
  const_struct(L, "params", "ta_add_params", add_init(&p));
  const_struct(L, "shape", "ta_bcast",
               arena_printf("{.ndims = %d, .shape = %s, .stride1 = %s, .stride2 = %s}",
                            (int)bc.ndims, i32_list(bc.shape, bc.ndims),
                            i32_list(bc.stride1, bc.ndims), i32_list(bc.stride2, bc.ndims)));
  arg_tensor(L, a);
  arg_tensor(L, b);
  arg_tensor(L, out);
}

/* -------------------------------------------------------- LEAKY_RELU */

/* LeakyReluPrepare (TFLite and TFLite Micro alike): both real multipliers
 * in float, then QuantizeMultiplier. */
static void lower_leaky_relu_s16(S16 *L) {
  Tensor *in = input(L, 0), *out = output(L);
  if (out->dtype != DT_INT16 || tensor_elems(in) != tensor_elems(out))
    unsupported(L, "LEAKY_RELU needs an int16 output of the input's size");
  float si = scale_of(L, in), so = scale_of(L, out);
  volatile float alpha = si * L->op->opt.alpha;
  volatile float alpha_real = alpha / so;
  volatile float identity_real = si / so;
  ta_leaky_relu_params p = {.size = (int32_t)tensor_elems(in),
                            .input_zero_point = zp_of(in),
                            .output_zero_point = zp_of(out),
                            .rounding = S16_ROUNDING};
  if (!quantize_multiplier(alpha_real, S16_ROUNDING, &p.multiplier_alpha, &p.shift_alpha) ||
      !quantize_multiplier(identity_real, S16_ROUNDING, &p.multiplier_identity,
                           &p.shift_identity) ||
      p.shift_alpha > 30 || p.shift_identity > 30)
    error_at(L->g, L->op->index, "cannot represent alpha or the rescaling");
  L->l->kernel = "ta_leaky_relu_s16";
  const_struct(L, "params", "ta_leaky_relu_params",
               arena_printf("{.size = %d, .input_zero_point = %s, .output_zero_point = %s,\n"
                            "    .multiplier_alpha = %s, .shift_alpha = %s,\n"
                            "    .multiplier_identity = %s, .shift_identity = %s,\n"
                            "    .rounding = %s}",
                            (int)p.size, ilit(p.input_zero_point),
                            ilit(p.output_zero_point), ilit(p.multiplier_alpha),
                            ilit(p.shift_alpha), ilit(p.multiplier_identity),
                            ilit(p.shift_identity), rounding_name(p.rounding)));
  arg_tensor(L, in);
  arg_tensor(L, out);
}

/* ---------------------------------------------------------- QUANTIZE */

/* int32 -> int16 and int16 -> int32 (PrepareQuantizeReference: the
 * effective scale in double, QuantizeMultiplier; Requantize). */
static void lower_quantize_s16(S16 *L) {
  Tensor *in = input(L, 0), *out = output(L);
  if (tensor_elems(in) != tensor_elems(out))
    error_at(L->g, L->op->index, "input and output sizes differ");
  if (in->q.nscale != 1 || out->q.nscale != 1)
    error_at(L->g, L->op->index, "only per-tensor quantization is supported");
  ta_requant_params p = {.size = (int32_t)tensor_elems(in)};
  if (!requant_params(scale_of(L, in), zp_of(in), scale_of(L, out), zp_of(out),
                      S16_ROUNDING, &p) ||
      p.shift > 30)
    error_at(L->g, L->op->index, "cannot represent the rescaling");
  L->l->kernel = in->dtype == DT_INT32 ? "ta_requantize_s32_s16" : "ta_requantize_s16_s32";
  const_struct(L, "params", "ta_requant_params",
               arena_printf("{.size = %d, .input_zero_point = %s,\n"
                            "    .output_zero_point = %s, .multiplier = %s,\n"
                            "    .shift = %s, .rounding = %s}",
                            (int)p.size, ilit(p.input_zero_point),
                            ilit(p.output_zero_point), ilit(p.multiplier), ilit(p.shift),
                            rounding_name(p.rounding)));
  arg_tensor(L, in);
  arg_tensor(L, out);
}

/* ------------------------------------------------------------- entry */

static DType dtype_at(const Graph *g, const int *tensors, int n, int k) {
  return k < n && tensors[k] >= 0 ? g->tensors[tensors[k]].dtype : DT_COUNT;
}

static void lower_add_s16(S16 *L) { lower_add_sub_s16(L, false); }
static void lower_sub_s16(S16 *L) { lower_add_sub_s16(L, true); }

bool lower_s16(Graph *g, Op *op, const LowerOptions *o, Lowered *l) {
  DType in0 = dtype_at(g, op->inputs, op->ninputs, 0);
  DType out0 = dtype_at(g, op->outputs, op->noutputs, 0);
  void (*fn)(S16 *) = NULL;
  switch (op->kind) {
  case OP_CONV_2D:
    fn = in0 == DT_INT16 ? lower_conv2d_s16 : NULL;
    break;
  case OP_TRANSPOSE_CONV:
    fn = dtype_at(g, op->inputs, op->ninputs, 2) == DT_INT16 ? lower_transpose_conv_s16
                                                            : NULL;
    break;
  case OP_ADD:
    fn = out0 == DT_INT16 ? lower_add_s16 : NULL;
    break;
  case OP_SUB:
    fn = out0 == DT_INT16 ? lower_sub_s16 : NULL;
    break;
  case OP_LEAKY_RELU:
    fn = in0 == DT_INT16 ? lower_leaky_relu_s16 : NULL;
    break;
  case OP_QUANTIZE:
    if ((in0 == DT_INT32 && out0 == DT_INT16) || (in0 == DT_INT16 && out0 == DT_INT32))
      fn = lower_quantize_s16;
    break;
  default:
    break;
  }
  if (!fn)
    return false;
  S16 L = {.g = g, .op = op, .o = o, .l = l, .tflite = o->rounding == TA_ROUND_SINGLE};
  fn(&L);
  return true;
}
