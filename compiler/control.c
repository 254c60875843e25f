/* SPDX-License-Identifier: Apache-2.0 */
/*
 * control.c - the structure ops (IF, ELSE, END_IF; WHILE, WHILE_COND,
 * END_WHILE) and the invariants of the control flow they spell.
 *
 * The reader inlines IF's branches and WHILE's cond and body subgraphs
 * into one op list between these markers (tflite.c, inline_if and
 * inline_while):
 *
 *   IF(c)         <then ops>  ELSE  <else ops>  END_IF(c, t1..tm, e1..em) -> o1..om
 *   WHILE(x1..xn) -> v1..vn  <cond ops>  WHILE_COND(b)  <body ops>  END_WHILE(n1..nn, v1..vn)
 *
 * END_IF copies the branch that ran's outputs (t or e) into IF's outputs
 * o; WHILE copies its inputs x into the loop variables v (its outputs),
 * WHILE_COND leaves the loop when b is false, END_WHILE copies the body's
 * next values n into v and goes back to the cond ops.  v are listed as
 * END_WHILE's inputs too: END_WHILE writes them, and whoever reads the op
 * list sees that they live across the whole loop.
 *
 * verify_control() (called by verify()) checks, error_at() naming the op:
 *   - the markers nest: every IF has one ELSE and then one END_IF, every
 *     WHILE one WHILE_COND and then one END_WHILE, properly nested;
 *   - their arities, and that the copies are between tensors of one type
 *     and shape (END_IF's, WHILE's, END_WHILE's), that END_WHILE's second
 *     half is its WHILE's outputs, and that each condition is one bool;
 *   - scoping: a tensor computed inside a branch or a loop is read only
 *     inside it, except by the END_IF of that branch; a model output is
 *     computed outside every branch and loop.
 * Everything else (every read produced earlier in the list, one writer
 * per tensor) is verify()'s linear check, which the layout above keeps
 * true.  The planner plans such graphs in model order only and keeps
 * every buffer read inside a loop alive to its END_WHILE when it was
 * written before the loop (schedule.c, set_lifetimes; doc/memory-plan.md).
 */
#include "tinyaot.h"

#include <string.h>

bool is_structure_op(OpKind k) {
  return k == OP_IF || k == OP_ELSE || k == OP_END_IF || k == OP_WHILE ||
         k == OP_WHILE_COND || k == OP_END_WHILE;
}

bool has_control_flow(const Graph *g) {
  for (int i = 0; i < g->nops; i++)
    if (is_structure_op(g->ops[i].kind))
      return true;
  return false;
}

/* The op's subgraph that tensors computed in region kind come from, for
 * messages: "then subgraph 1". */
static const char *part_name(const Op *op, int part) {
  if (op->kind == OP_IF)
    return arena_printf("%s subgraph %d", part ? "else" : "then", op->opt.subgraph[part]);
  return arena_printf("cond subgraph %d or body subgraph %d", op->opt.subgraph[0],
                      op->opt.subgraph[1]);
}

/*
 * The partners of every structure op: IF -> its ELSE -> its END_IF -> the
 * IF; WHILE -> its WHILE_COND -> its END_WHILE -> the WHILE; -1 for other
 * ops.  With check (verify_control), a marker out of place ->
 * error_at(); without, it is a compiler bug (die()).
 */
