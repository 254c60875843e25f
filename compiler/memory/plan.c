/* SPDX-License-Identifier: Apache-2.0 */
/*
 * plan.c - offsets for buffers with lifetimes: the static memory planner.
 *
 * Needs: a plain list of Buffers, each with bytes, align, [first, last]
 * (inclusive schedule steps) and the pools it may use; no Graph.
 * Guarantees: every planned buffer (not external, not persistent) gets a
 * pool and an aligned offset such that buffers whose lifetimes overlap
 * never share a byte; pools[].used is the end of the highest buffer in
 * each pool.  The result is deterministic.
 *
 * Every algorithm except linear is "place in an order": take the buffers
 * one at a time and put each at the lowest aligned offset of the first
 * allowed pool where it clears every already-placed buffer it conflicts
 * with (lifetimes overlap).  They differ in the order:
 *
 *   linear            no reuse: each buffer above the previous one
 *   greedy-size       largest first (ties: earlier id), as TFLite Micro
 *   greedy-conflicts  most conflicting buffers first (ties: larger, id)
 *   search            hill climbing over orders, seeded with the better
 *                     greedy order: move a buffer that touches the peak
 *                     (or a random one) earlier, re-place from there,
 *                     keep the move unless it made things worse.  Fixed
 *                     seed, a fixed number of iterations.
 *   best              all of the above; keep the smallest
 *
 * Buffers that fit in no pool go to an unbounded overflow area; its size
 * is reported as the bytes missing.  Plan_graph() (the Graph-level entry)
 * lives at the end of this file.
 */
#include "tinyaot.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *const plan_algo_names[PLAN_NALGOS] = {
    "linear", "greedy-size", "greedy-conflicts", "search"};

bool is_plan_algo(const char *name) {
  if (!strcmp(name, "best"))
    return true;
  for (int i = 0; i < PLAN_NALGOS; i++)
    if (!strcmp(name, plan_algo_names[i]))
      return true;
  return false;
}

static bool is_planned(const Buffer *b) { return !b->external && !b->persistent; }

static size_t align_up(size_t x, size_t a) {
  size_t r = x % a;
  if (r == 0)
    return x;
  size_t y;
  if (add_overflows(x, a - r, &y))
    die("offset overflows");
  return y;
}

static size_t sum(size_t a, size_t b) {
  size_t s;
  if (add_overflows(a, b, &s))
    die("byte count overflows");
  return s;
}

size_t live_lower_bound(const Buffer *bufs, int nbufs, int *peak_step) {
  int nsteps = 1;
  for (int i = 0; i < nbufs; i++)
    if (is_planned(&bufs[i]) && bufs[i].last + 1 > nsteps)
      nsteps = bufs[i].last + 1;
  /* live(s) = sum of bytes of buffers with first <= s <= last: add at
   * first, remove after last, and run the sum over the steps. */
  size_t *add = arena_array((size_t)nsteps + 1, sizeof *add);
  size_t *sub = arena_array((size_t)nsteps + 1, sizeof *sub);
  for (int i = 0; i < nbufs; i++) {
    const Buffer *b = &bufs[i];
    if (!is_planned(b))
      continue;
    /* In place: its first step's bytes are the taken-over buffer's. */
    int first = b->inplace_of >= 0 ? b->first + 1 : b->first;
    if (first > b->last)
      continue;
    add[first] = sum(add[first], b->bytes);
    sub[b->last + 1] = sum(sub[b->last + 1], b->bytes);
  }
  size_t live = 0, best = 0;
  int best_step = 0;
  for (int s = 0; s < nsteps; s++) {
    live = sum(live, add[s]) - sub[s];
    if (live > best) {
      best = live;
      best_step = s;
    }
  }
  if (peak_step)
    *peak_step = best_step;
  return best;
}

/* The span (bytes) an output of c_bytes and an input of a_bytes cover
 * together with the output's base d bytes above the input's (or wholly
 * below it, when d is less than -c_bytes). */
static size_t pair_span(size_t a_bytes, size_t c_bytes, int64_t d) {
  if (d < -(int64_t)c_bytes)
    d = -(int64_t)c_bytes; /* below and clear of the input: always legal */
  if (d <= 0) {
    size_t below = (size_t)-d; /* the output starts this far below */
    size_t top = a_bytes + below > c_bytes ? a_bytes + below : c_bytes;
    return top;
  }
  if ((size_t)d >= a_bytes)
    return a_bytes + c_bytes; /* above the input's end: apart */
  return (size_t)d + c_bytes > a_bytes ? (size_t)d + c_bytes : a_bytes;
}

/* The distance a pair may actually use: d itself, or with a modulus m
 * (and offsets aligned to `align`) the largest multiple of both at or
 * below d; below -c_bytes the output is clear of the input anyway. */
static int64_t usable_distance(int64_t d, int64_t m, int64_t align, int64_t c_bytes) {
  if (m > 1) {
    int64_t step = m;
    while (step % align != 0) /* lcm(m, align), align a power of two */
      step += m;
    int64_t q = d >= 0 ? d / step : -((-d + step - 1) / step);
    d = q * step;
  }
  return d < -c_bytes ? -c_bytes : d;
}

