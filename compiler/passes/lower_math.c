/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lower_math.c - lowerings of the element-wise math, comparison and logic
 * ops: ABS, NEG, SQRT, RSQRT, SQUARE, EXP, LOG, SIN, COS, CEIL, FLOOR,
 * ROUND, ELU, ERF, POW, SQUARED_DIFFERENCE, FLOOR_DIV, FLOOR_MOD, DIV (int8),
 * EQUAL ... LESS_EQUAL, LOGICAL_AND / OR / NOT, SELECT, SELECT_V2,
 * ZEROS_LIKE, PRELU, LOG_SOFTMAX (float32, int8) and ADD_N.
 *
 * Needs: the op being lowered (lower.h).  Guarantees: a kernel of
 * runtime/elementwise/ (ta_kernels_math.h) and its parameters, or
 * error_at() naming what is not supported.
 *
 * The dtypes are TensorFlow Lite Micro's: float32 for the math functions;
 * int8 as TFLM computes it where TFLM has it.  An int8 op of one input is
 * a 256-entry table (ta_lut_x8) filled here with TFLM's own integer
 * arithmetic for every input byte - ABS and RSQRT (elementwise.cc: a
 * requantization, GetInvSqrtQuantizedMultiplierExp), ELU (elu.cc: the
 * float function, rounded) - so the device only looks values up.  Binary
 * int8 ops (comparisons, SQUARED_DIFFERENCE, DIV, PRELU) get
 * TFLM's Prepare parameters computed here and do their arithmetic in
 * the kernel.  doc/operators.md lists every op x dtype and where TFLite's
 * arithmetic differs.
 */
#include "tinyaot.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "lower.h"
#include "ta_fixedpoint.h"

/* ------------------------------------------------------------ helpers */

static bool is_bool(const Tensor *t) { return t->dtype == DT_BOOL; }

/* Every input and output of the op has the dtype of output 0 (inputs
 * from `first` on). */
static void need_one_dtype(Lower *L, int first) {
  DType dt = output(L, 0)->dtype;
  for (int k = first; k < L->op->ninputs; k++)
    if (input(L, k)->dtype != dt)
      unsupported_types(L);
}

/* The walk of a two-input op, passed as &shape. */
static void bcast_args(Lower *L, const Tensor *a, const Tensor *b, const Tensor *out) {
  ta_bcast bc = broadcast_of(L, a, b, out);
  const_struct(L, "shape", "ta_bcast", bcast_init(&bc), true);
  arg_tensor(L, a->index);
  arg_tensor(L, b->index);
  arg_tensor(L, out->index);
}

static void unary_params(Lower *L, const Tensor *in) {
  const_struct(L, "params", "ta_unary_params",
               arena_printf("{.size = %" PRId64 "}", tensor_elems(in)), true);
}

/* The kernel "ta_<op>_<t>" with t the short name of dtype dt (bool:
 * "bool"), or an error for a dtype the op has no kernel for. */
static const char *kernel_for(Lower *L, const char *op, DType dt) {
  const char *t = dt == DT_BOOL ? "bool" : dt == DT_INT64 ? "s64" : short_type(dt);
  if (!t)
    unsupported_types(L);
  return arena_printf("ta_%s_%s", op, t);
}

/* ------------------------------------------------- one-input ops */

/* int8 tables: entry (uint8_t)q is the output for input byte q. */
typedef void TableFill(Lower *L, const Tensor *in, const Tensor *out, uint8_t t[256]);

/* A one-input op: float32 (and bool for LOGICAL_NOT) by `op`'s kernel,
 * int8 through `table` when the op has one. */
static void unary_op(Lower *L, const char *op, TableFill *table) {
  need_arity(L, 1, 1);
  Tensor *in = input(L, 0), *out = output(L, 0);
  if (in->dtype != out->dtype || tensor_elems(in) != tensor_elems(out))
    unsupported_types(L);
  if (in->dtype == DT_INT8 && table) {
    uint8_t t[256];
    table(L, in, out, t);
    L->l->kernel = "ta_lut_x8";
    const_array(L, "table", DT_UINT8, t, 256, false);
    const_struct(L, "params", "ta_lut_params",
                 arena_printf("{.size = %d, .table = @table}", (int)elems32(in)), true);
  } else if (in->dtype == DT_FLOAT32 || (is_bool(in) && !strcmp(op, "logical_not"))) {
    L->l->kernel = kernel_for(L, op, in->dtype);
    unary_params(L, in);
  } else {
    unsupported_types(L);
  }
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
  may_run_in_place(L, 0); /* out[i] = f(in[i]), a forward loop */
}

