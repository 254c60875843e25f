/* SPDX-License-Identifier: Apache-2.0 */
/*
 * check.c - the independent checker of memory plans.
 *
 * Written apart from the algorithms in plan.c and sharing nothing with
 * them: it trusts no lifetime, offset or size the planner computed, only
 * the graph, the schedule and the final offsets.  Every plan tinyaot
 * produces goes through check_plan(); a plan it rejects is a compiler bug.
 *
 * check_buffers() proves, by comparing every pair of buffers (simple
 * rather than fast: O(n^2) on a few thousand buffers is milliseconds):
 *   - every offset is a multiple of its buffer's alignment;
 *   - every planned buffer lies inside its pool: offset + bytes <= used
 *     <= limit;
 *   - no two buffers of one pool whose lifetimes overlap (both inclusive)
 *     share a byte, except a buffer taking over another in place
 *     (inplace_of), which must then sit exactly on it (same pool, offset
 *     and size) and begin at the very step the other ends;
 *   - persistent buffers are pairwise disjoint and inside the persistent
 *     area.
 * check_plan() recomputes from the graph what must be live when, and
 * proves that each buffer is live at least then and is large enough, and
 * that every in-place pair is one the op's lowering allows, its input
 * read by nothing after the op and written by nothing before it.
 * Inside a loop (WHILE ... END_WHILE), a tensor that exists before the
 * loop and is read in it must live to the loop's end (loop_needs(),
 * derived from the structure ops, not from the planner's lifetimes).
 * check_outputs_written() proves that every byte of every model output
 * is written by the run function (below).
 */
#include "tinyaot.h"

#include <string.h>

static bool ends_after(size_t offset, size_t bytes, size_t limit) {
  return offset > limit || bytes > limit - offset;
}

static bool bytes_overlap(size_t a_off, size_t a_bytes, size_t b_off,
                          size_t b_bytes) {
  if (a_bytes == 0 || b_bytes == 0)
    return false;
  /* [a_off, a_off + a_bytes) and [b_off, b_off + b_bytes) intersect. */
  return a_off < b_off ? b_off - a_off < a_bytes : a_off - b_off < b_bytes;
}

static bool times_overlap(const Buffer *a, const Buffer *b) {
  return a->first <= b->last && b->first <= a->last;
}

/* May buffers i and j share bytes as an overlapping pair: j written by
 * the op at the step where i is last read, in the same pool?  Whether
 * the op's loop order makes the shared bytes safe is check_plan()'s
 * business (check_overlap()): it needs the graph. */
static bool overlap_pair(const Buffer *bufs, int i, int j) {
  const Buffer *a = &bufs[i], *b = &bufs[j];
  return b->overlap && b->overlap_of == i && a->pool == b->pool &&
         a->last == b->first;
}

/* Does buffer j take over buffer i in place, exactly on its bytes? */
static bool exact_takeover(const Buffer *bufs, int i, int j) {
  const Buffer *a = &bufs[i], *b = &bufs[j];
  return b->inplace_of == i && a->pool == b->pool && a->offset == b->offset &&
         a->bytes == b->bytes && a->last == b->first;
}

const char *check_buffers(const Buffer *bufs, int nbufs, const Pool *pools,
                          int npools, size_t persistent_bytes) {
  for (int p = 0; p < npools; p++)
    if (pools[p].used > pools[p].limit)
      return arena_printf("pool %s uses %zu bytes, more than its limit %zu",
                          pools[p].name, pools[p].used, pools[p].limit);
  for (int i = 0; i < nbufs; i++) {
    const Buffer *b = &bufs[i];
    if (b->align == 0 || (b->align & (b->align - 1)) != 0)
      return arena_printf("buffer %d has alignment %zu, not a power of two",
                          i, b->align);
    if (b->first < 0 || b->first > b->last)
      return arena_printf("buffer %d has an empty lifetime [%d, %d]", i,
                          b->first, b->last);
    if (b->inplace_of >= 0) {
      int a = b->inplace_of;
      if (a >= nbufs || a == i || b->external || b->persistent ||
          bufs[a].external || bufs[a].persistent)
        return arena_printf("buffer %d takes over buffer %d in place, which "
                            "cannot be", i, a);
      if (!exact_takeover(bufs, a, i))
        return arena_printf("buffer %d [%zu, +%zu) steps %d-%d in pool %d "
                            "does not sit exactly on buffer %d [%zu, +%zu) "
                            "steps %d-%d in pool %d, which it takes over",
                            i, b->offset, b->bytes, b->first, b->last, b->pool,
                            a, bufs[a].offset, bufs[a].bytes, bufs[a].first,
                            bufs[a].last, bufs[a].pool);
    }
    if (b->overlap) {
      int a = b->overlap_of;
      if (a < 0 || a >= nbufs || a == i || b->inplace_of >= 0 || b->external ||
          b->persistent || bufs[a].external || bufs[a].persistent)
        return arena_printf("buffer %d overlaps buffer %d, which cannot be", i,
                            a);
      if (bufs[a].last != b->first)
        return arena_printf("buffer %d steps %d-%d overlaps buffer %d steps "
                            "%d-%d, which does not end where it begins", i,
                            b->first, b->last, a, bufs[a].first, bufs[a].last);
    }
    if (b->external) {
      if (b->pool != -1)
        return arena_printf("external buffer %d is in pool %d", i, b->pool);
      continue;
    }
    if (b->offset % b->align != 0)
      return arena_printf("buffer %d at offset %zu is not aligned to %zu", i,
                          b->offset, b->align);
    if (b->persistent) {
      if (b->pool != -1)
        return arena_printf("persistent buffer %d is in pool %d", i, b->pool);
      if (ends_after(b->offset, b->bytes, persistent_bytes))
        return arena_printf("persistent buffer %d [%zu, +%zu) ends after the "
                            "persistent area (%zu bytes)",
                            i, b->offset, b->bytes, persistent_bytes);
      continue;
    }
    if (b->pool < 0 || b->pool >= npools)
      return arena_printf("buffer %d is in no pool (%d)", i, b->pool);
    const Pool *pool = &pools[b->pool];
    if (b->pool_mask && !(b->pool_mask >> b->pool & 1))
      return arena_printf("buffer %d is in pool %s, which it may not use", i,
                          pool->name);
    if (ends_after(b->offset, b->bytes, pool->used))
      return arena_printf("buffer %d [%zu, +%zu) ends after pool %s (%zu "
                          "bytes used)",
                          i, b->offset, b->bytes, pool->name, pool->used);
  }
  for (int i = 0; i < nbufs; i++) {
    const Buffer *a = &bufs[i];
    if (a->external)
      continue;
    for (int j = i + 1; j < nbufs; j++) {
      const Buffer *b = &bufs[j];
      if (b->external || a->persistent != b->persistent)
        continue;
      if (!a->persistent && (a->pool != b->pool || !times_overlap(a, b)))
        continue;
      if (!a->persistent && (exact_takeover(bufs, i, j) || exact_takeover(bufs, j, i)))
        continue;
      if (!a->persistent && (overlap_pair(bufs, i, j) || overlap_pair(bufs, j, i)))
        continue; /* proved against the op's access pattern: check_overlap() */
      if (bytes_overlap(a->offset, a->bytes, b->offset, b->bytes))
        return arena_printf(
            "buffers %d [%zu, +%zu) steps %d-%d and %d [%zu, +%zu) steps "
            "%d-%d share bytes%s",
            i, a->offset, a->bytes, a->first, a->last, j, b->offset, b->bytes,
            b->first, b->last, a->persistent ? " of the persistent area" : "");
    }
  }
  return NULL;
}

