/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ssd_detector.c - a real SSD detector for the TFLite_Detection_PostProcess
 * tests: MediaPipe's trained SSD MobileNetV2 (Open Images V4, 23 classes,
 * float16 weights; doc/models.md says where it comes from) ended the way
 * the TensorFlow Object Detection API's TFLite export ends a detector.
 *
 *   ssd_detector --model IN.tflite MODE OUT.tflite
 *   ssd_detector --head FAST OUT.tflite
 *   ssd_detector --image GRAY.bin W H OUT.bin
 *   ssd_detector --scene SEED OUT.bin
 *   ssd_detector --compare FAST TOL EXPECTED_DIR ACTUAL_DIR
 *
 * --model copies subgraph 0 of IN.tflite (the ops that model has:
 * DEQUANTIZE, CONV_2D, DEPTHWISE_CONV_2D, ADD, RESHAPE, CONCATENATION; its
 * two outputs, box encodings [1][1917][4] and class logits [1][1917][24])
 * and appends LOGISTIC on the logits and TFLite_Detection_PostProcess with
 * the model's 1917 anchors as a constant, fast (MODE 1) or regular (MODE
 * 0) NMS.  The four outputs: boxes [1][10][4], classes, scores [1][10],
 * num_detections [1].  MODE 2 stops after LOGISTIC (outputs: the box
 * encodings and the class scores).  --head writes only the
 * post-processing (the same anchors and options), whose inputs are those
 * two tensors: with them TFLite's post-processing is checked bit for bit
 * on real detector outputs.
 *
 * The anchors are MediaPipe's SsdAnchorsCalculator for this model
 * (mediapipe/modules/objectron/object_detection_oidv4_subgraph.pbtxt): 6
 * layers, scales 0.2 .. 0.95, input 300 x 300, strides 16 .. 512 (feature
 * maps 19, 10, 5, 3, 2, 1), aspect ratios 1, 2, 0.5, 3, 0.3333 plus the
 * interpolated scale at ratio 1, the lowest layer reduced to 3 boxes
 * (scale 0.1 at ratio 1, then ratios 2 and 0.5), centres at (i + 0.5) /
 * size.  Box scales y 10, x 10, h 5, w 5, as its TensorsToDetections.
 *
 * --image widens a W x H 8-bit grayscale picture to the model's input:
 * float32 [1][300][300][3], bilinear, the gray value in all three
 * channels, scaled to [-1, 1] as MediaPipe feeds the model.  --scene
 * paints a seeded scene: a smooth background and a few flat rectangles.
 *
 * --compare reads out0..out3.bin of both folders: num_detections equal,
 * then in the slots TFLite writes (fast NMS: r < num_detections; regular:
 * the first 10) classes equal and scores and boxes within TOL + TOL *
 * |expected| (the backbone is float: its sums are added in another order
 * by TFLite's kernels).  Exit 0 when they agree, 1 with the first
 * difference, 2 for unreadable files.
 *
 * Host-side test tooling: malloc, and exit with a message on bad input.
 * The reader checks every offset it follows against the file's size.
 */
#include "tflite_writer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"

enum { NANCHORS = 1917, NCLASSES = 23, MAX_DET = 10, SIDE = 300 };

static void die(const char *msg) {
  fprintf(stderr, "ssd_detector: %s\n", msg);
  exit(2);
}

static uint8_t *read_file(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 1 << 20, len = 0;
  uint8_t *p = malloc(cap);
  size_t k;
  while (p && (k = fread(p + len, 1, cap - len, f)) > 0) {
    len += k;
    if (len == cap)
      p = realloc(p, cap *= 2);
  }
  fclose(f);
  if (!p)
    die("out of memory");
  *n = len;
  return p;
}

static void write_file(const char *path, const void *p, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(p, 1, n, f) != n || fclose(f))
    die("cannot write an output file");
}

/* ------------------------------------------- a bounds-checked reader */

static const uint8_t *fb;
static size_t nfb;

static uint32_t u32_at(size_t at) {
  if (at > nfb || nfb - at < 4)
    die("the model is truncated");
  return (uint32_t)fb[at] | (uint32_t)fb[at + 1] << 8 | (uint32_t)fb[at + 2] << 16 |
         (uint32_t)fb[at + 3] << 24;
}

static uint16_t u16_at(size_t at) {
  if (at > nfb || nfb - at < 2)
    die("the model is truncated");
  return (uint16_t)(fb[at] | fb[at + 1] << 8);
}

