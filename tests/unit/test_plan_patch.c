/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Patched runs (doc/memory-plan.md, 2d; compiler/passes/patch.c) and
 * their checker (compiler/memory/check.c):
 *
 *  - on 300 random chains of int8 CONV_2D and DEPTHWISE_CONV_2D (1x1
 *    and 3x3 windows, strides 1 and 2, dilations 1 and 2, SAME and
 *    VALID, 1 to 8 channels) patched at a random end op into a random
 *    number of bands: the plan passes its check; the bands, run on the
 *    host kernels as the band table says (each op's call with the band's
 *    rows, the top padding and dims worked out from them, over the band
 *    buffers at their offsets), give the bytes of the unpatched calls
 *    over whole tensors, and the tables the generated loop indexes hold
 *    that padding and those rows;
 *  - the checker re-derives legality from the graph and the rows, not
 *    from the planner's numbers: with the run's output placed exactly
 *    the declared distance above its input it accepts the plan, one byte
 *    higher it rejects it; it rejects a band buffer one row too small,
 *    rows that differ from the ones the op's shape gives, two band
 *    buffers one call uses on the same bytes, band buffers larger than
 *    the op's scratch buffer, and a band order in which a band writes
 *    output over input a later band still reads (exactly when it does);
 *  - the same corruptions planted in vww_96_int8's --patch 3:24 plan
 *    (shared models) are rejected.
 */
#include <stdlib.h>

#include "test.h"
#include "lower_helpers.h"
#include "lower.h"
#include "ta_fixedpoint.h"
#include "ta_kernels.h"

#include "../tools/rng.h"

/* A chain of nops convolutions over [1, h, w, c0]: model input to model
 * output. */
static TfwModel *chain_model(Rng *r, int nops) {
  TfwModel *m = tfw_new();
  int32_t h = rint_in(r, 4, 20), w = rint_in(r, 3, 12), c = rint_in(r, 1, 8);
  int32_t d[4] = {1, h, w, c};
  int x = tfw_tensor(m, "in", TFW_INT8, 4, d, 0);
  tfw_quant1(m, x, 0.5f, 3);
  int first = x;
  for (int j = 0; j < nops; j++) {
    bool dw = rint_in(r, 0, 2) == 0;
    int32_t k = rint_in(r, 0, 2) ? 3 : 1, s = rint_in(r, 0, 2) ? 1 : 2;
    int32_t dil = k == 3 && rint_in(r, 0, 5) == 0 ? 2 : 1;
    int pad = rint_in(r, 0, 3) ? TFW_PAD_SAME : TFW_PAD_VALID;
    int32_t eff = (k - 1) * dil + 1;
    if (pad == TFW_PAD_VALID && (d[1] < eff || d[2] < eff))
      pad = TFW_PAD_SAME;
    int32_t oh = pad == TFW_PAD_SAME ? (d[1] + s - 1) / s : (d[1] - eff) / s + 1;
    int32_t ow = pad == TFW_PAD_SAME ? (d[2] + s - 1) / s : (d[2] - eff) / s + 1;
    int32_t oc = dw ? d[3] : rint_in(r, 1, 8);
    int32_t df[4] = {dw ? 1 : oc, k, k, dw ? oc : d[3]};
    size_t nf = (size_t)df[0] * k * k * df[3];
    int8_t *f = arena_alloc(nf);
    for (size_t i = 0; i < nf; i++)
      f[i] = (int8_t)(rnext(r) % 255 - 127);
    int32_t dout[4] = {1, oh, ow, oc};
    int fi = tfw_const(m, arena_printf("f%d", j), TFW_INT8, 4, df, f);
    int y = tfw_tensor(m, arena_printf("t%d", j), TFW_INT8, 4, dout, 0);
    tfw_quant1(m, fi, 0.02f, 0);
    tfw_quant1(m, y, 0.25f + 0.05f * (float)j, -2 + j);
    int ins[2] = {x, fi};
    int op = tfw_op(m, dw ? TFW_OP_DEPTHWISE_CONV_2D : TFW_OP_CONV_2D, 2, ins, 1, &y);
    if (dw)
      tfw_depthwise_options(m, op, pad, s, s, 1, TFW_ACT_NONE, dil, dil);
    else
      tfw_conv2d_options(m, op, pad, s, s, TFW_ACT_NONE, dil, dil);
    memcpy(d, dout, sizeof d);
    x = y;
  }
  tfw_inputs(m, 1, &first);
  tfw_outputs(m, 1, &x);
  return m;
}

