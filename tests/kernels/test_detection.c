/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_detection.c - ta_detection_postprocess_f32 and _u8 on the cases of
 * TFLite's own kernel test (tensorflow/lite/kernels/
 * detection_postprocess_test.cc): six anchors, two classes (with a
 * background column unless said), the boxes and scores below, and the
 * outputs that test expects (boxes within its 1e-1 / 3e-1, classes and
 * num_detections exact, scores within 1e-6; uint8 inputs quantized as
 * its QuantizeAndPopulate does: scale (max - min) / 255, zero point
 * round(-min / scale)).  Outputs and scratch sit between canary bytes;
 * an inverted decoded box is refused.  The random cases and the SSD
 * model against TFLite itself are tests/ops/test_detection.sh.
 */
#include <math.h>

#include "ref.h"
#include "ta_kernels.h"
#include "test.h"

static const float boxes6[6 * 4] = {
    0, 0, 0, 0, 0, 1, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0,
};
static const float scores6_bg[6 * 3] = {0, .9f,  .8f,  0, .75f, .72f, 0, .6f, .5f,
                                        0, .93f, .95f, 0, .5f,  .4f,  0, .3f, .2f};
static const float scores6[6 * 2] = {.9f, .8f, .75f, .72f, .6f, .5f,
                                     .93f, .95f, .5f, .4f, .3f, .2f};
static const float anchors6[6 * 4] = {
    .5f, .5f, 1, 1, .5f, .5f, 1, 1, .5f, .5f,   1, 1,
    .5f, 10.5f, 1, 1, .5f, 10.5f, 1, 1, .5f, 100.5f, 1, 1,
};

static ta_detection_params params(int regular, int max_cpd, int dpc, int cbg) {
  ta_detection_params p;
  memset(&p, 0, sizeof p);
  p.num_boxes = 6;
  p.box_size = 4;
  p.num_classes = 2;
  p.num_classes_with_background = cbg;
  p.max_detections = 3;
  p.max_classes_per_detection = max_cpd;
  p.detections_per_class = dpc;
  p.use_regular_nms = regular;
  p.score_threshold = 0.0f;
  p.iou_threshold = 0.5f;
  p.y_scale = p.x_scale = 10.0f;
  p.h_scale = p.w_scale = 5.0f;
  return p;
}

typedef struct {
  int n;                /* slots to check */
  const float *boxes;   /* 4 per slot */
  const float *classes, *scores;
  float count;
  double box_tol;
} Expect;

/* Runs the kernel (u8: inputs quantized) and checks against e. */
static void check(const char *what, ta_detection_params p, const float *boxes,
                  const float *scores, const float *anchors, int u8, const Expect *e) {
  size_t slots = (size_t)p.max_detections * (size_t)p.max_classes_per_detection;
  size_t nb = (size_t)p.num_boxes * (size_t)p.box_size;
  size_t ns = (size_t)p.num_boxes * (size_t)p.num_classes_with_background;
  float *ob = canary_alloc(slots * 16), *oc = canary_alloc(slots * 4);
  float *os = canary_alloc(slots * 4), *on = canary_alloc(4);
  size_t nscratch = u8 ? ta_detection_postprocess_u8_scratch_size(&p)
                       : ta_detection_postprocess_f32_scratch_size(&p);
  void *scratch = canary_alloc(nscratch);
  ta_status st;
  if (u8) {
    /* QuantizeAndPopulate: boxes [-1, 1], scores [0, 1], anchors [0, 100.5]. */
    float bs = 2.0f / 255.0f, ss = 1.0f / 255.0f, as = 100.5f / 255.0f;
    int bz = (int)lroundf(1.0f / bs);
    p.boxes_scale = bs;
    p.boxes_zero_point = bz;
    p.scores_scale = ss;
    p.anchors_scale = as;
    uint8_t qb[64], qs[64], qa[64];
    for (size_t i = 0; i < nb; i++)
      qb[i] = (uint8_t)(lroundf(boxes[i] / bs) + bz);
    for (size_t i = 0; i < ns; i++)
      qs[i] = (uint8_t)lroundf(scores[i] / ss);
    for (size_t i = 0; i < 24; i++)
      qa[i] = (uint8_t)lroundf(anchors[i] / as);
    st = ta_detection_postprocess_u8(&p, qb, qs, qa, ob, oc, os, on, scratch);
  } else {
    st = ta_detection_postprocess_f32(&p, boxes, scores, anchors, ob, oc, os, on, scratch);
  }
  int ok = st == TA_OK && nscratch > 0 && on[0] == e->count;
  int bad = -1;
  for (int i = 0; ok && i < e->n; i++) {
    for (int k = 0; k < 4; k++)
      if (!(fabs(ob[4 * i + k] - e->boxes[4 * i + k]) <= e->box_tol))
        bad = i;
    if (oc[i] != e->classes[i] || !(fabs(os[i] - e->scores[i]) <= (u8 ? 5e-3 : 1e-6)))
      bad = i;
    if (bad >= 0)
      ok = 0;
  }
  CHECK(ok && canary_ok(ob, slots * 16) && canary_ok(oc, slots * 4) &&
            canary_ok(os, slots * 4) && canary_ok(on, 4) && canary_ok(scratch, nscratch),
        "%s gives TFLite's test outputs inside its buffers (status %d, %g detections, "
        "first differing slot %d: class %g score %g box %g %g %g %g)",
        what, (int)st, (double)on[0], bad, bad >= 0 ? (double)oc[bad] : 0.0,
        bad >= 0 ? (double)os[bad] : 0.0, bad >= 0 ? (double)ob[4 * bad] : 0.0,
        bad >= 0 ? (double)ob[4 * bad + 1] : 0.0, bad >= 0 ? (double)ob[4 * bad + 2] : 0.0,
        bad >= 0 ? (double)ob[4 * bad + 3] : 0.0);
  canary_free(ob);
  canary_free(oc);
  canary_free(os);
  canary_free(on);
  canary_free(scratch);
}