size_t overlap_lower_bound(const Buffer *bufs, int nbufs) {
  int nsteps = 1;
  for (int i = 0; i < nbufs; i++)
    if (is_planned(&bufs[i]) && bufs[i].last + 1 > nsteps)
      nsteps = bufs[i].last + 1;
  size_t *add = arena_array((size_t)nsteps + 2, sizeof *add);
  size_t *sub = arena_array((size_t)nsteps + 2, sizeof *sub);
  for (int i = 0; i < nbufs; i++) {
    const Buffer *b = &bufs[i];
    if (!is_planned(b))
      continue;
    int first = b->inplace_of >= 0 ? b->first + 1 : b->first;
    if (first <= b->last) {
      add[first] = sum(add[first], b->bytes);
      sub[b->last + 1] = sum(sub[b->last + 1], b->bytes);
    }
    if (b->overlap && b->overlap_of >= 0 && b->overlap_of < nbufs) {
      /* At the step they meet the pair covers at least pair_span(). */
      const Buffer *a = &bufs[b->overlap_of];
      size_t both = sum(a->bytes, b->bytes);
      int64_t d = usable_distance(b->overlap_max, b->overlap_mod, 1, (int64_t)b->bytes);
      if (d > 0)
        d = 0; /* any lower distance is legal too: 0 covers least */
      size_t span = pair_span(a->bytes, b->bytes, d);
      if (b->overlap_rev_ok) { /* backwards: from overlap_min up */
        size_t back = pair_span(a->bytes, b->bytes, b->overlap_min > 0 ? b->overlap_min : 0);
        span = back < span ? back : span;
      }
      size_t save = both - span;
      sub[b->first] = sum(sub[b->first], save);
      add[b->first + 1] = sum(add[b->first + 1], save);
    }
  }
  size_t live = 0, best = 0;
  for (int s = 0; s < nsteps; s++) {
    live = sum(live, add[s]) - sub[s];
    if (live > best)
      best = live;
  }
  return best;
}

/* ------------------------------------------------------ the problem */

/* The planned buffers as slots 0..n-1, with their conflict lists.  A
 * slot is one buffer, or a chain of buffers each taking over the
 * previous one in place (Buffer.inplace_of): they share one offset. */
typedef struct {
  int n;
  int *slot;       /* caller's buffer -> its slot, -1 when not planned */
  size_t *bytes, *align;
  int *first, *last;
  uint32_t *mask;  /* allowed pools; overflow (npools) is always allowed */
  int *ov_with;    /* slot whose bytes this one may overlap (Buffer.overlap:
                      its root is an op's output, the other that op's
                      dying input), or -1 */
  int64_t *ov_max; /* how far above ov_with's offset it may start */
  int64_t *ov_mod; /* > 0: only exactly ov_max above, or at the same offset
                      when ov_max > 0 (ov_max then a multiple of the
                      modulus and the alignments) */
  int64_t *ov_min; /* also legal: at least this far above (INT64_MAX: not);
                      with a modulus exactly this far (a multiple of it) */
  int *cstart;     /* conflicts of i: clist[cstart[i] .. cstart[i+1]) */
  int *clist;
  size_t *limit;   /* npools + 1 entries, the last one SIZE_MAX */
  int npools;
  /* placement state */
  int *order;      /* position -> buffer */
  int *pos;        /* buffer -> position */
  size_t *off;
  int *pool;
  /* work space of lowest_fit() */
  size_t *span_off, *span_end;
} Problem;

static const Problem *sort_problem;

static int compare_first(const void *a, const void *b) {
  const Problem *P = sort_problem;
  int x = *(const int *)a, y = *(const int *)b;
  if (P->first[x] != P->first[y])
    return P->first[x] < P->first[y] ? -1 : 1;
  return (x > y) - (x < y);
}

/* Conflict lists by a sweep over the buffers in order of first step:
 * the active list holds those whose lifetime has not ended yet. */
static void build_conflicts(Problem *P) {
  int n = P->n;
  int *byfirst = arena_array((size_t)n + 1, sizeof(int));
  for (int i = 0; i < n; i++)
    byfirst[i] = i;
  sort_problem = P;
  qsort(byfirst, (size_t)n, sizeof(int), compare_first);
  int *count = arena_array((size_t)n + 1, sizeof(int));
  int *active = arena_array((size_t)n + 1, sizeof(int));
  /* Two passes: count, then fill. */
  for (int pass = 0; pass < 2; pass++) {
    int nactive = 0;
    int *fill = NULL;
    if (pass == 1) {
      P->cstart = arena_array((size_t)n + 1, sizeof(int));
      for (int i = 0; i < n; i++)
        P->cstart[i + 1] = P->cstart[i] + count[i];
      P->clist = arena_array((size_t)P->cstart[n] + 1, sizeof(int));
      fill = arena_array((size_t)n + 1, sizeof(int));
      for (int i = 0; i < n; i++)
        fill[i] = P->cstart[i];
    }
    for (int k = 0; k < n; k++) {
      int b = byfirst[k];
      int keep = 0;
      for (int j = 0; j < nactive; j++) {
        int a = active[j];
        if (P->last[a] < P->first[b])
          continue; /* ended: drop it */
        active[keep++] = a;
        if (pass == 0) {
          count[a]++;
          count[b]++;
        } else {
          P->clist[fill[a]++] = b;
          P->clist[fill[b]++] = a;
        }
      }
      nactive = keep;
      active[nactive++] = b;
    }
  }
}

