/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_graphs.c - random valid multi-op .tflite models (DAGs) from a seed,
 * for the miscompile hunter (tests/graphs/run_graphs.sh).
 *
 *   gen_graphs [--seed S] [--count N] [--ops N] [--skip LIST] [--max-dim D]
 *              [--kind KIND] [--name NAME] OUTDIR
 *
 * Writes N graphs OUTDIR/graph.<S+k>/ (or OUTDIR/NAME/ for N = 1 with
 * --name), each holding model.tflite, its inputs in0.bin ... (raw
 * little-endian bytes in the model's input order) and graph.txt (one line
 * per op: index, name, input and output tensors with dtype, shape and
 * quantization; "step" is the draw that made it, which --ops and --skip
 * count: a step may add a QUANTIZE before its op), and appends one line per graph to OUTDIR/manifest.txt:
 *   NAME MODE ATOL RTOL NIN NOUT KEY OUTDTYPES NOPS
 * MODE is how the oracle runs it (tests/ops/oracle_batch.mjs: off =
 * TFLite's builtin kernels; litert = LiteRT.js, for graphs with a float
 * CONV_2D, which the builtin kernel of the oracle's wasm build cannot
 * run).  ATOL/RTOL bound float outputs (|a - e| <= ATOL + RTOL |e|);
 * integer outputs compare bit-exactly.  KEY hashes the model, inputs and
 * mode (the oracle's cache key).
 *
 * How a graph grows.  One or two model inputs [1, H, W, C] (H, W up to
 * D = --max-dim, default 8; C up to 8).  Then op after op: pick a value
 * already in the graph (recent and not yet consumed ones preferred), pick
 * an op that accepts its dtype and rank, draw the op's shapes, options,
 * weights and output quantization, and add its outputs to the graph.
 * Partners of binary ops, CONCATENATION and residual ADDs are other values
 * of the same shape (a QUANTIZE first when CONCATENATION needs one
 * quantization), or constants.  The outputs are the values nobody
 * consumes, and now and then a consumed one too (several outputs,
 * outputs that other ops read).  Ops: CONV_2D, DEPTHWISE_CONV_2D,
 * FULLY_CONNECTED, AVERAGE_POOL_2D, MAX_POOL_2D, ADD, SUB, MUL, RELU,
 * RELU6, LOGISTIC, TANH, SOFTMAX, CONCATENATION, SPLIT, RESHAPE, PAD,
 * TRANSPOSE, STRIDED_SLICE, MEAN, QUANTIZE, DEQUANTIZE.
 *
 * Dtypes, per graph (--kind picks one): int8 (40 %), int16 (18 %),
 * float32, uint8 (TFLite's legacy asymmetric scheme: per-tensor weights
 * with zero points, CONCATENATION requantizing its inputs), or mixed: a
 * float input quantized to int8 by the first op, and DEQUANTIZE tails
 * whose float values only float ops read.  int16 graphs are TFLite's
 * 16x8 scheme: int16 activations with zero point 0, int8 weights per
 * channel or per tensor, int64 biases (CONV_2D and FULLY_CONNECTED now and
 * then int32 or none: TFLite's int32 sums), ADD and SUB with
 * pot_scale_int16 unset, false or true (power-of-two scales now and then,
 * so that TFLite's power-of-two path runs), LOGISTIC and TANH at times
 * on the 2^-12 (2^-11) input scale of TFLite's fixed-point path, a float
 * input quantized to int16 in 30 % of them, int16 -> int8 QUANTIZE and
 * DEQUANTIZE tails.  Float values never go back to integers inside a
 * graph, so every integer output is TFLite's exact arithmetic.
 * Quantization parameters are drawn per value (ranges, zero points,
 * per-channel weight scales), within what TFLite requires (LOGISTIC,
 * TANH and SOFTMAX outputs fixed; one quantization across pools,
 * CONCATENATION, SPLIT and the data-movement ops).
 *
 * Determinism and shrinking.  A graph depends only on (seed, --ops,
 * --skip, --max-dim).  Op i draws from its own generator seeded by (seed,
 * i), so --ops N (keep the first N ops) gives a prefix of the same graph,
 * and --skip i,j (leave ops out; op 0 is never skipped) the same draws
 * with those ops missing: the minimiser uses both, and a smaller
 * --max-dim, to shrink a graph that disagrees.  The generator only builds
 * models TFLite accepts; a model the oracle refuses is a bug here.
 */
#include "tflite_writer.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAXV 512    /* values (activation tensors) per graph */
#define MAXIN 2     /* model inputs */
#define MAXOUT 12   /* model outputs */
#define MAXEL 4096  /* elements per activation */
#define MAXOPS 40

#include "rng.h"

static void die(const char *msg) {
  fprintf(stderr, "gen_graphs: %s\n", msg);
  exit(2);
}

static void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p)
    die("out of memory");
  return p;
}

/* ------------------------------------------------------ quantization */

/* The quantization of a value and the real range it covers (for float
 * values: the range its data is expected in). */
typedef struct {
  int dtype;
  float scale;
  int64_t zp;
  float lo, hi;
} Q;

static int qmin_of(int dtype) {
  return dtype == TFW_UINT8 ? 0 : dtype == TFW_INT16 ? -32768 : -128;
}
static int qmax_of(int dtype) {
  return dtype == TFW_UINT8 ? 255 : dtype == TFW_INT16 ? 32767 : 127;
}

/* int8 or uint8 quantization covering [lo, hi] (stretched to contain 0);
 * int16: symmetric (zero point 0, TFLite's 16x8 scheme), covering the
 * larger of |lo| and |hi|; float: just the range. */
static Q q_cover(int dtype, float lo, float hi) {
  Q q = {dtype, 0, 0, lo, hi};
  if (dtype == TFW_FLOAT32)
    return q;
  if (lo > 0)
    lo = 0;
  if (hi < 0)
    hi = 0;
  if (hi - lo < 1e-3f)
    hi = lo + 1e-3f;
  int qmin = qmin_of(dtype), qmax = qmax_of(dtype);
  if (dtype == TFW_INT16) {
    float m = -lo > hi ? -lo : hi;
    q.scale = m / 32767.0f;
    q.lo = -32768.0f * q.scale;
    q.hi = 32767.0f * q.scale;
    return q;
  }
  q.scale = (hi - lo) / 255.0f;
  double zp = floor(qmin - lo / q.scale + 0.5);
  q.zp = (int64_t)(zp < qmin ? qmin : zp > qmax ? qmax : zp);
  q.lo = (float)(qmin - q.zp) * q.scale;
  q.hi = (float)(qmax - q.zp) * q.scale;
  return q;
}

static Q q_fixed(int dtype, float scale, int64_t zp) {
  Q q = {dtype, scale, zp, (float)(qmin_of(dtype) - zp) * scale,
         (float)(qmax_of(dtype) - zp) * scale};
  return q;
}

/* int16 with the scale 2^-e (TFLite's power-of-two paths of ADD, SUB,
 * LOGISTIC and TANH). */
static Q q_pot(int e) { return q_fixed(TFW_INT16, ldexpf(1.0f, -e), 0); }

static int is_pot(float scale) {
  int e;
  return frexpf(scale, &e) == 0.5f;
}

/* A random range: mostly around zero, sometimes one-sided; int16 now and
 * then with a power-of-two scale. */
static Q q_random(Rng *r, int dtype) {
  float lo = -rlog(r, 0.1, 4.0), hi = rlog(r, 0.1, 4.0);
  if (rchance(r, 0.15))
    lo = 0;
  else if (rchance(r, 0.1))
    hi = 0;
  if (dtype == TFW_INT16 && rchance(r, 0.25))
    return q_pot(rint_in(r, 12, 15));
  return q_cover(dtype, lo, hi);
}

/* A quantization for values of roughly [lo, hi], stretched by a random
 * factor so that some values saturate and some do not. */
static Q q_around(Rng *r, int dtype, float lo, float hi) {
  float f = runif(r, 0.6, 1.4);
  float mid = 0.5f * (lo + hi), half = 0.5f * (hi - lo);
  if (half < 1e-3f)
    half = 1e-3f;
  return q_cover(dtype, mid - f * half, mid + f * half);
}

/* Mean of x^2 for x uniform on [lo, hi]. */
static double msq(float lo, float hi) {
  return ((double)lo * lo + (double)lo * hi + (double)hi * hi) / 3.0;
}

static const char *dtype_name(int dt) {
  switch (dt) {
  case TFW_FLOAT32: return "float32";
  case TFW_INT32: return "int32";
  case TFW_INT8: return "int8";
  case TFW_INT16: return "int16";
  case TFW_UINT8: return "uint8";
  default: return "unknown";
  }
}

/* ------------------------------------------------------------ graphs */

/* A value: an activation tensor of the graph (model input or op output). */
typedef struct {
  int t; /* tensor index in the model */
  int nd;
  int32_t d[4];
  Q q;
  int uses;
  int is_input;
} Val;

/* The graph's kind (G_INT16: TFLite's 16x8 scheme, int16 activations
 * with int8 weights, int8 and float tails). */
enum { G_INT8, G_FLOAT, G_MIXED, G_UINT8, G_INT16 };
static const char *const kind_names[] = {"int8", "float", "mixed", "uint8", "int16"};

typedef struct {
  TfwModel *m;
  Rng *r; /* the current op's generator */
  int kind;
  int maxdim;
  Val v[MAXV];
  int nv;
  int nin;
  int in_val[MAXIN];
  uint8_t *in_data[MAXIN];
  size_t in_bytes[MAXIN];
  int nops;
  int float_conv; /* a float CONV_2D: the oracle runs LiteRT */
  int nconst;
  int step; /* the op being drawn (--ops and --skip count these) */
  FILE *txt; /* graph.txt */
} G;

static int64_t count_of(int nd, const int32_t *d) {
  int64_t n = 1;
  for (int i = 0; i < nd; i++)
    n *= d[i];
  return n;
}

static void print_val(G *g, int k) {
  Val *v = &g->v[k];
  fprintf(g->txt, " t%d:%s[", v->t, dtype_name(v->q.dtype));
  for (int i = 0; i < v->nd; i++)
    fprintf(g->txt, "%s%d", i ? "," : "", (int)v->d[i]);
  fprintf(g->txt, "]");
  if (v->q.dtype != TFW_FLOAT32)
    fprintf(g->txt, "(s=%.6g,zp=%d)", (double)v->q.scale, (int)v->q.zp);
}

/* A new value of shape d with quantization q. */
static int new_val(G *g, int nd, const int32_t *d, const Q *q) {
  if (g->nv >= MAXV)
    die("too many values");
  char name[32];
  snprintf(name, sizeof name, "v%d", g->nv);
  Val *v = &g->v[g->nv];
  memset(v, 0, sizeof *v);
  v->t = tfw_tensor(g->m, name, q->dtype, nd, d, 0);
  if (q->dtype != TFW_FLOAT32)
    tfw_quant1(g->m, v->t, q->scale, q->zp);
  v->nd = nd;
  memcpy(v->d, d, sizeof(int32_t) * (size_t)nd);
  v->q = *q;
  return g->nv++;
}

static char *const_name(G *g, char *buf, size_t n) {
  snprintf(buf, n, "c%d", g->nconst++);
  return buf;
}

static int const_i32(G *g, int nd, const int32_t *d, const int32_t *val) {
  char name[32];
  return tfw_const(g->m, const_name(g, name, sizeof name), TFW_INT32, nd, d, val);
}

static int const_vec(G *g, int n, const int32_t *val) {
  int32_t d = n;
  return const_i32(g, 1, &d, val);
}

/* Random bytes: int8 over the whole range, floats uniform on the range. */
static void fill(Rng *r, const Q *q, uint8_t *p, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    if (q->dtype == TFW_FLOAT32) {
      float f = runif(r, q->lo, q->hi);
      memcpy(p + 4 * i, &f, 4);
    } else if (q->dtype == TFW_UINT8) {
      p[i] = (uint8_t)rint_in(r, 0, 255);
    } else if (q->dtype == TFW_INT16) {
      int16_t v = (int16_t)rint_in(r, -32768, 32767);
      memcpy(p + 2 * i, &v, 2);
    } else {
      p[i] = (uint8_t)(int8_t)rint_in(r, -128, 127);
    }
  }
}