static int32_t clamp_s8(int64_t v) { return v < -128 ? -128 : v > 127 ? 127 : (int32_t)v; }

/* ABS int8 (TFLM AbsEvalQuantized): |q - in_zp|, requantized by
 * in_scale / out_scale unless the scales are equal, plus out_zp. */
static void abs_table(Lower *L, const Tensor *in, const Tensor *out, uint8_t t[256]) {
  float si = scale_of(L, in), so = scale_of(L, out);
  int32_t mult = 0, shift = 0;
  bool rescale = si != so;
  if (rescale && !quantize_multiplier((double)si / (double)so, L->rounding, &mult, &shift))
    error_at(L->g, L->op->index, "cannot represent the rescaling of these scales");
  for (int q = -128; q < 128; q++) {
    int32_t v = q - zp_of(in);
    v = v < 0 ? -v : v;
    if (rescale)
      v = ta_requant(v, mult, shift, L->rounding);
    t[(uint8_t)q] = (uint8_t)(int8_t)clamp_s8((int64_t)v + zp_of(out));
  }
}

/*
 * GetInvSqrtQuantizedMultiplierExp (kernels/internal/common.h) with
 * reverse_shift -1: 1 / sqrt(x) for x > 1 as a Q0.31 multiplier and a
 * left shift, by five Newton-Raphson steps in gemmlowp's Q3.28 (the
 * fixed-point products are SaturatingRoundingDoublingHighMul, Rescale a
 * saturating shift); x <= 1 gives INT32_MAX and shift 0.
 */
static void inv_sqrt_multiplier(int32_t x, int32_t *mult, int32_t *shift) {
  if (x <= 1) {
    *mult = INT32_MAX;
    *shift = 0;
    return;
  }
  int s = 11;
  while (x >= (1 << 29)) {
    x /= 4;
    s++;
  }
  int max_left_shift_bits = ta_clz32((uint32_t)x) - 1;
  int pairs = max_left_shift_bits / 2 - 1;
  s -= pairs;
  x = (int32_t)((uint32_t)x << (2 * pairs));
  const int32_t input = x >> 1;                  /* Q3.28 */
  const int32_t half_input = ta_rdbpot(input, 1); /* x / 2 */
  const int32_t half_three = (1 << 28) + (1 << 27); /* 1.5 in Q3.28 */
  int32_t r = 1 << 28;                            /* 1.0 */
  for (int i = 0; i < 5; i++) {
    /* x^3 is Q9.22 -> Q3.28: << 6; the differences Q6.25 -> Q3.28: << 3. */
    int32_t r3 = ta_sat_shl(ta_srdhm(ta_srdhm(r, r), r), 6);
    r = ta_sat_shl(ta_wrap_sub(ta_srdhm(half_three, r), ta_srdhm(half_input, r3)), 3);
  }
  r = ta_srdhm(r, 1518500250); /* times sqrt(2) / 2 in Q0.31: still Q3.28 */
  if (s < 0) {
    r = (int32_t)((uint32_t)r << -s);
    s = 0;
  }
  *mult = r;
  *shift = -s;
}

/* RSQRT int8 (TFLM RsqrtEvalQuantized): v = q - in_zp; v == 0 gives 127;
 * else 1/sqrt(v) as a multiplier, applied to 1 << 20 and requantized by
 * 1 / (sqrt(in_scale) * out_scale) >> 20, plus out_zp.  Inputs below the
 * zero point (negative reals) make TFLM's and TFLite's Eval fail; the
 * table gives 127 for them. */
