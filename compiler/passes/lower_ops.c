/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lower_ops.c - lowerings of the element-wise, activation, reduction,
 * shape and resize ops (one function per op kind, listed in lower.c's
 * table).  Same contract as lower.c: pick the kernel, compute on the
 * host everything that does not depend on the input, report what no
 * kernel handles with error_at().
 *
 * Data movement (PAD, TRANSPOSE, STRIDED_SLICE, CONCATENATION, SPLIT,
 * PACK, UNPACK, RESIZE_NEAREST_NEIGHBOR) is lowered by element width, not
 * type: the kernels are _x8/_x16/_x32.  Shapes become walks (ta_walk)
 * with size-1 dimensions dropped and contiguous neighbours merged, so the
 * kernels loop over as few dimensions as possible.  The int8/uint8
 * activations become a 256-entry table (quant_ops.c) and one ta_lut_x8
 * call.
 */
#include "lower.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

/* ------------------------------------------------------------ helpers */

/* "{a, b}" of n values, "{0}" when n == 0 (C has no empty initializer). */
static const char *list(const int32_t *v, int n) {
  return n ? i32_list(v, n) : "{0}";
}

/* ---------------------------------------------------------------- PAD */

void lower_pad(Lower *L) {
  need_arity(L, 2, 1);
  Tensor *in = input(L, 0), *pads = input(L, 1), *out = output(L, 0);
  Tensor *cv = L->op->kind == OP_PADV2 ? optional_input(L, 2) : NULL;
  if (in->dtype != out->dtype)
    unsupported_types(L);
  if (is_quantized_type(in->dtype) && !same_quant(in, out))
    error_at(L->g, L->op->index, "input and output quantization differ");
  int n = in->ndims;
  if (n < 1 || n > TA_MAX_WALK)
    error_at(L->g, L->op->index, "rank %d is not supported (1 to %d)", n, TA_MAX_WALK);
  if (tensor_elems(pads) != 2 * n)
    error_at(L->g, L->op->index, "paddings must be [%d, 2]", n);
  ta_pad_params p = {0};
  p.ndims = n;
  for (int d = 0; d < n; d++) {
    p.in_shape[d] = in->dims[d];
    int64_t b = const_int(L, pads, 2 * d, "paddings"), a = const_int(L, pads, 2 * d + 1, "paddings");
    if (b < 0 || a < 0 || b > INT32_MAX || a > INT32_MAX)
      error_at(L->g, L->op->index, "negative or huge padding on dimension %d", d);
    p.before[d] = (int32_t)b;
    p.after[d] = (int32_t)a;
    if (out->ndims != n || (int64_t)out->dims[d] != b + in->dims[d] + a)
      error_at(L->g, L->op->index, "output shape disagrees with the padding");
  }
  /* The padding value: PADV2's constant, else real 0 (the zero point). */
  if (cv) {
    need_const(L, cv, "constant value");
    if (cv->dtype != out->dtype || tensor_elems(cv) < 1)
      error_at(L->g, L->op->index, "the constant value must be one %s", dtype_name(out->dtype));
    if (is_quantized_type(cv->dtype) && !same_quant(cv, out))
      error_at(L->g, L->op->index, "the constant value's quantization differs from the output's");
    uint32_t v = 0;
    switch (dtype_bits(cv->dtype)) {
    case 8: v = cv->data[0]; break;
    case 16: { uint16_t h; memcpy(&h, cv->data, 2); v = h; break; }
    case 32: memcpy(&v, cv->data, 4); break;
    default: unsupported_types(L);
    }
    p.value = v;
  } else {
    p.value = (uint32_t)zp_of(out); /* 0 for float and unquantized */
    if (dtype_bits(out->dtype) == 8)
      p.value &= 0xFF;
    else if (dtype_bits(out->dtype) == 16)
      p.value &= 0xFFFF;
  }
  L->l->kernel = arena_printf("ta_pad_%s", width_suffix(L, out));
  const_struct(L, "params", "ta_pad_params",
               arena_printf("{.ndims = %d, .in_shape = %s, .before = %s,\n"
                            "    .after = %s, .value = %" PRIu32 "u}",
                            n, list(p.in_shape, n), list(p.before, n), list(p.after, n),
                            p.value),
               true);
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
  /* Overlap (doc/memory-plan.md 2c): ta_pad_run (runtime/shape/pad.h)
   * walks the output once in address order - padding blocks filled,
   * each innermost run copied with memmove from the input, also read in
   * order.  For an NHWC tensor padded in height and width only, output
   * pixel (n, y, x) is written after reading input pixel (n, y - top,
   * x - left) and before anything later: a 1x1 window at stride 1 with
   * that padding, blocks of 1 pixel.  Other paddings (batch, channels,
   * other ranks) are not declared. */
  if (n == 4 && p.before[0] == 0 && p.after[0] == 0 && p.before[3] == 0 && p.after[3] == 0 &&
      dtype_bits(out->dtype) >= 8 && dtype_bits(out->dtype) % 8 == 0) {
    ta_conv_params w = {.stride_h = 1, .stride_w = 1, .dilation_h = 1, .dilation_w = 1,
                        .pad_h = p.before[1], .pad_w = p.before[2]};
    ta_dims di = {in->dims[0], in->dims[1], in->dims[2], in->dims[3]};
    ta_dims dout = {out->dims[0], out->dims[1], out->dims[2], out->dims[3]};
    overlap_windows(L, &w, di, 1, 1, dout, 1, false, (int32_t)(dtype_bits(out->dtype) / 8));
  }
}

/* ---------------------------------------------------------- TRANSPOSE */

void lower_transpose(Lower *L) {
  need_arity(L, 2, 1);
  Tensor *in = input(L, 0), *perm = input(L, 1), *out = output(L, 0);
  need_same_types(L, 1, false);
  int n = in->ndims;
  if (tensor_elems(perm) != n || out->ndims != n)
    error_at(L->g, L->op->index, "the permutation must have %d entries", n);
  int64_t stride[MAX_DIMS];
  strides_of(in, stride);
  int32_t shape[MAX_DIMS];
  int64_t wstride[MAX_DIMS];
  bool used[MAX_DIMS] = {false};
  for (int d = 0; d < n; d++) {
    int k = resolve_axis(L, const_int(L, perm, d, "permutation"), n);
    if (used[k])
      error_at(L->g, L->op->index, "the permutation repeats dimension %d", k);
    used[k] = true;
    shape[d] = in->dims[k];
    wstride[d] = stride[k];
    if (out->dims[d] != in->dims[k])
      error_at(L->g, L->op->index, "output shape disagrees with the permutation");
  }
  ta_walk w = make_walk(L, n, shape, wstride, 0);
  L->l->kernel = arena_printf("ta_transpose_%s", width_suffix(L, out));
  const_struct(L, "walk", "ta_walk", walk_init(&w), true);
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
}

/* --------------------------------------------------------------- MEAN */

/* MEAN as TFLite's EvalMean computes it (the oracle's build; uint8 in
 * both modes, since TFLite Micro has no uint8 MEAN; int8 and int16 with
 * --rounding single).  Three paths:
 *  - a 4-D input with keep_dims and the axis values exactly {1, 2} or
 *    {2, 1} (as written, not normalized): for uint8 and int8 the
 *    optimized Mean (optimized_ops / optimized_integer_ops), the sum
 *    times QuantizeMultiplier(input_scale / (count * output_scale)) plus
 *    bias = output_zero_point - round(input_zero_point * input_scale /
 *    output_scale), all in float (ta_mean_hw_u8, ta_mean_hw_s8); int16
 *    takes one of the other two paths (with reference_integer_ops::Mean
 *    there, 5 of 30 cases differ by 1);
 *  - the same scale and zero point: reference_ops::Mean, sum / count in
 *    integers (ta_mean_div_*);
 *  - else QuantizedMeanOrSum in float (ta_mean_u8, ta_mean_float_*), with
 *    bias = -input_zero_point * scale: the oracle's TFLite has no + 0.5f
 *    there (later versions add one; with it 9 of 30 uint8 cases differ
 *    by 1). */
static void mean_tflite(Lower *L, const Tensor *in, const Tensor *axes, const Tensor *out,
                        ta_mean_params *p) {
  const float si = scale_of(L, in), so = scale_of(L, out);
  const int32_t zi = zp_of(in), zo = zp_of(out);
  const char *sfx = in->dtype == DT_UINT8 ? "u8" : in->dtype == DT_INT8 ? "s8" : "s16";
  /* |input - zero point| is below 256 (8 bits) or 65536 (int16). */
  if (p->count > INT32_MAX / (in->dtype == DT_INT16 ? 65536 : 256))
    error_at(L->g, L->op->index, "reduces %d values per output: the int32 sum may overflow",
             (int)p->count);
  int64_t a0 = -1, a1 = -1;
  if (tensor_elems(axes) == 2) {
    a0 = const_int(L, axes, 0, "axis");
    a1 = const_int(L, axes, 1, "axis");
  }
  const bool hw = L->op->opt.keep_dims && in->ndims == 4 &&
                  ((a0 == 1 && a1 == 2) || (a0 == 2 && a1 == 1));
  p->rounding = TA_ROUND_DOUBLE; /* MultiplyByQuantizedMultiplier, TFLite's build */
  p->input_zero_point = zi;
  p->output_zero_point = zo;
  /* The oracle's TFLite has no 4-D path for int16 (later versions call
   * reference_integer_ops::Mean there, which rounds differently). */
  if (hw && in->dtype != DT_INT16) {
    volatile float num = (float)(in->dims[1] * in->dims[2]);
    volatile float temp = (float)zi * si;
    temp = temp / so;
    temp = temp > 0 ? temp + 0.5f : temp - 0.5f;
    p->output_zero_point = zo - (int32_t)temp;
    volatile float denom = num * so;
    volatile float real = si / denom;
    if (!quantize_multiplier((double)real, TA_ROUND_DOUBLE, &p->multiplier, &p->shift) ||
        p->shift > 30)
      error_at(L->g, L->op->index, "cannot represent the rescaling");
    L->l->kernel = arena_printf("ta_mean_hw_%s", sfx);
  } else if (si == so && zi == zo) {
    L->l->kernel = arena_printf("ta_mean_div_%s", sfx);
  } else {
    volatile float scale = si / so;
    volatile float bias = (float)-zi * scale;
    p->scale = scale;
    p->bias = bias;
    L->l->kernel = in->dtype == DT_UINT8 ? "ta_mean_u8" : arena_printf("ta_mean_float_%s", sfx);
  }
}

