/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_detection.c - test models for the custom op
 * TFLite_Detection_PostProcess, from a seed, and the comparison of its
 * outputs.
 *
 *   gen_detection [--seed S] [--count N] OUTDIR
 *   gen_detection --compare FAST MAX_DETECTIONS MAX_CLASSES_PER_DETECTION
 *                 K ATOL EXPECTED_DIR ACTUAL_DIR
 *
 * Generating writes OUTDIR/<name>/model.tflite with in0.bin (box
 * encodings) and in1.bin (class predictions) for N single-op cases
 * (det.<k>: random sizes, float32 or uint8, fast or regular NMS, score
 * and IoU thresholds, scales, anchors on SSD-like grids, scores drawn
 * from a few levels half of the time so that equal scores are common;
 * det.0-3 are fast/regular x float32/uint8 with equal scores),
 * and one SSD-style detector, ssd_int8: an int8 input [1][16][16][3],
 * two CONV_2D + RELU feature maps (8x8 and 4x4), on each a box head and
 * a class head (CONV_2D, two anchors per cell), RESHAPE to [1][anchors][4]
 * and [1][anchors][4 classes], CONCATENATION of the two maps, LOGISTIC on
 * the class logits, DEQUANTIZE of both, and TFLite_Detection_PostProcess
 * with constant SSD anchors (regular NMS) - the way the converter ends an
 * int8 detector.  OUTDIR/manifest.txt gets one line per model:
 *   NAME FAST MAX_DETECTIONS MAX_CLASSES_PER_DETECTION K
 * (K = min(max_classes_per_detection, num_classes)).  OUTDIR/bad/ holds
 * models to refuse (an IoU threshold of 0, int8 inputs, num_classes that
 * does not fit the class predictions, too few anchors), and expect.txt a
 * piece of each refusal's message.
 *
 * Comparing reads out0..out3.bin (boxes, classes, scores, num_detections)
 * from both folders and checks what TFLite defines: num_detections
 * equal; regular NMS: slots 0 .. max_detections - 1; fast NMS: slot
 * r * MAX_CLASSES_PER_DETECTION + c for r < num_detections, c < K (TFLite
 * leaves the other slots unwritten).  Classes and scores must be equal
 * (they are copies of class indices and input scores), boxes within ATOL
 * + ATOL * |expected|.  Exit 0 when they agree; 1 with a line naming the
 * first difference; 2 for unreadable files.
 */
#include "tflite_writer.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rng.h"

static void die(const char *msg) {
  fprintf(stderr, "gen_detection: %s\n", msg);
  exit(2);
}

/* path = dir/name (a path too long is an error). */
static void join(char *path, size_t size, const char *dir, const char *name) {
  int n = snprintf(path, size, "%s/%s", dir, name);
  if (n < 0 || (size_t)n >= size)
    die("path too long");
}

static void write_bytes(const char *dir, const char *name, const void *p, size_t n) {
  char path[1024];
  join(path, sizeof path, dir, name);
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(p, 1, n, f) != n || fclose(f))
    die("cannot write an input file");
}

/* ------------------------------------------------------ the options */

typedef struct {
  int max_detections, max_cpd, detections_per_class, regular, num_classes;
  float score_threshold, iou_threshold, y_scale, x_scale, h_scale, w_scale;
} Options;

static int custom_op(TfwModel *m, const Options *o, const int *in, const int *out) {
  TfwFlexEntry e[] = {
      {"max_detections", 'i', o->max_detections, 0},
      {"max_classes_per_detection", 'i', o->max_cpd, 0},
      {"detections_per_class", 'i', o->detections_per_class, 0},
      {"use_regular_nms", 'b', o->regular, 0},
      {"nms_score_threshold", 'f', 0, o->score_threshold},
      {"nms_iou_threshold", 'f', 0, o->iou_threshold},
      {"num_classes", 'i', o->num_classes, 0},
      {"y_scale", 'f', 0, o->y_scale},
      {"x_scale", 'f', 0, o->x_scale},
      {"h_scale", 'f', 0, o->h_scale},
      {"w_scale", 'f', 0, o->w_scale},
  };
  uint8_t *bytes;
  size_t n = tfw_flex_map(e, (int)(sizeof e / sizeof *e), &bytes);
  int op = tfw_custom_op(m, "TFLite_Detection_PostProcess", bytes, n, 3, in, 4, out);
  free(bytes);
  return op;
}