/* The slot of buffer i: the root of its in-place chain. */
static int chain_root(const Buffer *bufs, int nbufs, int i) {
  for (int steps = 0; bufs[i].inplace_of >= 0; steps++) {
    const Buffer *b = &bufs[i], *a;
    if (b->inplace_of >= nbufs || steps > nbufs)
      die("buffer %d: bad inplace_of %d", i, b->inplace_of);
    a = &bufs[b->inplace_of];
    if (!is_planned(a) || a->bytes != b->bytes || a->pool_mask != b->pool_mask ||
        a->last != b->first)
      die("buffer %d cannot take over buffer %d in place (bytes %zu/%zu, "
          "steps %d-%d then %d-%d)",
          i, b->inplace_of, b->bytes, a->bytes, a->first, a->last, b->first,
          b->last);
    i = b->inplace_of;
  }
  return i;
}

static Problem *new_problem(const Buffer *bufs, int nbufs, const Pool *pools,
                            int npools) {
  Problem *P = arena_alloc(sizeof *P);
  P->slot = arena_array((size_t)nbufs + 1, sizeof(int));
  int n = 0;
  for (int i = 0; i < nbufs; i++) {
    P->slot[i] = -1;
    if (is_planned(&bufs[i]) && bufs[i].inplace_of < 0)
      P->slot[i] = n++; /* roots first, in buffer order */
  }
  for (int i = 0; i < nbufs; i++)
    if (is_planned(&bufs[i]) && bufs[i].inplace_of >= 0)
      P->slot[i] = P->slot[chain_root(bufs, nbufs, i)];
  P->n = n;
  size_t m = (size_t)n + 1;
  P->bytes = arena_array(m, sizeof(size_t));
  P->align = arena_array(m, sizeof(size_t));
  P->first = arena_array(m, sizeof(int));
  P->last = arena_array(m, sizeof(int));
  P->mask = arena_array(m, sizeof(uint32_t));
  P->ov_with = arena_array(m, sizeof(int));
  P->ov_max = arena_array(m, sizeof(int64_t));
  P->ov_mod = arena_array(m, sizeof(int64_t));
  P->ov_min = arena_array(m, sizeof(int64_t));
  P->order = arena_array(m, sizeof(int));
  P->pos = arena_array(m, sizeof(int));
  P->off = arena_array(m, sizeof(size_t));
  P->pool = arena_array(m, sizeof(int));
  P->span_off = arena_array(3 * m, sizeof(size_t));
  P->span_end = arena_array(3 * m, sizeof(size_t));
  uint32_t all = npools >= 32 ? 0xffffffffu : ((1u << npools) - 1);
  for (int k = 0; k < n; k++) {
    P->first[k] = INT32_MAX;
    P->last[k] = -1;
    P->ov_with[k] = -1;
  }
  for (int i = 0; i < nbufs; i++) {
    const Buffer *b = &bufs[i];
    int k = P->slot[i];
    if (k < 0)
      continue;
    if (b->align == 0 || (b->align & (b->align - 1)))
      die("buffer %d: alignment %zu is not a power of two", i, b->align);
    if (b->first < 0 || b->last < b->first)
      die("buffer %d: bad lifetime [%d, %d]", i, b->first, b->last);
    if (b->bytes > P->bytes[k])
      P->bytes[k] = b->bytes;
    if (b->align > P->align[k])
      P->align[k] = b->align;
    if (b->first < P->first[k])
      P->first[k] = b->first;
    if (b->last > P->last[k])
      P->last[k] = b->last;
    P->mask[k] = b->pool_mask ? (b->pool_mask & all) : all;
    if (b->overlap) {
      if (b->inplace_of >= 0 || b->overlap_of < 0 || b->overlap_of >= nbufs ||
          P->slot[b->overlap_of] < 0 || P->slot[b->overlap_of] == k)
        die("buffer %d cannot overlap buffer %d", i, b->overlap_of);
      P->ov_with[k] = P->slot[b->overlap_of];
      P->ov_max[k] = b->overlap_max;
      P->ov_mod[k] = b->overlap_mod;
      P->ov_min[k] = b->overlap_rev_ok ? b->overlap_min : INT64_MAX;
    }
  }
  /* With a modulus the pair may share bytes at the largest multiple of
   * the modulus and both alignments at or below ov_max, and at 0 when
   * that is above 0 (0 spans least). */
  for (int k = 0; k < n; k++) {
    int w = P->ov_with[k];
    if (w < 0 || P->ov_mod[k] <= 1)
      continue;
    int64_t al = (int64_t)(P->align[k] > P->align[w] ? P->align[k] : P->align[w]);
    P->ov_max[k] = usable_distance(P->ov_max[k], P->ov_mod[k], al, (int64_t)P->bytes[k]);
    if (P->ov_min[k] != INT64_MAX) /* the least multiple at or above */
      P->ov_min[k] = -usable_distance(-P->ov_min[k], P->ov_mod[k], al, INT64_MAX / 2);
  }
  /* A backward distance at or below the forward one adds nothing. */
  for (int k = 0; k < n; k++)
    if (P->ov_with[k] >= 0 && P->ov_min[k] <= P->ov_max[k])
      P->ov_min[k] = INT64_MAX;
  P->npools = npools;
  P->limit = arena_array((size_t)npools + 1, sizeof(size_t));
  for (int p = 0; p < npools; p++)
    P->limit[p] = pools[p].limit;
  P->limit[npools] = SIZE_MAX;
  build_conflicts(P);
  return P;
}