void lower_mean(Lower *L) {
  need_arity(L, 2, 1);
  Tensor *in = input(L, 0), *axes = input(L, 1), *out = output(L, 0);
  if (in->dtype != out->dtype)
    unsupported_types(L);
  ta_mean_params p = reduce_walks(L, in, axes, out);
  const int64_t count = p.count;
  if (in->dtype == DT_FLOAT32) {
    L->l->kernel = "ta_mean_f32";
  } else if ((in->dtype == DT_INT8 || in->dtype == DT_UINT8) && L->rounding == TA_ROUND_ORT) {
    /* ONNX Runtime's QLinearGlobalAveragePool (MLAS): the int32 sum less
     * zp * count, times the float scale in / (out * count), rounded half
     * to even (ta_requant_ort()), plus the output zero point. */
    L->l->kernel = in->dtype == DT_INT8 ? "ta_mean_s8" : "ta_mean_ort_u8";
    p.rounding = TA_ROUND_ORT;
    p.input_zero_point = zp_of(in);
    p.output_zero_point = zp_of(out);
    volatile float denom = scale_of(L, out) * (float)count;
    volatile float scale = scale_of(L, in) / denom;
    union {
      float f;
      int32_t i;
    } u = {.f = scale};
    if (!(scale > 0.0f) || !(scale < FLT_MAX))
      error_at(L->g, L->op->index, "cannot represent the rescaling");
    p.multiplier = u.i;
    p.shift = 0;
  } else if ((in->dtype == DT_INT8 || in->dtype == DT_INT16) && !tflite_arithmetic(L)) {
    /* TFLite Micro's EvalIntegerMean; TFLite differs (mean_tflite()). */
    L->l->kernel = in->dtype == DT_INT8 ? "ta_mean_s8" : "ta_mean_s16";
    p.rounding = L->rounding;
    p.input_zero_point = zp_of(in);
    p.output_zero_point = zp_of(out);
    /* QuantizedMeanOrSum, even when input and output quantization are
     * the same (TFLM's tensor dumps show the rounding of that path). */
    if (!mean_multiplier(scale_of(L, in), scale_of(L, out), count, L->rounding,
                         &p.multiplier, &p.shift))
      error_at(L->g, L->op->index, "cannot represent the rescaling");
  } else if (in->dtype == DT_UINT8 || in->dtype == DT_INT8 || in->dtype == DT_INT16) {
    mean_tflite(L, in, axes, out, &p);
  } else {
    unsupported_types(L);
  }
  const_struct(L, "params", "ta_mean_params", mean_init(&p), true);
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
}

/* -------------------------------------------------- binary element-wise */

/* The broadcast walk of the op's two inputs, checked against the output. */
static void bcast_arg(Lower *L, const Tensor *a, const Tensor *b, const Tensor *out) {
  ta_bcast bc = broadcast_of(L, a, b, out);
  const_struct(L, "shape", "ta_bcast", bcast_init(&bc), true);
}

static void add_sub_s32(Lower *L, const char *kernel);

void lower_sub(Lower *L) {
  if (lower_wide_binary(L, "sub"))
    return;
  need_arity(L, 2, 1);
  Tensor *a = input(L, 0), *b = input(L, 1), *out = output(L, 0);
  need_same_types(L, -1, false);
  if (out->dtype == DT_INT32) {
    add_sub_s32(L, "ta_sub_s32");
    return;
  }
  ta_add_params p = {0};
  p.act_min_f32 = -FLT_MAX;
  p.act_max_f32 = FLT_MAX;
  Activation act = L->op->opt.activation;
  if (out->dtype == DT_FLOAT32) {
    if (!activation_range_float(act, &p.act_min_f32, &p.act_max_f32))
      error_at(L->g, L->op->index, "fused activation %d is not supported", (int)act);
    L->l->kernel = "ta_sub_f32";
  } else if (out->dtype == DT_INT8 || out->dtype == DT_UINT8) {
    if (!sub_params(scale_of(L, a), zp_of(a), scale_of(L, b), zp_of(b), scale_of(L, out),
                    zp_of(out), out->dtype, act, L->rounding, &p))
      error_at(L->g, L->op->index, "cannot represent the rescaling of these scales");
    L->l->kernel = out->dtype != DT_INT8 ? "ta_sub_u8"
                   : ta_add_double_ok(&p) ? "ta_sub_double_s8" /* the usual case only */
                                          : "ta_sub_s8";
  } else {
    unsupported_types(L);
  }
  const_struct(L, "params", "ta_add_params", add_init(&p, true, ""), true);
  bcast_arg(L, a, b, out);
  arg_tensor(L, a->index);
  arg_tensor(L, b->index);
  arg_tensor(L, out->index);
  may_run_in_place(L, 0); /* TA_BINARY_LOOP: out[i] after in1/in2 at i */
  may_run_in_place(L, 1);
}

/*
 * --rounding onnxruntime, int8 or uint8 inputs and output: ONNX
 * Runtime's QLinearMul (MLAS's SSE2 kernel, qlmul.cpp): the exact int32
 * product of the offset inputs, times the float ratio in1 * in2 / out,
 * plus the output zero point in float, rounded half to even, with any
 * broadcast (ta_mul_ort_*).
 */
static bool lower_mul_ort(Lower *L, Tensor *a, Tensor *b, Tensor *out) {
  if (!same_type_x8(a, b, out))
    return false;
  ta_mul_ort_params p;
  volatile float ab = scale_of(L, a) * scale_of(L, b);
  volatile float ratio = ab / scale_of(L, out);
  p.ratio = ratio;
  p.output_zero_point = (float)zp_of(out);
  p.zp1 = (int32_t)zp_of(a);
  p.zp2 = (int32_t)zp_of(b);
  float flo, fhi;
  act_range(L, out, &p.act_min, &p.act_max, &flo, &fhi);
  L->l->kernel = out->dtype == DT_INT8 ? "ta_mul_ort_s8" : "ta_mul_ort_u8";
  const_struct(L, "params", "ta_mul_ort_params",
               arena_printf("{.ratio = %s, .output_zero_point = %s, .zp1 = %s, .zp2 = %s, "
                            ".act_min = %s, .act_max = %s}",
                            flit(p.ratio), flit(p.output_zero_point), ilit(p.zp1),
                            ilit(p.zp2), ilit(p.act_min), ilit(p.act_max)),
               true);
  ort_binary_args(L, a, b, out);
  return true;
}

void lower_mul(Lower *L) {
  if (lower_wide_binary(L, "mul"))
    return;
  need_arity(L, 2, 1);
  Tensor *a = input(L, 0), *b = input(L, 1), *out = output(L, 0);
  need_same_types(L, -1, false);
  if (L->rounding == TA_ROUND_ORT) {
    if ((L->op->ref_float && lower_binary_ort_float(L, true)) || lower_mul_ort(L, a, b, out))
      return;
    L->rounding = TA_ROUND_DOUBLE;
  }
  ta_mul_params p = {0};
  p.act_min_f32 = -FLT_MAX;
  p.act_max_f32 = FLT_MAX;
  Activation act = L->op->opt.activation;
  switch (out->dtype) {
  case DT_FLOAT32:
    if (!activation_range_float(act, &p.act_min_f32, &p.act_max_f32))
      error_at(L->g, L->op->index, "fused activation %d is not supported", (int)act);
    L->l->kernel = "ta_mul_f32";
    break;
  case DT_INT32: {
    /* CalculateActivationRange<int32_t>. */
    float lo = -FLT_MAX, hi = FLT_MAX;
    if (!activation_range_float(act, &lo, &hi))
      error_at(L->g, L->op->index, "fused activation %d is not supported", (int)act);
    p.act_min = lo == -FLT_MAX ? INT32_MIN : (int32_t)lo;
    p.act_max = hi == FLT_MAX ? INT32_MAX : (int32_t)hi;
    L->l->kernel = "ta_mul_s32";
    break;
  }
  case DT_INT8:
  case DT_UINT8:
    if (!mul_params(scale_of(L, a), zp_of(a), scale_of(L, b), zp_of(b), scale_of(L, out),
                    zp_of(out), out->dtype, act, tflite_arithmetic(L), L->rounding, &p))
      error_at(L->g, L->op->index, "cannot represent the rescaling of these scales");
    L->l->kernel = out->dtype != DT_INT8 ? "ta_mul_u8"
                   : ta_mul_double_ok(&p) ? "ta_mul_double_s8" /* the usual case only */
                                          : "ta_mul_s8";
    break;
  default:
    unsupported_types(L);
  }
  const_struct(L, "params", "ta_mul_params",
               arena_printf("{.input1_offset = %s, .input2_offset = %s, .output_offset = %s,\n"
                            "    .multiplier = %s, .shift = %s, .act_min = %s, .act_max = %s,\n"
                            "    .rounding = %s, .act_min_f32 = %s, .act_max_f32 = %s}",
                            ilit(p.input1_offset), ilit(p.input2_offset),
                            ilit(p.output_offset), ilit(p.multiplier), ilit(p.shift),
                            ilit(p.act_min), ilit(p.act_max), rounding_str(L->rounding),
                            flit(p.act_min_f32), flit(p.act_max_f32)),
               true);
  bcast_arg(L, a, b, out);
  arg_tensor(L, a->index);
  arg_tensor(L, b->index);
  arg_tensor(L, out->index);
  may_run_in_place(L, 0); /* TA_BINARY_LOOP: out[i] after in1/in2 at i */
  may_run_in_place(L, 1);
}

