/* SPDX-License-Identifier: Apache-2.0 */
/*
 * schedule.c - the execution order, the lifetimes over it, and which
 * ops run in place.
 *
 * Needs: a verified Graph (every tensor read is produced earlier in model
 * order), lowered (Op.lowered: the in-place flags; without it no op runs
 * in place), and its storage (assign_storage).  Guarantees: an order runs
 * every op once, producers before readers, ops touching the same
 * variable in model order, and an op that may stop the run
 * (Lowered.pends: CIRCULAR_BUFFER) after every op before it and before
 * every op after it in model order; every Buffer's [first, last] holds every step
 * that writes or reads one of its tensors; a buffer planned in place
 * (inplace_of) takes over a buffer that dies at the very step it is
 * written.
 *
 * Two orders:
 *
 *   model   the model's own (TFLite files are topologically sorted; it is
 *           the order TFLite Micro runs).
 *   memory  an order that minimises the peak of live bytes (the lower
 *           bound a placement can reach), found by dynamic programming
 *           over the sets of ops already run.  A set S fixes which
 *           buffers are live after it, so the best peak to reach S is
 *           min over its last op o of max(best(S - o), bytes live while
 *           o runs).  Sets are explored level by level (|S| = 0, 1, ...),
 *           one state per distinct set; when a level holds more than
 *           `width` sets only the `width` best (lowest peak, then fewest
 *           live bytes, then least total) go on: a beam.  Branching
 *           graphs whose independent branches make few sets per level
 *           are solved exactly (the whole lattice fits in the beam);
 *           wide ones get a greedy-like search, width 1 being a plain
 *           greedy.  A chain has one set per level: the model order.
 *
 * The planner (plan.c, plan_graph) plans the model order, and with
 * --schedule best (the default) also the memory order when its peak is
 * lower, keeping the smaller workspace (the model order on a tie): never
 * worse than the model order.  --schedule memory takes the memory order
 * whatever it gives.  doc/memory-plan.md explains the choice.
 *
 * Lifetimes (steps are positions in the order; both ends inclusive):
 *   op output       from the step of its op to the last step reading it
 *                   (its own step when nothing reads it);
 *   model input     from step 0;   model output  to the last step;
 *   view            joins its base's buffer: the buffer spans both;
 *   kernel scratch  exactly the step of its op;
 *   variable        persistent: every step;
 *   read in a loop  written before a WHILE, read inside it: to its
 *                   END_WHILE (extend_over_loops).
 *
 * In place (mark_inplace): an op whose lowering allows output 0 at the
 * address of input k (Lowered.inplace) takes over input k's buffer A with
 * its output's buffer C when, in this order, A's last step is the op's
 * step and C's first is too, both are planned in the same pools with the
 * same size, A holds no model output, and every input of the op stored
 * in A is one the lowering allows.  C.inplace_of = A; the placement puts
 * C exactly at A's offset, and the checker allows that one overlap.
 */
#include "tinyaot.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

bool is_schedule_name(const char *name) {
  return !strcmp(name, "model") || !strcmp(name, "memory") ||
         !strcmp(name, "best");
}

int *model_order(const Graph *g, int *norder) {
  int *order = arena_array((size_t)g->nops + 1, sizeof(int));
  for (int i = 0; i < g->nops; i++)
    order[i] = i;
  *norder = g->nops;
  return order;
}

/* ------------------------------------------------------ in place */

/* In a pool (tensors and scratch): not a caller buffer, not a variable. */
static bool in_pool(const Buffer *b) { return !b->external && !b->persistent; }

static int storage_of(const Graph *g, int t) {
  return t < 0 ? -1 : g->tensors[t].storage;
}

/* The buffers op's output 0 (its buffer in *c) may take over, as far as
 * the order does not matter: in input order, at most 32.  Returns how
 * many (0: none). */
