/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lower_control.c - the structure ops of IF and WHILE (control.c).
 *
 * They call no kernel: the emitter writes them as C control flow
 * (emit.c, put_structure) - `if (c[0]) { ... } else { ... }` and
 * `for (;;) { ...; if (!b[0]) break; ...; }` - with the byte copies
 * between branch outputs and IF's outputs, and into the loop variables.
 * The record names the construct ("@if", "@else", "@end_if", "@while",
 * "@while_cond", "@end_while"; '@' marks code the runner writes itself)
 * and lists the tensors it touches, inputs then outputs.  Nothing runs
 * in place or overlaps: a copy's source and destination are both live
 * at its step, so the plan keeps them apart.
 */
#include "lower.h"

void lower_structure(Lower *L) {
  const Op *op = L->op;
  switch (op->kind) {
  case OP_IF: L->l->kernel = "@if"; break;
  case OP_ELSE: L->l->kernel = "@else"; break;
  case OP_END_IF: L->l->kernel = "@end_if"; break;
  case OP_WHILE: L->l->kernel = "@while"; break;
  case OP_WHILE_COND: L->l->kernel = "@while_cond"; break;
  case OP_END_WHILE: L->l->kernel = "@end_while"; break;
  default: unreachable();
  }
  for (int k = 0; k < op->ninputs; k++)
    arg_tensor(L, op->inputs[k]);
  for (int k = 0; k < op->noutputs; k++)
    arg_tensor(L, op->outputs[k]);
}