/* ------------------------------------------------------- placement */

/* Sorts spans by offset: insertion sort (a buffer's conflicts in one
 * pool are usually few), shell sort when they are many. */
static void sort_spans(size_t *off, size_t *end, int n) {
  static const int gaps[] = {701, 301, 132, 57, 23, 10, 4, 1};
  for (int g = 0; g < 8; g++) {
    int gap = gaps[g];
    if (gap >= n)
      continue;
    for (int i = gap; i < n; i++) {
      size_t o = off[i], e = end[i];
      int j = i;
      while (j >= gap && off[j - gap] > o) {
        off[j] = off[j - gap];
        end[j] = end[j - gap];
        j -= gap;
      }
      off[j] = o;
      end[j] = e;
    }
  }
}

/* Forbids offsets in the open interval (lo, hi) for a buffer of `need`
 * bytes: a span [lo + need, hi) as lowest_fit() reads them. */
static void forbid(Problem *P, int *ns, long long lo, long long hi, long long need) {
  if (hi <= 0 || hi - lo < 2)
    return; /* no offset >= 0 inside */
  long long off = lo + need;
  P->span_off[*ns] = (size_t)(off < 0 ? 0 : off);
  P->span_end[*ns] = (size_t)hi;
  (*ns)++;
}

/* The lowest offset in pool p where buffer b clears every conflicting
 * buffer already placed (position before b's); SIZE_MAX when it does not
 * fit under the pool's limit. */
static size_t lowest_fit(Problem *P, int b, int p) {
  int ns = 0;
  for (int k = P->cstart[b]; k < P->cstart[b + 1]; k++) {
    int c = P->clist[k];
    if (P->pos[c] >= P->pos[b] || P->pool[c] != p || P->bytes[c] == 0)
      continue;
    /* A span [off, end) forbids starting b in (off - bytes(b), end).  An
     * overlapping pair forbids less: output offset - input offset in
     * (d, input bytes), with d = ov_max (and never below -output bytes:
     * an output wholly below its input is always legal). */
    long long oc = (long long)P->off[c], cb = (long long)P->bytes[c];
    long long need = (long long)P->bytes[b];
    if (P->ov_with[b] == c) { /* b the output, c its input at oc */
      long long d = P->ov_max[b] < -need ? -need : P->ov_max[b];
      /* Backwards: from r up (with a modulus exactly r), when inside. */
      long long r = P->ov_min[b] < cb ? P->ov_min[b] : cb;
      if (P->ov_mod[b] > 1 && d > 0) { /* only exactly oc or oc + d */
        forbid(P, &ns, oc - need, oc, need);
        forbid(P, &ns, oc, oc + d, need);
      } else if (P->ov_mod[b] > 1) { /* only exactly oc + d */
        forbid(P, &ns, oc - need, oc + d, need);
      }
      forbid(P, &ns, oc + d, oc + r, need);
      if (P->ov_mod[b] > 1 && r < cb)
        forbid(P, &ns, oc + r, oc + cb, need);
    } else if (P->ov_with[c] == b) { /* b the input, c its output at oc */
      long long d = P->ov_max[c] < -cb ? -cb : P->ov_max[c];
      long long r = P->ov_min[c] < need ? P->ov_min[c] : need;
      forbid(P, &ns, oc - r, oc - d, need);
      if (P->ov_mod[c] > 1 && r < need)
        forbid(P, &ns, oc - need, oc - r, need);
      if (P->ov_mod[c] > 1 && d > 0) { /* only exactly oc - d or oc */
        forbid(P, &ns, oc - d, oc, need);
        forbid(P, &ns, oc, oc + cb, need);
      } else if (P->ov_mod[c] > 1) { /* only exactly oc - d */
        forbid(P, &ns, oc - d, oc + cb, need);
      }
    } else {
      forbid(P, &ns, oc - need, oc + cb, need);
    }
  }
  sort_spans(P->span_off, P->span_end, ns);
  size_t cand = 0, need = P->bytes[b];
  for (int i = 0; i < ns; i++) {
    if (P->span_off[i] >= cand && P->span_off[i] - cand >= need)
      break; /* the gap below span i holds b */
    if (P->span_end[i] > cand)
      cand = align_up(P->span_end[i], P->align[b]);
  }
  if (cand > P->limit[p] || P->limit[p] - cand < need)
    return SIZE_MAX;
  return cand;
}