/* ------------------------------------------------- against the graph */

static const char *tensor_label(const Graph *g, int t) {
  const char *name = g->tensors[t].name;
  return arena_printf("tensor %d (%s)", t, name ? name : "?");
}

/* Widens [*lo, *hi] to hold step s. */
static void need_at(int *lo, int *hi, int s) {
  if (*lo < 0 || s < *lo)
    *lo = s;
  if (s > *hi)
    *hi = s;
}

/*
 * Every byte of every model output position is written by the run
 * function: the output is (a view of) a tensor that a scheduled op with a
 * kernel writes whole, into a buffer at least its size that lives to the
 * last step; or it holds bytes that exist before the run and that the
 * run function copies into the output at its end (emit.c,
 * copy_aliased_output): a constant, a model input, or - with inputs and
 * outputs in caller buffers - a tensor an earlier position already lists.
 * Inside the workspace, positions sharing a tensor share its bytes
 * (<prefix>_io() points them at one place), so writing it once writes
 * all.  What no op, input or constant gives is refused before planning
 * (verify.c: "is never produced"); finding it here is a compiler bug.
 */
static const char *check_outputs_written(const Graph *g, const Plan *p,
                                         const int *step_of) {
  for (int i = 0; i < g->noutputs; i++) {
    int t = g->outputs[i];
    if (t < 0 || t >= g->ntensors)
      return arena_printf("model output %d is tensor %d, out of range", i, t);
    const Tensor *x = &g->tensors[t];
    int w = x->view_of >= 0 ? x->view_of : t; /* whose bytes they are */
    if (is_const(x) || is_const(&g->tensors[w]) || g->tensors[w].is_input)
      continue; /* copied at the end, or the input's bytes in place */
    int o = g->tensors[w].producer;
    if (o < 0 || o >= g->nops || step_of[o] < 0)
      return arena_printf("model output %d (%s) is written by no scheduled op",
                          i, tensor_label(g, t));
    const Op *op = &g->ops[o];
    bool writes = false;
    for (int k = 0; k < op->noutputs; k++)
      writes |= op->outputs[k] == w;
    /* (A graph planned without lowering, as the planner's own tests do,
     * has no calls to check.) */
    if (!writes || (op->lowered && !op_lowered(op)->kernel))
      return arena_printf("model output %d (%s): op %d, its producer, makes "
                          "no call that writes it", i, tensor_label(g, t), o);
    int id = x->storage;
    if (id < 0 || id >= p->nbufs || p->bufs[id].bytes < tensor_bytes(x) ||
        p->bufs[id].last != p->nsteps - 1)
      return arena_printf("model output %d (%s) has no buffer of its size "
                          "living to the last step", i, tensor_label(g, t));
  }
  return NULL;
}

/*
 * An overlapping pair: output buffer C (at c) over input buffer A (at a)
 * of one op.  Proved here from the op's declared access pattern
 * (Lowered.overlap) and the two tensors' shapes alone, never from the
 * planner's distance: the output's pixels (N*OH*OW, OC elements each)
 * are written in blocks of B pixels in order, each block after its
 * pixels' windows are read, so when a block is written every input byte
 * still to be read lies at or above the lowest byte any later pixel's
 * window touches.  The block's bytes [c + i*opix, c + e*opix) must miss
 * [a + that lowest byte, a + input bytes), for every block size the
 * kernel may use.  A kernel writing a block while still reading its
 * own windows (own_reads) must keep clear of the block's own lowest
 * byte instead.  A pair the plan runs backwards (Buffer.overlap_rev:
 * the op's backward kernel) is proved the other way round: blocks from
 * the last to the first, each written above the end of what the earlier
 * pixels' windows read.  A declared view regroups the same elements of
 * both tensors into the NHWC shapes the pattern walks.
 */