/* The four outputs, float32, of the sizes TFLite gives them. */
static void outputs(TfwModel *m, const Options *o, int *out) {
  int32_t slots = o->max_detections * o->max_cpd;
  int32_t db[3] = {1, slots, 4}, dc[2] = {1, slots}, dn[1] = {1};
  out[0] = tfw_tensor(m, "detection_boxes", TFW_FLOAT32, 3, db, 0);
  out[1] = tfw_tensor(m, "detection_classes", TFW_FLOAT32, 2, dc, 0);
  out[2] = tfw_tensor(m, "detection_scores", TFW_FLOAT32, 2, dc, 0);
  out[3] = tfw_tensor(m, "num_detections", TFW_FLOAT32, 1, dn, 0);
  tfw_outputs(m, 4, out);
}

/* SSD-like anchors (ycenter, xcenter, h, w) of grids of `cells` x
 * `cells` locations with `per` aspect ratios each, in order. */
static void grid_anchors(float *a, int cells, int per, float size) {
  static const float ratio[3] = {1.0f, 2.0f, 0.5f};
  for (int y = 0; y < cells; y++)
    for (int x = 0; x < cells; x++)
      for (int k = 0; k < per; k++) {
        float r = sqrtf(ratio[k % 3]);
        float *p = a + 4 * ((y * cells + x) * per + k);
        p[0] = ((float)y + 0.5f) / (float)cells;
        p[1] = ((float)x + 0.5f) / (float)cells;
        p[2] = size / r;
        p[3] = size * r;
      }
}

/* ------------------------------------------------ single-op cases */

static uint8_t quantize(float v, float scale, int zp) {
  long q = lroundf(v / scale) + zp;
  return (uint8_t)(q < 0 ? 0 : q > 255 ? 255 : q);
}

/* Case k; cases 0-3 are regular/fast x float32/uint8, with equal scores,
 * so that any count of 4 or more covers each. */
