/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lower_s16.c - lowerings for TFLite's 16x8 quantization scheme: int16
 * activations (symmetric), int8 weights, int64 biases.
 *
 * lower() asks lowering_s16() first; it takes the ops whose activations
 * are int16 and that need an int16 kernel of their own: CONV_2D,
 * DEPTHWISE_CONV_2D, TRANSPOSE_CONV, FULLY_CONNECTED, ADD, SUB, MUL,
 * LEAKY_RELU, RELU, RELU6, LOGISTIC, TANH, SOFTMAX, and QUANTIZE from int32
 * to int16.  (The int16 pools, RESIZE_BILINEAR and MEAN are lowered with
 * their int8 forms in lower.c and lower_ops.c.)
 * Everything else (int16 QUANTIZE to or from int8/int16/int32/float, and
 * the ops that only move int16 values, such as PAD or STRIDED_SLICE)
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
 *   RELU TFLite divides the scales in float, TFLite Micro in double.
 *   RELU6 TFLite requantizes to the output's scale; TFLite Micro clamps
 *        the raw input (lower_relu_s16()).
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

#include "lower.h"

/* The requantization rounding of the int16 kernels (see the opening
 * comment). */
#define S16_ROUNDING TA_ROUND_DOUBLE


static TA_NORETURN void unsupported(Lower *L, const char *what) {
  error_at(L->g, L->op->index, "16x8 quantization: %s", what);
}

/* int16 activations are symmetric: TFLite refuses a zero point. */
static void need_symmetric(Lower *L, const Tensor *t) {
  if (zp_of(t) != 0)
    error_at(L->g, L->op->index, "int16 tensor %d has zero point %" PRId32
             "; 16x8 quantization needs 0", t->index, zp_of(t));
}

static ta_dims rank4(Lower *L, const Tensor *t) {
  if (t->ndims != 4)
    error_at(L->g, L->op->index, "tensor %d has rank %d, expected 4", t->index, t->ndims);
  return dims4(L, t);
}


/* ------------------------------------------- CONV_2D, TRANSPOSE_CONV */

/* The per-channel (or per-tensor) multipliers of a 16x8 convolution
 * (PopulateConvolutionQuantizationParams): arrays "mult", "shift" and the
 * struct "quant", passed. */
static void conv_quant(Lower *L, const Tensor *in, const Tensor *filter, const Tensor *out,
                       int32_t nch, int axis, bool acc32, int rounding) {
  const Quant *fq = &filter->q;
  if (fq->nscale < 1)
    unsupported(L, "the filter is not quantized");
  if (fq->nscale > 1 && (fq->nscale != nch || fq->axis != axis))
    error_at(L->g, L->op->index, "the filter has %d scales on axis %d; expected %d on "
             "axis %d", fq->nscale, fq->axis, (int)nch, axis);
  for (int c = 0; c < fq->nscale; c++)
    if (fq->zero_point && fq->zero_point[c] != 0)
      error_at(L->g, L->op->index, "the filter's zero point is %" PRId64 " (channel %d); "
               "int8 filters must be symmetric", fq->zero_point[c], c);
  int n = fq->nscale > 1 ? (int)nch : 1;
  int32_t *mult = arena_array((size_t)n, sizeof(int32_t));
  int32_t *shift = arena_array((size_t)n, sizeof(int32_t));
  /* FULLY_CONNECTED per tensor: GetQuantizedConvolutionMultipler (the
   * float product of the scales); the rest per channel
   * (PopulateConvolutionQuantizationParams, in double). */
  bool fc_tensor = L->op->kind == OP_FULLY_CONNECTED && n == 1;
  for (int c = 0; c < n; c++) {
    bool ok = fc_tensor ? fc_multiplier(scale_of(L, in), fq->scale[0], scale_of(L, out),
                                        rounding, &mult[c], &shift[c])
                        : conv_multiplier(scale_of(L, in), fq->scale[c], scale_of(L, out),
                                          rounding, &mult[c], &shift[c]);
    if (!ok || shift[c] > (acc32 ? 30 : 7))
      error_at(L->g, L->op->index, "cannot represent the requantization scale of "
               "channel %d", c);
  }
  const_i32(L, "mult", mult, (size_t)n, false);
  const_i32(L, "shift", shift, (size_t)n, false);
  const_struct(L, "quant", "ta_quant", quant_init(n > 1, rounding, 0), true);
}