#define NO_READ INT64_MAX

/* The lowest byte (from the input's base) that output pixel (n, oy, ox)'s
 * window reads: its first tap inside the input, rows then columns. */
static int64_t window_low(const OverlapDecl *d, int64_t n, int64_t oy,
                          int64_t ox, int64_t H, int64_t W, int64_t ipix) {
  for (int64_t ky = 0; ky < d->kh; ky++) {
    int64_t iy = oy * d->sh - d->ph + ky * d->dh;
    if (iy < 0 || iy >= H)
      continue;
    for (int64_t kx = 0; kx < d->kw; kx++) {
      int64_t ix = ox * d->sw - d->pw + kx * d->dw;
      if (ix >= 0 && ix < W)
        return ((n * H + iy) * W + ix) * ipix;
    }
  }
  return NO_READ;
}

/* The end (one past the highest byte, from the input's base) of what
 * output pixel (n, oy, ox)'s window reads: its last tap inside the
 * input; 0 when it reads nothing. */
static int64_t window_high(const OverlapDecl *d, int64_t n, int64_t oy,
                           int64_t ox, int64_t H, int64_t W, int64_t ipix) {
  for (int64_t ky = d->kh - 1; ky >= 0; ky--) {
    int64_t iy = oy * d->sh - d->ph + ky * d->dh;
    if (iy < 0 || iy >= H)
      continue;
    for (int64_t kx = d->kw - 1; kx >= 0; kx--) {
      int64_t ix = ox * d->sw - d->pw + kx * d->dw;
      if (ix >= 0 && ix < W)
        return ((n * H + iy) * W + ix + 1) * ipix;
    }
  }
  return 0;
}

/*
 * A patched run (passes/patch.c, doc/memory-plan.md 2d), re-derived from
 * the graph alone: the band table's output rows of the last op cover its
 * rows once each; each op's rows, worked back from them with the op's
 * own stride, dilation, filter height and padding (computed here, not
 * read from the lowering), are exactly the rows the run records (those
 * the calls use); every band buffer holds its op's largest band; the
 * buffers an op's call touches (its input band, its output band, the
 * kernels' scratch) are apart and inside the op's scratch buffer.
 */
static const char *patch_rows_derived(const Graph *g, const PatchRun *r, int b,
                                      int j, int32_t a, int32_t e, int32_t *r0,
                                      int32_t *r1) {
  const Op *op = &g->ops[r->ops[j]];
  const Tensor *in = &g->tensors[r->in_t[j]], *out = &g->tensors[r->out_t[j]];
  const Tensor *w = &g->tensors[r->w_t[j]];
  if (in->ndims != 4 || out->ndims != 4 || w->ndims != 4)
    return arena_printf("op %d of a patched run is not over NHWC tensors", r->ops[j]);
  int64_t H = in->dims[1], OH = out->dims[1], kh = w->dims[1];
  int64_t sh = op->opt.stride_h, dh = op->opt.dilation_h, ph = 0;
  if (sh < 1 || dh < 1)
    return arena_printf("op %d of a patched run has stride %lld, dilation %lld",
                        r->ops[j], (long long)sh, (long long)dh);
  if (op->opt.padding == PAD_SAME) {
    int64_t total = (OH - 1) * sh + (kh - 1) * dh + 1 - H;
    ph = total > 0 ? total / 2 : 0;
  }
  if (a < 0 || e > OH || a >= e)
    return arena_printf("band %d of op %d's patched run has output rows %d-%d of %lld",
                        b, r->ops[j], (int)a, (int)e - 1, (long long)OH);
  int64_t lo = (int64_t)a * sh - ph, hi = (int64_t)(e - 1) * sh - ph + (kh - 1) * dh + 1;
  *r0 = (int32_t)(lo < 0 ? 0 : lo);
  *r1 = (int32_t)(hi > H ? H : hi);
  return NULL;
}

static bool ranges_meet(int64_t a0, int64_t a1, int64_t b0, int64_t b1) {
  return a0 < b1 && b0 < a1;
}

