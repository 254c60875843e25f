/* SPDX-License-Identifier: Apache-2.0 */
/*
 * patch.c - patch-based execution of a chain of convolutions
 * (doc/memory-plan.md, section 2d).
 *
 * Needs: lower() done.  The run is ops start..end (0..end for
 * --patch END:N), each an int8 CONV_2D (ta_conv2d_fold_s8) or
 * DEPTHWISE_CONV_2D (ta_depthwise_conv2d_fold_s8) over NHWC tensors of
 * batch 1, each op reading the previous one's output, which nothing else
 * reads; the first op's input (the run's) is a whole planned tensor.
 * Guarantees: a PatchRun with the rows of every band worked backwards from op end's output, band buffers sized for
 * the largest band, and the graph rewritten so that the planner sees
 * one op (op end) reading the run's input and writing its output with
 * the band buffers as its scratch.
 *
 * The rows.  For output rows [a, e) of an op with stride sh, top
 * padding ph, kernel height kh and dilation dh over an input of H rows,
 * the band reads input rows r0 = max(0, a*sh - ph) to
 * r1 = min(H, (e-1)*sh - ph + (kh-1)*dh + 1); the kernel is called with
 * in.h = r1 - r0, pad_h = ph + r0 - a*sh (>= 0), out.h = e - a, the
 * input pointer r0 rows and the output pointer a rows in.  Both kernels
 * (portable C and the Arm DSP paths) take pad_h as the top padding and
 * treat rows outside [0, in.h) as padding, so the band's rows inside the
 * image read exactly the bytes of the whole-tensor call: the same sums,
 * the same bytes.
 *
 * The band buffers: the output band of the run's op j (all but the
 * last) goes to one of two regions, even j to the first and odd j to the
 * second (op j reads j-1's and writes j's), then the largest scratch of
 * the run's kernels.
 */
#include <stdlib.h>
#include <string.h>

#include "lower.h"

/* The int8 convolution kernels a run may hold: the forward entries of
 * CONV_2D and DEPTHWISE_CONV_2D (any path the lowering picked; not the
 * int4 ones, the backward depthwise, nor a convolution with a fused ADD). */
static bool is_patchable_kernel(const Lowered *l) {
  if (!l || !l->kernel || l->patch)
    return false;
  const char *k = l->kernel;
  bool conv = !strncmp(k, "ta_conv2d_fold_", 15), dw = !strncmp(k, "ta_depthwise_conv2d_fold_", 25);
  size_t n = strlen(k);
  return (conv || dw) && n > 3 && !strcmp(k + n - 3, "_s8") && !strstr(k, "_w4_") &&
         !strstr(k, "_rev") && !strstr(k, "_add_");
}

/* The kernel a band calls: the op's own, which the lowering picked for
 * the whole op.  Each takes any rows and top padding (what its checks
 * look at, the channels, the filter, the width and the left padding,
 * are the whole op's), so a program links only the paths its ops name. */
const char *patch_band_kernel(const Lowered *l) { return l->kernel; }

/* The integer after "FIELD = " in a params initializer. */
static int32_t init_field(const char *init, const char *field) {
  const char *s = strstr(init, arena_printf(".%s = ", field));
  if (!s)
    die("params initializer without .%s", field);
  return (int32_t)strtol(s + strlen(field) + 4, NULL, 10);
}

/* The initializer with FIELD's value replaced by v. */
static const char *init_with(const char *init, const char *field, int32_t v) {
  const char *key = arena_printf(".%s = ", field);
  const char *s = strstr(init, key);
  if (!s)
    die("params initializer without .%s", field);
  const char *num = s + strlen(key), *end = num;
  if (*end == '-')
    end++;
  while (*end >= '0' && *end <= '9')
    end++;
  return arena_printf("%.*s%d%s", (int)(num - init), init, (int)v, end);
}

static const ConstObj *find_const(const Lowered *l, const char *name) {
  for (int k = 0; k < l->nconsts; k++)
    if (!strcmp(l->consts[k].name, name))
      return &l->consts[k];
  return NULL;
}