/* ".name = value" of a params initializer. */
static int32_t pfield(const char *init, const char *name) {
  const char *s = strstr(init, arena_printf(".%s = ", name));
  return s ? (int32_t)strtol(s + strlen(name) + 4, NULL, 10) : 0;
}

static const ConstObj *const_of(const Lowered *l, const char *name) {
  for (int i = 0; i < l->nconsts; i++)
    if (!strcmp(l->consts[i].name, name))
      return &l->consts[i];
  return NULL;
}

static ta_dims dims_of(const char *init) {
  ta_dims d;
  if (sscanf(init, "{%d, %d, %d, %d}", &d.n, &d.h, &d.w, &d.c) != 4)
    memset(&d, 0, sizeof d);
  return d;
}

/* One call of a lowered int8 convolution, its constants from its
 * lowering (params, dims and the quantization): over whole tensors when
 * band is NULL, else over the band's rows, the top padding and dims
 * worked out here from the rows (pad_h = ph + r0 - a * sh). */
static ta_status call(const Graph *g, const Lowered *orig, int filter_t, const PatchRows *band,
                      const int8_t *in, int8_t *out, void *scratch) {
  const char *pi = const_of(orig, "params")->init;
  ta_conv_params p = {.stride_h = pfield(pi, "stride_h"), .stride_w = pfield(pi, "stride_w"),
                      .dilation_h = pfield(pi, "dilation_h"),
                      .dilation_w = pfield(pi, "dilation_w"), .pad_h = pfield(pi, "pad_h"),
                      .pad_w = pfield(pi, "pad_w"),
                      .depth_multiplier = pfield(pi, "depth_multiplier"),
                      .input_offset = pfield(pi, "input_offset"),
                      .output_offset = pfield(pi, "output_offset"),
                      .act_min = pfield(pi, "act_min"), .act_max = pfield(pi, "act_max")};
  ta_dims di = dims_of(const_of(orig, "in_dims")->init);
  ta_dims dout = dims_of(const_of(orig, "out_dims")->init);
  if (band) {
    p.pad_h += band->r0 - band->a * p.stride_h;
    di.h = band->r1 - band->r0;
    dout.h = band->e - band->a;
  }
  ta_dims df = dims_of(const_of(orig, "filter_dims")->init);
  const char *qi = const_of(orig, "quant")->init;
  int per_channel = 0;
  const char *c = strchr(qi, ',');
  c = c ? strchr(c + 1, ',') : NULL;
  if (c)
    per_channel = (int)strtol(c + 1, NULL, 10);
  /* ta_quant.mmla as the lowering set it (the last field): with
   * TA_MMLA_RECORDS (CONV_2D) or TA_MMLA_DOUBLED (the 3 x 3 depthwise
   * path) the "bias" is that DSP entry's records and there are no
   * multipliers; the other paths take the folded bias. */
  const int mmla = atoi(strrchr(qi, ',') + 1);
  const ConstObj *mc = const_of(orig, "mult"), *sc = const_of(orig, "shift");
  ta_quant q = {mc ? (const int32_t *)mc->data : NULL, sc ? (const int32_t *)sc->data : NULL,
                per_channel, TA_ROUND_DOUBLE, (uint16_t)mmla};
  const int32_t *bias = (const int32_t *)const_of(orig, "bias")->data;
  const ConstObj *fc = const_of(orig, "filter");
  const int8_t *f = fc ? (const int8_t *)fc->data : (const int8_t *)g->tensors[filter_t].data;
  /* The op's own entry, as a band calls it (patch_band_kernel()). */
  const char *k = patch_band_kernel(orig);
  if (!strcmp(k, "ta_conv2d_fold_dsp_s8"))
    return ta_conv2d_fold_dsp_s8(&p, &q, &di, in, &df, f, bias, &dout, out, scratch);
  if (!strcmp(k, "ta_depthwise_conv2d_fold_3x3_dsp_s8"))
    return ta_depthwise_conv2d_fold_3x3_dsp_s8(&p, &q, &di, in, &df, f, bias, &dout, out, scratch);
  if (!strncmp(k, "ta_conv2d_fold_", 15))
    return ta_conv2d_fold_s8(&p, &q, &di, in, &df, f, bias, &dout, out, scratch);
  return ta_depthwise_conv2d_fold_s8(&p, &q, &di, in, &df, f, bias, &dout, out, scratch);
}

