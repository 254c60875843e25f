/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Overlapping buffers (doc/memory-plan.md, 2c): an op's output placed
 * over part of its dying input at the distance its kernel's loop order
 * allows (Lowered.overlap).
 *
 *  - the declared distance is sound and tight on the host kernel: for
 *    random int8 and float32 convolutions and depthwise convolutions
 *    (1x1 widening, narrowing and same-width, 3x3 strides 1 and 2, SAME
 *    and VALID, one and several images) and PADs the kernel run with
 *    its output at
 *    every offset up to max_ahead above its input (depthwise: every
 *    whole number of pixels) gives the bytes it gives with disjoint
 *    buffers;
 *  - the planner uses it: a widening 1x1 convolution plans in its
 *    output's size plus scratch, below the whole-tensor bound, and the
 *    checker accepts that plan; on 600 random buffer lists with
 *    overlapping pairs every algorithm's plan passes check_buffers(),
 *    keeps each pair within its distance and modulus and is never
 *    below the bound with overlaps;
 *  - the checker, from the access pattern alone, accepts exactly the
 *    offsets the lowering's distance allows, on every random case;
 *  - the checker re-derives legality from the access pattern, not from
 *    the planner's number: it accepts the output exactly max_ahead above
 *    the input and rejects it one byte higher, rejects an output moved
 *    up over its input (the wrong direction), an overlap with an input
 *    still read later, an overlap on an op that declares none, one
 *    whose planner distance was tampered with, and a depthwise output a
 *    fraction of a pixel away;
 *  - the same for the other kernels that declare one: uint8 convolutions
 *    and depthwise ones (multipliers 1 and 2), hybrid convolutions of one
 *    and two images, pools (int8, uint8, int16, float32; average and
 *    maximum), ARG_MAX over the last axis (a view of its tensors) and
 *    SignalRfft on 1 to 3 frames: exact at every offset up to their
 *    distance, the checker accepting exactly those; a pool's output
 *    shifted by part of a pixel, a hybrid image written over the next
 *    image's input and a view of other elements than the tensors' are
 *    rejected.
 */
#include "test.h"
#include "lower_helpers.h"
#include "lower.h"
#include "ta_fixedpoint.h"
#include "ta_kernels.h"
#include "ta_pack.h"

#include "../tools/rng.h"

/* CONV_2D int8 [n,h,w,c] -> [n,oh,ow,oc], k x k filter, stride s; the
 * filter and quantization fixed by `seed`. */
static TfwModel *conv_model(int32_t n, int32_t h, int32_t w, int32_t c, int32_t oc,
                            int32_t k, int32_t s, int pad, uint64_t seed, bool dw) {
  TfwModel *m = tfw_new();
  int32_t oh = pad == TFW_PAD_SAME ? (h + s - 1) / s : (h - k) / s + 1;
  int32_t ow = pad == TFW_PAD_SAME ? (w + s - 1) / s : (w - k) / s + 1;
  if (dw)
    oc = c;
  int32_t di[4] = {n, h, w, c}, dout[4] = {n, oh, ow, oc}, df[4] = {oc, k, k, c};
  if (dw) {
    df[0] = 1;
    df[3] = c;
  }
  int8_t *f = arena_alloc((size_t)oc * k * k * c);
  uint64_t r = seed;
  for (int32_t i = 0; i < oc * k * k * c; i++)
    f[i] = (int8_t)(splitmix(&r) % 255 - 127);
  int in = tfw_tensor(m, "in", TFW_INT8, 4, di, 0);
  int fi = tfw_const(m, "f", TFW_INT8, 4, df, f);
  int out = tfw_tensor(m, "out", TFW_INT8, 4, dout, 0);
  tfw_quant1(m, in, 0.5f, 3);
  tfw_quant1(m, fi, 0.02f, 0);
  tfw_quant1(m, out, 0.25f, -2);
  int ins[2] = {in, fi};
  int op = tfw_op(m, dw ? TFW_OP_DEPTHWISE_CONV_2D : TFW_OP_CONV_2D, 2, ins, 1, &out);
  if (dw)
    tfw_depthwise_options(m, op, pad, s, s, 1, TFW_ACT_NONE, 1, 1);
  else
    tfw_conv2d_options(m, op, pad, s, s, TFW_ACT_NONE, 1, 1);
  tfw_inputs(m, 1, &in);
  tfw_outputs(m, 1, &out);
  return m;
}

/* Set: run_conv() runs the depthwise convolution's backward kernel. */
static bool run_backwards;

/* Runs op 0 of g (a lowered ta_conv2d_fold_s8) with its input at
 * ws + a and its output at ws + c; the output's bytes into out. */
static void run_conv(const Graph *g, int8_t *ws, size_t a, size_t c, const int8_t *input,
                     int8_t *out) {
  const Op *op = &g->ops[0];
  const Tensor *in = &g->tensors[op->inputs[0]], *o = &g->tensors[op->outputs[0]];
  const Tensor *f = &g->tensors[op->inputs[1]];
  const ConstObj *bias = find_const(g, 0, "bias");
  const OverlapDecl *d = &op_lowered(op)->overlap;
  ta_conv_params p = {.stride_h = d->sh, .stride_w = d->sw, .dilation_h = 1,
                      .dilation_w = 1, .pad_h = d->ph, .pad_w = d->pw,
                      .depth_multiplier = 1, .input_offset = -3, .output_offset = -2,
                      .act_min = -128, .act_max = 127};
  int32_t mult = 1288490189, shift = -5; /* about 0.04: 0.5 * 0.02 / 0.25 */
  ta_quant q = {&mult, &shift, 0, TA_ROUND_DOUBLE, 0};
  ta_dims di = {in->dims[0], in->dims[1], in->dims[2], in->dims[3]};
  ta_dims dout = {o->dims[0], o->dims[1], o->dims[2], o->dims[3]};
  ta_dims df = {f->dims[0], f->dims[1], f->dims[2], f->dims[3]};
  size_t ib = tensor_bytes(in), ob = tensor_bytes(o);
  int32_t scratch[4096];
  memcpy(ws + a, input, ib);
  /* The entry point the compiler chose (its _dsp_ and _portable_ forms
   * take the same arguments; q.mmla as the lowering found it). */
  const char *k = run_backwards ? op_lowered(op)->overlap.reverse_kernel : op_lowered(op)->kernel;
  /* ta_quant.mmla as the lowering set it (the last field of "quant"):
   * with TA_MMLA_RECORDS or TA_MMLA_DOUBLED the "bias" is the DSP
   * entry's records (and a CONV_2D's "filter" packed). */
  const char *qi = find_const(g, 0, "quant")->init;
  q.mmla = (uint16_t)atoi(strrchr(qi, ',') + 1);
  const ConstObj *packed = find_const(g, 0, "filter");
  ta_status (*fn)(const ta_conv_params *, const ta_quant *, const ta_dims *, const int8_t *,
                  const ta_dims *, const int8_t *, const int32_t *, const ta_dims *, int8_t *,
                  void *) = NULL;
  if (!strcmp(k, "ta_depthwise_conv2d_fold_rev_dsp_s8"))
    fn = ta_depthwise_conv2d_fold_rev_dsp_s8;
  else if (!strcmp(k, "ta_depthwise_conv2d_fold_rev_3x3_dsp_s8"))
    fn = ta_depthwise_conv2d_fold_rev_3x3_dsp_s8;
  else if (!strcmp(k, "ta_depthwise_conv2d_fold_3x3_dsp_s8"))
    fn = ta_depthwise_conv2d_fold_3x3_dsp_s8;
  else if (!strcmp(k, "ta_depthwise_conv2d_fold_rev_portable_s8"))
    fn = ta_depthwise_conv2d_fold_rev_portable_s8;
  else if (!strcmp(k, "ta_depthwise_conv2d_fold_dsp_s8"))
    fn = ta_depthwise_conv2d_fold_dsp_s8;
  else if (!strcmp(k, "ta_depthwise_conv2d_fold_portable_s8"))
    fn = ta_depthwise_conv2d_fold_portable_s8;
  else if (!strcmp(k, "ta_conv2d_fold_dsp_s8"))
    fn = ta_conv2d_fold_dsp_s8;
  else if (!strcmp(k, "ta_conv2d_fold_portable_s8"))
    fn = ta_conv2d_fold_portable_s8;
  memset(out, 0x5a, ob);
  if (fn && fn(&p, &q, &di, (const int8_t *)ws + a, &df,
               packed ? (const int8_t *)packed->data : (const int8_t *)f->data,
               (const int32_t *)bias->data, &dout, (int8_t *)ws + c, scratch) != TA_OK)
    fn = NULL;
  if (!fn) /* an unknown entry or a refusal: outputs that match nothing */
    return;
  memcpy(out, ws + c, ob);
}

/* A copy of p whose buffers can be tampered with. */
static Plan *copy_plan(const Plan *p) {
  Plan *q = arena_alloc(sizeof *q);
  *q = *p;
  q->bufs = arena_array((size_t)p->nbufs, sizeof(Buffer));
  memcpy(q->bufs, p->bufs, (size_t)p->nbufs * sizeof(Buffer));
  q->pools = arena_array((size_t)p->npools, sizeof(Pool));
  memcpy(q->pools, p->pools, (size_t)p->npools * sizeof(Pool));
  return q;
}

/* q with every buffer byte-aligned, input at a, output at c, scratch
 * above both, the pool's size fitted; the op's kernel run forwards, or
 * with rev its backward kernel. */
