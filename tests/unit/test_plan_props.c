/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Property test of the memory planner: random graphs (chains, diamonds,
 * random DAGs, multi-output ops, views, variables, scratch, mixed sizes,
 * several pools with limits, pool restrictions) x every algorithm.  Every
 * plan that fits must pass the independent checker, never go below the
 * lower bound, and be reproducible; "best" is never worse than any single
 * algorithm, search never worse than its greedy seeds.  Then the checker
 * itself must reject deliberately corrupted plans: a shifted offset, a
 * stretched lifetime, an overflowing pool, a misaligned offset, a
 * shortened lifetime or a shrunk buffer against the graph.  Some ops
 * read their input pixel by pixel and declare an overlap (some with a
 * backward kernel): every pair sharing bytes in a plan is simulated
 * pixel by pixel and must clobber nothing, and such an output moved up
 * where the simulation says it clobbers must be rejected.
 *
 * The expected values come from the definitions (overlap, bounds,
 * alignment), never from the planner's own output.
 */
#include "test.h"
#include "test_plan_graph.h"

#include <stdint.h>

#define NGRAPHS 10000

static uint64_t rng;

static uint32_t rnd(void) {
  rng = rng * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(rng >> 33);
}

static int below(int n) { return (int)(rnd() % (uint32_t)n); }

/* A size with a wide spread: 0, tiny, odd, large. */
static int random_elems(void) {
  switch (below(6)) {
  case 0:
    return below(4); /* 0..3, zero-size included */
  case 1:
    return 1 + below(17);
  case 2:
    return 1 + below(300);
  case 3:
    return 256 * (1 + below(8));
  default:
    return 1 + below(5000);
  }
}

static DType random_dtype(void) {
  static const DType dts[] = {DT_INT8, DT_INT8, DT_INT16, DT_FLOAT32, DT_BOOL,
                              DT_INT32};
  return dts[below(6)];
}

/* Picks an earlier tensor to read: the newest (chains), a recent one
 * (diamonds), or any (random DAGs). */
static int pick(const int *avail, int navail, int shape) {
  if (shape == 0 || navail == 1)
    return avail[navail - 1];
  if (shape == 1)
    return avail[navail - 1 - below(navail < 3 ? navail : 3)];
  return avail[below(navail)];
}

/* Bytes per element of t (0 for sub-byte types). */
static int64_t elem_bytes(const Tensor *t) {
  int bits = dtype_bits(t->dtype);
  return bits % 8 ? 0 : bits / 8;
}

/*
 * An op reading input a pixel by pixel (each element one pixel) and
 * writing k elements of a random type per pixel after reading it, as
 * ARG_MAX or an FFT frame by frame do; its lowering declares the
 * overlap (a view, 1x1 windows, blocks of 1), sometimes with a backward
 * kernel.  The distances come from the definition: when pixel e - 1 is
 * written, pixels e.. are still to be read from byte e * ipix on, and
 * the output has been written up to e * opix; backwards, pixels < i
 * still read below i * ipix when pixel i's output starts at i * opix.
 */
static bool pixelwise_op(Graph *g, int a, int *op) {
  const Tensor *x = &g->tensors[a];
  int64_t P = (int64_t)tensor_elems(x), ipix = elem_bytes(x);
  if (P < 1 || P > 3000 || ipix == 0 || x->view_of >= 0)
    return false;
  static const DType dts[] = {DT_INT8, DT_INT16, DT_FLOAT32, DT_INT64};
  DType dt = dts[below(4)];
  int k = 1 + below(3);
  int o = tg_tensor(g, dt, (int)(P * k));
  int64_t opix = k * elem_bytes(&g->tensors[o]);
  int in[2] = {a, tg_const(g, DT_INT32, 1)};
  *op = tg_op(g, OP_ARG_MAX, 2, in, 1, &o);
  Lowered *l = arena_alloc(sizeof *l);
  l->kernel = "ta_test_pixelwise";
  int64_t ahead = P * ipix, up = 0; /* one pixel: nothing read after it */
  for (int64_t e = 1; e < P; e++) {
    if (e * ipix - e * opix < ahead)
      ahead = e * ipix - e * opix;
    if (e * ipix - e * opix > up)
      up = e * ipix - e * opix;
  }
  l->overlap = (OverlapDecl){.declared = true, .input = 0, .max_ahead = ahead, .kh = 1,
                             .kw = 1, .sh = 1, .sw = 1, .dh = 1, .dw = 1, .block = {1, 0},
                             .nblocks = 1, .view = true, .in_view = {1, 1, P, 1},
                             .out_view = {1, 1, P, k}};
  if (below(2)) {
    l->overlap.reverse_kernel = "ta_test_pixelwise_rev";
    l->overlap.min_above = up;
  }
  g->ops[*op].lowered = l;
  return true;
}