static void single_case(Rng *r, int k, const char *dir, FILE *manifest, const char *name) {
  int u8 = rchance(r, 0.35);
  int n = rint_in(r, 4, 48), c = rint_in(r, 1, 6), bg = rint_in(r, 0, 1);
  int box_size = rchance(r, 0.2) ? rint_in(r, 5, 8) : 4, cbg = c + bg;
  Options o;
  o.regular = rchance(r, 0.5);
  o.max_detections = rint_in(r, 1, 12);
  o.max_cpd = rint_in(r, 1, 3);
  o.detections_per_class = rint_in(r, 1, 6);
  o.num_classes = c;
  static const float score_thr[] = {0.0f, 1e-8f, 0.25f, 0.5f, 0.75f};
  static const float iou_thr[] = {0.3f, 0.5f, 0.6f, 0.9f, 1.0f};
  o.score_threshold = score_thr[rint_in(r, 0, 4)];
  o.iou_threshold = iou_thr[rint_in(r, 0, 4)];
  o.y_scale = o.x_scale = rchance(r, 0.5) ? 10.0f : runif(r, 1, 12);
  o.h_scale = o.w_scale = rchance(r, 0.5) ? 5.0f : runif(r, 1, 8);
  int levels = rchance(r, 0.5) ? rint_in(r, 2, 5) : 0; /* equal scores */
  if (k < 4) {
    o.regular = k & 1;
    u8 = k >> 1;
    levels = 3;
  }

  /* Anchors: a small grid, cut to n, with jitter so boxes overlap. */
  int cells = 1;
  while (cells * cells * 2 < n)
    cells++;
  float *anchors = malloc(sizeof(float) * 4 * (size_t)(cells * cells * 2));
  float *boxes = malloc(sizeof(float) * (size_t)(n * box_size));
  float *scores = malloc(sizeof(float) * (size_t)(n * cbg));
  if (!anchors || !boxes || !scores)
    die("out of memory");
  grid_anchors(anchors, cells, 2, runif(r, 0.2, 0.6));
  for (int i = 0; i < n * box_size; i++)
    boxes[i] = runif(r, -2.0, 2.0);
  for (int i = 0; i < n * cbg; i++)
    scores[i] = levels ? (float)rint_in(r, 0, levels) / (float)levels : runif(r, 0, 1);

  TfwModel *m = tfw_new();
  int32_t dbox[3] = {1, n, box_size}, dsc[3] = {1, n, cbg}, dan[2] = {n, 4};
  int in[3], out[4];
  if (u8) {
    float bs = runif(r, 0.01, 0.03), ss = 1.0f / 255.0f, as = 1.0f / 128.0f;
    int bz = rint_in(r, 100, 156), sz = rchance(r, 0.5) ? 0 : rint_in(r, 0, 20);
    uint8_t *qb = malloc((size_t)(n * box_size)), *qs = malloc((size_t)(n * cbg));
    uint8_t *qa = malloc((size_t)(n * 4));
    if (!qb || !qs || !qa)
      die("out of memory");
    for (int i = 0; i < n * box_size; i++)
      qb[i] = quantize(boxes[i], bs, bz);
    for (int i = 0; i < n * cbg; i++)
      qs[i] = levels ? (uint8_t)(sz + rint_in(r, 0, levels) * 40)
                     : (uint8_t)rint_in(r, sz, 255);
    for (int i = 0; i < n * 4; i++)
      qa[i] = quantize(anchors[i], as, 0);
    in[0] = tfw_tensor(m, "box_encodings", TFW_UINT8, 3, dbox, 0);
    tfw_quant1(m, in[0], bs, bz);
    in[1] = tfw_tensor(m, "class_predictions", TFW_UINT8, 3, dsc, 0);
    tfw_quant1(m, in[1], ss, sz);
    in[2] = tfw_const(m, "anchors", TFW_UINT8, 2, dan, qa);
    tfw_quant1(m, in[2], as, 0);
    write_bytes(dir, "in0.bin", qb, (size_t)(n * box_size));
    write_bytes(dir, "in1.bin", qs, (size_t)(n * cbg));
    free(qb);
    free(qs);
    free(qa);
  } else {
    in[0] = tfw_tensor(m, "box_encodings", TFW_FLOAT32, 3, dbox, 0);
    in[1] = tfw_tensor(m, "class_predictions", TFW_FLOAT32, 3, dsc, 0);
    in[2] = tfw_const(m, "anchors", TFW_FLOAT32, 2, dan, anchors);
    write_bytes(dir, "in0.bin", boxes, sizeof(float) * (size_t)(n * box_size));
    write_bytes(dir, "in1.bin", scores, sizeof(float) * (size_t)(n * cbg));
  }
  tfw_inputs(m, 2, in);
  outputs(m, &o, out);
  custom_op(m, &o, in, out);
  char path[1024];
  join(path, sizeof path, dir, "model.tflite");
  if (tfw_write_file(m, path))
    die("cannot write a model");
  tfw_free(m);
  free(anchors);
  free(boxes);
  free(scores);
  fprintf(manifest, "%s %d %d %d %d\n", name, !o.regular, o.max_detections, o.max_cpd,
          o.max_cpd < c ? o.max_cpd : c);
}

/* ---------------------------------------------------- the SSD model */

/* An int8 CONV_2D (SAME padding) with random weights (per tensor) and
 * bias; returns its output tensor. */
static int conv(TfwModel *m, Rng *r, int in, float in_scale, int cin, int hw, int cout,
                int k, int stride, int relu, float out_scale, int out_zp, const char *name) {
  int32_t dw[4] = {cout, k, k, cin}, db[1] = {cout};
  int nw = cout * k * k * cin;
  int8_t *w = malloc((size_t)nw);
  int32_t *b = malloc(sizeof(int32_t) * (size_t)cout);
  if (!w || !b)
    die("out of memory");
  for (int i = 0; i < nw; i++)
    w[i] = (int8_t)rint_in(r, -127, 127);
  float ws = 0.5f / 127.0f;
  for (int i = 0; i < cout; i++)
    b[i] = rint_in(r, -2000, 2000);
  char nm[64];
  snprintf(nm, sizeof nm, "%s/weights", name);
  int tw = tfw_const(m, nm, TFW_INT8, 4, dw, w);
  tfw_quant1(m, tw, ws, 0);
  snprintf(nm, sizeof nm, "%s/bias", name);
  int tb = tfw_const(m, nm, TFW_INT32, 1, db, b);
  tfw_quant1(m, tb, in_scale * ws, 0);
  int oh = (hw + stride - 1) / stride;
  int32_t dout[4] = {1, oh, oh, cout};
  int to = tfw_tensor(m, name, TFW_INT8, 4, dout, 0);
  tfw_quant1(m, to, out_scale, out_zp);
  int ins[3] = {in, tw, tb};
  int op = tfw_op(m, TFW_OP_CONV_2D, 3, ins, 1, &to);
  tfw_conv2d_options(m, op, TFW_PAD_SAME, stride, stride, relu ? TFW_ACT_RELU : TFW_ACT_NONE,
                     1, 1);
  free(w);
  free(b);
  return to;
}