static const char *check_at_dir(const Graph *g, Plan *q, int64_t a, int64_t c, bool rev) {
  int in = g->tensors[g->ops[0].inputs[0]].storage;
  int out = g->tensors[g->ops[0].outputs[0]].storage;
  size_t top = 0;
  for (int i = 0; i < q->nbufs; i++) {
    q->bufs[i].align = 1;
    q->bufs[i].overlap_rev = false;
  }
  q->bufs[out].overlap_rev = rev;
  q->bufs[in].offset = (size_t)a;
  q->bufs[out].offset = (size_t)c;
  for (int i = 0; i < q->nbufs; i++)
    if (i != in && i != out)
      q->bufs[i].offset = 0;
  top = (size_t)(a + (int64_t)q->bufs[in].bytes);
  if ((size_t)(c + (int64_t)q->bufs[out].bytes) > top)
    top = (size_t)(c + (int64_t)q->bufs[out].bytes);
  for (int i = 0; i < q->nbufs; i++)
    if (i != in && i != out) {
      q->bufs[i].offset = top;
      top += q->bufs[i].bytes;
    }
  q->pools[0].used = top;
  return check_plan(g, q);
}

static const char *check_at(const Graph *g, Plan *q, int64_t a, int64_t c) {
  return check_at_dir(g, q, a, c, false);
}

static void test_distance_is_sound(bool dw) {
  uint64_t r = dw ? 0xd3 : 0x0e1a9;
  int cases = 0, exact = 0, tight = 0, tight_rev = 0;
  /* The path entries the compiler picks (test_lower_choices.c). */
  const char *want = dw ? "ta_depthwise_conv2d_fold_" : "ta_conv2d_fold_";
  for (int t = 0; t < 60; t++) {
    int32_t k = splitmix(&r) % 2 ? 1 : 3, s = 1 + (int32_t)(splitmix(&r) % 2);
    int32_t n = 1 + (int32_t)(splitmix(&r) % 2), h = 2 + (int32_t)(splitmix(&r) % 6);
    int32_t w = 2 + (int32_t)(splitmix(&r) % 6), c = 1 + (int32_t)(splitmix(&r) % 8);
    int32_t oc = 1 + (int32_t)(splitmix(&r) % 12);
    if (dw && c == 1)
      c = 2; /* one channel runs as CONV_2D */
    int pad = k == 3 && splitmix(&r) % 2 ? TFW_PAD_VALID : TFW_PAD_SAME;
    if (pad == TFW_PAD_VALID && (h < 3 || w < 3))
      pad = TFW_PAD_SAME;
    Graph *g = lowered(conv_model(n, h, w, c, oc, k, s, pad, splitmix(&r), dw), TA_ROUND_DOUBLE);
    if (!g) {
      CHECK(0, "conv case %d compiles: %s", t, error_message);
      continue;
    }
    const Lowered *l = op_lowered(&g->ops[0]);
    if (!l->overlap.declared || strncmp(l->kernel, want, strlen(want)) ||
        (dw && l->overlap.chan_mod != c)) {
      CHECK(0, "case %d: %s declares an overlap (%s)", t, want, l->kernel);
      continue;
    }
    int64_t mod = dw ? c : 1; /* depthwise: whole pixels apart only */
    size_t ib = tensor_bytes(&g->tensors[g->ops[0].inputs[0]]);
    size_t ob = tensor_bytes(&g->tensors[g->ops[0].outputs[0]]);
    int8_t *input = arena_alloc(ib), *ref = arena_alloc(ob), *got = arena_alloc(ob);
    int8_t *got_rev = arena_alloc(ob);
    for (size_t i = 0; i < ib; i++)
      input[i] = (int8_t)(splitmix(&r) % 256);
    size_t span = 2 * (ib + ob) + 64, a = ob + 16;
    int8_t *ws = arena_alloc(span);
    run_conv(g, ws, a, a + ib + 8, input, ref); /* disjoint */
    int64_t dmax = l->overlap.max_ahead, lo = -(int64_t)ob - 4;
    bool ok = true;
    for (int64_t delta = lo; delta <= dmax && delta < (int64_t)ib; delta++) {
      if (delta % mod != 0)
        continue;
      memset(ws, 0x5a, span);
      run_conv(g, ws, a, (size_t)((int64_t)a + delta), input, got);
      ok &= !memcmp(ref, got, ob);
    }
    /* Tight: one step higher clobbers something (when it still overlaps). */
    int64_t next = dmax + 1;
    while (next % mod != 0)
      next++;
    if (next < (int64_t)ib && next > -(int64_t)ob) {
      memset(ws, 0x5a, span);
      run_conv(g, ws, a, (size_t)((int64_t)a + next), input, got);
      tight += memcmp(ref, got, ob) != 0;
    }
    /* The checker, from the pattern alone, accepts exactly the offsets
     * the lowering's distance allows (or those clear of the input); a
     * ring of rows (rows_once) may also allow some beyond it, where a
     * later row would lie past the input's end: there the kernel must
     * give the disjoint bytes too. */
    PlanOptions po = {.io_in_workspace = true};
    Plan *p = plan_graph(g, &po);
    int agree = 1;
    for (int64_t delta = lo; delta < (int64_t)ib; delta++) {
      bool want = delta <= -(int64_t)ob || (delta <= dmax && delta % mod == 0);
      bool got = check_at(g, copy_plan(p), (int64_t)a, (int64_t)a + delta) == NULL;
      if (got && !want && l->overlap.rows_once && delta % mod == 0) {
        memset(ws, 0x5a, span);
        run_conv(g, ws, a, (size_t)((int64_t)a + delta), input, got_rev);
        want = !memcmp(ref, got_rev, ob);
      }
      if (want != got && agree) {
        CHECK(0, "case %d: the checker %s the output %lld bytes above its input (distance "
                 "%lld)", t, got ? "accepts" : "rejects", (long long)delta, (long long)dmax);
        agree = 0;
      }
    }
    ok &= agree;
    if (dw) {
      /* Backwards (ta_depthwise_conv2d_fold_rev_s8): every whole pixel
       * from min_above up gives the disjoint bytes, and the checker,
       * told the backward kernel runs, accepts exactly those. */
      const OverlapDecl *od = &l->overlap;
      int64_t up = od->min_above;
      bool bok = od->reverse_kernel != NULL;
      for (int64_t delta = lo; delta < (int64_t)ib && bok; delta++) {
        bool legal = delta <= -(int64_t)ob || (delta >= up && delta % mod == 0);
        bool got = check_at_dir(g, copy_plan(p), (int64_t)a, (int64_t)a + delta, true) == NULL;
        /* A ring of rows may also allow offsets below min_above (the
         * first rows written while nothing below is still to be read):
         * checked by running the kernel below. */
        if (got && !legal && od->rows_once && delta % mod == 0)
          legal = true;
        if (legal != got) {
          CHECK(0, "case %d: backwards, the checker %s the output %lld bytes above its "
                   "input (at least %lld)", t, got ? "accepts" : "rejects", (long long)delta,
                (long long)up);
          bok = false;
        }
        if (!legal || delta <= -(int64_t)ob)
          continue;
        memset(ws, 0x5a, span);
        run_backwards = true;
        run_conv(g, ws, a, (size_t)((int64_t)a + delta), input, got_rev);
        run_backwards = false;
        if (memcmp(ref, got_rev, ob)) {
          CHECK(0, "case %d: backwards at %lld bytes above differs", t, (long long)delta);
          bok = false;
        }
      }
      if (up > mod && up < (int64_t)ib) { /* one pixel lower clobbers? */
        memset(ws, 0x5a, span);
        run_backwards = true;
        run_conv(g, ws, a, (size_t)((int64_t)a + up - mod), input, got_rev);
        run_backwards = false;
        tight_rev += memcmp(ref, got_rev, ob) != 0;
      }
      ok &= bok;
    }
    cases++;
    exact += ok;
    CHECK(ok, "%s %dx%d stride %d %s [%d,%d,%d,%d] -> %d channels: the output at "
              "every offset up to %lld bytes above the input%s gives the disjoint bytes, and "
              "the checker accepts exactly those",
          dw ? "depthwise" : "conv", k, k, s, pad == TFW_PAD_SAME ? "SAME" : "VALID", n, h,
          w, c, dw ? c : oc, (long long)dmax, dw ? " (whole pixels)" : "");
  }
  CHECK(cases == 60 && exact == cases, "%d of %d %s convolutions exact at their distance",
        exact, cases, dw ? "depthwise" : "ordinary");
  /* One byte past the bound is the portable kernel's own limit in most
   * cases (the bound also covers the two-pixel Arm path); a bound that
   * never binds would be suspicious. */
  CHECK(tight > 0, "one byte beyond the distance clobbers the output in %d cases", tight);
  if (dw)
    CHECK(tight_rev > 0, "backwards, one pixel below the least distance clobbers the output "
                         "in %d cases", tight_rev);
}

/* The planned 1x1 convolution [1,6,6,4] -> [1,6,6,8] with inputs and
 * outputs in the workspace. */
static Plan *plan_widening(Graph **gp) {
  Graph *g = lowered(conv_model(1, 6, 6, 4, 8, 1, 1, TFW_PAD_SAME, 7, false), TA_ROUND_DOUBLE);
  *gp = g;
  if (!g)
    return NULL;
  PlanOptions o = {.io_in_workspace = true};
  return plan_graph(g, &o);
}