static int inplace_inputs(const Graph *g, const Plan *p, const Op *op, int *c,
                          int a[32]) {
  const Lowered *l = op_lowered(op);
  if (!l || !l->inplace || op->noutputs < 1)
    return 0;
  int cid = storage_of(g, op->outputs[0]);
  if (cid < 0 || !in_pool(&p->bufs[cid]))
    return 0;
  const Buffer *C = &p->bufs[cid];
  int n = 0;
  for (int k = 0; k < op->ninputs && k < 32; k++) {
    int aid = storage_of(g, op->inputs[k]);
    if (!(l->inplace >> k & 1) || aid < 0 || aid == cid)
      continue;
    const Buffer *A = &p->bufs[aid];
    if (!in_pool(A) || A->bytes != C->bytes || A->pool_mask != C->pool_mask)
      continue;
    bool ok = true;
    for (int j = 0; j < A->ntensors; j++)
      ok &= !g->tensors[A->tensors[j]].is_output;
    /* Every input stored in A must be one the kernel reads index by
     * index; another (a broadcast operand, say) would see clobbered
     * bytes. */
    for (int j = 0; j < op->ninputs; j++)
      if (storage_of(g, op->inputs[j]) == aid && !(j < 32 && l->inplace >> j & 1))
        ok = false;
    for (int j = 0; j < n; j++)
      ok &= a[j] != aid;
    if (ok)
      a[n++] = aid;
  }
  *c = cid;
  return n;
}

void mark_inplace(const Graph *g, Plan *p) {
  for (int i = 0; i < p->nbufs; i++)
    p->bufs[i].inplace_of = -1;
  p->ninplace = 0;
  for (int s = 0; s < p->norder; s++) {
    const Op *op = &g->ops[p->order[s]];
    int a[32], c;
    int n = inplace_inputs(g, p, op, &c, a);
    if (n == 0 || p->bufs[c].first != s)
      continue;
    for (int k = 0; k < n; k++) {
      if (p->bufs[a[k]].last != s)
        continue;
      p->bufs[c].inplace_of = a[k];
      p->ninplace++;
      break;
    }
  }
}

/* ------------------------------------------------------ overlaps */

/*
 * An op whose lowering declares that output 0 may overlap input k
 * (Lowered.overlap: a kernel writing its output pixels in order, each
 * after reading its window) lets the planner put the output's buffer C
 * over part of input k's buffer A when, in this order, A ends at the
 * op's step and C begins there (nothing else reads A later), C is not
 * already in place, both are planned in the same pools, A holds no
 * model output, and no other input of the op is stored in A (it would
 * be read with no such guarantee).  C.overlap_max = the declared
 * distance; the placement keeps C's offset at most that far above A's
 * (or clear of A), and check_plan() re-derives the legality from the
 * declared access pattern.
 */
void mark_overlaps(const Graph *g, Plan *p) {
  for (int i = 0; i < p->nbufs; i++) {
    p->bufs[i].overlap = false;
    p->bufs[i].overlap_of = -1;
    p->bufs[i].overlap_max = 0;
    p->bufs[i].overlap_mod = 0;
    p->bufs[i].overlap_rev_ok = false;
    p->bufs[i].overlap_min = 0;
    p->bufs[i].overlap_rev = false;
  }
  p->noverlap = 0;
  for (int s = 0; s < p->norder; s++) {
    const Op *op = &g->ops[p->order[s]];
    const Lowered *l = op_lowered(op);
    if (!l || !l->overlap.declared || op->noutputs < 1)
      continue;
    int k = l->overlap.input;
    if (k < 0 || k >= op->ninputs)
      continue;
    int cid = storage_of(g, op->outputs[0]), aid = storage_of(g, op->inputs[k]);
    if (cid < 0 || aid < 0 || cid == aid)
      continue;
    Buffer *C = &p->bufs[cid];
    const Buffer *A = &p->bufs[aid];
    if (!in_pool(C) || !in_pool(A) || C->inplace_of >= 0 || C->first != s ||
        A->last != s || A->pool_mask != C->pool_mask)
      continue;
    bool ok = true;
    for (int j = 0; j < A->ntensors; j++)
      ok &= !g->tensors[A->tensors[j]].is_output;
    for (int j = 0; j < op->ninputs; j++)
      if (j != k && storage_of(g, op->inputs[j]) == aid)
        ok = false;
    for (int j = 1; j < op->noutputs; j++)
      if (storage_of(g, op->outputs[j]) == aid)
        ok = false;
    if (!ok)
      continue;
    C->overlap = true;
    C->overlap_of = aid;
    C->overlap_max = l->overlap.max_ahead;
    C->overlap_mod = l->overlap.chan_mod > 1 ? l->overlap.chan_mod : 0;
    C->overlap_rev_ok = l->overlap.reverse_kernel != NULL;
    C->overlap_min = l->overlap.min_above;
    p->noverlap++;
  }
}

