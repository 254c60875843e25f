/*
 * lower.c - picks a kernel for every op and computes, on the host,
 * everything the kernel needs that does not depend on the input.
 *
 * Needs: a verified graph after mark_views() (a tensor with view_of >= 0
 * shares its base's bytes, so the op producing it needs no call).
 * Guarantees: every op has a Lowered record (Op.lowered): the kernel's
 * name and its arguments in order - tensors, the op's scratch, and
 * constant objects computed here (parameter structs with requantization
 * multipliers and shifts, activation ranges, padding, folded biases,
 * softmax parameters; per-channel arrays); Op.scratch_bytes is what the
 * kernel's own <kernel>_scratch_size() asks for (the runtime is linked
 * into the compiler: one source of truth).  An op, or a combination of
 * dtypes, no kernel handles -> error_at() naming it.
 *
 * One lowering function per op kind, found in one table (lowerings[]).
 * The arithmetic that turns scales into multipliers lives in quant.c,
 * which follows TFLite Micro's Prepare steps.  Parameter structs are
 * filled here as host structs (the scratch queries read them) and
 * printed as designated initializers, so both see the same numbers.
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

/* A float as a C literal that reads back exactly. */
const char *flit(float f) {
  if (f == FLT_MAX)
    return "FLT_MAX";
  if (f == -FLT_MAX)
    return "-FLT_MAX";
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
  return rounding == TA_ROUND_SINGLE ? "TA_ROUND_SINGLE" : "TA_ROUND_DOUBLE";
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

const char *quant_init(int per_channel, int rounding) {
  return arena_printf("{@mult, @shift, %d, %s}", per_channel,
                      rounding_str(rounding));
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

static void conv_quant(Lower *L, const Tensor *in, const Tensor *filter,
                       const Tensor *out, int nch, int axis) {
  int per = filter->q.nscale > 1;
  if (filter->q.nscale < 1)
    error_at(L->g, L->op->index, "the filter is not quantized");
  if (per && (filter->q.nscale != nch || filter->q.axis != axis))
    error_at(L->g, L->op->index,
             "per-channel filter quantization has %d scales on axis %d; "
             "expected %d on axis %d",
             filter->q.nscale, filter->q.axis, nch, axis);
  for (int c = 0; c < filter->q.nscale; c++)
    if (filter->q.zero_point && filter->q.zero_point[c] != 0)
      error_at(L->g, L->op->index,
               "the filter's zero point is %" PRId64 " (channel %d); int8 "
               "filters must be symmetric",
               filter->q.zero_point[c], c);
  int n = per ? nch : 1;
  int32_t *mult = arena_array((size_t)n, sizeof(int32_t));
  int32_t *shift = arena_array((size_t)n, sizeof(int32_t));
  for (int c = 0; c < n; c++)
    if (!conv_multiplier(scale_of(L, in), filter->q.scale[c], scale_of(L, out),
                         L->rounding, &mult[c], &shift[c]))
      error_at(L->g, L->op->index,
               "cannot represent the requantization scale of channel %d", c);
  const_i32(L, "mult", mult, (size_t)n, false);
  const_i32(L, "shift", shift, (size_t)n, false);
  const_struct(L, "quant", "ta_quant", quant_init(per, L->rounding), true);
}

/* ------------------------------------------------ CONV_2D, DEPTHWISE */

static void conv_common(Lower *L, bool depthwise) {
  need_arity(L, 2, 1);
  Tensor *in = input(L, 0), *filter = input(L, 1), *bias = optional_input(L, 2);
  Tensor *out = output(L, 0);
  const Options *opt = &L->op->opt;
  bool f32 = in->dtype == DT_FLOAT32 && filter->dtype == DT_FLOAT32 &&
             out->dtype == DT_FLOAT32 && (!bias || bias->dtype == DT_FLOAT32);
  bool s8 = in->dtype == DT_INT8 && filter->dtype == DT_INT8 &&
            out->dtype == DT_INT8 && (!bias || bias->dtype == DT_INT32);
  if (!f32 && !s8) {
    lower_conv_legacy(L, depthwise); /* uint8, hybrid */
    return;
  }
  need_conv_tensors(L, in, filter, bias, out);
  ta_dims di = dims4(L, in), df = dims4(L, filter), dout = dims4(L, out);
  int32_t oh, ow;
  ta_conv_params p = conv_params_of(opt, di, df, &oh, &ow);
  if (oh != dout.h || ow != dout.w || di.n != dout.n)
    error_at(L->g, L->op->index,
             "output shape [%d,%d,%d,%d] disagrees with the computed [%d,%d,%d,?]",
             (int)dout.n, (int)dout.h, (int)dout.w, (int)dout.c, (int)di.n, (int)oh,
             (int)ow);
  int32_t nout = dout.c;
  if (depthwise) {
    if (df.n != 1 || df.c != nout || di.c == 0 || nout % di.c)
      error_at(L->g, L->op->index,
               "filter [%d,%d,%d,%d] does not fit input channels %d -> %d",
               (int)df.n, (int)df.h, (int)df.w, (int)df.c, (int)di.c, (int)nout);
    p.depth_multiplier = nout / di.c;
  } else {
    if (df.n != nout || df.c == 0 || di.c % df.c)
      error_at(L->g, L->op->index,
               "filter [%d,%d,%d,%d] does not fit input channels %d -> %d",
               (int)df.n, (int)df.h, (int)df.w, (int)df.c, (int)di.c, (int)nout);
  }
  if (bias && tensor_elems(bias) != nout)
    error_at(L->g, L->op->index, "bias has %" PRId64 " values for %d channels",
             tensor_elems(bias), (int)nout);
  act_range(L, out, &p.act_min, &p.act_max, &p.act_min_f32, &p.act_max_f32);

  if (f32) {
    L->l->kernel = depthwise ? "ta_depthwise_conv2d_f32" : "ta_conv2d_f32";
    const_struct(L, "params", "ta_conv_params", conv_init(&p), true);
    conv_tensor_args(L, di, in, df, filter, bias, dout, out);
    return;
  }

  p.input_offset = -zp_of(in);
  p.output_offset = zp_of(out);
  /* The folded bias: bias + input_offset * sum of each output channel's
   * weights, so the kernel's inner loop is a plain dot product. */
  int32_t *fold = arena_array((size_t)nout, sizeof(int32_t));
  const int32_t *b = NULL;
  if (bias) {
    int32_t *copy = arena_array((size_t)nout, sizeof(int32_t));
    memcpy(copy, bias->data, (size_t)nout * sizeof(int32_t));
    b = copy;
  }
  const int8_t *w = (const int8_t *)filter->data;
  /* A depthwise convolution of a one-channel input is an ordinary one
   * with depth_multiplier output channels: its filter 1HW(M) re-laid
   * out as OHWI [M][h][w][1] (a transposition, done here) lets the
   * CONV_2D kernel run it, the same sums in the same order. */
  if (depthwise && di.c == 1 && nout > 1) {
    const int32_t taps = df.h * df.w;
    int8_t *t = arena_alloc((size_t)nout * (size_t)taps);
    for (int32_t o = 0; o < nout; o++)
      for (int32_t k = 0; k < taps; k++)
        t[(size_t)o * taps + k] = w[(size_t)k * nout + o];
    fold_bias_s8(t, nout, taps, b, p.input_offset, fold);
    ta_dims dc = {nout, df.h, df.w, 1};
    p.depth_multiplier = 1;
    L->l->kernel = "ta_conv2d_fold_s8";
    const_struct(L, "params", "ta_conv_params", conv_init(&p), true);
    conv_quant(L, in, filter, out, nout, 3);
    const_struct(L, "in_dims", "ta_dims", dims_init(di), true);
    arg_tensor(L, in->index);
    const_struct(L, "filter_dims", "ta_dims", dims_init(dc), true);
    add_arg(L, ARG_CONST,
            add_const(L, (ConstObj){.name = "filter", .ctype = "int8_t", .dtype = DT_INT8,
                                    .data = t, .count = (size_t)nout * taps}),
            0);
    const_i32(L, "bias", fold, (size_t)nout, true);
    const_struct(L, "out_dims", "ta_dims", dims_init(dout), true);
    arg_tensor(L, out->index);
    arg_scratch(L);
    L->op->scratch_bytes = ta_conv2d_fold_s8_scratch_size(&p, &di, &dc, &dout);
    return;
  }
  if (depthwise)
    fold_bias_depthwise_s8(w, df.h * df.w, nout, b, p.input_offset, fold);
  else
    fold_bias_s8(w, nout, df.h * df.w * df.c, b, p.input_offset, fold);

  L->l->kernel = depthwise ? "ta_depthwise_conv2d_fold_s8" : "ta_conv2d_fold_s8";
  const_struct(L, "params", "ta_conv_params", conv_init(&p), true);
  conv_quant(L, in, filter, out, nout, depthwise ? 3 : 0);
  const_struct(L, "in_dims", "ta_dims", dims_init(di), true);
  arg_tensor(L, in->index);
  const_struct(L, "filter_dims", "ta_dims", dims_init(df), true);
  arg_tensor(L, filter->index);
  const_i32(L, "bias", fold, (size_t)nout, true);
  const_struct(L, "out_dims", "ta_dims", dims_init(dout), true);
  arg_tensor(L, out->index);
  arg_scratch(L);
  L->op->scratch_bytes =
      depthwise ? ta_depthwise_conv2d_fold_s8_scratch_size(&p, &di, &df, &dout)
                : ta_conv2d_fold_s8_scratch_size(&p, &di, &df, &dout);
}

static void lower_conv2d(Lower *L) { conv_common(L, false); }
static void lower_depthwise_conv2d(Lower *L) { conv_common(L, true); }

/* ---------------------------------------------------- FULLY_CONNECTED */

static void lower_fully_connected(Lower *L) {
  need_arity(L, 2, 1);
  Tensor *in = input(L, 0), *filter = input(L, 1), *bias = optional_input(L, 2);
  Tensor *out = output(L, 0);
  bool f32 = in->dtype == DT_FLOAT32 && filter->dtype == DT_FLOAT32 &&
             out->dtype == DT_FLOAT32 && (!bias || bias->dtype == DT_FLOAT32);
  bool s8 = in->dtype == DT_INT8 && filter->dtype == DT_INT8 &&
            out->dtype == DT_INT8 && (!bias || bias->dtype == DT_INT32);
  if (!f32 && !s8) {
    lower_fully_connected_legacy(L); /* uint8, hybrid */
    return;
  }
  if (L->op->opt.weights_format != 0)
    error_at(L->g, L->op->index, "shuffled weights are not supported");
  need_const(L, filter, "filter");
  if (bias)
    need_const(L, bias, "bias");
  ta_fc_params p = fc_params_of(L, in, filter, out);
  if (bias && tensor_elems(bias) != p.out_depth)
    error_at(L->g, L->op->index, "bias has %" PRId64 " values for %d outputs",
             tensor_elems(bias), (int)p.out_depth);
  act_range(L, out, &p.act_min, &p.act_max, &p.act_min_f32, &p.act_max_f32);

  if (f32) {
    L->l->kernel = "ta_fully_connected_f32";
    const_struct(L, "params", "ta_fc_params", fc_init(&p), true);
    arg_tensor(L, in->index);
    arg_tensor(L, filter->index);
    arg_optional(L, bias);
    arg_tensor(L, out->index);
    return;
  }

  p.input_offset = -zp_of(in);
  p.output_offset = zp_of(out);
  p.filter_offset = 0; /* conv_quant() insists on symmetric filters */
  int per = filter->q.nscale > 1;
  int n = per ? p.out_depth : 1;
  if (per && (filter->q.nscale != p.out_depth || filter->q.axis != 0))
    error_at(L->g, L->op->index, "per-channel filter quantization has %d scales on "
             "axis %d for %d outputs", filter->q.nscale, filter->q.axis,
             (int)p.out_depth);
  if (filter->q.nscale < 1)
    error_at(L->g, L->op->index, "the filter is not quantized");
  for (int c = 0; c < filter->q.nscale; c++)
    if (filter->q.zero_point && filter->q.zero_point[c] != 0)
      error_at(L->g, L->op->index, "the filter's zero point is %" PRId64
               "; int8 filters must be symmetric", filter->q.zero_point[c]);
  int32_t *mult = arena_array((size_t)n, sizeof(int32_t));
  int32_t *shift = arena_array((size_t)n, sizeof(int32_t));
  for (int c = 0; c < n; c++) {
    /* TFLM: per-tensor via GetQuantizedConvolutionMultipler (float
     * product of the scales), per-channel like a convolution. */
    bool ok = per ? conv_multiplier(scale_of(L, in), filter->q.scale[c],
                                    scale_of(L, out), L->rounding, &mult[c],
                                    &shift[c])
                  : fc_multiplier(scale_of(L, in), filter->q.scale[0],
                                  scale_of(L, out), L->rounding, &mult[c],
                                  &shift[c]);
    if (!ok)
      error_at(L->g, L->op->index, "cannot represent the requantization scale");
  }
  int32_t *fold = arena_array((size_t)p.out_depth, sizeof(int32_t));
  int32_t *b = NULL;
  if (bias) {
    b = arena_array((size_t)p.out_depth, sizeof(int32_t));
    memcpy(b, bias->data, (size_t)p.out_depth * sizeof(int32_t));
  }
  fold_bias_s8((const int8_t *)filter->data, p.out_depth, p.in_depth, b,
               p.input_offset, fold);

  L->l->kernel = "ta_fully_connected_fold_s8";
  const_struct(L, "params", "ta_fc_params", fc_init(&p), true);
  const_i32(L, "mult", mult, (size_t)n, false);
  const_i32(L, "shift", shift, (size_t)n, false);
  const_struct(L, "quant", "ta_quant", quant_init(per, L->rounding), true);
  arg_tensor(L, in->index);
  arg_tensor(L, filter->index);
  const_i32(L, "bias", fold, (size_t)p.out_depth, true);
  arg_tensor(L, out->index);
}

/* -------------------------------------------------------------- pools */

/* int8, uint8, int16 (16x8: zero points 0, as TFLite and TFLite Micro
 * require) and float pools.  The kernel's name is the stem
 * ("ta_avg_pool2d") and the dtype. */
static void pool_common(Lower *L, const char *stem) {
  need_arity(L, 1, 1);
  Tensor *in = input(L, 0), *out = output(L, 0);
  const Options *opt = &L->op->opt;
  bool f32 = in->dtype == DT_FLOAT32 && out->dtype == DT_FLOAT32;
  bool s8 = in->dtype == DT_INT8 && out->dtype == DT_INT8;
  bool u8 = in->dtype == DT_UINT8 && out->dtype == DT_UINT8;
  bool s16 = in->dtype == DT_INT16 && out->dtype == DT_INT16;
  if (!f32 && !s8 && !u8 && !s16)
    unsupported_types(L);
  if (s16 && (zp_of(in) != 0 || zp_of(out) != 0))
    error_at(L->g, L->op->index, "int16 pooling needs zero points 0 (16x8 quantization), "
             "not %" PRId32 " and %" PRId32, zp_of(in), zp_of(out));
  if (!f32 && (scale_of(L, in) != scale_of(L, out) || zp_of(in) != zp_of(out)))
    error_at(L->g, L->op->index, "input and output quantization differ");
  if (in->ndims != 4 || out->ndims != 4)
    error_at(L->g, L->op->index, "input and output must have rank 4");
  ta_dims di = dims4(L, in), dout = dims4(L, out);
  ta_pool_params p = {0};
  p.stride_h = opt->stride_h;
  p.stride_w = opt->stride_w;
  p.filter_h = opt->filter_h;
  p.filter_w = opt->filter_w;
  int32_t oh, ow;
  compute_padding(opt->padding, di.h, p.filter_h, p.stride_h, 1, &oh, &p.pad_h);
  compute_padding(opt->padding, di.w, p.filter_w, p.stride_w, 1, &ow, &p.pad_w);
  if (oh != dout.h || ow != dout.w || di.n != dout.n || di.c != dout.c)
    error_at(L->g, L->op->index, "output shape disagrees with the computed one");
  act_range(L, out, &p.act_min, &p.act_max, &p.act_min_f32, &p.act_max_f32);
  L->l->kernel = arena_printf("%s_%s", stem, short_type(in->dtype));
  const_struct(L, "params", "ta_pool_params", pool_init(&p), true);
  const_struct(L, "in_dims", "ta_dims", dims_init(di), true);
  arg_tensor(L, in->index);
  const_struct(L, "out_dims", "ta_dims", dims_init(dout), true);
  arg_tensor(L, out->index);
}

static void lower_average_pool2d(Lower *L) { pool_common(L, "ta_avg_pool2d"); }
static void lower_max_pool2d(Lower *L) { pool_common(L, "ta_max_pool2d"); }

/* ---------------------------------------------------------------- ADD */

/* Output elements from which an int8 ADD gets its input tables: they
 * save about 55 of 85 instructions per element on a Cortex-M4 and cost
 * 2 KB of flash, so from 1024 elements on at least ~27 instructions per
 * byte. */
#define ADD_TABLE_MIN 1024

static void lower_add(Lower *L) {
  need_arity(L, 2, 1);
  Tensor *a = input(L, 0), *b = input(L, 1), *out = output(L, 0);
  bool f32 = a->dtype == DT_FLOAT32 && b->dtype == DT_FLOAT32 && out->dtype == DT_FLOAT32;
  bool s8 = a->dtype == DT_INT8 && b->dtype == DT_INT8 && out->dtype == DT_INT8;
  if (out->dtype == DT_INT32) {
    lower_add_s32(L); /* lower_ops.c */
    return;
  }
  if (!f32 && !s8) {
    lower_add_legacy(L); /* uint8 */
    return;
  }
  ta_bcast bc = broadcast_of(L, a, b, out);
  ta_add_params p = {0};
  if (f32) {
    p.act_min_f32 = -FLT_MAX;
    p.act_max_f32 = FLT_MAX;
    if (!activation_range_float(L->op->opt.activation, &p.act_min_f32, &p.act_max_f32))
      error_at(L->g, L->op->index, "fused activation %d is not supported",
               (int)L->op->opt.activation);
  } else if (!add_params(scale_of(L, a), zp_of(a), scale_of(L, b), zp_of(b),
                         scale_of(L, out), zp_of(out), out->dtype,
                         L->op->opt.activation, L->rounding, &p)) {
    error_at(L->g, L->op->index, "cannot represent the rescaling of these scales");
  }
  L->l->kernel = f32 ? "ta_add_f32" : "ta_add_s8";
  /* The int8 kernel scales each input (offset, shift, requantization)
   * before adding; with the two 256-entry tables of add_tables() that is
   * a look-up per input, and only the sum is requantized - about a third
   * of the instructions per element, for 2 KB of constants: used from
   * ADD_TABLE_MIN output elements on. */
  const char *tables = "";
  if (s8 && tensor_elems(out) >= ADD_TABLE_MIN) {
    int32_t t1[256], t2[256];
    add_tables(&p, t1, t2);
    const_i32(L, "table1", t1, 256, false);
    const_i32(L, "table2", t2, 256, false);
    tables = ",\n    .table1 = @table1, .table2 = @table2";
  }
  const_struct(L, "params", "ta_add_params", add_init(&p, true, tables), true);
  const_struct(L, "shape", "ta_bcast", bcast_init(&bc), true);
  arg_tensor(L, a->index);
  arg_tensor(L, b->index);
  arg_tensor(L, out->index);
  /* ta_add_*: out[i] from in1 and in2 at i's broadcast index, which is i
   * itself for an operand of the output's size. */
  may_run_in_place(L, 0);
  may_run_in_place(L, 1);
}

/* ------------------------------------------------------------ SOFTMAX */

/* Elements from which an int8 SOFTMAX gets its exp table: two exps of
 * about 40 instructions each per element on a Cortex-M4 against 1 KB of
 * flash, so from 256 elements on some 20 instructions per byte. */
#define SOFTMAX_TABLE_MIN 256

static void lower_softmax(Lower *L) {
  need_arity(L, 1, 1);
  const char *exp_table = "";
  Tensor *in = input(L, 0), *out = output(L, 0);
  if (in->ndims < 1 || tensor_elems(in) != tensor_elems(out))
    error_at(L->g, L->op->index, "input and output sizes differ");
  ta_softmax_params p = {0};
  p.depth = in->dims[in->ndims - 1];
  p.outer = p.depth ? elems32(in) / p.depth : 0;
  p.beta = L->op->opt.beta;
  if (in->dtype == DT_FLOAT32 && out->dtype == DT_FLOAT32) {
    L->l->kernel = "ta_softmax_f32";
  } else if (in->dtype == DT_INT8 && (out->dtype == DT_INT8 || out->dtype == DT_INT16)) {
    /* TFLM fixes the output quantization (CalculateSoftmaxParams): int8
     * scale exactly 1/256 and zero point -128; int16 zero point -32768
     * and scale 1/65536 within TF_LITE_ENSURE_NEAR's 0.001 / 65536,
     * compared in float as TFLM does. */
    bool s16 = out->dtype == DT_INT16;
    if (s16) {
      const float sc = scale_of(L, out), want = 1.0f / 65536;
      const float delta = sc > want ? sc - want : want - sc;
      if (zp_of(out) != -32768 || delta > 0.001f * 1.0f / 65536)
        error_at(L->g, L->op->index,
                 "the output's quantization must be scale 1/65536 (within 0.001/65536), "
                 "zero point -32768");
    } else if (scale_of(L, out) != 1.0f / 256 || zp_of(out) != -128) {
      error_at(L->g, L->op->index,
               "the output's quantization must be scale 1/256, zero point -128");
    }
    if (tflite_arithmetic(L)) {
      lower_softmax_legacy(L); /* TFLite's float table, as for uint8 */
      return;
    }
    if (!softmax_params(p.beta, scale_of(L, in), L->rounding, &p))
      error_at(L->g, L->op->index, "cannot represent beta * input scale");
    L->l->kernel = s16 ? "ta_softmax_s8_s16" : "ta_softmax_s8";
    /* Each exp is computed twice per element; the 256-entry table (1 KB)
     * of softmax_exp_table() replaces them from SOFTMAX_TABLE_MIN
     * elements on. */
    if (elems32(in) >= SOFTMAX_TABLE_MIN) {
      int32_t table[256];
      softmax_exp_table(&p, table);
      const_i32(L, "exp_table", table, 256, false);
      exp_table = ", .exp_table = @exp_table";
    }
  } else {
    lower_softmax_legacy(L); /* uint8 */
    return;
  }
  const_struct(L, "params", "ta_softmax_params",
               arena_printf("{.outer = %d, .depth = %d, .input_multiplier = %s,\n"
                            "    .input_left_shift = %s, .diff_min = %s, .rounding = %s,\n"
                            "    .beta = %s%s}",
                            (int)p.outer, (int)p.depth, ilit(p.input_multiplier),
                            ilit(p.input_left_shift), ilit(p.diff_min),
                            rounding_str(p.rounding),
                            flit(p.beta), exp_table),
               true);
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
  /* ta_softmax_f32/_s8 read a whole row before writing it, then write
   * element c after reading element c (int8 -> int16 changes the size). */
  may_run_in_place(L, 0);
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

static void lower_quantize(Lower *L) {
  need_arity(L, 1, 1);
  Tensor *in = input(L, 0), *out = output(L, 0);
  const char *ti = short_type(in->dtype), *to = short_type(out->dtype);
  if (!ti || !to || out->dtype == DT_FLOAT32 || tensor_elems(in) != tensor_elems(out))
    unsupported_types(L);
  if (out->q.nscale != 1 || (in->dtype != DT_FLOAT32 && in->q.nscale != 1))
    error_at(L->g, L->op->index, "only per-tensor quantization is supported");
  const char *k = arena_printf("ta_%s_%s_%s",
                               in->dtype == DT_FLOAT32 ? "quantize" : "requantize", ti, to);
  /* float -> int: TFLM divides by the scale in float for every output
   * type, TFLite too for int8 and uint8; only TFLite's int16 QUANTIZE
   * divides in double.  That one (a separate kernel: on a core with a
   * single-precision FPU it needs the software double helpers) is taken
   * with --rounding single, the TFLite arithmetic. */
  if (in->dtype == DT_FLOAT32 && out->dtype == DT_INT16 && tflite_arithmetic(L))
    k = "ta_quantize_double_f32_s16";
  static const char *const kernels[] = {
      "ta_quantize_f32_s8",    "ta_quantize_f32_u8",    "ta_quantize_f32_s16",
      "ta_quantize_double_f32_s16",
      "ta_requantize_s8_s8",   "ta_requantize_s8_s16",  "ta_requantize_s8_u8",
      "ta_requantize_u8_s8",   "ta_requantize_s16_s8",  "ta_requantize_s16_s16",
      "ta_requantize_s16_s32", "ta_requantize_u8_u8"};
  bool known = false;
  for (size_t i = 0; i < sizeof kernels / sizeof *kernels; i++)
    known |= !strcmp(kernels[i], k);
  if (!known)
    unsupported_types(L);
  L->l->kernel = k;
  if (in->dtype == DT_FLOAT32) {
    const_struct(L, "params", "ta_affine_params",
                 arena_printf("{.size = %d, .scale = %s, .zero_point = %s}",
                              (int)elems32(in), flit(scale_of(L, out)),
                              ilit(zp_of(out))),
                 true);
  } else {
    ta_requant_params p = {0};
    if (!requant_params(scale_of(L, in), zp_of(in), scale_of(L, out), zp_of(out),
                        L->rounding, &p))
      error_at(L->g, L->op->index, "cannot represent the rescaling");
    const_struct(L, "params", "ta_requant_params",
                 arena_printf("{.size = %d, .input_zero_point = %s,\n"
                              "    .output_zero_point = %s, .multiplier = %s,\n"
                              "    .shift = %s, .rounding = %s}",
                              (int)elems32(in), ilit(p.input_zero_point),
                              ilit(p.output_zero_point), ilit(p.multiplier),
                              ilit(p.shift),
                              rounding_str(p.rounding)),
                 true);
  }
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
  /* ta_requantize_*: out[i] = f(in[i]) in a forward loop (only the
   * same-width ones: s8 <-> s8/u8, s16 -> s16). */
  may_run_in_place(L, 0);
}

static void lower_dequantize(Lower *L) {
  need_arity(L, 1, 1);
  Tensor *in = input(L, 0), *out = output(L, 0);
  const char *ti = short_type(in->dtype);
  if (!ti || in->dtype == DT_FLOAT32 || out->dtype != DT_FLOAT32 ||
      tensor_elems(in) != tensor_elems(out))
    unsupported_types(L);
  if (in->q.nscale != 1)
    error_at(L->g, L->op->index, "only per-tensor quantization is supported");
  L->l->kernel = arena_printf("ta_dequantize_%s_f32", ti);
  const_struct(L, "params", "ta_affine_params",
               arena_printf("{.size = %d, .scale = %s, .zero_point = %s}",
                            (int)elems32(in), flit(scale_of(L, in)), ilit(zp_of(in))),
               true);
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
}

/* ----------------------------------------------------------- views */

/* RESHAPE, SQUEEZE, EXPAND_DIMS whose output mark_views() could not
 * make a view (for example an output that is the model's input reshaped):
 * a byte copy, done by a helper the runner defines. */
static void lower_copy(Lower *L) {
  Tensor *in = input(L, 0), *out = output(L, 0);
  if (in->dtype != out->dtype || tensor_bytes(in) != tensor_bytes(out))
    error_at(L->g, L->op->index, "input and output sizes differ");
  L->l->kernel = "@copy";
  add_arg(L, ARG_INT, -1, (int64_t)tensor_bytes(in));
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
}

/* ---------------------------------------------------------- the table */

static LowerFn *const lowerings[OP_COUNT] = {
    [OP_CONV_2D] = lower_conv2d,
    [OP_DEPTHWISE_CONV_2D] = lower_depthwise_conv2d,
    [OP_FULLY_CONNECTED] = lower_fully_connected,
    [OP_AVERAGE_POOL_2D] = lower_average_pool2d,
    [OP_MAX_POOL_2D] = lower_max_pool2d,
    [OP_ADD] = lower_add,
    [OP_SOFTMAX] = lower_softmax,
    [OP_QUANTIZE] = lower_quantize,
    [OP_DEQUANTIZE] = lower_dequantize,
    [OP_RESHAPE] = lower_copy,
    [OP_SQUEEZE] = lower_copy,
    [OP_EXPAND_DIMS] = lower_copy,
    [OP_UNIDIRECTIONAL_SEQUENCE_LSTM] = lower_lstm,
    [OP_SVDF] = lower_svdf,
    [OP_CUSTOM] = lower_custom,
    /* lower_ops.c */
    [OP_SUB] = lower_sub,
    [OP_MUL] = lower_mul,
    [OP_MAXIMUM] = lower_maximum,
    [OP_MINIMUM] = lower_minimum,
    [OP_MEAN] = lower_mean,
    [OP_PAD] = lower_pad,
    [OP_PADV2] = lower_pad,
    [OP_TRANSPOSE] = lower_transpose,
    [OP_STRIDED_SLICE] = lower_strided_slice,
    [OP_SLICE] = lower_slice,
    [OP_CONCATENATION] = lower_concatenation,
    [OP_PACK] = lower_pack,
    [OP_SPLIT] = lower_split,
    [OP_SPLIT_V] = lower_split_v,
    [OP_UNPACK] = lower_unpack,
    [OP_RESIZE_NEAREST_NEIGHBOR] = lower_resize_nearest_neighbor,
    [OP_RESIZE_BILINEAR] = lower_resize_bilinear,
    [OP_ARG_MAX] = lower_arg_max,
    [OP_ARG_MIN] = lower_arg_min,
    [OP_LOGISTIC] = lower_logistic,
    [OP_TANH] = lower_tanh,
    [OP_HARD_SWISH] = lower_hard_swish,
    [OP_LEAKY_RELU] = lower_leaky_relu,
    [OP_RELU] = lower_relu,
    [OP_RELU6] = lower_relu6,
    [OP_RELU_N1_TO_1] = lower_relu_n1_to_1,
    [OP_CAST] = lower_cast,
    [OP_DIV] = lower_div,
    [OP_TRANSPOSE_CONV] = lower_transpose_conv,
};

/*
 * The rounding an op's kernel requantizes with.  --rounding double (the
 * default) is TensorFlow Lite Micro's arithmetic: its reference kernels
 * requantize with gemmlowp's double rounding (SaturatingRoundingDoubling-
 * HighMul, then RoundingDivideByPOT).  --rounding single is TensorFlow
 * Lite's arithmetic as its builtin kernels compute it: the int8 CONV_2D
 * and FULLY_CONNECTED go through ruy's GEMM, whose output stage rounds
 * once; every other TFLite kernel calls MultiplyByQuantizedMultiplier,
 * which rounds twice in TFLite's default build (TFLITE_SINGLE_ROUNDING
 * unset) -- the legacy uint8 kernels included.  The 16x8 lowerings
 * (lower_s16.c) also read the mode, for Prepare-time differences.
 *
 * Evidence (TFLite compiled to WebAssembly, ../shared/oracle, builtin
 * kernels).  DEPTHWISE_CONV_2D int8 outputs recomputed independently
 * match double rounding and not single.  tinyaot was then run in both
 * roundings on 20 cases of every requantizing op x dtype of
 * tools/gen_ops.c (seed 21): only single matched all of CONV_2D int8 and
 * FULLY_CONNECTED int8 (and ADD/SUB int16, whose power-of-two path is a
 * Prepare choice); only double matched all of CONV_2D uint8,
 * DEPTHWISE_CONV_2D int8/uint8, TRANSPOSE_CONV int8, MUL int8/uint8,
 * LEAKY_RELU int8/uint8, RESIZE_BILINEAR int8 and QUANTIZE int16 -> int8;
 * the other rows matched in both.  The uint8 MobileNets and DeepLab are
 * bit-exact with TFLite only this way.  tests/ops runs every row with
 * --rounding single.
 */
static int op_rounding(const Graph *g, const Op *op, const LowerOptions *o) {
  if (o->rounding != TA_ROUND_SINGLE || op->ninputs < 1 || op->inputs[0] < 0)
    return TA_ROUND_DOUBLE;
  bool gemm = op->kind == OP_CONV_2D || op->kind == OP_FULLY_CONNECTED;
  return gemm && g->tensors[op->inputs[0]].dtype == DT_INT8 ? TA_ROUND_SINGLE
                                                            : TA_ROUND_DOUBLE;
}

void lower(Graph *g, const LowerOptions *o) {
  for (int i = 0; i < g->nops; i++) {
    Op *op = &g->ops[i];
    LowerFn *fn = lowering_s16(g, op); /* 16x8 quantization: lower_s16.c */
    if (!fn)
      fn = (unsigned)op->kind < OP_COUNT ? lowerings[op->kind] : NULL;
    Lower L = {.g = g, .op = op, .o = o, .rounding = op_rounding(g, op, o),
               .l = arena_alloc(sizeof(Lowered))};
    op->scratch_bytes = 0;
    op->lowered = L.l;
    /* mark_views() made the output share the input's bytes: no call. */
    if (op->noutputs == 1 && g->tensors[op->outputs[0]].view_of >= 0)
      continue;
    if (!fn)
      error_at(g, i, "this operator is not supported (no kernel)");
    fn(&L);
    /* Lowerings that spell a kernel's name from the dtypes may spell one
     * the runtime does not have. */
    const char *k = L.l->kernel;
    if (k && k[0] != '@' && !L.l->user_kernel && !runtime_defines(k))
      error_at(g, i, "not supported for these types (%s): the runtime has no %s",
               dtypes_str(&L), k);
  }
}