static void test_planner_and_checker(void) {
  Graph *g;
  Plan *p = plan_widening(&g);
  if (!p) {
    CHECK(0, "the widening convolution plans: %s", error_message);
    return;
  }
  int in = g->tensors[g->ops[0].inputs[0]].storage;
  int out = g->tensors[g->ops[0].outputs[0]].storage;
  const Buffer *B = &p->bufs[out];
  /* 36 pixels, 4 -> 8 channels: pixel e's output ends at 8e, the first
   * byte still to read is 4e; the last block before pixel 35 gives
   * 4 * 35 - 8 * 35 = -140.  Aligned to 16 the input sits 144 bytes up,
   * its end on the output's end: 288 bytes + 32 of scratch. */
  CHECK(p->noverlap == 1 && B->overlap && B->overlap_of == in && B->overlap_max == -140,
        "the output overlaps its input, at most -140 bytes above it (got %d, %lld)",
        p->noverlap, (long long)B->overlap_max);
  CHECK(p->workspace_bytes == 320 && p->lower_bound == 464 && p->overlap_bound == 320,
        "planned in 288 + 32 bytes, below the whole-tensor bound of 144 + 288 + 32 "
        "(got %zu, bound %zu, with overlaps %zu)",
        p->workspace_bytes, p->lower_bound, p->overlap_bound);
  CHECK(check_plan(g, p) == NULL, "the checker accepts the plan");

  Plan *q = copy_plan(p);
  const char *why = check_at(g, q, 200, 60);
  CHECK(why == NULL, "the output exactly 140 bytes below its input passes: %s",
        why ? why : "");
  q = copy_plan(p);
  why = check_at(g, q, 200, 61);
  CHECK(why && strstr(why, "still reads"),
        "139 bytes below (one byte too high) is rejected: %s", why ? why : "accepted");
  q = copy_plan(p);
  why = check_at(g, q, 200, 208);
  CHECK(why && strstr(why, "still reads"),
        "the output moved 8 bytes above its input (the wrong direction) is rejected: %s",
        why ? why : "accepted");
  q = copy_plan(p);
  q->bufs[out].overlap_max = 100000; /* the planner's word, not trusted */
  why = check_at(g, q, 200, 120);
  CHECK(why && strstr(why, "still reads"),
        "a planner distance of 100000 does not make 80 bytes below legal: %s",
        why ? why : "accepted");
  q = copy_plan(p);
  q->bufs[out].overlap = false;
  why = check_at(g, q, 200, 60);
  CHECK(why && strstr(why, "share bytes"),
        "the same bytes shared without an overlap declared are rejected: %s",
        why ? why : "accepted");
  /* An op that declares nothing. */
  q = copy_plan(p);
  Lowered *l = op_lowered(&g->ops[0]);
  OverlapDecl saved = l->overlap;
  l->overlap.declared = false;
  why = check_at(g, q, 200, 60);
  l->overlap = saved;
  CHECK(why && strstr(why, "declares"),
        "an overlap on an op that declares none is rejected: %s", why ? why : "accepted");
  /* A pattern whose blocks were tampered with (no block: no order). */
  q = copy_plan(p);
  l->overlap.nblocks = 0;
  why = check_at(g, q, 200, 60);
  l->overlap = saved;
  CHECK(why != NULL, "an overlap whose access pattern is no pattern is rejected: %s",
        why ? why : "accepted");
}

/* in -> conv A -> x, in -> conv B -> y: in is still read at step 1, so
 * x may not overlap it at step 0 (y may, at step 1). */
static void test_input_live_later(void) {
  TfwModel *m = tfw_new();
  int32_t di[4] = {1, 4, 4, 4}, dout[4] = {1, 4, 4, 8}, df[4] = {8, 1, 1, 4};
  int8_t f[32];
  for (int i = 0; i < 32; i++)
    f[i] = (int8_t)(i * 7 - 100);
  int in = tfw_tensor(m, "in", TFW_INT8, 4, di, 0);
  int fi = tfw_const(m, "f", TFW_INT8, 4, df, f);
  int x = tfw_tensor(m, "x", TFW_INT8, 4, dout, 0);
  int y = tfw_tensor(m, "y", TFW_INT8, 4, dout, 0);
  tfw_quant1(m, in, 0.5f, 3);
  tfw_quant1(m, fi, 0.02f, 0);
  tfw_quant1(m, x, 0.25f, -2);
  tfw_quant1(m, y, 0.25f, -2);
  int ins[2] = {in, fi};
  int op = tfw_op(m, TFW_OP_CONV_2D, 2, ins, 1, &x);
  tfw_conv2d_options(m, op, TFW_PAD_SAME, 1, 1, TFW_ACT_NONE, 1, 1);
  op = tfw_op(m, TFW_OP_CONV_2D, 2, ins, 1, &y);
  tfw_conv2d_options(m, op, TFW_PAD_SAME, 1, 1, TFW_ACT_NONE, 1, 1);
  tfw_inputs(m, 1, &in);
  int outs[2] = {x, y};
  tfw_outputs(m, 2, outs);
  Graph *g = lowered(m, TA_ROUND_DOUBLE);
  if (!g) {
    CHECK(0, "the two-convolution model compiles: %s", error_message);
    return;
  }
  PlanOptions o = {.io_in_workspace = true};
  Plan *p = plan_graph(g, &o);
  int a = g->tensors[g->ops[0].inputs[0]].storage;
  int xb = g->tensors[g->ops[0].outputs[0]].storage;
  int yb = g->tensors[g->ops[1].outputs[0]].storage;
  CHECK(!p->bufs[xb].overlap && p->bufs[yb].overlap && p->bufs[yb].overlap_of == a,
        "x, written while in is still read later, overlaps nothing; y, in's last "
        "reader, may overlap it (%d %d)", p->bufs[xb].overlap, p->bufs[yb].overlap);
  Plan *q = copy_plan(p);
  q->bufs[yb].overlap = false; /* y is placed clear of in below */
  q->bufs[xb].overlap = true;
  q->bufs[xb].overlap_of = a;
  q->bufs[xb].overlap_max = -64;
  const char *why = check_at(g, q, 200, 72);
  CHECK(why && strstr(why, "used until"),
        "an overlap with an input still read at a later step is rejected: %s",
        why ? why : "accepted");
}

/* Depthwise 3x3 [1,5,5,8] (the 3 x 3 path's ring of rows, rows_once):
 * the checker wants the output a whole number of 8-byte pixels from its
 * input, and at most a row above it. */
static void test_depthwise_modulus(void) {
  Graph *g = lowered(conv_model(1, 5, 5, 8, 8, 3, 1, TFW_PAD_SAME, 3, true), TA_ROUND_DOUBLE);
  if (!g) {
    CHECK(0, "the depthwise model compiles: %s", error_message);
    return;
  }
  PlanOptions o = {.io_in_workspace = true};
  Plan *p = plan_graph(g, &o);
  int out = g->tensors[g->ops[0].outputs[0]].storage;
  int64_t d = p->bufs[out].overlap_max;
  /* Output row y is written once input rows up to y + 1 are in the
   * ring; row y + 2 is still to be read: (y + 2) * 40 - (y + 1) * 40 =
   * 40 bytes, a row above.  Its scratch (the ring: 3 x 4 rows of 10
   * int16, 240 bytes, a multiple of 16). */
  CHECK(p->bufs[out].overlap && d == 40 && p->bufs[out].overlap_mod == 8 &&
            p->workspace_bytes == 200 + 240,
        "a 3x3 depthwise output may start a row (40 bytes) above its input: in place, 200 "
        "bytes, and 240 of scratch (got %lld, %zu)", (long long)d, p->workspace_bytes);
  Plan *q = copy_plan(p);
  const char *why = check_at(g, q, 100, 100);
  CHECK(why == NULL, "in place passes: %s", why ? why : "");
  q = copy_plan(p);
  why = check_at(g, q, 100, 140);
  CHECK(why == NULL, "40 bytes above (5 pixels) passes: %s", why ? why : "");
  q = copy_plan(p);
  why = check_at(g, q, 100, 44);
  CHECK(why == NULL, "56 bytes below (7 pixels) passes: %s", why ? why : "");
  q = copy_plan(p);
  why = check_at(g, q, 100, 51);
  CHECK(why && strstr(why, "whole number"),
        "49 bytes below, channels shifted by one, is rejected: %s", why ? why : "accepted");
  q = copy_plan(p);
  why = check_at(g, q, 100, 148);
  CHECK(why && strstr(why, "still reads"), "48 bytes above (6 pixels) is rejected: %s",
        why ? why : "accepted");
}

/* PAD int8 [n,h,w,c] by (top, bottom, left, right): ta_pad_x8 with its
 * output at every offset up to max_ahead above its input gives the
 * disjoint bytes. */