/* Where field `slot` of the table at `t` is, or 0 when it is absent. */
static size_t field(size_t t, int slot) {
  size_t vt = t - (size_t)(int32_t)u32_at(t);
  if (vt > nfb)
    die("a vtable is outside the model");
  uint16_t vsize = u16_at(vt);
  if (4 + 2 * (size_t)slot + 2 > vsize)
    return 0;
  uint16_t off = u16_at(vt + 4 + 2 * (size_t)slot);
  return off ? t + off : 0;
}

static int32_t int_field(size_t t, int slot, int32_t dflt) {
  size_t at = field(t, slot);
  return at ? (int32_t)u32_at(at) : dflt;
}

static int byte_field(size_t t, int slot, int dflt) {
  size_t at = field(t, slot);
  if (at && at >= nfb)
    die("the model is truncated");
  return at ? (int8_t)fb[at] : dflt;
}

/* The object an offset field points to (table, vector or string), or 0. */
static size_t ref_field(size_t t, int slot) {
  size_t at = field(t, slot);
  return at ? at + u32_at(at) : 0;
}

static uint32_t vec_len(size_t v) {
  uint32_t n = v ? u32_at(v) : 0;
  if (v && (nfb - v - 4) / 4 < n)
    die("a vector is longer than the model");
  return n;
}

static size_t vec_table(size_t v, uint32_t k) {
  size_t at = v + 4 + 4 * (size_t)k;
  return at + u32_at(at);
}

/* Vector of int32 into out (at most max). */
static int int_vec(size_t v, int32_t *out, int max) {
  uint32_t n = vec_len(v);
  if ((int)n > max)
    die("a vector is longer than expected");
  for (uint32_t k = 0; k < n; k++)
    out[k] = (int32_t)u32_at(v + 4 + 4 * (size_t)k);
  return (int)n;
}

/* --------------------------------------------------- the anchors */

static double layer_scale(int i, int n) {
  return n == 1 ? (0.2 + 0.95) / 2 : 0.2 + (0.95 - 0.2) * i / (n - 1);
}

/* (ycenter, xcenter, h, w) of every anchor, in the heads' order. */
static void anchors(float *a) {
  static const int stride[6] = {16, 32, 64, 128, 256, 512};
  static const double ratio[5] = {1.0, 2.0, 0.5, 3.0, 0.3333};
  int k = 0;
  for (int layer = 0; layer < 6; layer++) {
    double s[8], r[8];
    int n = 0;
    double sc = layer_scale(layer, 6);
    if (layer == 0) {
      s[0] = 0.1, r[0] = 1.0;
      s[1] = sc, r[1] = 2.0;
      s[2] = sc, r[2] = 0.5;
      n = 3;
    } else {
      for (int j = 0; j < 5; j++)
        s[n] = sc, r[n++] = ratio[j];
      double next = layer == 5 ? 1.0 : layer_scale(layer + 1, 6);
      s[n] = sqrt(sc * next), r[n++] = 1.0;
    }
    int fm = (SIDE + stride[layer] - 1) / stride[layer];
    for (int y = 0; y < fm; y++)
      for (int x = 0; x < fm; x++)
        for (int j = 0; j < n; j++, k++) {
          if (k >= NANCHORS)
            die("more anchors than boxes");
          a[4 * k + 0] = (float)((y + 0.5) / fm);
          a[4 * k + 1] = (float)((x + 0.5) / fm);
          a[4 * k + 2] = (float)(s[j] / sqrt(r[j]));
          a[4 * k + 3] = (float)(s[j] * sqrt(r[j]));
        }
  }
  if (k != NANCHORS)
    die("the anchors do not match the box count");
}

/* TFLite_Detection_PostProcess of box encodings and class scores with
 * the anchors and options above; its four outputs become the model's. */