static int reshape(TfwModel *m, int in, int rows, int cols, float s, int zp, const char *name) {
  int32_t d[3] = {1, rows, cols}, shape[3] = {1, rows, cols}, ds[1] = {3};
  int t = tfw_tensor(m, name, TFW_INT8, 3, d, 0);
  tfw_quant1(m, t, s, zp);
  char nm[64];
  snprintf(nm, sizeof nm, "%s/shape", name);
  int ts = tfw_const(m, nm, TFW_INT32, 1, ds, shape);
  int ins[2] = {in, ts};
  int op = tfw_op(m, TFW_OP_RESHAPE, 2, ins, 1, &t);
  tfw_reshape_options(m, op, 3, shape);
  return t;
}

static void ssd_model(const char *dir, FILE *manifest, uint64_t seed) {
  Rng r = {seed ^ 0x55d0u};
  enum { APL = 2, CLS = 4 }; /* anchors per cell; 3 classes + background */
  TfwModel *m = tfw_new();
  int32_t din[4] = {1, 16, 16, 3};
  int x = tfw_tensor(m, "image", TFW_INT8, 4, din, 0);
  float in_s = 1.0f / 128.0f;
  tfw_quant1(m, x, in_s, 0);
  tfw_inputs(m, 1, &x);
  float f1s = 0.03f, f2s = 0.05f, hs = 0.06f; /* feature maps, heads */
  int f1 = conv(m, &r, x, in_s, 3, 16, 8, 3, 2, 1, f1s, -128, "fm1");   /* 8x8x8 */
  int f2 = conv(m, &r, f1, f1s, 8, 8, 16, 3, 2, 1, f2s, -128, "fm2");   /* 4x4x16 */
  int b1 = conv(m, &r, f1, f1s, 8, 8, APL * 4, 3, 1, 0, hs, 0, "box1");
  int c1 = conv(m, &r, f1, f1s, 8, 8, APL * CLS, 3, 1, 0, hs, 0, "cls1");
  int b2 = conv(m, &r, f2, f2s, 16, 4, APL * 4, 3, 1, 0, hs, 0, "box2");
  int c2 = conv(m, &r, f2, f2s, 16, 4, APL * CLS, 3, 1, 0, hs, 0, "cls2");
  int n1 = 8 * 8 * APL, n2 = 4 * 4 * APL, n = n1 + n2;
  int rb1 = reshape(m, b1, n1, 4, hs, 0, "box1/reshape");
  int rc1 = reshape(m, c1, n1, CLS, hs, 0, "cls1/reshape");
  int rb2 = reshape(m, b2, n2, 4, hs, 0, "box2/reshape");
  int rc2 = reshape(m, c2, n2, CLS, hs, 0, "cls2/reshape");
  int32_t dbx[3] = {1, n, 4}, dcl[3] = {1, n, CLS};
  int boxes = tfw_tensor(m, "box_encodings_q", TFW_INT8, 3, dbx, 0);
  tfw_quant1(m, boxes, hs, 0);
  int logits = tfw_tensor(m, "class_logits_q", TFW_INT8, 3, dcl, 0);
  tfw_quant1(m, logits, hs, 0);
  int cb[2] = {rb1, rb2}, cc[2] = {rc1, rc2};
  tfw_concatenation_options(m, tfw_op(m, TFW_OP_CONCATENATION, 2, cb, 1, &boxes), 1,
                            TFW_ACT_NONE);
  tfw_concatenation_options(m, tfw_op(m, TFW_OP_CONCATENATION, 2, cc, 1, &logits), 1,
                            TFW_ACT_NONE);
  int probs = tfw_tensor(m, "class_scores_q", TFW_INT8, 3, dcl, 0);
  tfw_quant1(m, probs, 1.0f / 256.0f, -128);
  tfw_op(m, TFW_OP_LOGISTIC, 1, &logits, 1, &probs);
  int fboxes = tfw_tensor(m, "box_encodings", TFW_FLOAT32, 3, dbx, 0);
  int fprobs = tfw_tensor(m, "class_scores", TFW_FLOAT32, 3, dcl, 0);
  tfw_op(m, TFW_OP_DEQUANTIZE, 1, &boxes, 1, &fboxes);
  tfw_op(m, TFW_OP_DEQUANTIZE, 1, &probs, 1, &fprobs);
  float *anchors = malloc(sizeof(float) * 4 * (size_t)n);
  if (!anchors)
    die("out of memory");
  grid_anchors(anchors, 8, APL, 0.2f);
  grid_anchors(anchors + 4 * n1, 4, APL, 0.45f);
  int32_t dan[2] = {n, 4};
  int ta = tfw_const(m, "anchors", TFW_FLOAT32, 2, dan, anchors);
  Options o = {10, 1, 10, 1, CLS - 1, 0.3f, 0.5f, 10.0f, 10.0f, 5.0f, 5.0f};
  int in[3] = {fboxes, fprobs, ta}, out[4];
  outputs(m, &o, out);
  custom_op(m, &o, in, out);
  char path[1024];
  join(path, sizeof path, dir, "model.tflite");
  if (tfw_write_file(m, path))
    die("cannot write the SSD model");
  tfw_free(m);
  free(anchors);
  int8_t img[16 * 16 * 3];
  for (int i = 0; i < 16 * 16 * 3; i++)
    img[i] = (int8_t)rint_in(&r, -128, 127);
  write_bytes(dir, "in0.bin", img, sizeof img);
  fprintf(manifest, "ssd_int8 0 %d %d 1\n", o.max_detections, o.max_cpd);
}