static void test_pad_is_sound(void) {
  uint64_t r = 0x9ad0;
  int exact = 0, cases = 0;
  for (int t = 0; t < 40; t++) {
    int32_t n = 1 + (int32_t)(splitmix(&r) % 2), h = 1 + (int32_t)(splitmix(&r) % 5);
    int32_t w = 1 + (int32_t)(splitmix(&r) % 5), c = 1 + (int32_t)(splitmix(&r) % 6);
    int32_t pads[8] = {0, 0, (int32_t)(splitmix(&r) % 3), (int32_t)(splitmix(&r) % 3),
                       (int32_t)(splitmix(&r) % 3), (int32_t)(splitmix(&r) % 3), 0, 0};
    int32_t di[4] = {n, h, w, c}, dp[2] = {4, 2};
    int32_t dout[4] = {n, h + pads[2] + pads[3], w + pads[4] + pads[5], c};
    TfwModel *m = tfw_new();
    int in = tfw_tensor(m, "in", TFW_INT8, 4, di, 0);
    int pa = tfw_const(m, "pads", TFW_INT32, 2, dp, pads);
    int out = tfw_tensor(m, "out", TFW_INT8, 4, dout, 0);
    tfw_quant1(m, in, 0.5f, 3);
    tfw_quant1(m, out, 0.5f, 3);
    int ins[2] = {in, pa};
    tfw_op(m, TFW_OP_PAD, 2, ins, 1, &out);
    tfw_inputs(m, 1, &in);
    tfw_outputs(m, 1, &out);
    Graph *g = lowered(m, TA_ROUND_DOUBLE);
    const Lowered *l = g ? op_lowered(&g->ops[0]) : NULL;
    if (!l || !l->overlap.declared) {
      CHECK(0, "PAD case %d declares an overlap: %s", t, error_message);
      continue;
    }
    size_t ib = tensor_bytes(&g->tensors[g->ops[0].inputs[0]]);
    size_t ob = tensor_bytes(&g->tensors[g->ops[0].outputs[0]]);
    ta_pad_params p = {.ndims = 4, .value = 3};
    for (int d = 0; d < 4; d++) {
      p.in_shape[d] = di[d];
      p.before[d] = pads[2 * d];
      p.after[d] = pads[2 * d + 1];
    }
    int8_t *input = arena_alloc(ib), *ref = arena_alloc(ob);
    for (size_t i = 0; i < ib; i++)
      input[i] = (int8_t)(splitmix(&r) % 256);
    size_t span = 2 * (ib + ob) + 64, a = ob + 16;
    int8_t *ws = arena_alloc(span);
    memcpy(ws + a, input, ib);
    ta_pad_x8(&p, ws + a, ws + a + ib + 8);
    memcpy(ref, ws + a + ib + 8, ob);
    bool ok = true;
    for (int64_t delta = -(int64_t)ob - 4; delta <= l->overlap.max_ahead && delta < (int64_t)ib;
         delta++) {
      memset(ws, 0x5a, span);
      memcpy(ws + a, input, ib);
      ta_pad_x8(&p, ws + a, ws + (int64_t)a + delta);
      ok &= !memcmp(ref, ws + (int64_t)a + delta, ob);
    }
    cases++;
    exact += ok;
  }
  CHECK(cases == 40 && exact == cases,
        "%d of %d PADs exact with the output at every offset up to their distance", exact,
        cases);
}

/* Placement on random buffer lists with overlapping pairs (no graph):
 * every plan passes check_buffers(), is never below the bound with
 * overlaps, and every pair sharing bytes keeps the output at most
 * overlap_max above its input (with a modulus, a multiple of it). */
static void test_random_placement(void) {
  uint64_t r = 0x51ace;
  long plans = 0, shared = 0, bad = 0, below = 0, rejected = 0, backwards = 0;
  const char *first = NULL;
  for (int t = 0; t < 600; t++) {
    int n = 2 + (int)(splitmix(&r) % 14), steps = 1 + (int)(splitmix(&r) % 8);
    size_t align = (size_t)1 << (splitmix(&r) % 5);
    Buffer *b = arena_array((size_t)n, sizeof(Buffer));
    for (int i = 0; i < n; i++) {
      int f = (int)(splitmix(&r) % (uint64_t)steps);
      int l = f + (int)(splitmix(&r) % (uint64_t)(steps - f));
      b[i] = (Buffer){.id = i, .bytes = 1 + splitmix(&r) % 300, .first = f, .last = l,
                      .align = align, .scratch_op = -1, .state_op = -1, .inplace_of = -1,
                      .overlap_of = -1, .pool = -1, .io = -1};
    }
    bool *taken = arena_array((size_t)n, sizeof(bool));
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) {
        /* (Never both ways: an op cannot write its own input.) */
        if (i == j || b[j].overlap || taken[i] || b[i].last != b[j].first ||
            (b[i].overlap && b[i].overlap_of == j) || splitmix(&r) % 2)
          continue;
        b[j].overlap = true;
        b[j].overlap_of = i;
        b[j].overlap_max = (int64_t)(splitmix(&r) % (b[i].bytes + b[j].bytes + 16)) -
                           (int64_t)b[j].bytes - 8;
        static const int64_t mods[] = {0, 0, 3, 8, 16, 24};
        b[j].overlap_mod = mods[splitmix(&r) % 6];
        if (splitmix(&r) % 3 == 0) { /* a backward kernel too */
          b[j].overlap_rev_ok = true;
          b[j].overlap_min = b[j].overlap_max + 1 + (int64_t)(splitmix(&r) % (b[i].bytes + 8));
        }
        taken[i] = true;
      }
    size_t ob = overlap_lower_bound(b, n);
    for (int a = 0; a <= PLAN_NALGOS; a++) {
      const char *algo = a < PLAN_NALGOS ? plan_algo_names[a] : "best";
      Pool pool = {"workspace", SIZE_MAX, 0};
      AlgoResult res[PLAN_NALGOS];
      int nr;
      place_buffers(b, n, &pool, 1, algo, res, &nr);
      plans++;
      const char *why = check_buffers(b, n, &pool, 1, 0);
      if (why) {
        rejected++;
        if (!first)
          first = arena_printf("%s: %s", algo, why);
      }
      if (pool.used < ob) {
        below++;
      }
      for (int j = 0; j < n; j++) {
        if (!b[j].overlap)
          continue;
        const Buffer *A = &b[b[j].overlap_of], *C = &b[j];
        int64_t d = (int64_t)C->offset - (int64_t)A->offset;
        if (d <= -(int64_t)C->bytes || d >= (int64_t)A->bytes)
          continue; /* apart */
        shared++;
        bool fwd = d <= C->overlap_max && !C->overlap_rev;
        bool back = C->overlap_rev_ok && C->overlap_rev && d >= C->overlap_min;
        backwards += back;
        if ((!fwd && !back) || (C->overlap_mod > 1 && d % C->overlap_mod != 0)) {
          bad++;
        }
      }
    }
  }
  CHECK(rejected == 0, "every plan of %ld passes check_buffers (first failure: %s)", plans,
        first ? first : "none");
  CHECK(below == 0, "no plan is below its bound with overlaps (%ld are)", below);
  CHECK(shared > 500 && bad == 0 && backwards > 20,
        "every pair sharing bytes (%ld, %ld of them backwards) keeps the output within its "
        "distance and modulus, forwards at most overlap_max above its input, backwards at "
        "least overlap_min (%ld do not)", shared, backwards, bad);
}

/* CONV_2D / DEPTHWISE_CONV_2D float32 [n,h,w,c]: ta_conv2d_f32 and
 * ta_depthwise_conv2d_f32 (which write a pixel's outputs while still
 * reading its window) with the output at every offset up to max_ahead
 * above the input give the disjoint values, and the checker accepts
 * exactly those offsets. */
static void test_float_is_sound(void) {
  uint64_t r = 0xf32;
  int exact = 0, cases = 0;
  for (int t = 0; t < 40; t++) {
    bool dw = t % 2;
    int32_t k = splitmix(&r) % 2 ? 1 : 3, s = 1 + (int32_t)(splitmix(&r) % 2);
    int32_t n = 1 + (int32_t)(splitmix(&r) % 2), h = 2 + (int32_t)(splitmix(&r) % 5);
    int32_t w = 2 + (int32_t)(splitmix(&r) % 5), c = 1 + (int32_t)(splitmix(&r) % 5);
    int32_t oc = dw ? c : 1 + (int32_t)(splitmix(&r) % 8);
    int32_t oh = (h + s - 1) / s, ow = (w + s - 1) / s;
    int32_t di[4] = {n, h, w, c}, dout[4] = {n, oh, ow, oc};
    int32_t df[4] = {dw ? 1 : oc, k, k, dw ? c : c};
    float *f = arena_alloc(sizeof(float) * (size_t)(oc * k * k * c));
    for (int32_t i = 0; i < oc * k * k * c; i++)
      f[i] = (float)((int)(splitmix(&r) % 17) - 8) / 8.0f;
    TfwModel *m = tfw_new();
    int in = tfw_tensor(m, "in", TFW_FLOAT32, 4, di, 0);
    int fi = tfw_const(m, "f", TFW_FLOAT32, 4, df, f);
    int out = tfw_tensor(m, "out", TFW_FLOAT32, 4, dout, 0);
    int ins[2] = {in, fi};
    int op = tfw_op(m, dw ? TFW_OP_DEPTHWISE_CONV_2D : TFW_OP_CONV_2D, 2, ins, 1, &out);
    if (dw)
      tfw_depthwise_options(m, op, TFW_PAD_SAME, s, s, 1, TFW_ACT_NONE, 1, 1);
    else
      tfw_conv2d_options(m, op, TFW_PAD_SAME, s, s, TFW_ACT_NONE, 1, 1);
    tfw_inputs(m, 1, &in);
    tfw_outputs(m, 1, &out);
    Graph *g = lowered(m, TA_ROUND_DOUBLE);
    const Lowered *l = g ? op_lowered(&g->ops[0]) : NULL;
    if (!l || !l->overlap.declared || !l->overlap.own_reads) {
      CHECK(0, "float case %d declares an overlap: %s", t, error_message);
      continue;
    }
    const OverlapDecl *d = &l->overlap;
    ta_conv_params p = {.stride_h = d->sh, .stride_w = d->sw, .dilation_h = 1,
                        .dilation_w = 1, .pad_h = d->ph, .pad_w = d->pw, .depth_multiplier = 1,
                        .act_min_f32 = -1e30f, .act_max_f32 = 1e30f};
    ta_dims tdi = {n, h, w, c}, tdf = {df[0], df[1], df[2], df[3]}, tdo = {n, oh, ow, oc};
    size_t ib = tensor_bytes(&g->tensors[g->ops[0].inputs[0]]);
    size_t ob = tensor_bytes(&g->tensors[g->ops[0].outputs[0]]);
    float *input = arena_alloc(ib), *ref = arena_alloc(ob), *got = arena_alloc(ob);
    for (size_t i = 0; i < ib / 4; i++)
      input[i] = (float)((int)(splitmix(&r) % 33) - 16) / 4.0f;
    size_t span = 2 * (ib + ob) + 64, a = ob + 16;
    uint8_t *ws = arena_alloc(span + 16);
    ws += 16 - (uintptr_t)ws % 16; /* floats aligned */
    bool ok = true;
    PlanOptions po = {.io_in_workspace = true};
    Plan *pl = plan_graph(g, &po);
    for (int64_t delta = -(int64_t)ob - 4; delta < (int64_t)ib; delta += 4) {
      memset(ws, 0, span);
      memcpy(ws + a, input, ib);
      float *o = (float *)(void *)(ws + (int64_t)a + delta);
      const float *x = (const float *)(void *)(ws + a);
      if (dw)
        ta_depthwise_conv2d_f32(&p, &tdi, x, &tdf, f, NULL, &tdo, o);
      else
        ta_conv2d_f32(&p, &tdi, x, &tdf, f, NULL, &tdo, o);
      memcpy(got, o, ob);
      if (delta == -(int64_t)ob - 4)
        memcpy(ref, got, ob); /* apart: the reference */
      bool want = delta <= -(int64_t)ob || delta <= d->max_ahead;
      bool accepted = check_at(g, copy_plan(pl), (int64_t)a, (int64_t)a + delta) == NULL;
      if (accepted != want || (want && memcmp(ref, got, ob) != 0))
        ok = false;
    }
    cases++;
    exact += ok;
    CHECK(ok, "float %s %dx%d stride %d [%d,%d,%d,%d] -> %d: exact at every offset up to "
              "%lld bytes above the input, the checker accepting exactly those",
          dw ? "depthwise" : "conv", k, k, s, n, h, w, c, oc, (long long)d->max_ahead);
  }
  CHECK(cases == 40 && exact == cases, "%d of %d float convolutions exact at their distance",
        exact, cases);
}