/* Places the buffers at positions from..n-1 of P->order (those before
 * stay where they are). */
static void place_from(Problem *P, int from) {
  for (int k = from; k < P->n; k++) {
    int b = P->order[k];
    for (int p = 0; p <= P->npools; p++) {
      if (p < P->npools && !(P->mask[b] >> p & 1))
        continue;
      size_t o = lowest_fit(P, b, p);
      if (o != SIZE_MAX) {
        P->off[b] = o;
        P->pool[b] = p;
        break;
      }
    }
  }
}

/* Cost of the current placement: bytes beyond the pools (the overflow
 * area), then all pools' used bytes summed. */
typedef struct {
  size_t missing, bytes;
} Cost;

static Cost cost_of(const Problem *P, size_t *used) {
  for (int p = 0; p <= P->npools; p++)
    used[p] = 0;
  for (int b = 0; b < P->n; b++) {
    size_t end = P->off[b] + P->bytes[b];
    if (end > used[P->pool[b]])
      used[P->pool[b]] = end;
  }
  Cost c = {used[P->npools], 0};
  for (int p = 0; p < P->npools; p++)
    c.bytes = sum(c.bytes, used[p]);
  return c;
}

static bool better(Cost a, Cost b) {
  return a.missing != b.missing ? a.missing < b.missing : a.bytes < b.bytes;
}

static void set_order(Problem *P, const int *order) {
  for (int k = 0; k < P->n; k++) {
    P->order[k] = order[k];
    P->pos[order[k]] = k;
  }
}

/* Linear: every buffer above the previous ones of its pool (id order). */
static void place_linear(Problem *P) {
  size_t *top = arena_array((size_t)P->npools + 1, sizeof(size_t));
  for (int b = 0; b < P->n; b++) {
    P->order[b] = b;
    P->pos[b] = b;
    for (int p = 0; p <= P->npools; p++) {
      if (p < P->npools && !(P->mask[b] >> p & 1))
        continue;
      size_t o = align_up(top[p], P->align[b]);
      if (o <= P->limit[p] && P->limit[p] - o >= P->bytes[b]) {
        P->off[b] = o;
        P->pool[b] = p;
        top[p] = o + P->bytes[b];
        break;
      }
    }
  }
}

/* Sort keys of the greedy orders. */
static size_t *sort_key1, *sort_key2;

static int compare_keys(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  if (sort_key1[x] != sort_key1[y])
    return sort_key1[x] > sort_key1[y] ? -1 : 1;
  if (sort_key2 && sort_key2[x] != sort_key2[y])
    return sort_key2[x] > sort_key2[y] ? -1 : 1;
  return (x > y) - (x < y);
}

/* The footprint used for ordering: bytes rounded up to the alignment
 * (TFLite Micro sorts by the aligned size). */
static size_t footprint(const Problem *P, int b) {
  return align_up(P->bytes[b], P->align[b]);
}

static int *greedy_size_order(const Problem *P) {
  int *order = arena_array((size_t)P->n + 1, sizeof(int));
  size_t *k1 = arena_array((size_t)P->n + 1, sizeof(size_t));
  for (int b = 0; b < P->n; b++) {
    order[b] = b;
    k1[b] = footprint(P, b);
  }
  sort_key1 = k1;
  sort_key2 = NULL;
  qsort(order, (size_t)P->n, sizeof(int), compare_keys);
  return order;
}

static int *greedy_conflicts_order(const Problem *P) {
  int *order = arena_array((size_t)P->n + 1, sizeof(int));
  size_t *k1 = arena_array((size_t)P->n + 1, sizeof(size_t));
  size_t *k2 = arena_array((size_t)P->n + 1, sizeof(size_t));
  for (int b = 0; b < P->n; b++) {
    order[b] = b;
    k1[b] = (size_t)(P->cstart[b + 1] - P->cstart[b]);
    k2[b] = footprint(P, b);
  }
  sort_key1 = k1;
  sort_key2 = k2;
  qsort(order, (size_t)P->n, sizeof(int), compare_keys);
  return order;
}

/* Latest first step first (ties: larger, then lower id).  An output
 * may overlap its input only at or below it (Buffer.overlap_max <= 0 on
 * most kernels), so a chain of overlapping ops drifts downwards; placed
 * from its end, each input settles just above its output's at the
 * lowest offset, instead of the chain's first buffer taking offset 0
 * and leaving its successors no room below it. */