/* ---------------------------------------------------- bad models */

/* Models tinyaot must refuse with a message: bad/<name>.tflite, and a
 * line "NAME TEXT" in bad/expect.txt with a piece of the message. */
static void bad_model(const char *dir, FILE *expect, const char *name, int dtype, float iou,
                      int num_classes, int anchors_rows, const char *text) {
  TfwModel *m = tfw_new();
  int n = 8;
  int32_t dbox[3] = {1, n, 4}, dsc[3] = {1, n, 3}, dan[2] = {anchors_rows, 4};
  float anchors[4 * 16] = {0};
  int in[3], out[4];
  in[0] = tfw_tensor(m, "box_encodings", dtype, 3, dbox, 0);
  in[1] = tfw_tensor(m, "class_predictions", dtype, 3, dsc, 0);
  if (dtype != TFW_FLOAT32) {
    tfw_quant1(m, in[0], 0.1f, 0);
    tfw_quant1(m, in[1], 0.1f, 0);
  }
  in[2] = tfw_const(m, "anchors", TFW_FLOAT32, 2, dan, anchors);
  tfw_inputs(m, 2, in);
  Options o = {4, 1, 10, 1, num_classes, 0.3f, iou, 10.0f, 10.0f, 5.0f, 5.0f};
  outputs(m, &o, out);
  custom_op(m, &o, in, out);
  char path[1024], file[80];
  snprintf(file, sizeof file, "%s.tflite", name);
  join(path, sizeof path, dir, file);
  if (tfw_write_file(m, path))
    die("cannot write a model");
  tfw_free(m);
  fprintf(expect, "%s %s\n", name, text);
}

static void bad_models(const char *outdir) {
  char dir[1024], path[1024];
  join(dir, sizeof dir, outdir, "bad");
  if (mkdir(dir, 0777) && errno != EEXIST)
    die("cannot create the bad models' folder");
  join(path, sizeof path, dir, "expect.txt");
  FILE *f = fopen(path, "w");
  if (!f)
    die("cannot write bad/expect.txt");
  bad_model(dir, f, "iou_zero", TFW_FLOAT32, 0.0f, 2, 8, "nms_iou_threshold is 0");
  bad_model(dir, f, "int8_inputs", TFW_INT8, 0.5f, 2, 8, "takes float32 or uint8");
  bad_model(dir, f, "num_classes", TFW_FLOAT32, 0.5f, 5, 8, "num_classes is 5");
  bad_model(dir, f, "few_anchors", TFW_FLOAT32, 0.5f, 2, 6, "the anchors are [6][4]");
  if (fclose(f))
    die("cannot write bad/expect.txt");
}