/* ------------------------------------------ the other kernels' overlaps */

/* Runs op 0 of g with its input at ws + a (already there) and its
 * output at ws + c. */
typedef void (*RunOp)(const Graph *g, uint8_t *ws, size_t a, size_t c);

/* Random input bytes of tensor t: small floats for float32 (no NaN). */
static void fill_input(const Tensor *t, uint8_t *x, uint64_t *r) {
  size_t n = tensor_bytes(t);
  if (t->dtype == DT_FLOAT32) {
    for (size_t i = 0; i < n / 4; i++) {
      float v = (float)((int)(splitmix(r) % 65) - 32) / 8.0f;
      memcpy(x + 4 * i, &v, 4);
    }
    return;
  }
  for (size_t i = 0; i < n; i++)
    x[i] = (uint8_t)splitmix(r);
}

/*
 * Op 0 of g declares an overlap; runs its kernel with the output at
 * every offset from below and clear of the input to the input's end,
 * in steps of `step` bytes, and proves: every offset the declared
 * distance allows (a multiple of the channel modulus, when there is one)
 * gives the bytes of disjoint buffers, and the checker, from the access
 * pattern alone, accepts exactly those offsets (and those clear of the
 * input).  *tight counts cases where the first offset beyond the
 * distance clobbers the output.
 */
static bool sweep(Graph *g, RunOp run, int64_t step, uint64_t *r, int *tight,
                  const char **why) {
  const Op *op = &g->ops[0];
  const Lowered *l = op_lowered(op);
  const OverlapDecl *d = &l->overlap;
  *why = "";
  if (!d->declared) {
    *why = arena_printf("%s declares no overlap", l->kernel);
    return false;
  }
  const Tensor *in = &g->tensors[op->inputs[0]], *out = &g->tensors[op->outputs[0]];
  int64_t ib = (int64_t)tensor_bytes(in), ob = (int64_t)tensor_bytes(out);
  int64_t mod = d->chan_mod > 0 ? d->chan_mod : 1;
  uint8_t *input = arena_alloc((size_t)ib), *ref = arena_alloc((size_t)ob);
  fill_input(in, input, r);
  size_t span = (size_t)(2 * (ib + ob) + 128);
  uint8_t *ws = arena_alloc(span + 16);
  ws += 16 - (uintptr_t)ws % 16;
  int64_t a = (ob + step + 31) / 16 * 16;
  memset(ws, 0x5a, span);
  memcpy(ws + a, input, (size_t)ib);
  run(g, ws, (size_t)a, (size_t)(a + (ib + 31) / 16 * 16)); /* disjoint */
  memcpy(ref, ws + a + (ib + 31) / 16 * 16, (size_t)ob);
  PlanOptions po = {.io_in_workspace = true};
  Plan *p = plan_graph(g, &po);
  int64_t lo = -((ob + step) / step) * step;
  bool ok = true, counted = false;
  for (int64_t delta = lo; delta < ib; delta += step) {
    bool legal = delta <= d->max_ahead && delta % mod == 0;
    bool want = delta <= -ob || legal;
    bool accepted = check_at(g, copy_plan(p), a, a + delta) == NULL;
    if (accepted != want) {
      *why = arena_printf("the checker %s the output %lld bytes above its input "
                          "(distance %lld)", accepted ? "accepts" : "rejects",
                          (long long)delta, (long long)d->max_ahead);
      ok = false;
    }
    if (!want && (counted || delta % mod != 0 || delta <= -ob))
      continue;
    memset(ws, 0x5a, span);
    memcpy(ws + a, input, (size_t)ib);
    run(g, ws, (size_t)a, (size_t)(a + delta));
    bool same = !memcmp(ref, ws + a + delta, (size_t)ob);
    if (want && !same) {
      *why = arena_printf("the output %lld bytes above its input (distance %lld) "
                          "differs from the disjoint run", (long long)delta,
                          (long long)d->max_ahead);
      ok = false;
    }
    if (!want) {
      counted = true; /* the first offset beyond the distance */
      *tight += !same;
    }
  }
  return ok;
}

/* uint8 CONV_2D / DEPTHWISE_CONV_2D (depth multiplier M) [n,h,w,c]. */
static TfwModel *u8_conv_model(int32_t n, int32_t h, int32_t w, int32_t c, int32_t oc,
                               int32_t k, int32_t s, int pad, int32_t M, bool dw,
                               uint64_t *r) {
  TfwModel *m = tfw_new();
  int32_t oh = pad == TFW_PAD_SAME ? (h + s - 1) / s : (h - k) / s + 1;
  int32_t ow = pad == TFW_PAD_SAME ? (w + s - 1) / s : (w - k) / s + 1;
  if (dw)
    oc = c * M;
  int32_t di[4] = {n, h, w, c}, dout[4] = {n, oh, ow, oc};
  int32_t df[4] = {dw ? 1 : oc, k, k, dw ? oc : c};
  size_t nf = (size_t)df[0] * df[1] * df[2] * df[3];
  uint8_t *f = arena_alloc(nf);
  for (size_t i = 0; i < nf; i++)
    f[i] = (uint8_t)splitmix(r);
  int in = tfw_tensor(m, "in", TFW_UINT8, 4, di, 0);
  int fi = tfw_const(m, "f", TFW_UINT8, 4, df, f);
  int out = tfw_tensor(m, "out", TFW_UINT8, 4, dout, 0);
  tfw_quant1(m, in, 0.5f, 128);
  tfw_quant1(m, fi, 0.02f, 120);
  tfw_quant1(m, out, 0.25f, 100);
  int ins[2] = {in, fi};
  int op = tfw_op(m, dw ? TFW_OP_DEPTHWISE_CONV_2D : TFW_OP_CONV_2D, 2, ins, 1, &out);
  if (dw)
    tfw_depthwise_options(m, op, pad, s, s, M, TFW_ACT_NONE, 1, 1);
  else
    tfw_conv2d_options(m, op, pad, s, s, TFW_ACT_NONE, 1, 1);
  tfw_inputs(m, 1, &in);
  tfw_outputs(m, 1, &out);
  return m;
}

static ta_dims dims_of(const Tensor *t) {
  ta_dims d = {1, 1, 1, 1};
  int32_t *v[4] = {&d.n, &d.h, &d.w, &d.c};
  for (int k = 0; k < t->ndims && k < 4; k++)
    *v[4 - t->ndims + k] = t->dims[k];
  return d;
}

static void run_u8_conv(const Graph *g, uint8_t *ws, size_t a, size_t c) {
  const Op *op = &g->ops[0];
  const OverlapDecl *d = &op_lowered(op)->overlap;
  const Tensor *in = &g->tensors[op->inputs[0]], *o = &g->tensors[op->outputs[0]];
  const Tensor *f = &g->tensors[op->inputs[1]];
  ta_dims di = dims_of(in), dout = dims_of(o), df = dims_of(f);
  ta_conv_params p = {.stride_h = d->sh, .stride_w = d->sw, .dilation_h = 1,
                      .dilation_w = 1, .pad_h = d->ph, .pad_w = d->pw,
                      .depth_multiplier = dout.c / di.c, .input_offset = -128,
                      .output_offset = 100, .act_min = 0, .act_max = 255};
  int32_t mult = 1288490189, shift = -5;
  ta_quant q = {&mult, &shift, 0, TA_ROUND_DOUBLE, 0};
  if (!strcmp(op_lowered(op)->kernel, "ta_depthwise_conv2d_u8"))
    ta_depthwise_conv2d_u8(&p, &q, -120, &di, ws + a, &df, f->data, NULL, &dout, ws + c);
  else
    ta_conv2d_u8(&p, &q, -120, &di, ws + a, &df, f->data, NULL, &dout, ws + c);
}

