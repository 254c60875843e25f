/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lower_common.c - the helpers every lowering shares (lower.h): building a
 * Lowered record (arguments, constant objects, in-place bits), reading an
 * op's tensors with the checks every lowering needs, printing parameter
 * structs as C initializers, and the parameter derivations several op
 * families share (activation ranges, convolution and fully connected
 * parameters, broadcasting).
 *
 * Needs: the op being lowered (Lower.op) and its verified graph.  Nothing
 * here calls back into a lowering: lower.c and the op-family files call
 * these, never the other way.
 */
#include "tinyaot.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "lower.h"

/* -------------------------------------------------------- the record */

void add_arg(Lower *L, ArgKind kind, int index, int64_t value) {
  Lowered *l = L->l;
  if (l->nargs == L->argcap) {
    int cap = L->argcap ? 2 * L->argcap : 16;
    KernelArg *a = arena_array((size_t)cap, sizeof *a);
    if (l->nargs)
      memcpy(a, l->args, (size_t)l->nargs * sizeof *a);
    l->args = a;
    L->argcap = cap;
  }
  l->args[l->nargs++] = (KernelArg){.kind = kind, .index = index, .value = value};
}

void arg_tensor(Lower *L, int t) { add_arg(L, ARG_TENSOR, t, 0); }
void arg_scratch(Lower *L) { add_arg(L, ARG_SCRATCH, -1, 0); }

void arg_optional(Lower *L, const Tensor *t) {
  if (t)
    arg_tensor(L, t->index);
  else
    add_arg(L, ARG_NULL, -1, 0);
}

/*
 * In place.  A lowering calls may_run_in_place(L, k) when its kernel may
 * be called with output 0 at the same address as input k: each output
 * element depends only on input k's element of the same index (and on
 * other inputs), read before that output element is written, and no
 * input k element of a lower index is read afterwards - a forward
 * elementwise loop.  It is set only when input k and output 0 have the
 * same byte size (not for a broadcast operand, nor for a dtype change
 * of width).  The planner then may (not must) put the output on the
 * input when the input dies at this op (schedule.c, mark_inplace);
 * verify() and the plan checker hold it to these rules.
 */
void may_run_in_place(Lower *L, int k) {
  const Op *op = L->op;
  if (k < 0 || k >= 32 || k >= op->ninputs || op->inputs[k] < 0 ||
      op->noutputs < 1 || op->outputs[0] < 0)
    return;
  if (tensor_bytes(&L->g->tensors[op->inputs[k]]) !=
      tensor_bytes(&L->g->tensors[op->outputs[0]]))
    return;
  L->l->inplace |= 1u << k;
}

int add_const(Lower *L, ConstObj c) {
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
  return l->nconsts++;
}

/* A parameter struct, passed as &obj when `pass`. */
void const_struct(Lower *L, const char *name, const char *ctype,
                         const char *init, bool pass) {
  int i = add_const(L, (ConstObj){.name = name, .ctype = ctype, .init = init});
  if (pass)
    add_arg(L, ARG_CONST, i, 0);
}

/* An int32 array (copied), passed when `pass`. */
void const_array(Lower *L, const char *name, DType dt, const void *data, size_t count,
                 bool pass) {
  size_t size = (size_t)(dtype_bits(dt) / 8);
  void *copy = arena_array(count ? count : 1, size);
  if (count)
    memcpy(copy, data, count * size);
  int i = add_const(L, (ConstObj){.name = name, .dtype = dt, .data = copy, .count = count});
  if (pass)
    add_arg(L, ARG_CONST, i, 0);
}

void const_i32(Lower *L, const char *name, const int32_t *v, size_t n,
                      bool pass) {
  int32_t *copy = arena_array(n ? n : 1, sizeof(int32_t));
  if (n)
    memcpy(copy, v, n * sizeof(int32_t));
  int i = add_const(L, (ConstObj){.name = name, .ctype = "int32_t",
                                  .dtype = DT_INT32, .data = copy, .count = n});
  if (pass)
    add_arg(L, ARG_CONST, i, 0);
}

/* ------------------------------------------------------------ checks */

static const char *role_names[] = {"input", "filter", "bias", "input 3",
                                   "input 4"};

