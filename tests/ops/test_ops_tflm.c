/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Ops whose TFLite Micro arithmetic the single-op differential tests
 * against TFLite (run_ops.sh) cannot check - TFLite computes them
 * differently, or has no generator row for them - checked against
 * transliterations of TFLM's reference code written here:
 *
 *   MEAN int8            reference_ops::QuantizedMeanOrSum (ReducedOutputOffset walk)
 *   SUM int8             the same with compute_sum (TFLite sums in float)
 *   BATCH_MATMUL int8    reference_ops::BatchMatMul, double rounding
 *                        (TFLite's GEMM rounds once)
 *   RESIZE_BILINEAR int8 reference_ops::ResizeBilinearInteger
 *   LOGISTIC, TANH int8  reference_integer_ops::Logistic / Tanh, gemmlowp's
 *                        fixed-point logistic and tanh (masks and all)
 *   HARD_SWISH int8      reference_ops::HardSwish (16-bit fixed point)
 *   RELU, RELU6 int8     ReluQuantized / Relu6Quantized (activations.cc)
 *   RELU, RELU6 int16    the same for int16 (activations_common.cc)
 *   LEAKY_RELU int8      reference_ops::QuantizeLeakyRelu
 *   PADV2, SLICE, ARG_MIN, RELU_N1_TO_1 (no generator row)
 *   DIV int8, SQUARED_DIFFERENCE int16, GREATER int16, ADD_N int8 (TFLite
 *                        has none of them; tflm_math.h)
 *   16x8 FULLY_CONNECTED, CONV_2D with an int32 bias or none
 *                        ConvPerChannel<int32_t> / FullyConnected with
 *                        int32 sums: TFLM rounds twice, TFLite once
 *   16x8 TRANSPOSE_CONV without bias  TFLM sums in int64
 *                        (GetOptionalTensorData<int64_t>), TFLite in int32
 *   CUMSUM int8          reference_ops::CumSum, quantized (TFLite has
 *                        none): the input shifted by 20 and halved, the
 *                        running sum from the scaled -zero point
 *   LOG_SOFTMAX int8     reference_ops::LogSoftmaxQuantized: gemmlowp's
 *                        exp and TFLite's fixed-point log (TFLite's
 *                        builtin kernel uses a float table)
 *
 * Each op gets one model with several independent instances (random
 * shapes and quantization, a fixed seed), written with tools/
 * tflite_writer.c, compiled and run by `tinyaot run` (default rounding,
 * TFLM's); every output byte must equal the transliteration's.  The
 * fixed-point helpers and QuantizeMultiplier come from tests/kernels/
 * ref.h and this file, nothing from compiler/ or runtime/.
 */
#define _POSIX_C_SOURCE 200809L
#include "model_test.h"

#include "../../tools/tflite_writer.c"
#include "../kernels/ref.h"

#define NINST 6 /* instances per model */
#define MAXN 4096

static uint32_t seed = 20261130u;
static uint32_t rnext(void) {
  seed ^= seed << 13;
  seed ^= seed >> 17;
  seed ^= seed << 5;
  return seed;
}
static int rint_in(int lo, int hi) { return lo + (int)(rnext() % (uint32_t)(hi - lo + 1)); }
static float runif(float lo, float hi) { return lo + (hi - lo) * (float)(rnext() >> 8) * 0x1p-24f; }

/* QuantizeMultiplier (quantization_util.cc), double rounding build. */
static void qmult(double real, int32_t *m, int *shift) {
  if (real == 0.0) {
    *m = 0;
    *shift = 0;
    return;
  }
  double q = frexp(real, shift);
  int64_t qf = (int64_t)round(q * 2147483648.0);
  if (qf == (INT64_C(1) << 31)) {
    qf /= 2;
    ++*shift;
  }
  if (*shift < -31) {
    *shift = 0;
    qf = 0;
  }
  *m = (int32_t)qf;
}

/* One model under construction: up to NINST + 1 inputs and outputs. */
typedef struct {
  TfwModel *m;
  int in[NINST + 1], out[NINST + 1];
  int nin, nout;
  uint8_t *in_data[NINST + 1];
  size_t in_bytes[NINST + 1];
  uint8_t *expect[NINST + 1];
  size_t out_bytes[NINST + 1];
} Model;

static const char *tmpdir;
static const char *tinyaot;

static int add_input(Model *md, const char *name, int dtype, int nd, const int32_t *d,
                     float scale, int zp, const void *data, size_t bytes) {
  int t = tfw_tensor(md->m, name, dtype, nd, d, 0);
  if (dtype != TFW_FLOAT32)
    tfw_quant1(md->m, t, scale, zp);
  md->in[md->nin] = t;
  md->in_data[md->nin] = malloc(bytes);
  memcpy(md->in_data[md->nin], data, bytes);
  md->in_bytes[md->nin++] = bytes;
  return t;
}

static int add_output(Model *md, const char *name, int dtype, int nd, const int32_t *d,
                      float scale, int zp, const void *expect, size_t bytes) {
  int t = tfw_tensor(md->m, name, dtype, nd, d, 0);
  if (dtype != TFW_FLOAT32 && dtype != TFW_INT32 && dtype != TFW_INT64)
    tfw_quant1(md->m, t, scale, zp);
  md->out[md->nout] = t;
  md->expect[md->nout] = malloc(bytes);
  memcpy(md->expect[md->nout], expect, bytes);
  md->out_bytes[md->nout++] = bytes;
  return t;
}

static void write_bytes(const char *path, const void *p, size_t n) {
  FILE *f = fopen(path, "wb");
  if (f) {
    fwrite(p, 1, n, f);
    fclose(f);
  }
}

/* Writes, compiles and runs the model; checks every output. */
static void finish(Model *md, const char *what) {
  tfw_inputs(md->m, md->nin, md->in);
  tfw_outputs(md->m, md->nout, md->out);
  const char *dir = arena_printf("%s/%s", tmpdir, what);
  mkdir(dir, 0777);
  const char *model = arena_printf("%s/model.tflite", dir);
  tfw_write_file(md->m, model);
  const char *cmd = arena_printf("%s run %s", quote(tinyaot), quote(model));
  for (int i = 0; i < md->nin; i++) {
    const char *p = arena_printf("%s/in%d.bin", dir, i);
    write_bytes(p, md->in_data[i], md->in_bytes[i]);
    cmd = arena_printf("%s -i %s", cmd, quote(p));
  }
  for (int i = 0; i < md->nout; i++)
    cmd = arena_printf("%s -o %s", cmd, quote(arena_printf("%s/out%d.bin", dir, i)));
  int rc = run_command(cmd);
  if (CHECK(rc == 0, "%s: %d instances compile, build and run (exit %d)", what, md->nout, rc)) {
    const char *diff = "";
    for (int i = 0; i < md->nout && !*diff; i++) {
      size_t n;
      uint8_t *got = slurp(arena_printf("%s/out%d.bin", dir, i), &n);
      if (n != md->out_bytes[i])
        diff = arena_printf("instance %d: %zu bytes, expected %zu", i, n, md->out_bytes[i]);
      for (size_t k = 0; k < n && !*diff; k++)
        if (got[k] != md->expect[i][k])
          diff = arena_printf("instance %d, byte %zu: expected %d, actual %d", i, k,
                              (int8_t)md->expect[i][k], (int8_t)got[k]);
      free(got);
    }
    CHECK(!*diff, "%s: every output equals the TFLM reference%s%s", what, *diff ? ": " : "",
          diff);
  }
  for (int i = 0; i < md->nin; i++)
    free(md->in_data[i]);
  for (int i = 0; i < md->nout; i++)
    free(md->expect[i]);
  tfw_free(md->m);
}

static void random_s8(int8_t *p, int n) {
  for (int i = 0; i < n; i++)
    p[i] = (int8_t)(rnext() & 0xFF);
}

static int64_t prod(int nd, const int32_t *d) {
  int64_t n = 1;
  for (int i = 0; i < nd; i++)
    n *= d[i];
  return n;
}

/* --------------------------------------------------------------- MEAN */

/* MEAN, or SUM (sum: QuantizedMeanOrSum with compute_sum, no 1/count). */
static void test_mean(int sum_op) {
  Model md = {.m = tfw_new()};
  for (int k = 0; k < NINST; k++) {
    int32_t d[4];
    for (int i = 0; i < 4; i++)
      d[i] = rint_in(1, 5);
    int32_t axes[4];
    int na = 0;
    for (int i = 0; i < 4; i++)
      if (rnext() & 1)
        axes[na++] = (rnext() & 3) ? i : i - 4;
    if (!na)
      axes[na++] = rint_in(0, 3);
    int keep = rnext() & 1;
    float s_in = runif(0.01f, 0.2f), s_out = k % 2 ? s_in : runif(0.01f, 0.2f);
    int zp_in = rint_in(-30, 30), zp_out = k % 2 ? zp_in : rint_in(-30, 30);
    int n = (int)prod(4, d);
    int8_t x[MAXN];
    random_s8(x, n);
    /* QuantizedMeanOrSum: sum into the reduced output offset. */
    int red[4] = {0};
    for (int i = 0; i < na; i++)
      red[axes[i] < 0 ? axes[i] + 4 : axes[i]] = 1;
    int32_t od[4];
    int nod = 0;
    int64_t count = 1;
    for (int i = 0; i < 4; i++) {
      if (red[i])
        count *= d[i];
      if (!red[i])
        od[nod++] = d[i];
      else if (keep)
        od[nod++] = 1;
    }
    int32_t sum[MAXN] = {0};
    int idx[4] = {0};
    for (int i = 0; i < n; i++) {
      int o = 0;
      for (int a = 0; a < 4; a++)
        if (!red[a])
          o = o * d[a] + idx[a];
      sum[o] += x[i];
      for (int a = 3; a >= 0; a--) {
        if (++idx[a] < d[a])
          break;
        idx[a] = 0;
      }
    }
    int32_t mult;
    int shift;
    qmult((double)s_in / (double)s_out, &mult, &shift);
    int s = 0;
    while (s < 63 && ((uint64_t)count >> (s + 1)))
      s++;
    s = s < 32 ? s : 32;
    s = s < 31 + shift ? s : 31 + shift;
    if (!sum_op) {
      mult = (int32_t)(((int64_t)mult << s) / count);
      shift -= s;
    }
    int nout = (int)prod(nod, od);
    int8_t y[MAXN];
    for (int o = 0; o < nout; o++)
      y[o] = (int8_t)ref_clamp(
          ref_mbqm(sum[o] - zp_in * (int32_t)count, mult, shift, TA_ROUND_DOUBLE) + zp_out, -128,
          127);
    int ti = add_input(&md, "x", TFW_INT8, 4, d, s_in, zp_in, x, (size_t)n);
    int ta = tfw_const(md.m, "axis", TFW_INT32, 1, (int32_t[]){na}, axes);
    int to = add_output(&md, "y", TFW_INT8, nod, od, s_out, zp_out, y, (size_t)nout);
    int op = tfw_op(md.m, sum_op ? TFW_OP_SUM : TFW_OP_MEAN, 2, (int[]){ti, ta}, 1, &to);
    tfw_reducer_options(md.m, op, keep);
  }
  finish(&md, sum_op ? "SUM int8" : "MEAN int8");
}

/* ---------------------------------------------------- RESIZE_BILINEAR */

static void interp_int(int32_t v, int32_t scale_10, int half, int32_t size, int32_t *sv,
                       int32_t *lo, int32_t *hi) {
  *sv = half ? v * scale_10 + scale_10 / 2 - (1 << 9) : v * scale_10;
  *lo = *sv / (1 << 10) > 0 ? *sv / (1 << 10) : 0;
  /* TFLM does not clamp lo: with a scale rounded up (2 -> 65 below) it
   * reaches size and TFLM reads past the row; tinyaot takes the edge. */
  *lo = *lo < size - 1 ? *lo : size - 1;
  int32_t u = (*sv + (1 << 10) - 1) / (1 << 10);
  *hi = u < size - 1 ? u : size - 1;
}

static void test_resize_bilinear(void) {
  Model md = {.m = tfw_new()};
  for (int k = 0; k <= NINST; k++) {
    int ih = rint_in(1, 5), iw = rint_in(1, 5), c = rint_in(1, 3);
    int oh = rint_in(1, 11), ow = rint_in(1, 11);
    if (k == NINST) { /* lo past the edge of the width (k % 3 == 0: no flags) */
      ih = iw = 2;
      oh = 2;
      ow = 65;
      c = 1;
    }
    int align = k % 3 == 1, half = k % 3 == 2;
    int32_t din[4] = {1, ih, iw, c}, dout[4] = {1, oh, ow, c};
    int8_t x[MAXN], y[MAXN];
    random_s8(x, ih * iw * c);
    int32_t hs = ((1 << 10) * ih + oh / 2) / oh, ws = ((1 << 10) * iw + ow / 2) / ow;
    if (align && oh > 1)
      hs = ((1 << 10) * (ih - 1) + (oh - 1) / 2) / (oh - 1);
    if (align && ow > 1)
      ws = ((1 << 10) * (iw - 1) + (ow - 1) / 2) / (ow - 1);
    for (int yy = 0; yy < oh; yy++) {
      int32_t iy, y0, y1;
      interp_int(yy, hs, half, ih, &iy, &y0, &y1);
      for (int xx = 0; xx < ow; xx++) {
        int32_t ix, x0, x1;
        interp_int(xx, ws, half, iw, &ix, &x0, &x1);
        for (int ch = 0; ch < c; ch++) {
          int64_t ll = (int64_t)x[(y0 * iw + x0) * c + ch] * ((1 << 10) - (iy - (1 << 10) * y0)) *
                       ((1 << 10) - (ix - (1 << 10) * x0));
          int64_t lu = (int64_t)x[(y1 * iw + x0) * c + ch] * (iy - (1 << 10) * y0) *
                       ((1 << 10) - (ix - (1 << 10) * x0));
          int64_t rl = (int64_t)x[(y0 * iw + x1) * c + ch] * ((1 << 10) - (iy - (1 << 10) * y0)) *
                       (ix - (1 << 10) * x0);
          int64_t ru = (int64_t)x[(y1 * iw + x1) * c + ch] * (iy - (1 << 10) * y0) *
                       (ix - (1 << 10) * x0);
          int64_t o = ll + lu + rl + ru;
          int64_t round = o > 0 ? (1 << 19) : -(1 << 19);
          y[(yy * ow + xx) * c + ch] = (int8_t)((o + round) / (1 << 20));
        }
      }
    }
    float s = runif(0.01f, 0.1f);
    int zp = rint_in(-10, 10);
    int ti = add_input(&md, "x", TFW_INT8, 4, din, s, zp, x, (size_t)(ih * iw * c));
    int tsz = tfw_const(md.m, "size", TFW_INT32, 1, (int32_t[]){2}, (int32_t[]){oh, ow});
    int to = add_output(&md, "y", TFW_INT8, 4, dout, s, zp, y, (size_t)(oh * ow * c));
    int op = tfw_op(md.m, TFW_OP_RESIZE_BILINEAR, 2, (int[]){ti, tsz}, 1, &to);
    tfw_resize_bilinear_options(md.m, op, align, half);
  }
  finish(&md, "RESIZE_BILINEAR int8");
}

/* ----------------------------------------- gemmlowp logistic and tanh */

/* FixedPoint<int32_t, I> arithmetic, as gemmlowp writes it: masks and
 * selects instead of branches. */
static int32_t mask_if(int c) { return c ? -1 : 0; }
static int32_t select_mask(int32_t m, int32_t a, int32_t b) { return (m & a) | (~m & b); }
static int32_t fp_add(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }
static int32_t fp_sub(int32_t a, int32_t b) { return (int32_t)((uint32_t)a - (uint32_t)b); }
static int32_t fp_mul(int32_t a, int32_t b) { return ref_srdhm(a, b); }
static int32_t sat_pot(int32_t x, int e) { /* SaturatingRoundingMultiplyByPOT */
  if (e > 0) {
    int64_t v = (int64_t)x * ((int64_t)1 << e);
    return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v;
  }
  return ref_rdbpot(x, -e);
}

static int32_t exp_interval(int32_t a) { /* exp on [-1/4, 0), Q0.31 */
  const int32_t c = 1895147668, third = 715827883;
  int32_t x = fp_add(a, 1 << 28);
  int32_t x2 = fp_mul(x, x), x3 = fp_mul(x2, x), x4 = fp_mul(x2, x2);
  int32_t x4_4 = sat_pot(x4, -2);
  int32_t poly = sat_pot(fp_add(fp_mul(fp_add(x4_4, x3), third), x2), -1);
  return fp_add(c, fp_mul(c, fp_add(x, poly)));
}

static int32_t exp_neg(int32_t a, int ib) { /* exp_on_negative_values, Q(ib) in */
  int fb = 31 - ib;
  int32_t quarter = 1 << (fb - 2);
  int32_t amq = fp_sub(a & (quarter - 1), quarter);
  int32_t result = exp_interval(sat_pot(amq, ib));
  int32_t rem = fp_sub(amq, a);
  static const int32_t mul[7] = {1672461947, 1302514674, 790015084, 290630308, 39332535, 720401,
                                 242};
  for (int e = -2; e <= 4; e++)
    if (ib > e)
      result = select_mask(mask_if(rem & (int32_t)(1u << (fb + e))), fp_mul(result, mul[e + 2]),
                           result);
  return select_mask(mask_if(a == 0), INT32_MAX, result);
}

static int32_t newton(int32_t a, int one_minus) { /* 1/(1+a) or (1-a)/(1+a), Q0.31 */
  int64_t s = (int64_t)a + INT32_MAX;
  int32_t hd = (int32_t)((s + (s >= 0 ? 1 : -1)) / 2);
  int32_t x = fp_add(1515870810, fp_mul(hd, -1010580540));
  for (int i = 0; i < 3; i++)
    x = fp_add(x, sat_pot(fp_mul(x, fp_sub(1 << 29, fp_mul(hd, x))), 2));
  return one_minus ? sat_pot(fp_sub(x, 1 << 29), 2) : sat_pot(x, 1);
}

static int32_t g_logistic(int32_t a) {
  int32_t pos = mask_if(a > 0), zero = mask_if(a == 0);
  int32_t absx = select_mask(pos, a, -a);
  int32_t rp = newton(exp_neg(-absx, 4), 0);
  int32_t rn = fp_sub(INT32_MAX, rp);
  return select_mask(zero, 1 << 30, select_mask(pos, rp, rn));
}

static int32_t g_tanh(int32_t a) {
  int32_t neg = mask_if(a < 0), zero = mask_if(a == 0);
  int32_t n = select_mask(neg, a, -a);
  int32_t t = newton(exp_neg(n, 5), 1);
  return select_mask(zero, 0, select_mask(neg, -t, t));
}

/* The last instance has the input scale 2^-8: its inputs +-2 (LOGISTIC)
 * and +-1 (TANH) lie 2.5e-6 output steps inside a rounding tie, where
 * TFLM's fixed point and TFLite's float table part (doc/operators.md). */
static void test_sigmoid(int is_tanh) {
  Model md = {.m = tfw_new()};
  for (int k = 0; k <= NINST; k++) {
    float s = k < NINST ? runif(0.005f, 0.3f) : 1.0f / 256;
    int zp = k < NINST ? rint_in(-128, 127) : 0;
    int32_t d[2] = {1, 256};
    int8_t x[256], y[256];
    for (int i = 0; i < 256; i++)
      x[i] = (int8_t)(i - 128);
    /* Prepare: frexp of scale * 2^27, radius = CalculateInputRadius(4). */
    int shift;
    double q = frexp((double)s * (double)(1 << 27), &shift);
    int32_t mult = (int32_t)round(q * 2147483648.0);
    double maxr = 15.0 * (double)(INT64_C(1) << 27) / (double)(INT64_C(1) << shift);
    int32_t radius = (int32_t)floor(maxr);
    for (int i = 0; i < 256; i++) {
      int32_t v = x[i] - zp;
      if (v <= -radius) {
        y[i] = -128;
      } else if (v >= radius) {
        y[i] = 127;
      } else {
        int32_t q4 = ref_mbqm(v, mult, shift, TA_ROUND_DOUBLE);
        y[i] = is_tanh ? (int8_t)ref_clamp(ref_rdbpot(g_tanh(q4), 24), -128, 127)
                       : (int8_t)ref_clamp(ref_rdbpot(g_logistic(q4), 23) - 128, -128, 127);
      }
    }
    int ti = add_input(&md, "x", TFW_INT8, 2, d, s, zp, x, 256);
    int to = add_output(&md, "y", TFW_INT8, 2, d, is_tanh ? 1.0f / 128 : 1.0f / 256,
                        is_tanh ? 0 : -128, y, 256);
    tfw_op(md.m, is_tanh ? TFW_OP_TANH : TFW_OP_LOGISTIC, 1, &ti, 1, &to);
  }
  finish(&md, is_tanh ? "TANH int8" : "LOGISTIC int8");
}

/* --------------------------------------------------------- HARD_SWISH */

static int16_t h_srdhm(int16_t a, int16_t b) {
  if (a == b && a == INT16_MIN)
    return INT16_MAX;
  int32_t ab = (int32_t)a * b;
  int16_t nudge = ab >= 0 ? (1 << 14) : (1 - (1 << 14));
  return (int16_t)((ab + nudge) / (1 << 15));
}

static int16_t h_rdbpot(int16_t x, int e) {
  int16_t mask = (int16_t)((1LL << e) - 1);
  int16_t rem = (int16_t)(x & mask), thr = (int16_t)((mask >> 1) + (x < 0));
  return (int16_t)((x >> e) + (rem > thr));
}

static int16_t h_downscale(int32_t m) {
  return m >= INT32_MAX - (1 << 15) ? INT16_MAX : (int16_t)((m + (1 << 15)) >> 16);
}

static void test_hard_swish(void) {
  Model md = {.m = tfw_new()};
  for (int k = 0; k < NINST; k++) {
    float si = runif(0.01f, 0.2f), so = runif(0.01f, 0.2f);
    int zi = rint_in(-100, 100), zo = rint_in(-100, 100);
    int32_t d[2] = {1, 256};
    int8_t x[256], y[256];
    for (int i = 0; i < 256; i++)
      x[i] = (int8_t)(i - 128);
    float hires = (1.0f / 128.0f) * si;
    int32_t om, rm;
    int oe, re;
    qmult((double)(hires / so), &om, &oe);
    qmult((double)(hires / (3.0f / 32768.0f)), &rm, &re);
    int16_t om16 = h_downscale(om), rm16 = h_downscale(rm);
    for (int i = 0; i < 256; i++) {
      int16_t v = (int16_t)(x[i] - zi);
      int16_t hi = (int16_t)(v * (1 << 7));
      int16_t pre = h_srdhm(hi, om16);
      int16_t rl = hi;
      if (re > 0) {
        int64_t t = (int64_t)rl * (1 << (re - 1));
        rl = (int16_t)(t > 32767 ? 32767 : t < -32768 ? -32768 : t);
      }
      rl = h_srdhm(rl, rm16);
      if (re > 0) {
        int64_t t = (int64_t)rl * 2;
        rl = (int16_t)(t > 32767 ? 32767 : t < -32768 ? -32768 : t);
      }
      if (re < 0)
        rl = h_rdbpot(rl, -re);
      rl = (int16_t)((rl + (1 << 15)) >> 1);
      int16_t ps = (rl == pre && rl == INT16_MIN) ? INT16_MAX
                                                  : (int16_t)(((int32_t)rl * pre) / (1 << 15));
      int16_t out = h_rdbpot(ps, -oe);
      out = (int16_t)(out + zo);
      y[i] = (int8_t)(out < -128 ? -128 : out > 127 ? 127 : out);
    }
    int ti = add_input(&md, "x", TFW_INT8, 2, d, si, zi, x, 256);
    int to = add_output(&md, "y", TFW_INT8, 2, d, so, zo, y, 256);
    int op = tfw_op(md.m, TFW_OP_HARD_SWISH, 1, &ti, 1, &to);
    tfw_empty_options(md.m, op);
  }
  finish(&md, "HARD_SWISH int8");
}

/* ------------------------------------- RELU, RELU6, LEAKY_RELU (int8) */

static void test_relus(void) {
  Model md = {.m = tfw_new()};
  for (int k = 0; k < NINST; k++) {
    int kind = k % 3; /* 0 RELU, 1 RELU6, 2 LEAKY_RELU */
    float si = runif(0.01f, 0.1f), so = runif(0.01f, 0.1f), alpha = runif(0.05f, 0.5f);
    int zi = rint_in(-60, 60), zo = rint_in(-60, 60);
    int32_t d[2] = {1, 256};
    int8_t x[256], y[256];
    for (int i = 0; i < 256; i++)
      x[i] = (int8_t)(i - 128);
    int32_t m1, m2;
    int s1, s2;
    if (kind == 0) { /* CalculateReluOpData + ReluQuantized */
      qmult((double)si / (double)so, &m1, &s1);
      int32_t qmin = zo + (int32_t)roundf(0.0f / so);
      qmin = qmin > -128 ? qmin : -128;
      for (int i = 0; i < 256; i++)
        y[i] = (int8_t)ref_clamp(zo + ref_mbqm(x[i] - zi, m1, s1, TA_ROUND_DOUBLE), qmin, 127);
    } else if (kind == 1) { /* Relu6Quantized: the input's own range */
      int32_t six = (int32_t)roundf(6.0f / si) + zi;
      six = six > 127 ? 127 : six;
      for (int i = 0; i < 256; i++)
        y[i] = (int8_t)(x[i] > six ? six : x[i] < zi ? zi : x[i]);
    } else { /* QuantizeLeakyRelu, multipliers from float ratios */
      qmult((double)(si * alpha / so), &m1, &s1);
      qmult((double)(si / so), &m2, &s2);
      for (int i = 0; i < 256; i++) {
        int32_t v = x[i] - zi;
        int32_t o = v >= 0 ? ref_mbqm(v, m2, s2, TA_ROUND_DOUBLE)
                           : ref_mbqm(v, m1, s1, TA_ROUND_DOUBLE);
        y[i] = (int8_t)ref_clamp(o + zo, -128, 127);
      }
    }
    int ti = add_input(&md, "x", TFW_INT8, 2, d, si, zi, x, 256);
    int to = add_output(&md, "y", TFW_INT8, 2, d, so, zo, y, 256);
    int code = kind == 0 ? TFW_OP_RELU : kind == 1 ? TFW_OP_RELU6 : TFW_OP_LEAKY_RELU;
    int op = tfw_op(md.m, code, 1, &ti, 1, &to);
    if (kind == 2)
      tfw_leaky_relu_options(md.m, op, alpha);
  }
  finish(&md, "RELU, RELU6, LEAKY_RELU int8");
}

/* int16 RELU and RELU6 (16x8, zero points 0): CalculateReluOpData +
 * ReluQuantized<int16_t>, and Relu6Quantized<int16_t> (the raw input
 * clamped to [0, FloatToQuantizedType(6, input scale)]).  TFLite divides
 * the scales in float and requantizes RELU6; the oracle checks that
 * (--rounding single), this the default. */
static void test_relus_s16(void) {
  Model md = {.m = tfw_new()};
  for (int k = 0; k < NINST; k++) {
    int relu6 = k % 2;
    float si = runif(1e-4f, 1e-3f), so = runif(1e-4f, 1e-3f);
    int32_t d[2] = {1, 512};
    int16_t x[512], y[512];
    for (int i = 0; i < 512; i++)
      x[i] = (int16_t)(i < 2 ? (i ? 32767 : -32768) : (int16_t)(rnext() & 0xFFFF));
    if (!relu6) {
      int32_t m;
      int sh;
      qmult((double)si / (double)so, &m, &sh);
      int32_t qmin = (int32_t)roundf(0.0f / so);
      for (int i = 0; i < 512; i++)
        y[i] = (int16_t)ref_clamp(ref_mbqm(x[i], m, sh, TA_ROUND_DOUBLE), qmin, 32767);
    } else {
      int32_t six = (int32_t)roundf(6.0f / si);
      six = six > 32767 ? 32767 : six;
      for (int i = 0; i < 512; i++)
        y[i] = (int16_t)(x[i] > six ? six : x[i] < 0 ? 0 : x[i]);
    }
    int ti = add_input(&md, "x", TFW_INT16, 2, d, si, 0, x, sizeof x);
    int to = add_output(&md, "y", TFW_INT16, 2, d, so, 0, y, sizeof y);
    tfw_op(md.m, relu6 ? TFW_OP_RELU6 : TFW_OP_RELU, 1, &ti, 1, &to);
  }
  finish(&md, "RELU, RELU6 int16");
}

/* ---------------- PADV2, SLICE, ARG_MIN, RELU_N1_TO_1 (no generator) */

static void test_misc(void) {
  Model md = {.m = tfw_new()};
  /* PADV2, float, with a constant. */
  {
    int32_t d[3] = {2, 3, 4}, pads[6] = {1, 0, 0, 2, 2, 1}, od[3] = {3, 5, 7};
    float x[24], y[105], cv = -7.5f;
    for (int i = 0; i < 24; i++)
      x[i] = (float)i;
    for (int a = 0; a < 3; a++)
      for (int b = 0; b < 5; b++)
        for (int c = 0; c < 7; c++) {
          int ia = a - 1, ib = b, ic = c - 2;
          int in = ia >= 0 && ia < 2 && ib < 3 && ic >= 0 && ic < 4;
          y[(a * 5 + b) * 7 + c] = in ? x[(ia * 3 + ib) * 4 + ic] : cv;
        }
    int ti = add_input(&md, "x", TFW_FLOAT32, 3, d, 0, 0, x, sizeof x);
    int tp = tfw_const(md.m, "pads", TFW_INT32, 2, (int32_t[]){3, 2}, pads);
    int tc = tfw_const(md.m, "cv", TFW_FLOAT32, 0, NULL, &cv);
    int to = add_output(&md, "y", TFW_FLOAT32, 3, od, 0, 0, y, sizeof y);
    tfw_op(md.m, 60 /* PADV2 */, 3, (int[]){ti, tp, tc}, 1, &to);
  }
  /* SLICE, int8, a size of -1. */
  {
    int32_t d[3] = {3, 4, 5}, begin[3] = {1, 0, 2}, size[3] = {2, -1, 2}, od[3] = {2, 4, 2};
    int8_t x[60], y[16];
    random_s8(x, 60);
    for (int a = 0; a < 2; a++)
      for (int b = 0; b < 4; b++)
        for (int c = 0; c < 2; c++)
          y[(a * 4 + b) * 2 + c] = x[((a + 1) * 4 + b) * 5 + c + 2];
    int ti = add_input(&md, "x", TFW_INT8, 3, d, 0.1f, 3, x, 60);
    int tb = tfw_const(md.m, "begin", TFW_INT32, 1, (int32_t[]){3}, begin);
    int ts = tfw_const(md.m, "size", TFW_INT32, 1, (int32_t[]){3}, size);
    int to = add_output(&md, "y", TFW_INT8, 3, od, 0.1f, 3, y, 16);
    tfw_op(md.m, 65 /* SLICE */, 3, (int[]){ti, tb, ts}, 1, &to);
  }
  /* ARG_MIN over axis 1, float; no options: the default int64 output;
   * ties take the first. */
  {
    int32_t d[3] = {2, 5, 3}, od[2] = {2, 3}, axis = 1;
    float x[30];
    int64_t y[6];
    for (int i = 0; i < 30; i++)
      x[i] = (float)rint_in(0, 3);
    for (int a = 0; a < 2; a++)
      for (int c = 0; c < 3; c++) {
        int best = 0;
        for (int b = 1; b < 5; b++)
          if (x[(a * 5 + b) * 3 + c] < x[(a * 5 + best) * 3 + c])
            best = b;
        y[a * 3 + c] = best;
      }
    int ti = add_input(&md, "x", TFW_FLOAT32, 3, d, 0, 0, x, sizeof x);
    int ta = tfw_const(md.m, "axis", TFW_INT32, 0, NULL, &axis);
    int to = add_output(&md, "y", TFW_INT64, 2, od, 0, 0, y, sizeof y);
    tfw_op(md.m, 79 /* ARG_MIN */, 2, (int[]){ti, ta}, 1, &to);
  }
  /* RELU_N1_TO_1, float. */
  {
    int32_t d[1] = {16};
    float x[16], y[16];
    for (int i = 0; i < 16; i++) {
      x[i] = runif(-3.0f, 3.0f);
      y[i] = x[i] < -1.0f ? -1.0f : x[i] > 1.0f ? 1.0f : x[i];
    }
    int ti = add_input(&md, "x", TFW_FLOAT32, 1, d, 0, 0, x, sizeof x);
    int to = add_output(&md, "y", TFW_FLOAT32, 1, d, 0, 0, y, sizeof y);
    tfw_op(md.m, 20 /* RELU_N1_TO_1 */, 1, &ti, 1, &to);
  }
  finish(&md, "PADV2, SLICE, ARG_MIN, RELU_N1_TO_1");
}

/* --------------------------------------------- 16x8 accumulator choice */

/* MultiplyByQuantizedMultiplier(int64_t x, ...) (common.cc): the
 * multiplier reduced to 16 bits, one rounding. */
static int32_t mbqm64(int64_t x, int32_t m, int shift) {
  int64_t reduced = m < 0x7FFF0000 ? (m + (1 << 15)) >> 16 : 0x7FFF;
  int total = 15 - shift;
  int64_t v = x * reduced + ((int64_t)1 << (total - 1));
  int64_t d = (int64_t)1 << total, q = v / d;
  return (int32_t)(v % d != 0 && v < 0 ? q - 1 : q);
}

static void random_s16(int16_t *p, int n) {
  for (int i = 0; i < n; i++)
    p[i] = (int16_t)rint_in(-32768, 32767);
}

/* Instances of the three ops whose 16x8 accumulator TFLM picks from the
 * bias: FULLY_CONNECTED per tensor (no bias or int32: int32 sums,
 * GetQuantizedConvolutionMultipler), CONV_2D 1x1 per channel with an
 * int32 bias or none (int32 sums), TRANSPOSE_CONV without bias (int64
 * sums). */
static void test_s16_accumulators(void) {
  Model md = {.m = tfw_new()};
  for (int k = 0; k < NINST; k++) {
    int kind = k % 3;
    float s_in = runif(1e-4f, 1e-3f);
    if (kind == 0) { /* FULLY_CONNECTED [b, d] x [o, d] */
      int b = rint_in(8, 32), d = rint_in(1, 40), o = rint_in(8, 32);
      int16_t x[32 * 40];
      int8_t w[32 * 40];
      int32_t bias[32];
      /* Small inputs and a multiplier near 1 (right shifts of 1 to 4):
       * rounding ties are frequent, so double and single rounding part. */
      for (int i = 0; i < b * d; i++)
        x[i] = (int16_t)rint_in(-64, 64);
      random_s8(w, o * d);
      for (int i = 0; i < o; i++)
        bias[i] = rint_in(-20000, 20000);
      float s_w = runif(0.002f, 0.02f);
      volatile float prod_f = s_in * s_w;
      float s_out = (float)((double)prod_f / (runif(0.25f, 1.0f) / sqrt(d)));
      int32_t m;
      int sh;
      qmult((double)prod_f / (double)s_out, &m, &sh);
      int with_bias = k % 2;
      int16_t y[32 * 32];
      for (int i = 0; i < b; i++)
        for (int j = 0; j < o; j++) {
          int32_t acc = 0;
          for (int t = 0; t < d; t++)
            acc += (int32_t)w[j * d + t] * x[i * d + t];
          if (with_bias)
            acc += bias[j];
          y[i * o + j] = (int16_t)ref_clamp(ref_mbqm(acc, m, sh, TA_ROUND_DOUBLE), -32768,
                                            32767);
        }
      int32_t dx[2] = {b, d}, dw[2] = {o, d}, dy[2] = {b, o}, db[1] = {o};
      int ti = add_input(&md, "x", TFW_INT16, 2, dx, s_in, 0, x, (size_t)b * d * 2);
      int tw = tfw_const(md.m, "w", TFW_INT8, 2, dw, w);
      tfw_quant1(md.m, tw, s_w, 0);
      int ins[3] = {ti, tw, -1};
      if (with_bias) {
        ins[2] = tfw_const(md.m, "bias", TFW_INT32, 1, db, bias);
        tfw_quant1(md.m, ins[2], prod_f, 0);
      }
      int to = add_output(&md, "y", TFW_INT16, 2, dy, s_out, 0, y, (size_t)b * o * 2);
      int op = tfw_op(md.m, TFW_OP_FULLY_CONNECTED, 3, ins, 1, &to);
      tfw_fully_connected_options(md.m, op, 0, 0);
    } else { /* CONV_2D 1x1 or TRANSPOSE_CONV stride 2, [1, h, w, c] */
      int tc = kind == 2, conv_bias = k < 3; /* the second CONV_2D has none */
      int h = rint_in(1, 4), wd = rint_in(1, 4), c = rint_in(1, 6), oc = rint_in(1, 5);
      int kh = tc ? rint_in(1, 3) : 1, kw = tc ? rint_in(1, 3) : 1, st = tc ? 2 : 1;
      int oh = tc ? (h - 1) * st + kh : h, ow = tc ? (wd - 1) * st + kw : wd;
      int16_t x[4 * 4 * 6];
      int8_t w[5 * 3 * 3 * 6];
      int32_t bias[5];
      float s_w[5];
      int64_t zps[5] = {0};
      random_s16(x, h * wd * c);
      random_s8(w, oc * kh * kw * c);
      for (int i = 0; i < oc; i++) {
        bias[i] = rint_in(-100000000, 100000000);
        s_w[i] = runif(0.002f, 0.02f);
      }
      float s_out = (float)((double)s_in * s_w[0] / (runif(0.5f, 4.0f) / (127.0 * sqrt(c))));
      int32_t m[5];
      int sh[5];
      for (int i = 0; i < oc; i++)
        qmult((double)s_in * (double)s_w[i] / (double)s_out, &m[i], &sh[i]);
      int16_t y[7 * 7 * 5];
      int64_t acc[7 * 7 * 5] = {0};
      /* VALID padding: every input pixel scatters (TRANSPOSE_CONV) or
       * maps (1x1 CONV_2D) inside the output. */
      for (int iy = 0; iy < h; iy++)
        for (int ix = 0; ix < wd; ix++)
          for (int fy = 0; fy < kh; fy++)
            for (int fx = 0; fx < kw; fx++)
              for (int o = 0; o < oc; o++)
                for (int i = 0; i < c; i++)
                  acc[((iy * st + fy) * ow + ix * st + fx) * oc + o] +=
                      (int32_t)x[(iy * wd + ix) * c + i] * w[((o * kh + fy) * kw + fx) * c + i];
      for (int i = 0; i < oh * ow * oc; i++) {
        int o = i % oc;
        int32_t v = tc ? mbqm64(acc[i], m[o], sh[o])
                       : ref_mbqm((int32_t)acc[i] + (conv_bias ? bias[o] : 0), m[o], sh[o],
                                  TA_ROUND_DOUBLE);
        y[i] = (int16_t)ref_clamp(v, -32768, 32767);
      }
      int32_t dx[4] = {1, h, wd, c}, dw[4] = {oc, kh, kw, c}, dy[4] = {1, oh, ow, oc};
      int32_t db[1] = {oc}, ds[1] = {4};
      int ti = add_input(&md, "x", TFW_INT16, 4, dx, s_in, 0, x, (size_t)h * wd * c * 2);
      int tw = tfw_const(md.m, "w", TFW_INT8, 4, dw, w);
      tfw_quant(md.m, tw, oc, s_w, zps, 0);
      int to = add_output(&md, "y", TFW_INT16, 4, dy, s_out, 0, y, (size_t)oh * ow * oc * 2);
      if (tc) {
        int tshape = tfw_const(md.m, "shape", TFW_INT32, 1, ds, dy);
        int op = tfw_op(md.m, TFW_OP_TRANSPOSE_CONV, 3, (int[]){tshape, tw, ti}, 1, &to);
        tfw_transpose_conv_options(md.m, op, TFW_PAD_VALID, st, st, 0);
      } else {
        float s_b[5];
        for (int i = 0; i < oc; i++)
          s_b[i] = s_in * s_w[i];
        int tb = -1;
        if (conv_bias) {
          tb = tfw_const(md.m, "bias", TFW_INT32, 1, db, bias);
          tfw_quant(md.m, tb, oc, s_b, zps, 0);
        }
        int op = tfw_op(md.m, TFW_OP_CONV_2D, conv_bias ? 3 : 2, (int[]){ti, tw, tb}, 1, &to);
        tfw_conv2d_options(md.m, op, TFW_PAD_VALID, 1, 1, 0, 1, 1);
      }
    }
  }
  finish(&md, "16x8 FULLY_CONNECTED, CONV_2D (int32 sums), TRANSPOSE_CONV without bias");
}

/* DIV int8, SQUARED_DIFFERENCE int16, GREATER int16, ADD_N int8. */
#include "tflm_math.h"
/* ------------------------------------------------------- BATCH_MATMUL */

/* int8 BATCH_MATMUL as TFLM's EvalInt8: reference_ops::BatchMatMul with
 * the multiplier of GetQuantizedConvolutionMultipler (the float product
 * of the input scales, over the output scale, in double) and double
 * rounding; TFLite's builtin kernel rounds once.  adj_x and adj_y
 * alternate over the instances; products large enough that the two
 * roundings part. */
static void test_batch_matmul(void) {
  Model md = {.m = tfw_new()};
  for (int k = 0; k < NINST; k++) {
    int rows = rint_in(2, 5), cols = rint_in(2, 5), depth = rint_in(8, 32);
    int adj_x = k & 1, adj_y = (k >> 1) & 1;
    int32_t da[2] = {adj_x ? depth : rows, adj_x ? rows : depth};
    int32_t db[2] = {adj_y ? cols : depth, adj_y ? depth : cols};
    int32_t dout[2] = {rows, cols};
    float sa = runif(0.01f, 0.05f), sb = runif(0.005f, 0.02f), so = runif(0.02f, 0.1f);
    int za = rint_in(-20, 20), zo = rint_in(-20, 20);
    int8_t a[160], b[160], y[25];
    random_s8(a, rows * depth);
    random_s8(b, depth * cols);
    int32_t mult;
    int shift;
    volatile float prod = sa * sb;
    qmult((double)prod / (double)so, &mult, &shift);
    for (int r = 0; r < rows; r++)
      for (int c = 0; c < cols; c++) {
        int32_t acc = 0;
        for (int d = 0; d < depth; d++) {
          int32_t x = a[adj_x ? d * rows + r : r * depth + d] - za;
          int32_t w = b[adj_y ? c * depth + d : d * cols + c];
          acc += x * w;
        }
        y[r * cols + c] =
            (int8_t)ref_clamp(ref_mbqm(acc, mult, shift, TA_ROUND_DOUBLE) + zo, -128, 127);
      }
    int ta = add_input(&md, "a", TFW_INT8, 2, da, sa, za, a, (size_t)(rows * depth));
    int tb = tfw_const(md.m, "b", TFW_INT8, 2, db, b);
    tfw_quant1(md.m, tb, sb, 0);
    int to = add_output(&md, "y", TFW_INT8, 2, dout, so, zo, y, (size_t)(rows * cols));
    int op = tfw_op(md.m, TFW_OP_BATCH_MATMUL, 2, (int[]){ta, tb}, 1, &to);
    tfw_scalar_options(md.m, op, 101, "bbb", (int32_t[]){adj_x, adj_y, 0});
  }
  finish(&md, "BATCH_MATMUL int8");
}

/* ------------------------------------------------------------- CUMSUM */

/* int8 CUMSUM: cumsum.cc's CalculateOpData (QuantizeMultiplierSmaller-
 * ThanOneExp of s / 2s and 2s / (2^20 s_out)) and the quantized
 * reference_ops::CumSum, whose accumulator starts at the scaled
 * input_offset.  Shapes [a][b][c] summed along a random axis, exclusive
 * and reverse at random; the output scale lets some sums saturate. */
static void test_cumsum_s8(void) {
  Model md = {.m = tfw_new()};
  for (int k = 0; k < NINST; k++) {
    int32_t d[3] = {rint_in(1, 3), rint_in(1, 9), rint_in(1, 4)};
    int axis = rint_in(0, 2), exclusive = rint_in(0, 1), reverse = rint_in(0, 1);
    int n = (int)prod(3, d);
    float si = runif(0.01f, 0.1f), so = si * runif(0.5f, (float)d[axis] + 1.0f);
    int zi = rint_in(-60, 60), zo = rint_in(-60, 60);
    int8_t x[108], y[108];
    random_s8(x, n);
    int32_t im, om;
    int is, os;
    double twice = 2 * (double)si;
    qmult((double)si / twice, &im, &is);
    qmult(twice / ((1 << 20) * (double)so), &om, &os);
    int inner = 1, outer = 1, depth = d[axis]; /* TFLM's names: before, after */
    for (int i = 0; i < 3; i++) {
      if (i < axis)
        inner *= d[i];
      else if (i > axis)
        outer *= d[i];
    }
    for (int oi = 0; oi < outer; oi++)
      for (int ii = 0; ii < inner; ii++) {
        int32_t acc = ref_mbqm(-zi * (1 << 20), im, is, TA_ROUND_DOUBLE);
        for (int di = 0; di < depth; di++) {
          int dj = reverse ? depth - 1 - di : di;
          int idx = oi + ii * depth * outer + dj * outer;
          int32_t sy = ref_mbqm((-zi + x[idx]) * (1 << 20), im, is, TA_ROUND_DOUBLE);
          int32_t so_ = acc;
          acc = (int32_t)((uint32_t)acc + (uint32_t)sy);
          if (!exclusive)
            so_ = acc;
          y[idx] = (int8_t)ref_clamp(ref_mbqm(so_, om, os, TA_ROUND_DOUBLE) + zo, -128, 127);
        }
      }
    int ti = add_input(&md, "x", TFW_INT8, 3, d, si, zi, x, (size_t)n);
    int32_t ax = axis - (rint_in(0, 1) ? 3 : 0); /* sometimes negative */
    int ta = tfw_const(md.m, "axis", TFW_INT32, 0, NULL, &ax);
    int to = add_output(&md, "y", TFW_INT8, 3, d, so, zo, y, (size_t)n);
    int ins[2] = {ti, ta};
    int op = tfw_op(md.m, TFW_OP_CUMSUM, 2, ins, 1, &to);
    int32_t opts[2] = {exclusive, reverse};
    tfw_scalar_options(md.m, op, 102 /* CumsumOptions */, "bb", opts);
  }
  finish(&md, "CUMSUM int8");
}

/* -------------------------------------------------------- LOG_SOFTMAX */

/* log_x_for_x_greater_than_or_equal_to_1<5> of a Q12.19 value (TFLite's
 * common.h), gemmlowp's operators spelled out: * is SRDHM, + wraps,
 * Rescale and SaturatingRoundingMultiplyByPOTParam are sat_pot. */
static int32_t g_log_q12(int32_t x) {
  const int32_t log_2 = 1488522236, ssh = 1805811301, sh = 1518500250;
  const int32_t an = 117049297, ad = 127690142, ai = 1057819769, af = 638450708;
  const int32_t shifted_quarter = sat_pot(536870912, -6); /* Rescale<6> */
  int za1 = 0;                                           /* CountLeadingZeros */
  while (za1 < 32 && !((uint32_t)x & (0x80000000u >> za1)))
    za1++;
  int32_t r_a_tmp = sat_pot(x, za1 - 1);
  int32_t r_a = sat_pot(fp_mul(r_a_tmp, sh), 1);
  int64_t za_adj = (int64_t)sat_pot(12 - za1, 31 - 6) + shifted_quarter;
  int32_t z_a_adj = za_adj > INT32_MAX ? INT32_MAX : za_adj < INT32_MIN ? INT32_MIN : (int32_t)za_adj;
  int32_t z_b = fp_mul(x, sh);
  int zb = 0;
  while (zb < 32 && !((uint32_t)z_b & (0x80000000u >> zb)))
    zb++;
  zb -= 1;
  int32_t r_b = sat_pot(x, zb);
  int64_t zb_adj = (int64_t)sat_pot(12 - zb, 31 - 6) - shifted_quarter;
  int32_t z_b_adj = zb_adj > INT32_MAX ? INT32_MAX : zb_adj < INT32_MIN ? INT32_MIN : (int32_t)zb_adj;
  int32_t r = r_a < r_b ? r_a : r_b;
  int32_t z_adj = z_a_adj > z_b_adj ? z_a_adj : z_b_adj;
  int64_t ps = (int64_t)r + ssh; /* RoundingHalfSum */
  int32_t p = (int32_t)((ps + (ps >= 0 ? 1 : -1)) / 2);
  int32_t q = fp_sub(r, ssh);
  q = fp_add(q, q);
  int32_t common_sq = fp_mul(q, q);
  int32_t num = fp_add(fp_mul(q, r), fp_mul(fp_mul(q, common_sq), an));
  int32_t denom = fp_add(fp_mul(p, fp_add(fp_add(ai, q), fp_mul(ad, common_sq))), fp_mul(af, q));
  int32_t recip = newton(denom, 0);
  int32_t num_scaled = sat_pot(num, -6);
  return sat_pot(fp_add(fp_mul(z_adj, log_2), fp_mul(num_scaled, recip)), 1);
}

/* int8 LOG_SOFTMAX: log_softmax.cc's CalculateOpData (PreprocessLog-
 * SoftmaxScalingExp, beta 1, 5 integer bits) and reference_ops::
 * LogSoftmaxQuantized<int8_t>.  TFLite's builtin kernel uses a float
 * table instead (the differential row runs that one).  Rows of 1 to 64
 * values, input scales from 0.004 (every exp counts) to 0.6 (most fall
 * below diff_min); the last instance has 3000 nearly equal values, a sum
 * of exps above 2^30 in Q12.19 (no headroom for the log's first
 * normalisation). */
static void test_log_softmax_s8(void) {
  Model md = {.m = tfw_new()};
  static int8_t x[MAXN], y[MAXN];
  for (int k = 0; k <= NINST; k++) {
    int32_t d[2] = {rint_in(1, 4), rint_in(1, 64)};
    if (k == NINST)
      d[0] = 1, d[1] = 3000;
    int n = (int)prod(2, d);
    float s = k == NINST ? 0.05f : expf(runif(logf(0.004f), logf(0.6f)));
    int zp = rint_in(-128, 127);
    random_s8(x, n);
    if (k == NINST)
      for (int i = 0; i < n; i++)
        x[i] = (int8_t)(100 - (int)(rnext() & 1));
    /* PreprocessSoftmaxScaling, CalculateInputRadius, the reverse divisor. */
    double real = (double)s * (double)(1 << 26);
    if (real > 2147483647.0)
      real = 2147483647.0;
    int32_t im, rm;
    int ils, rs;
    qmult(real, &im, &ils);
    int32_t diff_min = -(int32_t)floor(31.0 * (double)(INT64_C(1) << 26) / (double)(INT64_C(1) << ils));
    qmult((double)(1 << (31 - ils)) / (double)im, &rm, &rs);
    for (int row = 0; row < d[0]; row++) {
      const int8_t *xr = x + row * d[1];
      int8_t *yr = y + row * d[1];
      int mx = -128;
      for (int c = 0; c < d[1]; c++)
        mx = xr[c] > mx ? xr[c] : mx;
      int32_t sum = 0;
      for (int c = 0; c < d[1]; c++) {
        int32_t diff = xr[c] - mx;
        if (diff >= diff_min)
          sum = fp_add(sum, sat_pot(exp_neg(ref_mbqm(diff, im, ils, TA_ROUND_DOUBLE), 5), -12));
      }
      int32_t lse = g_log_q12(sum);
      int32_t lo = ref_mbqm(fp_add(lse, INT32_MIN), rm, rs, TA_ROUND_DOUBLE);
      int32_t adj = diff_min - 1 > lo ? diff_min - 1 : lo;
      for (int c = 0; c < d[1]; c++) {
        int32_t diff = xr[c] - mx;
        if (diff > adj) {
          int32_t q5 = ref_mbqm(diff, im, ils, TA_ROUND_DOUBLE);
          yr[c] = (int8_t)ref_clamp(ref_rdbpot(fp_sub(q5, lse), 22) + 127, -128, 127);
        } else {
          yr[c] = -128;
        }
      }
    }
    int ti = add_input(&md, "x", TFW_INT8, 2, d, s, zp, x, (size_t)n);
    int to = add_output(&md, "y", TFW_INT8, 2, d, 16.0f / 256, 127, y, (size_t)n);
    tfw_op(md.m, 50 /* LOG_SOFTMAX */, 1, &ti, 1, &to);
  }
  finish(&md, "LOG_SOFTMAX int8");
}

int main(void) {
  tinyaot = test_tinyaot();
  tmpdir = test_tmpdir("opsref");
  if (!tmpdir)
    return test_exit();
  test_mean(0);
  test_resize_bilinear();
  test_sigmoid(0);
  test_sigmoid(1);
  test_hard_swish();
  test_relus();
  test_relus_s16();
  test_misc();
  test_s16_accumulators();
  test_mean(1);
  test_div_s8();
  test_squared_difference_s16();
  test_batch_matmul();
  test_greater_s16();
  test_add_n_s8();
  test_compare_s64();
  test_cumsum_s8();
  test_log_softmax_s8();
  return test_end(tmpdir, "models");
}
