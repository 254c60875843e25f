/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_plan_graph.h - builds small Graphs by hand for the planner's
 * tests (no .tflite file needed).
 */
#ifndef TEST_PLAN_GRAPH_H
#define TEST_PLAN_GRAPH_H

#include "tinyaot.h"

#ifndef TG_MAX_TENSORS
#define TG_MAX_TENSORS 512
#endif
#ifndef TG_MAX_OPS
#define TG_MAX_OPS 256
#endif

static const uint8_t tg_const_bytes[1 << 16];

static inline Graph *tg_new(void) {
  Graph *g = arena_alloc(sizeof *g);
  g->path = "test.tflite";
  g->tensors = arena_array(TG_MAX_TENSORS, sizeof(Tensor));
  g->ops = arena_array(TG_MAX_OPS, sizeof(Op));
  g->inputs = arena_array(TG_MAX_TENSORS, sizeof(int));
  g->outputs = arena_array(TG_MAX_TENSORS, sizeof(int));
  g->nsubgraphs = 1;
  return g;
}

/* A tensor of n elements of dt (as shape [1, n]). */
static inline int tg_tensor(Graph *g, DType dt, int n) {
  if (g->ntensors >= TG_MAX_TENSORS)
    die("test graph: too many tensors");
  int t = g->ntensors++;
  Tensor *x = &g->tensors[t];
  x->index = t;
  x->name = arena_printf("t%d", t);
  x->dtype = dt;
  x->ndims = 2;
  x->dims[0] = 1;
  x->dims[1] = n;
  x->producer = -1;
  x->storage = -1;
  x->view_of = -1;
  return t;
}

static inline int tg_const(Graph *g, DType dt, int n) {
  int t = tg_tensor(g, dt, n);
  g->tensors[t].data = tg_const_bytes;
  g->tensors[t].ndata = tensor_bytes(&g->tensors[t]);
  return t;
}

static inline int tg_op(Graph *g, OpKind kind, int nin, const int *in, int nout,
                 const int *out) {
  if (g->nops >= TG_MAX_OPS)
    die("test graph: too many ops");
  int i = g->nops++;
  Op *op = &g->ops[i];
  op->index = i;
  op->kind = kind;
  op->ninputs = nin;
  op->inputs = arena_array((size_t)nin + 1, sizeof(int));
  for (int k = 0; k < nin; k++)
    op->inputs[k] = in[k];
  op->noutputs = nout;
  op->outputs = arena_array((size_t)nout + 1, sizeof(int));
  for (int k = 0; k < nout; k++) {
    op->outputs[k] = out[k];
    g->tensors[out[k]].producer = i;
  }
  op->scratch_buffer = -1;
  return i;
}

/* One-input one-output op; returns the op. */
static inline int tg_op1(Graph *g, OpKind kind, int in, int out) {
  return tg_op(g, kind, 1, &in, 1, &out);
}

static inline void tg_input(Graph *g, int t) {
  g->tensors[t].is_input = true;
  g->inputs[g->ninputs++] = t;
}

static inline void tg_output(Graph *g, int t) {
  g->tensors[t].is_output = true;
  g->outputs[g->noutputs++] = t;
}

#endif