static void min_max(Lower *L, const char *op) {
  if (lower_wide_binary(L, op))
    return;
  need_arity(L, 2, 1);
  Tensor *a = input(L, 0), *b = input(L, 1), *out = output(L, 0);
  need_same_types(L, -1, false);
  const char *t = out->dtype == DT_INT32 ? "s32" : out->dtype == DT_INT64 ? "s64"
                                                 : short_type(out->dtype);
  if (!t)
    unsupported_types(L);
  L->l->kernel = arena_printf("ta_%s_%s", op, t);
  bcast_arg(L, a, b, out);
  arg_tensor(L, a->index);
  arg_tensor(L, b->index);
  arg_tensor(L, out->index);
  may_run_in_place(L, 0); /* TA_BINARY_LOOP: out[i] after in1/in2 at i */
  may_run_in_place(L, 1);
}

void lower_maximum(Lower *L) { min_max(L, "maximum"); }
void lower_minimum(Lower *L) { min_max(L, "minimum"); }

/* --------------------------------------------------- ADD int32, DIV */

/* CalculateActivationRange<int32_t>: the float range, unbounded as the
 * int32 limits. */
static void int32_act_range(Lower *L, int32_t *lo, int32_t *hi) {
  float flo = -FLT_MAX, fhi = FLT_MAX;
  Activation act = L->op->opt.activation;
  if (!activation_range_float(act, &flo, &fhi))
    error_at(L->g, L->op->index, "fused activation %d is not supported", (int)act);
  *lo = flo == -FLT_MAX ? INT32_MIN : (int32_t)flo;
  *hi = fhi == FLT_MAX ? INT32_MAX : (int32_t)fhi;
}

/* ADD and SUB of int32 tensors (lower_add and lower_sub hand them over):
 * raw two's-complement sums, then the activation's int32 range. */
static void add_sub_s32(Lower *L, const char *kernel) {
  need_arity(L, 2, 1);
  Tensor *a = input(L, 0), *b = input(L, 1), *out = output(L, 0);
  need_same_types(L, -1, false);
  if (a->q.nscale || b->q.nscale || out->q.nscale)
    error_at(L->g, L->op->index, "quantized int32 %s is not supported", op_name(L->op->kind));
  ta_add_params p = {0};
  p.act_min_f32 = -FLT_MAX;
  p.act_max_f32 = FLT_MAX;
  int32_act_range(L, &p.act_min, &p.act_max);
  L->l->kernel = kernel;
  const_struct(L, "params", "ta_add_params", add_init(&p, true, ""), true);
  bcast_arg(L, a, b, out);
  arg_tensor(L, a->index);
  arg_tensor(L, b->index);
  arg_tensor(L, out->index);
}

void lower_add_s32(Lower *L) { add_sub_s32(L, "ta_add_s32"); }

/* DIV: int32 (unquantized) and float32; int8 in lower_math.c. */
void lower_div(Lower *L) {
  if (lower_wide_binary(L, "div"))
    return;
  need_arity(L, 2, 1);
  Tensor *a = input(L, 0), *b = input(L, 1), *out = output(L, 0);
  need_same_types(L, -1, false);
  if (out->dtype == DT_INT8) /* TFLM's quantized DIV: lower_math.c */
    return lower_div_s8(L);
  ta_div_params p = {0, 0, -FLT_MAX, FLT_MAX};
  if (out->dtype == DT_INT32) {
    if (a->q.nscale || b->q.nscale)
      error_at(L->g, L->op->index, "quantized int32 DIV is not supported (as in TFLM)");
    int32_act_range(L, &p.act_min, &p.act_max);
    L->l->kernel = "ta_div_s32";
  } else if (out->dtype == DT_FLOAT32) {
    if (!activation_range_float(L->op->opt.activation, &p.act_min_f32, &p.act_max_f32))
      error_at(L->g, L->op->index, "fused activation %d is not supported",
               (int)L->op->opt.activation);
    L->l->kernel = "ta_div_f32";
  } else {
    unsupported_types(L);
  }
  const_struct(L, "params", "ta_div_params",
               arena_printf("{.act_min = %s, .act_max = %s, .act_min_f32 = %s,\n"
                            "    .act_max_f32 = %s}",
                            ilit(p.act_min), ilit(p.act_max), flit(p.act_min_f32),
                            flit(p.act_max_f32)),
               true);
  bcast_arg(L, a, b, out);
  arg_tensor(L, a->index);
  arg_tensor(L, b->index);
  arg_tensor(L, out->index);
}

/* ------------------------------------------------------ activations */

/* A one-input op as a 256-entry table (int8, uint8) or a float kernel.
 * table(): fills it, false when the parameters are not representable. */
typedef bool TableFn(Lower *L, const Tensor *in, const Tensor *out, uint8_t table[256]);

static void unary(Lower *L, TableFn *table, const char *f32_kernel, float alpha, float lo,
                  float hi) {
  need_arity(L, 1, 1);
  Tensor *in = input(L, 0), *out = output(L, 0);
  if (in->dtype != out->dtype || tensor_elems(in) != tensor_elems(out))
    unsupported_types(L);
  if (in->dtype == DT_FLOAT32 && f32_kernel) {
    L->l->kernel = f32_kernel;
    const_struct(L, "params", "ta_unary_params",
                 arena_printf("{.size = %d, .alpha = %s, .lo = %s, .hi = %s}",
                              (int)elems32(in), flit(alpha), flit(lo), flit(hi)),
                 true);
  } else if ((in->dtype == DT_INT8 || in->dtype == DT_UINT8) && table) {
    uint8_t t[256];
    if (!table(L, in, out, t))
      error_at(L->g, L->op->index, "not supported for these types and quantization (%s)",
               dtypes_str(L));
    L->l->kernel = "ta_lut_x8";
    const_array(L, "table", DT_UINT8, t, 256, false);
    const_struct(L, "params", "ta_lut_params",
                 arena_printf("{.size = %d, .table = @table}", (int)elems32(in)), true);
  } else {
    unsupported_types(L);
  }
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
  may_run_in_place(L, 0); /* out[i] = f(in[i]), a forward loop */
}

/* int8 LOGISTIC and TANH: TFLM's gemmlowp fixed point (the default), or
 * with --rounding single the float table TFLite's builtin kernel fills in
 * its Prepare.  They differ by 1 where the function lies 2.5e-6 steps
 * inside a rounding tie: 2^-7 (TANH 2^-8) from the input zero point
 * (doc/operators.md). */
static bool logistic_fn(Lower *L, const Tensor *in, const Tensor *out, uint8_t t[256]) {
  /* TFLM requires the output zero point -128 (scale 1/256 implied). */
  if (in->dtype == DT_INT8 && zp_of(out) != -128)
    error_at(L->g, L->op->index, "an int8 LOGISTIC output must have zero point -128");
  if (in->dtype == DT_UINT8 || (in->dtype == DT_INT8 && tflite_arithmetic(L))) {
    /* TFLite's float table (TFLM has no uint8); TFLite's Prepare checks
     * the scale */
    if (scale_of(L, out) != 1.0f / 256)
      error_at(L->g, L->op->index, "%s LOGISTIC output must have scale 1/256",
               in->dtype == DT_UINT8 ? "a uint8" : "an int8");
    return float_function_table(in->dtype, false, scale_of(L, in), zp_of(in), scale_of(L, out),
                                zp_of(out), t);
  }
  return logistic_table(in->dtype, scale_of(L, in), zp_of(in), L->rounding, t);
}

static bool tanh_fn(Lower *L, const Tensor *in, const Tensor *out, uint8_t t[256]) {
  if (in->dtype == DT_UINT8 || (in->dtype == DT_INT8 && tflite_arithmetic(L)))
    return float_function_table(in->dtype, true, scale_of(L, in), zp_of(in), scale_of(L, out),
                                zp_of(out), t);
  return tanh_table(in->dtype, scale_of(L, in), zp_of(in), L->rounding, t);
}

static bool hard_swish_fn(Lower *L, const Tensor *in, const Tensor *out, uint8_t t[256]) {
  return hard_swish_table(in->dtype, scale_of(L, in), zp_of(in), scale_of(L, out), zp_of(out),
                          L->rounding, t);
}

static bool leaky_relu_fn(Lower *L, const Tensor *in, const Tensor *out, uint8_t t[256]) {
  return leaky_relu_table(in->dtype, scale_of(L, in), zp_of(in), L->op->opt.alpha,
                          scale_of(L, out), zp_of(out), L->rounding, t);
}

