/*
 * schedule.c - the execution order and the lifetimes over it.
 *
 * Needs: a verified Graph (every tensor read is produced earlier in model
 * order) and its storage (assign_storage).  Guarantees: Plan.order runs
 * every op once, producers before readers; every Buffer's [first, last]
 * holds every step that writes or reads one of its tensors.
 *
 * The order is the model's own for now: TFLite files are already
 * topologically sorted, and it is the order TFLite Micro runs.  A
 * memory-aware order would slot in here.
 *
 * Lifetimes (steps are positions in the order; both ends inclusive):
 *   op output       from the step of its op to the last step reading it
 *                   (its own step when nothing reads it);
 *   model input     from step 0;   model output  to the last step;
 *   view            joins its base's buffer: the buffer spans both;
 *   kernel scratch  exactly the step of its op;
 *   variable        persistent: every step.
 */
#include "tinyaot.h"

#include <limits.h>

int *schedule_ops(const Graph *g, int *norder) {
  int *order = arena_array((size_t)g->nops + 1, sizeof(int));
  for (int i = 0; i < g->nops; i++)
    order[i] = i;
  *norder = g->nops;
  return order;
}

/* Widens buffer id's lifetime to hold step s. */
static void live_at(Plan *p, int id, int s) {
  if (id < 0)
    return; /* a constant, or a view of one */
  Buffer *b = &p->bufs[id];
  if (s < b->first)
    b->first = s;
  if (s > b->last)
    b->last = s;
}

void set_lifetimes(const Graph *g, Plan *p) {
  int last_step = p->nsteps - 1;
  for (int i = 0; i < p->nbufs; i++) {
    p->bufs[i].first = INT_MAX;
    p->bufs[i].last = -1;
  }
  for (int i = 0; i < g->ninputs; i++)
    live_at(p, g->tensors[g->inputs[i]].storage, 0);
  for (int s = 0; s < p->norder; s++) {
    const Op *op = &g->ops[p->order[s]];
    for (int k = 0; k < op->noutputs; k++)
      if (op->outputs[k] >= 0)
        live_at(p, g->tensors[op->outputs[k]].storage, s);
    for (int k = 0; k < op->ninputs; k++)
      if (op->inputs[k] >= 0)
        live_at(p, g->tensors[op->inputs[k]].storage, s);
    if (op->scratch_buffer >= 0)
      live_at(p, op->scratch_buffer, s);
  }
  for (int i = 0; i < g->noutputs; i++)
    live_at(p, g->tensors[g->outputs[i]].storage, last_step);
  for (int i = 0; i < p->nbufs; i++) {
    Buffer *b = &p->bufs[i];
    if (b->persistent) {
      b->first = 0;
      b->last = last_step;
    }
    if (b->last < 0) /* touched by nothing at all */
      b->first = b->last = 0;
  }
}
