/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The memory-aware schedule and ops running in place, on graphs built by
 * hand (tests/unit/test_plan_graph.h):
 *   - two branches the model order interleaves: the memory order runs
 *     one branch to its small end first; the default (--schedule best)
 *     keeps it, --schedule model does not; the peaks are worked out by
 *     hand below;
 *   - against brute force: on random small DAGs (with views, scratch and
 *     in-place flags) every topological order is tried; the memory
 *     order's peak must equal the smallest one, and must be what the
 *     lifetimes of its own order give;
 *   - in place: an ADD over the input that dies there shares its bytes
 *     exactly; not over an input read later, nor over a model output,
 *     nor when another input of the op shares that buffer unflagged;
 *     chains of in-place ops share one slot;
 *   - the checker rejects in-place pairs the op does not allow, pairs not
 *     sitting exactly on each other, and takeovers of a buffer still
 *     read later;
 *   - on random graphs, the default plan is never larger than the model
 *     order's, and the order keeps the ops touching a variable in model
 *     order.
 */
#include "test.h"
#include "test_plan_graph.h"

#include <stdint.h>

/* Marks op as lowered with in-place permission for the inputs in bits. */
static void lowered(Graph *g, int op, uint32_t bits) {
  Lowered *l = arena_alloc(sizeof *l);
  l->kernel = "ta_test";
  l->inplace = bits;
  g->ops[op].lowered = l;
}

static bool same_order(const int *a, const int *b, int n) {
  for (int i = 0; i < n; i++)
    if (a[i] != b[i])
      return false;
  return true;
}

static const char *order_str(const int *o, int n) {
  const char *s = "";
  for (int i = 0; i < n; i++)
    s = arena_printf("%s%s%d", s, i ? " " : "", o[i]);
  return s;
}

/*
 * in -> A1 -> a1 (1000) -> A2 -> a2 (10) \
 *    -> B1 -> b1 (1000) -> B2 -> b2 (10) -> CAT -> out
 * in model order A1 B1 A2 B2 CAT (caller input and output).
 *   model order: steps a1 | a1 b1 | a1 b1 a2 | b1 a2 b2 | a2 b2:
 *                peak 2010 at step 2;
 *   A1 A2 B1 B2: a1 | a1 a2 | a2 b1 | a2 b1 b2 | a2 b2: peak 1020.
 */
static void two_branches(void) {
  Graph *g = tg_new();
  int in = tg_tensor(g, DT_INT8, 64), a1 = tg_tensor(g, DT_INT8, 1000),
      b1 = tg_tensor(g, DT_INT8, 1000), a2 = tg_tensor(g, DT_INT8, 10),
      b2 = tg_tensor(g, DT_INT8, 10), out = tg_tensor(g, DT_INT8, 20);
  tg_input(g, in);
  tg_op1(g, OP_CONV_2D, in, a1);
  tg_op1(g, OP_CONV_2D, in, b1);
  tg_op1(g, OP_CONV_2D, a1, a2);
  tg_op1(g, OP_CONV_2D, b1, b2);
  int cat[2] = {a2, b2};
  tg_op(g, OP_CONCATENATION, 2, cat, 1, &out);
  tg_output(g, out);

  PlanOptions opt = {.align = 1, .schedule = "model"};
  Plan *m = plan_graph(g, &opt);
  CHECK(m->lower_bound == 2010 && m->workspace_bytes == 2010 &&
            !strcmp(m->schedule, "model"),
        "two interleaved branches in model order peak at 2010 bytes (got lower "
        "bound %zu, workspace %zu)", m->lower_bound, m->workspace_bytes);

  size_t peak;
  int *o = memory_order(g, m, true, &peak);
  static const int want[5] = {0, 2, 1, 3, 4};
  CHECK(peak == 1020 && same_order(o, want, 5),
        "the memory order runs one branch to its small end first: order 0 2 1 "
        "3 4, peak 1020 (got %s, peak %zu)", order_str(o, 5), peak);

  opt.schedule = NULL; /* the default: best */
  Plan *p = plan_graph(g, &opt);
  CHECK(!strcmp(p->schedule, "memory") && p->workspace_bytes == 1020 &&
            p->model_order_bytes == 2010 && same_order(p->order, want, 5),
        "by default the plan takes the memory order: 1020 bytes instead of "
        "2010 (got %s, %zu, model order %zu, order %s)", p->schedule,
        p->workspace_bytes, p->model_order_bytes, order_str(p->order, 5));
  opt.schedule = "memory";
  p = plan_graph(g, &opt);
  CHECK(!strcmp(p->schedule, "memory") && p->workspace_bytes == 1020,
        "--schedule memory takes it too (got %s, %zu)", p->schedule,
        p->workspace_bytes);
  arena_reset();

  /* A chain has one order: the memory order is the model's. */
  g = tg_new();
  int x = tg_tensor(g, DT_INT8, 64);
  tg_input(g, x);
  for (int i = 0; i < 6; i++) {
    int y = tg_tensor(g, DT_INT8, 100 * (i + 1));
    tg_op1(g, OP_CONV_2D, x, y);
    x = y;
  }
  tg_output(g, x);
  p = plan_graph(g, NULL);
  static const int chain[6] = {0, 1, 2, 3, 4, 5};
  o = memory_order(g, p, true, &peak);
  CHECK(same_order(o, chain, 6) && peak == p->lower_bound &&
            !strcmp(p->schedule, "model"),
        "a chain keeps the model order (got %s, peak %zu, bound %zu)",
        order_str(o, 6), peak, p->lower_bound);
  arena_reset();
}