static int *reverse_order(const Problem *P) {
  int *order = arena_array((size_t)P->n + 1, sizeof(int));
  size_t *k1 = arena_array((size_t)P->n + 1, sizeof(size_t));
  size_t *k2 = arena_array((size_t)P->n + 1, sizeof(size_t));
  for (int b = 0; b < P->n; b++) {
    order[b] = b;
    k1[b] = (size_t)P->first[b];
    k2[b] = footprint(P, b);
  }
  sort_key1 = k1;
  sort_key2 = k2;
  qsort(order, (size_t)P->n, sizeof(int), compare_keys);
  return order;
}

/* A small fixed-seed generator (xorshift64*): same seed, same search. */
static uint64_t next_random(uint64_t *s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 2685821657736338717ull;
}

static int random_below(uint64_t *s, int n) {
  return (int)(next_random(s) % (uint64_t)n);
}

/* Moves the buffer at position from to position to (to < from). */
static void move_earlier(Problem *P, int from, int to) {
  int b = P->order[from];
  for (int k = from; k > to; k--) {
    P->order[k] = P->order[k - 1];
    P->pos[P->order[k]] = k;
  }
  P->order[to] = b;
  P->pos[b] = to;
}

/* The iteration budget: a fixed number of re-placements, fewer for large
 * problems so that a 5,000-op graph plans well under a second.  It
 * depends only on the problem's size: the result is deterministic. */
int plan_search_iterations;

/* The search stops after this many iterations without a new best. */
#define SEARCH_PATIENCE 600

static int search_iterations(const Problem *P) {
  if (plan_search_iterations > 0)
    return plan_search_iterations;
  long work = (long)P->n + P->cstart[P->n]; /* buffers + conflict pairs */
  long it = 40000000L / (work * 4 + 1);
  if (it > 3000)
    it = 3000;
  /* At least a few moves; dense conflicts (a concatenation of hundreds
   * of branches: every re-placement sorts hundreds of neighbours) get
   * the fewest. */
  if (it < 10)
    it = 10;
  return (int)it;
}

/* Hill climbing over placement orders from `seed`; leaves the best
 * placement found in P. */
static void place_search(Problem *P, const int *seed, size_t lower_bound) {
  int n = P->n;
  size_t *used = arena_array((size_t)P->npools + 1, sizeof(size_t));
  int *best_order = arena_array((size_t)n + 1, sizeof(int));
  int *saved_order = arena_array((size_t)n + 1, sizeof(int));
  size_t *saved_off = arena_array((size_t)n + 1, sizeof(size_t));
  int *saved_pool = arena_array((size_t)n + 1, sizeof(int));
  int *tops = arena_array((size_t)n + 1, sizeof(int));

  set_order(P, seed);
  place_from(P, 0);
  Cost cur = cost_of(P, used), best = cur;
  memcpy(best_order, P->order, (size_t)n * sizeof(int));
  uint64_t rng = 0x9e3779b97f4a7c15ull;
  int iters = n < 2 ? 0 : search_iterations(P);

  int since_better = 0;
  for (int it = 0; it < iters; it++, since_better++) {
    if (best.missing == 0 && best.bytes <= lower_bound)
      break; /* cannot do better than the lower bound */
    if (since_better > SEARCH_PATIENCE)
      break; /* stuck: more of the same is unlikely to help */
    /* Pick the move. */
    int from, to;
    if (next_random(&rng) % 4 != 0) {
      /* A buffer touching the peak: a top buffer (its end is its pool's
       * used) or one of its conflicts, moved earlier. */
      int ntops = 0;
      for (int b = 0; b < n; b++)
        if (P->bytes[b] > 0 && P->off[b] + P->bytes[b] == used[P->pool[b]] &&
            (P->pool[b] == P->npools || cur.missing == 0))
          tops[ntops++] = b;
      if (ntops == 0)
        continue;
      int t = tops[random_below(&rng, ntops)];
      int nc = P->cstart[t + 1] - P->cstart[t];
      int x = t;
      int pick = random_below(&rng, nc + 1);
      if (pick < nc)
        x = P->clist[P->cstart[t] + pick];
      from = P->pos[x];
      if (from == 0)
        continue;
      to = random_below(&rng, from);
    } else {
      from = 1 + random_below(&rng, n - 1);
      to = random_below(&rng, from);
    }
    /* Save what the re-placement overwrites, move, re-place. */
    for (int k = to; k < n; k++) {
      int b = P->order[k];
      saved_order[k] = b;
      saved_off[b] = P->off[b];
      saved_pool[b] = P->pool[b];
    }
    move_earlier(P, from, to);
    place_from(P, to);
    Cost c = cost_of(P, used);
    if (!better(cur, c)) { /* not worse: keep (plateaus are explored) */
      cur = c;
      if (better(c, best)) {
        best = c;
        since_better = 0;
        memcpy(best_order, P->order, (size_t)n * sizeof(int));
      }
    } else {
      for (int k = to; k < n; k++) {
        int b = saved_order[k];
        P->order[k] = b;
        P->pos[b] = k;
        P->off[b] = saved_off[b];
        P->pool[b] = saved_pool[b];
      }
      cost_of(P, used);
    }
  }
  set_order(P, best_order);
  place_from(P, 0);
}

