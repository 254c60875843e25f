/* SPDX-License-Identifier: Apache-2.0 */
/*
 * verify.c - the IR invariants, checked after reading and after every
 * pass (in tests and debug builds).
 *
 * Needs: a Graph whose indices are in range (read_tflite guarantees it).
 * Guarantees, when it returns:
 *   - the model has at least one input and one output;
 *   - every tensor an op reads is a constant, a model input, a variable
 *     tensor or the output of an earlier op; every tensor is written by
 *     at most one op, never a constant or a model input; every model
 *     output is produced (or is an input or a constant);
 *   - shapes are static: no -1 in shape_signature, except a batch
 *     dimension (dim 0) whose static size is 1, as Keras writes it;
 *   - IF and WHILE: their structure ops nest, and what a branch or loop
 *     computes is read only inside it (verify_control, control.c);
 *   - every tensor's byte size is bounded (tensor_bytes() cannot
 *     overflow) and constant data is exactly that size;
 *   - quantization is well formed: per-channel scales match the size of
 *     the quantized dimension; every scale of an integer tensor is a
 *     positive normal float or 0, every zero point fits the element type;
 *   - no string or complex tensors are read or written, and no empty
 *     ones except constants; convolution and
 *     pooling strides, dilations and filter sizes are >= 1; float options
 *     (softmax beta, leaky relu alpha, LSTM clips) are finite.
 * Custom ops are legal here (inspect shows them); later steps refuse
 * what they cannot compile.  Anything else -> error_at().
 *
 * After the passes and the lowering it also checks what they added
 * (a violation is a compiler bug -> die()):
 *   - a view (view_of >= 0) names a base that is no view itself, has its
 *     bytes, is not a variable, and is written by an op reading its base
 *     (or a view of it) as input 0;
 *   - a lowered op (Op.lowered set) has a kernel unless its output is a
 *     view or it was fused into another op's call (then it has neither
 *     inputs nor outputs); every tensor argument is a tensor of the graph, every
 *     constant argument one of its constants; each input it allows in
 *     place (Lowered.inplace) exists and has output 0's byte size, and
 *     an input it declares an overlap with (Lowered.overlap) exists.
 */
#include "tinyaot.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define MAX_TENSOR_BYTES ((int64_t)INT32_MAX)

/* The zero points each quantized integer type can hold; types without a
 * row (float, bool, ...) have their quantization ignored by every kernel. */
static const struct {
  DType dt;
  int64_t lo, hi;
} zero_point_ranges[] = {
    {DT_INT4, -8, 7},
    {DT_INT8, INT8_MIN, INT8_MAX},
    {DT_UINT8, 0, UINT8_MAX},
    {DT_INT16, INT16_MIN, INT16_MAX},
    {DT_UINT16, 0, UINT16_MAX},
    {DT_INT32, INT32_MIN, INT32_MAX},
    {DT_UINT32, 0, UINT32_MAX},
    {DT_INT64, INT64_MIN, INT64_MAX},
};

/* Every scale a positive normal float (the multipliers derived from it
 * stay finite) or 0 (as converters write for a tensor whose op ignores
 * it, such as CAST's; lowerings that need a scale refuse 0, scale_of()),
 * every zero point inside the element type. */
static void verify_quant_values(const Graph *g, const Tensor *t) {
  for (size_t r = 0; r < sizeof zero_point_ranges / sizeof *zero_point_ranges; r++) {
    if (zero_point_ranges[r].dt != t->dtype)
      continue;
    for (int c = 0; c < t->q.nscale; c++) {
      float s = t->q.scale[c];
      int64_t zp = t->q.zero_point ? t->q.zero_point[c] : 0;
      if (!(s == 0 || (s >= FLT_MIN && s <= FLT_MAX)))
        error_at(g, -1,
                 "tensor %d (%s): quantization scale %g (channel %d) is not a "
                 "positive normal number",
                 t->index, t->name, (double)s, c);
      if (zp < zero_point_ranges[r].lo || zp > zero_point_ranges[r].hi)
        error_at(g, -1,
                 "tensor %d (%s): zero point %lld (channel %d) does not fit "
                 "its type %s",
                 t->index, t->name, (long long)zp, c, dtype_name(t->dtype));
    }
  }
}

