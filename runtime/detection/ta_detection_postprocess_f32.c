/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_detection_postprocess_f32 - TFLite_Detection_PostProcess on float
 * inputs: box decoding, then fast or regular non-maximum suppression
 * (ta_kernels_detection.h has the steps).
 *
 * Orders that decide equal scores:
 *  - the scores kept for one NMS: std::stable_sort by decreasing score
 *    (TFLite's DecreasingArgSort), here a bottom-up merge sort: stable,
 *    so the same permutation;
 *  - fast NMS, a box's top classes: DecreasingPartialArgSort(values, n,
 *    k): k == 1 is ArgMaxVector (the first maximum); otherwise
 *    std::partial_sort(indices, indices + k, indices + n, values[i] >
 *    values[j]) over 0..n-1, which is not stable: equal scores come out
 *    as libc++'s algorithm leaves them (make_heap of the first k, every
 *    later element that beats the heap's top swapped in and sifted down,
 *    then sort_heap by pop_heap with Floyd's sift-down and a sift-up),
 *    which partial_sort() below follows step for step (with a stable
 *    order instead, 10 of the 122 models of tests/ops/test_detection.sh's
 *    seeds 2 and 3 differ from TFLite; libc++'s older pop_heap, swap and
 *    sift down, gives the same orders on them);
 *  - regular NMS, each class's selections merged into the best so far:
 *    on equal scores the later class goes first.  That is what the TFLite
 *    build of ../shared/oracle computes (tests/ops/test_detection.sh);
 *    TFLite's sources have merged with a partial sort of the list (older)
 *    and with std::inplace_merge (newer, earlier classes first on ties);
 *    with earlier classes first, 27 of those 122 models differ.
 * Float arithmetic as written (TA_FP_STRICT: no fused multiply-add), so
 * that IoU comparisons decide as TFLite's do.
 */
#include <math.h>
#include <string.h>

#include "ta_fpstrict.h"
#include "ta_kernels.h"

/* --------------------------------------------------------- the scratch */

typedef struct {
  size_t decoded, keep_scores, keep_idx, order, merge, one, selected;
  size_t cand_idx, cand_scores, tmp_idx, tmp_val; /* regular NMS */
  size_t top, perm;                                     /* fast NMS */
  size_t active, total;
} layout;

static int32_t top_k(const ta_detection_params *p) {
  return p->max_classes_per_detection < p->num_classes ? p->max_classes_per_detection
                                                       : p->num_classes;
}

static int valid(const ta_detection_params *p) {
  return p->num_boxes > 0 && p->box_size >= 4 && p->num_classes > 0 &&
         (p->num_classes_with_background == p->num_classes ||
          p->num_classes_with_background == p->num_classes + 1) &&
         p->max_detections > 0 && p->max_classes_per_detection > 0 &&
         (!p->use_regular_nms || p->detections_per_class > 0);
}

static layout layout_of(const ta_detection_params *p) {
  layout l;
  size_t n = (size_t)p->num_boxes, d = (size_t)p->max_detections, at = 0;
  memset(&l, 0, sizeof l);
#define TAKE(field, count) (l.field = at, at += (count) * 4)
  TAKE(decoded, 4 * n);
  TAKE(keep_scores, n);
  TAKE(keep_idx, n);
  TAKE(order, n);
  TAKE(merge, n);
  TAKE(one, n);
  TAKE(selected, n);
  if (p->use_regular_nms) {
    TAKE(cand_idx, n + d);
    TAKE(cand_scores, n + d);
    TAKE(tmp_idx, d);
    TAKE(tmp_val, d);
  } else {
    TAKE(top, n * (size_t)top_k(p));
    TAKE(perm, (size_t)p->num_classes);
  }
#undef TAKE
  l.active = at;
  l.total = at + n;
  return l;
}

size_t ta_detection_postprocess_f32_scratch_size(const ta_detection_params *p) {
  return valid(p) ? layout_of(p).total : 0;
}

/* ------------------------------------------------------------ sorting */

/* comp(a, b) of both sorts: values[a] > values[b]. */
#define GT(v, a, b) ((v)[a] > (v)[b])

/* order = 0..n-1 sorted by decreasing v, equal values in index order
 * (std::stable_sort); tmp: n ints. */