/* ------------------------------------------------------ brute force */

static uint64_t rng;

static int below(int n) {
  rng = rng * 6364136223846793005ull + 1442695040888963407ull;
  return (int)((rng >> 33) % (uint64_t)n);
}

/* A random DAG of 2..7 ops: 1-2 inputs each from earlier tensors, one
 * output (sometimes two), a few sizes so that in-place candidates
 * (equal sizes) are common; RESHAPE views, scratch, in-place flags. */
static Graph *random_dag(bool *io_inside) {
  Graph *g = tg_new();
  static const int sizes[] = {16, 32, 32, 48, 100, 100, 256};
  int avail[64], navail = 0;
  int nin = 1 + below(2);
  for (int i = 0; i < nin; i++) {
    int t = tg_tensor(g, DT_INT8, sizes[below(7)]);
    tg_input(g, t);
    avail[navail++] = t;
  }
  int nops = 2 + below(6);
  for (int i = 0; i < nops; i++) {
    int kind = below(6);
    if (kind == 0) { /* a view (or a copy, mark_views decides) */
      int a = avail[below(navail)];
      int out = tg_tensor(g, DT_INT8, g->tensors[a].dims[1]);
      tg_op1(g, OP_RESHAPE, a, out);
      avail[navail++] = out;
      continue;
    }
    int in[2], k = 1 + below(2);
    for (int j = 0; j < k; j++)
      in[j] = avail[below(navail)];
    int nout = below(5) == 0 ? 2 : 1;
    int out[2];
    for (int j = 0; j < nout; j++) {
      /* Often the size of the first input: an in-place candidate. */
      int n = below(2) ? g->tensors[in[0]].dims[1] : sizes[below(7)];
      out[j] = tg_tensor(g, DT_INT8, n);
      avail[navail++] = out[j];
    }
    int op = tg_op(g, kind == 1 ? OP_CONV_2D : OP_ADD, k, in, nout, out);
    if (below(4) == 0)
      g->ops[op].scratch_bytes = (size_t)(1 + below(64));
    uint32_t bits = 0;
    for (int j = 0; j < k; j++)
      if (tensor_bytes(&g->tensors[in[j]]) == tensor_bytes(&g->tensors[out[0]]) &&
          below(3) != 0)
        bits |= 1u << j;
    lowered(g, op, bits);
  }
  /* Outputs: the last tensor, sometimes another. */
  tg_output(g, avail[navail - 1]);
  if (below(3) == 0 && !g->tensors[avail[navail - 2]].is_input &&
      !g->tensors[avail[navail - 2]].is_output)
    tg_output(g, avail[navail - 2]);
  mark_views(g);
  *io_inside = below(2);
  return g;
}