/* Does running op's pixel-wise kernel with input buffer A and output
 * buffer C where they are clobber an input byte before it is read?
 * Simulated byte range by byte range, pixel by pixel, in the order the
 * plan says the kernel runs (backwards with overlap_rev). */
static bool pixelwise_clobbers(const Graph *g, const Op *op, const Buffer *A, const Buffer *C) {
  const Tensor *x = &g->tensors[op->inputs[0]], *y = &g->tensors[op->outputs[0]];
  int64_t P = (int64_t)tensor_elems(x), ipix = elem_bytes(x);
  int64_t opix = (int64_t)tensor_bytes(y) / P, a = (int64_t)A->offset, c = (int64_t)C->offset;
  if (A->pool != C->pool)
    return false;
  for (int64_t s = 0; s < P; s++) {
    int64_t j = C->overlap_rev ? P - 1 - s : s;
    /* Pixel j read, then written; still to be read: the other pixels
     * not yet visited. */
    int64_t w0 = c + j * opix, w1 = w0 + opix;
    int64_t r0 = C->overlap_rev ? a : a + (j + 1) * ipix;
    int64_t r1 = C->overlap_rev ? a + j * ipix : a + P * ipix;
    if (r0 < r1 && w0 < r1 && r0 < w1)
      return true;
  }
  return false;
}

static Graph *random_graph(void) {
  Graph *g = tg_new();
  int shape = below(3);
  int nops = 1 + below(below(4) == 0 ? 40 : 16);
  int avail[TG_MAX_TENSORS], navail = 0;
  int ninputs = 1 + below(2);
  for (int i = 0; i < ninputs; i++) {
    int t = tg_tensor(g, random_dtype(), random_elems());
    tg_input(g, t);
    avail[navail++] = t;
  }
  int var = -1;
  if (below(4) == 0) {
    var = tg_tensor(g, DT_INT16, random_elems());
    g->tensors[var].is_variable = true;
  }
  for (int i = 0; i < nops; i++) {
    int kind = below(10);
    int in[3], out[4];
    int op;
    if (kind <= 1) { /* a view candidate: the same bytes, another shape */
      int a = pick(avail, navail, shape);
      const Tensor *x = &g->tensors[a];
      int o = tg_tensor(g, x->dtype, x->dims[1]);
      g->tensors[o].dims[0] = x->dims[1];
      g->tensors[o].dims[1] = 1;
      static const OpKind views[] = {OP_RESHAPE, OP_SQUEEZE, OP_EXPAND_DIMS};
      op = tg_op1(g, views[below(3)], a, o);
      if (below(3) == 0) { /* a view of a constant */
        int c = tg_const(g, DT_INT8, 1 + below(64));
        g->ops[op].inputs[0] = c;
        g->tensors[o].dtype = DT_INT8;
        g->tensors[o].dims[0] = 1;
        g->tensors[o].dims[1] = (int)tensor_bytes(&g->tensors[c]);
      }
      avail[navail++] = o;
    } else if (kind == 2 && navail >= 2) { /* binary: diamonds */
      in[0] = pick(avail, navail, shape);
      in[1] = pick(avail, navail, shape == 0 ? 2 : shape);
      out[0] = tg_tensor(g, random_dtype(), random_elems());
      op = tg_op(g, OP_ADD, 2, in, 1, out);
      avail[navail++] = out[0];
    } else if (kind == 3) { /* multi-output */
      int n = 2 + below(3);
      in[0] = pick(avail, navail, shape);
      for (int k = 0; k < n; k++)
        out[k] = tg_tensor(g, random_dtype(), random_elems());
      op = tg_op(g, below(2) ? OP_SPLIT : OP_UNPACK, 1, in, n, out);
      for (int k = 0; k < n; k++)
        avail[navail++] = out[k];
    } else if (kind == 5 && pixelwise_op(g, pick(avail, navail, shape), &op)) {
      avail[navail++] = g->ops[op].outputs[0]; /* declares an overlap */
    } else if (kind == 4 && var >= 0) { /* reads and updates state */
      in[0] = pick(avail, navail, shape);
      in[1] = var;
      in[2] = tg_const(g, DT_INT8, 16);
      out[0] = tg_tensor(g, random_dtype(), random_elems());
      op = tg_op(g, OP_SVDF, 3, in, 1, out);
      avail[navail++] = out[0];
    } else { /* unary with weights, sometimes an optional input left out */
      in[0] = pick(avail, navail, shape);
      in[1] = tg_const(g, DT_INT8, 32);
      in[2] = -1;
      out[0] = tg_tensor(g, random_dtype(), random_elems());
      op = tg_op(g, OP_CONV_2D, 3, in, 1, out);
      avail[navail++] = out[0];
    }
    if (below(5) == 0)
      g->ops[op].scratch_bytes = (size_t)random_elems();
  }
  /* Outputs: the newest tensor, sometimes another one (maybe a view). */
  int last = avail[navail - 1];
  if (!g->tensors[last].is_input)
    tg_output(g, last);
  if (below(3) == 0) {
    int t = avail[below(navail)];
    if (!g->tensors[t].is_input && !g->tensors[t].is_output)
      tg_output(g, t);
  }
  return g;
}