/*
 * The bias of a 16x8 weighted op decides its accumulator, as in TFLite
 * and TFLite Micro (the kernels pick the template by the bias type):
 *
 *   int64 bias        int64 sums, the 64-bit MultiplyByQuantizedMultiplier
 *                     (16-bit multiplier, one rounding): ta_*_s16
 *   int32 bias        int32 sums, the 32-bit MultiplyByQuantizedMultiplier:
 *                     ta_*_acc32_s16
 *   no bias           CONV_2D, FULLY_CONNECTED: int32, as an int32 bias.
 *                     TRANSPOSE_CONV: TFLite int32 (its oracle build
 *                     matches only that), TFLite Micro int64 (its kernel
 *                     passes GetOptionalTensorData<int64_t>).
 *                     DEPTHWISE_CONV_2D: int64 (no int32 kernel in either).
 *
 * Refused: an int32 bias on DEPTHWISE_CONV_2D (both refuse it in Prepare
 * or read it as int64), and on TRANSPOSE_CONV under TFLite Micro (its
 * kernel reads an int32 bias as int64 values).
 *
 * The 32-bit requantization rounds twice (gemmlowp) in TFLite Micro and in
 * TFLite's reference kernels as the oracle is built; TFLite's GEMM path
 * for CONV_2D and FULLY_CONNECTED without zero points rounds once (ruy),
 * like its int8 CONV_2D and FULLY_CONNECTED.
 */
typedef struct {
  const Tensor *bias; /* NULL: none */
  bool acc32;         /* int32 accumulator: the ta_*_acc32_s16 kernel */
  int rounding;       /* of the 32-bit requantization (acc32 only) */
} S16Acc;

static S16Acc s16_accumulator(Lower *L, const Tensor *bias, int32_t nout) {
  S16Acc a = {bias, false, S16_ROUNDING};
  const char *op = op_name(L->op->kind);
  if (bias) {
    if (bias->dtype != DT_INT64 && bias->dtype != DT_INT32)
      error_at(L->g, L->op->index, "16x8 quantization: a %s bias is not supported (int64 "
               "or int32 expected)", dtype_name(bias->dtype));
    if (!is_const(bias))
      error_at(L->g, L->op->index, "a non-constant bias is not supported");
    if (tensor_elems(bias) != nout)
      error_at(L->g, L->op->index, "the bias has %" PRId64 " values for %d channels",
               tensor_elems(bias), (int)nout);
  }
  bool b32 = bias && bias->dtype == DT_INT32;
  switch (L->op->kind) {
  case OP_DEPTHWISE_CONV_2D:
    if (b32)
      error_at(L->g, L->op->index, "16x8 %s with an int32 bias is not supported: TFLite "
               "refuses it (int64 expected) and TFLite Micro reads it as int64", op);
    break;
  case OP_TRANSPOSE_CONV:
    if (b32 && !tflite_arithmetic(L))
      error_at(L->g, L->op->index, "16x8 %s with an int32 bias is not supported with "
               "--rounding double: TFLite Micro's kernel reads the bias as int64 values "
               "(TFLite's, --rounding single, is supported)", op);
    a.acc32 = tflite_arithmetic(L) && (!bias || b32);
    break;
  case OP_CONV_2D:
  case OP_FULLY_CONNECTED:
    a.acc32 = !bias || b32;
    if (a.acc32 && tflite_arithmetic(L))
      a.rounding = TA_ROUND_SINGLE;
    break;
  default:
    unreachable();
  }
  return a;
}

/* The checks every 16x8 convolution and fully connected layer makes: an
 * int8 constant filter, an int16 output, symmetric activations. */
static void need_s16_filter(Lower *L, const Tensor *in, const Tensor *filter,
                            const Tensor *out) {
  if (filter->dtype != DT_INT8 || out->dtype != DT_INT16)
    unsupported(L, arena_printf("%s needs an int8 filter and an int16 output",
                                op_name(L->op->kind)));
  if (!is_const(filter))
    unsupported(L, "a non-constant filter is not supported");
  need_symmetric(L, in);
  need_symmetric(L, out);
}

/* Strides the kernels take: positive, and input size * stride + filter
 * size within int32 (the kernels compute input row * stride + filter row
 * in int32). */
