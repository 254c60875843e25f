/* SPDX-License-Identifier: Apache-2.0 */
/*
 * constant_input.c - --constant-input NAME=FILE for a Graph a reader
 * made (read_tflite; read_onnx binds its own while importing): the model
 * input NAME becomes a constant holding FILE's bytes, and is no longer an
 * input.  FILE holds the tensor's raw little-endian bytes (exactly its
 * size), or an ONNX TensorProto .pb of the same type and element count.
 * Also --probe NAME for such a Graph: tensor NAME becomes an extra model
 * output, after the model's own.
 */
#include "tinyaot.h"

#include <string.h>

void bind_constant_inputs(Graph *g, const ImportOptions *o) {
  for (int k = 0; k < o->nconstants; k++) {
    const ConstantInput *ci = &o->constants[k];
    int at = -1;
    for (int i = 0; i < g->ninputs; i++)
      if (!strcmp(g->tensors[g->inputs[i]].name, ci->name))
        at = i;
    if (at < 0)
      error_file(g->path, "--constant-input %s: the model has no input of that name", ci->name);
    Tensor *t = &g->tensors[g->inputs[at]];
    size_t size, want = tensor_bytes(t);
    const uint8_t *buf = read_file(ci->file, &size);
    if (size != want) {
      const char *name;
      DType dt;
      int nd;
      int64_t dims[MAX_DIMS];
      read_tensor_pb(ci->file, &name, &dt, &nd, dims, &buf, &size);
      if (dt != t->dtype || size != want)
        error_file(ci->file, "holds neither %zu raw bytes nor a TensorProto of %s for input "
                   "'%s'", want, dtype_name(t->dtype), ci->name);
    }
    t->data = buf;
    t->ndata = size;
    t->is_input = false;
    memmove(&g->inputs[at], &g->inputs[at + 1], (size_t)(g->ninputs - at - 1) * sizeof(int));
    g->ninputs--;
  }
}

void bind_probes(Graph *g, const ImportOptions *o) {
  if (!o->nprobes)
    return;
  int *outs = arena_array((size_t)(g->noutputs + o->nprobes), sizeof(int));
  memcpy(outs, g->outputs, (size_t)g->noutputs * sizeof(int));
  for (int k = 0; k < o->nprobes; k++) {
    int at = -1;
    for (int i = 0; i < g->ntensors && at < 0; i++)
      if (g->tensors[i].name && !strcmp(g->tensors[i].name, o->probes[k]))
        at = i;
    if (at < 0)
      error_file(g->path, "--probe %s: the model has no tensor of that name", o->probes[k]);
    if (g->tensors[at].data)
      error_file(g->path, "--probe %s: a constant, not a value the model computes",
                 o->probes[k]);
    g->tensors[at].is_output = true;
    outs[g->noutputs++] = at;
  }
  g->outputs = outs;
}