static const char *check_patch(const Graph *g, const Plan *p, int o) {
  const Op *op = &g->ops[o];
  const PatchRun *r = op_lowered(op)->patch;
  int n = r->nops;
  if (n < 2 || r->nbands < 1 || r->ops[n - 1] != o)
    return arena_printf("op %d's patched run has %d ops and %d bands", o, n, r->nbands);
  for (int j = 0; j < n; j++) {
    int i = r->ops[j];
    if (i < 0 || i >= g->nops || (j > 0 && r->in_t[j] != r->out_t[j - 1]))
      return arena_printf("op %d's patched run is not a chain at its op %d", o, j);
    const Lowered *l = op_lowered(&g->ops[i]);
    if (!l || l->patch != r || l->patch_end != (j == n - 1) ||
        (j < n - 1 && (g->ops[i].ninputs || g->ops[i].noutputs)))
      return arena_printf("op %d is in op %d's patched run but not marked so", i, o);
  }
  if (op->ninputs < 1 || op->inputs[0] != r->in_t[0] || op->noutputs < 1 ||
      op->outputs[0] != r->out_t[n - 1])
    return arena_printf("op %d, a patched run, does not read its input t%d and "
                        "write its output t%d", o, r->in_t[0], r->out_t[n - 1]);
  int64_t OH = g->tensors[r->out_t[n - 1]].dims[1];
  int *seen = arena_array((size_t)OH + 1, sizeof(int));
  for (int b = 0; b < r->nbands; b++) {
    const PatchRows *last = &r->rows[(size_t)b * n + n - 1];
    int32_t a = last->a, e = last->e;
    for (int j = n - 1; j >= 0; j--) {
      int32_t r0 = 0, r1 = 0;
      const char *why = patch_rows_derived(g, r, b, j, a, e, &r0, &r1);
      if (why)
        return why;
      const PatchRows *pr = &r->rows[(size_t)b * n + j];
      if (pr->a != a || pr->e != e || pr->r0 != r0 || pr->r1 != r1)
        return arena_printf("band %d of op %d's patched run: op %d computes output "
                            "rows %d-%d from input rows %d-%d, but its rows give "
                            "%d-%d from %d-%d", b, o, r->ops[j], (int)pr->a,
                            (int)pr->e - 1, (int)pr->r0, (int)pr->r1 - 1, (int)a,
                            (int)e - 1, (int)r0, (int)r1 - 1);
      if (j < n - 1) {
        const Tensor *x = &g->tensors[r->out_t[j]];
        size_t need = (size_t)(e - a) * (size_t)(x->dims[2] * x->dims[3]);
        if (r->buf_bytes[j] < need)
          return arena_printf("band %d of op %d's patched run needs %zu bytes of op "
                              "%d's output in its band buffer of %zu", b, o, need,
                              r->ops[j], r->buf_bytes[j]);
      }
      a = r0;
      e = r1;
    }
    for (int32_t y = last->a; y < last->e; y++)
      seen[y]++;
  }
  for (int64_t y = 0; y < OH; y++)
    if (seen[y] != 1)
      return arena_printf("op %d's patched run computes output row %lld %d times",
                          o, (long long)y, seen[y]);
  size_t room = op->scratch_buffer >= 0 && op->scratch_buffer < p->nbufs
                    ? p->bufs[op->scratch_buffer].bytes : 0;
  if (r->total_bytes > room)
    return arena_printf("op %d's patched run needs %zu bytes of band buffers and "
                        "scratch in a scratch buffer of %zu", o, r->total_bytes, room);
  for (int j = 0; j < n; j++) {
    /* The byte ranges op j's call touches inside the scratch buffer. */
    int64_t lo[3], hi[3];
    int m = 0;
    if (j > 0)
      lo[m] = (int64_t)r->buf_off[j - 1], hi[m] = lo[m] + (int64_t)r->buf_bytes[j - 1], m++;
    if (j < n - 1)
      lo[m] = (int64_t)r->buf_off[j], hi[m] = lo[m] + (int64_t)r->buf_bytes[j], m++;
    if (r->op_scratch[j] > r->scratch_bytes)
      return arena_printf("op %d's kernel needs %zu bytes of scratch, its patched "
                          "run gives %zu", r->ops[j], r->op_scratch[j], r->scratch_bytes);
    lo[m] = (int64_t)r->scratch_off, hi[m] = lo[m] + (int64_t)r->scratch_bytes, m++;
    for (int u = 0; u < m; u++) {
      if (hi[u] > (int64_t)r->total_bytes)
        return arena_printf("op %d's band buffers end past its patched run's %zu bytes",
                            r->ops[j], r->total_bytes);
      for (int v = u + 1; v < m; v++)
        if (ranges_meet(lo[u], hi[u], lo[v], hi[v]))
          return arena_printf("op %d of a patched run reads and writes band buffers "
                              "sharing bytes [%lld, %lld) and [%lld, %lld)", r->ops[j],
                              (long long)lo[u], (long long)hi[u], (long long)lo[v],
                              (long long)hi[v]);
    }
  }
  return NULL;
}

/* The run's output C (at c) over its input A (at a): band k's output rows
 * are written after band k's input rows are read (the run has at least
 * two ops, so its last writes only after its first has read), so they
 * must miss every input byte a later band reads. */
static const char *check_patch_overlap(const Graph *g, const Plan *p, int o,
                                       const Buffer *A, const Buffer *C) {
  (void)p;
  const PatchRun *r = op_lowered(&g->ops[o])->patch;
  const char *why = check_patch(g, p, o);
  if (why)
    return why;
  int n = r->nops;
  const Tensor *x = &g->tensors[r->in_t[0]], *y = &g->tensors[r->out_t[n - 1]];
  int64_t irow = x->dims[2] * x->dims[3], orow = y->dims[2] * y->dims[3];
  int64_t a = (int64_t)A->offset, c = (int64_t)C->offset;
  for (int k = 0; k < r->nbands; k++) {
    const PatchRows *w = &r->rows[(size_t)k * n + n - 1];
    int64_t w0 = c + w->a * orow, w1 = c + w->e * orow;
    for (int m = k + 1; m < r->nbands; m++) {
      const PatchRows *rd = &r->rows[(size_t)m * n];
      int64_t r0 = a + rd->r0 * irow, r1 = a + rd->r1 * irow;
      if (ranges_meet(w0, w1, r0, r1))
        return arena_printf("op %d's patched run: band %d writes output bytes [%lld, "
                            "%lld) over input bytes [%lld, %lld) band %d still reads "
                            "(output at %lld, input at %lld)", o, k, (long long)w0,
                            (long long)w1, (long long)r0, (long long)r1, m,
                            (long long)c, (long long)a);
    }
  }
  return NULL;
}