static bool relu_fn(Lower *L, const Tensor *in, const Tensor *out, uint8_t t[256]) {
  return relu_table(in->dtype, 0.0f, INFINITY, scale_of(L, in), zp_of(in), scale_of(L, out),
                    zp_of(out), L->rounding, t);
}

static bool relu6_fn(Lower *L, const Tensor *in, const Tensor *out, uint8_t t[256]) {
  /* TFLM: a clamp of the raw input; TFLite requantizes like uint8. */
  if (in->dtype == DT_INT8 && !tflite_arithmetic(L))
    return relu6_table_tflm(in->dtype, scale_of(L, in), zp_of(in), t);
  return relu_table(in->dtype, 0.0f, 6.0f, scale_of(L, in), zp_of(in), scale_of(L, out),
                    zp_of(out), L->rounding, t);
}

static bool relu_n1_to_1_fn(Lower *L, const Tensor *in, const Tensor *out, uint8_t t[256]) {
  return relu_table(in->dtype, -1.0f, 1.0f, scale_of(L, in), zp_of(in), scale_of(L, out),
                    zp_of(out), L->rounding, t);
}

void lower_logistic(Lower *L) { unary(L, logistic_fn, "ta_logistic_f32", 0, 0, 0); }
void lower_tanh(Lower *L) { unary(L, tanh_fn, "ta_tanh_f32", 0, 0, 0); }
void lower_hard_swish(Lower *L) { unary(L, hard_swish_fn, "ta_hard_swish_f32", 0, 0, 0); }
void lower_leaky_relu(Lower *L) {
  unary(L, leaky_relu_fn, "ta_leaky_relu_f32", L->op->opt.alpha, 0, 0);
}
void lower_relu(Lower *L) { unary(L, relu_fn, "ta_clamp_f32", 0, 0.0f, FLT_MAX); }
void lower_relu6(Lower *L) { unary(L, relu6_fn, "ta_clamp_f32", 0, 0.0f, 6.0f); }
void lower_relu_n1_to_1(Lower *L) {
  unary(L, relu_n1_to_1_fn, "ta_clamp_f32", 0, -1.0f, 1.0f);
}

/* ---------------------------------------------------------------- CAST */

/* ONNX's small types' kernel names (runtime/cast/minifloat.h). */
static const char *small_type(DType dt) {
  switch (dt) {
  case DT_BFLOAT16: return "bf16";
  case DT_FLOAT8E4M3FN: return "e4m3fn";
  case DT_FLOAT8E4M3FNUZ: return "e4m3fnuz";
  case DT_FLOAT8E5M2: return "e5m2";
  case DT_FLOAT8E5M2FNUZ: return "e5m2fnuz";
  case DT_FLOAT8E8M0: return "e8m0";
  case DT_FLOAT4E2M1: return "e2m1";
  case DT_INT4: return "s4";
  case DT_UINT4: return "u4";
  case DT_INT2: return "s2";
  case DT_UINT2: return "u2";
  default: return NULL;
  }
}

/* CAST to or from a small type: from float32/float16 to it, from it to
 * float32/float16, and the sub-byte integers to int8/uint8. */
static void lower_cast_small(Lower *L, const Tensor *in, const Tensor *out) {
  const char *a = small_type(in->dtype), *b = small_type(out->dtype);
  const char *wide = in->dtype == DT_INT4 || in->dtype == DT_INT2 ? "s8" : "u8";
  DType wide_dt = in->dtype == DT_INT4 || in->dtype == DT_INT2 ? DT_INT8 : DT_UINT8;
  bool sub_byte_int = in->dtype == DT_INT4 || in->dtype == DT_UINT4 || in->dtype == DT_INT2 ||
                      in->dtype == DT_UINT2;
  if (a && !b && (out->dtype == DT_FLOAT32 || out->dtype == DT_FLOAT16))
    b = out->dtype == DT_FLOAT32 ? "f32" : "f16";
  else if (a && !b && sub_byte_int && out->dtype == wide_dt)
    b = wide;
  else if (!a && b && (in->dtype == DT_FLOAT32 || in->dtype == DT_FLOAT16))
    a = in->dtype == DT_FLOAT32 ? "f32" : "f16";
  else
    unsupported_types(L);
  L->l->kernel = arena_printf("ta_cast_%s_%s", a, b);
  add_arg(L, ARG_INT, -1, elems32(in));
  bool float8 = out->dtype == DT_FLOAT8E4M3FN || out->dtype == DT_FLOAT8E4M3FNUZ ||
                out->dtype == DT_FLOAT8E5M2 || out->dtype == DT_FLOAT8E5M2FNUZ ||
                out->dtype == DT_FLOAT8E8M0;
  if (float8)
    add_arg(L, ARG_INT, -1, L->op->opt.cast_no_saturate ? 0 : 1);
  if (out->dtype == DT_FLOAT8E8M0)
    add_arg(L, ARG_INT, -1, L->op->opt.cast_round_mode);
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
}

void lower_cast(Lower *L) {
  need_arity(L, 1, 1);
  Tensor *in = input(L, 0), *out = output(L, 0);
  if (small_type(in->dtype) || small_type(out->dtype)) {
    if (tensor_elems(in) != tensor_elems(out))
      unsupported_types(L);
    lower_cast_small(L, in, out);
    return;
  }
  const char *a = in->dtype == DT_INT32 ? "s32" : short_type(in->dtype);
  const char *b = out->dtype == DT_INT32 ? "s32" : short_type(out->dtype);
  /* uint16 (ONNX): to and from float32 only. */
  if ((in->dtype == DT_UINT16 && out->dtype == DT_FLOAT32) ||
      (in->dtype == DT_FLOAT32 && out->dtype == DT_UINT16)) {
    a = in->dtype == DT_UINT16 ? "u16" : "f32";
    b = out->dtype == DT_UINT16 ? "u16" : "f32";
  }
  /* float16 and float64 (ONNX Cast): to and from the floats only. */
  bool f16_f64 = in->dtype == DT_FLOAT16 || in->dtype == DT_FLOAT64 ||
                 out->dtype == DT_FLOAT16 || out->dtype == DT_FLOAT64;
  if (f16_f64) {
    const DType fl[3] = {DT_FLOAT16, DT_FLOAT32, DT_FLOAT64};
    const char *fn[3] = {"f16", "f32", "f64"};
    a = b = NULL;
    for (int k = 0; k < 3; k++) {
      if (in->dtype == fl[k])
        a = fn[k];
      if (out->dtype == fl[k])
        b = fn[k];
    }
  }
  if (!a || !b || tensor_elems(in) != tensor_elems(out))
    unsupported_types(L);
  L->l->kernel = arena_printf("ta_cast_%s_%s", a, b);
  add_arg(L, ARG_INT, -1, elems32(in));
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
}

/* ----------------------------------------------------------- ARG_MAX */

static void arg_min_max(Lower *L, const char *op) {
  need_arity(L, 2, 1);
  Tensor *in = input(L, 0), *axis = input(L, 1), *out = output(L, 0);
  const char *t = in->dtype == DT_INT32 ? "s32" : short_type(in->dtype);
  if (!t || (out->dtype != DT_INT32 && out->dtype != DT_INT64))
    unsupported_types(L);
  if (tensor_elems(axis) != 1)
    error_at(L->g, L->op->index, "the axis must be one value");
  int a = resolve_axis(L, const_int(L, axis, 0, "axis"), in->ndims);
  ta_arg_params p = {1, 1, 1, dtype_bits(out->dtype)};
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < in->ndims; d++) {
    if (d < a)
      outer *= in->dims[d];
    else if (d > a)
      inner *= in->dims[d];
  }
  p.outer = (int32_t)outer;
  p.axis = in->dims[a];
  p.inner = (int32_t)inner;
  if (p.axis < 1 || outer * inner != tensor_elems(out))
    error_at(L->g, L->op->index, "output shape disagrees with the reduced axis");
  L->l->kernel = arena_printf("ta_%s_%s", op, t);
  const_struct(L, "params", "ta_arg_params",
               arena_printf("{.outer = %d, .axis = %d, .inner = %d, .out_bits = %d}",
                            (int)p.outer, (int)p.axis, (int)p.inner, (int)p.out_bits),
               true);
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
  /* Overlap (doc/memory-plan.md 2c): over the last axis (inner 1) the
   * kernel (runtime/reduce/ta_arg_m*_*.c) reads row o's axis values,
   * then writes output o, then goes on to row o + 1: pixel-wise over
   * the view [outer, axis] -> [outer, 1]. */
  if (p.inner == 1 && dtype_bits(in->dtype) >= 8 && dtype_bits(in->dtype) % 8 == 0)
    overlap_pixels(L, outer, p.axis, (int32_t)(dtype_bits(in->dtype) / 8), 1,
                   p.out_bits / 8);
}

void lower_arg_max(Lower *L) { arg_min_max(L, "arg_max"); }
void lower_arg_min(Lower *L) { arg_min_max(L, "arg_min"); }

/* ------------------------------------ CONCATENATION, PACK, SPLIT, ... */

/* ta_concatenation_x8 / ta_split_x8 over `n` tensors whose blocks along
 * `axis` (of the rank-`rank` shape `dims`) differ only in `axis_size`:
 * outer = product of the dimensions before axis, block k = axis_size[k]
 * times everything after it, in bytes. */