static int *partners(const Graph *g, bool check) {
  int *next = arena_array((size_t)g->nops + 1, sizeof(int));
  int *stack = arena_array((size_t)g->nops + 1, sizeof(int));
  int depth = 0;
  for (int i = 0; i < g->nops; i++) {
    next[i] = -1;
    OpKind k = g->ops[i].kind;
    const char *bad = NULL;
    int top = depth > 0 ? stack[depth - 1] : -1;
    OpKind tk = top >= 0 ? g->ops[top].kind : OP_COUNT;
    switch (k) {
    case OP_IF:
    case OP_WHILE:
      stack[depth++] = i;
      break;
    case OP_ELSE:
    case OP_WHILE_COND: {
      OpKind want = k == OP_ELSE ? OP_IF : OP_WHILE;
      if (tk != want)
        bad = k == OP_ELSE ? "ELSE without an open IF" : "WHILE_COND without an open WHILE";
      else {
        next[top] = i;
        stack[depth - 1] = i;
      }
      break;
    }
    case OP_END_IF:
    case OP_END_WHILE: {
      OpKind want = k == OP_END_IF ? OP_ELSE : OP_WHILE_COND;
      if (tk != want)
        bad = k == OP_END_IF ? "END_IF without an IF and its ELSE"
                             : "END_WHILE without a WHILE and its WHILE_COND";
      else {
        int opener = -1;
        for (int j = 0; j < top; j++)
          if (next[j] == top)
            opener = j;
        next[top] = i;
        next[i] = opener;
        depth--;
      }
      break;
    }
    default:
      break;
    }
    if (bad && check)
      error_at(g, i, "%s", bad);
    if (bad)
      die("op %d: %s", i, bad);
  }
  if (depth > 0) {
    int top = stack[depth - 1];
    for (int j = top - 1; j >= 0; j--)
      if (next[j] == top)
        top = j; /* the IF or WHILE, not its ELSE or WHILE_COND */
    if (check)
      error_at(g, top, "%s is never closed",
               g->ops[top].kind == OP_ELSE || g->ops[top].kind == OP_IF ? "the IF"
                                                                        : "the WHILE");
    die("op %d is never closed", top);
  }
  return next;
}

int *control_partners(const Graph *g) { return partners(g, false); }

/* Input k of op i must be one bool. */
static void check_condition(const Graph *g, int i, int k, const char *subgraph) {
  const Op *op = &g->ops[i];
  int t = k < op->ninputs ? op->inputs[k] : -1;
  if (t < 0)
    error_at(g, i, "has no condition");
  const Tensor *x = &g->tensors[t];
  if (x->dtype != DT_BOOL || tensor_elems(x) != 1)
    error_at(g, i, "the condition (tensor %d%s) is %s; it must be one bool", t,
             subgraph, tensor_type_label(x));
}

/* Tensors a[k] are copied into b[k]: same type and shape. */
static void check_copies(const Graph *g, int i, const int *a, const int *b, int n,
                         const char *what) {
  for (int k = 0; k < n; k++) {
    if (a[k] < 0 || b[k] < 0)
      error_at(g, i, "%s %d is missing", what, k);
    const Tensor *x = &g->tensors[a[k]], *y = &g->tensors[b[k]];
    if (!same_dtype_and_shape(x, y))
      error_at(g, i, "%s %d: tensor %d is %s, but it is copied into tensor %d, which is %s",
               what, k, a[k], tensor_type_label(x), b[k], tensor_type_label(y));
  }
}