/* Entry k of a braced list of structs ("{{...}, {...}}"), or NULL. */
static const char *entry(const char *list, int k) {
  const char *s = list + 1;
  for (int i = 0; s && i <= k; i++) {
    s = strchr(s, '{');
    if (s && i < k)
      s = strchr(s, '}');
  }
  return s;
}

/* The band tables the lowering made for op j (what the generated loop
 * indexes: entry bsel[b] of bparams and bin_dims) hold, for band b,
 * exactly the top padding and input rows of its rows. */
static bool tables_agree(const Graph *g, const PatchRun *r, int j) {
  const Lowered *l = op_lowered(&g->ops[r->ops[j]]);
  const char *bp = const_of(l, "bparams")->init, *bi = const_of(l, "bin_dims")->init;
  const char *sel = const_of(l, "bsel")->init;
  const char *po = const_of(r->orig[j], "params")->init;
  int32_t ph = pfield(po, "pad_h"), sh = pfield(po, "stride_h");
  const char *sp = sel + 1;
  for (int b = 0; b < r->nbands; b++) {
    const PatchRows *pr = &r->rows[(size_t)b * r->nops + j];
    char *endp;
    long k = strtol(sp, &endp, 10);
    sp = strchr(endp, ',');
    sp = sp ? sp + 1 : endp;
    const char *pe = entry(bp, (int)k), *ie = entry(bi, (int)k);
    const char *s = pe ? strstr(pe, ".pad_h = ") : NULL;
    ta_dims d;
    if (!s || (int32_t)strtol(s + 9, NULL, 10) != ph + pr->r0 - pr->a * sh || !ie ||
        sscanf(ie, "{%d, %d, %d, %d}", &d.n, &d.h, &d.w, &d.c) != 4 || d.h != pr->r1 - pr->r0)
      return false;
  }
  return true;
}

/* A deep copy of the run op `end` belongs to, which every op of the run
 * then points to (for corrupting it). */
static PatchRun *own_copy(Graph *g, int end) {
  const PatchRun *o = op_lowered(&g->ops[end])->patch;
  PatchRun *r = arena_alloc(sizeof *r);
  *r = *o;
  size_t n = (size_t)o->nops, nb = (size_t)o->nbands;
  r->rows = arena_array(n * nb, sizeof(PatchRows));
  memcpy(r->rows, o->rows, n * nb * sizeof(PatchRows));
  r->buf_off = arena_array(n, sizeof(size_t));
  memcpy(r->buf_off, o->buf_off, n * sizeof(size_t));
  r->buf_bytes = arena_array(n, sizeof(size_t));
  memcpy(r->buf_bytes, o->buf_bytes, n * sizeof(size_t));
  for (size_t j = 0; j < n; j++)
    op_lowered(&g->ops[o->ops[j]])->patch = r;
  return r;
}

static void restore(Graph *g, const PatchRun *o) {
  for (int j = 0; j < o->nops; j++)
    op_lowered(&g->ops[o->ops[j]])->patch = o;
}

static void swap_bands(PatchRun *r, int a, int b) {
  for (int j = 0; j < r->nops; j++) {
    PatchRows t = r->rows[(size_t)a * r->nops + j];
    r->rows[(size_t)a * r->nops + j] = r->rows[(size_t)b * r->nops + j];
    r->rows[(size_t)b * r->nops + j] = t;
  }
}

static int cases, late, exact, placed_ok, tight, small_buf, bad_rows, shared_buf, big, order_cases,
    order_right, order_illegal;