Tensor *input(Lower *L, int k) {
  if (k >= L->op->ninputs || L->op->inputs[k] < 0)
    error_at(L->g, L->op->index, "%s is missing",
             k < 5 ? role_names[k] : "an input");
  return &L->g->tensors[L->op->inputs[k]];
}

Tensor *optional_input(Lower *L, int k) {
  if (k >= L->op->ninputs || L->op->inputs[k] < 0)
    return NULL;
  return &L->g->tensors[L->op->inputs[k]];
}

Tensor *output(Lower *L, int k) {
  if (k >= L->op->noutputs)
    error_at(L->g, L->op->index, "output %d is missing", k);
  return &L->g->tensors[L->op->outputs[k]];
}

void need_arity(Lower *L, int nin, int nout) {
  if (L->op->ninputs < nin || L->op->noutputs != nout)
    error_at(L->g, L->op->index, "has %d inputs and %d outputs, expected %d and %d",
             L->op->ninputs, L->op->noutputs, nin, nout);
}

/* "int8 input, int8 filter -> int16 output" for messages. */
const char *dtypes_str(Lower *L) {
  const char *s = "";
  for (int k = 0; k < L->op->ninputs; k++)
    if (L->op->inputs[k] >= 0)
      s = arena_printf("%s%s%s", s, *s ? ", " : "",
                       dtype_name(L->g->tensors[L->op->inputs[k]].dtype));
  s = arena_printf("%s ->", s);
  for (int k = 0; k < L->op->noutputs; k++)
    s = arena_printf("%s %s", s, dtype_name(L->g->tensors[L->op->outputs[k]].dtype));
  return s;
}

TA_NORETURN void unsupported_types(Lower *L) {
  error_at(L->g, L->op->index, "not supported for these types (%s)", dtypes_str(L));
}

void need_const(Lower *L, const Tensor *t, const char *role) {
  if (!is_const(t))
    error_at(L->g, L->op->index, "a non-constant %s (tensor %d) is not supported",
             role, t->index);
}

float scale_of(Lower *L, const Tensor *t) {
  if (t->q.nscale < 1)
    error_at(L->g, L->op->index, "tensor %d (%s) is not quantized", t->index,
             t->name);
  if (!(t->q.scale[0] > 0)) /* verify() allows 0 for ops that ignore it */
    error_at(L->g, L->op->index, "tensor %d (%s) has quantization scale %g",
             t->index, t->name, (double)t->q.scale[0]);
  return t->q.scale[0];
}

int32_t zp_of(const Tensor *t) {
  return t->q.nscale > 0 && t->q.zero_point ? (int32_t)t->q.zero_point[0] : 0;
}

/* Rank <= 4 shapes as ta_dims, padded with leading 1s. */
ta_dims dims4(Lower *L, const Tensor *t) {
  if (t->ndims > 4)
    error_at(L->g, L->op->index, "tensor %d has rank %d; at most 4 is supported",
             t->index, t->ndims);
  int32_t d[4] = {1, 1, 1, 1};
  for (int i = 0; i < t->ndims; i++)
    d[4 - t->ndims + i] = t->dims[i];
  return (ta_dims){d[0], d[1], d[2], d[3]};
}

int32_t elems32(const Tensor *t) { return (int32_t)tensor_elems(t); }

/* ------------------------------------------------------- initializers */

/* Set by check_lowering() from Graph.float_inf. */
bool lower_float_inf;

/* A float as a C literal that reads back exactly; +-FLT_MAX, the bound
 * of an unbounded float range, is +-INFINITY for a graph whose float ops
 * pass infinities on. */
const char *flit(float f) {
  if (f == FLT_MAX)
    return lower_float_inf ? "INFINITY" : "FLT_MAX";
  if (f == -FLT_MAX)
    return lower_float_inf ? "-INFINITY" : "-FLT_MAX";
  if (isnan(f) || isinf(f))
    die("non-finite parameter");
  char buf[64];
  snprintf(buf, sizeof buf, "%.9g", (double)f);
  if (!strpbrk(buf, ".e"))
    strcat(buf, ".0");
  return arena_printf("%sf", buf);
}

const char *ilit(int64_t v) {
  if (v == INT32_MIN)
    return "(-2147483647 - 1)";
  return arena_printf("%" PRId64, v);
}