/* A constant activation-like tensor (the second operand of a binary op). */
static int const_act(G *g, int nd, const int32_t *d, const Q *q) {
  int64_t n = count_of(nd, d);
  size_t bytes = (size_t)n * tfw_dtype_size(q->dtype);
  uint8_t *p = xmalloc(bytes);
  fill(g->r, q, p, n);
  char name[32];
  int t = tfw_const(g->m, const_name(g, name, sizeof name), q->dtype, nd, d, p);
  free(p);
  if (q->dtype != TFW_FLOAT32)
    tfw_quant1(g->m, t, q->scale, q->zp);
  return t;
}

/* Adds an op reading values in[] (and constants cin[]: tensor indices
 * placed first or after, as `order` says) and writing values out[]. */
static int add_op(G *g, int code, const char *name, int nin, const int *tins, const int *vin,
                  int nvin, const int *vout, int nout) {
  int touts[8];
  for (int i = 0; i < nout; i++)
    touts[i] = g->v[vout[i]].t;
  for (int i = 0; i < nvin; i++)
    g->v[vin[i]].uses++;
  int op = tfw_op(g->m, code, nin, tins, nout, touts);
  fprintf(g->txt, "op %d (step %d) %s in", g->nops, g->step, name);
  for (int i = 0; i < nvin; i++)
    print_val(g, vin[i]);
  fprintf(g->txt, " out");
  for (int i = 0; i < nout; i++)
    print_val(g, vout[i]);
  fprintf(g->txt, "\n");
  g->nops++;
  return op;
}

static int random_act(Rng *r) {
  static const int acts[] = {TFW_ACT_NONE, TFW_ACT_NONE, TFW_ACT_RELU, TFW_ACT_RELU6,
                             TFW_ACT_RELU_N1_TO_1};
  return acts[rint_in(r, 0, 4)];
}

/* The range left by a fused activation. */
static void act_clip(int act, float *lo, float *hi) {
  if (act == TFW_ACT_RELU && *lo < 0)
    *lo = 0;
  if (act == TFW_ACT_RELU6) {
    if (*lo < 0)
      *lo = 0;
    if (*hi > 6)
      *hi = 6;
  }
  if (act == TFW_ACT_RELU_N1_TO_1) {
    if (*lo < -1)
      *lo = -1;
    if (*hi > 1)
      *hi = 1;
  }
  if (*hi <= *lo)
    *hi = *lo + 0.5f;
}