static void verify_tensor(const Graph *g, const Tensor *t) {
  int64_t elems = 1;
  int64_t width = (dtype_bits(t->dtype) + 7) / 8;
  if (t->ndims < 0 || t->ndims > MAX_DIMS)
    error_at(g, -1, "tensor %d (%s): rank %d", t->index, t->name, t->ndims);
  for (int i = 0; i < t->ndims; i++) {
    if (t->dims[i] < 0)
      error_at(g, -1, "tensor %d (%s): dimension %d is %d", t->index, t->name,
               i, t->dims[i]);
    if (t->dims[i] > 0 && elems > MAX_TENSOR_BYTES / t->dims[i])
      error_at(g, -1, "tensor %d (%s): too large", t->index, t->name);
    elems *= t->dims[i];
  }
  if (width > 0 && elems > MAX_TENSOR_BYTES / width)
    error_at(g, -1, "tensor %d (%s): too large", t->index, t->name);

  if (t->nsignature) {
    if (t->nsignature != t->ndims)
      error_at(g, -1, "tensor %d (%s): shape_signature has rank %d, shape %d",
               t->index, t->name, t->nsignature, t->ndims);
    for (int i = 0; i < t->ndims; i++) {
      int32_t s = t->signature[i];
      if (s == -1 && i == 0 && t->dims[0] == 1)
        continue; /* Keras' batch dimension: taken as 1 */
      if (s == -1)
        error_at(g, -1,
                 "tensor %d (%s): dimension %d is dynamic (-1 in "
                 "shape_signature); only static shapes are supported",
                 t->index, t->name, i);
      if (s != t->dims[i])
        error_at(g, -1,
                 "tensor %d (%s): shape_signature[%d] = %d but shape[%d] = %d",
                 t->index, t->name, i, s, i, t->dims[i]);
    }
  }

  if (t->data) {
    size_t want = (size_t)elems * (size_t)width;
    size_t packed = ((size_t)elems * (size_t)dtype_bits(t->dtype) + 7) / 8;
    if (t->ndata != want && t->ndata != packed)
      error_at(g, -1,
               "tensor %d (%s): constant data has %zu bytes, its shape needs "
               "%zu",
               t->index, t->name, t->ndata, want);
  }

  if (t->q.nscale > 1) {
    /* Per channel along q.axis.  Some converters write a 1-D bias with
     * the filter's quantized_dimension (3): then the one dimension is
     * meant. */
    int axis = t->q.axis;
    if (axis >= t->ndims && t->ndims == 1)
      axis = 0;
    if (axis < 0 || axis >= t->ndims)
      error_at(g, -1, "tensor %d (%s): quantized_dimension %d out of range",
               t->index, t->name, t->q.axis);
    if (t->q.nscale != t->dims[axis])
      error_at(g, -1,
               "tensor %d (%s): %d quantization scales for dimension %d of "
               "size %d",
               t->index, t->name, t->q.nscale, axis, t->dims[axis]);
  }
  verify_quant_values(g, t);
}

/* Ops that read or write complex64 tensors: RFFT2D makes them,
 * COMPLEX_ABS reads them, the reshaping views pass them on. */
static bool takes_complex(OpKind k) {
  return k == OP_RFFT2D || k == OP_COMPLEX_ABS || k == OP_RESHAPE || k == OP_SQUEEZE ||
         k == OP_EXPAND_DIMS;
}

/* A tensor that an op or the model reads or writes must have a usable
 * element type. */
static void verify_use(const Graph *g, int op, const Tensor *t) {
  if (t->dtype == DT_STRING)
    error_at(g, op, "tensor %d (%s) has type %s, which is not supported",
             t->index, t->name, dtype_name(t->dtype));
  if (t->dtype == DT_COMPLEX64 && op >= 0 && !takes_complex(g->ops[op].kind))
    error_at(g, op, "tensor %d (%s) has type complex64, which only RFFT2D, COMPLEX_ABS "
             "and RESHAPE, SQUEEZE, EXPAND_DIMS take", t->index, t->name);
  /* A value the runner holds needs at least one element: no kernel is
   * written for empty tensors (constants may be empty: a RESHAPE to a
   * scalar reads a shape of size 0). */
  if (!is_const(t) && tensor_elems(t) == 0)
    error_at(g, op, "tensor %d (%s) has a dimension of size 0; empty tensors "
                    "are not supported", t->index, t->name);
}