const char *dims_init(ta_dims d) {
  return arena_printf("{%" PRId32 ", %" PRId32 ", %" PRId32 ", %" PRId32 "}",
                      d.n, d.h, d.w, d.c);
}

const char *conv_init(const ta_conv_params *p) {
  return arena_printf(
      "{.stride_h = %d, .stride_w = %d, .dilation_h = %d, .dilation_w = %d,\n"
      "    .pad_h = %d, .pad_w = %d, .depth_multiplier = %d,\n"
      "    .input_offset = %s, .output_offset = %s, .act_min = %s, .act_max = %s,\n"
      "    .act_min_f32 = %s, .act_max_f32 = %s}",
      (int)p->stride_h, (int)p->stride_w, (int)p->dilation_h, (int)p->dilation_w,
      (int)p->pad_h, (int)p->pad_w, (int)p->depth_multiplier, ilit(p->input_offset),
      ilit(p->output_offset), ilit(p->act_min), ilit(p->act_max),
      flit(p->act_min_f32), flit(p->act_max_f32));
}

const char *fc_init(const ta_fc_params *p) {
  return arena_printf(
      "{.batches = %d, .in_depth = %d, .out_depth = %d,\n"
      "    .input_offset = %s, .filter_offset = %s, .output_offset = %s,\n"
      "    .act_min = %s, .act_max = %s, .act_min_f32 = %s, .act_max_f32 = %s}",
      (int)p->batches, (int)p->in_depth, (int)p->out_depth, ilit(p->input_offset),
      ilit(p->filter_offset), ilit(p->output_offset), ilit(p->act_min),
      ilit(p->act_max), flit(p->act_min_f32), flit(p->act_max_f32));
}

const char *pool_init(const ta_pool_params *p) {
  return arena_printf(
      "{.stride_h = %d, .stride_w = %d, .filter_h = %d, .filter_w = %d,\n"
      "    .pad_h = %d, .pad_w = %d, .act_min = %s, .act_max = %s,\n"
      "    .act_min_f32 = %s, .act_max_f32 = %s}",
      (int)p->stride_h, (int)p->stride_w, (int)p->filter_h, (int)p->filter_w,
      (int)p->pad_h, (int)p->pad_w, ilit(p->act_min), ilit(p->act_max),
      flit(p->act_min_f32), flit(p->act_max_f32));
}

const char *rounding_str(int rounding) {
  return rounding == TA_ROUND_SINGLE ? "TA_ROUND_SINGLE"
         : rounding == TA_ROUND_ORT  ? "TA_ROUND_ORT"
                                     : "TA_ROUND_DOUBLE";
}

const char *add_init(const ta_add_params *p, bool f32_range, const char *extra) {
  return arena_printf(
      "{.input1_offset = %s, .input2_offset = %s, .output_offset = %s,\n"
      "    .left_shift = %d, .input1_multiplier = %s, .input1_shift = %s,\n"
      "    .input2_multiplier = %s, .input2_shift = %s,\n"
      "    .output_multiplier = %s, .output_shift = %s,\n"
      "    .act_min = %s, .act_max = %s, .rounding = %s%s%s%s%s%s}",
      ilit(p->input1_offset), ilit(p->input2_offset), ilit(p->output_offset),
      (int)p->left_shift, ilit(p->input1_multiplier), ilit(p->input1_shift),
      ilit(p->input2_multiplier), ilit(p->input2_shift), ilit(p->output_multiplier),
      ilit(p->output_shift), ilit(p->act_min), ilit(p->act_max), rounding_str(p->rounding),
      f32_range ? ",\n    .act_min_f32 = " : "", f32_range ? flit(p->act_min_f32) : "",
      f32_range ? ", .act_max_f32 = " : "", f32_range ? flit(p->act_max_f32) : "", extra);
}

const char *quant_init(int per_channel, int rounding, int mmla) {
  return arena_printf("{@mult, @shift, %d, %s, %d}", per_channel,
                      rounding_str(rounding), mmla);
}

const char *i32_list(const int32_t *v, int n) {
  const char *s = "";
  for (int i = 0; i < n; i++)
    s = arena_printf("%s%s%s", s, i ? ", " : "", ilit(v[i]));
  return arena_printf("{%s}", s);
}