/* ------------------------------------------------ weights and biases */

/* Weights of shape d: float uniform on [-1, 1], or int8 with per-channel
 * scales along qdim (per_channel) or one scale.  scales[] gets the scale
 * of every channel; returns the tensor; *wmsq the mean of w^2. */
static int weights(G *g, int is_f, int nd, const int32_t *d, int qdim, int per_channel,
                   float *scales, double *wmsq) {
  int64_t n = count_of(nd, d);
  int nch = d[qdim];
  Rng *r = g->r;
  char name[32];
  const_name(g, name, sizeof name);
  if (is_f) {
    float *w = xmalloc((size_t)n * 4);
    for (int64_t i = 0; i < n; i++)
      w[i] = runif(r, -1, 1);
    int t = tfw_const(g->m, name, TFW_FLOAT32, nd, d, w);
    free(w);
    *wmsq = 1.0 / 3.0;
    return t;
  }
  if (g->kind == G_UINT8) { /* legacy uint8: one scale, a zero point */
    uint8_t *u = xmalloc((size_t)n);
    for (int64_t i = 0; i < n; i++)
      u[i] = (uint8_t)rint_in(r, 0, 255);
    int t = tfw_const(g->m, name, TFW_UINT8, nd, d, u);
    free(u);
    int64_t zp = rint_in(r, 90, 165);
    float s = rlog(r, 0.002, 0.02);
    tfw_quant1(g->m, t, s, zp);
    for (int i = 0; i < nch; i++)
      scales[i] = s;
    *wmsq = msq((float)(0 - zp), (float)(255 - zp)) * s * s;
    return t;
  }
  int8_t *w = xmalloc((size_t)n);
  for (int64_t i = 0; i < n; i++)
    w[i] = (int8_t)rint_in(r, -127, 127);
  int t = tfw_const(g->m, name, TFW_INT8, nd, d, w);
  free(w);
  float s1 = rlog(r, 0.002, 0.02);
  float *s = xmalloc((size_t)nch * sizeof *s);
  int64_t *zp = xmalloc((size_t)nch * sizeof *zp);
  double mean_s2 = 0;
  for (int i = 0; i < nch; i++) {
    s[i] = scales[i] = per_channel ? rlog(r, 0.002, 0.02) : s1;
    zp[i] = 0;
    mean_s2 += (double)s[i] * s[i] / nch;
  }
  if (per_channel)
    tfw_quant(g->m, t, nch, s, zp, qdim);
  else
    tfw_quant1(g->m, t, s1, 0);
  free(s);
  free(zp);
  *wmsq = 127.0 * 127.0 / 3.0 * mean_s2;
  return t;
}

/* A bias of n channels, of the order of sd in real terms: float (dtype
 * TFW_FLOAT32), or int32 or int64 (16x8) with scale in_scale * w_scale[i]. */
static int bias(G *g, int n, int dtype, float in_scale, const float *w_scale, double sd,
                int per_channel) {
  int32_t d = n;
  Rng *r = g->r;
  char name[32];
  const_name(g, name, sizeof name);
  if (dtype == TFW_FLOAT32) {
    float *b = xmalloc((size_t)n * 4);
    for (int i = 0; i < n; i++)
      b[i] = runif(r, -sd, sd);
    int t = tfw_const(g->m, name, TFW_FLOAT32, 1, &d, b);
    free(b);
    return t;
  }
  int64_t *b = xmalloc((size_t)n * 8);
  float *s = xmalloc((size_t)n * sizeof *s);
  int64_t *zp = xmalloc((size_t)n * sizeof *zp);
  for (int i = 0; i < n; i++) {
    s[i] = in_scale * w_scale[i];
    zp[i] = 0;
    double q = runif(r, -sd, sd) / s[i];
    b[i] = llround(q > 1e9 ? 1e9 : q < -1e9 ? -1e9 : q);
  }
  int t;
  if (dtype == TFW_INT64) {
    t = tfw_const(g->m, name, TFW_INT64, 1, &d, b);
  } else {
    int32_t *b32 = xmalloc((size_t)n * 4);
    for (int i = 0; i < n; i++)
      b32[i] = (int32_t)b[i];
    t = tfw_const(g->m, name, TFW_INT32, 1, &d, b32);
    free(b32);
  }
  tfw_quant(g->m, t, per_channel ? n : 1, s, zp, 0);
  free(b);
  free(s);
  free(zp);
  return t;
}

/* Output quantization of a weighted sum of k terms of input a. */
static Q sum_out(G *g, const Q *in, double wmsq, int k, int act) {
  double sd = sqrt((double)k * msq(in->lo, in->hi) * wmsq) + 1e-3;
  float lo = (float)(-2.5 * sd), hi = (float)(2.5 * sd);
  act_clip(act, &lo, &hi);
  return q_around(g->r, in->dtype, lo, hi);
}

static int conv_out(int in, int k, int stride, int dilation, int padding) {
  int eff = (k - 1) * dilation + 1;
  if (padding == TFW_PAD_SAME)
    return (in + stride - 1) / stride;
  return in >= eff ? (in - eff + stride) / stride : 0;
}

/* ------------------------------------------------------------ the ops */

/* Each op builder takes value a (its main input), draws its parameters
 * and returns 0 without touching the model when they do not fit (the
 * caller then tries another op), else 1. */

static int is_float(G *g, int a) { return g->v[a].q.dtype == TFW_FLOAT32; }

/* The bias type of an op reading value a: float, int32, or for int16
 * inputs int64 (int64 sums) or, where TFLite takes it (CONV_2D and
 * FULLY_CONNECTED: acc32), now and then int32 (int32 sums). */
static int bias_dtype(G *g, int a, int acc32_ok) {
  int dt = g->v[a].q.dtype;
  if (dt == TFW_FLOAT32)
    return TFW_FLOAT32;
  if (dt == TFW_INT16)
    return acc32_ok && rchance(g->r, 0.3) ? TFW_INT32 : TFW_INT64;
  return TFW_INT32;
}