static void verify_options(const Graph *g, const Op *op) {
  const Options *o = &op->opt;
  if ((o->fields & OPTF_STRIDE) && (o->stride_w < 1 || o->stride_h < 1))
    error_at(g, op->index, "stride %dx%d must be at least 1", o->stride_w,
             o->stride_h);
  if ((o->fields & OPTF_DILATION) && (o->dilation_w < 1 || o->dilation_h < 1))
    error_at(g, op->index, "dilation %dx%d must be at least 1", o->dilation_w,
             o->dilation_h);
  if ((o->fields & OPTF_FILTER) && (o->filter_w < 1 || o->filter_h < 1))
    error_at(g, op->index, "filter %dx%d must be at least 1", o->filter_w,
             o->filter_h);
  if ((o->fields & OPTF_BETA) && !isfinite(o->beta))
    error_at(g, op->index, "beta %g is not a finite number", (double)o->beta);
  if ((o->fields & OPTF_ALPHA) && !isfinite(o->alpha))
    error_at(g, op->index, "alpha %g is not a finite number", (double)o->alpha);
  if ((o->fields & OPTF_LSTM) && !(o->cell_clip >= 0 && o->cell_clip <= FLT_MAX &&
                                   o->proj_clip >= 0 && o->proj_clip <= FLT_MAX))
    error_at(g, op->index, "cell_clip %g and proj_clip %g must be finite and not "
             "negative", (double)o->cell_clip, (double)o->proj_clip);
}

#ifdef NDEBUG
bool verify_each_pass = false;
#else
bool verify_each_pass = true;
#endif

static void verify_views(const Graph *g) {
  for (int i = 0; i < g->ntensors; i++) {
    const Tensor *t = &g->tensors[i];
    if (t->view_of < 0)
      continue;
    if (t->view_of >= g->ntensors || t->view_of == i)
      die("tensor %d is a view of %d", i, t->view_of);
    const Tensor *b = &g->tensors[t->view_of];
    if (b->view_of >= 0 || t->is_variable || b->is_variable ||
        tensor_bytes(t) != tensor_bytes(b))
      die("tensor %d (%zu bytes) is a view of tensor %d (%zu bytes), which "
          "cannot be its base", i, tensor_bytes(t), t->view_of, tensor_bytes(b));
    const Op *op = t->producer >= 0 ? &g->ops[t->producer] : NULL;
    int in = op && op->ninputs > 0 ? op->inputs[0] : -1;
    if (in < 0 || (in != t->view_of && g->tensors[in].view_of != t->view_of))
      die("tensor %d is a view of %d, but its op does not read it", i,
          t->view_of);
  }
}

static void verify_lowered(const Graph *g, const Op *op) {
  const Lowered *l = op_lowered(op);
  int i = op->index;
  bool view = op->noutputs == 1 && op->outputs[0] >= 0 &&
              g->tensors[op->outputs[0]].view_of >= 0;
  if (!l->kernel && !view && !op->folded && !l->fused)
    die("op %d (%s) has no kernel", i, op_display_name(g, i));
  if (l->fused && (l->kernel || op->ninputs || op->noutputs || l->fused_op < 0 ||
                   l->fused_op >= g->nops))
    die("op %d (%s) was fused into op %d, but still has a kernel, inputs or outputs", i,
        op_display_name(g, i), l->fused_op);
  if (op->folded && (l->kernel || op->ninputs || op->noutputs))
    die("op %d (%s) was folded, but still has a kernel, inputs or outputs", i,
        op_display_name(g, i));
  for (int k = 0; k < l->nargs; k++) {
    const KernelArg *a = &l->args[k];
    if ((a->kind == ARG_TENSOR && (a->index < 0 || a->index >= g->ntensors)) ||
        (a->kind == ARG_CONST && (a->index < 0 || a->index >= l->nconsts)))
      die("op %d (%s): argument %d points nowhere (%d)", i,
          op_display_name(g, i), k, a->index);
  }
  for (int k = 0; k < 32; k++) {
    if (!(l->inplace >> k & 1))
      continue;
    if (k >= op->ninputs || op->inputs[k] < 0 || op->noutputs < 1 ||
        tensor_bytes(&g->tensors[op->inputs[k]]) !=
            tensor_bytes(&g->tensors[op->outputs[0]]))
      die("op %d (%s) may run in place over input %d, which has not output "
          "0's size", i, op_display_name(g, i), k);
  }
  const OverlapDecl *d = &l->overlap;
  if (d->declared &&
      (d->input < 0 || d->input >= op->ninputs || op->inputs[d->input] < 0 ||
       op->noutputs < 1 || op->outputs[0] < 0 || d->nblocks < 1 || d->nblocks > 2))
    die("op %d (%s) declares an overlap with input %d that is not one", i,
        op_display_name(g, i), d->input);
}

