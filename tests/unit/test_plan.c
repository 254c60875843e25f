/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The memory planner on small cases worked out by hand: the algorithms'
 * offsets, the lower bound, pools, the views pass and its edge cases,
 * storage of multi-output ops, variables, scratch, inputs/outputs in
 * caller buffers or in the workspace, the error for pools too small, and
 * the JSON report's fields.
 */
#include "json.h"
#include "test.h"
#include "test_plan_graph.h"

static Buffer buf(size_t bytes, int first, int last, size_t align) {
  return (Buffer){.bytes = bytes, .first = first, .last = last, .align = align,
                  .scratch_op = -1, .inplace_of = -1, .pool = -1, .io = -1};
}

static void test_algorithms(void) {
  /* A [0,1] 100 B, B [1,2] 50 B, C [2,3] 100 B: A and C can share. */
  Buffer b[3] = {buf(100, 0, 1, 1), buf(50, 1, 2, 1), buf(100, 2, 3, 1)};
  int peak = -1;
  size_t lb = live_lower_bound(b, 3, &peak);
  CHECK(lb == 150 && peak == 1,
        "the lower bound of A+B / B+C is 150 bytes at step 1 (got %zu at %d)",
        lb, peak);
  Pool pool = {"workspace", SIZE_MAX, 0};
  AlgoResult r[PLAN_NALGOS];
  int nr;
  place_buffers(b, 3, &pool, 1, "greedy-size", r, &nr);
  CHECK(nr == 1 && b[0].offset == 0 && b[2].offset == 0 && b[1].offset == 100 &&
            pool.used == 150,
        "greedy-size puts A and C at 0 and B at 100: 150 bytes (got %zu %zu "
        "%zu, %zu)", b[0].offset, b[1].offset, b[2].offset, pool.used);
  place_buffers(b, 3, &pool, 1, "linear", r, &nr);
  CHECK(b[0].offset == 0 && b[1].offset == 100 && b[2].offset == 150 &&
            pool.used == 250,
        "linear stacks A, B, C: 250 bytes (got %zu)", pool.used);

  /* The same with 16-byte alignment: B moves to 112. */
  for (int i = 0; i < 3; i++)
    b[i].align = 16;
  place_buffers(b, 3, &pool, 1, "best", r, &nr);
  CHECK(nr == PLAN_NALGOS && pool.used == 162 && b[1].offset % 16 == 0,
        "with 16-byte alignment best needs 162 bytes (got %zu, B at %zu)",
        pool.used, b[1].offset);
  CHECK(!check_buffers(b, 3, &pool, 1, 0), "the checker accepts it");

  /* X [0,0] 60, Y [1,1] 60, Z [0,1] 40, W [0,0] 20: X and Y share, Z
   * sits above them, W above Z; lower bound 120 at step 0. */
  Buffer c[4] = {buf(60, 0, 0, 1), buf(60, 1, 1, 1), buf(40, 0, 1, 1),
                 buf(20, 0, 0, 1)};
  place_buffers(c, 4, &pool, 1, "search", r, &nr);
  CHECK(pool.used == 120 && !check_buffers(c, 4, &pool, 1, 0),
        "search reaches the lower bound of 120 bytes (got %zu)", pool.used);

  /* Pools: fast holds 120 bytes, slow has no limit. */
  for (int i = 0; i < 3; i++)
    b[i].align = 1;
  Pool pools[2] = {{"fast", 120, 0}, {"slow", SIZE_MAX, 0}};
  int k = place_buffers(b, 3, pools, 2, "greedy-size", r, &nr);
  CHECK(r[k].missing == 0 && b[0].pool == 0 && b[2].pool == 0 &&
            b[1].pool == 1 && pools[0].used == 100 && pools[1].used == 50,
        "what does not fit in the first pool goes to the next (fast %zu, slow "
        "%zu)", pools[0].used, pools[1].used);
  b[0].pool_mask = 2; /* A may only use slow */
  k = place_buffers(b, 3, pools, 2, "greedy-size", r, &nr);
  CHECK(r[k].missing == 0 && b[0].pool == 1 && b[2].pool == 0 &&
            b[1].pool == 1 && b[1].offset == 100 && pools[0].used == 100 &&
            pools[1].used == 150,
        "a buffer restricted to one pool stays there (fast %zu, slow %zu)",
        pools[0].used, pools[1].used);
  Pool small = {"tiny", 120, 0};
  b[0].pool_mask = 0;
  k = place_buffers(b, 3, &small, 1, "best", r, &nr);
  CHECK(r[k].missing == 50, "pools 30 bytes too small leave 50 missing (B) "
        "(got %zu)", r[k].missing);
}