static void need_s16_strides(Lower *L, const Options *opt, ta_dims di, ta_dims df) {
  if (opt->stride_h < 1 || opt->stride_w < 1)
    error_at(L->g, L->op->index, "stride %dx%d is not positive", (int)opt->stride_h,
             (int)opt->stride_w);
  if ((int64_t)di.h * opt->stride_h + df.h > INT32_MAX ||
      (int64_t)di.w * opt->stride_w + df.w > INT32_MAX)
    error_at(L->g, L->op->index, "stride %dx%d is too large for this input",
             (int)opt->stride_w, (int)opt->stride_h);
}

static TA_NORETURN void bad_conv_shapes(Lower *L, ta_dims di, ta_dims df, ta_dims dout) {
  error_at(L->g, L->op->index, "shapes [%d,%d,%d,%d] * [%d,%d,%d,%d] -> [%d,%d,%d,%d] "
           "do not fit", (int)di.n, (int)di.h, (int)di.w, (int)di.c, (int)df.n,
           (int)df.h, (int)df.w, (int)df.c, (int)dout.n, (int)dout.h, (int)dout.w,
           (int)dout.c);
}

/* The int16 clamp of the fused activation act. */
static void s16_act_range(Lower *L, Activation act, const Tensor *out, int32_t *lo,
                          int32_t *hi) {
  if (!activation_range_quantized(act, DT_INT16, scale_of(L, out), 0, lo, hi))
    error_at(L->g, L->op->index, "fused activation %d is not supported", (int)act);
}

/* CONV_2D: filter OHWI, grouped when its channels divide the input's.
 * DEPTHWISE_CONV_2D: filter {1, h, w, c * depth_multiplier}, quantized
 * per channel on axis 3 (or per tensor). */
static void lower_conv_s16(Lower *L, bool depthwise) {
  Tensor *in = input(L, 0), *filter = input(L, 1), *out = output(L, 0);
  const Options *opt = &L->op->opt;
  need_s16_filter(L, in, filter, out);
  ta_dims di = rank4(L, in), df = rank4(L, filter), dout = rank4(L, out);
  need_s16_strides(L, opt, di, df);
  int32_t oh, ow;
  ta_conv_params p = conv_params_of(opt, di, df, &oh, &ow);
  bool misfit = depthwise ? df.n != 1 || df.c != dout.c || di.c < 1 || dout.c % di.c
                          : df.n != dout.c || df.c < 1 || di.c % df.c ||
                                dout.c % (di.c / df.c);
  if (oh != dout.h || ow != dout.w || di.n != dout.n || misfit)
    bad_conv_shapes(L, di, df, dout);
  if (depthwise)
    p.depth_multiplier = depth_multiplier_of(L, di.c, dout.c);
  /* Depthwise: always the int64 accumulator (s16_accumulator). */
  S16Acc acc = s16_accumulator(L, optional_input(L, 2), dout.c);
  s16_act_range(L, opt->activation, out, &p.act_min, &p.act_max);
  /* TFLite's GEMM path takes ungrouped convolutions only; a grouped one
   * runs the reference kernel, which rounds twice. */
  if (acc.acc32 && di.c != df.c)
    acc.rounding = S16_ROUNDING;

  L->l->kernel = depthwise    ? "ta_depthwise_conv2d_s16"
                 : acc.acc32 ? "ta_conv2d_acc32_s16"
                             : "ta_conv2d_s16";
  const_struct(L, "params", "ta_conv_params", conv_init(&p), true);
  conv_quant(L, in, filter, out, dout.c, depthwise ? 3 : 0, acc.acc32, acc.rounding);
  conv_tensor_args(L, di, in, df, filter, acc.bias, dout, out);
}

static void lower_conv2d_s16(Lower *L) { lower_conv_s16(L, false); }
static void lower_depthwise_conv2d_s16(Lower *L) { lower_conv_s16(L, true); }

/* FULLY_CONNECTED: filter [out_depth, in_depth], per tensor or per channel
 * (axis 0); the input is read as rows of in_depth values. */