static void rsqrt_table(Lower *L, const Tensor *in, const Tensor *out, uint8_t t[256]) {
  const int32_t k_shift = 20;
  double real = 1.0 / (sqrt((double)scale_of(L, in)) * (double)scale_of(L, out));
  int32_t mult, shift;
  if (!quantize_multiplier(real, L->rounding, &mult, &shift))
    error_at(L->g, L->op->index, "cannot represent the rescaling of these scales");
  for (int q = -128; q < 128; q++) {
    int32_t v = q - zp_of(in);
    if (v <= 0) {
      t[(uint8_t)q] = 127;
      continue;
    }
    int32_t im, is;
    inv_sqrt_multiplier(v, &im, &is);
    int32_t data = ta_requant(1, im, is + k_shift, L->rounding);
    int64_t o = (int64_t)ta_requant(data, mult, shift - k_shift, L->rounding) + zp_of(out);
    t[(uint8_t)q] = (uint8_t)(int8_t)clamp_s8(o);
  }
}

/* ELU int8 (TFLM elu.cc PopulateLookupTable, as TFLite's): the float ELU
 * of the dequantized input - exp(x) - 1 in float, not expm1 as the float
 * kernel - rounded (roundf) at the output scale, plus out_zp. */
static void elu_table(Lower *L, const Tensor *in, const Tensor *out, uint8_t t[256]) {
  float si = scale_of(L, in), inv = 1.0f / scale_of(L, out);
  for (int q = -128; q < 128; q++) {
    float x = si * (float)(q - zp_of(in));
    float y = x < 0.0f ? expf(x) - 1.0f : x;
    float r = roundf(y * inv);
    int32_t v = (int32_t)(r + (float)zp_of(out));
    t[(uint8_t)q] = (uint8_t)(int8_t)clamp_s8(v);
  }
}

/* ABS int16: zero points 0 when quantized (TFLM's Prepare). */
static void abs_s16(Lower *L) {
  need_arity(L, 1, 1);
  Tensor *in = input(L, 0), *out = output(L, 0);
  if (out->dtype != DT_INT16 || tensor_elems(in) != tensor_elems(out) ||
      (in->q.nscale == 0) != (out->q.nscale == 0))
    unsupported_types(L);
  ta_abs_params p = {elems32(in), in->q.nscale > 0, 0, 0, 0};
  if (p.quantized) {
    if (zp_of(in) || zp_of(out))
      error_at(L->g, L->op->index, "int16 ABS needs zero points 0");
    float si = scale_of(L, in), so = scale_of(L, out);
    p.rescale = si != so;
    if (p.rescale &&
        !quantize_multiplier((double)si / (double)so, L->rounding, &p.multiplier, &p.shift))
      error_at(L->g, L->op->index, "cannot represent the rescaling of these scales");
  }
  L->l->kernel = "ta_abs_s16";
  const_struct(L, "params", "ta_abs_params",
               arena_printf("{.size = %d, .quantized = %d, .rescale = %d, .multiplier = %s,"
                            " .shift = %s}",
                            (int)p.size, (int)p.quantized, (int)p.rescale, ilit(p.multiplier),
                            ilit(p.shift)),
               true);
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
  may_run_in_place(L, 0);
}

void lower_abs(Lower *L) {
  if (L->op->ninputs >= 1 && input(L, 0)->dtype == DT_INT16)
    abs_s16(L);
  else
    unary_op(L, "abs", abs_table);
}
void lower_neg(Lower *L) { unary_op(L, "neg", NULL); }
void lower_sqrt(Lower *L) { unary_op(L, "sqrt", NULL); }
void lower_rsqrt(Lower *L) { unary_op(L, "rsqrt", rsqrt_table); }
void lower_square(Lower *L) { unary_op(L, "square", NULL); }
void lower_exp(Lower *L) { unary_op(L, "exp", NULL); }
void lower_log(Lower *L) { unary_op(L, "log", NULL); }
void lower_sin(Lower *L) { unary_op(L, "sin", NULL); }
void lower_cos(Lower *L) { unary_op(L, "cos", NULL); }
void lower_ceil(Lower *L) { unary_op(L, "ceil", NULL); }
void lower_floor(Lower *L) { unary_op(L, "floor", NULL); }
void lower_round(Lower *L) { unary_op(L, "round", NULL); }
void lower_elu(Lower *L) { unary_op(L, "elu", elu_table); }
void lower_erf(Lower *L) { unary_op(L, "erf", NULL); }
void lower_logical_not(Lower *L) { unary_op(L, "logical_not", NULL); }