static void blocks(Lower *L, bool concat, int n, const int32_t *dims, int rank, int axis,
                   const int64_t *axis_size, size_t elem) {
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; d++)
    outer *= dims[d];
  for (int d = axis + 1; d < rank; d++)
    inner *= dims[d];
  int32_t *bytes = arena_array((size_t)n, sizeof(int32_t));
  for (int k = 0; k < n; k++) {
    int64_t b = axis_size[k] * inner * (int64_t)elem;
    if (b > INT32_MAX)
      error_at(L->g, L->op->index, "tensor too large");
    bytes[k] = (int32_t)b;
  }
  L->l->kernel = concat ? "ta_concatenation_x8" : "ta_split_x8";
  const_i32(L, "bytes", bytes, (size_t)n, false);
  const_struct(L, "params", "ta_concat_params",
               arena_printf("{.n = %d, .outer = %d, .bytes = @bytes}", n, (int)outer), true);
  if (concat) {
    add_arg(L, ARG_INPUTS, 0, n);
    arg_tensor(L, L->op->outputs[0]);
  } else {
    arg_tensor(L, L->op->inputs[L->op->kind == OP_SPLIT ? 1 : 0]);
    add_arg(L, ARG_OUTPUTS, 0, n);
  }
}

/* Is `a` the shape of `b` without b's dimension `axis` (axis < 0: the
 * same shape)?  PACK's inputs and UNPACK's outputs against the other side. */
static bool same_dims_but(const Tensor *a, const Tensor *b, int axis) {
  if (a->ndims != b->ndims - (axis >= 0))
    return false;
  for (int d = 0, e = 0; d < b->ndims; d++)
    if (d != axis && a->dims[e++] != b->dims[d])
      return false;
  return true;
}

static size_t elem_bytes(Lower *L, const Tensor *t) {
  int bits = dtype_bits(t->dtype);
  if (bits < 8 || bits % 8)
    error_at(L->g, L->op->index, "%s tensors are not supported by this op",
             dtype_name(t->dtype));
  return (size_t)bits / 8;
}

/* uint8 CONCATENATION with rescaled inputs (ConcatenationWithScaling):
 * scale = input_scale * (1 / output_scale), bias = -zero_point * scale,
 * in float as TFLite computes them. */
static void concat_rescale(Lower *L, const Tensor *out, int axis, const int64_t *sizes) {
  int n = L->op->ninputs;
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; d++)
    outer *= out->dims[d];
  for (int d = axis + 1; d < out->ndims; d++)
    inner *= out->dims[d];
  int32_t *bytes = arena_array((size_t)n, 4), *copy = arena_array((size_t)n, 4);
  float *scale = arena_array((size_t)n, 4), *bias = arena_array((size_t)n, 4);
  const float inverse = 1.0f / scale_of(L, out);
  for (int k = 0; k < n; k++) {
    const Tensor *x = input(L, k);
    if (sizes[k] * inner > INT32_MAX)
      error_at(L->g, L->op->index, "tensor too large");
    bytes[k] = (int32_t)(sizes[k] * inner);
    copy[k] = same_quant(x, out);
    scale[k] = scale_of(L, x) * inverse;
    bias[k] = (float)-zp_of(x) * scale[k];
  }
  L->l->kernel = "ta_concatenation_requant_u8";
  const_i32(L, "bytes", bytes, (size_t)n, false);
  const_i32(L, "copy", copy, (size_t)n, false);
  const_array(L, "scale", DT_FLOAT32, scale, (size_t)n, false);
  const_array(L, "bias", DT_FLOAT32, bias, (size_t)n, false);
  const_struct(L, "params", "ta_concat_u8_params",
               arena_printf("{.n = %d, .outer = %d, .bytes = @bytes, .copy = @copy,\n"
                            "    .scale = @scale, .bias = @bias, .output_zero_point = %s}",
                            n, (int)outer, ilit(zp_of(out))),
               true);
  add_arg(L, ARG_INPUTS, 0, n);
  arg_tensor(L, L->op->outputs[0]);
}

void lower_concatenation(Lower *L) {
  Op *op = L->op;
  if (op->ninputs < 1 || op->noutputs != 1)
    error_at(L->g, op->index, "needs inputs and one output");
  Tensor *out = output(L, 0);
  if (op->opt.activation != ACT_NONE)
    error_at(L->g, op->index, "a fused activation is not supported");
  need_same_types(L, -1, false);
  /* TFLM copies int8/int16 bytes whatever the quantization; TFLite
   * rescales uint8 inputs whose quantization differs. */
  bool rescale = false;
  for (int k = 0; k < op->ninputs; k++)
    rescale |= out->dtype == DT_UINT8 && !same_quant(input(L, k), out);
  int rank = out->ndims;
  int axis = resolve_axis(L, op->opt.axis, rank);
  int64_t *sizes = arena_array((size_t)op->ninputs, sizeof(int64_t));
  int64_t total = 0;
  for (int k = 0; k < op->ninputs; k++) {
    Tensor *x = input(L, k);
    if (x->ndims != rank)
      error_at(L->g, op->index, "input %d has rank %d, the output %d", k, x->ndims, rank);
    for (int d = 0; d < rank; d++)
      if (d != axis && x->dims[d] != out->dims[d])
        error_at(L->g, op->index, "input %d's shape disagrees with the output's", k);
    sizes[k] = x->dims[axis];
    total += sizes[k];
  }
  if (total != out->dims[axis])
    error_at(L->g, op->index, "the inputs do not add up to the output along the axis");
  if (rescale)
    concat_rescale(L, out, axis, sizes);
  else
    blocks(L, true, op->ninputs, out->dims, rank, axis, sizes, elem_bytes(L, out));
}

void lower_pack(Lower *L) {
  Op *op = L->op;
  if (op->ninputs < 1 || op->noutputs != 1)
    error_at(L->g, op->index, "needs inputs and one output");
  need_same_types(L, -1, false);
  Tensor *in0 = input(L, 0), *out = output(L, 0);
  int rank = in0->ndims + 1;
  int axis = resolve_axis(L, op->opt.axis, rank);
  if (out->ndims != rank || out->dims[axis] != op->ninputs ||
      !same_dims_but(in0, out, axis))
    error_at(L->g, op->index, "output shape disagrees with %d packed inputs", op->ninputs);
  int64_t *sizes = arena_array((size_t)op->ninputs, sizeof(int64_t));
  for (int k = 0; k < op->ninputs; k++) {
    if (!same_dims_but(input(L, k), in0, -1))
      error_at(L->g, op->index, "input %d's shape differs from input 0's", k);
    sizes[k] = 1;
  }
  blocks(L, true, op->ninputs, out->dims, rank, axis, sizes, elem_bytes(L, out));
}

void lower_unpack(Lower *L) {
  Op *op = L->op;
  if (op->ninputs < 1 || op->noutputs < 1)
    error_at(L->g, op->index, "needs an input and outputs");
  need_same_types(L, -1, false);
  Tensor *in = input(L, 0);
  int axis = resolve_axis(L, op->opt.axis, in->ndims);
  if (in->dims[axis] != op->noutputs)
    error_at(L->g, op->index, "dimension %d has %d values for %d outputs", axis,
             (int)in->dims[axis], op->noutputs);
  int64_t *sizes = arena_array((size_t)op->noutputs, sizeof(int64_t));
  for (int k = 0; k < op->noutputs; k++) {
    if (!same_dims_but(output(L, k), in, axis))
      error_at(L->g, op->index, "output %d's shape disagrees with the input's", k);
    sizes[k] = 1;
  }
  blocks(L, false, op->noutputs, in->dims, in->ndims, axis, sizes, elem_bytes(L, in));
}

/* SPLIT (axis, input) and SPLIT_V (input, size_splits, axis). */
static void split(Lower *L, bool v) {
  Op *op = L->op;
  need_arity(L, v ? 3 : 2, op->noutputs);
  if (op->noutputs < 1)
    error_at(L->g, op->index, "has no outputs");
  Tensor *in = input(L, v ? 0 : 1), *axis_t = input(L, v ? 2 : 0);
  for (int k = 0; k < op->noutputs; k++)
    if (output(L, k)->dtype != in->dtype)
      unsupported_types(L);
  if (tensor_elems(axis_t) != 1)
    error_at(L->g, op->index, "the axis must be one value");
  int axis = resolve_axis(L, const_int(L, axis_t, 0, "axis"), in->ndims);
  int64_t *sizes = arena_array((size_t)op->noutputs, sizeof(int64_t));
  int64_t total = 0;
  for (int k = 0; k < op->noutputs; k++) {
    Tensor *o = output(L, k);
    if (o->ndims != in->ndims)
      error_at(L->g, op->index, "output %d has rank %d, the input %d", k, o->ndims, in->ndims);
    for (int d = 0; d < in->ndims; d++)
      if (d != axis && o->dims[d] != in->dims[d])
        error_at(L->g, op->index, "output %d's shape disagrees with the input's", k);
    sizes[k] = o->dims[axis];
    total += sizes[k];
  }
  if (total != in->dims[axis])
    error_at(L->g, op->index, "the outputs do not add up to the input along the axis");
  blocks(L, false, op->noutputs, in->dims, in->ndims, axis, sizes, elem_bytes(L, in));
}

void lower_split(Lower *L) { split(L, false); }
void lower_split_v(Lower *L) { split(L, true); }

/* ---------------------------------------------- RESIZE_NEAREST_NEIGHBOR */