static void test_random_chain(Rng *rng) {
  int nops = rint_in(rng, 2, 5);
  Graph *g = lowered(chain_model(rng, nops), TA_ROUND_DOUBLE);
  if (!g)
    return;
  int max_end = patch_max_end(g, 0);
  if (max_end != nops - 1) {
    CHECK(false, "a chain of %d convolutions is patchable to its last op (got %d)", nops,
          max_end);
    return;
  }
  /* The whole-tensor calls first: every op's output. */
  int8_t **whole = arena_array((size_t)nops, sizeof(int8_t *));
  const Tensor *x0 = &g->tensors[g->ops[0].inputs[0]];
  int8_t *input = arena_alloc(tensor_bytes(x0));
  for (size_t i = 0; i < tensor_bytes(x0); i++)
    input[i] = (int8_t)(rnext(rng) % 256);
  void *scratch = arena_alloc(1 << 16);
  const int8_t *in = input;
  for (int j = 0; j < nops; j++) {
    const Op *op = &g->ops[j];
    whole[j] = arena_alloc(tensor_bytes(&g->tensors[op->outputs[0]]));
    const Lowered *l = op_lowered(op);
    if (call(g, l, op->inputs[1], NULL, in, whole[j], scratch) != TA_OK)
      return;
    in = whole[j];
  }
  int end = rint_in(rng, 1, nops - 1);
  /* Half the runs from op 0, half from a later op (its input a whole
   * planned tensor, the output of the op before). */
  int start = rnext(rng) % 2 ? 0 : rint_in(rng, 0, end - 1);
  int rows = (int)g->tensors[g->ops[end].outputs[0]].dims[1];
  int nb = rint_in(rng, 1, rows);
  const char *why = NULL;
  const PatchRun *r = patch_graph(g, start, end, nb, &why);
  if (!r)
    return; /* a band that reads no row of some op (VALID edges) */
  cases++;
  late += start > 0;
  PlanOptions po = {.align = 1, .io_in_workspace = true};
  Plan *p = plan_graph(g, &po); /* checked: a rejected plan dies */

  /* The bands on the host, as the emitted code runs them. */
  int n = r->nops;
  uint8_t *bufs = arena_alloc(r->total_bytes + 1);
  const Tensor *y = &g->tensors[r->out_t[n - 1]];
  int8_t *out = arena_alloc(tensor_bytes(y));
  bool ok = true;
  for (int b = 0; b < r->nbands && ok; b++)
    for (int j = 0; j < n && ok; j++) {
      const PatchRows *pr = &r->rows[(size_t)b * n + j];
      const Tensor *ti = &g->tensors[r->in_t[j]], *to = &g->tensors[r->out_t[j]];
      size_t irow = (size_t)(ti->dims[2] * ti->dims[3]), orow = (size_t)(to->dims[2] * to->dims[3]);
      const int8_t *run_in = start ? whole[start - 1] : input;
      const int8_t *src = j == 0 ? run_in + (size_t)pr->r0 * irow
                                 : (const int8_t *)(bufs + r->buf_off[j - 1]);
      int8_t *dst = j == n - 1 ? out + (size_t)pr->a * orow : (int8_t *)(bufs + r->buf_off[j]);
      ok = call(g, r->orig[j], r->w_t[j], pr, src, dst, bufs + r->scratch_off) == TA_OK;
    }
  ok = ok && !memcmp(out, whole[end], tensor_bytes(y));
  for (int j = 0; j < n && ok; j++)
    ok = tables_agree(g, r, j);
  exact += ok;
  if (!ok)
    CHECK(false, "a chain of %d ops patched from op %d to op %d in %d bands gives the "
                 "whole-tensor bytes, and its band tables hold each band's padding and rows",
          nops, start, end, nb);

  /* Placement by hand: input A, output C exactly max_ahead above it,
   * the band buffers above both. */
  int ai = g->tensors[r->in_t[0]].storage, ci = g->tensors[r->out_t[n - 1]].storage;
  int si = g->ops[end].scratch_buffer;
  Buffer *A = &p->bufs[ai], *C = &p->bufs[ci], *S = &p->bufs[si];
  int64_t ahead = op_lowered(&g->ops[end])->overlap.max_ahead;
  bool only_three = true;
  for (int i = 0; i < p->nbufs; i++)
    if (i != ai && i != ci && i != si && !p->bufs[i].external && !p->bufs[i].persistent &&
        p->bufs[i].first <= C->first && p->bufs[i].last >= C->first)
      only_three = false;
  /* (From op 0 only: a later run's input is an op's output, placed in
   * relation to that op's own input, which this would move.) */
  if (start == 0 && C->overlap && C->overlap_of == ai && only_three && end == nops - 1 &&
      ahead < (int64_t)A->bytes) {
    size_t base = C->bytes + 64;
    A->offset = base;
    C->offset = (size_t)((int64_t)base + ahead);
    size_t top = A->offset + A->bytes > C->offset + C->bytes ? A->offset + A->bytes
                                                             : C->offset + C->bytes;
    S->offset = top;
    p->pools[0].used = top + S->bytes + 4096;
    const char *w0 = check_plan(g, p);
    placed_ok += w0 == NULL;
    if (w0)
      CHECK(false, "the output exactly max_ahead above the input is accepted: %s", w0);
    C->offset++;
    const char *w1 = check_plan(g, p);
    tight += w0 == NULL && w1 && strstr(w1, "still reads");
    if (!w1 || !strstr(w1, "still reads"))
      CHECK(false, "one byte higher is rejected as writing over what a later band reads "
                   "(got %s)", w1 ? w1 : "accepted");
    C->offset--;
    if (r->nbands >= 2) {
      /* Bands 0 and 1 swapped: illegal exactly when band 1's output rows,
       * written first, meet the input rows band 0 then reads. */
      const PatchRows *b0 = &r->rows[0], *b1 = &r->rows[n + n - 1];
      const Tensor *x = &g->tensors[r->in_t[0]];
      int64_t irow = x->dims[2] * x->dims[3], orow = y->dims[2] * y->dims[3];
      int64_t w0b = (int64_t)C->offset + b1->a * orow, w1b = (int64_t)C->offset + b1->e * orow;
      int64_t r0b = (int64_t)A->offset + b0->r0 * irow, r1b = (int64_t)A->offset + b0->r1 * irow;
      bool illegal = w0b < r1b && r0b < w1b;
      PatchRun *c = own_copy(g, end);
      swap_bands(c, 0, 1);
      const char *w2 = check_plan(g, p);
      order_cases++;
      bool right = illegal ? w2 && strstr(w2, "still reads") : w2 == NULL;
      order_right += right;
      order_illegal += illegal;
      if (!right)
        CHECK(false, "bands 0 and 1 swapped are %s (got %s)", illegal ? "rejected" : "accepted",
              w2 ? w2 : "accepted");
      restore(g, r);
    }
  }

  /* Corruptions of the run itself. */
  for (int j = 0; j + 1 < n; j++) {
    PatchRun *c = own_copy(g, end);
    const Tensor *t = &g->tensors[r->out_t[j]];
    c->buf_bytes[j] -= (size_t)(t->dims[2] * t->dims[3]);
    const char *w = check_plan(g, p);
    small_buf += w && strstr(w, "band buffer");
    if (!w || !strstr(w, "band buffer"))
      CHECK(false, "op %d's band buffer one row too small is rejected (got %s)", j,
            w ? w : "accepted");
    restore(g, r);
  }
  {
    PatchRun *c = own_copy(g, end);
    int b = rint_in(rng, 0, r->nbands - 1), j = rint_in(rng, 0, n - 1);
    PatchRows *pr = &c->rows[(size_t)b * n + j];
    if (pr->r0 > 0)
      pr->r0--;
    else
      pr->r1++;
    const char *w = check_plan(g, p);
    bad_rows += w != NULL;
    if (!w)
      CHECK(false, "band %d's rows of op %d one off are rejected", b, j);
    restore(g, r);
  }
  if (n >= 3 && r->buf_bytes[0] && r->buf_bytes[1]) {
    PatchRun *c = own_copy(g, end);
    c->buf_off[1] = c->buf_off[0];
    const char *w = check_plan(g, p);
    shared_buf += w && strstr(w, "sharing bytes");
    if (!w || !strstr(w, "sharing bytes"))
      CHECK(false, "op 1 writing its band over the band it reads is rejected (got %s)",
            w ? w : "accepted");
    restore(g, r);
  } else {
    shared_buf++;
  }
  {
    PatchRun *c = own_copy(g, end);
    c->total_bytes = p->bufs[si].bytes + 1;
    const char *w = check_plan(g, p);
    big += w && strstr(w, "scratch buffer of");
    if (!w || !strstr(w, "scratch buffer of"))
      CHECK(false, "band buffers beyond the op's scratch buffer are rejected (got %s)",
            w ? w : "accepted");
    restore(g, r);
  }
}