static int op_conv(G *g, int a, int depthwise) {
  Val *x = &g->v[a];
  Rng *r = g->r;
  if (x->nd != 4)
    return 0;
  /* The oracle's builtin float CONV_2D cannot run: only pure float
   * graphs (run by LiteRT) have float convolutions. */
  if (is_float(g, a) && g->kind != G_FLOAT)
    return 0;
  int h = x->d[1], w = x->d[2], cin = x->d[3];
  int mult = depthwise ? (rchance(r, 0.3) ? 2 : 1) : 1;
  int cout = depthwise ? cin * mult : rint_in(r, 1, 12);
  int padding = rchance(r, 0.5) ? TFW_PAD_SAME : TFW_PAD_VALID;
  int kh = rint_in(r, 1, 3), kw = rint_in(r, 1, 3), sh = rint_in(r, 1, 2), sw = rint_in(r, 1, 2);
  int dh = rchance(r, 0.15) ? 2 : 1, dw = rchance(r, 0.15) ? 2 : 1;
  int oh = conv_out(h, kh, sh, dh, padding), ow = conv_out(w, kw, sw, dw, padding);
  int32_t dout[4] = {x->d[0], oh, ow, cout};
  if (oh < 1 || ow < 1 || count_of(4, dout) > MAXEL || cout > 256)
    return 0;
  int act = random_act(r);
  int per_channel = !is_float(g, a) && g->kind != G_UINT8 && rchance(r, 0.8);
  float ws[256];
  double wmsq;
  int tw;
  int k;
  if (depthwise) {
    int32_t dfil[4] = {1, kh, kw, cout};
    tw = weights(g, is_float(g, a), 4, dfil, 3, per_channel, ws, &wmsq);
    k = kh * kw;
  } else {
    int32_t dfil[4] = {cout, kh, kw, cin};
    tw = weights(g, is_float(g, a), 4, dfil, 0, per_channel, ws, &wmsq);
    k = kh * kw * cin;
  }
  double sd = sqrt((double)k * msq(x->q.lo, x->q.hi) * wmsq);
  int tb = bias(g, cout, bias_dtype(g, a, !depthwise), x->q.scale, ws, sd, per_channel);
  Q out = sum_out(g, &x->q, wmsq, k, act);
  int o = new_val(g, 4, dout, &out);
  int tins[3] = {g->v[a].t, tw, tb};
  int op = add_op(g, depthwise ? TFW_OP_DEPTHWISE_CONV_2D : TFW_OP_CONV_2D,
                  depthwise ? "DEPTHWISE_CONV_2D" : "CONV_2D", 3, tins, &a, 1, &o, 1);
  if (depthwise)
    tfw_depthwise_options(g->m, op, padding, sw, sh, mult, act, dw, dh);
  else
    tfw_conv2d_options(g->m, op, padding, sw, sh, act, dw, dh);
  if (is_float(g, a) && !depthwise)
    g->float_conv = 1;
  return 1;
}

static int op_fc(G *g, int a) {
  Val *x = &g->v[a];
  Rng *r = g->r;
  int64_t k = count_of(x->nd, x->d);
  if (k > 512)
    return 0;
  int n = rint_in(r, 1, 16);
  int act = random_act(r);
  int per_channel = !is_float(g, a) && g->kind != G_UINT8 && rchance(r, 0.5);
  int32_t dw[2] = {n, (int32_t)k};
  float ws[64];
  double wmsq;
  int tw = weights(g, is_float(g, a), 2, dw, 0, per_channel, ws, &wmsq);
  double sd = sqrt((double)k * msq(x->q.lo, x->q.hi) * wmsq);
  int tb = rchance(r, 0.8) ? bias(g, n, bias_dtype(g, a, 1), x->q.scale, ws, sd, per_channel) : -1;
  Q out = sum_out(g, &x->q, wmsq, (int)k, act);
  int32_t dout[2] = {1, n};
  int o = new_val(g, 2, dout, &out);
  int tins[3] = {g->v[a].t, tw, tb};
  int op = add_op(g, TFW_OP_FULLY_CONNECTED, "FULLY_CONNECTED", 3, tins, &a, 1, &o, 1);
  tfw_fully_connected_options(g->m, op, act, 0);
  return 1;
}

static int op_pool(G *g, int a, int is_max) {
  Val *x = &g->v[a];
  Rng *r = g->r;
  if (x->nd != 4)
    return 0;
  int padding = rchance(r, 0.5) ? TFW_PAD_SAME : TFW_PAD_VALID;
  int fh = rint_in(r, 1, 3), fw = rint_in(r, 1, 3), sh = rint_in(r, 1, 2), sw = rint_in(r, 1, 2);
  int oh = conv_out(x->d[1], fh, sh, 1, padding), ow = conv_out(x->d[2], fw, sw, 1, padding);
  if (oh < 1 || ow < 1)
    return 0;
  int act = rchance(r, 0.3) ? random_act(r) : TFW_ACT_NONE;
  int32_t dout[4] = {x->d[0], oh, ow, x->d[3]};
  Q q = x->q;
  int o = new_val(g, 4, dout, &q);
  int tin = g->v[a].t;
  int op = add_op(g, is_max ? TFW_OP_MAX_POOL_2D : TFW_OP_AVERAGE_POOL_2D,
                  is_max ? "MAX_POOL_2D" : "AVERAGE_POOL_2D", 1, &tin, &a, 1, &o, 1);
  tfw_pool2d_options(g->m, op, padding, sw, sh, fw, fh, act);
  return 1;
}

/* Another value of the same dtype and shape as a (not a itself), or -1. */
static int same_shape(G *g, int a) {
  int c[MAXV], n = 0;
  for (int i = 0; i < g->nv; i++)
    if (i != a && g->v[i].q.dtype == g->v[a].q.dtype && g->v[i].nd == g->v[a].nd &&
        !memcmp(g->v[i].d, g->v[a].d, sizeof(int32_t) * (size_t)g->v[a].nd))
      c[n++] = i;
  return n ? c[rint_in(g->r, 0, n - 1)] : -1;
}

static const char *op_name(int code) {
  switch (code) {
  case TFW_OP_ADD: return "ADD";
  case TFW_OP_SUB: return "SUB";
  case TFW_OP_MUL: return "MUL";
  case TFW_OP_RELU: return "RELU";
  case TFW_OP_RELU6: return "RELU6";
  case TFW_OP_LOGISTIC: return "LOGISTIC";
  case TFW_OP_TANH: return "TANH";
  default: return "?";
  }
}

static int requantize(G *g, int a, const Q *to);

/* ADD, SUB, MUL: the partner is another value of a's shape (a residual
 * or a branch merge), a itself, or a constant. */