/* ---------------------------------------------------------- pools */

static const char *const pool_names[] = {"fast", "slow", "ext"};

/* Pools for one run: one unbounded (the default), a bounded fast pool
 * before an unbounded one, or only bounded pools (may not fit). */
static int random_pools(Pool *pools, size_t lb, bool *bounded) {
  int mode = below(4);
  *bounded = false;
  if (mode <= 1) {
    pools[0] = (Pool){"workspace", SIZE_MAX, 0};
    return 1;
  }
  int n = 2 + below(2);
  for (int i = 0; i < n; i++) {
    size_t lim = lb == 0 ? (size_t)below(64) : (size_t)below((int)lb + 1);
    pools[i] = (Pool){pool_names[i], lim, 0};
  }
  if (mode == 2)
    pools[n - 1].limit = SIZE_MAX;
  else
    *bounded = true;
  return n;
}

/* --------------------------------------------------------- the run */

typedef struct {
  long plans, checked, rejected_ok, fit_fail, below_lb, not_best, search_worse,
      nondeterministic, unbounded_missing, overcommitted;
  long shift, stretch, overflow, misalign, shorten, shrink, overlimit;
  long shift_missed, stretch_missed, overflow_missed, misalign_missed,
      shorten_missed, shrink_missed, overlimit_missed;
  long overlapping, backwards, clobbering, moved_up, moved_up_missed;
  char first_failure[512];
} Tally;

static void fail(Tally *t, const char *what, unsigned seed, const char *detail) {
  if (!t->first_failure[0])
    snprintf(t->first_failure, sizeof t->first_failure, "graph seed %u: %s%s%s",
             seed, what, detail ? ": " : "", detail ? detail : "");
}

static Buffer *copy_bufs(const Buffer *b, int n) {
  Buffer *c = arena_array((size_t)n + 1, sizeof(Buffer));
  memcpy(c, b, (size_t)n * sizeof(Buffer));
  return c;
}

static Pool *copy_pools(const Pool *p, int n) {
  Pool *c = arena_array((size_t)n + 1, sizeof(Pool));
  memcpy(c, p, (size_t)n * sizeof(Pool));
  return c;
}