/* ------------------------------------------------------ lifetimes */

/* Widens buffer id's lifetime to hold step s. */
static void live_at(Plan *p, int id, int s) {
  if (id < 0)
    return; /* a constant, or a view of one */
  Buffer *b = &p->bufs[id];
  if (s < b->first)
    b->first = s;
  if (s > b->last)
    b->last = s;
}

/*
 * Loops (WHILE ... END_WHILE, control.c): the steps of a loop run again
 * and again, so a buffer written before the loop (at the WHILE's step or
 * earlier) and read at a step inside it must hold its bytes until the
 * loop's last step, END_WHILE: the next iteration reads it again.  That
 * covers the loop variables (written by WHILE, read by END_WHILE, which
 * writes them anew).  A buffer written inside the loop is written again
 * before every read in each iteration, so its own steps suffice; IF's
 * branches need nothing more either: the steps of the branch that does
 * not run only make lifetimes longer.  Such graphs are planned in model
 * order only (plan.c), so steps are op indices.
 */
static void extend_over_loops(const Graph *g, Plan *p) {
  if (!has_control_flow(g))
    return;
  if (p->norder != g->nops)
    die("a graph with control flow is planned in model order only");
  for (int s = 0; s < p->norder; s++)
    if (p->order[s] != s)
      die("a graph with control flow is planned in model order only");
  const int *partner = control_partners(g);
  for (int w = 0; w < g->nops; w++) {
    if (g->ops[w].kind != OP_WHILE)
      continue;
    int end = partner[partner[w]];
    for (int s = w + 1; s <= end; s++) {
      const Op *op = &g->ops[s];
      for (int k = 0; k < op->ninputs; k++) {
        int id = op->inputs[k] >= 0 ? g->tensors[op->inputs[k]].storage : -1;
        if (id >= 0 && p->bufs[id].first <= w && p->bufs[id].last < end)
          p->bufs[id].last = end;
      }
    }
  }
}

void set_lifetimes(const Graph *g, Plan *p) {
  int last_step = p->nsteps - 1;
  for (int i = 0; i < p->nbufs; i++) {
    p->bufs[i].first = INT_MAX;
    p->bufs[i].last = -1;
  }
  for (int i = 0; i < g->ninputs; i++)
    live_at(p, g->tensors[g->inputs[i]].storage, 0);
  for (int s = 0; s < p->norder; s++) {
    const Op *op = &g->ops[p->order[s]];
    for (int k = 0; k < op->noutputs; k++)
      if (op->outputs[k] >= 0)
        live_at(p, g->tensors[op->outputs[k]].storage, s);
    for (int k = 0; k < op->ninputs; k++)
      if (op->inputs[k] >= 0)
        live_at(p, g->tensors[op->inputs[k]].storage, s);
    if (op->scratch_buffer >= 0)
      live_at(p, op->scratch_buffer, s);
  }
  for (int i = 0; i < g->noutputs; i++)
    live_at(p, g->tensors[g->outputs[i]].storage, last_step);
  extend_over_loops(g, p);
  for (int i = 0; i < p->nbufs; i++) {
    Buffer *b = &p->bufs[i];
    if (b->persistent) {
      b->first = 0;
      b->last = last_step;
    }
    if (b->last < 0) /* touched by nothing at all */
      b->first = b->last = 0;
  }
}

/* -------------------------------------------------- the memory order */

/* The problem as the search sees it: per op, the planned buffers it
 * touches, its scratch, its in-place options, its predecessors and
 * successors; per buffer, its bytes and the ops touching it. */
typedef struct {
  int nops, nbufs, words;
  size_t *bytes;             /* per buffer; 0 when not planned */
  bool *start0, *to_end;     /* live from step 0 / to the last step */
  int *tstart, *tlist;       /* ops touching buffer b */
  int *ostart, *olist;       /* planned buffers op o touches */
  size_t *scratch;           /* per op */
  long *cost;                /* per op: work to try running it */
  int *inplace_c, *ipstart, *iplist; /* per op: C and its candidate As */
  int *pstart, *plist;       /* predecessors of op o */
  int *sstart, *slist;       /* successors of op o */
  size_t fixed_all, fixed_first, fixed_last; /* untouched buffers */
  uint64_t *zobrist;         /* per op: hash of a set = xor of its ops */
} Sched;