/* The peak of order (lifetimes, in place, lower bound). */
static size_t peak_of(const Graph *g, Plan *p, int *order) {
  p->order = order;
  set_lifetimes(g, p);
  mark_inplace(g, p);
  return live_lower_bound(p->bufs, p->nbufs, NULL);
}

/* Tries every topological order; returns the smallest peak. */
static size_t best_peak(const Graph *g, Plan *p, int *order, int depth,
                        bool *done, long *count) {
  int n = g->nops;
  if (depth == n) {
    (*count)++;
    return peak_of(g, p, order);
  }
  size_t best = SIZE_MAX;
  for (int o = 0; o < n; o++) {
    if (done[o])
      continue;
    const Op *op = &g->ops[o];
    bool ready = true;
    for (int k = 0; k < op->ninputs; k++) {
      int t = op->inputs[k];
      if (t >= 0 && g->tensors[t].producer >= 0 && !done[g->tensors[t].producer])
        ready = false;
    }
    if (!ready)
      continue;
    done[o] = true;
    order[depth] = o;
    size_t b = best_peak(g, p, order, depth + 1, done, count);
    if (b < best)
      best = b;
    done[o] = false;
  }
  return best;
}

static void against_brute_force(void) {
  int graphs = 0, wrong = 0, inconsistent = 0, reordered = 0, inplace = 0;
  long orders = 0;
  const char *first = NULL;
  for (unsigned seed = 1; seed <= 1500; seed++) {
    rng = seed * 0x9e3779b97f4a7c15ull;
    bool io_inside;
    Graph *g = random_dag(&io_inside);
    PlanOptions opt = {.align = 1, .io_in_workspace = io_inside};
    Plan *p = arena_alloc(sizeof *p);
    p->io_in_workspace = io_inside;
    p->norder = g->nops;
    p->nsteps = g->nops;
    assign_storage(g, p, &opt);
    int order[16];
    bool done[16] = {0};
    size_t best = best_peak(g, p, order, 0, done, &orders);
    size_t peak;
    int *mem = memory_order(g, p, true, &peak);
    size_t actual = peak_of(g, p, mem);
    graphs++;
    inplace += p->ninplace > 0;
    int *model = arena_array((size_t)g->nops, sizeof(int));
    for (int i = 0; i < g->nops; i++)
      model[i] = i;
    reordered += best < peak_of(g, p, model);
    if (peak != best) {
      wrong++;
      if (!first)
        first = arena_printf("seed %u: memory order peak %zu, best of all "
                             "orders %zu", seed, peak, best);
    }
    if (actual != peak) {
      inconsistent++;
      if (!first)
        first = arena_printf("seed %u: memory order says %zu, its lifetimes "
                             "%zu", seed, peak, actual);
    }
    arena_reset();
  }
  CHECK(wrong == 0 && inconsistent == 0,
        "on %d random small graphs (%ld orders tried; %d where some order "
        "beats the model's, %d with ops in place) the memory order reaches the "
        "smallest peak of all orders, as its own lifetimes count it (%d wrong, "
        "%d inconsistent; first: %s)",
        graphs, orders, reordered, inplace, wrong, inconsistent,
        first ? first : "none");
  CHECK(reordered > 50 && inplace > 100,
        "the random graphs exercise reordering and in place (%d, %d)", reordered,
        inplace);
}

/* ----------------------------------------------------------- in place */

/* in -> C1 -> x (100); in -> C2 -> y (100); ADD(x, y) -> z (100);
 * C3(z) -> out.  Caller input and output. */