/* ZEROS_LIKE: zero bytes of the output's size, whatever its type. */
void lower_zeros_like(Lower *L) {
  need_arity(L, 1, 1);
  Tensor *in = input(L, 0), *out = output(L, 0);
  if (in->dtype != out->dtype || tensor_elems(in) != tensor_elems(out))
    unsupported_types(L);
  if (out->dtype != DT_FLOAT32 && out->dtype != DT_INT32 && out->dtype != DT_INT64)
    unsupported_types(L); /* TFLM's zeros_like.cc: int32, int64, float32 */
  L->l->kernel = "ta_zeros_like_x8";
  const_struct(L, "params", "ta_unary_params",
               arena_printf("{.size = %zu}", tensor_bytes(out)), true);
  arg_tensor(L, out->index);
}

/* ------------------------------------------------- two-input ops */

/* The rescaling of one int8 input as TFLM's ComparisonsPrepare computes
 * it: QuantizeMultiplierSmallerThanOneExp(scale). */
static void input_rescale(Lower *L, const Tensor *t, int32_t *mult, int32_t *shift) {
  double s = (double)scale_of(L, t);
  if (!quantize_multiplier_smaller_than_one_exp(s, L->rounding, mult, shift))
    error_at(L->g, L->op->index,
             "tensor %d's scale %g is not below 1, which TFLM's int8 comparison needs",
             t->index, s);
}

/* EQUAL ... LESS_EQUAL: float32, int32, int64, bool (EQUAL, NOT_EQUAL) raw;
 * int8, and int16 for GREATER, rescaled (ComparisonsPrepare: left_shift
 * 8). */
static void compare(Lower *L, const char *op) {
  if (lower_wide_binary(L, op))
    return;
  need_arity(L, 2, 1);
  Tensor *a = input(L, 0), *b = input(L, 1), *out = output(L, 0);
  if (a->dtype != b->dtype || !is_bool(out))
    unsupported_types(L);
  bool eq = !strcmp(op, "equal") || !strcmp(op, "not_equal");
  if (is_bool(a) && !eq)
    unsupported_types(L);
  if (a->dtype == DT_INT16 && strcmp(op, "greater"))
    unsupported_types(L); /* TFLM's GreaterEval alone has an int16 case */
  if (a->dtype == DT_INT8 || a->dtype == DT_INT16) {
    ta_add_params p = {0};
    p.input1_offset = -zp_of(a);
    p.input2_offset = -zp_of(b);
    p.left_shift = 8;
    input_rescale(L, a, &p.input1_multiplier, &p.input1_shift);
    input_rescale(L, b, &p.input2_multiplier, &p.input2_shift);
    p.rounding = L->rounding;
    const_struct(L, "params", "ta_add_params", add_init(&p, false, ""), true);
  } else if (a->dtype != DT_FLOAT32 && a->dtype != DT_INT32 && a->dtype != DT_INT64 &&
             !is_bool(a)) {
    unsupported_types(L);
  }
  L->l->kernel = kernel_for(L, op, a->dtype);
  bcast_args(L, a, b, out);
  may_run_in_place(L, 0); /* only when bytes in = bytes out: TA_BINARY_LOOP */
}

void lower_equal(Lower *L) { compare(L, "equal"); }
void lower_not_equal(Lower *L) { compare(L, "not_equal"); }
void lower_greater(Lower *L) { compare(L, "greater"); }
void lower_greater_equal(Lower *L) { compare(L, "greater_equal"); }
void lower_less(Lower *L) { compare(L, "less"); }
void lower_less_equal(Lower *L) { compare(L, "less_equal"); }

/* A binary op of raw values with one dtype throughout: `types` lists
 * the dtypes it takes. */