/* CSR of pairs (key, value) with keys in [0, n): start[n + 1], list. */
static void build_csr(int n, const int *key, const int *val, int npairs,
                      int **start_out, int **list_out) {
  int *start = arena_array((size_t)n + 2, sizeof(int));
  int *list = arena_array((size_t)npairs + 1, sizeof(int));
  for (int i = 0; i < npairs; i++)
    start[key[i] + 1]++;
  for (int i = 0; i < n; i++)
    start[i + 1] += start[i];
  int *fill = arena_array((size_t)n + 1, sizeof(int));
  memcpy(fill, start, (size_t)n * sizeof(int));
  for (int i = 0; i < npairs; i++)
    list[fill[key[i]]++] = val[i];
  *start_out = start;
  *list_out = list;
}

/* Appends (k, v) to growing pair arrays. */
typedef struct {
  int *key, *val;
  int n, cap;
} Pairs;

static void add_pair(Pairs *ps, int k, int v) {
  if (ps->n == ps->cap) {
    int cap = ps->cap ? 2 * ps->cap : 256;
    int *nk = arena_array((size_t)cap, sizeof(int));
    int *nv = arena_array((size_t)cap, sizeof(int));
    if (ps->n) {
      memcpy(nk, ps->key, (size_t)ps->n * sizeof(int));
      memcpy(nv, ps->val, (size_t)ps->n * sizeof(int));
    }
    ps->key = nk;
    ps->val = nv;
    ps->cap = cap;
  }
  ps->key[ps->n] = k;
  ps->val[ps->n++] = v;
}