static const char *check_overlap(const Graph *g, const Plan *p, int ci,
                                 const int *step_of, const int *lo,
                                 const int *hi) {
  const Buffer *C = &p->bufs[ci];
  int ai = C->overlap_of;
  const Buffer *A = &p->bufs[ai];
  if (C->ntensors == 0 || A->ntensors == 0)
    return arena_printf("buffer %d overlaps buffer %d, but they are not both "
                        "tensors", ci, ai);
  int t = C->tensors[0], o = g->tensors[t].producer;
  const Op *op = o >= 0 ? &g->ops[o] : NULL;
  const Lowered *l = op ? op_lowered(op) : NULL;
  if (!l || !l->kernel || op->noutputs < 1 || op->outputs[0] != t)
    return arena_printf("buffer %d overlaps buffer %d, but its base %s is not "
                        "output 0 of a lowered op", ci, ai, tensor_label(g, t));
  const OverlapDecl *d = &l->overlap;
  int s = step_of[o];
  if (!d->declared || d->input < 0 || d->input >= op->ninputs ||
      op->inputs[d->input] < 0 ||
      g->tensors[op->inputs[d->input]].storage != ai)
    return arena_printf("op %d's output overlaps buffer %d, which holds no "
                        "input it declares an overlap with", o, ai);
  for (int k = 0; k < op->ninputs; k++)
    if (k != d->input && op->inputs[k] >= 0 &&
        g->tensors[op->inputs[k]].storage == ai)
      return arena_printf("op %d's output overlaps buffer %d, which also holds "
                          "its input %d", o, ai, k);
  for (int k = 1; k < op->noutputs; k++)
    if (op->outputs[k] >= 0 && g->tensors[op->outputs[k]].storage == ai)
      return arena_printf("op %d's output overlaps its own output %d", o, k);
  for (int k = 0; k < A->ntensors; k++) {
    int x = A->tensors[k];
    if (g->tensors[x].is_output || hi[x] > s)
      return arena_printf("op %d at step %d overlaps %s, which is used until "
                          "step %d%s", o, s, tensor_label(g, x), hi[x],
                          g->tensors[x].is_output ? " (a model output)" : "");
  }
  for (int k = 0; k < C->ntensors; k++) {
    int x = C->tensors[k];
    if (lo[x] >= 0 && lo[x] < s)
      return arena_printf("%s, written over its input by op %d at step %d, is "
                          "used at step %d", tensor_label(g, x), o, s, lo[x]);
  }
  if (A->pool != C->pool ||
      !bytes_overlap(A->offset, A->bytes, C->offset, C->bytes))
    return NULL; /* apart after all: no byte shared */
  if (l->patch)
    return check_patch_overlap(g, p, o, A, C);
  /* The shapes: NHWC input and output of rank 4 (leading 1s allowed). */
  const Tensor *in = &g->tensors[op->inputs[d->input]], *out = &g->tensors[t];
  int64_t id[4] = {1, 1, 1, 1}, od[4] = {1, 1, 1, 1};
  if (in->ndims > 4 || out->ndims > 4 || d->nblocks < 1 || d->nblocks > 2 ||
      d->kh < 1 || d->kw < 1 || d->sh < 1 || d->sw < 1 || d->dh < 1 || d->dw < 1)
    return arena_printf("op %d declares an overlap with an access pattern "
                        "that is not one", o);
  for (int k = 0; k < in->ndims; k++)
    id[4 - in->ndims + k] = in->dims[k];
  for (int k = 0; k < out->ndims; k++)
    od[4 - out->ndims + k] = out->dims[k];
  int64_t ine = (int64_t)tensor_elems(in), oute = (int64_t)tensor_elems(out);
  if (d->view) {
    /* The pattern walks the same elements grouped otherwise: exactly
     * them, no more, no fewer. */
    int64_t vi = 1, vo = 1;
    for (int k = 0; k < 4; k++) {
      if (d->in_view[k] < 1 || d->out_view[k] < 1 || d->in_view[k] > ine ||
          d->out_view[k] > oute)
        return arena_printf("op %d declares an overlap over a view that is not "
                            "one", o);
      vi *= d->in_view[k];
      vo *= d->out_view[k];
      if (vi > ine || vo > oute)
        break; /* too many: refused below */
      id[k] = d->in_view[k];
      od[k] = d->out_view[k];
    }
    if (vi != ine || vo != oute)
      return arena_printf("op %d declares an overlap over views of %lld and %lld "
                          "elements of tensors of %lld and %lld", o, (long long)vi,
                          (long long)vo, (long long)ine, (long long)oute);
  }
  if (ine <= 0 || oute <= 0)
    return NULL; /* nothing read or written: nothing to clobber */
  if (id[0] != od[0])
    return arena_printf("op %d declares an overlap of %lld output images "
                        "with %lld input images", o, (long long)od[0],
                        (long long)id[0]);
  int64_t ibytes = (int64_t)tensor_bytes(in), obytes = (int64_t)tensor_bytes(out);
  int64_t ipix = id[3] * (ibytes / ine), opix = od[3] * (obytes / oute);
  int64_t npix = od[0] * od[1] * od[2];
  /* low[j]: the lowest input byte pixels j.. read (suffix minimum). */
  int64_t *low = arena_array((size_t)npix + 1, sizeof(int64_t));
  low[npix] = NO_READ;
  for (int64_t j = npix - 1; j >= 0; j--) {
    int64_t n = j / (od[1] * od[2]), r = j % (od[1] * od[2]);
    int64_t w = window_low(d, n, r / od[2], r % od[2], id[1], id[2], ipix);
    low[j] = w < low[j + 1] ? w : low[j + 1];
  }
  int64_t a = (int64_t)A->offset, c = (int64_t)C->offset;
  /* Channel by channel (depthwise): the argument below holds for each
   * channel alone, and so for a kernel that runs channel groups one
   * after another over all pixels, only if every output channel falls
   * on the same input channel: pixels of one size, the bases a whole
   * number of pixels apart. */
  if (d->chan_mod > 0 && (ipix != opix || (c - a) % ipix != 0))
    return arena_printf("op %d's output at %lld lies over its input at %lld "
                        "not a whole number of %lld-byte pixels away, which "
                        "its channel-by-channel order needs",
                        o, (long long)c, (long long)a, (long long)ipix);
  if (d->rows_once) {
    /* The ring (OverlapDecl.rows_once), channel by channel: output row y
     * of image n is written once rows up to y*sh - ph + kh - 1 are read
     * and before the next; forwards what is still to be read then starts
     * at the next row (the next image when past the last), backwards it
     * ends at row y*sh - ph. */
    if (d->chan_mod <= 0 || d->dh != 1)
      return arena_printf("op %d declares a ring of input rows, but not channel by "
                          "channel", o);
    if (C->overlap_rev && !d->reverse_kernel)
      return arena_printf("op %d runs backwards over its input, but declares no "
                          "backward kernel", o);
    const int64_t H = id[1], row = id[2] * ipix, image = H * row, orow = od[2] * opix;
    for (int64_t n = 0; n < od[0]; n++)
      for (int64_t y = 0; y < od[1]; y++) {
        const int64_t t = n * od[1] + y, w0 = c + t * orow, w1 = w0 + orow;
        int64_t r0 = 0, r1 = 0; /* still to be read, from the input's base */
        if (C->overlap_rev) {
          int64_t b = y * d->sh - d->ph;
          b = b < 0 ? 0 : b > H ? H : b;
          r1 = n * image + b * row;
        } else {
          int64_t r = y * d->sh - d->ph + d->kh;
          r = r < 0 ? 0 : r;
          if (r >= H && n + 1 == od[0])
            continue; /* nothing is read after this row */
          r0 = r < H ? n * image + r * row : (n + 1) * image;
          r1 = ibytes;
        }
        if (r0 < r1 && w0 < a + r1 && a + r0 < w1)
          return arena_printf(
              "op %d (step %d)%s writes output row %lld of image %lld, bytes [%lld, %lld), "
              "over input bytes [%lld, %lld) its ring still reads (output at %lld, input "
              "at %lld)",
              o, s, C->overlap_rev ? ", running backwards," : "", (long long)y, (long long)n,
              (long long)w0, (long long)w1, (long long)(a + r0), (long long)(a + r1),
              (long long)c, (long long)a);
      }
    return NULL;
  }
  if (C->overlap_rev) {
    /* The backward kernel: blocks from the last to the first, each
     * written after its windows are read; what is still to be read then
     * lies below high[i], the end of the windows of the pixels before
     * the block (with own_reads, the block's own too). */
    if (!d->reverse_kernel)
      return arena_printf("op %d runs backwards over its input, but declares no "
                          "backward kernel", o);
    int64_t *high = arena_array((size_t)npix + 1, sizeof(int64_t));
    high[0] = 0;
    for (int64_t j = 0; j < npix; j++) {
      int64_t n = j / (od[1] * od[2]), r = j % (od[1] * od[2]);
      int64_t w = window_high(d, n, r / od[2], r % od[2], id[1], id[2], ipix);
      high[j + 1] = w > high[j] ? w : high[j];
    }
    for (int k = 0; k < d->nblocks; k++) {
      int64_t B = d->block[k];
      if (B < 1)
        return arena_printf("op %d declares blocks of %lld pixels", o, (long long)B);
      for (int64_t i = (npix - 1) / B * B; i >= 0; i -= B) {
        int64_t e = i + B < npix ? i + B : npix;
        int64_t left = d->own_reads ? high[e] : high[i];
        if (left == 0)
          break; /* nothing is read after this block */
        int64_t w0 = c + i * opix, w1 = c + e * opix; /* written */
        if (w0 < a + left && a < w1)
          return arena_printf(
              "op %d (step %d), running backwards, writes output bytes [%lld, "
              "%lld) of pixels %lld-%lld over input bytes [%lld, %lld) it still "
              "reads (output at %lld, input at %lld)",
              o, s, (long long)w0, (long long)w1, (long long)i, (long long)e - 1,
              (long long)a, (long long)(a + left), (long long)c, (long long)a);
      }
    }
    return NULL;
  }
  for (int k = 0; k < d->nblocks; k++) {
    int64_t B = d->block[k];
    if (B < 1)
      return arena_printf("op %d declares blocks of %lld pixels", o,
                          (long long)B);
    for (int64_t i = 0; i < npix; i += B) {
      int64_t e = i + B < npix ? i + B : npix;
      /* Still to be read while the block is written: what later pixels
       * read, and with own_reads what the block's pixels read too. */
      int64_t left = d->own_reads ? low[i] : low[e];
      if (left == NO_READ)
        break; /* nothing is read after this block */
      int64_t w0 = c + i * opix, w1 = c + e * opix; /* written */
      int64_t r0 = a + left, r1 = a + ibytes;       /* still to be read */
      if (w0 < r1 && r0 < w1)
        return arena_printf(
            "op %d (step %d) writes output bytes [%lld, %lld) of pixels "
            "%lld-%lld (blocks of %lld) over input bytes [%lld, %lld) it "
            "still reads (output at %lld, input at %lld)",
            o, s, (long long)w0, (long long)w1, (long long)i, (long long)e - 1,
            (long long)B, (long long)r0, (long long)r1, (long long)c,
            (long long)a);
    }
  }
  return NULL;
}