static void raw_binary(Lower *L, const char *op, const DType *types, int ntypes) {
  need_arity(L, 2, 1);
  need_one_dtype(L, 0);
  Tensor *a = input(L, 0), *b = input(L, 1), *out = output(L, 0);
  bool ok = false;
  for (int i = 0; i < ntypes; i++)
    ok |= out->dtype == types[i];
  if (!ok || (out->dtype != DT_BOOL && (a->q.nscale || b->q.nscale)))
    unsupported_types(L);
  L->l->kernel = kernel_for(L, op, out->dtype);
  bcast_args(L, a, b, out);
  may_run_in_place(L, 0); /* TA_BINARY_LOOP: out[i] after in1/in2 at i */
  may_run_in_place(L, 1);
}

static const DType f32_s32[] = {DT_FLOAT32, DT_INT32};
static const DType only_bool[] = {DT_BOOL};

void lower_floor_div(Lower *L) { raw_binary(L, "floor_div", f32_s32, 2); }
void lower_floor_mod(Lower *L) { raw_binary(L, "floor_mod", f32_s32, 2); }
static const DType f32_s32_s64[] = {DT_FLOAT32, DT_INT32, DT_INT64};
void lower_pow(Lower *L) { raw_binary(L, "pow", f32_s32_s64, 3); }
void lower_logical_and(Lower *L) { raw_binary(L, "logical_and", only_bool, 1); }
void lower_logical_or(Lower *L) { raw_binary(L, "logical_or", only_bool, 1); }

/* SQUARED_DIFFERENCE: float32 and int32 raw; int8 (left_shift 7) and
 * int16 (zero points 0, left_shift 0) as TFLM's PrepareQuantized. */
void lower_squared_difference(Lower *L) {
  need_arity(L, 2, 1);
  need_one_dtype(L, 0);
  Tensor *a = input(L, 0), *b = input(L, 1), *out = output(L, 0);
  if (out->dtype == DT_INT8 || out->dtype == DT_INT16) {
    bool s16 = out->dtype == DT_INT16;
    if (s16 && (zp_of(a) || zp_of(b) || zp_of(out)))
      error_at(L->g, L->op->index, "int16 SQUARED_DIFFERENCE needs zero points 0");
    ta_add_params p = {0};
    p.input1_offset = -zp_of(a);
    p.input2_offset = -zp_of(b);
    p.output_offset = zp_of(out);
    p.left_shift = s16 ? 0 : 7;
    float sa = scale_of(L, a), sb = scale_of(L, b), so = scale_of(L, out);
    double twice_max = 2.0 * (double)(sa > sb ? sa : sb);
    double real_out = twice_max * twice_max /
                      (double)((float)(1 << (2 * p.left_shift)) * so);
    if (!quantize_multiplier_smaller_than_one_exp((double)sa / twice_max, L->rounding,
                                                  &p.input1_multiplier, &p.input1_shift) ||
        !quantize_multiplier_smaller_than_one_exp((double)sb / twice_max, L->rounding,
                                                  &p.input2_multiplier, &p.input2_shift) ||
        !quantize_multiplier(real_out, L->rounding, &p.output_multiplier, &p.output_shift))
      error_at(L->g, L->op->index, "cannot represent the rescaling of these scales");
    p.act_min = s16 ? INT16_MIN : INT8_MIN;
    p.act_max = s16 ? INT16_MAX : INT8_MAX;
    p.rounding = L->rounding;
    const_struct(L, "params", "ta_add_params", add_init(&p, false, ""), true);
  } else if (out->dtype != DT_FLOAT32 && out->dtype != DT_INT32) {
    unsupported_types(L);
  }
  L->l->kernel = kernel_for(L, "squared_difference", out->dtype);
  bcast_args(L, a, b, out);
  may_run_in_place(L, 0);
  may_run_in_place(L, 1);
}

/* DIV int8 (TFLM div.cc CalculateOpDataDiv): the multiplier
 * s1 / (s2 * so), computed in float and then widened, as TFLM does.
 * Other dtypes: lower_ops.c's lower_div. */