static Sched *new_sched(const Graph *g, const Plan *p, bool inplace) {
  Sched *S = arena_alloc(sizeof *S);
  int n = g->nops, nb = p->nbufs;
  S->nops = n;
  S->nbufs = nb;
  S->words = (n + 63) / 64;
  S->bytes = arena_array((size_t)nb + 1, sizeof(size_t));
  S->start0 = arena_array((size_t)nb + 1, sizeof(bool));
  S->to_end = arena_array((size_t)nb + 1, sizeof(bool));
  S->scratch = arena_array((size_t)n + 1, sizeof(size_t));
  S->inplace_c = arena_array((size_t)n + 1, sizeof(int));
  for (int b = 0; b < nb; b++)
    if (in_pool(&p->bufs[b]) && p->bufs[b].scratch_op < 0)
      S->bytes[b] = p->bufs[b].bytes; /* scratch: S->scratch, per op */
  for (int i = 0; i < g->ninputs; i++) {
    int b = storage_of(g, g->inputs[i]);
    if (b >= 0)
      S->start0[b] = true;
  }
  for (int i = 0; i < g->noutputs; i++) {
    int b = storage_of(g, g->outputs[i]);
    if (b >= 0)
      S->to_end[b] = true;
  }

  /* Which op touches which planned buffer (each pair once). */
  Pairs touch = {0}, pred = {0}, ip = {0};
  int *seen = arena_array((size_t)nb + 1, sizeof(int));
  for (int b = 0; b < nb; b++)
    seen[b] = -1;
  int *last_var_op = arena_array((size_t)nb + 1, sizeof(int));
  for (int b = 0; b < nb; b++)
    last_var_op[b] = -1;
  for (int o = 0; o < n; o++) {
    const Op *op = &g->ops[o];
    for (int k = 0; k < op->ninputs + op->noutputs; k++) {
      int t = k < op->ninputs ? op->inputs[k] : op->outputs[k - op->ninputs];
      if (t < 0)
        continue;
      /* Producers first; a variable orders the ops touching it. */
      if (k < op->ninputs && g->tensors[t].producer >= 0 &&
          g->tensors[t].producer != o)
        add_pair(&pred, o, g->tensors[t].producer);
      int b = storage_of(g, t);
      if (b < 0 || seen[b] == o)
        continue;
      seen[b] = o;
      if (p->bufs[b].persistent) {
        if (last_var_op[b] >= 0)
          add_pair(&pred, o, last_var_op[b]);
        last_var_op[b] = o;
      }
      if (in_pool(&p->bufs[b]))
        add_pair(&touch, o, b);
    }
    /* An op that may stop the run (Lowered.pends) is a barrier: the ops
     * before it in model order run before it, those after it after it. */
    if (op->lowered && op_lowered(op)->pends)
      for (int j = 0; j < n; j++)
        if (j != o)
          add_pair(&pred, j < o ? o : j, j < o ? j : o);
    if (op->scratch_buffer >= 0)
      S->scratch[o] = p->bufs[op->scratch_buffer].bytes;
    S->inplace_c[o] = -1;
    int a[32], c;
    int na = inplace && n > 0 ? inplace_inputs(g, p, op, &c, a) : 0;
    if (na > 0) {
      S->inplace_c[o] = c;
      for (int k = 0; k < na; k++)
        add_pair(&ip, o, a[k]);
    }
  }
  build_csr(n, touch.key, touch.val, touch.n, &S->ostart, &S->olist);
  build_csr(nb, touch.val, touch.key, touch.n, &S->tstart, &S->tlist);
  build_csr(n, pred.key, pred.val, pred.n, &S->pstart, &S->plist);
  build_csr(n, pred.val, pred.key, pred.n, &S->sstart, &S->slist);
  build_csr(n, ip.key, ip.val, ip.n, &S->ipstart, &S->iplist);
  S->cost = arena_array((size_t)n + 1, sizeof(long));
  for (int o = 0; o < n; o++) {
    long c = S->words + 8 + (S->ipstart[o + 1] - S->ipstart[o]);
    for (int k = S->ostart[o]; k < S->ostart[o + 1]; k++) {
      int b = S->olist[k];
      c += 2 * (S->tstart[b + 1] - S->tstart[b]);
    }
    S->cost[o] = c;
  }
  for (int b = 0; b < nb; b++) {
    if (S->tstart[b] != S->tstart[b + 1] || S->bytes[b] == 0)
      continue;
    /* Touched by no op: its lifetime does not depend on the order
     * (set_lifetimes): every step, the first only or the last only. */
    if (S->start0[b] && S->to_end[b])
      S->fixed_all += S->bytes[b];
    else if (S->to_end[b])
      S->fixed_last += S->bytes[b];
    else
      S->fixed_first += S->bytes[b];
    S->bytes[b] = 0;
  }
  S->zobrist = arena_array((size_t)n + 1, sizeof(uint64_t));
  uint64_t r = 0x2545f4914f6cdd1dull;
  for (int o = 0; o < n; o++) {
    r ^= r >> 12;
    r ^= r << 25;
    r ^= r >> 27;
    S->zobrist[o] = r * 2685821657736338717ull;
  }
  return S;
}

static bool has(const uint64_t *set, int o) { return set[o >> 6] >> (o & 63) & 1; }

/* Has every op touching b run, given set (and op o, about to run)? */
static bool all_touchers_done(const Sched *S, const uint64_t *set, int b, int o) {
  for (int k = S->tstart[b]; k < S->tstart[b + 1]; k++) {
    int t = S->tlist[k];
    if (t != o && !has(set, t))
      return false;
  }
  return true;
}

static bool started(const Sched *S, const uint64_t *set, int b) {
  if (S->start0[b])
    return true;
  for (int k = S->tstart[b]; k < S->tstart[b + 1]; k++)
    if (has(set, S->tlist[k]))
      return true;
  return false;
}

/* Running op o after the ops in set, with `resident` bytes live before
 * it: the bytes live during o (returned) and after it (*after). */
static size_t step_bytes(const Sched *S, const uint64_t *set, size_t resident,
                         int o, size_t *after) {
  size_t fresh = 0, freed = 0, saved = 0;
  for (int k = S->ostart[o]; k < S->ostart[o + 1]; k++) {
    int b = S->olist[k];
    bool is_new = !started(S, set, b);
    if (is_new)
      fresh += S->bytes[b];
    if (!S->to_end[b] && all_touchers_done(S, set, b, o))
      freed += S->bytes[b];
  }
  int c = S->inplace_c[o];
  if (c >= 0 && !started(S, set, c))
    for (int k = S->ipstart[o]; k < S->ipstart[o + 1]; k++) {
      int a = S->iplist[k];
      if (all_touchers_done(S, set, a, o)) {
        saved = S->bytes[c];
        break;
      }
    }
  *after = resident + fresh - freed;
  return resident + fresh + S->scratch[o] - saved;
}