int main(void) {
  static const float fast_boxes[] = {0, 10, 1, 11, 0, 0, 1, 1, 0, 100, 1, 101};
  static const float fast_classes[] = {1, 0, 0}, fast_scores[] = {.95f, .9f, .3f};
  Expect fast = {3, fast_boxes, fast_classes, fast_scores, 3.0f, 1e-1};
  check("fast NMS (FloatTest)", params(0, 1, 100, 3), boxes6, scores6_bg, anchors6, 0,
        &fast);
  Expect fast_q = fast;
  fast_q.box_tol = 3e-1;
  check("fast NMS on uint8 (QuantizedTest)", params(0, 1, 100, 3), boxes6, scores6_bg,
        anchors6, 1, &fast_q);
  check("fast NMS without a background class", params(0, 1, 1, 2), boxes6, scores6,
        anchors6, 0, &fast);

  static const float two_boxes[] = {0, 10, 1, 11, 0, 10, 1, 11, 0, 0, 1, 1,
                                    0, 0,  1, 1,  0, 100, 1, 101, 0, 100, 1, 101};
  static const float two_classes[] = {1, 0, 0, 1, 0, 1};
  static const float two_scores[] = {.95f, .93f, .9f, .8f, .3f, .2f};
  Expect two = {6, two_boxes, two_classes, two_scores, 3.0f, 1e-1};
  check("fast NMS with two classes per detection (MaxClass2Test)", params(0, 2, 100, 3),
        boxes6, scores6_bg, anchors6, 0, &two);

  static const float reg_boxes[] = {0, 10, 1, 11, 0, 10, 1, 11, 0, 0, 0, 0};
  static const float reg_classes[] = {1, 0, 0}, reg_scores[] = {.95f, .93f, 0};
  Expect reg = {3, reg_boxes, reg_classes, reg_scores, 2.0f, 3e-4};
  check("regular NMS (RegularNMS, float)", params(1, 1, 1, 3), boxes6, scores6_bg, anchors6,
        0, &reg);

  /* A box degenerated to a point is valid (ValidateBoxes: ymin > ymax). */
  static const float deg_in[] = {0, 0, 0, 0, 0, 0, 0, 0};
  static const float deg_scores[] = {0, .9f, .8f, 0, .2f, .7f};
  static const float deg_anchors[] = {.5f, .5f, 1, 1, .5f, .5f, 0, 0};
  static const float deg_boxes[] = {0, 0, 1, 1, .5f, .5f, .5f, .5f};
  static const float deg_classes[] = {0, 1}, deg_out_scores[] = {.9f, .7f};
  Expect deg = {2, deg_boxes, deg_classes, deg_out_scores, 2.0f, 1e-1};
  ta_detection_params pd = params(0, 1, 100, 3);
  pd.num_boxes = 2;
  check("fast NMS with a degenerated box (FloatTestWithDegeneratedBox)", pd, deg_in,
        deg_scores, deg_anchors, 0, &deg);

  /* An anchor of negative height inverts its box: TFLite fails. */
  static const float neg_anchors[] = {.5f, .5f, 1, 1, .5f, .5f, -1, 1};
  float ob[12], oc[3], os[3], on[1];
  unsigned char scratch[4096];
  CHECK(ta_detection_postprocess_f32_scratch_size(&pd) <= sizeof scratch &&
            ta_detection_postprocess_f32(&pd, deg_in, deg_scores, neg_anchors, ob, oc, os, on,
                                         scratch) == TA_ERR_ARG,
        "an inverted decoded box makes the kernel return TA_ERR_ARG (TFLite's ValidateBoxes)");
  ta_detection_params bad = params(0, 1, 100, 4);
  CHECK(ta_detection_postprocess_f32_scratch_size(&bad) == 0,
        "parameters whose class columns do not fit num_classes ask for no scratch (refused)");
  return test_failures != 0;
}