/* in -> CONV -> a -> RESHAPE -> b -> CONV -> out */
static void test_views(void) {
  Graph *g = tg_new();
  int in = tg_tensor(g, DT_INT8, 64), a = tg_tensor(g, DT_INT8, 64),
      b = tg_tensor(g, DT_INT8, 64), out = tg_tensor(g, DT_INT8, 8);
  tg_input(g, in);
  tg_op1(g, OP_CONV_2D, in, a);
  tg_op1(g, OP_RESHAPE, a, b);
  tg_op1(g, OP_CONV_2D, b, out);
  tg_output(g, out);
  mark_views(g);
  CHECK(g->tensors[b].view_of == a, "a RESHAPE output is a view of its input");
  Plan *p = plan_graph(g, NULL);
  const Buffer *ab = &p->bufs[g->tensors[a].storage];
  CHECK(g->tensors[a].storage == g->tensors[b].storage && ab->ntensors == 2 &&
            ab->first == 0 && ab->last == 2,
        "the view shares its base's buffer, which lives from step 0 to 2 "
        "(got %d-%d)", ab->first, ab->last);
  CHECK(p->bufs[g->tensors[in].storage].external &&
            p->bufs[g->tensors[out].storage].external &&
            p->bufs[g->tensors[in].storage].io == in,
        "model inputs and outputs are caller buffers by default");
  CHECK(p->workspace_bytes == 64, "only the activation is in the workspace "
        "(got %zu)", p->workspace_bytes);
  arena_reset();

  /* input -> RESHAPE -> output: one group cannot be both: a copy. */
  g = tg_new();
  in = tg_tensor(g, DT_INT8, 64);
  out = tg_tensor(g, DT_INT8, 64);
  tg_input(g, in);
  tg_op1(g, OP_RESHAPE, in, out);
  tg_output(g, out);
  mark_views(g);
  CHECK(g->tensors[out].view_of == -1,
        "a RESHAPE from a model input to a model output stays a copy");
  arena_reset();

  /* input -> RESHAPE -> x -> CONV: x is a view of the caller's input. */
  g = tg_new();
  in = tg_tensor(g, DT_INT8, 64);
  int x = tg_tensor(g, DT_INT8, 64);
  out = tg_tensor(g, DT_INT8, 4);
  tg_input(g, in);
  tg_op1(g, OP_RESHAPE, in, x);
  tg_op1(g, OP_CONV_2D, x, out);
  tg_output(g, out);
  mark_views(g);
  p = plan_graph(g, NULL);
  CHECK(g->tensors[x].view_of == in && p->bufs[g->tensors[x].storage].external,
        "a view of a model input lives in the caller's input buffer");
  arena_reset();

  /* CONV -> y -> RESHAPE -> out1 (output), y -> RESHAPE -> out2 (output) */
  g = tg_new();
  in = tg_tensor(g, DT_INT8, 64);
  int y = tg_tensor(g, DT_INT8, 16), o1 = tg_tensor(g, DT_INT8, 16),
      o2 = tg_tensor(g, DT_INT8, 16);
  tg_input(g, in);
  tg_op1(g, OP_CONV_2D, in, y);
  tg_op1(g, OP_RESHAPE, y, o1);
  tg_op1(g, OP_SQUEEZE, y, o2);
  tg_output(g, o1);
  tg_output(g, o2);
  mark_views(g);
  CHECK(g->tensors[o1].view_of == y && g->tensors[o2].view_of == -1,
        "of two model outputs viewing one tensor only the first is a view");
  p = plan_graph(g, NULL);
  CHECK(p->bufs[g->tensors[y].storage].external &&
            p->bufs[g->tensors[y].storage].io == o1,
        "the base of an output view is written straight into the caller's "
        "output buffer");
  arena_reset();

  /* Constants: const -> RESHAPE -> z -> CONV -> out; const -> RESHAPE -> out2 */
  g = tg_new();
  in = tg_tensor(g, DT_INT8, 16);
  int c = tg_const(g, DT_INT8, 16), z = tg_tensor(g, DT_INT8, 16);
  int co = tg_tensor(g, DT_INT8, 16);
  out = tg_tensor(g, DT_INT8, 16);
  tg_input(g, in);
  tg_op1(g, OP_EXPAND_DIMS, c, z);
  int ins[2] = {in, z};
  tg_op(g, OP_ADD, 2, ins, 1, &out);
  tg_op1(g, OP_RESHAPE, c, co);
  tg_output(g, out);
  tg_output(g, co);
  mark_views(g);
  p = plan_graph(g, NULL);
  CHECK(g->tensors[z].view_of == c && g->tensors[z].storage == -1,
        "a view of a constant stays in flash (no storage)");
  CHECK(g->tensors[co].view_of == -1 && g->tensors[co].storage >= 0,
        "a model output reshaped from a constant is a copy with storage");
  arena_reset();

  /* Chains, variables, requantization. */
  g = tg_new();
  in = tg_tensor(g, DT_INT8, 32);
  a = tg_tensor(g, DT_INT8, 32);
  b = tg_tensor(g, DT_INT8, 32);
  int d = tg_tensor(g, DT_INT8, 32), var = tg_tensor(g, DT_INT8, 32),
      vv = tg_tensor(g, DT_INT8, 32), q1 = tg_tensor(g, DT_INT8, 32),
      q2 = tg_tensor(g, DT_INT8, 32), cast = tg_tensor(g, DT_INT16, 16);
  g->tensors[var].is_variable = true;
  static float s1 = 0.5f, s2 = 0.25f;
  static int64_t z0 = 3;
  Quant qa = {1, &s1, &z0, 0}, qb = {1, &s2, &z0, 0};
  g->tensors[d].q = qa;
  g->tensors[q1].q = qa;
  g->tensors[q2].q = qb;
  tg_input(g, in);
  tg_op1(g, OP_CONV_2D, in, a);
  tg_op1(g, OP_RESHAPE, a, b);
  tg_op1(g, OP_SQUEEZE, b, d);
  tg_op1(g, OP_RESHAPE, var, vv);
  tg_op1(g, OP_QUANTIZE, d, q1);
  tg_op1(g, OP_QUANTIZE, d, q2);
  tg_op1(g, OP_RESHAPE, d, cast); /* bytes equal, dtype differs */
  out = tg_tensor(g, DT_INT8, 32);
  int ins4[4] = {q1, q2, vv, cast};
  tg_op(g, OP_CONCATENATION, 4, ins4, 1, &out);
  tg_output(g, out);
  mark_views(g);
  CHECK(g->tensors[b].view_of == a && g->tensors[d].view_of == a,
        "a view of a view points at the base");
  CHECK(g->tensors[vv].view_of == -1, "a variable is never viewed");
  CHECK(g->tensors[q1].view_of == a && g->tensors[q2].view_of == -1,
        "QUANTIZE is a view only between identical parameters");
  CHECK(g->tensors[cast].view_of == -1, "a change of type is never a view");
  p = plan_graph(g, NULL);
  const Buffer *vb = &p->bufs[g->tensors[var].storage];
  CHECK(vb->persistent && vb->pool == -1 && p->persistent_bytes == 32 &&
            vb->first == 0 && vb->last == p->nsteps - 1,
        "a variable lives in the persistent area for every step (%zu bytes)",
        p->persistent_bytes);
  arena_reset();
}