/* One state of the search: a set of ops run, how it was reached. */
typedef struct {
  uint64_t hash;
  size_t resident; /* bytes live after the set */
  size_t peak;     /* the best peak reaching it */
  uint64_t total;  /* sum over its steps of the bytes live (saturating) */
  int parent;      /* index in the previous level */
  int op;          /* the op run last */
} State;

static const State *sort_states;

static int compare_candidates(const void *x, const void *y) {
  const State *a = &sort_states[*(const int *)x], *b = &sort_states[*(const int *)y];
  if (a->peak != b->peak)
    return a->peak < b->peak ? -1 : 1;
  if (a->resident != b->resident)
    return a->resident < b->resident ? -1 : 1;
  if (a->total != b->total)
    return a->total < b->total ? -1 : 1;
  if (a->hash != b->hash)
    return a->hash < b->hash ? -1 : 1;
  if (a->parent != b->parent)
    return a->parent < b->parent ? -1 : 1;
  return (a->op > b->op) - (a->op < b->op);
}

/* The beam width: every set of a level while it has at most this many;
 * smaller for large graphs to bound the memory (two levels of sets and
 * ready lists, nops * width trace entries). */
int schedule_beam_width;

/* The work of the whole search, in units of about one memory access:
 * each level expands its sets (best first) until it has spent its share,
 * SCHEDULE_WORK / nops, and always the best one: a few tens of
 * milliseconds whatever the graph's width. */
#define SCHEDULE_WORK 30000000L

static int beam_width(const Sched *S) {
  if (schedule_beam_width > 0)
    return schedule_beam_width;
  long w = 4000000L / ((long)S->nops * (S->words + 8) + 1);
  if (w > 2000)
    w = 2000;
  if (w < 4)
    w = 4;
  return (int)w;
}