void lower_div_s8(Lower *L) {
  need_arity(L, 2, 1);
  need_one_dtype(L, 0);
  Tensor *a = input(L, 0), *b = input(L, 1), *out = output(L, 0);
  ta_add_params p = {0};
  float flo, fhi;
  act_range(L, out, &p.act_min, &p.act_max, &flo, &fhi);
  float real = scale_of(L, a) / (scale_of(L, b) * scale_of(L, out));
  if (!quantize_multiplier((double)real, L->rounding, &p.output_multiplier, &p.output_shift))
    error_at(L->g, L->op->index, "cannot represent the rescaling of these scales");
  p.input1_offset = -zp_of(a);
  p.input2_offset = -zp_of(b);
  p.output_offset = zp_of(out);
  p.rounding = L->rounding;
  L->l->kernel = "ta_div_s8";
  const_struct(L, "params", "ta_add_params", add_init(&p, false, ""), true);
  bcast_args(L, a, b, out);
  may_run_in_place(L, 0);
  may_run_in_place(L, 1);
}

/* PRELU: alpha broadcast against the input (and the output has the
 * input's shape).  int8 as TFLM's prelu.cc: in / out and in * alpha / out
 * as QuantizeMultiplier(double). */
void lower_prelu(Lower *L) {
  need_arity(L, 2, 1);
  need_one_dtype(L, 0);
  Tensor *x = input(L, 0), *alpha = input(L, 1), *out = output(L, 0);
  if (out->dtype == DT_INT8) {
    double si = scale_of(L, x), sa = scale_of(L, alpha), so = scale_of(L, out);
    ta_prelu_params p = {-zp_of(x), -zp_of(alpha), zp_of(out), 0, 0, 0, 0};
    if (!quantize_multiplier(si / so, L->rounding, &p.mult_pos, &p.shift_pos) ||
        !quantize_multiplier(si * sa / so, L->rounding, &p.mult_neg, &p.shift_neg))
      error_at(L->g, L->op->index, "cannot represent the rescaling of these scales");
    const_struct(L, "params", "ta_prelu_params",
                 arena_printf("{.input_offset = %s, .alpha_offset = %s, .output_offset = %s,\n"
                              "    .mult_pos = %s, .shift_pos = %s, .mult_neg = %s,"
                              " .shift_neg = %s}",
                              ilit(p.input_offset), ilit(p.alpha_offset),
                              ilit(p.output_offset), ilit(p.mult_pos), ilit(p.shift_pos),
                              ilit(p.mult_neg), ilit(p.shift_neg)),
                 true);
  } else if (out->dtype != DT_FLOAT32) {
    unsupported_types(L);
  }
  L->l->kernel = kernel_for(L, "prelu", out->dtype);
  bcast_args(L, x, alpha, out);
  may_run_in_place(L, 0);
}

/* ------------------------------------------------- SELECT, SELECT_V2 */

/* Strides of tensor t (rank n, right-aligned) along each of the nd
 * output dimensions: 0 where t has size 1 or no dimension. */
static bool select_strides(const Tensor *t, const int32_t *shape, int nd, int32_t *stride) {
  int64_t s = 1;
  for (int d = nd - 1; d >= 0; d--) {
    int k = d - (nd - t->ndims);
    int32_t dim = k >= 0 ? t->dims[k] : 1;
    if (dim != 1 && dim != shape[d])
      return false;
    stride[d] = dim == 1 ? 0 : (int32_t)s;
    s *= dim;
  }
  return true;
}

/* SELECT_V2 broadcasts condition, x and y to the output; SELECT (v1)
 * takes a condition of the same shape or, rank 1, one value per row of
 * x's first dimension. */