static Graph *add_graph(int *x, int *y, int *z, uint32_t bits) {
  Graph *g = tg_new();
  int in = tg_tensor(g, DT_INT8, 64);
  *x = tg_tensor(g, DT_INT8, 100);
  *y = tg_tensor(g, DT_INT8, 100);
  *z = tg_tensor(g, DT_INT8, 100);
  int out = tg_tensor(g, DT_INT8, 8);
  tg_input(g, in);
  tg_op1(g, OP_CONV_2D, in, *x);
  tg_op1(g, OP_CONV_2D, in, *y);
  int xy[2] = {*x, *y};
  int add = tg_op(g, OP_ADD, 2, xy, 1, z);
  lowered(g, add, bits);
  tg_op1(g, OP_CONV_2D, *z, out);
  tg_output(g, out);
  return g;
}

static void in_place(void) {
  int x, y, z;
  Graph *g = add_graph(&x, &y, &z, 3);
  PlanOptions opt = {.align = 16, .schedule = "model"};
  Plan *p = plan_graph(g, &opt);
  const Buffer *bx = &p->bufs[g->tensors[x].storage],
               *bz = &p->bufs[g->tensors[z].storage];
  CHECK(bz->inplace_of == bx->id && bz->offset == bx->offset &&
            bz->pool == bx->pool && p->ninplace == 1,
        "ADD writes its output over its first input, which dies there "
        "(inplace_of %d, offsets %zu/%zu)", bz->inplace_of, bz->offset,
        bx->offset);
  CHECK(p->lower_bound == 200 && p->workspace_bytes == 212,
        "so the step of the ADD holds 200 bytes, not 300: x and z at 0, y at "
        "112, the next 16-byte boundary (lower bound %zu, workspace %zu)",
        p->lower_bound, p->workspace_bytes);
  opt.no_inplace = true;
  Plan *q = plan_graph(g, &opt);
  CHECK(q->lower_bound == 300 && q->ninplace == 0 &&
            q->bufs[g->tensors[z].storage].inplace_of == -1,
        "--no-inplace keeps every buffer apart (lower bound %zu)",
        q->lower_bound);

  /* Corruptions the checker must reject. */
  Buffer *bufs = p->bufs;
  Buffer *zb = &bufs[g->tensors[z].storage];
  size_t off = zb->offset;
  zb->offset = off + 16;
  const char *why = check_plan(g, p);
  CHECK(why != NULL, "the checker rejects an in-place output not sitting "
        "exactly on its input (%s)", why ? why : "accepted");
  zb->offset = off;
  CHECK(check_plan(g, p) == NULL, "and accepts it back in place");
  op_lowered(&g->ops[2])->inplace = 2; /* only y may be overwritten */
  why = check_plan(g, p);
  CHECK(why && strstr(why, "not allowed in place"),
        "the checker rejects a takeover of an input the op does not allow "
        "(%s)", why ? why : "accepted");
  op_lowered(&g->ops[2])->inplace = 3;
  int yb = g->tensors[y].storage;
  zb->inplace_of = yb; /* y is elsewhere: not on it */
  why = check_plan(g, p);
  CHECK(why != NULL, "the checker rejects a takeover of a buffer it does "
        "not sit on (%s)", why ? why : "accepted");
  zb->inplace_of = g->tensors[x].storage;
  bufs[g->tensors[x].storage].last = 3; /* x read after the ADD */
  why = check_plan(g, p);
  CHECK(why != NULL, "the checker rejects a takeover of a buffer that lives "
        "on after the op (%s)", why ? why : "accepted");
  arena_reset();

  /* Only y may be overwritten: z goes over y. */
  g = add_graph(&x, &y, &z, 2);
  p = plan_graph(g, &(PlanOptions){.align = 16});
  CHECK(p->bufs[g->tensors[z].storage].inplace_of == g->tensors[y].storage,
        "with only its second input allowed, ADD writes over that one");
  arena_reset();

  /* x is read after the ADD: z goes over y instead. */
  g = tg_new();
  int in = tg_tensor(g, DT_INT8, 64);
  x = tg_tensor(g, DT_INT8, 100);
  y = tg_tensor(g, DT_INT8, 100);
  z = tg_tensor(g, DT_INT8, 100);
  int o1 = tg_tensor(g, DT_INT8, 8), o2 = tg_tensor(g, DT_INT8, 8);
  tg_input(g, in);
  tg_op1(g, OP_CONV_2D, in, x);
  tg_op1(g, OP_CONV_2D, in, y);
  int xy[2] = {x, y};
  lowered(g, tg_op(g, OP_ADD, 2, xy, 1, &z), 3);
  int zx[2] = {z, x};
  tg_op(g, OP_CONV_2D, 2, zx, 1, &o1);
  tg_op1(g, OP_CONV_2D, z, o2);
  tg_output(g, o1);
  tg_output(g, o2);
  p = plan_graph(g, &(PlanOptions){.align = 16});
  CHECK(p->bufs[g->tensors[z].storage].inplace_of == g->tensors[y].storage,
        "an input read after the op is never overwritten: the one that dies "
        "is (inplace_of %d, y's buffer %d)",
        p->bufs[g->tensors[z].storage].inplace_of, g->tensors[y].storage);
  arena_reset();

  /* ADD(x, x): both inputs in x's buffer, both allowed -> in place; one
   * allowed only -> not (the other reads x at its own index too, but the
   * lowering did not promise it). */
  for (int bits = 1; bits <= 3; bits += 2) {
    g = tg_new();
    in = tg_tensor(g, DT_INT8, 64);
    x = tg_tensor(g, DT_INT8, 100);
    z = tg_tensor(g, DT_INT8, 100);
    int out = tg_tensor(g, DT_INT8, 8);
    tg_input(g, in);
    tg_op1(g, OP_CONV_2D, in, x);
    int xx[2] = {x, x};
    lowered(g, tg_op(g, OP_ADD, 2, xx, 1, &z), (uint32_t)bits);
    tg_op1(g, OP_CONV_2D, z, out);
    tg_output(g, out);
    p = plan_graph(g, &(PlanOptions){.align = 16});
    bool shared = p->bufs[g->tensors[z].storage].inplace_of == g->tensors[x].storage;
    CHECK(shared == (bits == 3),
          "ADD(x, x) runs in place only when both operands are allowed "
          "(allowed %d: %s)", bits, shared ? "in place" : "apart");
    arena_reset();
  }

  /* A model output, or a caller input, is never overwritten. */
  g = tg_new();
  in = tg_tensor(g, DT_INT8, 100);
  z = tg_tensor(g, DT_INT8, 100);
  tg_input(g, in);
  lowered(g, tg_op1(g, OP_RELU, in, z), 1);
  tg_output(g, z);
  p = plan_graph(g, NULL);
  CHECK(p->ninplace == 0, "nothing runs in place over a caller's input");
  arena_reset();

  /* A chain of in-place ops shares one slot: x -> RELU -> y -> RELU -> z. */
  g = tg_new();
  in = tg_tensor(g, DT_INT8, 64);
  x = tg_tensor(g, DT_INT8, 100);
  y = tg_tensor(g, DT_INT8, 100);
  z = tg_tensor(g, DT_INT8, 100);
  int out = tg_tensor(g, DT_INT8, 8);
  tg_input(g, in);
  tg_op1(g, OP_CONV_2D, in, x);
  lowered(g, tg_op1(g, OP_RELU, x, y), 1);
  lowered(g, tg_op1(g, OP_RELU, y, z), 1);
  tg_op1(g, OP_CONV_2D, z, out);
  tg_output(g, out);
  p = plan_graph(g, NULL);
  const Buffer *b0 = &p->bufs[g->tensors[x].storage],
               *b1 = &p->bufs[g->tensors[y].storage],
               *b2 = &p->bufs[g->tensors[z].storage];
  CHECK(p->ninplace == 2 && b1->inplace_of == b0->id && b2->inplace_of == b1->id &&
            b0->offset == b1->offset && b1->offset == b2->offset &&
            p->workspace_bytes == 100,
        "a chain of in-place activations lives in one 100-byte slot (%d in "
        "place, workspace %zu)", p->ninplace, p->workspace_bytes);
  arena_reset();

  /* place_buffers on a plain list: a -> b -> c in place, d beside. */
  Buffer bl[4] = {
      {.id = 0, .bytes = 100, .align = 1, .first = 0, .last = 1, .scratch_op = -1,
       .inplace_of = -1, .pool = -1, .io = -1},
      {.id = 1, .bytes = 100, .align = 1, .first = 1, .last = 2, .scratch_op = -1,
       .inplace_of = 0, .pool = -1, .io = -1},
      {.id = 2, .bytes = 100, .align = 1, .first = 2, .last = 3, .scratch_op = -1,
       .inplace_of = 1, .pool = -1, .io = -1},
      {.id = 3, .bytes = 50, .align = 1, .first = 0, .last = 3, .scratch_op = -1,
       .inplace_of = -1, .pool = -1, .io = -1}};
  CHECK(live_lower_bound(bl, 4, NULL) == 150,
        "the lower bound counts an in-place chain once (got %zu)",
        live_lower_bound(bl, 4, NULL));
  for (int a = 0; a <= PLAN_NALGOS; a++) {
    const char *algo = a < PLAN_NALGOS ? plan_algo_names[a] : "best";
    Pool pool = {"workspace", SIZE_MAX, 0};
    AlgoResult res[PLAN_NALGOS];
    int nres;
    place_buffers(bl, 4, &pool, 1, algo, res, &nres);
    const char *why2 = check_buffers(bl, 4, &pool, 1, 0);
    CHECK(!why2 && bl[0].offset == bl[1].offset && bl[1].offset == bl[2].offset &&
              pool.used == 150,
          "%s places the chain on one offset beside the other buffer, 150 "
          "bytes (%s, used %zu)", algo, why2 ? why2 : "checked", pool.used);
  }
  arena_reset();
}