static bool planned(const Buffer *b) { return !b->external && !b->persistent; }

static bool times_meet(const Buffer *a, const Buffer *b) {
  return a->first <= b->last && b->first <= a->last;
}

static bool bytes_meet(const Buffer *a, const Buffer *b) {
  return a->bytes && b->bytes && a->offset < b->offset + b->bytes &&
         b->offset < a->offset + a->bytes;
}

/* Corrupts a valid plan in each way and expects the checker to object. */
static void corrupt(Tally *t, unsigned seed, const Graph *g, Plan *p) {
  int n = p->nbufs;
  const Buffer *ok = p->bufs;
  /* Shift: move a buffer onto a conflicting one of the same pool. */
  for (int i = 0; i < n; i++) {
    if (!planned(&ok[i]) || ok[i].bytes == 0)
      continue;
    for (int j = 0; j < n; j++) {
      if (j == i || !planned(&ok[j]) || ok[j].bytes == 0 ||
          ok[j].pool != ok[i].pool || !times_meet(&ok[i], &ok[j]))
        continue;
      /* (An overlapping pair may share bytes: check_plan's business.) */
      if ((ok[i].overlap && ok[i].overlap_of == j) || (ok[j].overlap && ok[j].overlap_of == i))
        continue;
      Buffer *b = copy_bufs(ok, n);
      b[i].offset = ok[j].offset;
      t->shift++;
      if (!check_buffers(b, n, p->pools, p->npools, p->persistent_bytes)) {
        t->shift_missed++;
        fail(t, "the checker accepted a shifted offset", seed, NULL);
      }
      goto stretch;
    }
  }
stretch:
  /* Stretch: two buffers sharing bytes at different times; make one
   * live while the other is. */
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      if (j == i || !planned(&ok[i]) || !planned(&ok[j]) ||
          ok[i].pool != ok[j].pool || !bytes_meet(&ok[i], &ok[j]) ||
          ok[i].last >= ok[j].first)
        continue;
      Buffer *b = copy_bufs(ok, n);
      b[i].last = ok[j].first;
      t->stretch++;
      if (!check_buffers(b, n, p->pools, p->npools, p->persistent_bytes)) {
        t->stretch_missed++;
        fail(t, "the checker accepted a stretched lifetime", seed, NULL);
      }
      goto overflow;
    }
  }
overflow:
  /* Overflow: the topmost buffer of a pool one alignment step higher. */
  for (int i = 0; i < n; i++) {
    if (!planned(&ok[i]) || ok[i].bytes == 0 ||
        ok[i].offset + ok[i].bytes != p->pools[ok[i].pool].used)
      continue;
    Buffer *b = copy_bufs(ok, n);
    b[i].offset += ok[i].align;
    t->overflow++;
    if (!check_buffers(b, n, p->pools, p->npools, p->persistent_bytes)) {
      t->overflow_missed++;
      fail(t, "the checker accepted a buffer beyond its pool", seed, NULL);
    }
    /* and the pool claiming less than its top buffer needs */
    Pool *pools = copy_pools(p->pools, p->npools);
    pools[ok[i].pool].used--;
    t->overflow++;
    if (!check_buffers(ok, n, pools, p->npools, p->persistent_bytes)) {
      t->overflow_missed++;
      fail(t, "the checker accepted a pool smaller than its buffers", seed,
           NULL);
    }
    /* and a pool using more than its limit */
    pools = copy_pools(p->pools, p->npools);
    pools[ok[i].pool].limit = pools[ok[i].pool].used - 1;
    t->overlimit++;
    if (!check_buffers(ok, n, pools, p->npools, p->persistent_bytes)) {
      t->overlimit_missed++;
      fail(t, "the checker accepted a pool over its limit", seed, NULL);
    }
    break;
  }
  /* Misalign. */
  for (int i = 0; i < n; i++) {
    if (!planned(&ok[i]) || ok[i].align < 2)
      continue;
    Buffer *b = copy_bufs(ok, n);
    b[i].offset += 1;
    t->misalign++;
    if (!check_buffers(b, n, p->pools, p->npools, p->persistent_bytes)) {
      t->misalign_missed++;
      fail(t, "the checker accepted a misaligned offset", seed, NULL);
    }
    break;
  }
  /* Against the graph: a buffer that dies before its last reader, and a
   * buffer smaller than its tensor. */
  Buffer *saved = p->bufs;
  for (int i = 0; i < n; i++) {
    if (ok[i].ntensors == 0 || ok[i].persistent || ok[i].first == ok[i].last)
      continue;
    p->bufs = copy_bufs(ok, n);
    if (below(2))
      p->bufs[i].last--;
    else
      p->bufs[i].first++;
    t->shorten++;
    if (!check_plan(g, p)) {
      t->shorten_missed++;
      fail(t, "the checker accepted a lifetime shorter than the tensor's use",
           seed, NULL);
    }
    p->bufs = saved;
    break;
  }
  for (int i = 0; i < n; i++) {
    if (ok[i].bytes == 0)
      continue;
    p->bufs = copy_bufs(ok, n);
    p->bufs[i].bytes--;
    t->shrink++;
    if (!check_plan(g, p)) {
      t->shrink_missed++;
      fail(t, "the checker accepted a buffer smaller than its contents", seed,
           NULL);
    }
    p->bufs = saved;
    break;
  }
}