/* Hybrid CONV_2D / DEPTHWISE_CONV_2D: float [n,h,w,c], int8 filter. */
static TfwModel *hybrid_model(int32_t n, int32_t h, int32_t w, int32_t c, int32_t oc,
                              int32_t k, int32_t s, bool dw, uint64_t *r) {
  TfwModel *m = tfw_new();
  int32_t oh = (h + s - 1) / s, ow = (w + s - 1) / s;
  if (dw)
    oc = c;
  int32_t di[4] = {n, h, w, c}, dout[4] = {n, oh, ow, oc}, db[1] = {oc};
  int32_t df[4] = {dw ? 1 : oc, k, k, dw ? oc : c};
  size_t nf = (size_t)df[0] * df[1] * df[2] * df[3];
  int8_t *f = arena_alloc(nf);
  for (size_t i = 0; i < nf; i++)
    f[i] = (int8_t)(splitmix(r) % 255 - 127);
  float *b = arena_alloc(sizeof(float) * (size_t)oc), *sc = arena_alloc(sizeof(float) * (size_t)oc);
  int64_t *zp = arena_alloc(sizeof(int64_t) * (size_t)oc);
  for (int32_t i = 0; i < oc; i++) {
    b[i] = (float)i / 4.0f;
    sc[i] = 0.01f * (float)(1 + i % 3);
    zp[i] = 0;
  }
  int in = tfw_tensor(m, "in", TFW_FLOAT32, 4, di, 0);
  int fi = tfw_const(m, "f", TFW_INT8, 4, df, f);
  int bi = tfw_const(m, "b", TFW_FLOAT32, 1, db, b);
  int out = tfw_tensor(m, "out", TFW_FLOAT32, 4, dout, 0);
  if (dw)
    tfw_quant(m, fi, oc, sc, zp, 3);
  else
    tfw_quant1(m, fi, 0.02f, 0);
  int ins[3] = {in, fi, bi};
  int op = tfw_op(m, dw ? TFW_OP_DEPTHWISE_CONV_2D : TFW_OP_CONV_2D, 3, ins, 1, &out);
  if (dw)
    tfw_depthwise_options(m, op, TFW_PAD_SAME, s, s, 1, TFW_ACT_NONE, 1, 1);
  else
    tfw_conv2d_options(m, op, TFW_PAD_SAME, s, s, TFW_ACT_NONE, 1, 1);
  tfw_inputs(m, 1, &in);
  tfw_outputs(m, 1, &out);
  return m;
}

static void run_hybrid(const Graph *g, uint8_t *ws, size_t a, size_t c) {
  const Op *op = &g->ops[0];
  const Lowered *l = op_lowered(op);
  const Tensor *in = &g->tensors[op->inputs[0]], *o = &g->tensors[op->outputs[0]];
  const Tensor *f = &g->tensors[op->inputs[1]], *b = &g->tensors[op->inputs[2]];
  ta_dims di = dims_of(in), dout = dims_of(o), df = dims_of(f);
  int32_t s = g->ops[0].opt.stride_h;
  ta_conv_params p = {.stride_h = s, .stride_w = s, .dilation_h = 1, .dilation_w = 1,
                      .depth_multiplier = 1, .act_min_f32 = -1e30f, .act_max_f32 = 1e30f};
  int32_t oh, ow;
  compute_padding(PAD_SAME, di.h, df.h, s, 1, &oh, &p.pad_h);
  compute_padding(PAD_SAME, di.w, df.w, s, 1, &ow, &p.pad_w);
  float scale[64];
  for (int i = 0; i < f->q.nscale && i < 64; i++)
    scale[i] = f->q.scale[i];
  int8_t scratch[4096];
  const float *x = (const float *)(void *)(ws + a);
  float *y = (float *)(void *)(ws + c);
  if (!strcmp(l->kernel, "ta_depthwise_conv2d_hybrid_f32"))
    ta_depthwise_conv2d_hybrid_f32(&p, scale, &di, x, &df, (const int8_t *)f->data,
                                   (const float *)b->data, &dout, y, scratch);
  else
    ta_conv2d_hybrid_f32(&p, scale, &di, x, &df, (const int8_t *)f->data,
                         (const float *)b->data, &dout, y, scratch);
}

/* AVERAGE/MAX_POOL_2D of type dt [n,h,w,c], k x k, stride s. */
static TfwModel *pool_model(int dt, bool max, int32_t n, int32_t h, int32_t w, int32_t c,
                            int32_t k, int32_t s, int pad) {
  TfwModel *m = tfw_new();
  int32_t oh = pad == TFW_PAD_SAME ? (h + s - 1) / s : (h - k) / s + 1;
  int32_t ow = pad == TFW_PAD_SAME ? (w + s - 1) / s : (w - k) / s + 1;
  int32_t di[4] = {n, h, w, c}, dout[4] = {n, oh, ow, c};
  int in = tfw_tensor(m, "in", dt, 4, di, 0);
  int out = tfw_tensor(m, "out", dt, 4, dout, 0);
  if (dt != TFW_FLOAT32) {
    tfw_quant1(m, in, 0.5f, dt == TFW_INT16 ? 0 : dt == TFW_UINT8 ? 128 : 3);
    tfw_quant1(m, out, 0.5f, dt == TFW_INT16 ? 0 : dt == TFW_UINT8 ? 128 : 3);
  }
  int op = tfw_op(m, max ? TFW_OP_MAX_POOL_2D : TFW_OP_AVERAGE_POOL_2D, 1, &in, 1, &out);
  tfw_pool2d_options(m, op, pad, s, s, k, k, TFW_ACT_NONE);
  tfw_inputs(m, 1, &in);
  tfw_outputs(m, 1, &out);
  return m;
}

static void run_pool(const Graph *g, uint8_t *ws, size_t a, size_t c) {
  const Op *op = &g->ops[0];
  const Lowered *l = op_lowered(op);
  const OverlapDecl *d = &l->overlap;
  const Tensor *in = &g->tensors[op->inputs[0]], *o = &g->tensors[op->outputs[0]];
  ta_dims di = dims_of(in), dout = dims_of(o);
  ta_pool_params p = {.stride_h = d->sh, .stride_w = d->sw, .filter_h = d->kh,
                      .filter_w = d->kw, .pad_h = d->ph, .pad_w = d->pw,
                      .act_min = in->dtype == DT_INT16 ? -32768 : in->dtype == DT_UINT8 ? 0 : -128,
                      .act_max = in->dtype == DT_INT16 ? 32767 : in->dtype == DT_UINT8 ? 255 : 127,
                      .act_min_f32 = -1e30f, .act_max_f32 = 1e30f};
  void *x = ws + a, *y = ws + c;
  const char *k = l->kernel;
  if (!strcmp(k, "ta_max_pool2d_s8"))
    ta_max_pool2d_s8(&p, &di, x, &dout, y);
  else if (!strcmp(k, "ta_avg_pool2d_s8"))
    ta_avg_pool2d_s8(&p, &di, x, &dout, y);
  else if (!strcmp(k, "ta_max_pool2d_u8"))
    ta_max_pool2d_u8(&p, &di, x, &dout, y);
  else if (!strcmp(k, "ta_avg_pool2d_u8"))
    ta_avg_pool2d_u8(&p, &di, x, &dout, y);
  else if (!strcmp(k, "ta_max_pool2d_s16"))
    ta_max_pool2d_s16(&p, &di, x, &dout, y);
  else if (!strcmp(k, "ta_avg_pool2d_s16"))
    ta_avg_pool2d_s16(&p, &di, x, &dout, y);
  else if (!strcmp(k, "ta_max_pool2d_f32"))
    ta_max_pool2d_f32(&p, &di, x, &dout, y);
  else if (!strcmp(k, "ta_avg_pool2d_f32"))
    ta_avg_pool2d_f32(&p, &di, x, &dout, y);
  else
    die("no runner for %s", k);
}

/* ARG_MAX over the last axis of [n,h,w,c] of type dt, int32 or int64. */
static TfwModel *arg_max_model(int dt, int out_dt, int32_t n, int32_t h, int32_t w,
                               int32_t c) {
  TfwModel *m = tfw_new();
  int32_t di[4] = {n, h, w, c}, dout[3] = {n, h, w}, one[1] = {1}, axis[1] = {3};
  int in = tfw_tensor(m, "in", dt, 4, di, 0);
  int ax = tfw_const(m, "axis", TFW_INT32, 1, one, axis);
  int out = tfw_tensor(m, "out", out_dt, 3, dout, 0);
  if (dt != TFW_FLOAT32)
    tfw_quant1(m, in, 0.5f, 3);
  int ins[2] = {in, ax};
  int op = tfw_op(m, TFW_OP_ARG_MAX, 2, ins, 1, &out);
  tfw_arg_max_options(m, op, out_dt);
  tfw_inputs(m, 1, &in);
  tfw_outputs(m, 1, &out);
  return m;
}