/*
 * Loops, derived here from the structure ops alone: the steps from a
 * WHILE to its END_WHILE run again and again, so a tensor that exists
 * at the WHILE's step (written there or earlier) and is read at a step
 * after it, up to the END_WHILE, is read again by the next iteration:
 * it must stay live to the END_WHILE.  A graph with structure ops must
 * run in its own order (the markers bracket their steps).
 */
static const char *loop_needs(const Graph *g, const Plan *p, int *lo, int *hi) {
  int *open = arena_array((size_t)p->norder + 1, sizeof(int));
  int depth = 0;
  bool structured = false;
  for (int s = 0; s < p->norder; s++) {
    OpKind k = g->ops[p->order[s]].kind;
    structured |= k == OP_IF || k == OP_ELSE || k == OP_END_IF || k == OP_WHILE ||
                  k == OP_WHILE_COND || k == OP_END_WHILE;
  }
  if (!structured)
    return NULL;
  for (int s = 0; s < p->norder; s++)
    if (p->order[s] != s)
      return arena_printf("step %d runs op %d: a graph with IF or WHILE runs in "
                          "its own order", s, p->order[s]);
  for (int s = 0; s < p->norder; s++) {
    OpKind k = g->ops[s].kind;
    if (k == OP_WHILE)
      open[depth++] = s;
    if (k != OP_END_WHILE)
      continue;
    if (depth == 0)
      return arena_printf("op %d ends a loop no WHILE began", s);
    int w = open[--depth];
    for (int r = w + 1; r <= s; r++) {
      const Op *op = &g->ops[r];
      for (int j = 0; j < op->ninputs; j++) {
        int t = op->inputs[j];
        if (t < 0 || is_const(&g->tensors[t]) || lo[t] < 0 || lo[t] > w)
          continue;
        if (hi[t] < s)
          hi[t] = s;
      }
    }
  }
  if (depth)
    return arena_printf("the loop of op %d never ends", open[depth - 1]);
  return NULL;
}