static void select_op(Lower *L, bool v2) {
  need_arity(L, 3, 1);
  Tensor *c = input(L, 0), *x = input(L, 1), *y = input(L, 2), *out = output(L, 0);
  if (!is_bool(c) || x->dtype != out->dtype || y->dtype != out->dtype)
    unsupported_types(L);
  ta_select_shape s = {0};
  s.ndims = out->ndims ? out->ndims : 1;
  for (int d = 0; d < s.ndims; d++)
    s.shape[d] = out->ndims ? out->dims[d] : 1;
  if (out->ndims > TA_MAX_DIMS)
    error_at(L->g, L->op->index, "rank %d is more than the kernel's %d", out->ndims,
             TA_MAX_DIMS);
  bool ok = select_strides(x, s.shape, s.ndims, s.stride_x) &&
            select_strides(y, s.shape, s.ndims, s.stride_y);
  if (!v2 && c->ndims == 1 && out->ndims > 1 && c->dims[0] == out->dims[0]) {
    /* One condition per row: stride 1 along dimension 0 only. */
    for (int d = 0; d < s.ndims; d++)
      s.stride_c[d] = d == 0;
  } else {
    ok = ok && select_strides(c, s.shape, s.ndims, s.stride_c);
  }
  if (!ok)
    error_at(L->g, L->op->index, "condition, x and y do not broadcast to the output shape");
  const char *w;
  switch (dtype_bits(out->dtype)) {
  case 8: w = "x8"; break;
  case 16: w = "x16"; break;
  case 32: w = "x32"; break;
  case 64: w = "x64"; break;
  default: unsupported_types(L);
  }
  L->l->kernel = arena_printf("ta_select_%s", w);
  const char *sc = "", *sx = "", *sy = "", *sh = "";
  for (int d = 0; d < s.ndims; d++) {
    const char *sep = d ? ", " : "";
    sh = arena_printf("%s%s%d", sh, sep, (int)s.shape[d]);
    sc = arena_printf("%s%s%d", sc, sep, (int)s.stride_c[d]);
    sx = arena_printf("%s%s%d", sx, sep, (int)s.stride_x[d]);
    sy = arena_printf("%s%s%d", sy, sep, (int)s.stride_y[d]);
  }
  const_struct(L, "shape", "ta_select_shape",
               arena_printf("{.ndims = %d, .shape = {%s},\n    .stride_c = {%s}, "
                            ".stride_x = {%s}, .stride_y = {%s}}",
                            (int)s.ndims, sh, sc, sx, sy),
               true);
  arg_tensor(L, c->index);
  arg_tensor(L, x->index);
  arg_tensor(L, y->index);
  arg_tensor(L, out->index);
}

void lower_select(Lower *L) { select_op(L, false); }
void lower_select_v2(Lower *L) { select_op(L, true); }

/* ------------------------------------------------- LOG_SOFTMAX, ADD_N */

/* int8 LOG_SOFTMAX: TFLM's CalculateOpData (PreprocessLogSoftmaxScalingExp
 * with beta 1 and 5 integer bits: softmax_params() for the input
 * multiplier, then the reverse multiplier 2^(31 - left_shift) / multiplier,
 * QuantizeMultiplierSmallerThanOneExp), or under --rounding single
 * TFLite's float table (PopulateSoftmaxLookupTable, beta 1).  Both need
 * the output scale 16/256 and zero point 127. */
static void log_softmax_s8(Lower *L, const Tensor *in, const Tensor *out, int32_t depth) {
  const float in_scale = scale_of(L, in);
  if (scale_of(L, out) != 16.0f / 256 || zp_of(out) != 127)
    error_at(L->g, L->op->index,
             "the output's quantization must be scale 16/256, zero point 127");
  const int32_t outer = elems32(in) / depth;
  if (tflite_arithmetic(L)) {
    float table[256];
    const float scale = -in_scale * 1.0f;
    for (int32_t v = 0; v <= 255; v++)
      table[255 - v] = expf(scale * (float)v);
    const_array(L, "table", DT_FLOAT32, table, 256, false);
    L->l->kernel = "ta_log_softmax_table_s8";
    const_struct(L, "params", "ta_log_softmax_table_params",
                 arena_printf("{.outer = %d, .depth = %d, .input_scale = %s, "
                              ".output_scale = %s,\n    .table = @table, "
                              ".output_zero_point = 127}",
                              (int)outer, (int)depth, flit(in_scale), flit(scale_of(L, out))),
                 true);
    return;
  }
  ta_softmax_params sp;
  int32_t rmult, rshift;
  if (!softmax_params(1.0f, in_scale, L->rounding, &sp) ||
      !quantize_multiplier_smaller_than_one_exp(
          ldexp(1.0, 31 - (int)sp.input_left_shift) / (double)sp.input_multiplier,
          L->rounding, &rmult, &rshift))
    error_at(L->g, L->op->index, "cannot represent the input scale %g as LOG_SOFTMAX's "
             "multipliers", (double)in_scale);
  L->l->kernel = "ta_log_softmax_s8";
  const_struct(L, "params", "ta_log_softmax_s8_params",
               arena_printf("{.outer = %d, .depth = %d, .input_multiplier = %s,\n"
                            "    .input_left_shift = %s, .reverse_multiplier = %s, "
                            ".reverse_shift = %s, .diff_min = %s}",
                            (int)outer, (int)depth, ilit(sp.input_multiplier),
                            ilit(sp.input_left_shift), ilit(rmult), ilit(rshift),
                            ilit(sp.diff_min)),
               true);
}