static void run_arg_max(const Graph *g, uint8_t *ws, size_t a, size_t c) {
  const Op *op = &g->ops[0];
  const Tensor *in = &g->tensors[op->inputs[0]], *o = &g->tensors[op->outputs[0]];
  int32_t axis = in->dims[in->ndims - 1];
  ta_arg_params p = {(int32_t)(tensor_elems(in) / axis), axis, 1,
                     (int32_t)dtype_bits(o->dtype)};
  if (in->dtype == DT_UINT8)
    ta_arg_max_u8(&p, ws + a, ws + c);
  else if (in->dtype == DT_INT8)
    ta_arg_max_s8(&p, (const int8_t *)(ws + a), ws + c);
  else
    ta_arg_max_f32(&p, (const float *)(void *)(ws + a), ws + c);
}

static void test_u8_conv_is_sound(void) {
  uint64_t r = 0x08c0;
  int cases = 0, exact = 0, tight = 0;
  for (int t = 0; t < 60; t++) {
    bool dw = t % 2;
    int32_t k = splitmix(&r) % 2 ? 1 : 3, s = 1 + (int32_t)(splitmix(&r) % 2);
    int32_t n = 1 + (int32_t)(splitmix(&r) % 2), h = 3 + (int32_t)(splitmix(&r) % 5);
    int32_t w = 3 + (int32_t)(splitmix(&r) % 5), c = 1 + (int32_t)(splitmix(&r) % 6);
    int32_t oc = 1 + (int32_t)(splitmix(&r) % 9), M = dw && t % 4 == 3 ? 2 : 1;
    int pad = k == 3 && splitmix(&r) % 2 ? TFW_PAD_VALID : TFW_PAD_SAME;
    Graph *g = lowered(u8_conv_model(n, h, w, c, oc, k, s, pad, M, dw, &r), TA_ROUND_DOUBLE);
    if (!g) {
      CHECK(0, "uint8 case %d compiles: %s", t, error_message);
      continue;
    }
    const OverlapDecl *d = &op_lowered(&g->ops[0])->overlap;
    bool shape = dw && M == 1 ? d->chan_mod == c && !d->own_reads : d->own_reads && !d->chan_mod;
    const char *why;
    bool ok = sweep(g, run_u8_conv, 1, &r, &tight, &why) && shape;
    cases++;
    exact += ok;
    CHECK(ok, "uint8 %s%s %dx%d stride %d [%d,%d,%d,%d]: exact at every offset up to %lld "
              "bytes above the input, the checker accepting exactly those %s",
          dw ? "depthwise" : "conv", M > 1 ? " (multiplier 2)" : "", k, k, s, n, h, w, c,
          (long long)d->max_ahead, why);
  }
  CHECK(cases == 60 && exact == cases, "%d of %d uint8 convolutions exact at their distance",
        exact, cases);
  CHECK(tight > 0, "one byte beyond the distance clobbers a uint8 output in %d cases", tight);
}

static void test_hybrid_is_sound(void) {
  uint64_t r = 0x4b1d;
  int cases = 0, exact = 0, tight = 0, whole = 0;
  for (int t = 0; t < 24; t++) {
    bool dw = t % 2;
    int32_t k = splitmix(&r) % 2 ? 1 : 3, s = 1 + (int32_t)(splitmix(&r) % 2);
    int32_t n = 1 + (int32_t)(splitmix(&r) % 2), h = 2 + (int32_t)(splitmix(&r) % 5);
    int32_t w = 2 + (int32_t)(splitmix(&r) % 5), c = 1 + (int32_t)(splitmix(&r) % 5);
    int32_t oc = 1 + (int32_t)(splitmix(&r) % 8);
    Graph *g = lowered(hybrid_model(n, h, w, c, oc, k, s, dw, &r), TA_ROUND_DOUBLE);
    if (!g) {
      CHECK(0, "hybrid case %d compiles: %s", t, error_message);
      continue;
    }
    const OverlapDecl *d = &op_lowered(&g->ops[0])->overlap;
    int64_t ib = (int64_t)tensor_bytes(&g->tensors[g->ops[0].inputs[0]]);
    /* One image: read whole before any output: no limit at all. */
    whole += n == 1 && d->max_ahead >= ib;
    const char *why;
    bool ok = sweep(g, run_hybrid, 4, &r, &tight, &why) && (n > 1 || d->max_ahead >= ib);
    cases++;
    exact += ok;
    CHECK(ok, "hybrid %s %dx%d stride %d [%d,%d,%d,%d] -> %d: exact at every offset up to "
              "%lld bytes above the input, the checker accepting exactly those %s",
          dw ? "depthwise" : "conv", k, k, s, n, h, w, c, dw ? c : oc,
          (long long)d->max_ahead, why);
  }
  CHECK(cases == 24 && exact == cases && whole > 0,
        "%d of %d hybrid convolutions exact at their distance (%d of one image anywhere "
        "over their input)", exact, cases, whole);
  CHECK(tight > 0, "beyond the distance, a second image's input is clobbered in %d cases",
        tight);
}

static void test_pool_is_sound(void) {
  uint64_t r = 0x9001;
  static const int dts[4] = {TFW_INT8, TFW_UINT8, TFW_INT16, TFW_FLOAT32};
  int cases = 0, exact = 0, tight = 0;
  for (int t = 0; t < 64; t++) {
    int dt = dts[t % 4];
    bool max = t / 4 % 2;
    int32_t k = 2 + (int32_t)(splitmix(&r) % 2), s = 1 + (int32_t)(splitmix(&r) % 2);
    int32_t n = 1 + (int32_t)(splitmix(&r) % 2), h = 3 + (int32_t)(splitmix(&r) % 5);
    int32_t w = 3 + (int32_t)(splitmix(&r) % 5), c = 1 + (int32_t)(splitmix(&r) % 20);
    int pad = splitmix(&r) % 2 ? TFW_PAD_VALID : TFW_PAD_SAME;
    Graph *g = lowered(pool_model(dt, max, n, h, w, c, k, s, pad), TA_ROUND_DOUBLE);
    if (!g) {
      CHECK(0, "pool case %d compiles: %s", t, error_message);
      continue;
    }
    const Lowered *l = op_lowered(&g->ops[0]);
    int64_t elem = dt == TFW_FLOAT32 ? 4 : dt == TFW_INT16 ? 2 : 1;
    const char *why;
    bool ok = sweep(g, run_pool, elem, &r, &tight, &why) && l->overlap.chan_mod == c * elem;
    cases++;
    exact += ok;
    CHECK(ok, "%s %dx%d stride %d %s [%d,%d,%d,%d]: exact at every whole pixel up to %lld "
              "bytes above the input, the checker accepting exactly those %s",
          l->kernel, k, k, s, pad == TFW_PAD_SAME ? "SAME" : "VALID", n, h, w, c,
          (long long)l->overlap.max_ahead, why);
  }
  CHECK(cases == 64 && exact == cases, "%d of %d pools exact at their distance", exact,
        cases);
  CHECK(tight > 0, "one pixel beyond the distance clobbers a pool's output in %d cases",
        tight);
}

static void test_arg_max_is_sound(void) {
  uint64_t r = 0xa4a;
  static const int dts[3] = {TFW_UINT8, TFW_INT8, TFW_FLOAT32};
  int cases = 0, exact = 0, tight = 0;
  for (int t = 0; t < 24; t++) {
    int dt = dts[t % 3], odt = t / 3 % 2 ? TFW_INT64 : TFW_INT32;
    int32_t n = 1 + (int32_t)(splitmix(&r) % 2), h = 1 + (int32_t)(splitmix(&r) % 4);
    int32_t w = 1 + (int32_t)(splitmix(&r) % 5), c = 1 + (int32_t)(splitmix(&r) % 24);
    Graph *g = lowered(arg_max_model(dt, odt, n, h, w, c), TA_ROUND_DOUBLE);
    if (!g) {
      CHECK(0, "ARG_MAX case %d compiles: %s", t, error_message);
      continue;
    }
    const OverlapDecl *d = &op_lowered(&g->ops[0])->overlap;
    const char *why;
    bool ok = sweep(g, run_arg_max, odt == TFW_INT64 ? 8 : 4, &r, &tight, &why) && d->view;
    cases++;
    exact += ok;
    CHECK(ok, "ARG_MAX [%d,%d,%d,%d] -> int%d: exact at every offset up to %lld bytes above "
              "the input, the checker accepting exactly those %s",
          n, h, w, c, odt == TFW_INT64 ? 64 : 32, (long long)d->max_ahead, why);
  }
  CHECK(cases == 24 && exact == cases, "%d of %d ARG_MAXes exact at their distance", exact,
        cases);
  CHECK(tight > 0, "beyond the distance an ARG_MAX output is clobbered in %d cases", tight);
}

/* Illegal overlaps planted on the new kinds: the checker rejects them
 * from the access pattern, whatever the planner's distance says. */