const char *bcast_init(const ta_bcast *b) {
  return arena_printf("{.ndims = %d, .shape = %s, .stride1 = %s, .stride2 = %s}",
                      (int)b->ndims, i32_list(b->shape, b->ndims),
                      i32_list(b->stride1, b->ndims), i32_list(b->stride2, b->ndims));
}

/* --------------------------------------------------- shared pieces */

/* Activation range of an int8/int16/uint8 output, or the float one. */
void act_range(Lower *L, const Tensor *out, int32_t *lo, int32_t *hi,
                      float *flo, float *fhi) {
  Activation act = L->op->opt.activation;
  *flo = -FLT_MAX;
  *fhi = FLT_MAX;
  *lo = 0;
  *hi = 0;
  if (out->dtype == DT_FLOAT32) {
    if (!activation_range_float(act, flo, fhi))
      error_at(L->g, L->op->index, "fused activation %d is not supported", (int)act);
    return;
  }
  if (!activation_range_quantized(act, out->dtype, scale_of(L, out), zp_of(out), lo, hi))
    error_at(L->g, L->op->index,
             "fused activation %d on a %s output is not supported", (int)act,
             dtype_name(out->dtype));
}

/* Per-channel (or per-tensor) requantization of conv-like ops: the
 * arrays "mult" and "shift" and the struct "quant". */
ta_conv_params conv_params_of(const Options *opt, ta_dims di, ta_dims df, int32_t *oh,
                              int32_t *ow) {
  ta_conv_params p = {0};
  p.stride_h = opt->stride_h;
  p.stride_w = opt->stride_w;
  p.dilation_h = opt->dilation_h ? opt->dilation_h : 1;
  p.dilation_w = opt->dilation_w ? opt->dilation_w : 1;
  compute_padding(opt->padding, di.h, df.h, p.stride_h, p.dilation_h, oh, &p.pad_h);
  compute_padding(opt->padding, di.w, df.w, p.stride_w, p.dilation_w, ow, &p.pad_w);
  return p;
}

void conv_tensor_args(Lower *L, ta_dims di, const Tensor *in, ta_dims df,
                      const Tensor *filter, const Tensor *bias, ta_dims dout,
                      const Tensor *out) {
  const_struct(L, "in_dims", "ta_dims", dims_init(di), true);
  arg_tensor(L, in->index);
  const_struct(L, "filter_dims", "ta_dims", dims_init(df), true);
  arg_tensor(L, filter->index);
  arg_optional(L, bias);
  const_struct(L, "out_dims", "ta_dims", dims_init(dout), true);
  arg_tensor(L, out->index);
}

void need_conv_tensors(Lower *L, const Tensor *in, const Tensor *filter,
                       const Tensor *bias, const Tensor *out) {
  if (in->ndims != 4 || filter->ndims != 4 || out->ndims != 4)
    error_at(L->g, L->op->index, "input, filter and output must have rank 4");
  need_const(L, filter, "filter");
  if (bias)
    need_const(L, bias, "bias");
}

ta_fc_params fc_params_of(Lower *L, const Tensor *in, const Tensor *filter,
                          const Tensor *out) {
  if (filter->ndims != 2)
    error_at(L->g, L->op->index, "the filter must have rank 2");
  ta_fc_params p = {0};
  p.out_depth = filter->dims[0];
  p.in_depth = filter->dims[1];
  if (p.in_depth == 0 || tensor_elems(in) % p.in_depth)
    error_at(L->g, L->op->index, "input of %" PRId64 " values is not rows of %d",
             tensor_elems(in), (int)p.in_depth);
  p.batches = (int32_t)(tensor_elems(in) / p.in_depth);
  if (tensor_elems(out) != (int64_t)p.batches * p.out_depth)
    error_at(L->g, L->op->index, "output has %" PRId64 " values, expected %d x %d",
             tensor_elems(out), (int)p.batches, (int)p.out_depth);
  return p;
}

bool same_type_x8(const Tensor *a, const Tensor *b, const Tensor *out) {
  return (out->dtype == DT_INT8 || out->dtype == DT_UINT8) && a->dtype == out->dtype &&
         b->dtype == out->dtype;
}