static int op_binary(G *g, int a, int code, int forced) {
  Rng *r = g->r;
  Val *x = &g->v[a];
  int b = rchance(r, 0.75) ? same_shape(g, a) : -1;
  if (b < 0 && rchance(r, 0.15))
    b = a;
  if (forced >= 0)
    b = forced;
  /* 16x8 ADD and SUB: pot_scale_int16 unset (TFLite's default, true),
   * false or true; with true, now and then power-of-two scales made for
   * TFLite's power-of-two path (a QUANTIZE first where an input has
   * another scale; the output takes the larger input scale: one input
   * unshifted, the other shifted right by at most 15). */
  int pot = -1, make_pot = 0, e = 0;
  if (x->q.dtype == TFW_INT16 && code != TFW_OP_MUL) {
    pot = rint_in(r, -1, 1);
    make_pot = pot == 1 && rchance(r, 0.4);
    e = rint_in(r, 10, 14);
    if (make_pot && !is_pot(x->q.scale)) {
      Q qp = q_pot(e);
      int self = b == a;
      a = requantize(g, a, &qp);
      x = &g->v[a];
      if (self)
        b = a;
    }
    if (make_pot && b >= 0 && !is_pot(g->v[b].q.scale)) {
      Q qp = q_pot(e + rint_in(r, 0, 2));
      b = requantize(g, b, &qp);
    }
  }
  Q qb;
  int tb;
  if (b >= 0) {
    qb = g->v[b].q;
    tb = g->v[b].t;
  } else {
    qb = make_pot ? q_pot(e + rint_in(r, 0, 2)) : q_random(r, x->q.dtype);
    tb = const_act(g, x->nd, x->d, &qb);
  }
  Q qa = x->q;
  int act = random_act(r);
  double ma = 0.5 * ((double)qa.lo + qa.hi), mb = 0.5 * ((double)qb.lo + qb.hi);
  double va = msq(qa.lo, qa.hi) - ma * ma, vb = msq(qb.lo, qb.hi) - mb * mb;
  double mean, var;
  if (code == TFW_OP_MUL) {
    mean = ma * mb;
    var = msq(qa.lo, qa.hi) * msq(qb.lo, qb.hi) - mean * mean;
  } else {
    mean = code == TFW_OP_SUB ? ma - mb : ma + mb;
    var = va + vb;
  }
  double sd = sqrt(var > 0 ? var : 0) + 1e-3;
  float lo = (float)(mean - 2.5 * sd), hi = (float)(mean + 2.5 * sd);
  act_clip(act, &lo, &hi);
  Q qo = q_around(r, qa.dtype, lo, hi);
  if (qa.dtype == TFW_INT16 && code != TFW_OP_MUL && pot != 0 && is_pot(qa.scale) &&
      is_pot(qb.scale)) {
    int ea, eb;
    frexpf(qa.scale, &ea);
    frexpf(qb.scale, &eb);
    if (abs(ea - eb) <= 15 && (make_pot || rchance(r, 0.6)))
      qo = q_fixed(TFW_INT16, qa.scale > qb.scale ? qa.scale : qb.scale, 0);
  }
  int o = new_val(g, x->nd, x->d, &qo);
  int swap = rchance(r, 0.3);
  int tins[2] = {swap ? tb : g->v[a].t, swap ? g->v[a].t : tb};
  int vin[2] = {a, b};
  int op = add_op(g, code, op_name(code), 2, tins, vin, b >= 0 ? 2 : 1, &o, 1);
  if (code == TFW_OP_ADD)
    tfw_add_options(g->m, op, act, pot);
  else if (code == TFW_OP_SUB)
    tfw_sub_options(g->m, op, act, pot);
  else
    tfw_mul_options(g->m, op, act);
  return 1;
}

static int op_unary(G *g, int a, int code) {
  Rng *r = g->r;
  Val *x = &g->v[a];
  Q out = x->q;
  int dt = x->q.dtype;
  if (!is_float(g, a)) {
    float hi = x->q.hi > 0.1f ? x->q.hi : 0.1f;
    switch (code) {
    case TFW_OP_LOGISTIC:
      out = dt == TFW_INT16 ? q_pot(15) : q_fixed(dt, 1.0f / 256, dt == TFW_UINT8 ? 0 : -128);
      break;
    case TFW_OP_TANH:
      out = dt == TFW_INT16 ? q_pot(15) : q_fixed(dt, 1.0f / 128, dt == TFW_UINT8 ? 128 : 0);
      break;
    case TFW_OP_RELU: out = q_around(r, dt, 0, hi); break;
    case TFW_OP_RELU6: out = q_around(r, dt, 0, hi < 6 ? hi : 6); break;
    }
  }
  /* int16 LOGISTIC and TANH: now and then the input scale of TFLite's
   * power-of-two path (2^-12; TANH also 2^-11), by a QUANTIZE first. */
  if (dt == TFW_INT16 && (code == TFW_OP_LOGISTIC || code == TFW_OP_TANH) && rchance(r, 0.3)) {
    Q pot = q_pot(code == TFW_OP_TANH && rchance(r, 0.5) ? 11 : 12);
    if (pot.scale != x->q.scale)
      a = requantize(g, a, &pot);
    x = &g->v[a];
  }
  int o = new_val(g, x->nd, x->d, &out);
  int tin = g->v[a].t;
  add_op(g, code, op_name(code), 1, &tin, &a, 1, &o, 1);
  return 1;
}

static int op_softmax(G *g, int a) {
  Rng *r = g->r;
  Val *x = &g->v[a];
  int dt = x->q.dtype;
  Q out = is_float(g, a)        ? q_cover(TFW_FLOAT32, 0, 1)
          : dt == TFW_INT16 ? q_pot(15)
                            : q_fixed(dt, 1.0f / 256, dt == TFW_UINT8 ? 0 : -128);
  int o = new_val(g, x->nd, x->d, &out);
  int tin = g->v[a].t;
  int op = add_op(g, TFW_OP_SOFTMAX, "SOFTMAX", 1, &tin, &a, 1, &o, 1);
  tfw_softmax_options(g->m, op, rchance(r, 0.6) ? 1.0f : runif(r, 0.1, 2.0));
  return 1;
}

/* int8 -> int8 with another quantization (or float -> int8 for the
 * mixed graphs' input); returns the new value or -1. */
static int requantize(G *g, int a, const Q *to) {
  int o = new_val(g, g->v[a].nd, g->v[a].d, to);
  int tin = g->v[a].t;
  int op = add_op(g, TFW_OP_QUANTIZE, "QUANTIZE", 1, &tin, &a, 1, &o, 1);
  tfw_empty_options(g->m, op);
  return o;
}

/* int8 -> int8, int16 -> int16 and now and then int16 -> int8 (TFLite
 * has no int8 -> int16 QUANTIZE). */
static int op_quantize(G *g, int a) {
  if (is_float(g, a) || g->kind == G_UINT8) /* no uint8 -> uint8 QUANTIZE yet */
    return 0;
  Val *x = &g->v[a];
  int dt = x->q.dtype == TFW_INT16 && !rchance(g->r, 0.15) ? TFW_INT16 : TFW_INT8;
  Q to = q_around(g->r, dt, x->q.lo, x->q.hi);
  requantize(g, a, &to);
  return 1;
}

static int op_dequantize(G *g, int a) {
  if (is_float(g, a) || (g->kind != G_MIXED && g->kind != G_INT16))
    return 0;
  Val *x = &g->v[a];
  Q to = q_cover(TFW_FLOAT32, x->q.lo, x->q.hi);
  int o = new_val(g, x->nd, x->d, &to);
  int tin = g->v[a].t;
  int op = add_op(g, TFW_OP_DEQUANTIZE, "DEQUANTIZE", 1, &tin, &a, 1, &o, 1);
  tfw_empty_options(g->m, op);
  return 1;
}

/* CONCATENATION of a with 1-2 partners that match it except along one
 * axis (requantized first when int8 and quantized otherwise), or with
 * itself; forced >= 0: with that value (of a's shape). */