const char *check_plan(const Graph *g, const Plan *p) {
  int nsteps = p->norder > 0 ? p->norder : 1;
  if (p->nsteps != nsteps)
    return arena_printf("the plan has %d steps for %d ops", p->nsteps,
                        p->norder);
  /* The schedule runs every op exactly once, producers before readers. */
  int *step_of = arena_array((size_t)g->nops + 1, sizeof(int));
  for (int i = 0; i < g->nops; i++)
    step_of[i] = -1;
  if (p->norder != g->nops)
    return arena_printf("the schedule has %d steps for %d ops", p->norder,
                        g->nops);
  for (int s = 0; s < p->norder; s++) {
    int op = p->order[s];
    if (op < 0 || op >= g->nops || step_of[op] >= 0)
      return arena_printf("step %d runs op %d twice or out of range", s, op);
    step_of[op] = s;
  }

  /* What each tensor needs: live from its write to its last read. */
  int *lo = arena_array((size_t)g->ntensors + 1, sizeof(int));
  int *hi = arena_array((size_t)g->ntensors + 1, sizeof(int));
  bool *touched = arena_array((size_t)g->ntensors + 1, sizeof(bool));
  for (int t = 0; t < g->ntensors; t++)
    lo[t] = hi[t] = -1;
  for (int i = 0; i < g->ninputs; i++) {
    int t = g->inputs[i];
    touched[t] = true;
    need_at(&lo[t], &hi[t], 0);
  }
  for (int i = 0; i < g->noutputs; i++) {
    int t = g->outputs[i];
    touched[t] = true;
    need_at(&lo[t], &hi[t], nsteps - 1);
  }
  for (int op = 0; op < g->nops; op++) {
    const Op *o = &g->ops[op];
    int s = step_of[op];
    for (int k = 0; k < o->noutputs; k++) {
      int t = o->outputs[k];
      if (t < 0)
        continue;
      touched[t] = true;
      need_at(&lo[t], &hi[t], s);
    }
    for (int k = 0; k < o->ninputs; k++) {
      int t = o->inputs[k];
      if (t < 0)
        continue;
      if (!is_const(&g->tensors[t]))
        touched[t] = true;
      need_at(&lo[t], &hi[t], s);
    }
    if (o->state_bytes > 0) {
      int sb = o->state_buffer;
      if (sb < 0 || sb >= p->nbufs || !p->bufs[sb].persistent ||
          p->bufs[sb].bytes < o->state_bytes || p->bufs[sb].ntensors != 0 ||
          p->bufs[sb].state_op != op)
        return arena_printf("op %d has %zu bytes of state but no persistent "
                            "buffer of that size", op, o->state_bytes);
    }
    if (o->scratch_bytes > 0) {
      int sb = o->scratch_buffer;
      if (sb < 0 || sb >= p->nbufs)
        return arena_printf("op %d has %zu bytes of scratch but no buffer", op,
                            o->scratch_bytes);
      const Buffer *b = &p->bufs[sb];
      if (b->bytes < o->scratch_bytes || b->first > s || b->last < s ||
          b->external || b->persistent || b->ntensors != 0)
        return arena_printf("op %d's scratch buffer %d (%zu bytes, steps "
                            "%d-%d) does not hold %zu bytes at step %d",
                            op, sb, b->bytes, b->first, b->last,
                            o->scratch_bytes, s);
    }
  }

  const char *loops = loop_needs(g, p, lo, hi);
  if (loops)
    return loops;

  /* A view's needs are its base's needs. */
  for (int t = 0; t < g->ntensors; t++) {
    const Tensor *v = &g->tensors[t];
    if (v->view_of < 0 || !touched[t])
      continue;
    if (v->view_of >= g->ntensors || g->tensors[v->view_of].view_of >= 0)
      return arena_printf("%s is a view of %d, which is not a base",
                          tensor_label(g, t), v->view_of);
    if (v->is_variable || g->tensors[v->view_of].is_variable)
      return arena_printf("%s is a view involving a variable",
                          tensor_label(g, t));
  }

  for (int t = 0; t < g->ntensors; t++) {
    const Tensor *x = &g->tensors[t];
    if (!touched[t] || is_const(x))
      continue;
    int base = x->view_of >= 0 ? x->view_of : t;
    if (is_const(&g->tensors[base])) {
      if (x->storage != -1 || x->is_output)
        return arena_printf("%s, a view of a constant, has storage %d%s",
                            tensor_label(g, t), x->storage,
                            x->is_output ? " and is a model output" : "");
      continue;
    }
    int id = x->storage;
    if (id < 0 || id >= p->nbufs)
      return arena_printf("%s has no buffer", tensor_label(g, t));
    if (g->tensors[base].storage != id)
      return arena_printf("%s does not share its base's buffer",
                          tensor_label(g, t));
    const Buffer *b = &p->bufs[id];
    bool listed = false;
    for (int k = 0; k < b->ntensors; k++)
      if (b->tensors[k] == t)
        listed = true;
    if (!listed)
      return arena_printf("buffer %d does not list %s", id, tensor_label(g, t));
    if (b->bytes < tensor_bytes(x))
      return arena_printf("buffer %d has %zu bytes for %s of %zu bytes", id,
                          b->bytes, tensor_label(g, t), tensor_bytes(x));
    if (x->is_variable) {
      if (!b->persistent)
        return arena_printf("%s is a variable outside the persistent area",
                            tensor_label(g, t));
      continue;
    }
    if (b->persistent)
      return arena_printf("%s is in the persistent area", tensor_label(g, t));
    if (lo[t] >= 0 && (b->first > lo[t] || b->last < hi[t]))
      return arena_printf("buffer %d lives at steps %d-%d but %s is used at "
                          "steps %d-%d",
                          id, b->first, b->last, tensor_label(g, t), lo[t],
                          hi[t]);
    if ((x->is_input || x->is_output) && b->external != !p->io_in_workspace)
      return arena_printf("%s, a model %s, is %s", tensor_label(g, t),
                          x->is_input ? "input" : "output",
                          b->external ? "in a caller buffer"
                                      : "inside the workspace");
  }
  /* In place: the op writing the taker's base allows it for an input in
   * the taken buffer (and every input there), nothing reads the taken
   * buffer after that op, nothing writes the taker before it. */
  for (int i = 0; i < p->nbufs; i++) {
    const Buffer *b = &p->bufs[i];
    if (b->inplace_of < 0)
      continue;
    int a = b->inplace_of;
    if (a >= p->nbufs || b->ntensors == 0 || p->bufs[a].ntensors == 0)
      return arena_printf("buffer %d takes over buffer %d, but they are not "
                          "both tensors", i, a);
    int t = b->tensors[0], o = g->tensors[t].producer;
    const Op *op = o >= 0 ? &g->ops[o] : NULL;
    const Lowered *l = op ? op_lowered(op) : NULL;
    if (!l || op->noutputs < 1 || op->outputs[0] != t)
      return arena_printf("buffer %d takes over buffer %d, but its base %s is "
                          "not output 0 of a lowered op", i, a,
                          tensor_label(g, t));
    int s = step_of[o], allowed = 0;
    for (int k = 0; k < op->ninputs; k++) {
      int x = op->inputs[k];
      if (x < 0 || g->tensors[x].storage != a)
        continue;
      if (k >= 32 || !(l->inplace >> k & 1))
        return arena_printf("op %d runs in place over buffer %d, which holds "
                            "its input %d, not allowed in place", o, a, k);
      if (tensor_bytes(&g->tensors[x]) != tensor_bytes(&g->tensors[t]))
        return arena_printf("op %d runs in place over its input %d of a "
                            "different size", o, k);
      allowed++;
    }
    if (!allowed)
      return arena_printf("op %d runs in place over buffer %d, which holds "
                          "none of its inputs", o, a);
    const Buffer *A = &p->bufs[a];
    for (int k = 0; k < A->ntensors; k++) {
      int x = A->tensors[k];
      if (g->tensors[x].is_output || hi[x] > s)
        return arena_printf("op %d at step %d runs in place over %s, which is "
                            "used until step %d%s", o, s, tensor_label(g, x),
                            hi[x], g->tensors[x].is_output ? " (a model output)" : "");
    }
    for (int k = 0; k < b->ntensors; k++) {
      int x = b->tensors[k];
      if (lo[x] >= 0 && lo[x] < s)
        return arena_printf("%s, written in place by op %d at step %d, is "
                            "used at step %d", tensor_label(g, x), o, s, lo[x]);
    }
  }

  for (int i = 0; i < p->nbufs; i++) {
    const Buffer *b = &p->bufs[i];
    if (!b->overlap)
      continue;
    if (b->overlap_of < 0 || b->overlap_of >= p->nbufs)
      return arena_printf("buffer %d overlaps buffer %d, out of range", i,
                          b->overlap_of);
    const char *why = check_overlap(g, p, i, step_of, lo, hi);
    if (why)
      return why;
  }

  /* Every buffer's tensors are one base and its views. */
  for (int i = 0; i < p->nbufs; i++) {
    const Buffer *b = &p->bufs[i];
    if (b->ntensors == 0)
      continue;
    int base = b->tensors[0];
    for (int k = 0; k < b->ntensors; k++) {
      int t = b->tensors[k];
      if (t < 0 || t >= g->ntensors || g->tensors[t].storage != i)
        return arena_printf("buffer %d lists tensor %d, stored elsewhere", i,
                            t);
      if (k > 0 && g->tensors[t].view_of != base)
        return arena_printf("buffer %d holds %s, which is not a view of %s", i,
                            tensor_label(g, t), tensor_label(g, base));
    }
  }
  for (int o = 0; o < g->nops; o++) {
    const Lowered *l = op_lowered(&g->ops[o]);
    if (l && l->patch && l->patch_end) {
      const char *why = check_patch(g, p, o);
      if (why)
        return why;
    }
  }
  const char *why = check_outputs_written(g, p, step_of);
  if (why)
    return why;
  Pool *pools = p->pools;
  return check_buffers(p->bufs, p->nbufs, pools, p->npools,
                       p->persistent_bytes);
}