/* LOG_SOFTMAX over the innermost dimension: float32, int8. */
void lower_log_softmax(Lower *L) {
  need_arity(L, 1, 1);
  Tensor *in = input(L, 0), *out = output(L, 0);
  if (in->dtype != out->dtype || (in->dtype != DT_FLOAT32 && in->dtype != DT_INT8) ||
      tensor_elems(in) != tensor_elems(out))
    unsupported_types(L);
  int32_t depth = in->ndims ? in->dims[in->ndims - 1] : 1;
  if (depth < 1)
    error_at(L->g, L->op->index, "the innermost dimension is empty");
  if (in->dtype == DT_INT8) {
    log_softmax_s8(L, in, out, depth);
  } else {
    L->l->kernel = "ta_log_softmax_f32";
    const_struct(L, "params", "ta_softmax_params",
                 arena_printf("{.outer = %d, .depth = %d}", (int)(elems32(in) / depth),
                              (int)depth),
                 true);
  }
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
  may_run_in_place(L, 0); /* each row read whole before it is written */
}

/* ADD_N: inputs of the output's shape, summed in order.  int8 as TFLM's
 * CalculateOpData: one quantization for every input, left_shift 20, the
 * input multiplier 1/2 and the output one 2 s_in / (2^20 s_out). */
void lower_add_n(Lower *L) {
  int n = L->op->ninputs;
  if (n < 2 || L->op->noutputs != 1)
    error_at(L->g, L->op->index, "ADD_N needs at least two inputs and one output");
  Tensor *out = output(L, 0), *first = input(L, 0);
  need_one_dtype(L, 0);
  for (int k = 0; k < n; k++)
    if (tensor_elems(input(L, k)) != tensor_elems(out))
      error_at(L->g, L->op->index, "input %d's shape differs from the output's", k);
  if (out->dtype == DT_INT8) {
    for (int k = 1; k < n; k++)
      if (scale_of(L, input(L, k)) != scale_of(L, first) || zp_of(input(L, k)) != zp_of(first))
        error_at(L->g, L->op->index,
                 "input %d's quantization differs from input 0's; int8 ADD_N needs one", k);
    ta_add_params p = {0};
    p.input1_offset = -zp_of(first);
    p.output_offset = zp_of(out);
    p.left_shift = 20;
    double twice = 2.0 * (double)scale_of(L, first);
    if (!quantize_multiplier_smaller_than_one_exp((double)scale_of(L, first) / twice,
                                                  L->rounding, &p.input1_multiplier,
                                                  &p.input1_shift) ||
        !quantize_multiplier_smaller_than_one_exp(
            twice / ((double)(1 << 20) * (double)scale_of(L, out)), L->rounding,
            &p.output_multiplier, &p.output_shift))
      error_at(L->g, L->op->index, "cannot represent the rescaling of these scales");
    p.act_min = INT8_MIN;
    p.act_max = INT8_MAX;
    p.rounding = L->rounding;
    L->l->kernel = "ta_add_n_s8";
    const_struct(L, "params", "ta_add_params", add_init(&p, false, ""), true);
    add_arg(L, ARG_INT, -1, elems32(out));
  } else if (out->dtype == DT_FLOAT32) {
    L->l->kernel = "ta_add_n_f32";
    unary_params(L, out);
  } else {
    unsupported_types(L);
  }
  add_arg(L, ARG_INT, -1, n);
  add_arg(L, ARG_INPUTS, 0, n);
  arg_tensor(L, out->index);
}