/* The [new_height, new_width] input of the resize ops, checked. */
static void resize_shape(Lower *L, const Tensor *in, const Tensor *out) {
  const Tensor *size = input(L, 1);
  if (in->ndims != 4 || out->ndims != 4 || tensor_elems(size) != 2)
    error_at(L->g, L->op->index, "needs a rank-4 input and output and a 2-value size");
  if (const_int(L, size, 0, "size") != out->dims[1] ||
      const_int(L, size, 1, "size") != out->dims[2] || out->dims[0] != in->dims[0] ||
      out->dims[3] != in->dims[3])
    error_at(L->g, L->op->index, "output shape disagrees with the size input");
  if (in->dims[1] < 1 || in->dims[2] < 1)
    error_at(L->g, L->op->index, "the input is empty");
}

void lower_resize_nearest_neighbor(Lower *L) {
  need_arity(L, 2, 1);
  Tensor *in = input(L, 0), *out = output(L, 0);
  need_same_types(L, 1, false);
  resize_shape(L, in, out);
  const Options *o = &L->op->opt;
  ta_dims di = dims4(L, in), dout = dims4(L, out);
  int32_t *ymap = arena_array((size_t)dout.h + 1, sizeof(int32_t));
  int32_t *xmap = arena_array((size_t)dout.w + 1, sizeof(int32_t));
  for (int32_t y = 0; y < dout.h; y++)
    ymap[y] = nearest_neighbor(y, di.h, dout.h, o->align_corners, o->half_pixel_centers);
  for (int32_t x = 0; x < dout.w; x++)
    xmap[x] = nearest_neighbor(x, di.w, dout.w, o->align_corners, o->half_pixel_centers);
  L->l->kernel = arena_printf("ta_resize_nearest_%s", width_suffix(L, out));
  const_i32(L, "y_map", ymap, (size_t)dout.h, false);
  const_i32(L, "x_map", xmap, (size_t)dout.w, false);
  const_struct(L, "params", "ta_resize_params",
               arena_printf("{.batches = %d, .in_h = %d, .in_w = %d, .depth = %d,\n"
                            "    .out_h = %d, .out_w = %d, .y_map = @y_map, .x_map = @x_map}",
                            (int)di.n, (int)di.h, (int)di.w, (int)di.c, (int)dout.h,
                            (int)dout.w),
               true);
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
}

/* ---------------------------------------------------- RESIZE_BILINEAR */

/* One axis of a bilinear resize: per output index, the two source
 * indices and the sample position, in float (ComputeInterpolationValues)
 * and in 10-bit fixed point (ComputeInterpolationValuesInteger). */
static void bilinear_axis(int32_t in, int32_t out, bool align, bool half, int32_t *lo,
                          int32_t *hi, float *pos, int32_t *lo_i, int32_t *hi_i,
                          int32_t *frac) {
  float scale = (float)in / (float)out;
  if (align && out > 1)
    scale = (float)(in - 1) / (float)(out - 1);
  int32_t scale_10 = ((1 << 10) * in + out / 2) / out;
  if (align && out > 1)
    scale_10 = ((1 << 10) * (in - 1) + (out - 1) / 2) / (out - 1);
  for (int32_t i = 0; i < out; i++) {
    const float v = (float)i;
    const float s = half ? (v + 0.5f) * scale - 0.5f : v * scale;
    const int32_t f = (int32_t)floorf(s), c = (int32_t)ceilf(s);
    pos[i] = s;
    lo[i] = f > 0 ? f : 0;
    hi[i] = c < in - 1 ? c : in - 1;
    const int32_t si = half ? i * scale_10 + scale_10 / 2 - (1 << 9) : i * scale_10;
    const int32_t l = si / (1 << 10), h = (si + (1 << 10) - 1) / (1 << 10);
    /* ComputeInterpolationValuesInteger clamps only the upper index: with
     * a scale rounded up (a large upsampling, such as 2 -> 65) the last
     * outputs' lower index reaches the input size and TFLite and TFLM read
     * past the row.  Clamped, both taps are the edge value (the weights
     * still sum to 1024). */
    lo_i[i] = l > 0 ? (l < in - 1 ? l : in - 1) : 0;
    hi_i[i] = h < in - 1 ? h : in - 1;
    frac[i] = si - (1 << 10) * lo_i[i];
  }
}

void lower_resize_bilinear(Lower *L) {
  need_arity(L, 2, 1);
  Tensor *in = input(L, 0), *out = output(L, 0);
  need_same_types(L, 1, false);
  resize_shape(L, in, out);
  const Options *o = &L->op->opt;
  if (o->align_corners && o->half_pixel_centers)
    error_at(L->g, L->op->index, "align_corners and half_pixel_centers cannot both be set");
  /* int8 and int16: ResizeBilinearInteger (TFLite Micro has no int16
   * RESIZE_BILINEAR: both modes follow TFLite's, which rounds half away
   * from zero in the oracle's build); uint8 and float: float weights. */
  bool integer = out->dtype == DT_INT8 || out->dtype == DT_INT16;
  if (out->dtype == DT_INT8 || out->dtype == DT_UINT8 || out->dtype == DT_INT16) {
    if (!same_quant(in, out))
      error_at(L->g, L->op->index, "input and output quantization differ");
  } else if (out->dtype != DT_FLOAT32) {
    unsupported_types(L);
  }
  ta_dims di = dims4(L, in), dout = dims4(L, out);
  /* ComputeInterpolationValuesInteger works in int32: 1024 * size and
   * index * scale_10 overflow beyond 2^20 (TFLite's and TFLM's too). */
  const int32_t limit = 1 << 20;
  if (di.h > limit || di.w > limit || dout.h > limit || dout.w > limit)
    error_at(L->g, L->op->index, "heights and widths above %d overflow the resize's "
             "fixed-point index arithmetic (input %dx%d, output %dx%d)", (int)limit,
             (int)di.h, (int)di.w, (int)dout.h, (int)dout.w);
  size_t nh = (size_t)dout.h + 1, nw = (size_t)dout.w + 1;
  int32_t *ylo = arena_array(nh, 4), *yhi = arena_array(nh, 4), *ylo_i = arena_array(nh, 4),
          *yhi_i = arena_array(nh, 4), *yfrac = arena_array(nh, 4);
  int32_t *xlo = arena_array(nw, 4), *xhi = arena_array(nw, 4), *xlo_i = arena_array(nw, 4),
          *xhi_i = arena_array(nw, 4), *xfrac = arena_array(nw, 4);
  float *ypos = arena_array(nh, 4), *xpos = arena_array(nw, 4);
  bilinear_axis(di.h, dout.h, o->align_corners, o->half_pixel_centers, ylo, yhi, ypos, ylo_i,
                yhi_i, yfrac);
  bilinear_axis(di.w, dout.w, o->align_corners, o->half_pixel_centers, xlo, xhi, xpos, xlo_i,
                xhi_i, xfrac);
  L->l->kernel = arena_printf("ta_resize_bilinear_%s", short_type(out->dtype));
  const_i32(L, "y_lo", integer ? ylo_i : ylo, (size_t)dout.h, false);
  const_i32(L, "y_hi", integer ? yhi_i : yhi, (size_t)dout.h, false);
  const_i32(L, "x_lo", integer ? xlo_i : xlo, (size_t)dout.w, false);
  const_i32(L, "x_hi", integer ? xhi_i : xhi, (size_t)dout.w, false);
  if (integer) {
    const_i32(L, "y_frac", yfrac, (size_t)dout.h, false);
    const_i32(L, "x_frac", xfrac, (size_t)dout.w, false);
  } else {
    const_array(L, "y_in", DT_FLOAT32, ypos, (size_t)dout.h, false);
    const_array(L, "x_in", DT_FLOAT32, xpos, (size_t)dout.w, false);
  }
  const_struct(L, "params", "ta_bilinear_params",
               arena_printf("{.batches = %d, .in_h = %d, .in_w = %d, .depth = %d,\n"
                            "    .out_h = %d, .out_w = %d, .y_lo = @y_lo, .y_hi = @y_hi,\n"
                            "    .x_lo = @x_lo, .x_hi = @x_hi, %s,\n    .rounding = %s}",
                            (int)di.n, (int)di.h, (int)di.w, (int)di.c, (int)dout.h,
                            (int)dout.w,
                            integer ? ".y_frac = @y_frac, .x_frac = @x_frac"
                                    : ".y_in = @y_in, .x_in = @x_in",
                            rounding_str(L->rounding)),
               true);
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
}

/* ------------------------------------------------------ STRIDED_SLICE */

static int32_t clamp32(int64_t v, int64_t lo, int64_t hi) {
  return (int32_t)(v < lo ? lo : v > hi ? hi : v);
}

/* A STRIDED_SLICE with its ellipsis and new axes expanded: one entry
 * per dimension of the "effective input" (the input's shape with a 1
 * inserted for each new axis), as TFLite's BuildStridedSliceParams
 * (kernels/strided_slice.cc) makes it. */
typedef struct {
  int n;
  int32_t dims[MAX_DIMS];
  int64_t begin[MAX_DIMS], end[MAX_DIMS], stride[MAX_DIMS];
  bool bmask[MAX_DIMS], emask[MAX_DIMS], shrink[MAX_DIMS];
  int input_dim[MAX_DIMS]; /* the input dimension, or -1 for a new axis */
} SliceSpec;

static bool bit(int mask, int i) { return i < 31 && (mask >> i & 1); }