static void append_postprocess(TfwModel *m, int boxes, int scores, int fast) {
  int32_t da[2] = {NANCHORS, 4};
  static float a[4 * NANCHORS];
  anchors(a);
  int anc = tfw_const(m, "anchors", TFW_FLOAT32, 2, da, a);
  TfwFlexEntry e[] = {
      {"max_detections", 'i', MAX_DET, 0},
      {"max_classes_per_detection", 'i', 1, 0},
      {"detections_per_class", 'i', 100, 0},
      {"use_regular_nms", 'b', !fast, 0},
      {"nms_score_threshold", 'f', 0, 0.1f},
      {"nms_iou_threshold", 'f', 0, 0.6f},
      {"num_classes", 'i', NCLASSES, 0},
      {"y_scale", 'f', 0, 10.0f},
      {"x_scale", 'f', 0, 10.0f},
      {"h_scale", 'f', 0, 5.0f},
      {"w_scale", 'f', 0, 5.0f},
  };
  uint8_t *bytes;
  size_t n = tfw_flex_map(e, (int)(sizeof e / sizeof *e), &bytes);
  int32_t db[3] = {1, MAX_DET, 4}, dc[2] = {1, MAX_DET}, dn[1] = {1};
  int out[4] = {tfw_tensor(m, "detection_boxes", TFW_FLOAT32, 3, db, 0),
                tfw_tensor(m, "detection_classes", TFW_FLOAT32, 2, dc, 0),
                tfw_tensor(m, "detection_scores", TFW_FLOAT32, 2, dc, 0),
                tfw_tensor(m, "num_detections", TFW_FLOAT32, 1, dn, 0)};
  int in[3] = {boxes, scores, anc};
  tfw_custom_op(m, "TFLite_Detection_PostProcess", bytes, n, 3, in, 4, out);
  free(bytes);
  tfw_outputs(m, 4, out);
}

/* LOGISTIC on the logits, then (mode 0: regular NMS, 1: fast) the
 * post-processing; mode 2 stops after LOGISTIC: outputs boxes, scores. */
static void append_head(TfwModel *m, int boxes, int logits, int mode) {
  int32_t dl[3] = {1, NANCHORS, NCLASSES + 1};
  int scores = tfw_tensor(m, "class_scores", TFW_FLOAT32, 3, dl, 0);
  tfw_op(m, TFW_OP_LOGISTIC, 1, &logits, 1, &scores);
  if (mode == 2) {
    int out[2] = {boxes, scores};
    tfw_outputs(m, 2, out);
    return;
  }
  append_postprocess(m, boxes, scores, mode);
}

/* ------------------------------------------ --model: copy and extend */

enum { MAXT = 4096 };

static int copy_model(const char *in, int fast, const char *out) {
  uint8_t *file = read_file(in, &nfb);
  if (!file)
    die("cannot read the model");
  fb = file;
  size_t model = u32_at(0);
  size_t codes = ref_field(model, 1), subgraphs = ref_field(model, 2);
  size_t buffers = ref_field(model, 4);
  if (vec_len(subgraphs) < 1)
    die("the model has no subgraph");
  size_t sg = vec_table(subgraphs, 0);
  size_t tensors = ref_field(sg, 0), ops = ref_field(sg, 3);
  uint32_t nt = vec_len(tensors);
  if (nt > MAXT)
    die("too many tensors");
  TfwModel *m = tfw_new();
  static int map[MAXT];
  for (uint32_t i = 0; i < nt; i++) {
    size_t t = vec_table(tensors, i);
    int32_t dims[8];
    int nd = int_vec(ref_field(t, 0), dims, 8);
    int type = byte_field(t, 1, 0);
    uint32_t b = (uint32_t)int_field(t, 2, 0);
    if (field(t, 4) && vec_len(ref_field(ref_field(t, 4), 1)) > 0)
      die("quantized tensors are not copied");
    int buf = 0;
    if (b > 0 && b < vec_len(buffers)) {
      size_t data = ref_field(vec_table(buffers, b), 0);
      uint32_t n = data ? u32_at(data) : 0;
      if (data && nfb - data - 4 < n)
        die("a buffer is longer than the model");
      if (n)
        buf = tfw_buffer(m, fb + data + 4, n);
    }
    char name[32];
    snprintf(name, sizeof name, "t%u", (unsigned)i);
    map[i] = tfw_tensor(m, name, type, nd, dims, buf);
  }
  int32_t io[8];
  int nin = int_vec(ref_field(sg, 1), io, 8);
  for (int k = 0; k < nin; k++)
    io[k] = map[io[k]];
  tfw_inputs(m, nin, io);
  int32_t outs[8];
  if (int_vec(ref_field(sg, 2), outs, 8) != 2)
    die("the model does not have two outputs (boxes, logits)");
  uint32_t nops = vec_len(ops);
  for (uint32_t i = 0; i < nops; i++) {
    size_t op = vec_table(ops, i);
    uint32_t ci = (uint32_t)int_field(op, 0, 0);
    if (ci >= vec_len(codes))
      die("an operator code index is out of range");
    size_t code = vec_table(codes, ci);
    int bc = int_field(code, 3, 0);
    if (bc == 0)
      bc = byte_field(code, 0, 0);
    int32_t a[16], r[16];
    int na = int_vec(ref_field(op, 1), a, 16), nr = int_vec(ref_field(op, 2), r, 16);
    for (int k = 0; k < na; k++)
      if (a[k] >= 0) {
        if ((uint32_t)a[k] >= nt)
          die("an input tensor index is out of range");
        a[k] = map[a[k]];
      }
    for (int k = 0; k < nr; k++) {
      if (r[k] < 0 || (uint32_t)r[k] >= nt)
        die("an output tensor index is out of range");
      r[k] = map[r[k]];
    }
    int o = tfw_op(m, bc, na, a, nr, r);
    tfw_op_version(m, o, int_field(code, 2, 1));
    size_t opt = ref_field(op, 4);
    switch (bc) {
    case TFW_OP_DEQUANTIZE:
      break;
    case TFW_OP_CONV_2D:
      tfw_conv2d_options(m, o, byte_field(opt, 0, 0), int_field(opt, 1, 0), int_field(opt, 2, 0),
                         byte_field(opt, 3, 0), int_field(opt, 4, 1), int_field(opt, 5, 1));
      break;
    case TFW_OP_DEPTHWISE_CONV_2D:
      tfw_depthwise_options(m, o, byte_field(opt, 0, 0), int_field(opt, 1, 0),
                            int_field(opt, 2, 0), int_field(opt, 3, 0), byte_field(opt, 4, 0),
                            int_field(opt, 5, 1), int_field(opt, 6, 1));
      break;
    case TFW_OP_ADD:
      tfw_add_options(m, o, byte_field(opt, 0, 0), -1);
      break;
    case TFW_OP_CONCATENATION:
      tfw_concatenation_options(m, o, int_field(opt, 0, 0), byte_field(opt, 1, 0));
      break;
    case TFW_OP_RESHAPE: {
      int32_t s[8];
      int ns = opt ? int_vec(ref_field(opt, 0), s, 8) : -1;
      tfw_reshape_options(m, o, opt && field(opt, 0) ? ns : -1, s);
      break;
    }
    default:
      die("the model has an operator this copier does not know");
    }
  }
  append_head(m, map[outs[0]], map[outs[1]], fast);
  if (tfw_write_file(m, out))
    die("cannot write the model");
  tfw_free(m);
  free(file);
  return 0;
}