static void stable_sort(const float *v, int32_t n, int32_t *order, int32_t *tmp) {
  for (int32_t i = 0; i < n; i++)
    order[i] = i;
  for (int32_t width = 1; width < n; width *= 2) {
    for (int32_t lo = 0; lo < n - width; lo += 2 * width) {
      int32_t mid = lo + width, hi = mid + width < n ? mid + width : n;
      int32_t a = lo, b = mid, k = lo;
      while (a < mid && b < hi)
        tmp[k++] = GT(v, order[b], order[a]) ? order[b++] : order[a++];
      while (a < mid)
        tmp[k++] = order[a++];
      while (b < hi)
        tmp[k++] = order[b++];
      memcpy(order + lo, tmp + lo, (size_t)(hi - lo) * sizeof *order);
    }
  }
}

/* libc++'s __sift_down: restores the heap h[0..len) below `start`. */
static void sift_down(const float *v, int32_t *h, int32_t len, int32_t start) {
  int32_t child = start;
  if (len < 2 || (len - 2) / 2 < child)
    return;
  child = 2 * child + 1;
  if (child + 1 < len && GT(v, h[child], h[child + 1]))
    child++;
  if (GT(v, h[child], h[start]))
    return;
  int32_t top = h[start];
  do {
    h[start] = h[child];
    start = child;
    if ((len - 2) / 2 < child)
      break;
    child = 2 * child + 1;
    if (child + 1 < len && GT(v, h[child], h[child + 1]))
      child++;
  } while (!GT(v, h[child], top));
  h[start] = top;
}

/* libc++'s __floyd_sift_down: moves the larger child up into the hole
 * from the root to a leaf; returns the leaf (len >= 2). */
static int32_t floyd_sift_down(const float *v, int32_t *h, int32_t len) {
  int32_t hole = 0, child = 0;
  for (;;) {
    child = 2 * child + 1;
    if (child + 1 < len && GT(v, h[child], h[child + 1]))
      child++;
    h[hole] = h[child];
    hole = child;
    if (child > (len - 2) / 2)
      return hole;
  }
}

/* libc++'s __sift_up of element len - 1. */
static void sift_up(const float *v, int32_t *h, int32_t len) {
  if (len < 2)
    return;
  int32_t last = len - 1;
  len = (len - 2) / 2;
  if (!GT(v, h[len], h[last]))
    return;
  int32_t t = h[last];
  do {
    h[last] = h[len];
    last = len;
    if (len == 0)
      break;
    len = (len - 1) / 2;
  } while (GT(v, h[len], t));
  h[last] = t;
}

/* libc++'s __pop_heap: the top goes to h[len - 1]. */
static void pop_heap(const float *v, int32_t *h, int32_t len) {
  if (len < 2)
    return;
  int32_t top = h[0];
  int32_t hole = floyd_sift_down(v, h, len);
  if (hole == len - 1) {
    h[hole] = top;
  } else {
    h[hole] = h[len - 1];
    h[len - 1] = top;
    sift_up(v, h, hole + 1);
  }
}

/* DecreasingPartialArgSort: idx[0..k) = the k best of 0..n-1 in order. */
static void partial_sort(const float *v, int32_t n, int32_t k, int32_t *idx) {
  if (k == 1) { /* ArgMaxVector */
    int32_t best = 0;
    for (int32_t i = 1; i < n; i++)
      if (v[i] > v[best])
        best = i;
    idx[0] = best;
    return;
  }
  for (int32_t i = 0; i < n; i++)
    idx[i] = i;
  if (k <= 0)
    return;
  for (int32_t start = (k - 2) / 2; k > 1 && start >= 0; start--)
    sift_down(v, idx, k, start);
  for (int32_t i = k; i < n; i++) {
    if (GT(v, idx[i], idx[0])) {
      int32_t t = idx[i];
      idx[i] = idx[0];
      idx[0] = t;
      sift_down(v, idx, k, 0);
    }
  }
  for (int32_t len = k; len > 1; len--)
    pop_heap(v, idx, len);
}

/* -------------------------------------------------------- boxes, NMS */