/* Processor time (standard C): reported, never used for decisions. */
static double now_seconds(void) { return (double)clock() / CLOCKS_PER_SEC; }

/* Runs algorithm a on P; returns its cost and leaves the placement in P. */
static Cost run_algo(Problem *P, int a, const int **seeds, size_t lb) {
  size_t *used = arena_array((size_t)P->npools + 1, sizeof(size_t));
  switch (a) {
  case 0:
    place_linear(P);
    break;
  case 1:
  case 2:
    set_order(P, seeds[a - 1]);
    place_from(P, 0);
    break;
  case 3: {
    /* Seed with the best greedy order (the earlier on a tie); with
     * overlapping buffers the latest-first order too. */
    Cost c[3];
    int nseeds = seeds[2] ? 3 : 2, pick = 0;
    for (int i = 0; i < nseeds; i++) {
      set_order(P, seeds[i]);
      place_from(P, 0);
      c[i] = cost_of(P, used);
      if (better(c[i], c[pick]))
        pick = i;
    }
    place_search(P, seeds[pick], lb);
    break;
  }
  default:
    unreachable();
  }
  return cost_of(P, used);
}

int place_buffers(Buffer *bufs, int nbufs, Pool *pools, int npools,
                  const char *algo, AlgoResult *results, int *nresults) {
  if (npools < 1 || npools > MAX_POOLS)
    die("%d pools (1 to %d)", npools, MAX_POOLS);
  if (!algo)
    algo = "best";
  Problem *P = new_problem(bufs, nbufs, pools, npools);
  size_t lb = overlap_lower_bound(bufs, nbufs);
  bool overlaps = false;
  for (int k = 0; k < P->n; k++)
    overlaps |= P->ov_with[k] >= 0;
  const int *seeds[3] = {greedy_size_order(P), greedy_conflicts_order(P),
                         overlaps ? reverse_order(P) : NULL};

  int n = P->n;
  size_t *best_off = arena_array((size_t)n + 1, sizeof(size_t));
  int *best_pool = arena_array((size_t)n + 1, sizeof(int));
  int kept = -1;
  Cost best = {0, 0};
  *nresults = 0;
  for (int a = 0; a < PLAN_NALGOS; a++) {
    if (strcmp(algo, "best") && strcmp(algo, plan_algo_names[a]))
      continue;
    double t0 = now_seconds();
    Cost c = run_algo(P, a, seeds, lb);
    AlgoResult *r = &results[(*nresults)++];
    r->algo = plan_algo_names[a];
    r->bytes = c.bytes;
    r->missing = c.missing;
    r->seconds = now_seconds() - t0;
    if (kept < 0 || better(c, best)) {
      kept = *nresults - 1;
      best = c;
      memcpy(best_off, P->off, (size_t)n * sizeof(size_t));
      memcpy(best_pool, P->pool, (size_t)n * sizeof(int));
    }
  }
  if (kept < 0)
    die("unknown planning algorithm '%s'", algo);

  for (int p = 0; p < npools; p++)
    pools[p].used = 0;
  for (int i = 0; i < nbufs; i++) {
    int b = P->slot[i];
    if (b < 0)
      continue;
    Buffer *B = &bufs[i];
    B->offset = best_off[b];
    B->pool = best_pool[b] < npools ? best_pool[b] : -1;
    if (B->pool >= 0 && B->offset + B->bytes > pools[B->pool].used)
      pools[B->pool].used = B->offset + B->bytes;
  }
  /* A pair sharing bytes above its forward distance runs backwards. */
  for (int i = 0; i < nbufs; i++) {
    Buffer *C = &bufs[i];
    C->overlap_rev = false;
    if (!C->overlap || P->slot[i] < 0 || C->overlap_of < 0 || C->overlap_of >= nbufs)
      continue;
    const Buffer *A = &bufs[C->overlap_of];
    int64_t d = (int64_t)C->offset - (int64_t)A->offset;
    C->overlap_rev = C->overlap_rev_ok && A->pool == C->pool && d > C->overlap_max &&
                     d > -(int64_t)C->bytes && d < (int64_t)A->bytes;
  }
  return kept;
}

/* ------------------------------------------------ the Graph's plan */

static Pool default_pool = {"workspace", SIZE_MAX, 0};

/* Plans g in `order` (storage, lifetimes, in place, placement, the
 * persistent area); the result may miss bytes (not checked yet). */