static void test_new_kinds_rejected(void) {
  uint64_t r = 0x7e57;
  /* A max pool 2x2 stride 1 over [1,4,4,4] int8: a whole pixel only. */
  Graph *g = lowered(pool_model(TFW_INT8, true, 1, 4, 4, 4, 2, 1, TFW_PAD_VALID), TA_ROUND_DOUBLE);
  if (CHECK(g != NULL, "the pool compiles: %s", error_message)) {
    PlanOptions po = {.io_in_workspace = true};
    Plan *p = plan_graph(g, &po);
    int out = g->tensors[g->ops[0].outputs[0]].storage;
    int64_t d = p->bufs[out].overlap_max;
    /* Pixel e = (y, x) of the 3x3 output reads from input (y, x) on:
     * low(e) - 4e = 4(4y + x) - 4(3y + x) = 4y, least (0) on row 0. */
    CHECK(p->bufs[out].overlap && d == 0 && p->bufs[out].overlap_mod == 4,
          "the pool's output may start at its input's base, in place (got %lld)",
          (long long)d);
    const char *why = check_at(g, copy_plan(p), 64, 64);
    CHECK(why == NULL, "in place passes: %s", why ? why : "");
    why = check_at(g, copy_plan(p), 64, 60);
    CHECK(why == NULL, "a pixel below passes: %s", why ? why : "");
    why = check_at(g, copy_plan(p), 64, 62);
    CHECK(why && strstr(why, "whole number"), "2 bytes below (channels shifted) is rejected: %s",
          why ? why : "accepted");
    why = check_at(g, copy_plan(p), 64, 68);
    CHECK(why && strstr(why, "still reads"), "a pixel above is rejected: %s",
          why ? why : "accepted");
    Plan *q = copy_plan(p);
    q->bufs[out].overlap_max = 1000;
    why = check_at(g, q, 64, 68);
    CHECK(why && strstr(why, "still reads"),
          "a planner distance of 1000 does not make a pixel above legal: %s",
          why ? why : "accepted");
  }
  /* A hybrid 1x1 convolution of two images [2,2,2,3] -> 4 channels:
   * image 0's outputs may not fall on image 1's input. */
  g = lowered(hybrid_model(2, 2, 2, 3, 4, 1, 1, false, &r), TA_ROUND_DOUBLE);
  if (CHECK(g != NULL, "the hybrid convolution compiles: %s", error_message)) {
    PlanOptions po = {.io_in_workspace = true};
    Plan *p = plan_graph(g, &po);
    int out = g->tensors[g->ops[0].outputs[0]].storage;
    /* Image 1 starts at input byte 48; image 0's output ends at 64. */
    CHECK(p->bufs[out].overlap && p->bufs[out].overlap_max == -16,
          "two images: the output at most 16 bytes below its input (got %lld)",
          (long long)p->bufs[out].overlap_max);
    const char *why = check_at(g, copy_plan(p), 160, 144);
    CHECK(why == NULL, "16 bytes below passes: %s", why ? why : "");
    why = check_at(g, copy_plan(p), 160, 148);
    CHECK(why && strstr(why, "still reads"), "12 bytes below is rejected: %s",
          why ? why : "accepted");
  }
  /* ARG_MAX [1,2,3,5] u8 -> int32: the view must hold the tensors'
   * elements. */
  g = lowered(arg_max_model(TFW_UINT8, TFW_INT32, 1, 2, 3, 5), TA_ROUND_DOUBLE);
  if (CHECK(g != NULL, "the ARG_MAX compiles: %s", error_message)) {
    PlanOptions po = {.io_in_workspace = true};
    Plan *p = plan_graph(g, &po);
    int out = g->tensors[g->ops[0].outputs[0]].storage;
    /* 6 rows of 5 bytes -> 6 of 4: pixel e still to read at 5e, written
     * up to 4e: distance 5 - 4 = 1 at e = 1. */
    CHECK(p->bufs[out].overlap && p->bufs[out].overlap_max == 1,
          "ARG_MAX's output may start 1 byte above its input (got %lld)",
          (long long)p->bufs[out].overlap_max);
    const char *why = check_at(g, copy_plan(p), 64, 64);
    CHECK(why == NULL, "at the input's base passes: %s", why ? why : "");
    why = check_at(g, copy_plan(p), 64, 66);
    CHECK(why && strstr(why, "still reads"), "2 bytes above is rejected: %s",
          why ? why : "accepted");
    Lowered *l = op_lowered(&g->ops[0]);
    OverlapDecl saved = l->overlap;
    l->overlap.in_view[2] = 3; /* 15 elements for a tensor of 30 */
    why = check_at(g, copy_plan(p), 64, 64);
    CHECK(why && strstr(why, "views"), "a view of other elements than the tensor's is "
          "rejected: %s", why ? why : "accepted");
    l->overlap = saved;
    l->overlap.view = false; /* the tensors' own shapes: [1,2,3,5] and [1,1,2,3] */
    why = check_at(g, copy_plan(p), 64, 64);
    CHECK(why != NULL, "without its view the pattern does not fit: %s",
          why ? why : "accepted");
    l->overlap = saved;
  }
}

/* SignalRfft, frame by frame: ta_signal_rfft_s16 on 1 to 3 frames with
 * its output at every even offset up to the pixel-wise distance (frame
 * f + 1's input still to be read when frame f's output is written; no
 * limit with one frame) gives the disjoint bytes; and audio_preprocessor
 * _int8's SignalRfft (shared models) declares that pattern, which the
 * checker proves. */
static void test_rfft_is_sound(void) {
  uint64_t r = 0xff7;
  int cases = 0, exact = 0;
  for (int t = 0; t < 6; t++) {
    int32_t n = t % 2 ? 16 : 32, len = n - 2 * (t / 2), frames = 1 + t / 2;
    ta_rfft_params p = {.fft_length = n, .input_length = len, .input_size = len * frames,
                        .output_length = n / 2 + 1};
    int16_t tw[64], stw[64];
    if (!CHECK(rfft_tables(n, &p, tw, stw), "the tables of a %d-point FFT", (int)n))
      continue;
    int64_t ib = 2 * (int64_t)len * frames, fo = 2 * 2 * (int64_t)p.output_length;
    int64_t ob = fo * frames, dmax = ib; /* one frame: anywhere */
    for (int64_t f = 1; f < frames; f++)
      if (f * 2 * len - f * fo < dmax)
        dmax = f * 2 * len - f * fo;
    int16_t *input = arena_alloc((size_t)ib), *ref = arena_alloc((size_t)ob);
    for (int64_t i = 0; i < ib / 2; i++)
      input[i] = (int16_t)(splitmix(&r) % 20001 - 10000);
    size_t span = (size_t)(2 * (ib + ob) + 64);
    uint8_t *ws = arena_alloc(span + 16), scratch[512];
    ws += 16 - (uintptr_t)ws % 16;
    int64_t a = (ob + 31) / 16 * 16;
    memcpy(ws + a, input, (size_t)ib);
    ta_signal_rfft_s16(&p, tw, stw, (const int16_t *)(void *)(ws + a),
                       (int16_t *)(void *)(ws + a + ib + 16), scratch);
    memcpy(ref, ws + a + ib + 16, (size_t)ob);
    bool ok = true;
    for (int64_t d = -ob - 2; d <= dmax && d < ib; d += 2) {
      memset(ws, 0x5a, span);
      memcpy(ws + a, input, (size_t)ib);
      ta_signal_rfft_s16(&p, tw, stw, (const int16_t *)(void *)(ws + a),
                         (int16_t *)(void *)(ws + a + d), scratch);
      ok &= !memcmp(ref, ws + a + d, (size_t)ob);
    }
    cases++;
    exact += ok;
    CHECK(ok, "a %d-point FFT of %d frames of %d: exact with its output at every offset up "
              "to %lld bytes above its input", (int)n, (int)frames, (int)len, (long long)dmax);
  }
  CHECK(cases == 6 && exact == cases, "%d of %d FFTs exact at their distance", exact, cases);

  const char *dir = test_shared_dir();
  if (!dir)
    return;
  const char *path = arena_printf("%s/models/audio_preprocessor_int8.tflite", dir);
  size_t len;
  uint8_t *bytes = read_file(path, &len);
  Graph *g = read_tflite(path, bytes, len);
  verify(g);
  run_passes(g);
  LowerOptions lo = {.rounding = TA_ROUND_DOUBLE};
  lower(g, &lo);
  int rf = -1;
  for (int i = 0; i < g->nops; i++)
    if (op_lowered(&g->ops[i])->kernel &&
        !strcmp(op_lowered(&g->ops[i])->kernel, "ta_signal_rfft_s16"))
      rf = i;
  if (!CHECK(rf >= 0, "audio_preprocessor_int8 has a SignalRfft"))
    return;
  const OverlapDecl *d = &op_lowered(&g->ops[rf])->overlap;
  /* One frame of 480 int16 -> 257 complex int16: nothing is read after
   * the frame is copied, so the output may lie anywhere over it. */
  CHECK(d->declared && d->view && d->in_view[2] == 1 && d->in_view[3] == 480 &&
            d->out_view[3] == 514 && d->max_ahead == 960,
        "its SignalRfft declares one 480-element frame, read whole before 514 are "
        "written (distance %lld)", (long long)d->max_ahead);
  PlanOptions po = {.io_in_workspace = true};
  Plan *p = plan_graph(g, &po);
  int out = g->tensors[g->ops[rf].outputs[0]].storage;
  CHECK(p->bufs[out].overlap && check_plan(g, p) == NULL && p->workspace_bytes < p->lower_bound,
        "the plan overlaps the FFT's output with its input, passes the checker and is below "
        "the whole-tensor bound (%zu of %zu bytes)", p->workspace_bytes, p->lower_bound);
}

int main(void) {
  test_float_is_sound();
  test_random_placement();
  test_pad_is_sound();
  test_distance_is_sound(false);
  test_distance_is_sound(true);
  test_depthwise_modulus();
  test_planner_and_checker();
  test_input_live_later();
  test_u8_conv_is_sound();
  test_hybrid_is_sound();
  test_pool_is_sound();
  test_arg_max_is_sound();
  test_new_kinds_rejected();
  test_rfft_is_sound();
  return test_exit();
}
