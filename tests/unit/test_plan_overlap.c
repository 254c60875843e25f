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
 *    fraction of a pixel away.
 */
#include "test.h"
#include "lower_helpers.h"
#include "ta_kernels.h"

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
  int16_t scratch[4096];
  memcpy(ws + a, input, ib);
  if (!strcmp(op_lowered(op)->kernel, "ta_depthwise_conv2d_fold_s8"))
    ta_depthwise_conv2d_fold_s8(&p, &q, &di, (const int8_t *)ws + a, &df,
                                (const int8_t *)f->data, (const int32_t *)bias->data, &dout,
                                (int8_t *)ws + c, scratch);
  else
    ta_conv2d_fold_s8(&p, &q, &di, (const int8_t *)ws + a, &df, (const int8_t *)f->data,
                      (const int32_t *)bias->data, &dout, (int8_t *)ws + c, scratch);
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
 * above both, the pool's size fitted. */
static const char *check_at(const Graph *g, Plan *q, int64_t a, int64_t c) {
  int in = g->tensors[g->ops[0].inputs[0]].storage;
  int out = g->tensors[g->ops[0].outputs[0]].storage;
  size_t top = 0;
  for (int i = 0; i < q->nbufs; i++)
    q->bufs[i].align = 1;
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

static void test_distance_is_sound(bool dw) {
  uint64_t r = dw ? 0xd3 : 0x0e1a9;
  int cases = 0, exact = 0, tight = 0;
  const char *want = dw ? "ta_depthwise_conv2d_fold_s8" : "ta_conv2d_fold_s8";
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
    if (!l->overlap.declared || strcmp(l->kernel, want) ||
        (dw && l->overlap.chan_mod != c)) {
      CHECK(0, "case %d: %s declares an overlap (%s)", t, want, l->kernel);
      continue;
    }
    int64_t mod = dw ? c : 1; /* depthwise: whole pixels apart only */
    size_t ib = tensor_bytes(&g->tensors[g->ops[0].inputs[0]]);
    size_t ob = tensor_bytes(&g->tensors[g->ops[0].outputs[0]]);
    int8_t *input = arena_alloc(ib), *ref = arena_alloc(ob), *got = arena_alloc(ob);
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
     * the lowering's distance allows (or those clear of the input). */
    PlanOptions po = {.io_in_workspace = true};
    Plan *p = plan_graph(g, &po);
    int agree = 1;
    for (int64_t delta = lo; delta < (int64_t)ib; delta++) {
      bool want = delta <= -(int64_t)ob || (delta <= dmax && delta % mod == 0);
      bool got = check_at(g, copy_plan(p), (int64_t)a, (int64_t)a + delta) == NULL;
      if (want != got && agree) {
        CHECK(0, "case %d: the checker %s the output %lld bytes above its input (distance "
                 "%lld)", t, got ? "accepts" : "rejects", (long long)delta, (long long)dmax);
        agree = 0;
      }
    }
    ok &= agree;
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
   * its end on the output's end: 288 bytes + 16 of scratch. */
  CHECK(p->noverlap == 1 && B->overlap && B->overlap_of == in && B->overlap_max == -140,
        "the output overlaps its input, at most -140 bytes above it (got %d, %lld)",
        p->noverlap, (long long)B->overlap_max);
  CHECK(p->workspace_bytes == 304 && p->lower_bound == 448 && p->overlap_bound == 304,
        "planned in 288 + 16 bytes, below the whole-tensor bound of 144 + 288 + 16 "
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

/* Depthwise 3x3 [1,5,5,8]: the checker wants the output a whole number
 * of 8-byte pixels from its input. */
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
  /* Pixel e's window starts at row e / 5 - 1, column e % 5 - 1: the
   * bound is the last block's, e = 24: (3 * 5 + 3) * 8 - 24 * 8 = -48. */
  CHECK(p->bufs[out].overlap && d == -48 && p->bufs[out].overlap_mod == 8 &&
            p->workspace_bytes == 200 + 48,
        "a 3x3 depthwise output may start 48 bytes (6 pixels) below its input: "
        "200 + 48 bytes (got %lld, %zu)", (long long)d, p->workspace_bytes);
  Plan *q = copy_plan(p);
  const char *why = check_at(g, q, 100, 52);
  CHECK(why == NULL, "48 bytes below passes: %s", why ? why : "");
  q = copy_plan(p);
  why = check_at(g, q, 100, 44);
  CHECK(why == NULL, "56 bytes below (7 pixels) passes: %s", why ? why : "");
  q = copy_plan(p);
  why = check_at(g, q, 100, 51);
  CHECK(why && strstr(why, "whole number"),
        "49 bytes below, channels shifted by one, is rejected: %s", why ? why : "accepted");
  q = copy_plan(p);
  why = check_at(g, q, 100, 60);
  CHECK(why && strstr(why, "still reads"), "40 bytes below (5 pixels) is rejected: %s",
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
  long plans = 0, shared = 0, bad = 0, below = 0, rejected = 0;
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
        if (d > C->overlap_max || (C->overlap_mod > 1 && d % C->overlap_mod != 0)) {
          bad++;
        }
      }
    }
  }
  CHECK(rejected == 0, "every plan of %ld passes check_buffers (first failure: %s)", plans,
        first ? first : "none");
  CHECK(below == 0, "no plan is below its bound with overlaps (%ld are)", below);
  CHECK(shared > 500 && bad == 0,
        "every pair sharing bytes (%ld) keeps the output within its distance and modulus "
        "(%ld do not)", shared, bad);
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

int main(void) {
  test_float_is_sound();
  test_random_placement();
  test_pad_is_sound();
  test_distance_is_sound(false);
  test_distance_is_sound(true);
  test_depthwise_modulus();
  test_planner_and_checker();
  test_input_live_later();
  return test_exit();
}