int *memory_order(const Graph *g, const Plan *p, bool inplace, size_t *peak) {
  int n = g->nops;
  if (n == 0) {
    *peak = 0;
    int dummy;
    return model_order(g, &dummy);
  }
  Sched *S = new_sched(g, p, inplace);
  int W = S->words, width = beam_width(S);

  /* Two levels of sets (bits, ready lists) at a time. */
  uint64_t *bits[2];
  int *ready[2], *nready[2];
  for (int i = 0; i < 2; i++) {
    bits[i] = arena_array((size_t)width * (size_t)W + 1, sizeof(uint64_t));
    ready[i] = arena_array((size_t)width * (size_t)n + 1, sizeof(int));
    nready[i] = arena_array((size_t)width + 1, sizeof(int));
  }
  State *levels[2];
  for (int i = 0; i < 2; i++)
    levels[i] = arena_array((size_t)width + 1, sizeof(State));
  State *level = levels[0];
  /* Distinct sets of the next level: open addressing on the hash. */
  int tsize = 16;
  while (tsize < 4 * width)
    tsize *= 2;
  int *table = arena_array((size_t)tsize, sizeof(int));
  /* trace[L * width + i]: state i of level L + 1 (parent, op). */
  int *trace_parent = arena_array((size_t)n * (size_t)width + 1, sizeof(int));
  int *trace_op = arena_array((size_t)n * (size_t)width + 1, sizeof(int));

  /* Level 0: nothing run; ready = ops without predecessors. */
  size_t resident0 = S->fixed_all;
  for (int b = 0; b < S->nbufs; b++)
    if (S->start0[b])
      resident0 += S->bytes[b];
  int nlevel = 1;
  level[0] = (State){.hash = 0, .resident = resident0, .peak = 0, .total = 0,
                     .parent = -1, .op = -1};
  nready[0][0] = 0;
  for (int o = 0; o < n; o++)
    if (S->pstart[o] == S->pstart[o + 1])
      ready[0][nready[0][0]++] = o;

  State *cand = NULL;
  int candcap = 0;
  int *idx = NULL;
  uint64_t *tmp = arena_array((size_t)W + 1, sizeof(uint64_t));
  int cur = 0;
  long share = SCHEDULE_WORK / n;
  for (int L = 0; L < n; L++) {
    /* Expand the states, best first, by every ready op, within the
     * level's share of the work. */
    int ncand = 0, nexpand = 0;
    long spent = 0;
    while (nexpand < nlevel && (nexpand == 0 || spent < share)) {
      const int *rd = ready[cur] + (size_t)nexpand * n;
      for (int r = 0; r < nready[cur][nexpand]; r++)
        spent += S->cost[rd[r]];
      ncand += nready[cur][nexpand++];
    }
    if (ncand > candcap) {
      candcap = ncand;
      cand = arena_array((size_t)candcap + 1, sizeof(State));
      idx = arena_array((size_t)candcap + 1, sizeof(int));
    }
    if (ncand == 0)
      die("memory order: no op is ready after %d of %d (a cycle?)", L, n);
    ncand = 0;
    size_t extra = 0; /* untouched buffers of this step only */
    if (L == 0)
      extra += S->fixed_first;
    if (L == n - 1)
      extra += S->fixed_last;
    for (int i = 0; i < nexpand; i++) {
      const uint64_t *set = bits[cur] + (size_t)i * W;
      const State *st = &level[i];
      for (int r = 0; r < nready[cur][i]; r++) {
        int o = ready[cur][(size_t)i * n + r];
        size_t after;
        size_t during = step_bytes(S, set, st->resident, o, &after) + extra;
        State *c = &cand[ncand];
        c->hash = st->hash ^ S->zobrist[o];
        c->resident = after;
        c->peak = during > st->peak ? during : st->peak;
        c->total = st->total + during < st->total ? UINT64_MAX : st->total + during;
        c->parent = i;
        c->op = o;
        idx[ncand] = ncand;
        ncand++;
      }
    }
    sort_states = cand;
    qsort(idx, (size_t)ncand, sizeof(int), compare_candidates);

    /* Keep the best of each distinct set, up to the width. */
    int nxt = 1 - cur, kept = 0;
    State *next_level = levels[nxt];
    for (int k = 0; k < tsize; k++)
      table[k] = -1;
    for (int j = 0; j < ncand && kept < width; j++) {
      const State *c = &cand[idx[j]];
      const uint64_t *pset = bits[cur] + (size_t)c->parent * W;
      memcpy(tmp, pset, (size_t)W * sizeof(uint64_t));
      tmp[c->op >> 6] |= 1ull << (c->op & 63);
      bool dup = false;
      int slot = (int)(c->hash & (uint64_t)(tsize - 1));
      for (; table[slot] >= 0 && !dup; slot = (slot + 1) & (tsize - 1)) {
        int k = table[slot];
        dup = next_level[k].hash == c->hash &&
              !memcmp(bits[nxt] + (size_t)k * W, tmp, (size_t)W * sizeof(uint64_t));
      }
      if (dup)
        continue;
      table[slot] = kept;
      memcpy(bits[nxt] + (size_t)kept * W, tmp, (size_t)W * sizeof(uint64_t));
      /* Ready after: the parent's ready ops but c->op, and the
       * successors of c->op whose predecessors have all run. */
      int *rd = ready[nxt] + (size_t)kept * n, nr = 0;
      const int *prd = ready[cur] + (size_t)c->parent * n;
      for (int r = 0; r < nready[cur][c->parent]; r++)
        if (prd[r] != c->op)
          rd[nr++] = prd[r];
      for (int k = S->sstart[c->op]; k < S->sstart[c->op + 1]; k++) {
        int s = S->slist[k];
        bool ok = !has(tmp, s);
        for (int q = S->pstart[s]; q < S->pstart[s + 1] && ok; q++)
          ok = has(tmp, S->plist[q]);
        for (int q = 0; q < nr && ok; q++)
          ok = rd[q] != s;
        if (ok)
          rd[nr++] = s;
      }
      nready[nxt][kept] = nr;
      next_level[kept] = *c;
      trace_parent[(size_t)L * width + kept] = c->parent;
      trace_op[(size_t)L * width + kept] = c->op;
      kept++;
    }
    level = next_level;
    nlevel = kept;
    cur = nxt;
  }
  /* The best full set is state 0 of the last level (sorted). */
  int *order = arena_array((size_t)n + 1, sizeof(int));
  int at = 0;
  for (int L = n - 1; L >= 0; L--) {
    order[L] = trace_op[(size_t)L * width + at];
    at = trace_parent[(size_t)L * width + at];
  }
  *peak = level[0].peak;
  return order;
}