/* DecodeCenterSizeBoxes; 0 when a box is inverted (ValidateBoxes). */
TA_FP_STRICT
static int decode(const ta_detection_params *p, const float *boxes, const float *anchors,
                  float *decoded) {
  int ok = 1;
  for (int32_t i = 0; i < p->num_boxes; i++) {
    const float *b = boxes + (size_t)i * (size_t)p->box_size, *a = anchors + 4 * (size_t)i;
    float yc = (float)((double)b[0] / (double)p->y_scale * (double)a[2] + (double)a[0]);
    float xc = (float)((double)b[1] / (double)p->x_scale * (double)a[3] + (double)a[1]);
    float hh = (float)(0.5 * exp((double)b[2] / (double)p->h_scale) * (double)a[2]);
    float hw = (float)(0.5 * exp((double)b[3] / (double)p->w_scale) * (double)a[3]);
    float *o = decoded + 4 * (size_t)i;
    o[0] = yc - hh;
    o[1] = xc - hw;
    o[2] = yc + hh;
    o[3] = xc + hw;
    if (o[0] > o[2] || o[1] > o[3])
      ok = 0;
  }
  return ok;
}

static float maxf(float a, float b) { return a < b ? b : a; }
static float minf(float a, float b) { return b < a ? b : a; }

/* ComputeIntersectionOverUnion of boxes i and j. */
TA_FP_STRICT
static float iou(const float *decoded, int32_t i, int32_t j) {
  const float *a = decoded + 4 * (size_t)i, *b = decoded + 4 * (size_t)j;
  const float area_a = (a[2] - a[0]) * (a[3] - a[1]);
  const float area_b = (b[2] - b[0]) * (b[3] - b[1]);
  if (area_a <= 0 || area_b <= 0)
    return 0.0f;
  const float ymin = maxf(a[0], b[0]), xmin = maxf(a[1], b[1]);
  const float ymax = minf(a[2], b[2]), xmax = minf(a[3], b[3]);
  const float inter = maxf(ymax - ymin, 0.0f) * maxf(xmax - xmin, 0.0f);
  return inter / (area_a + area_b - inter);
}

typedef struct {
  const ta_detection_params *p;
  const float *decoded;
  float *keep_scores;
  int32_t *keep_idx, *order, *merge;
  uint8_t *active;
} nms_work;

/* NonMaxSuppressionSingleClassHelper: the boxes selected for scores[],
 * at most `limit`, into sel; returns their count. */
static int32_t nms(const nms_work *w, const float *scores, int32_t limit, int32_t *sel) {
  const ta_detection_params *p = w->p;
  int32_t kept = 0;
  for (int32_t i = 0; i < p->num_boxes; i++)
    if (scores[i] >= p->score_threshold) {
      w->keep_scores[kept] = scores[i];
      w->keep_idx[kept++] = i;
    }
  stable_sort(w->keep_scores, kept, w->order, w->merge);
  int32_t size = kept < limit ? kept : limit, nsel = 0, nactive = kept;
  memset(w->active, 1, (size_t)kept);
  for (int32_t i = 0; i < kept && nactive > 0 && nsel < size; i++) {
    if (!w->active[i])
      continue;
    int32_t bi = w->keep_idx[w->order[i]];
    sel[nsel++] = bi;
    w->active[i] = 0;
    nactive--;
    for (int32_t j = i + 1; j < kept; j++)
      if (w->active[j] && iou(w->decoded, bi, w->keep_idx[w->order[j]]) > p->iou_threshold) {
        w->active[j] = 0;
        nactive--;
      }
  }
  return nsel;
}