static void test_storage(void) {
  /* in -> SPLIT -> s0 s1 s2 ; s0 -> CONV(scratch 100) -> out; s2 unread */
  Graph *g = tg_new();
  int in = tg_tensor(g, DT_INT16, 30);
  int s[3] = {tg_tensor(g, DT_INT16, 10), tg_tensor(g, DT_INT16, 10),
              tg_tensor(g, DT_INT16, 10)};
  int out = tg_tensor(g, DT_FLOAT32, 3);
  tg_input(g, in);
  tg_op(g, OP_SPLIT, 1, &in, 3, s);
  int ins[2] = {s[0], s[1]};
  int conv = tg_op(g, OP_ADD, 2, ins, 1, &out);
  g->ops[conv].scratch_bytes = 100;
  tg_output(g, out);
  PlanOptions opt = {.io_in_workspace = true, .align = 4};
  Plan *p = plan_graph(g, &opt);
  CHECK(g->tensors[s[0]].storage != g->tensors[s[1]].storage &&
            g->tensors[s[1]].storage != g->tensors[s[2]].storage,
        "each output of a multi-output op has its own storage id");
  const Buffer *b2 = &p->bufs[g->tensors[s[2]].storage];
  CHECK(b2->bytes == 20 && b2->first == 0 && b2->last == 0,
        "an output nobody reads lives only at its own step, with its exact "
        "size (20 bytes, steps %d-%d)", b2->first, b2->last);
  int sb = g->ops[conv].scratch_buffer;
  CHECK(sb >= 0 && p->bufs[sb].bytes == 100 && p->bufs[sb].first == 1 &&
            p->bufs[sb].last == 1 && p->bufs[sb].scratch_op == conv,
        "kernel scratch is a buffer live only during its op");
  const Buffer *bi = &p->bufs[g->tensors[in].storage],
               *bo = &p->bufs[g->tensors[out].storage];
  CHECK(!bi->external && !bo->external && bi->first == 0 && bi->last == 0 &&
            bo->first == 1 && bo->last == 1,
        "with --io-in-workspace inputs and outputs are planned buffers");
  /* live: step 0 in 60 + s 3x20; step 1: s0 s1 40 + out 12 + scratch 100 */
  CHECK(p->lower_bound == 152 && p->peak_step == 1,
        "the lower bound is 152 bytes at step 1 (got %zu at %d)",
        p->lower_bound, p->peak_step);
  CHECK(p->bufs[0].id == 0 && g->tensors[in].storage == 0 &&
            g->tensors[s[0]].storage == 1 && sb == p->nbufs - 1,
        "storage ids follow tensor order, scratch last");

  /* JSON report */
  FILE *f = tmpfile();
  print_plan_json(f, g, p);
  long n = ftell(f);
  rewind(f);
  char *text = arena_alloc((size_t)n + 1);
  size_t got = fread(text, 1, (size_t)n, f);
  fclose(f);
  char err[256];
  Json *j = json_parse(text, got, err, sizeof err);
  CHECK(j != NULL, "the JSON report parses (%s)", j ? "ok" : err);
  CHECK(json_int(json_get(j, "lower_bound_bytes"), -1) == 152 &&
            json_int(json_get(j, "workspace_bytes"), -1) ==
                (long long)p->workspace_bytes &&
            json_int(json_get(j, "persistent_bytes"), -1) == 0 &&
            json_len(json_get(j, "buffers")) == p->nbufs &&
            json_len(json_get(j, "pools")) == 1 &&
            !strcmp(json_str(json_path(j, "pools.0.name"), ""), "workspace") &&
            json_int(json_get(json_get(j, "algorithms"), "search"), -1) > 0 &&
            json_int(json_path(j, "buffers.1.first"), -1) == 0 &&
            json_int(json_path(j, "buffers.1.tensors.0"), -1) == s[0],
        "the JSON report has the bounds, pools, algorithms and buffers");
  json_free(j);
  arena_reset();
}