void ort_binary_args(Lower *L, const Tensor *a, const Tensor *b, const Tensor *out) {
  ta_bcast bc = broadcast_of(L, a, b, out);
  if (tensor_elems(a) == 1)
    for (int d = 0; d < bc.ndims; d++)
      bc.stride1[d] = 0; /* ONNX Runtime's scalar input 0, even against a scalar */
  const_struct(L, "shape", "ta_bcast", bcast_init(&bc), true);
  arg_tensor(L, a->index);
  arg_tensor(L, b->index);
  arg_tensor(L, out->index);
  may_run_in_place(L, 0);
  may_run_in_place(L, 1);
}

/* --rounding onnxruntime, an int8 ADD or MUL the front end marked
 * Op.ref_float (ONNX Runtime leaves its QDQ group in float32):
 * ta_binary_ort_f32_s8.  false (nothing emitted) for other types or a
 * fused activation without a float range. */
bool lower_binary_ort_float(Lower *L, bool mul) {
  const Tensor *a = input(L, 0), *b = input(L, 1), *out = output(L, 0);
  float lo, hi;
  if (a->dtype != DT_INT8 || b->dtype != DT_INT8 || out->dtype != DT_INT8 ||
      !activation_range_float(L->op->opt.activation, &lo, &hi))
    return false;
  L->l->kernel = "ta_binary_ort_f32_s8";
  const_struct(L, "params", "ta_binary_ort_params",
               arena_printf("{.scale1 = %s, .scale2 = %s, .out_scale = %s, .zp1 = %s, "
                            ".zp2 = %s, .out_zp = %s, .act_min_f32 = %s, .act_max_f32 = %s, "
                            ".mul = %d}",
                            flit(scale_of(L, a)), flit(scale_of(L, b)), flit(scale_of(L, out)),
                            ilit(zp_of(a)), ilit(zp_of(b)), ilit(zp_of(out)), flit(lo),
                            flit(hi), mul ? 1 : 0),
               true);
  ort_binary_args(L, a, b, out);
  return true;
}

ta_bcast broadcast_of(Lower *L, const Tensor *a, const Tensor *b, const Tensor *out) {
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
  return bc;
}

/* ------------------------------------------------ QUANTIZE, DEQUANTIZE */

const char *short_type(DType dt) {
  switch (dt) {
  case DT_INT8: return "s8";
  case DT_UINT8: return "u8";
  case DT_INT16: return "s16";
  case DT_INT32: return "s32";
  case DT_UINT32: return "u32";
  case DT_FLOAT32: return "f32";
  default: return NULL;
  }
}

bool lower_wide_binary(Lower *L, const char *op) {
  if (L->op->ninputs != 2 || L->op->noutputs != 1)
    return false;
  Tensor *a = input(L, 0), *b = input(L, 1), *out = output(L, 0);
  bool arith = !strcmp(op, "add") || !strcmp(op, "sub") || !strcmp(op, "mul") ||
               !strcmp(op, "div");
  bool minmax = !strcmp(op, "maximum") || !strcmp(op, "minimum");
  bool cmp = !strcmp(op, "equal") || !strcmp(op, "greater") || !strcmp(op, "less");
  if (!arith && !minmax && !cmp)
    return false; /* no kernels of these types (NOT_EQUAL, LESS_EQUAL, ...) */
  const char *t = a->dtype == DT_UINT16   ? "u16"
                  : a->dtype == DT_UINT32 ? "u32"
                  : a->dtype == DT_UINT64 ? "u64"
                  : a->dtype == DT_FLOAT16 && minmax ? "f16"
                  : a->dtype == DT_FLOAT64 && minmax ? "f64"
                                                     : NULL;
  if (!t)
    return false;
  if (b->dtype != a->dtype || out->dtype != (cmp ? DT_BOOL : a->dtype))
    unsupported_types(L);
  L->l->kernel = arena_printf("ta_%s_%s", op, t);
  ta_bcast bc = broadcast_of(L, a, b, out);
  const_struct(L, "shape", "ta_bcast", bcast_init(&bc), true);
  arg_tensor(L, a->index);
  arg_tensor(L, b->index);
  arg_tensor(L, out->index);
  return true;
}