/*
 * TFLite's expansion of the k slice specs (begin/end/strides entries)
 * over an input of rank n:
 * - the effective rank is n plus the specs with a new-axis bit (and no
 *   ellipsis bit: an ellipsis bit wins);
 * - the ellipsis spans at least one dimension, and as many as the specs
 *   leave over: from its position up to position + 1 + new axes + n - k,
 *   capped at the effective rank; each spanned dimension is taken whole;
 * - a new axis is a dimension of size 1, range [0, 1);
 * - the dimensions after the last spec are taken whole (the specs are
 *   padded at the back, as numpy does);
 * - the other dimensions take their spec: begin, end, stride, and their
 *   begin/end/shrink bits.
 * TFLite takes the new-axis bit of a spec after the ellipsis from its
 * spec position; so does this.  TFLite Micro ignores both masks (it sets
 * them to 0 and reads one spec per input dimension), so models with
 * them are not TFLM models: tinyaot follows TFLite for every rounding.
 */
static int64_t clamp64(int64_t v, int64_t lo, int64_t hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

static SliceSpec slice_spec(Lower *L, const Tensor *in, const Tensor *begin, const Tensor *end,
                            const Tensor *strides) {
  const Options *o = &L->op->opt;
  int n = in->ndims, k = (int)tensor_elems(begin);
  if (tensor_elems(end) != k || tensor_elems(strides) != k)
    error_at(L->g, L->op->index, "begin, end and strides need the same number of values");
  if (k > MAX_DIMS)
    error_at(L->g, L->op->index, "%d slice specs; at most %d are supported", k, MAX_DIMS);
  int ellipses = 0;
  for (int i = 0; i < 31; i++)
    ellipses += bit(o->ellipsis_mask, i);
  if (ellipses > 1)
    error_at(L->g, L->op->index, "ellipsis_mask 0x%x has more than one bit: one ellipsis at most",
             (unsigned)o->ellipsis_mask);
  int nnew = 0;
  for (int i = 0; i < k; i++)
    nnew += !bit(o->ellipsis_mask, i) && bit(o->new_axis_mask, i);
  SliceSpec s = {.n = n + nnew};
  if (s.n > MAX_DIMS)
    error_at(L->g, L->op->index, "%d dimensions with the new axes; at most %d are supported",
             s.n, MAX_DIMS);
  /* Which effective dimensions the ellipsis spans, which are new axes. */
  bool in_ellipsis[MAX_DIMS] = {false}, is_new[MAX_DIMS] = {false};
  int ellipsis_start = s.n, expanded = 0;
  for (int i = 0; i < s.n;) {
    if (bit(o->ellipsis_mask, i)) {
      int stop = i + 1 + nnew + n - k;
      if (stop > s.n)
        stop = s.n;
      if (stop < i + 1)
        stop = i + 1;
      ellipsis_start = i;
      expanded = stop - i - 1;
      for (; i < stop; i++)
        in_ellipsis[i] = true;
      continue;
    }
    is_new[i] = bit(o->new_axis_mask, i - expanded);
    i++;
  }
  int added = 0, shift = 0;
  for (int i = 0; i < s.n; i++) {
    s.stride[i] = 1;
    s.input_dim[i] = -1;
    if (is_new[i] && !in_ellipsis[i]) {
      s.dims[i] = 1;
      s.begin[i] = 0;
      s.end[i] = 1;
      added++;
      continue;
    }
    int d = i - added;
    if (d >= n)
      error_at(L->g, L->op->index, "the new axes and the ellipsis do not fit an input of rank %d",
               n);
    s.dims[i] = in->dims[d];
    s.input_dim[i] = d;
    if (in_ellipsis[i]) {
      shift = i - ellipsis_start;
      s.bmask[i] = s.emask[i] = true;
    } else if (i >= k + expanded) {
      s.bmask[i] = s.emask[i] = true;
    } else {
      int j = i - shift; /* the spec of this dimension */
      /* int64 specs clamped beyond any dimension (< 2^31) and strides to
       * int32 (TFLite's StridedSliceParams hold int32): the slice is the
       * same and lower_strided_slice()'s arithmetic cannot overflow. */
      const int64_t big = INT64_C(1) << 40;
      s.begin[i] = clamp64(const_int(L, begin, j, "begin"), -big, big);
      s.end[i] = clamp64(const_int(L, end, j, "end"), -big, big);
      s.stride[i] = clamp64(const_int(L, strides, j, "strides"), INT32_MIN, INT32_MAX);
      s.bmask[i] = bit(o->begin_mask, j);
      s.emask[i] = bit(o->end_mask, j);
      s.shrink[i] = bit(o->shrink_axis_mask, j);
    }
  }
  if (added != nnew)
    error_at(L->g, L->op->index, "the new axes and the ellipsis do not fit an input of rank %d",
             n);
  return s;
}

/* STRIDED_SLICE as a walk (reference_ops::StridedSlice): the specs
 * expanded by slice_spec(), then per dimension StridedSliceStartForAxis
 * and StridedSliceEndForAxis (strided_slice_logic.h): negative indices
 * count from the end, then clamp to [0, size] (stride > 0) or
 * [-1, size - 1]; a begin/end mask bit takes the whole axis; a shrink
 * axis takes one element; `offset` makes end relative to begin.  The
 * output visits start, start + stride, ... while short of the end, axis
 * by axis, for every element type (the kernels move 8, 16 or 32 bits). */
void lower_strided_slice(Lower *L) {
  need_arity(L, 4, 1);
  Tensor *in = input(L, 0), *begin = input(L, 1), *end = input(L, 2);
  Tensor *strides = input(L, 3), *out = output(L, 0);
  if (in->dtype != out->dtype)
    unsupported_types(L);
  need_const(L, begin, "begin");
  need_const(L, end, "end");
  need_const(L, strides, "strides");
  const Options *o = &L->op->opt;
  SliceSpec s = slice_spec(L, in, begin, end, strides);
  int64_t stride_in[MAX_DIMS];
  strides_of(in, stride_in);
  int32_t shape[MAX_DIMS], out_shape[MAX_DIMS];
  int64_t wstride[MAX_DIMS];
  int64_t offset = 0, nout = 1;
  int nshape = 0;
  for (int d = 0; d < s.n; d++) {
    int64_t b = s.begin[d], e = s.end[d], st = s.stride[d], size = s.dims[d];
    if (st == 0)
      error_at(L->g, L->op->index, "stride 0 on dimension %d", d);
    /* StridedSliceStartForAxis. */
    int64_t start = b < 0 ? b + size : b;
    start = st > 0 ? clamp32(start, 0, size) : clamp32(start, -1, size - 1);
    if (s.bmask[d])
      start = st > 0 ? 0 : size - 1;
    /* StridedSliceEndForAxis. */
    int64_t stop;
    if (s.shrink[d]) {
      stop = start >= size ? start : start + 1;
    } else {
      stop = o->offset ? e + start : e;
      if (stop < 0)
        stop += size;
      stop = st > 0 ? clamp32(stop, 0, size) : clamp32(stop, -1, size - 1);
      if (s.emask[d])
        stop = st > 0 ? size : -1;
    }
    int64_t count = st > 0 ? (stop - start + st - 1) / st : (start - stop - st - 1) / -st;
    if (count < 0)
      count = 0;
    shape[d] = (int32_t)count;
    if (!s.shrink[d])
      out_shape[nshape++] = (int32_t)count;
    int64_t step = s.input_dim[d] >= 0 ? stride_in[s.input_dim[d]] : 0;
    wstride[d] = step * st;
    if (count > 0)
      offset += start * step;
    nout *= count;
  }
  if (nout != tensor_elems(out))
    error_at(L->g, L->op->index, "output has %" PRId64 " values, the slice %" PRId64,
             tensor_elems(out), nout);
  if (nout > 0 && (out->ndims != nshape ||
                   memcmp(out->dims, out_shape, (size_t)nshape * sizeof(int32_t)) != 0))
    error_at(L->g, L->op->index, "the output's shape is not the slice's");
  ta_walk w = make_walk(L, s.n, shape, wstride, nout > 0 ? offset : 0);
  L->l->kernel = arena_printf("ta_strided_slice_%s", width_suffix(L, out));
  const_struct(L, "walk", "ta_walk", walk_init(&w), true);
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
}

/* ----------------------------------------------------- TRANSPOSE_CONV */

/* Inputs: output shape (int32 [4]), filter OHWI, input, optional bias.
 * Padding as TFLite Micro computes it: ComputePaddingHeightWidth on the
 * output size.  The fused activation (TransposeConvOptions field 3, in
 * schemas since TFLite 2.14; older files leave it out: NONE) clamps the
 * outputs as in CONV_2D, after the bias (float) or the requantization
 * and output zero point (integers), as TFLite's kernel does. */
void lower_transpose_conv(Lower *L) {
  need_arity(L, 3, 1);
  Tensor *shape = input(L, 0), *filter = input(L, 1), *in = input(L, 2);
  Tensor *bias = optional_input(L, 3), *out = output(L, 0);
  bool f32 = in->dtype == DT_FLOAT32 && filter->dtype == DT_FLOAT32 &&
             out->dtype == DT_FLOAT32 && (!bias || bias->dtype == DT_FLOAT32);
  bool s8 = in->dtype == DT_INT8 && filter->dtype == DT_INT8 && out->dtype == DT_INT8 &&
            (!bias || bias->dtype == DT_INT32);
  bool u8 = in->dtype == DT_UINT8 && filter->dtype == DT_UINT8 && out->dtype == DT_UINT8 &&
            (!bias || bias->dtype == DT_INT32);
  if (!f32 && !s8 && !u8)
    unsupported_types(L);
  if (in->ndims != 4 || filter->ndims != 4 || out->ndims != 4 || tensor_elems(shape) != 4)
    error_at(L->g, L->op->index, "input, filter, output and output shape must have rank 4");
  need_const(L, filter, "filter");
  if (bias)
    need_const(L, bias, "bias");
  for (int d = 0; d < 4; d++)
    if (const_int(L, shape, d, "output shape") != out->dims[d])
      error_at(L->g, L->op->index, "the output shape input disagrees with the output");
  const Options *opt = &L->op->opt;
  ta_dims di = dims4(L, in), df = dims4(L, filter), dout = dims4(L, out);
  if (df.n != dout.c || df.c != di.c || di.n != dout.n)
    error_at(L->g, L->op->index, "the filter does not fit the channels");
  if (bias && tensor_elems(bias) != dout.c)
    error_at(L->g, L->op->index, "bias size disagrees with the output channels");
  ta_conv_params p = {0};
  p.stride_h = opt->stride_h;
  p.stride_w = opt->stride_w;
  p.dilation_h = p.dilation_w = 1;
  if (p.stride_h < 1 || p.stride_w < 1)
    error_at(L->g, L->op->index, "strides must be positive");
  /* The kernel computes input row * stride + filter row in int32. */
  if ((int64_t)di.h * p.stride_h + df.h > INT32_MAX ||
      (int64_t)di.w * p.stride_w + df.w > INT32_MAX)
    error_at(L->g, L->op->index, "stride %dx%d is too large for this input",
             (int)p.stride_w, (int)p.stride_h);
  int32_t unused;
  compute_padding(opt->padding, dout.h, df.h, p.stride_h, 1, &unused, &p.pad_h);
  compute_padding(opt->padding, dout.w, df.w, p.stride_w, 1, &unused, &p.pad_w);
  act_range(L, out, &p.act_min, &p.act_max, &p.act_min_f32, &p.act_max_f32);
  if (u8) {
    /* TFLite's uint8 kernel: one multiplier from the float product of
     * the scales (GetQuantizedConvolutionMultipler), a filter zero point. */
    p.input_offset = -zp_of(in);
    p.output_offset = zp_of(out);
    int32_t mult, shift;
    if (filter->q.nscale != 1 ||
        !fc_multiplier(scale_of(L, in), filter->q.scale[0], scale_of(L, out), L->rounding,
                       &mult, &shift))
      error_at(L->g, L->op->index, "cannot represent the requantization scale");
    L->l->kernel = "ta_transpose_conv_u8";
    const_struct(L, "params", "ta_conv_params", conv_init(&p), true);
    const_i32(L, "mult", &mult, 1, false);
    const_i32(L, "shift", &shift, 1, false);
    const_struct(L, "quant", "ta_quant", quant_init(0, L->rounding, 0), true);
    add_arg(L, ARG_INT, -1, -zp_of(filter));
  } else if (s8) {
    p.input_offset = -zp_of(in);
    p.output_offset = zp_of(out);
    int nch = filter->q.nscale;
    if (nch != 1 && (nch != dout.c || filter->q.axis != 0))
      error_at(L->g, L->op->index, "filter quantization must be per tensor or per output "
               "channel (axis 0)");
    int32_t *mult = arena_array((size_t)nch, 4), *shift = arena_array((size_t)nch, 4);
    for (int c = 0; c < nch; c++) {
      if (filter->q.zero_point && filter->q.zero_point[c] != 0)
        error_at(L->g, L->op->index, "int8 filters must be symmetric");
      if (!conv_multiplier(scale_of(L, in), filter->q.scale[c], scale_of(L, out),
                           L->rounding, &mult[c], &shift[c]))
        error_at(L->g, L->op->index, "cannot represent the requantization scale");
    }
    L->l->kernel = "ta_transpose_conv_s8";
    const_struct(L, "params", "ta_conv_params", conv_init(&p), true);
    const_i32(L, "mult", mult, (size_t)nch, false);
    const_i32(L, "shift", shift, (size_t)nch, false);
    const_struct(L, "quant", "ta_quant", quant_init(nch > 1, L->rounding, 0), true);
  } else {
    L->l->kernel = "ta_transpose_conv_f32";
    const_struct(L, "params", "ta_conv_params", conv_init(&p), true);
  }
  conv_tensor_args(L, di, in, df, filter, bias, dout, out);
  if (s8 || u8) {
    arg_scratch(L);
    L->op->scratch_bytes = ta_transpose_conv_s8_scratch_size(&p, &di, &df, &dout);
  }
}

/* -------------------------------------------------------------- SLICE */

/* SLICE (reference_ops::Slice): begin and size constant, size -1 = to
 * the end; the same walk kernel as STRIDED_SLICE, every step 1. */
void lower_slice(Lower *L) {
  need_arity(L, 3, 1);
  Tensor *in = input(L, 0), *begin = input(L, 1), *size = input(L, 2), *out = output(L, 0);
  if (in->dtype != out->dtype)
    unsupported_types(L);
  int n = in->ndims;
  if (tensor_elems(begin) != n || tensor_elems(size) != n || out->ndims != n)
    error_at(L->g, L->op->index, "begin and size need one value per dimension");
  int64_t stride[MAX_DIMS], offset = 0;
  int32_t shape[MAX_DIMS];
  strides_of(in, stride);
  for (int d = 0; d < n; d++) {
    int64_t b = const_int(L, begin, d, "begin"), s = const_int(L, size, d, "size");
    if (s == -1)
      s = in->dims[d] - b;
    if (b < 0 || s < 0 || b + s > in->dims[d])
      error_at(L->g, L->op->index, "slice [%" PRId64 ", +%" PRId64 ") is outside dimension "
               "%d of size %d", b, s, d, (int)in->dims[d]);
    if (out->dims[d] != s)
      error_at(L->g, L->op->index, "output shape disagrees with the slice");
    shape[d] = (int32_t)s;
    offset += b * stride[d];
  }
  ta_walk w = make_walk(L, n, shape, stride, tensor_elems(out) ? offset : 0);
  L->l->kernel = arena_printf("ta_strided_slice_%s", width_suffix(L, out));
  const_struct(L, "walk", "ta_walk", walk_init(&w), true);
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
}

/* -------------------------------------------------------- RESIZE_TAPS */

/* RESIZE_TAPS (float32, NHWC): inputs x, y_idx [out_h, taps_h] (int32),
 * y_w (float32, same shape), x_idx [out_w, taps_w], x_w; the tables are
 * constants (the ONNX front end computes them).  With the attribute
 * extrapolation_value (tf_crop_and_resize), a table row of -1 marks an
 * output row or column outside the crop, which takes that value. */
static void taps_in_range(Lower *L, Tensor *idx, int64_t in, const char *what) {
  const Attr *extra = op_attr(L->op, "extrapolation_value");
  int64_t taps = idx->dims[1];
  for (int64_t k = 0; k < tensor_elems(idx); k++) {
    int64_t v = const_int(L, idx, k, what), first = const_int(L, idx, k - k % taps, what);
    bool outside = extra && first == -1 && v == -1;
    if (!outside && (v < 0 || v >= in))
      error_at(L->g, L->op->index, "%s tap %lld is outside the input", what, (long long)k);
  }
}

void lower_resize_taps(Lower *L) {
  need_arity(L, 5, 1);
  Tensor *in = input(L, 0), *out = output(L, 0);
  Tensor *yi = input(L, 1), *yw = input(L, 2), *xi = input(L, 3), *xw = input(L, 4);
  if (in->dtype != DT_FLOAT32 || out->dtype != DT_FLOAT32 || yi->dtype != DT_INT32 ||
      xi->dtype != DT_INT32 || yw->dtype != DT_FLOAT32 || xw->dtype != DT_FLOAT32)
    unsupported_types(L);
  if (in->ndims != 4 || out->ndims != 4 || yi->ndims != 2 || xi->ndims != 2 ||
      yw->ndims != 2 || xw->ndims != 2 || out->dims[0] != in->dims[0] ||
      out->dims[3] != in->dims[3] || yi->dims[0] != out->dims[1] ||
      xi->dims[0] != out->dims[2] || yw->dims[0] != yi->dims[0] ||
      yw->dims[1] != yi->dims[1] || xw->dims[0] != xi->dims[0] || xw->dims[1] != xi->dims[1] ||
      yi->dims[1] < 1 || xi->dims[1] < 1 || in->dims[1] < 1 || in->dims[2] < 1)
    error_at(L->g, L->op->index, "needs rank-4 images and tap tables [out_h, taps] and "
             "[out_w, taps] of matching shapes");
  if (!is_const(yi) || !is_const(yw) || !is_const(xi) || !is_const(xw))
    error_at(L->g, L->op->index, "the tap tables must be constant");
  taps_in_range(L, yi, in->dims[1], "row");
  taps_in_range(L, xi, in->dims[2], "column");
  const Attr *extra = op_attr(L->op, "extrapolation_value");
  ta_dims di = dims4(L, in), dout = dims4(L, out);
  L->l->kernel = "ta_resize_taps_f32";
  const_struct(L, "params", "ta_resize_taps_params",
               arena_printf("{.batches = %d, .in_h = %d, .in_w = %d, .depth = %d,\n"
                            "    .out_h = %d, .out_w = %d, .taps_h = %d, .taps_w = %d,\n"
                            "    .extrapolation = %s}",
                            (int)di.n, (int)di.h, (int)di.w, (int)di.c, (int)dout.h,
                            (int)dout.w, (int)yi->dims[1], (int)xi->dims[1],
                            flit(extra ? (float)extra->f : 0.0f)),
               true);
  for (int k = 0; k < 5; k++)
    arg_tensor(L, L->op->inputs[k]);
  arg_tensor(L, out->index);
}
