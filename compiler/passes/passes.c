/* SPDX-License-Identifier: Apache-2.0 */
/*
 * passes.c - graph passes between verify and lowering.
 *
 * Needs: a verified Graph, ops in model (topological) order.  Guarantees:
 * the graph computes the same bytes; only Tensor.view_of changes.
 *
 * mark_views: an op whose output is bytewise its input (RESHAPE,
 * SQUEEZE, EXPAND_DIMS; CAST to the same type; QUANTIZE between identical
 * types and parameters) needs no copy when its output can share its
 * input's bytes.  The output then becomes a view: Tensor.view_of = the
 * base, the tensor at the root of the chain (never itself a view); the
 * op emits no code.  Sharing is legal only when the group (a base and
 * every view of it) keeps one meaning for its bytes:
 *   - no variable anywhere in it (the LSTM/SVDF state changes under it);
 *   - at most one model input or output in it: the generated code takes
 *     inputs and outputs as caller pointers, and one group cannot live in
 *     two caller buffers, nor can an output alias the caller's input;
 *   - a view of a constant stays in flash (storage -1), so it must not be
 *     a model output (those are written into the caller's buffer);
 *   - no WHILE loop variable as the base: END_WHILE rewrites it, and a
 *     view of one copied into another loop variable would be overwritten
 *     halfway through those copies.
 * When it is not legal, the op stays a copy.
 */
#include "tinyaot.h"

#include <string.h>

/* Does op copy its first input to its only output byte for byte? */
static bool is_bytewise_copy(const Graph *g, const Op *op) {
  if (op->ninputs < 1 || op->noutputs != 1 || op->inputs[0] < 0 ||
      op->outputs[0] < 0)
    return false;
  const Tensor *in = &g->tensors[op->inputs[0]];
  const Tensor *out = &g->tensors[op->outputs[0]];
  if (in->dtype != out->dtype || tensor_bytes(in) != tensor_bytes(out))
    return false;
  switch (op->kind) {
  case OP_RESHAPE:
  case OP_SQUEEZE:
  case OP_EXPAND_DIMS:
  case OP_CAST:
    return true;
  case OP_QUANTIZE:
    /* A requantization with one scale and zero point on both sides. */
    if (in->q.nscale != 1 || out->q.nscale != 1)
      return false;
    return in->q.scale[0] == out->q.scale[0] &&
           in->q.zero_point[0] == out->q.zero_point[0];
  default:
    return false;
  }
}

static int io_count(const Tensor *t) { return t->is_input + t->is_output; }

void mark_views(Graph *g) {
  /* io[b]: model inputs and outputs in the group of base b. */
  int *io = arena_array((size_t)g->ntensors + 1, sizeof(int));
  for (int t = 0; t < g->ntensors; t++)
    io[t] = io_count(&g->tensors[t]);
  for (int i = 0; i < g->nops; i++) {
    const Op *op = &g->ops[i];
    if (!is_bytewise_copy(g, op))
      continue;
    int in = op->inputs[0], out = op->outputs[0];
    Tensor *view = &g->tensors[out];
    int base = g->tensors[in].view_of >= 0 ? g->tensors[in].view_of : in;
    const Tensor *b = &g->tensors[base];
    if (view->view_of >= 0 || out == base || view->is_variable ||
        is_const(view) || view->is_input || b->is_variable ||
        g->tensors[in].is_variable || b->loop_var)
      continue;
    if (is_const(b)) {
      if (!view->is_output)
        view->view_of = base;
      continue;
    }
    if (!b->is_input && b->producer < 0)
      continue; /* not a value the runner has: leave it to verify */
    if (io[base] + io[out] > 1)
      continue;
    view->view_of = base;
    io[base] += io[out];
  }
}

/* Each pass, then verify() when verify_each_pass. */
void run_passes(Graph *g) {
  fold_constants(g); /* fold.c */
  mark_views(g);
  if (verify_each_pass)
    verify(g);
}