/* ------------------------------- walks, axes, constant operands, types */

/* "{a, b}" of n values, "{0}" when n == 0 (C has no empty initializer). */
static const char *list0(const int32_t *v, int n) {
  return n ? i32_list(v, n) : "{0}";
}

const char *walk_init(const ta_walk *w) {
  return arena_printf("{.ndims = %d, .shape = %s, .stride = %s, .offset = %s}",
                      (int)w->ndims, list0(w->shape, w->ndims), list0(w->stride, w->ndims),
                      ilit(w->offset));
}

/* Drops size-1 dimensions and merges a dimension into the one outside it
 * when the outer stride continues the inner run. */
static void walk_simplify(ta_walk *w) {
  int n = 0;
  for (int d = 0; d < w->ndims; d++) {
    if (w->shape[d] == 1)
      continue;
    if (n > 0 && w->stride[n - 1] == (int64_t)w->stride[d] * w->shape[d]) {
      w->shape[n - 1] *= w->shape[d];
      w->stride[n - 1] = w->stride[d];
      continue;
    }
    w->shape[n] = w->shape[d];
    w->stride[n] = w->stride[d];
    n++;
  }
  w->ndims = n;
}

/* A walk of up to MAX_DIMS dimensions (int64 strides) into a ta_walk;
 * error when it still has more than TA_MAX_WALK after simplifying. */
ta_walk make_walk(Lower *L, int n, const int32_t *shape, const int64_t *stride,
                         int64_t offset) {
  ta_walk w = {0};
  int k = 0;
  int32_t sh[MAX_DIMS];
  int64_t st[MAX_DIMS];
  for (int d = 0; d < n; d++) {
    if (shape[d] == 1)
      continue;
    if (k > 0 && st[k - 1] == stride[d] * shape[d]) {
      sh[k - 1] *= shape[d];
      st[k - 1] = stride[d];
      continue;
    }
    sh[k] = shape[d];
    st[k] = stride[d];
    k++;
  }
  if (k > TA_MAX_WALK)
    error_at(L->g, L->op->index, "needs a walk over %d dimensions; at most %d are supported",
             k, TA_MAX_WALK);
  for (int d = 0; d < k; d++) {
    if (st[d] > INT32_MAX || st[d] < -INT32_MAX)
      error_at(L->g, L->op->index, "tensor too large");
    w.shape[d] = sh[d];
    w.stride[d] = (int32_t)st[d];
  }
  w.ndims = k;
  w.offset = (int32_t)offset;
  walk_simplify(&w);
  return w;
}

/* Row-major element strides of t. */
void strides_of(const Tensor *t, int64_t *stride) {
  int64_t s = 1;
  for (int d = t->ndims - 1; d >= 0; d--) {
    stride[d] = s;
    s *= t->dims[d];
  }
}

/* "x8", "x16", "x32" by element width. */
const char *width_suffix(Lower *L, const Tensor *t) {
  switch (dtype_bits(t->dtype)) {
  case 8: return "x8";
  case 16: return "x16";
  case 32: return "x32";
  default:
    error_at(L->g, L->op->index, "%s tensors are not supported by this op",
             dtype_name(t->dtype));
  }
}

/* Element k of a constant int32 or int64 tensor. */
int64_t const_int(Lower *L, const Tensor *t, int64_t k, const char *role) {
  need_const(L, t, role);
  if ((t->dtype != DT_INT32 && t->dtype != DT_INT64) || k >= tensor_elems(t))
    error_at(L->g, L->op->index, "the %s (tensor %d) must hold at least %" PRId64
             " int32 or int64 values", role, t->index, k + 1);
  if (t->dtype == DT_INT32) {
    int32_t v;
    memcpy(&v, t->data + 4 * k, 4);
    return v;
  }
  int64_t v;
  memcpy(&v, t->data + 8 * k, 8);
  return v;
}

/* An axis in [-rank, rank) resolved to [0, rank). */
int resolve_axis(Lower *L, int64_t axis, int rank) {
  if (axis < -rank || axis >= rank)
    error_at(L->g, L->op->index, "axis %" PRId64 " is out of range for rank %d", axis, rank);
  return (int)(axis < 0 ? axis + rank : axis);
}