ta_status ta_detection_postprocess_f32(const ta_detection_params *p, const float *boxes,
                                       const float *scores, const float *anchors,
                                       float *out_boxes, float *out_classes,
                                       float *out_scores, float *out_count, void *scratch) {
  if (!valid(p) || !scratch)
    return TA_ERR_ARG;
  const layout l = layout_of(p);
  uint8_t *s = (uint8_t *)scratch;
  float *decoded = (float *)(void *)(s + l.decoded);
  float *one = (float *)(void *)(s + l.one);
  int32_t *sel = (int32_t *)(void *)(s + l.selected);
  nms_work w;
  w.p = p;
  w.decoded = decoded;
  w.keep_scores = (float *)(void *)(s + l.keep_scores);
  w.keep_idx = (int32_t *)(void *)(s + l.keep_idx);
  w.order = (int32_t *)(void *)(s + l.order);
  w.merge = (int32_t *)(void *)(s + l.merge);
  w.active = s + l.active;

  const int32_t slots = p->max_detections * p->max_classes_per_detection;
  memset(out_boxes, 0, (size_t)slots * 4 * sizeof *out_boxes);
  memset(out_classes, 0, (size_t)slots * sizeof *out_classes);
  memset(out_scores, 0, (size_t)slots * sizeof *out_scores);
  out_count[0] = 0.0f;
  if (!decode(p, boxes, anchors, decoded))
    return TA_ERR_ARG;

  const int32_t n = p->num_boxes, cbg = p->num_classes_with_background;
  const int32_t offset = cbg - p->num_classes, d = p->max_detections;
  if (p->use_regular_nms) {
    int32_t *cand_idx = (int32_t *)(void *)(s + l.cand_idx);
    float *cand_scores = (float *)(void *)(s + l.cand_scores);
    int32_t *tmp_idx = (int32_t *)(void *)(s + l.tmp_idx);
    float *tmp_val = (float *)(void *)(s + l.tmp_val);
    int32_t nbest = 0;
    for (int32_t c = 0; c < p->num_classes; c++) {
      for (int32_t i = 0; i < n; i++)
        one[i] = scores[(size_t)i * (size_t)cbg + (size_t)(c + offset)];
      int32_t nsel = nms(&w, one, p->detections_per_class, sel), count = nbest;
      for (int32_t k = 0; k < nsel; k++, count++) {
        cand_idx[count] = sel[k] * cbg + c + offset;
        cand_scores[count] = one[sel[k]];
      }
      /* Merge the class's selections (cand[nbest..count), by
       * decreasing score) into the best so far (cand[0..nbest)): on
       * equal scores the newer class first; keep max_detections. */
      int32_t nkeep = count < d ? count : d, a = 0, b = nbest;
      for (int32_t r = 0; r < nkeep; r++) {
        int32_t from = b < count && (a >= nbest || cand_scores[b] >= cand_scores[a]) ? b++ : a++;
        tmp_idx[r] = cand_idx[from];
        tmp_val[r] = cand_scores[from];
      }
      memcpy(cand_idx, tmp_idx, (size_t)nkeep * sizeof *cand_idx);
      memcpy(cand_scores, tmp_val, (size_t)nkeep * sizeof *cand_scores);
      nbest = nkeep;
    }
    for (int32_t r = 0; r < nbest; r++) {
      int32_t anchor = cand_idx[r] / cbg;
      memcpy(out_boxes + 4 * (size_t)r, decoded + 4 * (size_t)anchor, 4 * sizeof(float));
      out_classes[r] = (float)(cand_idx[r] - anchor * cbg - offset);
      out_scores[r] = cand_scores[r];
    }
    out_count[0] = (float)nbest;
    return TA_OK;
  }

  const int32_t k = top_k(p);
  int32_t *top = (int32_t *)(void *)(s + l.top);
  int32_t *perm = (int32_t *)(void *)(s + l.perm);
  for (int32_t i = 0; i < n; i++) {
    const float *bs = scores + (size_t)i * (size_t)cbg + (size_t)offset;
    partial_sort(bs, p->num_classes, k, perm);
    memcpy(top + (size_t)i * (size_t)k, perm, (size_t)k * sizeof *top);
    one[i] = bs[perm[0]];
  }
  int32_t nsel = nms(&w, one, d, sel);
  for (int32_t r = 0; r < nsel; r++) {
    const int32_t b = sel[r];
    const float *bs = scores + (size_t)b * (size_t)cbg + (size_t)offset;
    for (int32_t c = 0; c < k; c++) {
      size_t slot = (size_t)p->max_classes_per_detection * (size_t)r + (size_t)c;
      int32_t cls = top[(size_t)b * (size_t)k + (size_t)c];
      memcpy(out_boxes + 4 * slot, decoded + 4 * (size_t)b, 4 * sizeof(float));
      out_classes[slot] = (float)cls;
      out_scores[slot] = bs[cls];
    }
  }
  out_count[0] = (float)nsel;
  return TA_OK;
}