static void lower_fully_connected_s16(Lower *L) {
  Tensor *in = input(L, 0), *filter = input(L, 1), *out = output(L, 0);
  need_s16_filter(L, in, filter, out);
  if (L->op->opt.weights_format != 0)
    error_at(L->g, L->op->index, "shuffled weights are not supported");
  ta_fc_params p = fc_params_of(L, in, filter, out);
  S16Acc acc = s16_accumulator(L, optional_input(L, 2), p.out_depth);
  s16_act_range(L, L->op->opt.activation, out, &p.act_min, &p.act_max);

  L->l->kernel = acc.acc32 ? "ta_fully_connected_acc32_s16" : "ta_fully_connected_s16";
  const_struct(L, "params", "ta_fc_params", fc_init(&p), true);
  conv_quant(L, in, filter, out, p.out_depth, 0, acc.acc32, acc.rounding);
  arg_tensor(L, in->index);
  arg_tensor(L, filter->index);
  arg_optional(L, acc.bias);
  arg_tensor(L, out->index);
}

/* TRANSPOSE_CONV inputs: output shape, filter, input, bias (optional).
 * The output's static shape decides; a constant output-shape input must
 * agree with it (TFLite Micro does not read that input at all). */
static void lower_transpose_conv_s16(Lower *L) {
  Tensor *shape = input(L, 0), *filter = input(L, 1), *in = input(L, 2);
  Tensor *out = output(L, 0);
  const Options *opt = &L->op->opt;
  need_s16_filter(L, in, filter, out);
  ta_dims di = rank4(L, in), df = rank4(L, filter), dout = rank4(L, out);
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
  need_s16_strides(L, opt, di, df);
  ta_conv_params p = {0};
  p.stride_h = opt->stride_h;
  p.stride_w = opt->stride_w;
  p.dilation_h = p.dilation_w = 1;
  /* TFLite pads as a convolution from the output back to the input. */
  int32_t unused;
  compute_padding(opt->padding, dout.h, df.h, p.stride_h, 1, &unused, &p.pad_h);
  compute_padding(opt->padding, dout.w, df.w, p.stride_w, 1, &unused, &p.pad_w);
  if (di.n != dout.n || df.c != di.c || df.n != dout.c)
    bad_conv_shapes(L, di, df, dout);
  S16Acc acc = s16_accumulator(L, optional_input(L, 3), dout.c);
  /* The fused activation (TransposeConvOptions field 3, newer schemas):
   * a clamp of the requantized outputs, as in CONV_2D. */
  s16_act_range(L, opt->activation, out, &p.act_min, &p.act_max);

  L->l->kernel = acc.acc32 ? "ta_transpose_conv_acc32_s16" : "ta_transpose_conv_s16";
  const_struct(L, "params", "ta_conv_params", conv_init(&p), true);
  conv_quant(L, in, filter, out, dout.c, 0, acc.acc32, acc.rounding);
  conv_tensor_args(L, di, in, df, filter, acc.bias, dout, out);
}

/* ----------------------------------------------------------- ADD, SUB */

/* SUB's general multipliers as TFLite's sub.cc (PrepareGeneralSubOp):
 * twice the larger scale and the quotients in double, and
 * QuantizeMultiplierGreaterThanOne for an output multiplier above 1.
 * TFLite Micro's (sub_params(), quant_ops.c) takes them in float. */
static bool sub_params_tflite(float s1, int32_t zp1, float s2, int32_t zp2, float so,
                              int32_t zpo, Activation act, ta_add_params *p) {
  p->input1_offset = -zp1;
  p->input2_offset = -zp2;
  p->output_offset = zpo;
  p->left_shift = 15;
  p->rounding = S16_ROUNDING;
  const double twice_max = 2 * (double)(s1 > s2 ? s1 : s2);
  const double real1 = (double)s1 / twice_max;
  const double real2 = (double)s2 / twice_max;
  const double real_out = twice_max / (double)((float)(1 << 15) * so);
  if (!quantize_multiplier_smaller_than_one_exp(real1, S16_ROUNDING, &p->input1_multiplier,
                                                &p->input1_shift) ||
      !quantize_multiplier_smaller_than_one_exp(real2, S16_ROUNDING, &p->input2_multiplier,
                                                &p->input2_shift))
    return false;
  bool ok = real_out > 1
                ? quantize_multiplier_greater_than_one(real_out, S16_ROUNDING,
                                                       &p->output_multiplier,
                                                       &p->output_shift)
                : quantize_multiplier_smaller_than_one_exp(real_out, S16_ROUNDING,
                                                           &p->output_multiplier,
                                                           &p->output_shift);
  return ok && activation_range_quantized(act, DT_INT16, so, zpo, &p->act_min, &p->act_max);
}