bool same_quant(const Tensor *a, const Tensor *b) {
  if (a->q.nscale != b->q.nscale)
    return false;
  if (a->q.nscale == 0)
    return true;
  return a->q.scale[0] == b->q.scale[0] && zp_of(a) == zp_of(b);
}

bool is_quantized_type(DType dt) {
  return dt == DT_INT8 || dt == DT_UINT8 || dt == DT_INT16;
}

/* Same dtype for the first `nin` inputs (-1: all) and every output (and,
 * for quantized types, the same per-tensor quantization when `same_q`). */
void need_same_types(Lower *L, int nin, bool same_q) {
  const Tensor *first = output(L, 0);
  if (nin < 0 || nin > L->op->ninputs)
    nin = L->op->ninputs;
  for (int k = 0; k < nin + L->op->noutputs; k++) {
    int t = k < nin ? L->op->inputs[k] : L->op->outputs[k - nin];
    if (t < 0)
      continue;
    const Tensor *x = &L->g->tensors[t];
    if (x->dtype != first->dtype)
      unsupported_types(L);
    if (same_q && is_quantized_type(x->dtype) && !same_quant(x, first))
      error_at(L->g, L->op->index,
               "tensor %d's quantization differs from the output's; this op needs them equal",
               t);
  }
}

ta_mean_params reduce_walks(Lower *L, const Tensor *in, const Tensor *axes,
                            const Tensor *out) {
  int n = in->ndims;
  bool reduced[MAX_DIMS] = {false};
  for (int64_t k = 0; k < tensor_elems(axes); k++)
    reduced[resolve_axis(L, const_int(L, axes, k, "axis"), n)] = true;
  int64_t stride[MAX_DIMS];
  strides_of(in, stride);
  int32_t kshape[MAX_DIMS], rshape[MAX_DIMS];
  int64_t kstride[MAX_DIMS], rstride[MAX_DIMS];
  int nk = 0, nr = 0;
  int64_t count = 1, nout = 1;
  for (int d = 0; d < n; d++) {
    if (reduced[d]) {
      rshape[nr] = in->dims[d];
      rstride[nr++] = stride[d];
      count *= in->dims[d];
    } else {
      kshape[nk] = in->dims[d];
      kstride[nk++] = stride[d];
      nout *= in->dims[d];
    }
  }
  if (nout != tensor_elems(out))
    error_at(L->g, L->op->index, "output has %" PRId64 " values, expected %" PRId64,
             tensor_elems(out), nout);
  if (count < 1 || count > INT32_MAX)
    error_at(L->g, L->op->index, "reduces %" PRId64 " values per output", count);
  ta_mean_params p = {0};
  p.outer = make_walk(L, nk, kshape, kstride, 0);
  p.inner = make_walk(L, nr, rshape, rstride, 0);
  p.count = (int32_t)count;
  return p;
}

const char *mean_init(const ta_mean_params *p) {
  return arena_printf("{.outer = %s,\n    .inner = %s,\n"
                            "    .count = %d, .input_zero_point = %s,\n"
                            "    .output_zero_point = %s, .multiplier = %s, .shift = %s,\n"
                            "    .rounding = %s, .scale = %s, .bias = %s}",
                            walk_init(&p->outer), walk_init(&p->inner), (int)p->count,
                            ilit(p->input_zero_point), ilit(p->output_zero_point),
                            ilit(p->multiplier), ilit(p->shift),
                            rounding_str(p->rounding),
                            flit(p->scale), flit(p->bias));
}

/* ------------------------------------------------- DEPTHWISE_CONV_2D */

/* TFLite Micro's kernel loops over the option's depth_multiplier while
 * the shapes give out_c / in_c channels per input channel: a model where
 * the two disagree would make it read and write past its tensors.  The
 * kernels here go by the shapes; the option must agree. */
int32_t depth_multiplier_of(Lower *L, int32_t in_c, int32_t out_c) {
  int32_t m = out_c / in_c;
  if (L->op->opt.depth_multiplier != m)
    error_at(L->g, L->op->index,
             "depth_multiplier %d disagrees with the shapes: %d input channels "
             "-> %d output channels make it %d",
             (int)L->op->opt.depth_multiplier, (int)in_c, (int)out_c, (int)m);
  return m;
}
