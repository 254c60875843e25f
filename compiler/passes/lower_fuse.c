/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lower_fuse.c - a residual ADD run in the epilogue of the convolution
 * that produces one of its operands (doc/memory-plan.md, section 2e).
 *
 * In a residual block, ADD(conv(y), x) keeps x, y and conv(y) live at
 * once.  When the convolution runs the ADD itself
 * (ta_conv2d_fold_add_*_s8), conv(y) is never stored whole: each pixel
 * pair's int8 outputs go to the kernel's scratch and the ADD writes the
 * result from them and x, element by element, so the result may take
 * x's own bytes (in place).  The bytes are those of the two ops: the
 * convolution's requantization and clamp first, then the ADD's
 * arithmetic (runtime/elementwise/add_s8.h, the same code as ta_add_s8).
 *
 * Which ADDs (with --fuse-add, or when --ram-limit finds that it lowers
 * the RAM; the fused kernel is more code): int8 in and out, no
 * broadcast, at least ADD_TABLE_MIN elements (the epilogue takes the
 * ADD's table form only), TFLite Micro's double rounding with an output
 * right shift, one operand written by an
 * int8 CONV_2D on the fold kernel's DSP or portable path (TFLite's
 * roundings) whose output nothing else reads, that is no model output
 * (so a --probe keeps it) and no view; the other operand (the residual)
 * written before that convolution in model order, or a model input, and
 * no structure op or op that may stop the run between the two.  When
 * both operands qualify, the convolution that runs later.  The
 * convolution's op then reads the residual as its last input and writes
 * the ADD's output; the ADD keeps no inputs, no outputs and no call
 * (Lowered.fused).
 */
#include <string.h>

#include "lower.h"

/* May the convolution writing c (read only by op `add`, the ADD) take
 * the ADD into its epilogue, with residual r? */
static bool fusable(const Graph *g, int add, const Tensor *c, const Tensor *r) {
  int P = c->producer;
  if (P < 0 || P >= add || c->dtype != DT_INT8 || r->dtype != DT_INT8)
    return false;
  const Op *conv = &g->ops[P];
  const Lowered *l = op_lowered(conv);
  if (conv->kind != OP_CONV_2D || !l || !l->kernel || conv->noutputs != 1 ||
      conv->ninputs < 2 || conv->outputs[0] != c->index ||
      (strcmp(l->kernel, "ta_conv2d_fold_dsp_s8") &&
       strcmp(l->kernel, "ta_conv2d_fold_lean_dsp_s8") &&
       strcmp(l->kernel, "ta_conv2d_fold_portable_s8")))
    return false;
  const Tensor *x = &g->tensors[conv->inputs[0]];
  if (x->ndims != 4 || c->ndims != 4)
    return false;
  if (c->is_output || c->is_variable || c->view_of >= 0 || c->loop_var)
    return false;
  int readers = 0;
  for (int o = 0; o < g->nops; o++)
    for (int k = 0; k < g->ops[o].ninputs; k++)
      readers += g->ops[o].inputs[k] == c->index;
  for (int t = 0; t < g->ntensors; t++)
    if (g->tensors[t].view_of == c->index)
      return false;
  if (readers != 1)
    return false;
  /* The residual exists when the convolution runs. */
  if (is_const(r) || r->is_variable ||
      !(r->producer >= 0 ? r->producer < P : r->is_input))
    return false;
  for (int o = P + 1; o < add; o++) {
    const Lowered *m = op_lowered(&g->ops[o]);
    if (is_structure_op(g->ops[o].kind) || (m && m->pends))
      return false;
  }
  return true;
}