static void lower_add_sub_s16(Lower *L, bool sub) {
  Tensor *a = input(L, 0), *b = input(L, 1), *out = output(L, 0);
  if (a->dtype != DT_INT16 || b->dtype != DT_INT16)
    unsupported(L, "ADD and SUB need two int16 inputs");
  ta_bcast bc = broadcast_of(L, a, b, out);
  float s1 = scale_of(L, a), s2 = scale_of(L, b), so = scale_of(L, out);
  Activation act = L->op->opt.activation;
  ta_add_params p = {0};
  int l1, l2, lo;
  /* TFLite's power-of-two path (TFLite Micro has none). */
  bool pot = tflite_arithmetic(L) && L->op->opt.pot_scale_int16 && checked_log2f(s1, &l1) &&
             checked_log2f(s2, &l2) && checked_log2f(so, &lo);
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
    int32_t z1 = zp_of(a), z2 = zp_of(b), zo = zp_of(out);
    bool ok = !sub ? add_params(s1, z1, s2, z2, so, zo, DT_INT16, act, S16_ROUNDING, &p)
              : tflite_arithmetic(L)
                  ? sub_params_tflite(s1, z1, s2, z2, so, zo, act, &p)
                  : sub_params(s1, z1, s2, z2, so, zo, DT_INT16, act, S16_ROUNDING, &p);
    if (!ok)
      error_at(L->g, L->op->index, "cannot represent the rescaling of these scales, or "
               "fused activation %d", (int)act);
    L->l->kernel = sub ? "ta_sub_s16" : "ta_add_s16";
  }
  const_struct(L, "params", "ta_add_params", add_init(&p, false, ""), true);
  const_struct(L, "shape", "ta_bcast", bcast_init(&bc), true);
  arg_tensor(L, a->index);
  arg_tensor(L, b->index);
  arg_tensor(L, out->index);
}

/* ---------------------------------------------------------------- MUL */

/* MUL of int16 tensors (symmetric): the real multiplier s1 * s2 / so,
 * QuantizeMultiplier; TFLite Micro computes it in double (mul_params()),
 * TFLite in float (below; checked against the oracle on products near
 * 2^30, where the two differ by 1 in some outputs).  The kernel
 * requantizes with gemmlowp's double rounding in both modes. */
static void lower_mul_s16(Lower *L) {
  need_arity(L, 2, 1);
  Tensor *a = input(L, 0), *b = input(L, 1), *out = output(L, 0);
  if (a->dtype != DT_INT16 || b->dtype != DT_INT16 || out->dtype != DT_INT16)
    unsupported(L, "MUL needs two int16 inputs and an int16 output");
  need_symmetric(L, a);
  need_symmetric(L, b);
  need_symmetric(L, out);
  ta_bcast bc = broadcast_of(L, a, b, out);
  Activation act = L->op->opt.activation;
  ta_mul_params p = {0};
  /* TFLite's mul.cc multiplies and divides the float scales in float,
   * then widens; TFLite Micro works in double. */
  bool ok = mul_params(scale_of(L, a), 0, scale_of(L, b), 0, scale_of(L, out), 0, DT_INT16,
                       act, tflite_arithmetic(L), S16_ROUNDING, &p);
  if (!ok || p.shift > 30)
    error_at(L->g, L->op->index, "cannot represent the rescaling of these scales, or "
             "fused activation %d", (int)act);
  L->l->kernel = "ta_mul_s16";
  const_struct(L, "params", "ta_mul_params",
               arena_printf("{.input1_offset = 0, .input2_offset = 0, .output_offset = 0,\n"
                            "    .multiplier = %s, .shift = %s, .act_min = %s, .act_max = %s,\n"
                            "    .rounding = %s, .act_min_f32 = 0.0f, .act_max_f32 = 0.0f}",
                            ilit(p.multiplier), ilit(p.shift), ilit(p.act_min),
                            ilit(p.act_max), rounding_str(p.rounding)),
               true);
  const_struct(L, "shape", "ta_bcast", bcast_init(&bc), true);
  arg_tensor(L, a->index);
  arg_tensor(L, b->index);
  arg_tensor(L, out->index);
}

/* -------------------------------------------------------- LEAKY_RELU */

/* LeakyReluPrepare (TFLite and TFLite Micro alike): both real multipliers
 * in float, then QuantizeMultiplier. */
static void lower_leaky_relu_s16(Lower *L) {
  Tensor *in = input(L, 0), *out = output(L, 0);
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
                            ilit(p.shift_identity), rounding_str(p.rounding)),
               true);
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
}

