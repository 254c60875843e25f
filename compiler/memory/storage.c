/* SPDX-License-Identifier: Apache-2.0 */
/*
 * storage.c - storage info: which buffer holds each tensor.
 *
 * Needs: a verified Graph after mark_views (Tensor.view_of set), and
 * Op.scratch_bytes from the lowering (0 until then).  Guarantees: every
 * non-constant tensor the run function touches (model inputs, every
 * output of every op, every op input that is not a constant, i.e.
 * variables, model outputs) has Tensor.storage = the index of its Buffer
 * in Plan.bufs; a view has its base's; constants and views of constants
 * have -1 (they stay in flash).  Each op with scratch has
 * Op.scratch_buffer, each op with state of its own (Op.state_bytes)
 * Op.state_buffer, a persistent buffer; the others -1.
 *
 * One buffer per base tensor, in tensor order (as TFLite Micro numbers
 * its buffers), then one per scratch, in op order.  A buffer's size is
 * the exact size of its tensors: elements * ceil(bits / 8).  Buffers of
 * model inputs and outputs live in caller-provided memory (external)
 * unless PlanOptions.io_in_workspace; variables (LSTM/SVDF state) live in
 * the persistent area, which is never shared.
 */
#include "tinyaot.h"

static const char *label(const Graph *g, int t) {
  const char *name = g->tensors[t].name;
  return arena_printf("tensor %d (%s)", t, name ? name : "?");
}

void assign_storage(Graph *g, Plan *p, const PlanOptions *opt) {
  int nt = g->ntensors;
  bool *touched = arena_array((size_t)nt + 1, sizeof(bool));
  for (int i = 0; i < g->ninputs; i++)
    touched[g->inputs[i]] = true;
  for (int i = 0; i < g->noutputs; i++)
    touched[g->outputs[i]] = true;
  for (int op = 0; op < g->nops; op++) {
    const Op *o = &g->ops[op];
    for (int k = 0; k < o->noutputs; k++)
      if (o->outputs[k] >= 0)
        touched[o->outputs[k]] = true;
    for (int k = 0; k < o->ninputs; k++) {
      int t = o->inputs[k];
      if (t < 0 || is_const(&g->tensors[t]))
        continue;
      const Tensor *x = &g->tensors[t];
      if (!x->is_input && !x->is_variable && x->producer < 0 &&
          x->view_of < 0)
        error_at(g, op, "reads %s, which nothing writes", label(g, t));
      touched[t] = true;
    }
  }

  /* Base tensors first: they number the buffers. */
  int nbufs = 0;
  int *count = arena_array((size_t)nt + 1, sizeof(int));
  for (int t = 0; t < nt; t++) {
    Tensor *x = &g->tensors[t];
    x->storage = -1;
    if (!touched[t] || is_const(x) || x->view_of >= 0)
      continue;
    x->storage = nbufs++;
    count[t] = 1;
  }
  /* Views join their base (which is touched: it is read by the view's op). */
  for (int t = 0; t < nt; t++) {
    const Tensor *x = &g->tensors[t];
    if (x->view_of >= 0 && touched[t] && !is_const(&g->tensors[x->view_of]))
      count[x->view_of]++;
  }
  int nscratch = 0, nstate = 0;
  for (int op = 0; op < g->nops; op++) {
    if (g->ops[op].scratch_bytes > 0)
      nscratch++;
    if (g->ops[op].state_bytes > 0)
      nstate++;
  }

  p->nbufs = nbufs + nscratch + nstate;
  p->bufs = arena_array((size_t)p->nbufs + 1, sizeof(Buffer));
  for (int t = 0; t < nt; t++) {
    Tensor *x = &g->tensors[t];
    if (x->storage < 0)
      continue;
    Buffer *b = &p->bufs[x->storage];
    b->id = x->storage;
    b->bytes = tensor_bytes(x);
    b->tensors = arena_array((size_t)count[t], sizeof(int));
    b->tensors[b->ntensors++] = t;
    b->persistent = x->is_variable;
  }
  for (int t = 0; t < nt; t++) {
    Tensor *x = &g->tensors[t];
    if (x->view_of < 0 || !touched[t])
      continue;
    Tensor *base = &g->tensors[x->view_of];
    if (is_const(base))
      continue; /* stays in flash, storage -1 */
    if (base->storage < 0 || base->view_of >= 0 || base->is_variable ||
        x->is_variable)
      die("%s is a view of %s, which is no base", label(g, t),
          label(g, x->view_of));
    x->storage = base->storage;
    Buffer *b = &p->bufs[x->storage];
    b->tensors[b->ntensors++] = t;
    if (tensor_bytes(x) > b->bytes)
      b->bytes = tensor_bytes(x);
  }

  for (int i = 0; i < nbufs; i++) {
    Buffer *b = &p->bufs[i];
    b->align = opt->align;
    b->scratch_op = -1;
    b->state_op = -1;
    b->inplace_of = -1;
    b->pool = -1;
    b->io = -1;
    for (int k = 0; k < b->ntensors; k++) {
      const Tensor *x = &g->tensors[b->tensors[k]];
      if (!x->is_input && !x->is_output)
        continue;
      if (b->io >= 0)
        error_at(g, -1, "%s and %s share bytes and are both model inputs or "
                        "outputs", label(g, b->io), label(g, b->tensors[k]));
      b->io = b->tensors[k];
    }
    if (b->io >= 0 && b->persistent)
      error_at(g, -1, "%s is a variable and a model input or output",
               label(g, b->io));
    b->external = b->io >= 0 && !opt->io_in_workspace;
    if (!b->external)
      b->io = -1;
  }
  int id = nbufs;
  for (int op = 0; op < g->nops; op++) {
    Op *o = &g->ops[op];
    o->scratch_buffer = -1;
    if (o->scratch_bytes == 0)
      continue;
    Buffer *b = &p->bufs[id];
    b->id = id;
    b->bytes = o->scratch_bytes;
    b->align = opt->align;
    b->scratch_op = op;
    b->state_op = -1;
    b->inplace_of = -1;
    b->pool = -1;
    b->io = -1;
    o->scratch_buffer = id++;
  }
  for (int op = 0; op < g->nops; op++) {
    Op *o = &g->ops[op];
    o->state_buffer = -1;
    if (o->state_bytes == 0)
      continue;
    Buffer *b = &p->bufs[id];
    b->id = id;
    b->bytes = o->state_bytes;
    b->align = opt->align;
    b->scratch_op = -1;
    b->state_op = op;
    b->inplace_of = -1;
    b->persistent = true;
    b->pool = -1;
    b->io = -1;
    o->state_buffer = id++;
  }
}