static int head_model(int fast, const char *out) {
  TfwModel *m = tfw_new();
  int32_t db[3] = {1, NANCHORS, 4}, dl[3] = {1, NANCHORS, NCLASSES + 1};
  int in[2] = {tfw_tensor(m, "box_encodings", TFW_FLOAT32, 3, db, 0),
               tfw_tensor(m, "class_scores", TFW_FLOAT32, 3, dl, 0)};
  tfw_inputs(m, 2, in);
  append_postprocess(m, in[0], in[1], fast);
  if (tfw_write_file(m, out))
    die("cannot write the model");
  tfw_free(m);
  return 0;
}

/* ------------------------------------------------------- inputs */

static float pixels[SIDE * SIDE * 3];

static int image_input(const char *path, int w, int h, const char *out) {
  size_t n;
  uint8_t *g = read_file(path, &n);
  if (!g || w < 2 || h < 2 || n != (size_t)w * (size_t)h)
    die("the image is not W x H bytes");
  for (int y = 0; y < SIDE; y++)
    for (int x = 0; x < SIDE; x++) {
      double fy = (y + 0.5) * h / SIDE - 0.5, fx = (x + 0.5) * w / SIDE - 0.5;
      fy = fy < 0 ? 0 : fy > h - 1 ? h - 1 : fy;
      fx = fx < 0 ? 0 : fx > w - 1 ? w - 1 : fx;
      int y0 = (int)fy, x0 = (int)fx, y1 = y0 + 1 < h ? y0 + 1 : y0, x1 = x0 + 1 < w ? x0 + 1 : x0;
      double dy = fy - y0, dx = fx - x0;
      double v = (1 - dy) * ((1 - dx) * g[y0 * w + x0] + dx * g[y0 * w + x1]) +
                 dy * ((1 - dx) * g[y1 * w + x0] + dx * g[y1 * w + x1]);
      for (int c = 0; c < 3; c++)
        pixels[(y * SIDE + x) * 3 + c] = (float)(v / 127.5 - 1.0);
    }
  write_file(out, pixels, sizeof pixels);
  free(g);
  return 0;
}