/* ------------------------------------------------ never worse, variables */

static void never_worse(void) {
  int graphs = 0, worse = 0, better = 0, var_moved = 0;
  for (unsigned seed = 1; seed <= 600; seed++) {
    rng = seed * 0x2545f4914f6cdd1dull;
    bool io_inside;
    Graph *g = random_dag(&io_inside);
    /* Sometimes a variable read and written by two ops (state). */
    int var = -1;
    if (below(3) == 0 && g->nops >= 2) {
      var = tg_tensor(g, DT_INT16, 8);
      g->tensors[var].is_variable = true;
      for (int k = 0; k < 2; k++) {
        Op *op = &g->ops[k == 0 ? 0 : g->nops - 1];
        int *ins = arena_array((size_t)op->ninputs + 1, sizeof(int));
        memcpy(ins, op->inputs, (size_t)op->ninputs * sizeof(int));
        ins[op->ninputs++] = var;
        op->inputs = ins;
      }
    }
    PlanOptions opt = {.align = 1 << below(5), .io_in_workspace = io_inside,
                       .schedule = "model"};
    Plan *m = plan_graph(g, &opt);
    opt.schedule = "best";
    Plan *b = plan_graph(g, &opt);
    graphs++;
    worse += b->workspace_bytes > m->workspace_bytes;
    better += b->workspace_bytes < m->workspace_bytes;
    if (var >= 0) {
      int s0 = -1, s1 = -1;
      for (int s = 0; s < b->norder; s++) {
        if (b->order[s] == 0)
          s0 = s;
        if (b->order[s] == g->nops - 1)
          s1 = s;
      }
      var_moved += s0 > s1;
    }
    arena_reset();
  }
  CHECK(worse == 0 && better > 20,
        "on %d random graphs the default schedule is never larger than the "
        "model order (%d larger, %d smaller)", graphs, worse, better);
  CHECK(var_moved == 0, "ops sharing a variable keep their model order (%d "
        "swapped)", var_moved);
}

int main(void) {
  two_branches();
  against_brute_force();
  in_place();
  never_worse();
  return test_failures != 0;
}
