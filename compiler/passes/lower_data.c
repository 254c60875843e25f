/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lower_data.c - lowerings of the reductions and data-movement ops of
 * TensorFlow Lite Micro's wider set: SUM, REDUCE_MAX, REDUCE_MIN, GATHER,
 * GATHER_ND, EMBEDDING_LOOKUP, TILE, BROADCAST_TO, REVERSE_V2,
 * DEPTH_TO_SPACE, SPACE_TO_DEPTH (one function per op kind, listed in
 * lower.c's table).  Same contract as lower.c: pick the kernel, compute
 * on the host everything that does not depend on the input, report what
 * no kernel handles with error_at().
 *
 * Ops that only move elements by a pattern the shapes fix (TILE,
 * BROADCAST_TO, REVERSE_V2, DEPTH_TO_SPACE, SPACE_TO_DEPTH) become one
 * walk over the input in output order - the kernel TRANSPOSE uses
 * (ta_transpose_x8/x16/x32): each output element is the input element at
 * a fixed offset, and a walk with a stride of 0 repeats, a negative
 * stride reverses, a permuted stride rearranges.  Reductions reuse the
 * walks of MEAN (reduce_walks()).
 */
#include "lower.h"

#include <inttypes.h>
#include <string.h>

/* ------------------------------------------------------------ reductions */

/* SUM, REDUCE_MAX, REDUCE_MIN: input, constant axes, output of the same
 * dtype; the walks of MEAN. */
static ta_mean_params reduction(Lower *L, Tensor **in, Tensor **out) {
  need_arity(L, 2, 1);
  *in = input(L, 0);
  *out = output(L, 0);
  if ((*in)->dtype != (*out)->dtype)
    unsupported_types(L);
  return reduce_walks(L, *in, input(L, 1), *out);
}

/*
 * SUM as TFLite's builtin kernel (the oracle's build) computes it, which
 * is not TFLite Micro's arithmetic:
 *  - int8 with input and output quantization differing: QuantizedMeanOrSum
 *    in float (ta_sum_float_s8), scale = input_scale / output_scale and
 *    bias = -input_zero_point * scale * count as float products, the
 *    result not clamped;
 *  - int8 or int16 with one quantization: EvalGeneric, the raw values
 *    summed in the type (ta_sum_raw_*);
 *  - int16 with two quantizations: TFLite refuses it (reduce.cc checks
 *    the scales), and so does tinyaot under --rounding single.
 */
static void sum_tflite(Lower *L, const Tensor *in, const Tensor *out, ta_mean_params *p) {
  if (same_quant(in, out)) {
    L->l->kernel = in->dtype == DT_INT8 ? "ta_sum_raw_s8" : "ta_sum_raw_s16";
    return;
  }
  if (in->dtype != DT_INT8)
    error_at(L->g, L->op->index,
             "TFLite's int16 SUM needs equal input and output quantization "
             "(--rounding single); TFLite Micro's arithmetic (the default) has no such limit");
  if (p->count > INT32_MAX / 256)
    error_at(L->g, L->op->index,
             "sums %d values per output: the int32 sum may overflow", (int)p->count);
  volatile float scale = scale_of(L, in) / scale_of(L, out);
  volatile float zs = (float)-zp_of(in) * scale;
  volatile float bias = zs * (float)p->count;
  p->scale = scale;
  p->bias = bias;
  p->output_zero_point = zp_of(out);
  L->l->kernel = "ta_sum_float_s8";
}

/*
 * SUM.  float32: ta_sum_f32 (ReduceGeneric, in order from 0.0f).  int8
 * and int16: TFLite Micro's EvalSumHelper, QuantizedMeanOrSum with
 * compute_sum true - ta_mean_s8/s16 with the multiplier of
 * QuantizeMultiplier(input_scale / output_scale), 1/count not folded in:
 *   out = clamp(MBQM(sum - input_zero_point * count, mult, shift) + output_zp)
 * TFLite's builtin kernel differs (sum_tflite(), --rounding single).
 */
void lower_sum(Lower *L) {
  Tensor *in, *out;
  ta_mean_params p = reduction(L, &in, &out);
  if (in->dtype == DT_FLOAT32) {
    L->l->kernel = "ta_sum_f32";
  } else if ((in->dtype == DT_INT8 || in->dtype == DT_INT16) && tflite_arithmetic(L)) {
    sum_tflite(L, in, out, &p);
  } else if (in->dtype == DT_INT8 || in->dtype == DT_INT16) {
    /* |input - zero point| < 256 (int8) or 65536 (int16): the int32 sum
     * cannot overflow below these counts. */
    if (p.count > INT32_MAX / (in->dtype == DT_INT16 ? 65536 : 256))
      error_at(L->g, L->op->index,
               "sums %d values per output: the int32 sum may overflow", (int)p.count);
    L->l->kernel = in->dtype == DT_INT8 ? "ta_mean_s8" : "ta_mean_s16";
    p.rounding = L->rounding;
    p.input_zero_point = zp_of(in);
    p.output_zero_point = zp_of(out);
    if (!quantize_multiplier((double)scale_of(L, in) / (double)scale_of(L, out),
                             L->rounding, &p.multiplier, &p.shift))
      error_at(L->g, L->op->index, "cannot represent the rescaling");
  } else {
    unsupported_types(L);
  }
  const_struct(L, "params", "ta_mean_params", mean_init(&p), true);
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
}

/* REDUCE_MAX, REDUCE_MIN (name "max" or "min"): float32, and int8 (TFLite
 * Micro) and int16 (TFLite) with the input's quantization on the output,
 * which TFLM's EvalMaxHelper/EvalMinHelper require. */
static void lower_reduce_extreme(Lower *L, const char *name) {
  Tensor *in, *out;
  ta_mean_params p = reduction(L, &in, &out);
  /* bool (ONNX ReduceMax/Min of bool, opset 20): bytes 0 and 1, so the
   * int8 kernel's largest (smallest) byte is the logical OR (AND). */
  bool b8 = in->dtype == DT_BOOL && out->dtype == DT_BOOL;
  if (in->dtype != DT_FLOAT32 && in->dtype != DT_INT8 && in->dtype != DT_INT16 && !b8)
    unsupported_types(L);
  if (is_quantized_type(in->dtype) && !same_quant(in, out))
    error_at(L->g, L->op->index,
             "input and output quantization differ (TFLite Micro requires them equal)");
  L->l->kernel = arena_printf("ta_reduce_%s_%s", name, b8 ? "s8" : short_type(in->dtype));
  const_struct(L, "params", "ta_mean_params", mean_init(&p), true);
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
}

void lower_reduce_max(Lower *L) { lower_reduce_extreme(L, "max"); }
void lower_reduce_min(Lower *L) { lower_reduce_extreme(L, "min"); }

/* ------------------------------------------------------------- gathers */

/* The index width of an index tensor: 32 or 64 bits, else an error. */
static int32_t index_bits(Lower *L, const Tensor *t) {
  if (t->dtype != DT_INT32 && t->dtype != DT_INT64)
    error_at(L->g, L->op->index, "the indices (tensor %d) must be int32 or int64, not %s",
             t->index, dtype_name(t->dtype));
  return t->dtype == DT_INT64 ? 64 : 32;
}

/* Product of dims [from, to) of t. */
static int64_t dims_product(const Tensor *t, int from, int to) {
  int64_t n = 1;
  for (int d = from; d < to; d++)
    n *= t->dims[d];
  return n;
}

/* Rows of bytes as int32 (error when a tensor is too large for one). */
static int32_t i32_of(Lower *L, int64_t v) {
  if (v < 0 || v > INT32_MAX)
    error_at(L->g, L->op->index, "tensor too large");
  return (int32_t)v;
}

static void gather_args(Lower *L, const ta_gather_params *p, const Tensor *in,
                        const Tensor *idx, const Tensor *out) {
  L->l->kernel = "ta_gather_x8";
  const_struct(L, "params", "ta_gather_params",
               arena_printf("{.batch = %d, .outer = %d, .axis_size = %d, .coords = %d,\n"
                            "    .inner_bytes = %d, .index_bits = %d}",
                            (int)p->batch, (int)p->outer, (int)p->axis_size,
                            (int)p->coords, (int)p->inner_bytes, (int)p->index_bits),
               true);
  arg_tensor(L, in->index);
  arg_tensor(L, idx->index);
  arg_tensor(L, out->index);
}

/* The dtypes TFLite Micro's data-movement kernels take. */
static void need_data_type(Lower *L, const Tensor *t) {
  switch (t->dtype) {
  case DT_FLOAT32: case DT_INT8: case DT_INT16: case DT_INT32: case DT_UINT8:
  case DT_BOOL: case DT_INT64:
    return;
  default:
    unsupported_types(L);
  }
}

/*
 * GATHER (TFLite Micro's gather.cc): output = params.shape[:axis] +
 * indices.shape[batch_dims:] + params.shape[axis + 1:], with the first
 * batch_dims dimensions of params and indices paired.  axis and
 * batch_dims may be negative (counted from the end of params and of
 * indices); batch_dims <= axis.
 */
void lower_gather(Lower *L) {
  need_arity(L, 2, 1);
  Tensor *in = input(L, 0), *idx = input(L, 1), *out = output(L, 0);
  need_data_type(L, in);
  if (in->dtype != out->dtype)
    unsupported_types(L);
  int axis = L->op->opt.axis, bd = L->op->opt.batch_dims;
  if (axis < 0)
    axis += in->ndims;
  if (bd < 0)
    bd += idx->ndims;
  if (axis < 0 || axis >= in->ndims)
    error_at(L->g, L->op->index, "axis %d is out of range for rank %d", L->op->opt.axis,
             in->ndims);
  if (bd < 0 || bd > axis || bd > idx->ndims)
    error_at(L->g, L->op->index, "batch_dims %d is out of range", L->op->opt.batch_dims);
  for (int d = 0; d < bd; d++)
    if (in->dims[d] != idx->dims[d])
      error_at(L->g, L->op->index, "batch dimension %d differs between params and indices", d);
  ta_gather_params p = {0};
  p.batch = i32_of(L, dims_product(in, 0, bd));
  p.outer = i32_of(L, dims_product(in, bd, axis));
  p.axis_size = in->dims[axis];
  p.coords = i32_of(L, dims_product(idx, bd, idx->ndims));
  p.inner_bytes = i32_of(L, dims_product(in, axis + 1, in->ndims) * (dtype_bits(in->dtype) / 8));
  p.index_bits = index_bits(L, idx);
  if ((int64_t)p.batch * p.outer * p.coords * dims_product(in, axis + 1, in->ndims) !=
      tensor_elems(out))
    error_at(L->g, L->op->index, "output has %" PRId64 " values, the gather gives %" PRId64,
             tensor_elems(out),
             (int64_t)p.batch * p.outer * p.coords * dims_product(in, axis + 1, in->ndims));
  gather_args(L, &p, in, idx, out);
}

/*
 * EMBEDDING_LOOKUP (TFLite Micro's embedding_lookup.cc): ids (int32,
 * rank 1) pick rows of value; output [n ids] + value.shape[1:].  Of
 * value's type (EvalSimple), or float32 from an int8 value quantized per
 * tensor with zero point 0, the rows dequantized (EvalHybrid; TFLM takes
 * only that form, TFLite also a scale per row, refused here).
 */
void lower_embedding_lookup(Lower *L) {
  need_arity(L, 2, 1);
  Tensor *ids = input(L, 0), *value = input(L, 1), *out = output(L, 0);
  need_data_type(L, value);
  bool hybrid = value->dtype == DT_INT8 && out->dtype == DT_FLOAT32;
  if (value->dtype != out->dtype && !hybrid)
    error_at(L->g, L->op->index,
             "%s values with a %s output are not supported (the hybrid lookup takes int8 "
             "values and a float32 output)",
             dtype_name(value->dtype), dtype_name(out->dtype));
  if (ids->dtype != DT_INT32 || ids->ndims != 1 || value->ndims < 1)
    error_at(L->g, L->op->index, "needs rank-1 int32 ids and a value of rank 1 or more");
  if (hybrid) {
    if (value->q.nscale != 1)
      error_at(L->g, L->op->index,
               "the hybrid lookup needs the value quantized per tensor (it has %d scales)",
               value->q.nscale);
    if (zp_of(value) != 0)
      error_at(L->g, L->op->index,
               "the hybrid lookup needs the value's zero point to be 0 (it is %d)",
               (int)zp_of(value));
    int64_t cols = dims_product(value, 1, value->ndims);
    if ((int64_t)ids->dims[0] * cols != tensor_elems(out))
      error_at(L->g, L->op->index, "output shape disagrees with the lookup");
    L->l->kernel = "ta_embedding_lookup_s8_f32";
    const_struct(L, "params", "ta_embedding_hybrid_params",
                 arena_printf("{.rows = %d, .cols = %d, .nids = %d, .scale = %s}",
                              (int)value->dims[0], (int)i32_of(L, cols), (int)ids->dims[0],
                              flit(scale_of(L, value))),
                 true);
    arg_tensor(L, value->index);
    arg_tensor(L, ids->index);
    arg_tensor(L, out->index);
    return;
  }
  ta_gather_params p = {.batch = 1, .outer = 1, .axis_size = value->dims[0],
                        .coords = ids->dims[0], .index_bits = 32};
  p.inner_bytes = i32_of(L, dims_product(value, 1, value->ndims) * (dtype_bits(value->dtype) / 8));
  if ((int64_t)p.coords * dims_product(value, 1, value->ndims) != tensor_elems(out))
    error_at(L->g, L->op->index, "output shape disagrees with the lookup");
  gather_args(L, &p, value, ids, out);
}

/*
 * GATHER_ND (TFLite Micro's gather_nd.cc): indices [..., depth]; each
 * row of depth indices picks the slice params[i0, ..., i(depth-1)], of
 * shape params.shape[depth:]; output = indices.shape[:-1] + that.
 */
void lower_gather_nd(Lower *L) {
  need_arity(L, 2, 1);
  Tensor *in = input(L, 0), *idx = input(L, 1), *out = output(L, 0);
  need_data_type(L, in);
  if (in->dtype != out->dtype)
    unsupported_types(L);
  if (idx->ndims < 1)
    error_at(L->g, L->op->index, "the indices must have rank 1 or more");
  int depth = idx->dims[idx->ndims - 1];
  if (depth < 1 || depth > in->ndims || depth > TA_MAX_WALK)
    error_at(L->g, L->op->index, "index depth %d is out of range for params of rank %d",
             depth, in->ndims);
  ta_gather_nd_params p = {0};
  const int64_t bytes = dtype_bits(in->dtype) / 8;
  p.depth = depth;
  p.nslices = i32_of(L, dims_product(idx, 0, idx->ndims - 1));
  p.slice_bytes = i32_of(L, dims_product(in, depth, in->ndims) * bytes);
  p.index_bits = index_bits(L, idx);
  for (int d = 0; d < depth; d++) {
    p.dims[d] = in->dims[d];
    p.stride[d] = i32_of(L, dims_product(in, d + 1, in->ndims) * bytes);
  }
  if ((int64_t)p.nslices * dims_product(in, depth, in->ndims) != tensor_elems(out))
    error_at(L->g, L->op->index, "output shape disagrees with the gather");
  L->l->kernel = "ta_gather_nd_x8";
  const_struct(L, "params", "ta_gather_nd_params",
               arena_printf("{.nslices = %d, .depth = %d, .slice_bytes = %d, .index_bits = %d,\n"
                            "    .dims = %s, .stride = %s}",
                            (int)p.nslices, depth, (int)p.slice_bytes, (int)p.index_bits,
                            i32_list(p.dims, depth), i32_list(p.stride, depth)),
               true);
  arg_tensor(L, in->index);
  arg_tensor(L, idx->index);
  arg_tensor(L, out->index);
}

/* ------------------------------------------------ walks over the input */

/* The op's output as one walk over input `in` (shape/stride of n
 * dimensions in output order, elements): ta_transpose_x8/x16/x32.  Input
 * and output share dtype and quantization. */
static void walk_copy(Lower *L, const Tensor *in, const Tensor *out, int n,
                      const int32_t *shape, const int64_t *stride, int64_t offset) {
  need_same_types(L, 1, true);
  int64_t count = 1;
  for (int d = 0; d < n; d++)
    count *= shape[d];
  if (count != tensor_elems(out))
    error_at(L->g, L->op->index, "output has %" PRId64 " values, expected %" PRId64,
             tensor_elems(out), count);
  ta_walk w = make_walk(L, n, shape, stride, offset);
  L->l->kernel = arena_printf("ta_transpose_%s", width_suffix(L, out));
  const_struct(L, "walk", "ta_walk", walk_init(&w), true);
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
}

/* DEPTH_TO_SPACE, SPACE_TO_DEPTH (NHWC, block_size b):
 *   depth to space  out[n][h*b + i][w*b + j][c] = in[n][h][w][(i*b + j)*C' + c]
 *   space to depth  out[n][h][w][(i*b + j)*C + c] = in[n][h*b + i][w*b + j][c]
 * (reference_ops::DepthToSpace / SpaceToDepth), walked in output order
 * over six dimensions. */
static void lower_block_shuffle(Lower *L, bool to_space) {
  need_arity(L, 1, 1);
  Tensor *in = input(L, 0), *out = output(L, 0);
  int b = L->op->opt.block_size;
  if (in->ndims != 4 || out->ndims != 4)
    error_at(L->g, L->op->index, "input and output must have rank 4 (NHWC)");
  if (b < 1)
    error_at(L->g, L->op->index, "block_size %d must be at least 1", b);
  const int64_t N = in->dims[0], H = in->dims[1], W = in->dims[2], C = in->dims[3];
  int32_t shape[6];
  int64_t stride[6];
  if (to_space) {
    if (C % ((int64_t)b * b))
      error_at(L->g, L->op->index, "depth %d is not a multiple of block_size^2", (int)C);
    const int64_t c2 = C / ((int64_t)b * b);
    const int32_t sh[6] = {(int32_t)N, (int32_t)H, b, (int32_t)W, b, (int32_t)c2};
    const int64_t st[6] = {H * W * C, W * C, b * c2, C, c2, 1};
    memcpy(shape, sh, sizeof sh);
    memcpy(stride, st, sizeof st);
  } else {
    if (H % b || W % b)
      error_at(L->g, L->op->index, "height and width must be multiples of block_size %d", b);
    const int32_t sh[6] = {(int32_t)N, (int32_t)(H / b), (int32_t)(W / b), b, b, (int32_t)C};
    const int64_t st[6] = {H * W * C, b * W * C, b * C, W * C, C, 1};
    memcpy(shape, sh, sizeof sh);
    memcpy(stride, st, sizeof st);
  }
  walk_copy(L, in, out, 6, shape, stride, 0);
}

void lower_depth_to_space(Lower *L) { lower_block_shuffle(L, true); }
void lower_space_to_depth(Lower *L) { lower_block_shuffle(L, false); }

/* TILE (reference_ops::Tile): output dimension d is multiples[d] copies
 * of input dimension d - walked as (copy, index) pairs, the copy with
 * stride 0. */
void lower_tile(Lower *L) {
  need_arity(L, 2, 1);
  Tensor *in = input(L, 0), *mult = input(L, 1), *out = output(L, 0);
  int n = in->ndims;
  if (tensor_elems(mult) != n || out->ndims != n)
    error_at(L->g, L->op->index, "multiples must have one entry per input dimension (%d)", n);
  if (2 * n > MAX_DIMS)
    error_at(L->g, L->op->index, "rank %d is not supported (at most %d)", n, MAX_DIMS / 2);
  int64_t st[MAX_DIMS];
  strides_of(in, st);
  int32_t shape[MAX_DIMS];
  int64_t stride[MAX_DIMS];
  for (int d = 0; d < n; d++) {
    int64_t m = const_int(L, mult, d, "multiples");
    if (m < 0 || m * in->dims[d] != out->dims[d])
      error_at(L->g, L->op->index, "output dimension %d is not %" PRId64 " copies of the input's",
               d, m);
    shape[2 * d] = (int32_t)m;
    stride[2 * d] = 0;
    shape[2 * d + 1] = in->dims[d];
    stride[2 * d + 1] = st[d];
  }
  walk_copy(L, in, out, 2 * n, shape, stride, 0);
}

/* BROADCAST_TO (reference_ops::BroadcastTo): the input aligned with the
 * output's innermost dimensions; a size-1 input dimension repeats
 * (stride 0). */
void lower_broadcast_to(Lower *L) {
  need_arity(L, 2, 1);
  Tensor *in = input(L, 0), *shp = input(L, 1), *out = output(L, 0);
  int n = out->ndims, off = n - in->ndims;
  if (off < 0 || tensor_elems(shp) != n)
    error_at(L->g, L->op->index, "the shape must have at least the input's rank");
  int64_t st[MAX_DIMS];
  strides_of(in, st);
  int32_t shape[MAX_DIMS];
  int64_t stride[MAX_DIMS];
  for (int d = 0; d < n; d++) {
    /* The output's static shape rules; a constant shape must say it too. */
    if (is_const(shp) && const_int(L, shp, d, "shape") != out->dims[d])
      error_at(L->g, L->op->index, "the shape disagrees with the output's");
    int32_t di = d >= off ? in->dims[d - off] : 1;
    if (di != 1 && di != out->dims[d])
      error_at(L->g, L->op->index, "input dimension %d (%d) does not broadcast to %d",
               d - off, (int)di, (int)out->dims[d]);
    shape[d] = out->dims[d];
    stride[d] = di == 1 ? 0 : st[d - off];
  }
  walk_copy(L, in, out, n, shape, stride, 0);
}

/* REVERSE_V2 (reference_ops::Reverse): the listed axes walked backwards
 * (negative stride, starting at their last element). */
void lower_reverse_v2(Lower *L) {
  need_arity(L, 2, 1);
  Tensor *in = input(L, 0), *axes = input(L, 1), *out = output(L, 0);
  int n = in->ndims;
  bool rev[MAX_DIMS] = {false};
  for (int64_t k = 0; k < tensor_elems(axes); k++)
    rev[resolve_axis(L, const_int(L, axes, k, "axis"), n)] = true;
  int64_t st[MAX_DIMS];
  strides_of(in, st);
  int32_t shape[MAX_DIMS];
  int64_t stride[MAX_DIMS], offset = 0;
  for (int d = 0; d < n; d++) {
    if (out->dims[d] != in->dims[d])
      error_at(L->g, L->op->index, "output shape differs from the input's");
    shape[d] = in->dims[d];
    stride[d] = rev[d] ? -st[d] : st[d];
    if (rev[d] && in->dims[d] > 0)
      offset += (int64_t)(in->dims[d] - 1) * st[d];
  }
  walk_copy(L, in, out, n, shape, stride, offset);
}

/* ------------------------------------------- SHAPE, BROADCAST_ARGS, FILL */

/* An op fold_constants() could compute but left in the graph (its output
 * is a model output, or no graph pass ran): the runner copies the
 * constant bytes fold_value() gives into the output. */
static bool copy_folded(Lower *L) {
  uint8_t *bytes;
  size_t n;
  if (!fold_value(L->g, L->op, &bytes, &n))
    return false;
  Tensor *out = output(L, 0);
  if (n != tensor_bytes(out))
    error_at(L->g, L->op->index, "output has %zu bytes, the value %zu", tensor_bytes(out), n);
  L->l->kernel = "@copy";
  add_arg(L, ARG_INT, -1, (int64_t)n);
  /* float16 values are kept as their bytes (the emitter's raw types) */
  bool raw = out->dtype == DT_FLOAT16 || out->dtype == DT_BFLOAT16;
  const_array(L, "value", raw ? DT_UINT8 : out->dtype, bytes,
              raw ? n : n / (size_t)(dtype_bits(out->dtype) / 8), true);
  arg_tensor(L, out->index);
  return true;
}

/* SHAPE: the input's static shape, as int32 or int64 (folded). */
void lower_shape(Lower *L) {
  need_arity(L, 1, 1);
  if (!copy_folded(L))
    error_at(L->g, L->op->index, "the output must be int32 or int64 with one value per "
                                 "input dimension");
}

/* READ_VARIABLE / ASSIGN_VARIABLE (TFLite Micro's read_variable.cc,
 * assign_variable.cc): a byte copy from the variable's persistent state
 * into the output, or from the value into the state.  The reader made
 * input 0 the variable tensor and checked that types and shapes match. */
static void copy_variable(Lower *L, int from, int to) {
  Tensor *a = &L->g->tensors[from], *b = &L->g->tensors[to];
  if (tensor_bytes(a) != tensor_bytes(b))
    error_at(L->g, L->op->index, "copies %zu bytes into %zu", tensor_bytes(a),
             tensor_bytes(b));
  L->l->kernel = "@copy";
  add_arg(L, ARG_INT, -1, (int64_t)tensor_bytes(a));
  arg_tensor(L, from);
  arg_tensor(L, to);
}

void lower_read_variable(Lower *L) {
  need_arity(L, 1, 1);
  if (!input(L, 0)->is_variable)
    error_at(L->g, L->op->index, "input 0 is no variable");
  copy_variable(L, L->op->inputs[0], L->op->outputs[0]);
}

void lower_assign_variable(Lower *L) {
  need_arity(L, 2, 0);
  if (!input(L, 0)->is_variable)
    error_at(L->g, L->op->index, "input 0 is no variable");
  copy_variable(L, input(L, 1)->index, L->op->inputs[0]);
}

/* BROADCAST_ARGS (TFLite Micro's broadcast_args.cc): the broadcast of
 * two shapes, which must be constants (shapes are static here). */
void lower_broadcast_args(Lower *L) {
  need_arity(L, 2, 1);
  if (!copy_folded(L))
    error_at(L->g, L->op->index, "needs two constant int32 or int64 shapes that broadcast, "
                                 "and an output of their broadcast rank");
}

/* FILL (TFLite Micro's fill.cc): every output element the scalar value.
 * A constant value is folded; a run-time one is ta_fill_x8/x16/x32.  The
 * dims input must be what the output's static shape says. */
void lower_fill(Lower *L) {
  need_arity(L, 2, 1);
  Tensor *dims = input(L, 0), *val = input(L, 1), *out = output(L, 0);
  if (tensor_elems(dims) != out->ndims)
    error_at(L->g, L->op->index, "dims must have one entry per output dimension");
  for (int d = 0; d < out->ndims; d++)
    if (is_const(dims) && const_int(L, dims, d, "dims") != out->dims[d])
      error_at(L->g, L->op->index, "dims disagree with the output's shape");
  if (val->dtype != out->dtype || tensor_elems(val) != 1)
    error_at(L->g, L->op->index, "the value must be one %s", dtype_name(out->dtype));
  if (is_quantized_type(out->dtype) && !same_quant(val, out))
    error_at(L->g, L->op->index, "the value's quantization differs from the output's");
  if (copy_folded(L))
    return;
  L->l->kernel = arena_printf("ta_fill_%s", width_suffix(L, out));
  add_arg(L, ARG_INT, -1, (int64_t)i32_of(L, tensor_elems(out)));
  arg_tensor(L, val->index);
  arg_tensor(L, out->index);
}

/* --------------------------------------------------------- BATCH_MATMUL */

/*
 * BATCH_MATMUL (TFLite Micro's batch_matmul.cc): LHS [..., r, d] (or
 * [..., d, r] with adj_x) times RHS [..., d, c] (or [..., c, d] with
 * adj_y), ranks 2 to 5, batch dimensions broadcast; no transposed copy:
 * the kernel reads through strides.  float32, int8 (multiplier of
 * GetQuantizedConvolutionMultipler: the float product of the input
 * scales over the output scale, fc_multiplier()) and int16 (zero points
 * 0, int64 sums).
 */
void lower_batch_matmul(Lower *L) {
  need_arity(L, 2, 1);
  Tensor *a = input(L, 0), *b = input(L, 1), *out = output(L, 0);
  if (a->dtype != b->dtype || a->dtype != out->dtype ||
      (a->dtype != DT_FLOAT32 && a->dtype != DT_INT8 && a->dtype != DT_INT16))
    unsupported_types(L);
  if (a->ndims < 2 || a->ndims > 5 || b->ndims < 2 || b->ndims > 5)
    error_at(L->g, L->op->index, "operands must have rank 2 to 5");
  const bool adj_x = L->op->opt.adj_x, adj_y = L->op->opt.adj_y;
  const int n = a->ndims > b->ndims ? a->ndims : b->ndims;
  ta_batch_matmul_params p = {0};
  const int32_t ar = a->dims[a->ndims - 2], ac = a->dims[a->ndims - 1];
  const int32_t br = b->dims[b->ndims - 2], bc = b->dims[b->ndims - 1];
  p.rows = adj_x ? ac : ar;
  p.depth = adj_x ? ar : ac;
  p.cols = adj_y ? br : bc;
  if ((adj_y ? bc : br) != p.depth)
    error_at(L->g, L->op->index, "the inner dimensions differ (%d and %d)", (int)p.depth,
             (int)(adj_y ? bc : br));
  p.lhs_row = adj_x ? 1 : ac;
  p.lhs_depth = adj_x ? ac : 1;
  p.rhs_depth = adj_y ? 1 : bc;
  p.rhs_col = adj_y ? bc : 1;
  /* Batch dimensions, right-aligned, broadcast; size-1 ones dropped. */
  int64_t sa[MAX_DIMS], sb[MAX_DIMS];
  strides_of(a, sa);
  strides_of(b, sb);
  int64_t nout = (int64_t)p.rows * p.cols;
  for (int d = 0; d < n - 2; d++) {
    int ka = d - (n - a->ndims), kb = d - (n - b->ndims);
    int32_t da = ka >= 0 ? a->dims[ka] : 1, db = kb >= 0 ? b->dims[kb] : 1;
    if (da != db && da != 1 && db != 1)
      error_at(L->g, L->op->index, "batch dimension %d does not broadcast (%d and %d)", d,
               (int)da, (int)db);
    int32_t dn = da > db ? da : db;
    nout *= dn;
    if (dn == 1)
      continue;
    if (p.nbatch == TA_BMM_MAX_BATCH)
      unreachable(); /* rank <= 5: at most 3 batch dimensions */
    p.batch[p.nbatch] = dn;
    p.lhs_batch[p.nbatch] = da == 1 ? 0 : (int32_t)sa[ka];
    p.rhs_batch[p.nbatch] = db == 1 ? 0 : (int32_t)sb[kb];
    p.nbatch++;
  }
  if (nout != tensor_elems(out))
    error_at(L->g, L->op->index, "output has %" PRId64 " values, the product %" PRId64,
             tensor_elems(out), nout);
  if (a->dtype == DT_FLOAT32) {
    L->l->kernel = "ta_batch_matmul_f32";
  } else {
    if (a->dtype == DT_INT16 && (zp_of(a) || zp_of(b) || zp_of(out)))
      error_at(L->g, L->op->index, "int16 operands and output need zero point 0");
    if (a->q.nscale > 1 || b->q.nscale > 1 || out->q.nscale > 1)
      error_at(L->g, L->op->index, "per-channel quantization is not supported here");
    p.lhs_offset = -zp_of(a);
    p.rhs_offset = -zp_of(b);
    p.output_offset = zp_of(out);
    /* TFLite's int8 kernel multiplies through its GEMM (cpu_backend_gemm),
     * whose output stage rounds once, as for FULLY_CONNECTED; TFLM rounds
     * twice (doc/operators.md). */
    p.rounding = a->dtype == DT_INT8 && tflite_arithmetic(L) ? TA_ROUND_SINGLE : L->rounding;
    if (!fc_multiplier(scale_of(L, a), scale_of(L, b), scale_of(L, out), p.rounding,
                       &p.multiplier, &p.shift))
      error_at(L->g, L->op->index, "cannot represent the rescaling");
    p.act_min = a->dtype == DT_INT8 ? -128 : -32768;
    p.act_max = a->dtype == DT_INT8 ? 127 : 32767;
    L->l->kernel = a->dtype == DT_INT8 ? "ta_batch_matmul_s8" : "ta_batch_matmul_s16";
  }
  const int nb = p.nbatch;
  const_struct(L, "params", "ta_batch_matmul_params",
               arena_printf("{.nbatch = %d, .batch = %s, .lhs_batch = %s, .rhs_batch = %s,\n"
                            "    .rows = %d, .cols = %d, .depth = %d,\n"
                            "    .lhs_row = %d, .lhs_depth = %d, .rhs_depth = %d, .rhs_col = %d,\n"
                            "    .lhs_offset = %s, .rhs_offset = %s, .output_offset = %s,\n"
                            "    .multiplier = %s, .shift = %s, .rounding = %s,\n"
                            "    .act_min = %s, .act_max = %s}",
                            nb, nb ? i32_list(p.batch, nb) : "{0}",
                            nb ? i32_list(p.lhs_batch, nb) : "{0}",
                            nb ? i32_list(p.rhs_batch, nb) : "{0}", (int)p.rows, (int)p.cols,
                            (int)p.depth, (int)p.lhs_row, (int)p.lhs_depth, (int)p.rhs_depth,
                            (int)p.rhs_col, ilit(p.lhs_offset), ilit(p.rhs_offset),
                            ilit(p.output_offset), ilit(p.multiplier), ilit(p.shift),
                            rounding_str(p.rounding), ilit(p.act_min), ilit(p.act_max)),
               true);
  arg_tensor(L, a->index);
  arg_tensor(L, b->index);
  arg_tensor(L, out->index);
}

/* ------------------------------------ SPACE_TO_BATCH_ND, BATCH_TO_SPACE_ND */

/*
 * SPACE_TO_BATCH_ND (to_batch) and BATCH_TO_SPACE_ND (TFLite Micro's
 * reference_ops): a 4-D NHWC input with a block of two, or a 3-D NHC one
 * with a block of one; constant block shape and paddings (crops).  The
 * output shape the model declares must be the one they give.
 */
static void lower_space_batch(Lower *L, bool to_batch) {
  need_arity(L, 3, 1);
  Tensor *in = input(L, 0), *blk = input(L, 1), *pads = input(L, 2), *out = output(L, 0);
  need_same_types(L, 1, true);
  const int nd = in->ndims;
  if ((nd != 3 && nd != 4) || out->ndims != nd)
    error_at(L->g, L->op->index, "input and output must have rank 3 or 4");
  const int ns = nd - 2; /* spatial dimensions */
  if (tensor_elems(blk) != ns || tensor_elems(pads) != 2 * ns)
    error_at(L->g, L->op->index, "block shape must have %d values and paddings %d", ns,
             2 * ns);
  int64_t bs[2] = {1, 1}, before[2] = {0, 0}, after[2] = {0, 0};
  for (int d = 0; d < ns; d++) {
    bs[d] = const_int(L, blk, d, "block shape");
    before[d] = const_int(L, pads, 2 * d, to_batch ? "paddings" : "crops");
    after[d] = const_int(L, pads, 2 * d + 1, to_batch ? "paddings" : "crops");
    if (bs[d] < 1 || bs[d] > 4096 || before[d] < 0 || after[d] < 0 || before[d] > INT32_MAX ||
        after[d] > INT32_MAX)
      error_at(L->g, L->op->index, "block shape or padding out of range on dimension %d", d);
  }
  const Tensor *big = to_batch ? in : out, *small = to_batch ? out : in; /* spatially */
  ta_space_batch_params p = {0};
  p.batch = big->dims[0];
  p.in_h = in->dims[1];
  p.in_w = nd == 4 ? in->dims[2] : 1;
  p.out_h = out->dims[1];
  p.out_w = nd == 4 ? out->dims[2] : 1;
  p.block_h = (int32_t)bs[0];
  p.block_w = (int32_t)bs[1];
  p.pad_top = (int32_t)before[0];
  p.pad_left = (int32_t)before[1];
  const int64_t bh = big->dims[1], bw = nd == 4 ? big->dims[2] : 1;
  const int64_t sh = small->dims[1], sw = nd == 4 ? small->dims[2] : 1;
  /* to_batch: (big + pads) / block = small; else small * block - crops = big. */
  bool ok = small->dims[0] == (int64_t)big->dims[0] * bs[0] * bs[1] &&
            big->dims[nd - 1] == small->dims[nd - 1] &&
            bh + before[0] + after[0] == sh * bs[0] && bw + before[1] + after[1] == sw * bs[1];
  if (!ok)
    error_at(L->g, L->op->index, "output shape disagrees with the block shape and %s",
             to_batch ? "paddings" : "crops");
  if (!to_batch) /* BATCH_TO_SPACE: batch is the output's */
    p.batch = out->dims[0];
  p.elem_bytes = dtype_bits(in->dtype) / 8;
  if (p.elem_bytes != 1 && p.elem_bytes != 2 && p.elem_bytes != 4)
    unsupported_types(L);
  p.row_bytes = i32_of(L, (int64_t)in->dims[nd - 1] * p.elem_bytes);
  p.pad_value = (uint32_t)zp_of(out) & (p.elem_bytes == 1 ? 0xFFu : p.elem_bytes == 2 ? 0xFFFFu
                                                                                   : 0xFFFFFFFFu);
  L->l->kernel = to_batch ? "ta_space_to_batch_x8" : "ta_batch_to_space_x8";
  const_struct(L, "params", "ta_space_batch_params",
               arena_printf("{.batch = %d, .in_h = %d, .in_w = %d, .out_h = %d, .out_w = %d,\n"
                            "    .block_h = %d, .block_w = %d, .pad_top = %d, .pad_left = %d,\n"
                            "    .row_bytes = %d, .elem_bytes = %d, .pad_value = %" PRIu32 "u}",
                            (int)p.batch, (int)p.in_h, (int)p.in_w, (int)p.out_h, (int)p.out_w,
                            (int)p.block_h, (int)p.block_w, (int)p.pad_top, (int)p.pad_left,
                            (int)p.row_bytes, (int)p.elem_bytes, p.pad_value),
               true);
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
}

void lower_space_to_batch_nd(Lower *L) { lower_space_batch(L, true); }
void lower_batch_to_space_nd(Lower *L) { lower_space_batch(L, false); }

/* ------------------------------------------------------------ MIRROR_PAD */

/*
 * MIRROR_PAD (TFLite Micro's mirror_pad.cc): constant paddings [n, 2];
 * output index o of dimension d reads input index i = o - before, folded
 * back into [0, size) by the mode: REFLECT mirrors around the edge
 * element (-1 -> 1, size -> size - 2), SYMMETRIC repeats it (-1 -> 0,
 * size -> size - 1).  TFLite limits the padding to size - 1 (REFLECT) or
 * size (SYMMETRIC); so does this.
 */
void lower_mirror_pad(Lower *L) {
  need_arity(L, 2, 1);
  Tensor *in = input(L, 0), *pads = input(L, 1), *out = output(L, 0);
  need_same_types(L, 1, true);
  const int n = in->ndims;
  const int mode = L->op->opt.mirror_mode;
  const bool symmetric = mode == 1, edge = mode == 2, wrap = mode == 3;
  static const char *const names[4] = {"REFLECT", "SYMMETRIC", "EDGE", "WRAP"};
  if (mode < 0 || mode > 3)
    error_at(L->g, L->op->index, "mirror mode %d is not supported", mode);
  if (n < 1 || n > TA_MAX_WALK || out->ndims != n)
    error_at(L->g, L->op->index, "rank %d is not supported (1 to %d)", n, TA_MAX_WALK);
  if (tensor_elems(pads) != 2 * n)
    error_at(L->g, L->op->index, "paddings must be [%d, 2]", n);
  ta_mirror_pad_params p = {.ndims = n, .elem_bytes = dtype_bits(in->dtype) / 8};
  if (p.elem_bytes != 1 && p.elem_bytes != 2 && p.elem_bytes != 4)
    unsupported_types(L);
  int64_t st[MAX_DIMS];
  strides_of(in, st);
  int64_t nmap = 0;
  for (int d = 0; d < n; d++)
    nmap += out->dims[d];
  int32_t *map = arena_array((size_t)nmap + 1, sizeof(int32_t));
  int64_t at = 0;
  for (int d = 0; d < n; d++) {
    const int64_t size = in->dims[d];
    const int64_t b = const_int(L, pads, 2 * d, "paddings"), a = const_int(L, pads, 2 * d + 1, "paddings");
    /* EDGE repeats the border, WRAP the other side: any padding; WRAP
     * at most one input size per side (ONNX's reference takes no more). */
    const int64_t limit = symmetric || wrap ? size : edge ? INT32_MAX : size - 1;
    if (b < 0 || a < 0 || b > limit || a > limit || size < 1)
      error_at(L->g, L->op->index, "padding %" PRId64 ", %" PRId64 " of dimension %d exceeds %s"
               " mode's limit %" PRId64, b, a, d, names[mode], limit);
    if (out->dims[d] != b + size + a)
      error_at(L->g, L->op->index, "output shape disagrees with the padding");
    for (int64_t o = 0; o < out->dims[d]; o++) {
      int64_t i = o - b;
      if (edge)
        i = i < 0 ? 0 : i >= size ? size - 1 : i;
      else if (wrap)
        i = i < 0 ? i + size : i >= size ? i - size : i;
      else if (i < 0)
        i = symmetric ? -i - 1 : -i;
      else if (i >= size)
        i = symmetric ? 2 * size - 1 - i : 2 * size - 2 - i;
      map[at++] = (int32_t)i;
    }
    p.out_shape[d] = out->dims[d];
    p.in_stride[d] = i32_of(L, st[d]);
  }
  L->l->kernel = "ta_mirror_pad_x8";
  const_i32(L, "map", map, (size_t)nmap, false);
  const_struct(L, "params", "ta_mirror_pad_params",
               arena_printf("{.ndims = %d, .out_shape = %s, .in_stride = %s,\n"
                            "    .elem_bytes = %d, .map = @map}",
                            n, i32_list(p.out_shape, n), i32_list(p.in_stride, n),
                            (int)p.elem_bytes),
               true);
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
}

/* ------------------------------------------------------ L2_NORMALIZATION */

/* L2_NORMALIZATION (TFLite Micro's l2norm.cc): over the innermost
 * dimension, no fused activation.  float32; int8 with the output scale
 * TFLM demands (1/128, zero point 0). */
void lower_l2_normalization(Lower *L) {
  need_arity(L, 1, 1);
  Tensor *in = input(L, 0), *out = output(L, 0);
  if (in->dtype != out->dtype || (in->dtype != DT_FLOAT32 && in->dtype != DT_INT8))
    unsupported_types(L);
  if (L->op->opt.activation != ACT_NONE)
    error_at(L->g, L->op->index, "a fused activation is not supported here");
  if (in->ndims < 1 || tensor_elems(in) != tensor_elems(out))
    error_at(L->g, L->op->index, "output shape differs from the input's");
  const int32_t depth = in->dims[in->ndims - 1];
  const int32_t outer = depth ? i32_of(L, tensor_elems(in) / depth) : 0;
  if (in->dtype == DT_INT8) {
    if (scale_of(L, out) != 1.0f / 128 || zp_of(out) != 0)
      error_at(L->g, L->op->index, "an int8 output needs scale 1/128 and zero point 0");
    L->l->kernel = "ta_l2_normalization_s8";
    add_arg(L, ARG_INT, -1, outer);
    add_arg(L, ARG_INT, -1, depth);
    add_arg(L, ARG_INT, -1, zp_of(in));
  } else {
    L->l->kernel = "ta_l2_normalization_f32";
    add_arg(L, ARG_INT, -1, outer);
    add_arg(L, ARG_INT, -1, depth);
  }
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
}

/* ---------------------------------------------------------------- CUMSUM */

/* CUMSUM (TFLite Micro's cumsum.cc): a constant scalar axis, exclusive
 * and reverse.  float32, and int8 with TFLM's Prepare-time rescaling:
 * the input scaled by s / (2 s) after a shift of 20 (ADD's scheme with
 * one operand), every partial sum by 2 s / (2^20 s_out), both with
 * QuantizeMultiplierSmallerThanOneExp.  TFLite has no int8 CUMSUM;
 * tests/ops/test_ops_tflm.c checks this one against TFLM's code. */
void lower_cumsum(Lower *L) {
  need_arity(L, 2, 1);
  Tensor *in = input(L, 0), *axis = input(L, 1), *out = output(L, 0);
  if (in->dtype != out->dtype || (in->dtype != DT_FLOAT32 && in->dtype != DT_INT8))
    unsupported_types(L);
  if (tensor_elems(axis) != 1)
    error_at(L->g, L->op->index, "the axis must be one value");
  if (tensor_elems(in) != tensor_elems(out))
    error_at(L->g, L->op->index, "output shape differs from the input's");
  const int a = resolve_axis(L, const_int(L, axis, 0, "axis"), in->ndims);
  ta_cumsum_params p = {.axis = in->dims[a], .exclusive = L->op->opt.exclusive,
                        .reverse = L->op->opt.reverse};
  p.outer = i32_of(L, dims_product(in, 0, a));
  p.inner = i32_of(L, dims_product(in, a + 1, in->ndims));
  const char *shape = arena_printf("{.outer = %d, .axis = %d, .inner = %d, .exclusive = %d, "
                                   ".reverse = %d}",
                                   (int)p.outer, (int)p.axis, (int)p.inner,
                                   (int)p.exclusive, (int)p.reverse);
  if (in->dtype == DT_FLOAT32) {
    L->l->kernel = "ta_cumsum_f32";
    const_struct(L, "params", "ta_cumsum_params", shape, true);
  } else {
    const double twice = 2 * (double)scale_of(L, in);
    int32_t im, is, om, os;
    if (!quantize_multiplier_smaller_than_one_exp((double)scale_of(L, in) / twice,
                                                  TA_ROUND_DOUBLE, &im, &is) ||
        !quantize_multiplier_smaller_than_one_exp(
            twice / ((1 << 20) * (double)scale_of(L, out)), TA_ROUND_DOUBLE, &om, &os))
      error_at(L->g, L->op->index,
               "the output scale %g is too small for the input scale %g (TFLite Micro "
               "needs 2 x input scale < 2^20 x output scale)",
               (double)scale_of(L, out), (double)scale_of(L, in));
    L->l->kernel = "ta_cumsum_s8";
    const_struct(L, "params", "ta_cumsum_s8_params",
                 arena_printf("{.shape = %s,\n    .input_offset = %s, .input_multiplier = %s, "
                              ".input_shift = %s,\n    .output_multiplier = %s, "
                              ".output_shift = %s, .output_zero_point = %s}",
                              shape, ilit(-(int64_t)zp_of(in)), ilit(im), ilit(is), ilit(om),
                              ilit(os), ilit(zp_of(out))),
                 true);
  }
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
}