static Plan *plan_in_order(Graph *g, const PlanOptions *opt, int *order,
                           int norder, const char *schedule) {
  Plan *p = arena_alloc(sizeof *p);
  p->io_in_workspace = opt->io_in_workspace;
  p->npools = opt->npools > 0 ? opt->npools : 1;
  if (p->npools > MAX_POOLS)
    die("%d pools (at most %d)", p->npools, MAX_POOLS);
  p->pools = arena_array((size_t)p->npools, sizeof(Pool));
  for (int i = 0; i < p->npools; i++) {
    p->pools[i] = opt->npools > 0 ? opt->pools[i] : default_pool;
    p->pools[i].used = 0;
  }
  p->schedule = schedule;
  p->order = order;
  p->norder = norder;
  p->nsteps = p->norder > 0 ? p->norder : 1;
  assign_storage(g, p, opt);
  set_lifetimes(g, p);
  if (!opt->no_inplace)
    mark_inplace(g, p);
  if (!opt->no_overlap)
    mark_overlaps(g, p);
  p->lower_bound = live_lower_bound(p->bufs, p->nbufs, &p->peak_step);
  p->overlap_bound = overlap_lower_bound(p->bufs, p->nbufs);

  int kept = place_buffers(p->bufs, p->nbufs, p->pools, p->npools, opt->algo,
                           p->results, &p->nresults);
  p->algo = p->results[kept].algo;
  for (int i = 0; i < p->npools; i++)
    p->workspace_bytes = sum(p->workspace_bytes, p->pools[i].used);

  /* The persistent area: variables one after another. */
  size_t top = 0;
  for (int i = 0; i < p->nbufs; i++) {
    Buffer *b = &p->bufs[i];
    if (!b->persistent)
      continue;
    b->offset = align_up(top, b->align);
    top = sum(b->offset, b->bytes);
  }
  p->persistent_bytes = top;
  return p;
}

static size_t missing_of(const Plan *p) {
  for (int i = 0; i < p->nresults; i++)
    if (p->results[i].algo == p->algo)
      return p->results[i].missing;
  unreachable();
}

Plan *plan_graph(Graph *g, const PlanOptions *opt_in) {
  PlanOptions opt = {0};
  if (opt_in)
    opt = *opt_in;
  if (opt.align == 0)
    opt.align = 16;
  if (opt.align & (opt.align - 1))
    die("alignment %zu is not a power of two", opt.align);
  if (!opt.algo)
    opt.algo = "best";
  if (!is_plan_algo(opt.algo))
    die("unknown planning algorithm '%s'", opt.algo);
  if (!opt.schedule)
    opt.schedule = "best";
  if (!is_schedule_name(opt.schedule))
    die("unknown schedule '%s'", opt.schedule);

  /* A patched run's ops read and write nothing of their own but must stay
   * in order around the op that runs them all: the model order. */
  for (int i = 0; i < g->nops; i++)
    if (g->ops[i].lowered && op_lowered(&g->ops[i])->patch)
      opt.schedule = "model";

  /* The model order first; then "memory" takes the memory order, and
   * "best" plans it too when its peak is lower and keeps whichever plan
   * is smaller (the model order on a tie). */
  int norder;
  int *order = model_order(g, &norder);
  Plan *p = plan_in_order(g, &opt, order, norder, "model");
  size_t model_bytes = p->workspace_bytes, model_missing = missing_of(p);
  /* Control flow (IF, WHILE) keeps the model order: its structure ops
   * bracket the steps of branches and loops. */
  if (strcmp(opt.schedule, "model") != 0 && g->nops > 0 && /* no ops: one order */
      !has_control_flow(g)) {
    size_t peak;
    int *mem = memory_order(g, p, !opt.no_inplace, &peak);
    if (!strcmp(opt.schedule, "memory") || peak < p->lower_bound) {
      Plan *q = plan_in_order(g, &opt, mem, norder, "memory");
      if (q->lower_bound != peak)
        die("the memory order's peak is %zu bytes, its lifetimes say %zu",
            peak, q->lower_bound);
      size_t qm = missing_of(q);
      bool smaller = qm != model_missing ? qm < model_missing
                                         : q->workspace_bytes < model_bytes;
      /* Either plan's storage ids are the same (assign_storage does not
       * depend on the order), so Tensor.storage fits both. */
      if (!strcmp(opt.schedule, "memory") || smaller)
        p = q;
    }
  }
  p->model_order_bytes = model_bytes;

  size_t missing = missing_of(p);
  p->missing = missing;
  if (missing > 0 && opt.may_miss)
    return p;
  if (missing > 0) {
    char *pools = "";
    for (int i = 0; i < p->npools; i++) {
      pools = arena_printf("%s%s%s %zu", pools, i ? ", " : "",
                           p->pools[i].name, p->pools[i].limit);
    }
    int op = p->norder > 0 ? p->order[p->peak_step] : -1;
    error_at(g, op,
             "the memory plan does not fit: %zu bytes missing (pools, bytes: "
             "%s); the largest live set, %zu bytes, is at step %d (this op)",
             missing, pools, p->lower_bound, p->peak_step);
  }

  const char *why = check_plan(g, p);
  if (why)
    die("%s: the memory plan (%s) fails its check: %s", g->path ? g->path : "",
        p->algo, why);
  return p;
}