static int scene_input(uint64_t seed, const char *out) {
  Rng r;
  r.s = seed;
  double base[3], slope[3];
  for (int c = 0; c < 3; c++)
    base[c] = runit(&r) * 1.2 - 0.6, slope[c] = runit(&r) * 0.8 - 0.4;
  for (int y = 0; y < SIDE; y++)
    for (int x = 0; x < SIDE; x++)
      for (int c = 0; c < 3; c++)
        pixels[(y * SIDE + x) * 3 + c] = (float)(base[c] + slope[c] * (x + y) / (2.0 * SIDE));
  int nrect = 2 + (int)(runit(&r) * 3);
  for (int k = 0; k < nrect; k++) {
    int x0 = (int)(runit(&r) * 200), y0 = (int)(runit(&r) * 200);
    int x1 = x0 + 40 + (int)(runit(&r) * 100), y1 = y0 + 40 + (int)(runit(&r) * 100);
    float col[3];
    for (int c = 0; c < 3; c++)
      col[c] = (float)(runit(&r) * 2 - 1);
    for (int y = y0; y < y1 && y < SIDE; y++)
      for (int x = x0; x < x1 && x < SIDE; x++)
        for (int c = 0; c < 3; c++)
          pixels[(y * SIDE + x) * 3 + c] = col[c];
  }
  write_file(out, pixels, sizeof pixels);
  return 0;
}

/* ------------------------------------------------------ --compare */

static float *outputs(const char *dir, int k, size_t want) {
  char path[1024];
  snprintf(path, sizeof path, "%s/out%d.bin", dir, k);
  size_t n;
  uint8_t *p = read_file(path, &n);
  if (!p || n != 4 * want) {
    fprintf(stderr, "ssd_detector: %s is missing or not %zu floats\n", path, want);
    exit(2);
  }
  return (float *)(void *)p;
}

static int compare(int fast, double tol, const char *edir, const char *adir) {
  static const size_t size[4] = {4 * MAX_DET, MAX_DET, MAX_DET, 1};
  float *e[4], *a[4];
  for (int k = 0; k < 4; k++)
    e[k] = outputs(edir, k, size[k]), a[k] = outputs(adir, k, size[k]);
  if (e[3][0] != a[3][0]) {
    printf("num_detections %g, expected %g\n", a[3][0], e[3][0]);
    return 1;
  }
  int n = fast ? (int)e[3][0] : MAX_DET;
  for (int r = 0; r < n && r < MAX_DET; r++) {
    if (e[1][r] != a[1][r]) {
      printf("detection %d: class %g, expected %g\n", r, a[1][r], e[1][r]);
      return 1;
    }
    if (fabs(e[2][r] - a[2][r]) > tol + tol * fabs(e[2][r])) {
      printf("detection %d: score %.9g, expected %.9g\n", r, a[2][r], e[2][r]);
      return 1;
    }
    for (int c = 0; c < 4; c++)
      if (fabs(e[0][4 * r + c] - a[0][4 * r + c]) > tol + tol * fabs(e[0][4 * r + c])) {
        printf("detection %d: box[%d] %.9g, expected %.9g\n", r, c, a[0][4 * r + c],
               e[0][4 * r + c]);
        return 1;
      }
  }
  printf("%g detections", e[3][0]);
  for (int r = 0; r < (int)e[3][0] && r < MAX_DET; r++)
    printf("%s class %g score %.3f", r ? "," : ":", e[1][r], e[2][r]);
  printf("\n");
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 5 && !strcmp(argv[1], "--model"))
    return copy_model(argv[2], atoi(argv[3]), argv[4]);
  if (argc == 4 && !strcmp(argv[1], "--head"))
    return head_model(atoi(argv[2]), argv[3]);
  if (argc == 6 && !strcmp(argv[1], "--image"))
    return image_input(argv[2], atoi(argv[3]), atoi(argv[4]), argv[5]);
  if (argc == 4 && !strcmp(argv[1], "--scene"))
    return scene_input(strtoull(argv[2], NULL, 10), argv[3]);
  if (argc == 6 && !strcmp(argv[1], "--compare"))
    return compare(atoi(argv[2]), atof(argv[3]), argv[4], argv[5]);
  die("usage: ssd_detector --model IN FAST OUT | --head FAST OUT | --image GRAY W H OUT | "
      "--scene SEED OUT | --compare FAST TOL EXPECTED ACTUAL");
  return 2;
}