static int op_concat(G *g, int a, int forced) {
  Rng *r = g->r;
  Val *x = &g->v[a];
  int nd = x->nd;
  int axis = rint_in(r, 0, nd - 1);
  int c[MAXV], n = 0;
  for (int i = 0; i < g->nv; i++) {
    Val *y = &g->v[i];
    if (i == a || y->q.dtype != x->q.dtype || y->nd != nd)
      continue;
    int ok = 1;
    for (int k = 0; k < nd; k++)
      if (k != axis && y->d[k] != x->d[k])
        ok = 0;
    if (ok)
      c[n++] = i;
  }
  int parts[3] = {a, a, a}, np = 2;
  if (forced >= 0) {
    parts[1] = forced;
  } else if (n > 0 && !rchance(r, 0.1)) {
    parts[1] = c[rint_in(r, 0, n - 1)];
    if (n > 1 && rchance(r, 0.3)) {
      parts[2] = c[rint_in(r, 0, n - 1)];
      np = 3;
    }
  } else if (n == 0 && !rchance(r, 0.3)) {
    return 0;
  }
  if (rchance(r, 0.5)) { /* a elsewhere than first */
    int t = parts[0];
    parts[0] = parts[np - 1];
    parts[np - 1] = t;
  }
  int32_t dout[4];
  memcpy(dout, x->d, sizeof dout);
  dout[axis] = 0;
  for (int i = 0; i < np; i++)
    dout[axis] += g->v[parts[i]].d[axis];
  if (count_of(nd, dout) > MAXEL)
    return 0;
  /* TFLite requires int8 and int16 inputs to share the output's quantization;
   * uint8 inputs with their own quantization it requantizes. */
  Q q = g->v[parts[0]].q;
  for (int i = 1; i < np; i++) {
    Q qi = g->v[parts[i]].q;
    if ((q.dtype == TFW_INT8 || q.dtype == TFW_INT16) && (qi.scale != q.scale || qi.zp != q.zp))
      parts[i] = requantize(g, parts[i], &q);
  }
  if (q.dtype == TFW_UINT8 && rchance(r, 0.5))
    q = q_random(r, TFW_UINT8);
  int o = new_val(g, nd, dout, &q);
  int tins[3];
  for (int i = 0; i < np; i++)
    tins[i] = g->v[parts[i]].t;
  int op = add_op(g, TFW_OP_CONCATENATION, "CONCATENATION", np, tins, parts, np, &o, 1);
  tfw_concatenation_options(g->m, op, rchance(r, 0.2) ? axis - nd : axis, TFW_ACT_NONE);
  return 1;
}

static int op_split(G *g, int a) {
  Rng *r = g->r;
  Val *x = &g->v[a];
  int axis = rint_in(r, 0, x->nd - 1), num = rint_in(r, 2, 3);
  if (x->d[axis] % num)
    num = 2;
  if (x->d[axis] % num)
    return 0;
  int32_t d[4];
  memcpy(d, x->d, sizeof d);
  d[axis] /= num;
  int outs[3];
  Q q = x->q;
  for (int i = 0; i < num; i++)
    outs[i] = new_val(g, x->nd, d, &q);
  int32_t ax = rchance(r, 0.2) ? axis - x->nd : axis;
  int tax = const_i32(g, 0, NULL, &ax);
  int tins[2] = {tax, g->v[a].t};
  int op = add_op(g, TFW_OP_SPLIT, "SPLIT", 2, tins, &a, 1, outs, num);
  tfw_split_options(g->m, op, num);
  return 1;
}

static int op_reshape(G *g, int a) {
  Rng *r = g->r;
  Val *x = &g->v[a];
  int64_t left = count_of(x->nd, x->d);
  int ndo = rchance(r, 0.5) ? 4 : rint_in(r, 1, 3);
  int32_t dout[4], written[4];
  if (ndo == 4) { /* back to [1, h, w, c] */
    dout[0] = 1;
    for (int i = 1; i < 3; i++) {
      int32_t divs[64];
      int nd2 = 0;
      for (int64_t f = 1; f <= left && nd2 < 64; f++)
        if (left % f == 0)
          divs[nd2++] = (int32_t)f;
      dout[i] = divs[rint_in(r, 0, nd2 - 1)];
      left /= dout[i];
    }
    dout[3] = (int32_t)left;
  } else {
    for (int i = 0; i < ndo - 1; i++) {
      int32_t divs[64];
      int nd2 = 0;
      for (int64_t f = 1; f <= left && nd2 < 64; f++)
        if (left % f == 0)
          divs[nd2++] = (int32_t)f;
      dout[i] = divs[rint_in(r, 0, nd2 - 1)];
      left /= dout[i];
    }
    dout[ndo - 1] = (int32_t)left;
  }
  memcpy(written, dout, sizeof written);
  if (rchance(r, 0.3))
    written[rint_in(r, 0, ndo - 1)] = -1;
  Q q = x->q;
  int o = new_val(g, ndo, dout, &q);
  int ts = const_vec(g, ndo, written);
  int tins[2] = {g->v[a].t, ts};
  int op = add_op(g, TFW_OP_RESHAPE, "RESHAPE", 2, tins, &a, 1, &o, 1);
  if (rchance(r, 0.5))
    tfw_reshape_options(g->m, op, ndo, dout);
  return 1;
}

static int op_pad(G *g, int a) {
  Rng *r = g->r;
  Val *x = &g->v[a];
  int32_t dout[4], pads[8];
  for (int i = 0; i < x->nd; i++) {
    pads[2 * i] = rchance(r, 0.5) ? rint_in(r, 0, 2) : 0;
    pads[2 * i + 1] = rchance(r, 0.5) ? rint_in(r, 0, 2) : 0;
    dout[i] = x->d[i] + pads[2 * i] + pads[2 * i + 1];
  }
  if (count_of(x->nd, dout) > MAXEL)
    return 0;
  Q q = x->q;
  int o = new_val(g, x->nd, dout, &q);
  int32_t dp[2] = {x->nd, 2};
  int tp = const_i32(g, 2, dp, pads);
  int tins[2] = {g->v[a].t, tp};
  int op = add_op(g, TFW_OP_PAD, "PAD", 2, tins, &a, 1, &o, 1);
  tfw_empty_options(g->m, op);
  return 1;
}