/* ------------------------------------------------------- RELU, RELU6 */

/* RELU: ReluPrepare (TFLite) / CalculateReluOpData (TFLite Micro): the
 * multiplier of input_scale / output_scale, the clamp range [round(0 /
 * output_scale), 32767].  TFLite divides the scales in float and widens
 * the quotient, TFLite Micro divides in double: a multiplier can differ in
 * its last bit.
 * RELU6: TFLite requantizes as RELU with the range [0, round(6 /
 * output_scale)] (QuantizedReluX); TFLite Micro clamps the raw input to
 * [0, FloatToQuantizedType(6, input_scale, 0)] and does not read the
 * output's quantization (Relu6Quantized) - ta_relu_s16 with the identity
 * multiplier. */
static void lower_relu_s16(Lower *L) {
  need_arity(L, 1, 1);
  Tensor *in = input(L, 0), *out = output(L, 0);
  if (out->dtype != DT_INT16 || tensor_elems(in) != tensor_elems(out))
    unsupported(L, "RELU and RELU6 need an int16 output of the input's size");
  need_symmetric(L, in);
  need_symmetric(L, out);
  const bool relu6 = L->op->kind == OP_RELU6;
  const float si = scale_of(L, in), so = scale_of(L, out);
  ta_relu_params p = {.size = (int32_t)tensor_elems(in), .rounding = S16_ROUNDING};
  if (relu6 && !tflite_arithmetic(L)) {
    p.multiplier = 1 << 30; /* x * 2^30 * 2^1 / 2^31 = x, exactly */
    p.shift = 1;
    p.act_min = 0;
    p.act_max = relu6_six(DT_INT16, si, 0);
  } else {
    volatile float quotient = si / so;
    double real = tflite_arithmetic(L) ? (double)quotient : (double)si / (double)so;
    if (!quantize_multiplier(real, S16_ROUNDING, &p.multiplier, &p.shift) || p.shift > 30)
      error_at(L->g, L->op->index, "cannot represent the rescaling");
    relu_range(DT_INT16, 0.0f, relu6 ? 6.0f : INFINITY, so, 0, &p.act_min, &p.act_max);
  }
  L->l->kernel = "ta_relu_s16";
  const_struct(L, "params", "ta_relu_params",
               arena_printf("{.size = %d, .input_zero_point = 0, .output_zero_point = 0,\n"
                            "    .multiplier = %s, .shift = %s, .act_min = %s, .act_max = %s,\n"
                            "    .rounding = %s}",
                            (int)p.size, ilit(p.multiplier), ilit(p.shift), ilit(p.act_min),
                            ilit(p.act_max), rounding_str(p.rounding)),
               true);
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
  may_run_in_place(L, 0); /* out[i] = f(in[i]), a forward loop */
}

/* ------------------------------------------- LOGISTIC, TANH, SOFTMAX */

/* LOGISTIC and TANH (LogisticPrepare / TanhPrepare, int16 branch; the
 * kernels are reference_integer_ops::Logistic / Tanh).  Input and output
 * zero points 0, output scale 2^-15.  TFLite Micro runs the table kernel
 * for every input scale.  TFLite does too except for the power-of-two
 * scales that leave input_multiplier 0 (2^-12, or within CheckedLog2's
 * tolerance of it; TANH also 2^-11): there its Eval takes
 * optimized_ops::Logistic / Tanh, gemmlowp's int16 fixed point
 * (ta_logistic_pot_s16, ta_tanh_pot_s16 with --rounding single). */