/* ------------------------------------------------------- comparing */

static float *slurp(const char *dir, int k, size_t *n) {
  char path[1024], name[16];
  snprintf(name, sizeof name, "out%d.bin", k);
  join(path, sizeof path, dir, name);
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  float *p = malloc(1 << 20);
  *n = p ? fread(p, sizeof(float), (1 << 20) / sizeof(float), f) : 0;
  fclose(f);
  return p;
}

static int compare(int fast, int max_det, int max_cpd, int k, double atol, const char *edir,
                   const char *adir) {
  float *e[4], *a[4];
  size_t ne[4], na[4];
  for (int i = 0; i < 4; i++) {
    e[i] = slurp(edir, i, &ne[i]);
    a[i] = slurp(adir, i, &na[i]);
    if (!e[i] || !a[i] || ne[i] != na[i]) {
      printf("output %d: missing or of different sizes\n", i);
      return 2;
    }
  }
  size_t slots = (size_t)max_det * (size_t)max_cpd;
  if (ne[0] != 4 * slots || ne[1] != slots || ne[2] != slots || ne[3] != 1) {
    printf("outputs of unexpected sizes\n");
    return 2;
  }
  if (e[3][0] != a[3][0]) {
    printf("num_detections: expected %g, got %g\n", (double)e[3][0], (double)a[3][0]);
    return 1;
  }
  int count = (int)e[3][0];
  double worst = 0;
  for (int r = 0; r < (fast ? count : max_det); r++)
    for (int c = 0; c < (fast ? k : 1); c++) {
      size_t s = fast ? (size_t)r * (size_t)max_cpd + (size_t)c : (size_t)r;
      if (e[1][s] != a[1][s] || e[2][s] != a[2][s]) {
        printf("slot %zu: expected class %g score %.9g, got class %g score %.9g\n", s,
               (double)e[1][s], (double)e[2][s], (double)a[1][s], (double)a[2][s]);
        return 1;
      }
      for (int q = 0; q < 4; q++) {
        double x = e[0][4 * s + q], y = a[0][4 * s + q], d = fabs(x - y);
        if (!(d <= atol + atol * fabs(x))) {
          printf("slot %zu box value %d: expected %.9g, got %.9g\n", s, q, x, y);
          return 1;
        }
        if (d > worst)
          worst = d;
      }
    }
  printf("equal: %d detections, largest box difference %.3g\n", count, worst);
  for (int i = 0; i < 4; i++) {
    free(e[i]);
    free(a[i]);
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 9 && !strcmp(argv[1], "--compare"))
    return compare(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]), atoi(argv[5]),
                   atof(argv[6]), argv[7], argv[8]);
  uint64_t seed = 1;
  int count = 20;
  const char *outdir = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--seed") && i + 1 < argc)
      seed = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--count") && i + 1 < argc)
      count = atoi(argv[++i]);
    else if (!outdir)
      outdir = argv[i];
    else
      die("usage: gen_detection [--seed S] [--count N] OUTDIR | --compare ...");
  }
  if (!outdir)
    die("usage: gen_detection [--seed S] [--count N] OUTDIR | --compare ...");
  if (mkdir(outdir, 0777) && errno != EEXIST)
    die("cannot create OUTDIR");
  char path[1024];
  join(path, sizeof path, outdir, "manifest.txt");
  FILE *manifest = fopen(path, "w");
  if (!manifest)
    die("cannot write the manifest");
  for (int k = 0; k < count; k++) {
    Rng r = {seed * 1000003u + (uint64_t)k};
    char name[64], dir[1024];
    snprintf(name, sizeof name, "det.%d", k);
    join(dir, sizeof dir, outdir, name);
    if (mkdir(dir, 0777) && errno != EEXIST)
      die("cannot create a case folder");
    single_case(&r, k, dir, manifest, name);
  }
  join(path, sizeof path, outdir, "ssd_int8");
  if (mkdir(path, 0777) && errno != EEXIST)
    die("cannot create the SSD folder");
  ssd_model(path, manifest, seed);
  bad_models(outdir);
  if (fclose(manifest))
    die("cannot write the manifest");
  return 0;
}