void verify(const Graph *g) {
  /* The generated API has one struct member per input and output (C has
   * no empty structs), and a model without outputs computes nothing. */
  if (g->ninputs == 0 || g->noutputs == 0)
    error_at(g, -1, "the model has %d inputs and %d outputs; it needs at "
                    "least one of each", g->ninputs, g->noutputs);
  for (int i = 0; i < g->ntensors; i++) {
    if (g->tensors[i].index != i)
      die("tensor %d has index %d", i, g->tensors[i].index);
    verify_tensor(g, &g->tensors[i]);
  }

  /* ready[t]: t may be read now. */
  bool *ready = arena_array((size_t)g->ntensors + 1, sizeof *ready);
  int *writer = arena_array((size_t)g->ntensors + 1, sizeof *writer);
  for (int i = 0; i < g->ntensors; i++) {
    const Tensor *t = &g->tensors[i];
    ready[i] = is_const(t) || t->is_variable;
    writer[i] = -1;
  }
  for (int i = 0; i < g->ninputs; i++) {
    verify_use(g, -1, &g->tensors[g->inputs[i]]);
    ready[g->inputs[i]] = true;
  }

  for (int i = 0; i < g->nops; i++) {
    const Op *op = &g->ops[i];
    if (op->index != i)
      die("op %d has index %d", i, op->index);
    if (op->kind == OP_CALL || (op->kind == OP_CALL_ONCE && !op->folded))
      error_at(g, i, "control flow other than IF and WHILE is not supported");
    verify_options(g, op);
    for (int k = 0; k < op->ninputs; k++) {
      int ti = op->inputs[k];
      if (ti < 0)
        continue; /* optional input left out */
      const Tensor *t = &g->tensors[ti];
      verify_use(g, i, t);
      if (ready[ti])
        continue;
      if (writer[ti] < 0 && t->producer > i)
        error_at(g, i,
                 "input %d reads tensor %d (%s) before op %d produces it", k,
                 ti, t->name, t->producer);
      error_at(g, i,
               "input %d reads tensor %d (%s), which is neither a constant, "
               "a model input, a variable nor produced by an earlier op",
               k, ti, t->name);
    }
    for (int k = 0; k < op->noutputs; k++) {
      int ti = op->outputs[k];
      if (ti < 0)
        error_at(g, i, "output %d is missing", k);
      const Tensor *t = &g->tensors[ti];
      verify_use(g, i, t);
      if (writer[ti] >= 0)
        error_at(g, i, "output %d writes tensor %d (%s), already written by "
                       "op %d",
                 k, ti, t->name, writer[ti]);
      if (is_const(t))
        error_at(g, i, "output %d writes the constant tensor %d (%s)", k, ti,
                 t->name);
      if (t->is_input)
        error_at(g, i, "output %d writes the model input %d (%s)", k, ti,
                 t->name);
      if (t->producer != i)
        error_at(g, i, "tensor %d (%s) records producer %d", ti, t->name,
                 t->producer);
      writer[ti] = i;
      ready[ti] = true;
    }
  }

  for (int i = 0; i < g->ntensors; i++)
    if (writer[i] < 0 && g->tensors[i].producer >= 0)
      error_at(g, -1, "tensor %d (%s) records producer %d, which does not "
                      "write it",
               i, g->tensors[i].name, g->tensors[i].producer);
  for (int i = 0; i < g->noutputs; i++) {
    const Tensor *t = &g->tensors[g->outputs[i]];
    verify_use(g, -1, t);
    if (!ready[t->index])
      error_at(g, -1, "model output %d (tensor %d, %s) is never produced", i,
               t->index, t->name);
  }

  verify_control(g);
  verify_views(g);
  for (int i = 0; i < g->nops; i++)
    if (g->ops[i].lowered)
      verify_lowered(g, &g->ops[i]);
}