static void lower_sigmoid_s16(Lower *L, bool tanh) {
  need_arity(L, 1, 1);
  Tensor *in = input(L, 0), *out = output(L, 0);
  const char *op = tanh ? "TANH" : "LOGISTIC";
  if (out->dtype != DT_INT16 || tensor_elems(in) != tensor_elems(out))
    error_at(L->g, L->op->index, "16x8 quantization: %s needs an int16 output of the "
             "input's size", op);
  need_symmetric(L, in);
  need_symmetric(L, out);
  int log2_out;
  if (!checked_log2f(scale_of(L, out), &log2_out) || log2_out != -15 ||
      (tflite_arithmetic(L) && !tanh && scale_of(L, out) != 1.0f / 32768))
    error_at(L->g, L->op->index, "an int16 %s output must have scale 1/32768", op);
  ta_sigmoid_s16_params p = {.size = elems32(in)};
  bool pot;
  if (!sigmoid_s16_params(scale_of(L, in), tanh, &p.input_multiplier,
                          &p.input_left_shift, &pot))
    error_at(L->g, L->op->index, "the input scale %g is out of the range the int16 %s "
             "kernel can rescale", (double)scale_of(L, in), op);
  if (pot && tflite_arithmetic(L)) {
    /* TFLite's input_left_shift: 0, or 1 for TANH at 2^-11 (3 << 1). */
    L->l->kernel = tanh ? "ta_tanh_pot_s16" : "ta_logistic_pot_s16";
    const_struct(L, "params", "ta_sigmoid_s16_params",
                 arena_printf("{.size = %d, .input_left_shift = %d}", (int)p.size,
                              p.input_multiplier == 6),
                 true);
  } else {
    L->l->kernel = tanh ? "ta_tanh_s16" : "ta_logistic_s16";
    const_array(L, "table", DT_UINT16, sigmoid_table_q16(), 256, false);
    const_struct(L, "params", "ta_sigmoid_s16_params",
                 arena_printf("{.size = %d, .input_multiplier = %s, .input_left_shift = %s,\n"
                              "    .table = @table}",
                              (int)p.size, ilit(p.input_multiplier),
                              ilit(p.input_left_shift)),
                 true);
  }
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
  may_run_in_place(L, 0); /* out[i] = f(in[i]), a forward loop */
}

static void lower_logistic_s16(Lower *L) { lower_sigmoid_s16(L, false); }
static void lower_tanh_s16(Lower *L) { lower_sigmoid_s16(L, true); }

/* SOFTMAX int16 -> int16 (SoftmaxPrepare; reference_ops::SoftmaxInt16).
 * Output zero point 0.  TFLite Micro (softmax_common.cc): output scale
 * 1/32768 within 0.1%, beta * input scale in double, the two tables
 * from gen_lut in float.  TFLite (activations.cc): input zero point 0
 * and rank 1 to 4 too, input scale * beta as a float product, the
 * tables from its double gen_lut.  Both: QuantizeMultiplier of that
 * over 10 / 65535, so that [-65535, 0] spans the exp table's [-10, 0]. */
static void lower_softmax_s16(Lower *L) {
  need_arity(L, 1, 1);
  Tensor *in = input(L, 0), *out = output(L, 0);
  if (out->dtype != DT_INT16 || in->ndims < 1 || tensor_elems(in) != tensor_elems(out))
    error_at(L->g, L->op->index, "16x8 quantization: SOFTMAX needs an int16 output of the "
             "input's size");
  bool tfl = tflite_arithmetic(L);
  need_symmetric(L, out);
  if (tfl) {
    need_symmetric(L, in);
    if (in->ndims > 4)
      error_at(L->g, L->op->index, "int16 SOFTMAX supports ranks 1 to 4 (TFLite)");
  } else if (fabsf(scale_of(L, out) - 1.0f / 32768) > 0.001f * (1.0f / 32768)) {
    error_at(L->g, L->op->index, "an int16 SOFTMAX output must have scale 1/32768");
  }
  ta_softmax_s16_params p = {0};
  p.depth = in->dims[in->ndims - 1];
  p.outer = p.depth ? elems32(in) / p.depth : 0;
  if (p.depth < 1 || p.depth > 65536)
    error_at(L->g, L->op->index, "int16 SOFTMAX: %d values per row (1 to 65536 supported; "
             "more overflow the int32 sum)", (int)p.depth);
  float si = scale_of(L, in), beta = L->op->opt.beta;
  volatile float prod = si * beta;
  double real = tfl ? (double)prod / (10.0 / 65535.0)
                    : (double)si * (double)beta / (10.0 / 65535.0);
  if (!quantize_multiplier(real, TA_ROUND_DOUBLE, &p.input_multiplier,
                           &p.input_left_shift) ||
      p.input_left_shift > 31)
    error_at(L->g, L->op->index, "cannot represent beta * input scale");
  int16_t exp_lut[513], recip_lut[513];
  softmax_s16_luts(tfl, exp_lut, recip_lut);
  L->l->kernel = "ta_softmax_s16";
  const_array(L, "exp_lut", DT_INT16, exp_lut, 513, false);
  const_array(L, "recip_lut", DT_INT16, recip_lut, 513, false);
  const_struct(L, "params", "ta_softmax_s16_params",
               arena_printf("{.outer = %d, .depth = %d, .input_multiplier = %s,\n"
                            "    .input_left_shift = %s, .exp_lut = @exp_lut,\n"
                            "    .one_over_one_plus_x_lut = @recip_lut}",
                            (int)p.outer, (int)p.depth, ilit(p.input_multiplier),
                            ilit(p.input_left_shift)),
               true);
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
  /* Row by row: the maximum first, then element c written after reading
   * element c. */
  may_run_in_place(L, 0);
}