static bool cost_less(size_t m1, size_t b1, size_t m2, size_t b2) {
  return m1 != m2 ? m1 < m2 : b1 < b2;
}

static void one_graph(Tally *t, unsigned seed) {
  rng = seed * 0x9e3779b97f4a7c15ull + 1;
  Graph *g = random_graph();
  if (below(4) != 0)
    mark_views(g);
  static const size_t aligns[] = {1, 4, 16, 16, 64};
  PlanOptions opt = {.align = aligns[below(5)], .io_in_workspace = below(2)};

  Plan *p = arena_alloc(sizeof *p);
  p->io_in_workspace = opt.io_in_workspace;
  p->order = model_order(g, &p->norder);
  p->nsteps = p->norder > 0 ? p->norder : 1;
  assign_storage(g, p, &opt);
  set_lifetimes(g, p);
  mark_overlaps(g, p);
  size_t lb = p->noverlap ? overlap_lower_bound(p->bufs, p->nbufs)
                          : live_lower_bound(p->bufs, p->nbufs, NULL);

  Pool pools[MAX_POOLS];
  bool bounded;
  int npools = random_pools(pools, lb, &bounded);
  /* Sometimes restrict some buffers to some pools (the last pool stays
   * open to everyone so that an unbounded pool keeps everything placeable). */
  if (npools > 1 && below(3) == 0)
    for (int i = 0; i < p->nbufs; i++)
      if (below(3) == 0)
        p->bufs[i].pool_mask = (1u << (npools - 1)) | (uint32_t)below(1 << npools);
  size_t capacity = 0;
  for (int i = 0; i < npools; i++)
    capacity = pools[i].limit == SIZE_MAX || capacity == SIZE_MAX
                   ? SIZE_MAX
                   : capacity + pools[i].limit;

  size_t m[PLAN_NALGOS + 1], bytes[PLAN_NALGOS + 1];
  for (int a = 0; a <= PLAN_NALGOS; a++) {
    const char *algo = a < PLAN_NALGOS ? plan_algo_names[a] : "best";
    Buffer *bufs = copy_bufs(p->bufs, p->nbufs);
    Pool *pl = copy_pools(pools, npools);
    AlgoResult res[PLAN_NALGOS];
    int nres;
    int kept = place_buffers(bufs, p->nbufs, pl, npools, algo, res, &nres);
    m[a] = res[kept].missing;
    bytes[a] = res[kept].bytes;
    t->plans++;
    if (!bounded && m[a] > 0)
      t->unbounded_missing++, fail(t, "an unbounded pool left bytes missing", seed, algo);
    if (capacity < lb && m[a] == 0)
      t->overcommitted++, fail(t, "a plan claims to fit in pools smaller than the lower bound", seed, algo);
    if (m[a] > 0) {
      t->fit_fail++;
      continue;
    }
    t->checked++;
    /* the persistent area, laid out as plan_graph() does */
    size_t top = 0;
    for (int i = 0; i < p->nbufs; i++)
      if (bufs[i].persistent) {
        bufs[i].offset = (top + bufs[i].align - 1) / bufs[i].align * bufs[i].align;
        top = bufs[i].offset + bufs[i].bytes;
      }
    const char *why = check_buffers(bufs, p->nbufs, pl, npools, top);
    if (why) {
      fail(t, algo, seed, why);
      continue;
    }
    size_t total = 0;
    for (int i = 0; i < npools; i++)
      total += pl[i].used;
    if (total != bytes[a] || total < lb)
      t->below_lb++, fail(t, "a plan is smaller than the lower bound or misreports its size", seed, algo);

    Plan q = *p;
    q.bufs = bufs;
    q.pools = pl;
    q.npools = npools;
    q.persistent_bytes = top;
    why = check_plan(g, &q);
    if (why) {
      fail(t, algo, seed, why);
      continue;
    }
    t->rejected_ok++; /* accepted by both checkers */
    /* Every overlapping pair, simulated: no input byte is written
     * before its last read. */
    for (int i = 0; i < p->nbufs; i++) {
      const Buffer *C = &bufs[i];
      if (!C->overlap || C->ntensors == 0)
        continue;
      const Op *op = &g->ops[g->tensors[C->tensors[0]].producer];
      const Buffer *A = &bufs[C->overlap_of];
      if (!bytes_meet(A, C) || A->pool != C->pool)
        continue;
      t->overlapping++;
      t->backwards += C->overlap_rev;
      if (pixelwise_clobbers(g, op, A, C)) {
        t->clobbering++;
        fail(t, "a plan overlaps an output over input bytes still to be read", seed, algo);
      }
      /* Moved up past the forward distance, run forwards: when the
       * simulation says that clobbers, the checker must say so too. */
      if (seed % 2 == 0) {
        Buffer *b = copy_bufs(bufs, p->nbufs);
        b[i].overlap_rev = false;
        b[i].offset = A->offset + (size_t)(C->overlap_max + 1 > 0 ? C->overlap_max + 1 : 0);
        if (b[i].offset + b[i].bytes <= pl[b[i].pool].used &&
            pixelwise_clobbers(g, op, &b[C->overlap_of], &b[i])) {
          Plan r = q;
          r.bufs = b;
          t->moved_up++;
          if (!check_plan(g, &r)) {
            t->moved_up_missed++;
            fail(t, "the checker accepted an output over input bytes still to be read", seed,
                 algo);
          }
        }
      }
    }
    if (a == PLAN_NALGOS - 1 && seed % 8 == 0) {
      Buffer *again = copy_bufs(p->bufs, p->nbufs);
      Pool *pl2 = copy_pools(pools, npools);
      place_buffers(again, p->nbufs, pl2, npools, algo, res, &nres);
      for (int i = 0; i < p->nbufs; i++)
        if (again[i].offset != bufs[i].offset || again[i].pool != bufs[i].pool) {
          t->nondeterministic++;
          fail(t, "the search placed a buffer differently on a second run", seed, NULL);
          break;
        }
    }
    if (a == PLAN_NALGOS && seed % 4 == 0)
      corrupt(t, seed, g, &q);
  }
  for (int a = 0; a < PLAN_NALGOS; a++)
    if (cost_less(m[a], bytes[a], m[PLAN_NALGOS], bytes[PLAN_NALGOS]))
      t->not_best++, fail(t, "best is worse than one algorithm", seed, plan_algo_names[a]);
  for (int a = 1; a <= 2; a++)
    if (cost_less(m[a], bytes[a], m[3], bytes[3]))
      t->search_worse++, fail(t, "search is worse than its greedy seed", seed, plan_algo_names[a]);
}