void verify_control(const Graph *g) {
  if (!has_control_flow(g))
    return;
  int *next = partners(g, true);

  /* Arities and copies. */
  for (int i = 0; i < g->nops; i++) {
    const Op *op = &g->ops[i];
    switch (op->kind) {
    case OP_IF: {
      if (op->ninputs != 1 || op->noutputs != 0)
        error_at(g, i, "has %d inputs and %d outputs, expected 1 and 0 after inlining",
                 op->ninputs, op->noutputs);
      check_condition(g, i, 0, "");
      const Op *end = &g->ops[next[next[i]]];
      if (end->ninputs < 1 || end->inputs[0] != op->inputs[0])
        error_at(g, next[next[i]], "does not read its IF's condition");
      break;
    }
    case OP_ELSE:
      if (op->ninputs || op->noutputs)
        error_at(g, i, "has inputs or outputs");
      break;
    case OP_END_IF: {
      int m = op->noutputs;
      if (op->ninputs != 1 + 2 * m)
        error_at(g, i, "has %d inputs for %d outputs, expected %d", op->ninputs, m,
                 1 + 2 * m);
      check_copies(g, i, op->inputs + 1, op->outputs, m, "then output");
      check_copies(g, i, op->inputs + 1 + m, op->outputs, m, "else output");
      break;
    }
    case OP_WHILE: {
      int n = op->noutputs;
      if (op->ninputs != n || n < 1)
        error_at(g, i, "has %d inputs and %d outputs, expected as many of each",
                 op->ninputs, n);
      check_copies(g, i, op->inputs, op->outputs, n, "input");
      const Op *end = &g->ops[next[next[i]]];
      if (end->ninputs != 2 * n || end->noutputs != 0)
        error_at(g, next[next[i]], "has %d inputs and %d outputs, expected %d and 0",
                 end->ninputs, end->noutputs, 2 * n);
      for (int k = 0; k < n; k++) {
        if (end->inputs[n + k] != op->outputs[k])
          error_at(g, next[next[i]], "input %d is not loop variable %d (tensor %d)", n + k,
                   k, op->outputs[k]);
        if (!g->tensors[op->outputs[k]].loop_var)
          error_at(g, i, "output %d (tensor %d) is not marked a loop variable", k,
                   op->outputs[k]);
        for (int j = 0; j < n; j++)
          if (j != k && end->inputs[j] == op->outputs[k])
            error_at(g, next[next[i]], "input %d is loop variable %d: loop variables "
                     "that trade places are not supported", j, k);
      }
      check_copies(g, next[next[i]], end->inputs, op->outputs, n, "body output");
      break;
    }
    case OP_WHILE_COND: {
      if (op->ninputs != 1 || op->noutputs != 0)
        error_at(g, i, "has %d inputs and %d outputs, expected 1 and 0", op->ninputs,
                 op->noutputs);
      const Op *w = &g->ops[next[next[i]]];
      check_condition(g, i, 0, arena_printf(", from cond subgraph %d", w->opt.subgraph[0]));
      break;
    }
    default:
      break;
    }
  }
  for (int t = 0; t < g->ntensors; t++) {
    const Tensor *x = &g->tensors[t];
    if (x->loop_var && (x->producer < 0 || g->ops[x->producer].kind != OP_WHILE))
      error_at(g, -1, "tensor %d (%s) is marked a loop variable but no WHILE writes it",
               t, x->name);
  }

  /* Regions: 0 is the top; each IF opens two (then, else), each WHILE one. */
  int *region = arena_array((size_t)g->nops + 1, sizeof(int));
  int *parent = arena_array((size_t)g->nops * 2 + 2, sizeof(int));
  int *owner = arena_array((size_t)g->nops * 2 + 2, sizeof(int));
  int *part = arena_array((size_t)g->nops * 2 + 2, sizeof(int));
  int nregions = 1, cur = 0;
  parent[0] = -1;
  owner[0] = -1;
  /* An op's region is the innermost branch or loop it runs in: IF, ELSE,
   * END_IF and WHILE in the one around them, WHILE_COND and END_WHILE in
   * their loop (they run every iteration). */
  for (int i = 0; i < g->nops; i++) {
    OpKind k = g->ops[i].kind;
    if (k == OP_ELSE || k == OP_END_IF)
      cur = parent[cur]; /* the then (else) branch ends */
    region[i] = cur;
    if (k == OP_END_WHILE)
      cur = parent[cur]; /* the loop ends after it */
    if (k == OP_IF || k == OP_ELSE || k == OP_WHILE) {
      parent[nregions] = cur;
      owner[nregions] = k == OP_ELSE ? next[next[i]] : i; /* ELSE -> END_IF -> IF */
      part[nregions] = k == OP_ELSE;
      cur = nregions++;
    }
  }

  for (int i = 0; i < g->nops; i++) {
    const Op *op = &g->ops[i];
    for (int k = 0; k < op->ninputs; k++) {
      int t = op->inputs[k];
      if (t < 0 || g->tensors[t].producer < 0)
        continue; /* constants, model inputs and variables: everywhere */
      int p = g->tensors[t].producer, rp = region[p];
      bool ok = false;
      for (int r = region[i]; r >= 0 && !ok; r = parent[r])
        ok = r == rp;
      /* END_IF reads the outputs of its own two branches. */
      if (op->kind == OP_END_IF && owner[rp] == next[i] && parent[rp] == region[i])
        ok = true;
      if (!ok) {
        int o = owner[rp];
        error_at(g, i, "input %d reads tensor %d (%s), which op %d computes inside "
                 "the %s of op %d (%s): a value computed inside a branch or loop is "
                 "read only there", k, t, g->tensors[t].name, p,
                 part_name(&g->ops[o], part[rp]), o, op_name(g->ops[o].kind));
      }
    }
  }
  for (int i = 0; i < g->noutputs; i++) {
    int t = g->outputs[i], p = g->tensors[t].producer;
    if (p >= 0 && region[p] != 0) {
      int o = owner[region[p]];
      error_at(g, -1, "model output %d (tensor %d) is computed inside the %s of op "
               "%d (%s)", i, t, part_name(&g->ops[o], part[region[p]]), o,
               op_name(g->ops[o].kind));
    }
  }
}