static int op_transpose(G *g, int a) {
  Rng *r = g->r;
  Val *x = &g->v[a];
  if (x->nd < 2)
    return 0;
  int32_t perm[4], dout[4];
  for (int i = 0; i < x->nd; i++)
    perm[i] = i;
  for (int i = x->nd - 1; i > 0; i--) {
    int j = rint_in(r, 0, i);
    int32_t t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
  for (int i = 0; i < x->nd; i++)
    dout[i] = x->d[perm[i]];
  Q q = x->q;
  int o = new_val(g, x->nd, dout, &q);
  int tp = const_vec(g, x->nd, perm);
  int tins[2] = {g->v[a].t, tp};
  int op = add_op(g, TFW_OP_TRANSPOSE, "TRANSPOSE", 2, tins, &a, 1, &o, 1);
  tfw_empty_options(g->m, op);
  return 1;
}

/* STRIDED_SLICE with positive strides and in-range bounds (the mask
 * forms are gen_ops' business). */
static int op_slice(G *g, int a) {
  Rng *r = g->r;
  Val *x = &g->v[a];
  int32_t b[4], e[4], s[4], dout[4];
  for (int i = 0; i < x->nd; i++) {
    int dim = x->d[i];
    int p = rint_in(r, 0, dim - 1), q = rint_in(r, 0, dim - 1);
    if (rchance(r, 0.4)) {
      p = 0;
      q = dim - 1;
    }
    b[i] = p < q ? p : q;
    e[i] = (p < q ? q : p) + 1;
    s[i] = rchance(r, 0.7) ? 1 : 2;
    dout[i] = (e[i] - b[i] + s[i] - 1) / s[i];
  }
  Q q = x->q;
  int o = new_val(g, x->nd, dout, &q);
  int tb = const_vec(g, x->nd, b), te = const_vec(g, x->nd, e), ts = const_vec(g, x->nd, s);
  int tins[4] = {g->v[a].t, tb, te, ts};
  int op = add_op(g, TFW_OP_STRIDED_SLICE, "STRIDED_SLICE", 4, tins, &a, 1, &o, 1);
  tfw_strided_slice_options(g->m, op, 0, 0, 0, 0, 0, 0);
  return 1;
}

static int op_mean(G *g, int a) {
  Rng *r = g->r;
  Val *x = &g->v[a];
  int nd = x->nd;
  if (nd < 2)
    return 0;
  int32_t axes[4];
  int na = 0, keep = rchance(r, 0.5);
  if (nd == 4 && rchance(r, 0.5)) { /* global average pooling */
    axes[na++] = 1;
    axes[na++] = 2;
    keep = rchance(r, 0.7);
  } else {
    for (int i = 0; i < nd; i++)
      if (rchance(r, 0.4))
        axes[na++] = i;
    if (na == 0)
      axes[na++] = rint_in(r, 0, nd - 1);
  }
  int32_t dout[4];
  int ndo = 0;
  for (int i = 0; i < nd; i++) {
    int reduced = 0;
    for (int j = 0; j < na; j++)
      reduced |= axes[j] == i;
    if (!reduced)
      dout[ndo++] = x->d[i];
    else if (keep)
      dout[ndo++] = 1;
  }
  if (ndo == 0)
    return 0;
  float mid = 0.5f * (x->q.lo + x->q.hi), half = 0.5f * (x->q.hi - x->q.lo) * runif(r, 0.3, 1);
  Q out = rchance(r, 0.5) ? x->q : q_cover(x->q.dtype, mid - half, mid + half);
  int o = new_val(g, ndo, dout, &out);
  int tax = const_vec(g, na, axes);
  int tins[2] = {g->v[a].t, tax};
  int op = add_op(g, TFW_OP_MEAN, "MEAN", 2, tins, &a, 1, &o, 1);
  tfw_reducer_options(g->m, op, keep);
  return 1;
}

/* The op menu, with weights. */
enum {
  K_CONV, K_DW, K_FC, K_AVG, K_MAX, K_ADD, K_SUB, K_MUL, K_RELU, K_RELU6, K_LOGISTIC, K_TANH,
  K_SOFTMAX, K_CONCAT, K_SPLIT, K_RESHAPE, K_PAD, K_TRANSPOSE, K_SLICE, K_MEAN, K_QUANTIZE,
  K_DEQUANTIZE, NK
};
static const int menu_weight[NK] = {6, 3, 2, 2, 2, 5, 2, 2, 2, 1, 1, 1,
                                    1, 4, 2, 3, 2, 2, 2, 1, 2, 2};

static int build_op(G *g, int a, int k) {
  switch (k) {
  case K_CONV: return op_conv(g, a, 0);
  case K_DW: return op_conv(g, a, 1);
  case K_FC: return op_fc(g, a);
  case K_AVG: return op_pool(g, a, 0);
  case K_MAX: return op_pool(g, a, 1);
  case K_ADD: return op_binary(g, a, TFW_OP_ADD, -1);
  case K_SUB: return op_binary(g, a, TFW_OP_SUB, -1);
  case K_MUL: return op_binary(g, a, TFW_OP_MUL, -1);
  case K_RELU: return op_unary(g, a, TFW_OP_RELU);
  case K_RELU6: return op_unary(g, a, TFW_OP_RELU6);
  case K_LOGISTIC: return op_unary(g, a, TFW_OP_LOGISTIC);
  case K_TANH: return op_unary(g, a, TFW_OP_TANH);
  case K_SOFTMAX: return op_softmax(g, a);
  case K_CONCAT: return op_concat(g, a, -1);
  case K_SPLIT: return op_split(g, a);
  case K_RESHAPE: return op_reshape(g, a);
  case K_PAD: return op_pad(g, a);
  case K_TRANSPOSE: return op_transpose(g, a);
  case K_SLICE: return op_slice(g, a);
  case K_MEAN: return op_mean(g, a);
  case K_QUANTIZE: return op_quantize(g, a);
  case K_DEQUANTIZE: return op_dequantize(g, a);
  }
  return 0;
}

/* The value an op reads first: an unconsumed model input while there is
 * one, else mostly recent values, unconsumed ones preferred. */
static int pick_value(G *g) {
  Rng *r = g->r;
  for (int i = 0; i < g->nv; i++)
    if (g->v[i].is_input && g->v[i].uses == 0)
      return i;
  int c[MAXV], n = 0;
  int fresh = rchance(g->r, 0.65);
  for (int i = 0; i < g->nv; i++)
    if (!fresh || g->v[i].uses == 0)
      c[n++] = i;
  if (n == 0)
    for (int i = 0; i < g->nv; i++)
      c[n++] = i;
  int back = 0;
  while (back < n - 1 && rchance(r, 0.5))
    back++;
  if (rchance(r, 0.15))
    back = rint_in(r, 0, n - 1);
  return c[n - 1 - back];
}

static int pick_kind(Rng *r) {
  int total = 0;
  for (int k = 0; k < NK; k++)
    total += menu_weight[k];
  int x = rint_in(r, 0, total - 1);
  for (int k = 0; k < NK; k++) {
    if (x < menu_weight[k])
      return k;
    x -= menu_weight[k];
  }
  return 0;
}

/* A model input [1, h, w, c] with random data. */
static int add_input(G *g, Rng *r, const int32_t *d, const Q *q) {
  int k = new_val(g, 4, d, q);
  g->v[k].is_input = 1;
  int64_t n = count_of(4, d);
  size_t bytes = (size_t)n * tfw_dtype_size(q->dtype);
  g->in_val[g->nin] = k;
  g->in_data[g->nin] = xmalloc(bytes);
  g->in_bytes[g->nin] = bytes;
  fill(r, q, g->in_data[g->nin], n);
  g->nin++;
  return k;
}

static uint64_t op_seed(uint64_t seed, int i) {
  uint64_t s = seed * 0x2545f4914f6cdd1dull + (uint64_t)i * 0x9e3779b97f4a7c15ull + 1;
  splitmix(&s);
  return s;
}

static void write_file(const char *path, const void *p, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(p, 1, n, f) != n || fclose(f) != 0) {
    fprintf(stderr, "gen_graphs: cannot write %s: %s\n", path, strerror(errno));
    exit(1);
  }
}

static void make_dir(const char *path) {
  if (mkdir(path, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "gen_graphs: cannot create %s: %s\n", path, strerror(errno));
    exit(1);
  }
}

