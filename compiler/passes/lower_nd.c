/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lower_nd.c - lowering of the window ops over 1 to 3 spatial axes in the
 * ONNX layout [N][C][spatial] (rows with no TFLite builtin, made by the
 * ONNX front end for what TFLite's 2-D NHWC kernels cannot express):
 * MAX_POOL_ND, AVERAGE_POOL_ND, CONV_TRANSPOSE_ND, all float32.
 *
 * Each takes a constant int32 window table [5][nsp] (nsp: the spatial
 * axes, 1 to 3): kernel, stride, dilation, padding before and padding
 * after, one column per axis.  The pools' kernel row is the window; the
 * transposed convolution's kernel comes from its filter and its row must
 * agree.  Attributes: count_include_pad (AVERAGE_POOL_ND), column_major
 * (MAX_POOL_ND's indices, ONNX storage_order 1), group
 * (CONV_TRANSPOSE_ND).  The spatial axes are padded to three with unit
 * axes in front (extent, kernel, stride, dilation 1, no padding).
 */
#include "lower.h"

#include <string.h>

typedef struct {
  int nsp;
  int32_t in[3], out[3], kernel[3], stride[3], dilation[3], pad[3], pad_end[3];
} Window;

static int64_t attr_int(Lower *L, const char *key, int64_t def) {
  const Attr *a = op_attr(L->op, key);
  return a ? a->i : def;
}

/* Reads the window table (input k) for in -> out, checking what the
 * kernels rely on. */
static Window window(Lower *L, int k, const Tensor *in, const Tensor *out) {
  Tensor *w = input(L, k);
  Window v;
  memset(&v, 0, sizeof v);
  if (w->dtype != DT_INT32 || w->ndims != 2 || w->dims[0] != 5 || w->dims[1] < 1 ||
      w->dims[1] > 3)
    error_at(L->g, L->op->index, "the window table must be int32 [5, 1..3]");
  need_const(L, w, "window table");
  v.nsp = (int)w->dims[1];
  if (in->ndims != v.nsp + 2 || out->ndims != v.nsp + 2 || in->dims[0] != out->dims[0])
    error_at(L->g, L->op->index, "input and output must be [N, C, %d spatial axes]", v.nsp);
  for (int a = 0; a < 3; a++) {
    v.in[a] = v.out[a] = v.kernel[a] = v.stride[a] = v.dilation[a] = 1;
  }
  for (int s = 0; s < v.nsp; s++) {
    int a = 3 - v.nsp + s;
    int64_t row[5];
    for (int r = 0; r < 5; r++) {
      row[r] = const_int(L, w, r * v.nsp + s, "window table");
      if (row[r] < -INT32_MAX / 4 || row[r] > INT32_MAX / 4)
        error_at(L->g, L->op->index, "window table entry out of range");
    }
    if (row[0] < 1 || row[1] < 1 || row[2] < 1)
      error_at(L->g, L->op->index, "kernel, strides and dilations must be positive");
    v.in[a] = in->dims[2 + s], v.out[a] = out->dims[2 + s];
    v.kernel[a] = (int32_t)row[0], v.stride[a] = (int32_t)row[1];
    v.dilation[a] = (int32_t)row[2], v.pad[a] = (int32_t)row[3], v.pad_end[a] = (int32_t)row[4];
    if (v.in[a] < 1)
      error_at(L->g, L->op->index, "an empty spatial axis");
    int64_t last = (int64_t)(v.out[a] - 1) * v.stride[a] + (int64_t)(v.kernel[a] - 1) * v.dilation[a];
    if (last > INT32_MAX / 2 || (int64_t)v.in[a] + v.pad[a] + v.pad_end[a] > INT32_MAX / 2)
      error_at(L->g, L->op->index, "the windows reach too far");
  }
  return v;
}

static const char *triple(const int32_t *v) {
  return arena_printf("{%d, %d, %d}", (int)v[0], (int)v[1], (int)v[2]);
}

static void pool_nd(Lower *L, bool max) {
  Tensor *in = input(L, 0), *out = output(L, 0);
  Tensor *idx = max && L->op->noutputs > 1 && L->op->outputs[1] >= 0 ? output(L, 1) : NULL;
  if (L->op->ninputs != 2 || L->op->noutputs > (max ? 2 : 1))
    error_at(L->g, L->op->index, "takes an input and a window table, gives %s",
             max ? "an output and optionally indices" : "one output");
  if (in->dtype != DT_FLOAT32 || out->dtype != DT_FLOAT32 || (idx && idx->dtype != DT_INT64))
    unsupported_types(L);
  Window v = window(L, 1, in, out);
  if (in->dims[1] != out->dims[1])
    error_at(L->g, L->op->index, "input and output channels differ");
  if (idx && (idx->ndims != out->ndims || tensor_elems(idx) != tensor_elems(out)))
    error_at(L->g, L->op->index, "the indices must have the output's shape");
  L->l->kernel = max ? "ta_max_pool_nd_f32" : "ta_avg_pool_nd_f32";
  const_struct(L, "params", "ta_pool_nd_params",
               arena_printf("{.batches = %d, .channels = %d, .in = %s, .out = %s,\n"
                            "    .kernel = %s, .stride = %s, .dilation = %s,\n"
                            "    .pad = %s, .pad_end = %s,\n"
                            "    .count_include_pad = %d, .column_major = %d}",
                            (int)in->dims[0], (int)in->dims[1], triple(v.in), triple(v.out),
                            triple(v.kernel), triple(v.stride), triple(v.dilation),
                            triple(v.pad), triple(v.pad_end),
                            !max && attr_int(L, "count_include_pad", 0) != 0,
                            max && attr_int(L, "column_major", 0) != 0),
               true);
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
  if (max)
    arg_optional(L, idx);
}

void lower_max_pool_nd(Lower *L) { pool_nd(L, true); }
void lower_average_pool_nd(Lower *L) { pool_nd(L, false); }

/* CONV_TRANSPOSE_ND: inputs x, filter [C_in][C_out / group][kernel]
 * (constant), bias [C_out] (constant, or left out), window table. */
void lower_conv_transpose_nd(Lower *L) {
  if (L->op->ninputs != 4 || L->op->noutputs != 1)
    error_at(L->g, L->op->index, "takes x, filter, bias (or none) and a window table");
  Tensor *in = input(L, 0), *w = input(L, 1), *b = optional_input(L, 2), *out = output(L, 0);
  if (in->dtype != DT_FLOAT32 || w->dtype != DT_FLOAT32 || out->dtype != DT_FLOAT32 ||
      (b && b->dtype != DT_FLOAT32))
    unsupported_types(L);
  need_const(L, w, "filter");
  if (b)
    need_const(L, b, "bias");
  Window v = window(L, 3, in, out);
  int64_t group = attr_int(L, "group", 1);
  int32_t cin = in->dims[1], cout = out->dims[1];
  if (group < 1 || group > cin || cin % group || cout % group)
    error_at(L->g, L->op->index, "group %lld does not divide %d input and %d output channels",
             (long long)group, (int)cin, (int)cout);
  bool fits = w->ndims == v.nsp + 2 && w->dims[0] == cin && w->dims[1] == cout / group;
  for (int s = 0; fits && s < v.nsp; s++)
    fits = w->dims[2 + s] == v.kernel[3 - v.nsp + s];
  if (!fits)
    error_at(L->g, L->op->index, "the filter must be [C_in, C_out / group, kernel]");
  if (b && (b->ndims != 1 || b->dims[0] != cout))
    error_at(L->g, L->op->index, "the bias must have %d values", (int)cout);
  L->l->kernel = "ta_conv_transpose_nd_f32";
  const_struct(L, "params", "ta_conv_transpose_nd_params",
               arena_printf("{.batches = %d, .in_channels = %d, .out_channels = %d,\n"
                            "    .group = %d, .in = %s, .out = %s, .kernel = %s,\n"
                            "    .stride = %s, .dilation = %s, .pad = %s}",
                            (int)in->dims[0], (int)cin, (int)cout, (int)group, triple(v.in),
                            triple(v.out), triple(v.kernel), triple(v.stride),
                            triple(v.dilation), triple(v.pad)),
               true);
  arg_tensor(L, in->index);
  arg_tensor(L, w->index);
  arg_optional(L, b);
  arg_tensor(L, out->index);
}