bool lower_add_fused(Lower *L, const Tensor *a, const Tensor *b, const Tensor *out) {
  Graph *g = L->g;
  const int add = L->op->index;
  const int64_t n = tensor_elems(out);
  if (!L->o->fuse_add || L->rounding != TA_ROUND_DOUBLE || a->index == b->index ||
      L->op->noutputs != 1 || tensor_elems(a) != n || tensor_elems(b) != n ||
      out->ndims != 4 || n < ADD_TABLE_MIN)
    return false;
  /* c: the convolution's output; r: the residual. */
  const Tensor *c = NULL, *r = NULL;
  for (int k = 0; k < 2; k++) {
    const Tensor *ck = k ? b : a, *rk = k ? a : b;
    if (fusable(g, add, ck, rk) && (!c || ck->producer > c->producer))
      c = ck, r = rk;
  }
  if (!c)
    return false;
  /* The ADD's parameters with the convolution's output as input 1
   * (TFLite's are symmetric in the inputs, and so is the sum). */
  ta_add_params q = {0};
  if (!add_params(scale_of(L, c), zp_of(c), scale_of(L, r), zp_of(r), scale_of(L, out),
                  zp_of(out), DT_INT8, L->op->opt.activation, L->rounding, &q) ||
      q.output_shift >= 0)
    return false;

  Op *conv = &g->ops[c->producer];
  const Lowered *old = op_lowered(conv);
  Lowered *f = arena_alloc(sizeof *f);
  *f = *old;
  f->args = arena_array((size_t)old->nargs + 1, sizeof(KernelArg));
  memcpy(f->args, old->args, (size_t)old->nargs * sizeof(KernelArg));
  f->consts = arena_array((size_t)old->nconsts + 1, sizeof(ConstObj));
  memcpy(f->consts, old->consts, (size_t)old->nconsts * sizeof(ConstObj));
  Lower F = {.g = g, .op = conv, .o = L->o, .rounding = L->rounding, .l = f,
             .argcap = old->nargs, .constcap = old->nconsts};
  const bool lean = !strcmp(old->kernel, "ta_conv2d_fold_lean_dsp_s8");
  f->kernel = !strcmp(old->kernel, "ta_conv2d_fold_dsp_s8") ? "ta_conv2d_fold_add_dsp_s8"
              : lean ? "ta_conv2d_fold_add_lean_dsp_s8"
                     : "ta_conv2d_fold_add_portable_s8";
  for (int k = 0; k < f->nargs; k++)
    if (f->args[k].kind == ARG_TENSOR && f->args[k].index == c->index)
      f->args[k].index = out->index;
  int32_t t1[256], t2[256];
  add_tables(&q, t1, t2);
  const_i32(&F, "add_table1", t1, 256, false);
  const_i32(&F, "add_table2", t2, 256, false);
  const_struct(&F, "add", "ta_add_params",
               add_init(&q, true, ",\n    .table1 = @add_table1, .table2 = @add_table2"), true);
  arg_tensor(&F, r->index);

  /* The graph: the convolution reads the residual and writes the ADD's
   * output; its own output is no longer written; the ADD does nothing. */
  int *ins = arena_array((size_t)conv->ninputs + 1, sizeof(int));
  memcpy(ins, conv->inputs, (size_t)conv->ninputs * sizeof(int));
  ins[conv->ninputs] = r->index;
  conv->inputs = ins;
  conv->ninputs++;
  conv->outputs[0] = out->index;
  g->tensors[out->index].producer = conv->index;
  g->tensors[c->index].producer = -1;
  const Tensor *x = &g->tensors[conv->inputs[0]], *w = &g->tensors[conv->inputs[1]];
  ta_dims di = {x->dims[0], x->dims[1], x->dims[2], x->dims[3]};
  ta_dims df = {w->dims[0], w->dims[1], w->dims[2], w->dims[3]};
  ta_dims dout = {out->dims[0], out->dims[1], out->dims[2], out->dims[3]};
  conv->scratch_bytes = lean ? ta_conv2d_fold_add_lean_dsp_s8_scratch_size(NULL, &di, &df, &dout)
                             : ta_conv2d_fold_add_s8_scratch_size(NULL, &di, &df, &dout);
  /* Element i of the output after element i of the residual (the
   * epilogue's loop), and after its pixel's window (the convolution's
   * declared overlap with input 0 still holds). */
  may_run_in_place(&F, conv->ninputs - 1);
  conv->lowered = f;

  L->l->kernel = NULL;
  L->l->fused = true;
  L->l->fused_op = conv->index;
  L->op->ninputs = 0;
  L->op->noutputs = 0;
  return true;
}