static void generate(uint64_t seed, int max_ops, const char *skip, int maxdim, int kind,
                     const char *dir, const char *name, FILE *manifest) {
  G *g = xmalloc(sizeof *g);
  memset(g, 0, sizeof *g);
  g->m = tfw_new();
  g->maxdim = maxdim;
  char path[1300];
  make_dir(dir);
  snprintf(path, sizeof path, "%s/graph.txt", dir);
  g->txt = fopen(path, "w");
  if (!g->txt)
    die("cannot write graph.txt");

  Rng top = {op_seed(seed, -1)};
  int nops = rint_in(&top, 2, MAXOPS);
  if (max_ops > 0 && max_ops < nops)
    nops = max_ops;
  double u = runit(&top);
  g->kind = u < 0.4    ? G_INT8
            : u < 0.58 ? G_INT16
            : u < 0.74 ? G_FLOAT
            : u < 0.88 ? G_MIXED
                       : G_UINT8;
  if (kind >= 0)
    g->kind = kind;
  /* A 16x8 graph reads a float input now and then (a QUANTIZE to int16
   * first, as G_MIXED's to int8). */
  int float_in = g->kind == G_MIXED || (g->kind == G_INT16 && rchance(&top, 0.3));
  int32_t d[4] = {1, rint_in(&top, 1, maxdim), rint_in(&top, 1, maxdim), rint_in(&top, 1, 8)};
  g->r = &top;
  fprintf(g->txt, "# gen_graphs --seed %llu --ops %d%s%s --max-dim %d%s%s\n",
          (unsigned long long)seed, nops, skip && *skip ? " --skip " : "", skip ? skip : "",
          maxdim, kind >= 0 ? " --kind " : "", kind >= 0 ? kind_names[kind] : "");
  if (float_in) {
    Q qf = q_random(&top, TFW_FLOAT32);
    add_input(g, &top, d, &qf);
  } else {
    int dt = g->kind == G_FLOAT   ? TFW_FLOAT32
             : g->kind == G_UINT8 ? TFW_UINT8
             : g->kind == G_INT16 ? TFW_INT16
                                  : TFW_INT8;
    Q q0 = q_random(&top, dt);
    add_input(g, &top, d, &q0);
    if (rchance(&top, 0.3)) {
      Q q1 = q_random(&top, dt);
      add_input(g, &top, d, &q1);
    }
  }

  for (int i = 0; i < nops; i++) {
    Rng r = {op_seed(seed, i)};
    g->r = &r;
    g->step = i;
    char word[16];
    snprintf(word, sizeof word, "%d", i);
    int skipped = 0;
    for (const char *p = skip; i > 0 && p && *p;) {
      size_t n = strcspn(p, ",");
      if (n == strlen(word) && !strncmp(p, word, n))
        skipped = 1;
      p += n;
      if (*p == ',')
        p++;
    }
    if (skipped)
      continue;
    if (i == 0 && float_in) { /* the float input to int8 (int16) */
      Q q = q_cover(g->kind == G_INT16 ? TFW_INT16 : TFW_INT8, g->v[0].q.lo, g->v[0].q.hi);
      requantize(g, 0, &q);
      continue;
    }
    if (i == 0 && g->nin == 2) { /* the two inputs meet */
      int k = rint_in(&r, 0, 2);
      if (k == 2)
        op_concat(g, 0, 1);
      else
        op_binary(g, 0, k == 0 ? TFW_OP_ADD : TFW_OP_MUL, 1);
      continue;
    }
    int a = pick_value(g);
    int done = 0;
    for (int tries = 0; tries < 40 && !done; tries++)
      done = build_op(g, a, pick_kind(&r));
    if (!done)
      op_unary(g, a, TFW_OP_RELU);
  }

  /* Outputs: every op output nobody reads, and now and then one that is
   * read. */
  int outs[MAXOUT], nout = 0, odt[MAXOUT];
  Rng ro = {op_seed(seed, 1000)};
  for (int i = g->nv - 1; i >= 0 && nout < MAXOUT; i--) {
    Val *v = &g->v[i];
    if (v->is_input)
      continue;
    if (v->uses == 0 || rchance(&ro, 0.08)) {
      odt[nout] = v->q.dtype;
      outs[nout++] = v->t;
    }
  }
  if (nout == 0)
    die("a graph without outputs");
  int ins[MAXIN];
  for (int i = 0; i < g->nin; i++)
    ins[i] = g->v[g->in_val[i]].t;
  tfw_inputs(g->m, g->nin, ins);
  tfw_outputs(g->m, nout, outs);
  fclose(g->txt);

  const char *mode = g->float_conv ? "litert" : "off";
  uint8_t *bytes;
  size_t len;
  tfw_finish(g->m, &bytes, &len);
  snprintf(path, sizeof path, "%s/model.tflite", dir);
  write_file(path, bytes, len);
  uint64_t key = fnv1a(FNV_INIT, bytes, len);
  free(bytes);
  for (int i = 0; i < g->nin; i++) {
    snprintf(path, sizeof path, "%s/in%d.bin", dir, i);
    write_file(path, g->in_data[i], g->in_bytes[i]);
    key = fnv1a(key, g->in_data[i], g->in_bytes[i]);
    free(g->in_data[i]);
  }
  key = fnv1a(key, mode, strlen(mode));
  /* Float outputs went through up to 40 ops whose rounding order may
   * differ from TFLite's (or XNNPACK's under LiteRT). */
  fprintf(manifest, "%s %s %g %g %d %d %016llx ", name, mode, 1e-3, 1e-3, g->nin, nout,
          (unsigned long long)key);
  for (int i = 0; i < nout; i++)
    fprintf(manifest, "%s%s", i ? "," : "", dtype_name(odt[i]));
  fprintf(manifest, " %d\n", g->nops);
  tfw_free(g->m);
  free(g);
}

static void usage(void) {
  fprintf(stderr, "usage: gen_graphs [--seed S] [--count N] [--ops N] [--skip LIST] "
                  "[--max-dim D] [--kind int8|float|mixed|uint8|int16] [--name NAME] OUTDIR\n");
  exit(2);
}

int main(int argc, char **argv) {
  unsigned long long seed = 1;
  int count = 1, max_ops = 0, maxdim = 8, kind = -1;
  const char *skip = "", *outdir = NULL, *name = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--seed") && i + 1 < argc)
      seed = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--count") && i + 1 < argc)
      count = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--ops") && i + 1 < argc)
      max_ops = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--skip") && i + 1 < argc)
      skip = argv[++i];
    else if (!strcmp(argv[i], "--max-dim") && i + 1 < argc)
      maxdim = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--name") && i + 1 < argc)
      name = argv[++i];
    else if (!strcmp(argv[i], "--kind") && i + 1 < argc) {
      const char *k = argv[++i];
      for (int j = 0; j < (int)(sizeof kind_names / sizeof kind_names[0]); j++)
        if (!strcmp(k, kind_names[j]))
          kind = j;
      if (kind < 0)
        usage();
    }
    else if (argv[i][0] != '-' && !outdir)
      outdir = argv[i];
    else
      usage();
  }
  if (!outdir || count < 1 || maxdim < 1 || (name && count != 1))
    usage();
  make_dir(outdir);
  char path[1200];
  snprintf(path, sizeof path, "%s/manifest.txt", outdir);
  FILE *manifest = fopen(path, "a");
  if (!manifest)
    die("cannot write manifest.txt");
  for (int k = 0; k < count; k++) {
    char nm[128], dir[1200];
    if (name)
      snprintf(nm, sizeof nm, "%s", name);
    else
      snprintf(nm, sizeof nm, "graph.%llu", seed + (unsigned long long)k);
    snprintf(dir, sizeof dir, "%s/%s", outdir, nm);
    generate(seed + (unsigned long long)k, max_ops, skip, maxdim, kind, dir, nm, manifest);
  }
  if (fclose(manifest) != 0)
    die("cannot write manifest.txt");
  return 0;
}