static void test_errors(void) {
  Graph *g = tg_new();
  int in = tg_tensor(g, DT_INT8, 100), a = tg_tensor(g, DT_INT8, 100),
      out = tg_tensor(g, DT_INT8, 100);
  tg_input(g, in);
  tg_op1(g, OP_CONV_2D, in, a);
  tg_op1(g, OP_CONV_2D, a, out);
  tg_output(g, out);
  Pool pools[2] = {{"sram", 150, 0}, {"dtcm", 40, 0}};
  PlanOptions opt = {.pools = pools, .npools = 2, .io_in_workspace = true};
  jmp_buf jb;
  error_jmp = &jb;
  if (!setjmp(jb)) {
    plan_graph(g, &opt);
    CHECK(0, "pools of 190 bytes for a live set of 200 are refused");
  } else {
    CHECK(strstr(error_message, "bytes missing") &&
              strstr(error_message, "200 bytes, is at step 0") &&
              strstr(error_message, "op 0 (CONV_2D)") &&
              strstr(error_message, "sram 150"),
          "pools too small: the error names the bytes missing, the pools and "
          "the step with the largest live set (%s)", error_message);
  }
  error_jmp = NULL;
  arena_reset();
}

int main(void) {
  test_algorithms();
  test_views();
  test_storage();
  test_errors();
  return test_exit();
}
