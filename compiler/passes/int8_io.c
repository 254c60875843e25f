/* SPDX-License-Identifier: Apache-2.0 */
/*
 * int8_io.c - --int8-io: a float-I/O model's boundary conversions dropped,
 * so that the caller passes and receives the quantized tensors itself.
 *
 * Many int8 models are exported with float inputs and outputs: a QUANTIZE
 * right after each float input and a DEQUANTIZE right before each float
 * output (mcunet_vww_80_int8_floatio).  A firmware whose sensor already
 * gives integers would quantize to float only for the model to quantize
 * back.  drop_io_conversions() makes the QUANTIZE's int8 output the model
 * input and the DEQUANTIZE's int8 input the model output, and removes the
 * two ops.  The remaining ops compute exactly what they computed: with
 * inputs quantized as the dropped QUANTIZE would have (the header's
 * <prefix>_quantize_input<i>() does), the outputs are the bytes the
 * dropped DEQUANTIZE read.
 *
 * Needs: a verified graph.  Guarantees: a verified graph, ops renumbered
 * in model order (Op.index, Tensor.producer), the same tensors.  A float
 * input or output without such a conversion, or a model with none, is
 * refused (error_at): the caller asked for integer I/O and would not get
 * it.
 */
#include "tinyaot.h"

#include <string.h>

static bool reads(const Op *op, int t) {
  for (int k = 0; k < op->ninputs; k++)
    if (op->inputs[k] == t)
      return true;
  return false;
}

/* The ops reading tensor t: their number, the first in *first. */
static int readers(const Graph *g, int t, int *first) {
  int n = 0;
  *first = -1;
  for (int i = 0; i < g->nops; i++)
    if (reads(&g->ops[i], t)) {
      if (n++ == 0)
        *first = i;
    }
  return n;
}

static bool is_quantized_int(const Tensor *t) {
  return (t->dtype == DT_INT8 || t->dtype == DT_UINT8 || t->dtype == DT_INT16) &&
         t->q.nscale == 1;
}

void drop_io_conversions(Graph *g) {
  bool *drop = arena_array((size_t)g->nops + 1, sizeof(bool));
  int dropped = 0;
  for (int k = 0; k < g->ninputs; k++) {
    Tensor *t = &g->tensors[g->inputs[k]];
    if (t->dtype != DT_FLOAT32)
      continue;
    int op;
    int n = readers(g, t->index, &op);
    const Op *q = op >= 0 ? &g->ops[op] : NULL;
    if (n != 1 || q->kind != OP_QUANTIZE || q->noutputs != 1 ||
        !is_quantized_int(&g->tensors[q->outputs[0]]) ||
        g->tensors[q->outputs[0]].is_output)
      error_at(g, op, "--int8-io: model input %d (%s) is float32 but is not "
                      "read by one QUANTIZE to a quantized integer tensor only",
               k, t->name);
    Tensor *u = &g->tensors[q->outputs[0]];
    t->is_input = false;
    u->is_input = true;
    u->producer = -1;
    g->inputs[k] = u->index;
    drop[op] = true;
    dropped++;
  }
  for (int k = 0; k < g->noutputs; k++) {
    Tensor *t = &g->tensors[g->outputs[k]];
    if (t->dtype != DT_FLOAT32)
      continue;
    int op = t->producer, r;
    const Op *d = op >= 0 ? &g->ops[op] : NULL;
    int ti = d && d->ninputs == 1 ? d->inputs[0] : -1;
    if (!d || d->kind != OP_DEQUANTIZE || ti < 0 ||
        !is_quantized_int(&g->tensors[ti]) || g->tensors[ti].is_input ||
        g->tensors[ti].is_output || readers(g, t->index, &r) != 0)
      error_at(g, op, "--int8-io: model output %d (%s) is float32 but is not "
                      "written by a DEQUANTIZE of a quantized integer tensor",
               k, t->name);
    t->is_output = false;
    t->producer = -1; /* left unwritten and unread */
    g->tensors[ti].is_output = true;
    g->outputs[k] = ti;
    drop[op] = true;
    dropped++;
  }
  if (dropped == 0)
    error_at(g, -1, "--int8-io: the model has no float input or output to "
                    "convert (its I/O is already integer)");
  /* Remove the dropped ops; renumber the rest and their outputs' producer. */
  int n = 0;
  for (int i = 0; i < g->nops; i++) {
    if (drop[i])
      continue;
    Op *op = &g->ops[n];
    if (n != i)
      *op = g->ops[i];
    op->index = n;
    for (int k = 0; k < op->noutputs; k++)
      if (op->outputs[k] >= 0 && g->tensors[op->outputs[k]].producer == i)
        g->tensors[op->outputs[k]].producer = n;
    n++;
  }
  g->nops = n;
}