/* Why op i cannot be op j of a run (NULL: it can). */
static const char *refusal(const Graph *g, int i, int prev_out) {
  const Op *op = &g->ops[i];
  const Lowered *l = op_lowered(op);
  if (!is_patchable_kernel(l))
    return "is not an int8 CONV_2D or DEPTHWISE_CONV_2D (ta_conv2d_fold_s8, "
           "ta_depthwise_conv2d_fold_s8)";
  if (op->ninputs < 2 || op->noutputs != 1)
    return "has not one input and one output";
  const Tensor *in = &g->tensors[op->inputs[0]], *out = &g->tensors[op->outputs[0]];
  if (in->ndims != 4 || out->ndims != 4 || in->dims[0] != 1 || out->dims[0] != 1)
    return "is not over NHWC tensors of batch 1";
  if (prev_out >= 0 && op->inputs[0] != prev_out)
    return "does not read the previous op's output";
  if (!find_const(l, "params") || !find_const(l, "in_dims") || !find_const(l, "out_dims"))
    return "has no params, in_dims and out_dims";
  return NULL;
}

/* Why tensor t, op i's output, cannot be an intermediate of a run. */
static const char *intermediate_refusal(const Graph *g, int i, int t) {
  const Tensor *x = &g->tensors[t];
  if (x->is_output || x->is_variable || x->view_of >= 0)
    return "its output is a model output, a variable or a view";
  for (int u = 0; u < g->ntensors; u++)
    if (g->tensors[u].view_of == t)
      return "its output has a view";
  for (int o = 0; o < g->nops; o++) {
    const Op *op = &g->ops[o];
    for (int k = 0; k < op->ninputs; k++)
      if (op->inputs[k] == t && o != i + 1)
        return arena_printf("its output is also read by op %d", o);
  }
  return NULL;
}

int patch_max_end(const Graph *g, int start) {
  int end = -1, prev = -1;
  for (int i = start; i >= 0 && i < g->nops; i++) {
    if (refusal(g, i, prev))
      break;
    if (i > start)
      end = i;
    if (intermediate_refusal(g, i, g->ops[i].outputs[0]))
      break;
    prev = g->ops[i].outputs[0];
  }
  return end;
}

const char *patch_spec(int start, int end, int nbands) {
  return start ? arena_printf("%d:%d:%d", start, end, nbands)
               : arena_printf("%d:%d", end, nbands);
}