int main(void) {
  Tally t = {0};
  plan_search_iterations = 12; /* keep 10,000 graphs x 5 runs fast */
  for (unsigned seed = 1; seed <= NGRAPHS; seed++) {
    one_graph(&t, seed);
    if (seed % 64 == 0)
      arena_reset(); /* not after each graph: cheaper under ASan */
  }
  plan_search_iterations = 0; /* and a hundred at full effort */
  for (unsigned seed = NGRAPHS + 1; seed <= NGRAPHS + 100; seed++) {
    one_graph(&t, seed);
    if (seed % 64 == 0)
      arena_reset(); /* not after each graph: cheaper under ASan */
  }
  const char *ff = t.first_failure[0] ? t.first_failure : "none";
  CHECK(t.plans >= (long)(NGRAPHS + 100) * (PLAN_NALGOS + 1),
        "%ld plans were made (%d random graphs x %d algorithms and best)", t.plans,
        NGRAPHS + 100, PLAN_NALGOS);
  CHECK(t.checked > t.plans / 2 && t.fit_fail > 100,
        "most plans fit and some pool settings do not (%ld fit, %ld do not)",
        t.checked, t.fit_fail);
  CHECK(t.rejected_ok == t.checked,
        "every plan that fits passes the checker, on buffers and against the "
        "graph (%ld of %ld; first failure: %s)", t.rejected_ok, t.checked, ff);
  CHECK(t.below_lb == 0, "no plan is below the lower bound (%ld are)", t.below_lb);
  CHECK(t.overlapping > 1000 && t.backwards > 100 && t.clobbering == 0,
        "every output sharing bytes with its input (%ld, %ld of them run backwards) "
        "clobbers no input byte before its last read, simulated pixel by pixel (%ld do)",
        t.overlapping, t.backwards, t.clobbering);
  CHECK(t.moved_up > 500 && t.moved_up_missed == 0,
        "the checker rejects every overlapping output moved up so that it clobbers its "
        "input (%ld cases, %ld missed)", t.moved_up, t.moved_up_missed);
  CHECK(t.unbounded_missing == 0, "with an unbounded pool every buffer is placed (%ld not)",
        t.unbounded_missing);
  CHECK(t.overcommitted == 0,
        "no plan claims to fit pools that hold less than the lower bound (%ld do)",
        t.overcommitted);
  CHECK(t.not_best == 0, "best is never worse than a single algorithm (%ld times)",
        t.not_best);
  CHECK(t.search_worse == 0, "search is never worse than its greedy seeds (%ld times)",
        t.search_worse);
  CHECK(t.nondeterministic == 0, "the search is deterministic (%ld differ)",
        t.nondeterministic);
  CHECK(t.shift > 500 && t.shift_missed == 0,
        "the checker rejects every offset shifted onto a live neighbour (%ld cases, %ld missed)",
        t.shift, t.shift_missed);
  CHECK(t.stretch > 500 && t.stretch_missed == 0,
        "the checker rejects every lifetime stretched onto a buffer sharing its bytes (%ld cases, %ld missed)",
        t.stretch, t.stretch_missed);
  CHECK(t.overflow > 500 && t.overflow_missed == 0,
        "the checker rejects every buffer overflowing its pool (%ld cases, %ld missed)",
        t.overflow, t.overflow_missed);
  CHECK(t.overlimit > 500 && t.overlimit_missed == 0,
        "the checker rejects every pool over its limit (%ld cases, %ld missed)",
        t.overlimit, t.overlimit_missed);
  CHECK(t.misalign > 500 && t.misalign_missed == 0,
        "the checker rejects every misaligned offset (%ld cases, %ld missed)",
        t.misalign, t.misalign_missed);
  CHECK(t.shorten > 500 && t.shorten_missed == 0,
        "the checker rejects every buffer that dies before its tensor's last use (%ld cases, %ld missed)",
        t.shorten, t.shorten_missed);
  CHECK(t.shrink > 500 && t.shrink_missed == 0,
        "the checker rejects every buffer smaller than its tensor (%ld cases, %ld missed)",
        t.shrink, t.shrink_missed);
  return test_exit();
}