static void test_vww(void) {
  const char *dir = test_shared_dir();
  if (!dir)
    return;
  const char *path = arena_printf("%s/models/vww_96_int8.tflite", dir);
  size_t len;
  uint8_t *bytes = read_file(path, &len);
  Graph *g = read_tflite(path, bytes, len);
  verify(g);
  run_passes(g);
  LowerOptions lo = {.rounding = TA_ROUND_DOUBLE};
  lower(g, &lo);
  CHECK(patch_max_end(g, 0) == 26, "vww_96_int8's chain of convolutions from op 0 ends at op "
                                   "26 (got %d)", patch_max_end(g, 0));
  const PatchRun *r = patch_graph(g, 0, 3, 24, NULL);
  verify(g);
  PlanOptions po = {.io_in_workspace = true};
  Plan *p = plan_graph(g, &po);
  CHECK(p->workspace_bytes == 32352 && r->total_bytes == 4704,
        "vww_96_int8 --patch 3:24 plans in 32352 bytes, 4704 of them band buffers and "
        "scratch (got %zu, %zu)", p->workspace_bytes, r->total_bytes);
  CHECK(check_plan(g, p) == NULL, "its plan passes the check");

  PatchRun *c = own_copy(g, 3);
  c->buf_bytes[2] -= 48 * 16;
  const char *w = check_plan(g, p);
  CHECK(w && strstr(w, "needs 2304 bytes of op 2's output in its band buffer of 1536"),
        "op 2's band buffer one row too small is rejected: %s", w ? w : "accepted");
  restore(g, r);

  /* The output over input the later bands still read: one output row
   * higher than the plan put it. */
  int ai = g->tensors[r->in_t[0]].storage, ci = g->tensors[r->out_t[3]].storage;
  size_t at = p->bufs[ci].offset;
  p->bufs[ci].offset = p->bufs[ai].offset + 24 * 16 * 2;
  w = check_plan(g, p);
  CHECK(w && strstr(w, "still reads"),
        "the run's output moved up over input bytes a later band reads is rejected: %s",
        w ? w : "accepted");
  p->bufs[ci].offset = at;

  /* The bands in reverse order. */
  c = own_copy(g, 3);
  for (int b = 0; b < 12; b++)
    swap_bands(c, b, 23 - b);
  w = check_plan(g, p);
  CHECK(w && strstr(w, "band 0 writes output bytes"),
        "the bands in reverse order are rejected: %s", w ? w : "accepted");
  restore(g, r);
  CHECK(check_plan(g, p) == NULL, "the plan restored passes again");
}

int main(void) {
  Rng rng = {0x9a7c4e11u};
  for (int i = 0; i < 300; i++)
    test_random_chain(&rng);
  CHECK(cases > 200 && exact == cases,
        "%d of %d random patched chains give the whole-tensor bytes, their band tables holding "
        "each band's padding and rows", exact, cases);
  CHECK(late > 50, "%d of them start after op 0", late);
  CHECK(placed_ok > 50 && tight == placed_ok,
        "the checker accepts the run's output exactly max_ahead above its input and "
        "rejects it one byte higher (%d of %d plans)", tight, placed_ok);
  CHECK(order_cases > 30 && order_right == order_cases && order_illegal > 10 &&
            order_illegal < order_cases,
        "swapped bands are rejected exactly when a band then writes over input a later "
        "band reads (%d of %d right, %d of them illegal)", order_right, order_cases,
        order_illegal);
  CHECK(small_buf > 200 && bad_rows == cases && shared_buf == cases && big == cases,
        "band buffers one row too small (%d), rows one off (%d of %d), band buffers on "
        "the same bytes and beyond the scratch buffer are rejected", small_buf, bad_rows,
        cases);
  test_vww();
  return test_exit();
}