const PatchRun *patch_graph(Graph *g, int start, int end, int nbands, const char **why_not) {
  if (start < 0 || end <= start || end >= g->nops)
    error_at(g, end >= 0 && end < g->nops ? end : -1,
             "--patch %s: a patched run is at least two ops, from op %d to a later one, and "
             "the model has %d ops", patch_spec(start, end, nbands), start, g->nops);
  int n = end - start + 1;
  PatchRun *r = arena_alloc(sizeof *r);
  r->nops = n;
  r->ops = arena_array((size_t)n, sizeof(int));
  r->in_t = arena_array((size_t)n, sizeof(int));
  r->out_t = arena_array((size_t)n, sizeof(int));
  r->orig = arena_array((size_t)n, sizeof(Lowered *));
  r->w_t = arena_array((size_t)n, sizeof(int));
  r->op_scratch = arena_array((size_t)n, sizeof(size_t));
  int prev = -1;
  for (int j = 0; j < n; j++) {
    int i = start + j;
    const char *why = refusal(g, i, prev);
    if (why)
      error_at(g, i, "cannot be part of a patched run: it %s", why);
    if (j < n - 1 && (why = intermediate_refusal(g, i, g->ops[i].outputs[0])))
      error_at(g, i, "cannot be inside a patched run: %s", why);
    r->ops[j] = i;
    r->in_t[j] = g->ops[i].inputs[0];
    r->out_t[j] = prev = g->ops[i].outputs[0];
    r->orig[j] = op_lowered(&g->ops[i]);
    r->w_t[j] = g->ops[i].inputs[1];
    r->op_scratch[j] = g->ops[i].scratch_bytes;
    r->plain_macs += op_macs(g, &g->ops[i]);
  }
  const Tensor *last = &g->tensors[r->out_t[n - 1]];
  int32_t OH = (int32_t)last->dims[1];
  if (nbands < 1 || nbands > OH)
    error_at(g, end, "--patch %s: the output has %d rows, so 1 to %d bands",
             patch_spec(start, end, nbands), (int)OH, (int)OH);
  r->nbands = nbands;
  r->rows = arena_array((size_t)nbands * (size_t)n, sizeof(PatchRows));
  r->buf_off = arena_array((size_t)n, sizeof(size_t));
  r->buf_bytes = arena_array((size_t)n, sizeof(size_t));

  /* Rows, band by band, from the last op back to the first. */
  for (int b = 0; b < nbands; b++) {
    int32_t a = (int32_t)((int64_t)b * OH / nbands), e = (int32_t)((int64_t)(b + 1) * OH / nbands);
    for (int j = n - 1; j >= 0; j--) {
      const Lowered *l = r->orig[j];
      const char *init = find_const(l, "params")->init;
      const Tensor *in = &g->tensors[r->in_t[j]], *w = &g->tensors[r->w_t[j]];
      int32_t sh = init_field(init, "stride_h"), ph = init_field(init, "pad_h");
      int32_t dh = init_field(init, "dilation_h"), kh = (int32_t)w->dims[1];
      int32_t H = (int32_t)in->dims[1];
      int64_t r0 = (int64_t)a * sh - ph, r1 = (int64_t)(e - 1) * sh - ph + (int64_t)(kh - 1) * dh + 1;
      if (r0 < 0)
        r0 = 0;
      if (r1 > H)
        r1 = H;
      if (r1 <= r0) {
        const char *why = arena_printf("--patch %s: band %d reads no input row of this op",
                                       patch_spec(start, end, nbands), b);
        if (why_not) {
          *why_not = why;
          return NULL;
        }
        error_at(g, start + j, "%s", why);
      }
      PatchRows *pr = &r->rows[(size_t)b * n + j];
      *pr = (PatchRows){a, e, (int32_t)r0, (int32_t)r1};
      a = (int32_t)r0;
      e = (int32_t)r1;
    }
  }

  /* Band buffers: the largest band of each intermediate; two regions. */
  size_t region[2] = {0, 0}, scratch = 0;
  for (int j = 0; j < n; j++) {
    const Tensor *out = &g->tensors[r->out_t[j]];
    size_t row = (size_t)out->dims[2] * (size_t)out->dims[3];
    for (int b = 0; b < nbands && j < n - 1; b++) {
      const PatchRows *pr = &r->rows[(size_t)b * n + j];
      size_t bytes = (size_t)(pr->e - pr->a) * row;
      if (bytes > r->buf_bytes[j])
        r->buf_bytes[j] = bytes;
    }
    if (j < n - 1 && r->buf_bytes[j] > region[j & 1])
      region[j & 1] = r->buf_bytes[j];
    if (r->op_scratch[j] > scratch)
      scratch = r->op_scratch[j];
  }
  size_t off1 = (region[0] + 15) & ~(size_t)15;
  r->scratch_off = (off1 + region[1] + 15) & ~(size_t)15;
  r->scratch_bytes = scratch;
  r->total_bytes = r->scratch_off + scratch;
  for (int j = 0; j < n - 1; j++)
    r->buf_off[j] = j & 1 ? off1 : 0;

  /* MACs with the halo rows recomputed: each op's unpatched count scaled
   * by the rows the bands compute over its output's rows. */
  for (int j = 0; j < n; j++) {
    int64_t rows = 0, OHj = g->tensors[r->out_t[j]].dims[1];
    for (int b = 0; b < nbands; b++)
      rows += r->rows[(size_t)b * n + j].e - r->rows[(size_t)b * n + j].a;
    r->macs += op_macs(g, &g->ops[start + j]) / (OHj ? OHj : 1) * rows;
  }

  /* Per band: the params (top padding) and dims of each op's call, as
   * tables the band loop indexes; the run's input and output offsets. */
  for (int j = 0; j < n; j++) {
    const Lowered *o = r->orig[j];
    Lowered *l = arena_alloc(sizeof *l);
    *l = *o;
    l->consts = arena_array((size_t)(o->nconsts + 6), sizeof(ConstObj));
    l->nconsts = 0;
    for (int k = 0; k < o->nconsts; k++)
      if (strcmp(o->consts[k].name, "params") && strcmp(o->consts[k].name, "in_dims") &&
          strcmp(o->consts[k].name, "out_dims"))
        l->consts[l->nconsts++] = o->consts[k];
    const Tensor *in = &g->tensors[r->in_t[j]], *out = &g->tensors[r->out_t[j]];
    const char *init = find_const(o, "params")->init;
    int32_t sh = init_field(init, "stride_h"), ph = init_field(init, "pad_h");
    /* Bands with the same padding and rows share one entry (most inner
     * bands): the entries, then each band's entry number. */
    const char **ep = arena_array((size_t)nbands, sizeof(char *));
    const char **ei = arena_array((size_t)nbands, sizeof(char *));
    const char **eo = arena_array((size_t)nbands, sizeof(char *));
    int nent = 0;
    const char *bp = "{", *bi = "{", *bo = "{", *sel = "{", *ioff = "{", *ooff = "{";
    for (int b = 0; b < nbands; b++) {
      const PatchRows *pr = &r->rows[(size_t)b * n + j];
      ta_dims di = {1, pr->r1 - pr->r0, (int32_t)in->dims[2], (int32_t)in->dims[3]};
      ta_dims dout = {1, pr->e - pr->a, (int32_t)out->dims[2], (int32_t)out->dims[3]};
      const char *p1 = init_with(init, "pad_h", ph + pr->r0 - pr->a * sh);
      const char *i1 = dims_init(di), *o1 = dims_init(dout);
      int k = 0;
      while (k < nent && (strcmp(ep[k], p1) || strcmp(ei[k], i1) || strcmp(eo[k], o1)))
        k++;
      if (k == nent) {
        const char *sep = k ? ",\n    " : "";
        ep[k] = p1, ei[k] = i1, eo[k] = o1;
        bp = arena_printf("%s%s%s", bp, sep, p1);
        bi = arena_printf("%s%s%s", bi, sep, i1);
        bo = arena_printf("%s%s%s", bo, sep, o1);
        nent++;
      }
      const PatchRows *first = &r->rows[(size_t)b * n];
      const Tensor *x = &g->tensors[r->in_t[0]];
      const char *nsep = b == 0 ? "" : b % 8 ? ", " : ",\n    ";
      sel = arena_printf("%s%s%du", sel, nsep, k);
      ioff = arena_printf("%s%s%lldu", ioff, nsep,
                          (long long)first->r0 * x->dims[2] * x->dims[3]);
      ooff = arena_printf("%s%s%lldu", ooff, nsep,
                          (long long)pr->a * out->dims[2] * out->dims[3]);
    }
    l->consts[l->nconsts++] = (ConstObj){.name = "bparams", .ctype = "ta_conv_params",
                                         .init = arena_printf("%s}", bp), .count = (size_t)nent};
    l->consts[l->nconsts++] = (ConstObj){.name = "bin_dims", .ctype = "ta_dims",
                                         .init = arena_printf("%s}", bi), .count = (size_t)nent};
    l->consts[l->nconsts++] = (ConstObj){.name = "bout_dims", .ctype = "ta_dims",
                                         .init = arena_printf("%s}", bo), .count = (size_t)nent};
    l->consts[l->nconsts++] = (ConstObj){.name = "bsel", .ctype = "uint16_t",
                                         .init = arena_printf("%s}", sel), .count = (size_t)nbands};
    if (j == n - 1) {
      l->consts[l->nconsts++] = (ConstObj){.name = "bin_off", .ctype = "uint32_t",
                                           .init = arena_printf("%s}", ioff),
                                           .count = (size_t)nbands};
      l->consts[l->nconsts++] = (ConstObj){.name = "bout_off", .ctype = "uint32_t",
                                           .init = arena_printf("%s}", ooff),
                                           .count = (size_t)nbands};
    }
    l->args = NULL;
    l->nargs = 0;
    l->inplace = 0;
    l->overlap = (OverlapDecl){0};
    l->patch = r;
    l->patch_end = j == n - 1;
    Op *op = &g->ops[start + j];
    op->lowered = l;
    if (j < n - 1) {
      op->ninputs = op->noutputs = 0;
      g->tensors[r->out_t[j]].producer = -1; /* lives only in band buffers */
      op->scratch_bytes = 0;
      continue;
    }
    /* The last op: the run's input, its own constants, the run's output. */
    op->inputs[0] = r->in_t[0];
    op->scratch_bytes = r->total_bytes;
    /* The run's output may start over the part of its input the later
     * bands no longer read: band b's rows lie below every row bands
     * after it read (check.c proves it again from the rows). */
    const Tensor *x = &g->tensors[r->in_t[0]];
    int64_t irow = x->dims[2] * x->dims[3], orow = last->dims[2] * last->dims[3];
    int64_t ahead = (int64_t)tensor_bytes(x);
    for (int b = 0; b + 1 < nbands; b++) {
      int64_t d = (int64_t)r->rows[(size_t)(b + 1) * n].r0 * irow -
                  (int64_t)r->rows[(size_t)b * n + n - 1].e * orow;
      if (d < ahead)
        ahead = d;
    }
    l->overlap = (OverlapDecl){.declared = true, .input = 0, .max_ahead = ahead,
                               .kh = 1, .kw = 1, .sh = 1, .sw = 1, .dh = 1, .dw = 1,
                               .block = {1, 0}, .nblocks = 1};
  }
  return r;
}