/* ---------------------------------------------------------- QUANTIZE */

/* int32 -> int16 (PrepareQuantizeReference: the effective scale in
 * double, QuantizeMultiplier; Requantize).  int16 -> int32 is lower.c's. */
static void lower_quantize_s16(Lower *L) {
  Tensor *in = input(L, 0), *out = output(L, 0);
  if (tensor_elems(in) != tensor_elems(out))
    error_at(L->g, L->op->index, "input and output sizes differ");
  if (in->q.nscale != 1 || out->q.nscale != 1)
    error_at(L->g, L->op->index, "only per-tensor quantization is supported");
  ta_requant_params p = {.size = (int32_t)tensor_elems(in)};
  if (!requant_params(scale_of(L, in), zp_of(in), scale_of(L, out), zp_of(out),
                      S16_ROUNDING, &p) ||
      p.shift > 30)
    error_at(L->g, L->op->index, "cannot represent the rescaling");
  L->l->kernel = "ta_requantize_s32_s16";
  const_struct(L, "params", "ta_requant_params",
               arena_printf("{.size = %d, .input_zero_point = %s,\n"
                            "    .output_zero_point = %s, .multiplier = %s,\n"
                            "    .shift = %s, .rounding = %s}",
                            (int)p.size, ilit(p.input_zero_point),
                            ilit(p.output_zero_point), ilit(p.multiplier), ilit(p.shift),
                            rounding_str(p.rounding)),
               true);
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
}

/* ------------------------------------------------------------- entry */

static DType dtype_at(const Graph *g, const int *tensors, int n, int k) {
  return k < n && tensors[k] >= 0 ? g->tensors[tensors[k]].dtype : DT_COUNT;
}

static void lower_add_s16(Lower *L) { lower_add_sub_s16(L, false); }
static void lower_sub_s16(Lower *L) { lower_add_sub_s16(L, true); }

LowerFn *lowering_s16(const Graph *g, const Op *op) {
  DType in0 = dtype_at(g, op->inputs, op->ninputs, 0);
  DType out0 = dtype_at(g, op->outputs, op->noutputs, 0);
  switch (op->kind) {
  case OP_CONV_2D:
    return in0 == DT_INT16 ? lower_conv2d_s16 : NULL;
  case OP_DEPTHWISE_CONV_2D:
    return in0 == DT_INT16 ? lower_depthwise_conv2d_s16 : NULL;
  case OP_FULLY_CONNECTED:
    return in0 == DT_INT16 ? lower_fully_connected_s16 : NULL;
  case OP_MUL:
    return in0 == DT_INT16 && out0 == DT_INT16 ? lower_mul_s16 : NULL;
  case OP_TRANSPOSE_CONV: /* inputs: output shape, filter, input, bias */
    return dtype_at(g, op->inputs, op->ninputs, 2) == DT_INT16 ? lower_transpose_conv_s16
                                                              : NULL;
  case OP_ADD:
    return out0 == DT_INT16 ? lower_add_s16 : NULL;
  case OP_SUB:
    return out0 == DT_INT16 ? lower_sub_s16 : NULL;
  case OP_LEAKY_RELU:
    return in0 == DT_INT16 ? lower_leaky_relu_s16 : NULL;
  case OP_RELU:
  case OP_RELU6:
    return in0 == DT_INT16 ? lower_relu_s16 : NULL;
  case OP_LOGISTIC:
    return in0 == DT_INT16 ? lower_logistic_s16 : NULL;
  case OP_TANH:
    return in0 == DT_INT16 ? lower_tanh_s16 : NULL;
  case OP_SOFTMAX:
    return in0 == DT_INT16 ? lower_softmax_s16 : NULL;
  case OP_QUANTIZE:
    return in0 == DT_INT32 && out0 == DT_INT16 ? lower_quantize_s16 : NULL;
  default:
    return NULL;
  }
}
