/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fold.c - ops whose result the compiler knows: SHAPE (the input's static
 * shape), BROADCAST_ARGS of constant shapes, FILL of a constant value,
 * DEQUANTIZE of a constant float16 tensor (TFLite's float16 weights:
 * widened exactly to float32 by the runtime's own ta_cast_f16_f32).
 * They cost nothing at run time.
 *
 * fold_value() computes such an op's output bytes.  fold_constants(), a
 * graph pass, turns each of these ops whose output is no model output
 * into a constant: the output tensor gets the bytes (data, ndata, no
 * producer), and the op is marked folded and detached from the data flow
 * (no inputs, no outputs: ninputs = noutputs = 0; outputs[0] still names
 * the tensor it became, for the runner's comment).  The lowering gives a
 * folded op no call.  An op left unfolded - a model output, or a model
 * compiled with --no-views, which runs no graph pass - is lowered as a
 * copy of the same bytes (lower_data.c).
 *
 * Needs: a verified graph (static shapes).  Guarantees: the graph
 * computes the same bytes; verify() holds (a folded op reads and writes
 * nothing).
 */
#include "tinyaot.h"
#include "ta_kernels.h"

#include <string.h>

/* Element k of constant int32/int64 tensor t, or false. */
static bool int_at(const Tensor *t, int64_t k, int64_t *v) {
  if (!is_const(t) || k >= tensor_elems(t))
    return false;
  if (t->dtype == DT_INT32 && t->ndata >= 4 * (size_t)(k + 1)) {
    int32_t x;
    memcpy(&x, t->data + 4 * k, 4);
    *v = x;
    return true;
  }
  if (t->dtype == DT_INT64 && t->ndata >= 8 * (size_t)(k + 1)) {
    memcpy(v, t->data + 8 * k, 8);
    return true;
  }
  return false;
}

/* n int64 values written as dt (int32 or int64) into a new arena buffer. */
static bool put_ints(DType dt, const int64_t *v, int n, uint8_t **bytes, size_t *nbytes) {
  if (dt != DT_INT32 && dt != DT_INT64)
    return false;
  size_t w = dt == DT_INT32 ? 4 : 8;
  uint8_t *b = arena_alloc(w * (size_t)n + 1);
  for (int k = 0; k < n; k++) {
    if (dt == DT_INT32) {
      if (v[k] < INT32_MIN || v[k] > INT32_MAX)
        return false;
      int32_t x = (int32_t)v[k];
      memcpy(b + 4 * k, &x, 4);
    } else {
      memcpy(b + 8 * k, &v[k], 8);
    }
  }
  *bytes = b;
  *nbytes = w * (size_t)n;
  return true;
}

bool fold_value(const Graph *g, const Op *op, uint8_t **bytes, size_t *nbytes) {
  if (op->noutputs != 1 || op->outputs[0] < 0 || op->ninputs < 1 || op->inputs[0] < 0)
    return false;
  const Tensor *out = &g->tensors[op->outputs[0]];
  const Tensor *a = &g->tensors[op->inputs[0]];
  int64_t v[MAX_DIMS];
  switch (op->kind) {
  case OP_SHAPE: /* reference: the input's dims, as int32 or int64 */
    if (tensor_elems(out) != a->ndims)
      return false;
    for (int d = 0; d < a->ndims; d++)
      v[d] = a->dims[d];
    return put_ints(out->dtype, v, a->ndims, bytes, nbytes);
  case OP_BROADCAST_ARGS: { /* numpy broadcasting of two shape vectors */
    if (op->ninputs != 2 || op->inputs[1] < 0)
      return false;
    const Tensor *b = &g->tensors[op->inputs[1]];
    int64_t na = tensor_elems(a), nb = tensor_elems(b), n = na > nb ? na : nb;
    if (n > MAX_DIMS || tensor_elems(out) != n)
      return false;
    for (int64_t k = 0; k < n; k++) {
      int64_t x = 1, y = 1;
      if (k >= n - na && !int_at(a, k - (n - na), &x))
        return false;
      if (k >= n - nb && !int_at(b, k - (n - nb), &y))
        return false;
      if (x != y && x != 1 && y != 1)
        return false;
      v[k] = x == 1 ? y : x;
    }
    return put_ints(out->dtype, v, (int)n, bytes, nbytes);
  }
  case OP_FILL: { /* every element the scalar value */
    if (op->ninputs != 2 || op->inputs[1] < 0)
      return false;
    const Tensor *val = &g->tensors[op->inputs[1]];
    size_t w = (size_t)dtype_bits(out->dtype) / 8;
    if (!is_const(val) || val->dtype != out->dtype || w == 0 || val->ndata < w ||
        tensor_elems(val) != 1)
      return false;
    size_t n = (size_t)tensor_elems(out);
    uint8_t *b = arena_alloc(n * w + 1);
    for (size_t k = 0; k < n; k++)
      memcpy(b + k * w, val->data, w);
    *bytes = b;
    *nbytes = n * w;
    return true;
  }
  case OP_DEQUANTIZE: { /* float16 -> float32, exact */
    size_t n = (size_t)tensor_elems(a);
    if (!is_const(a) || a->dtype != DT_FLOAT16 || out->dtype != DT_FLOAT32 ||
        tensor_elems(out) != (int64_t)n || a->ndata < 2 * n || n > INT32_MAX)
      return false;
    float *f = arena_alloc(4 * n + 1);
    if (ta_cast_f16_f32((int32_t)n, a->data, f) != TA_OK)
      return false;
    *bytes = (uint8_t *)f;
    *nbytes = 4 * n;
    return true;
  }
  default:
    return false;
  }
}

void fold_constants(Graph *g) {
  for (int i = 0; i < g->nops; i++) {
    Op *op = &g->ops[i];
    uint8_t *bytes;
    size_t n;
    if (op->kind != OP_SHAPE && op->kind != OP_BROADCAST_ARGS && op->kind != OP_FILL &&
        op->kind != OP_DEQUANTIZE)
      continue;
    if (!fold_value(g, op, &bytes, &n))
      continue;
    Tensor *out = &g->tensors[op->outputs[0]];
    if (out->is_output || out->is_variable || n != tensor_bytes(out))
      continue;
    out->data = bytes;
    out->ndata = n;
    out->producer = -1;
    op->folded = true;
    op->ninputs = 0;
    op->noutputs = 0;
  }
}
