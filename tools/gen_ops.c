/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_ops.c - single-op .tflite test cases from a seed.
 *
 *   gen_ops [--seed S] [--count N] [--only LIST] OUTDIR
 *   gen_ops --list
 *
 * For every row of the table at the end of this file (an op and a dtype
 * label: float32, int8, int16 = int16 activations with int8 weights,
 * uint8 = legacy asymmetric, hybrid = float activations with int8
 * weights, or a conversion such as float32_int8), it
 * writes N cases OUTDIR/<OP>.<dtype>.<k>/ holding model.tflite and the
 * input tensors in0.bin, in1.bin, ... (raw little-endian bytes, in the
 * model's input order), with random shapes, options, weights and
 * quantization parameters.  LIST is a comma- or space-separated list of
 * OP:dtype (OP alone selects every dtype of that op).
 *
 * A case may also have oracle.tflite: the same computation written with
 * ops the oracle's TFLite implements, for an op feature it predates
 * (Case.needs_oracle_form); the oracle runs that one instead.
 *
 * OUTDIR/manifest.txt gets one line per case:
 *   NAME OP DTYPE MODE ATOL RTOL NIN NOUT KEY OUTDTYPES
 * MODE is how the oracle runs the case (tests/ops/oracle_batch.mjs):
 * off = TFLite's builtin kernels; litert = LiteRT.js, for float CONV_2D,
 * whose builtin kernel aborts in the oracle's wasm build.  ATOL/RTOL is the stated tolerance for
 * float outputs (|actual - expected| <= ATOL + RTOL * |expected|); integer
 * outputs are compared bit-exactly.  KEY is a 64-bit FNV-1a hash of the
 * model bytes, the input bytes and the oracle mode: the oracle's outputs
 * can be cached under it.  OUTDTYPES lists the output dtypes, comma
 * separated.  tinyaot runs every case with --rounding single, TFLite's
 * arithmetic (compiler/lower.c, op_rounding(), says which kernels round
 * once there and how that was established).
 *
 * Every case depends only on (seed, op, dtype, k): a smaller --count or
 * an --only list gives a subset of the same cases.  The generator only
 * builds models TFLite accepts; a model the oracle refuses is a bug here.
 */
#include "tflite_writer.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAXT 8 /* inputs or outputs per case */

#include "rng.h"

/* ------------------------------------------------------- dtype kinds */

/* The dtype label of a row: what the activations (and weights) are. */
enum { K_F32, K_I8, K_I16, K_U8, K_HYB };
/* K_HYB, "hybrid": float activations and bias, int8 weights (TFLite's
 * dynamic-range kernels). */

/* Row variant of the 16x8 weighted ops: an int32 bias (Case.bias32). */
#define VAR_BIAS32 1
#define VAR_OUT16 2 /* SOFTMAX: int8 input, int16 output */
/* int8 LOGISTIC, TANH: an input scale 2^-e / n and every input value,
 * where TFLite's float table and TFLM's fixed point differ (see
 * gen_sigmoid_ties). */
#define VAR_TIES 3
/* int8 CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED with int4 weights
 * (packed two per byte, as TFLite Micro takes them): Case.w4. */
#define VAR_W4 4


static int kind_dtype(int k) {
  switch (k) {
  case K_F32:
  case K_HYB: return TFW_FLOAT32;
  case K_I8: return TFW_INT8;
  case K_I16: return TFW_INT16;
  default: return TFW_UINT8;
  }
}

static const char *dtype_name(int dt) {
  switch (dt) {
  case TFW_FLOAT32: return "float32";
  case TFW_INT32: return "int32";
  case TFW_UINT8: return "uint8";
  case TFW_INT64: return "int64";
  case TFW_INT16: return "int16";
  case TFW_INT8: return "int8";
  case TFW_COMPLEX64: return "complex64";
  default: return "unknown";
  }
}

/*
 * Quantization of an activation tensor.  lo/hi: the real range the
 * tensor covers (for float tensors: the range random data is drawn from).
 */
typedef struct {
  int dtype;
  float scale;
  int64_t zp;
  float lo, hi;
} Q;

static void qrange_of(int dtype, int *qmin, int *qmax) {
  switch (dtype) {
  case TFW_INT8: *qmin = -128; *qmax = 127; break;
  case TFW_UINT8: *qmin = 0; *qmax = 255; break;
  case TFW_INT16: *qmin = -32768; *qmax = 32767; break;
  default: *qmin = 0; *qmax = 0;
  }
}

/* Quantization covering [lo, hi] (stretched to contain 0). */
static Q q_cover(int dtype, float lo, float hi) {
  Q q = {dtype, 0, 0, lo, hi};
  if (lo > 0)
    lo = 0;
  if (hi < 0)
    hi = 0;
  if (hi - lo < 1e-3f)
    hi = lo + 1e-3f;
  int qmin, qmax;
  qrange_of(dtype, &qmin, &qmax);
  if (dtype == TFW_FLOAT32)
    return q;
  if (dtype == TFW_INT16) {
    float m = fabsf(lo) > fabsf(hi) ? fabsf(lo) : fabsf(hi);
    q.scale = m / 32767.0f;
    q.zp = 0;
  } else {
    q.scale = (hi - lo) / (float)(qmax - qmin);
    double zp = qmin - lo / q.scale;
    zp = floor(zp + 0.5);
    if (zp < qmin)
      zp = qmin;
    if (zp > qmax)
      zp = qmax;
    q.zp = (int64_t)zp;
  }
  q.lo = (float)(qmin - q.zp) * q.scale;
  q.hi = (float)(qmax - q.zp) * q.scale;
  return q;
}

/* Fixed quantization (scale, zero point). */
static Q q_fixed(int dtype, float scale, int64_t zp) {
  Q q = {dtype, scale, zp, 0, 0};
  int qmin, qmax;
  qrange_of(dtype, &qmin, &qmax);
  q.lo = (float)(qmin - zp) * scale;
  q.hi = (float)(qmax - zp) * scale;
  return q;
}

/* A random input range: mostly around zero, sometimes one-sided. */
static Q q_random(Rng *r, int dtype) {
  float lo = -rlog(r, 0.1, 4.0), hi = rlog(r, 0.1, 4.0);
  if (rchance(r, 0.15))
    lo = 0;
  else if (rchance(r, 0.1))
    hi = 0;
  return q_cover(dtype, lo, hi);
}

/* Mean of x^2 for x uniform on [lo, hi]. */
static double msq(float lo, float hi) { return ((double)lo * lo + (double)lo * hi + (double)hi * hi) / 3.0; }

/* ------------------------------------------------------------- cases */

typedef struct {
  TfwModel *m;
  Rng *r;
  int kind;
  const char *mode; /* how the oracle runs it: off, litert */
  /* Set by a generator whose op has something the oracle's TFLite does
   * not implement: generate() then runs it again with oracle_form set,
   * and the generator writes, from the same random draws, an equivalent
   * model out of ops the oracle has (oracle.tflite, which the oracle
   * runs instead of model.tflite). */
  int needs_oracle_form;
  int oracle_form;
  double atol, rtol;
  int nin;
  int in_tensor[MAXT];
  uint8_t *in_data[MAXT];
  size_t in_bytes[MAXT];
  int nout;
  int out_tensor[MAXT];
  int out_dtype[MAXT];
  int bias32; /* 16x8 rows "int16_bias32": an int32 bias instead of int64 */
  int w4;     /* rows "int8_w4": int4 weights (VAR_W4) */
} Case;

static int64_t count_of(int ndims, const int32_t *dims) {
  int64_t n = 1;
  for (int i = 0; i < ndims; i++)
    n *= dims[i];
  return n;
}

static void die(const char *msg) {
  fprintf(stderr, "gen_ops: %s\n", msg);
  exit(2);
}

static void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p)
    die("out of memory");
  return p;
}

/* An activation tensor with quantization q (none for float). */
static int tensor_q(Case *c, const char *name, int ndims, const int32_t *dims, const Q *q) {
  int t = tfw_tensor(c->m, name, q->dtype, ndims, dims, 0);
  if (q->dtype != TFW_FLOAT32 && q->dtype != TFW_INT32 && q->dtype != TFW_BOOL &&
      q->dtype != TFW_COMPLEX64)
    tfw_quant1(c->m, t, q->scale, q->zp);
  return t;
}

/* Random bytes for an input tensor: integers over their whole range,
 * floats uniform on [q->lo, q->hi]. */
static void fill(Rng *r, const Q *q, uint8_t *p, int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    switch (q->dtype) {
    case TFW_FLOAT32: {
      float f = runif(r, q->lo, q->hi);
      memcpy(p + 4 * i, &f, 4);
      break;
    }
    case TFW_INT32: {
      int32_t v = (int32_t)rint_in(r, (int)q->lo, (int)q->hi);
      memcpy(p + 4 * i, &v, 4);
      break;
    }
    case TFW_INT16: {
      int16_t v = (int16_t)rint_in(r, -32768, 32767);
      memcpy(p + 2 * i, &v, 2);
      break;
    }
    case TFW_INT8:
      p[i] = (uint8_t)(int8_t)rint_in(r, -128, 127);
      break;
    default:
      p[i] = (uint8_t)rint_in(r, 0, 255);
    }
  }
}

/* A model input with random data. */
static int input_q(Case *c, const char *name, int ndims, const int32_t *dims, const Q *q) {
  if (c->nin >= MAXT)
    die("too many inputs");
  int t = tensor_q(c, name, ndims, dims, q);
  int64_t n = count_of(ndims, dims);
  size_t bytes = (size_t)n * tfw_dtype_size(q->dtype);
  c->in_tensor[c->nin] = t;
  c->in_data[c->nin] = xmalloc(bytes);
  c->in_bytes[c->nin] = bytes;
  fill(c->r, q, c->in_data[c->nin], n);
  c->nin++;
  return t;
}

/* A constant activation-like tensor (a second operand given as a
 * constant) with random data. */
static int const_q(Case *c, const char *name, int ndims, const int32_t *dims, const Q *q) {
  int64_t n = count_of(ndims, dims);
  size_t bytes = (size_t)n * tfw_dtype_size(q->dtype);
  uint8_t *p = xmalloc(bytes);
  fill(c->r, q, p, n);
  int t = tfw_const(c->m, name, q->dtype, ndims, dims, p);
  free(p);
  if (q->dtype != TFW_FLOAT32 && q->dtype != TFW_INT32 && q->dtype != TFW_BOOL)
    tfw_quant1(c->m, t, q->scale, q->zp);
  return t;
}

static int output_q(Case *c, const char *name, int ndims, const int32_t *dims, const Q *q) {
  if (c->nout >= MAXT)
    die("too many outputs");
  int t = tensor_q(c, name, ndims, dims, q);
  c->out_tensor[c->nout] = t;
  c->out_dtype[c->nout] = q->dtype;
  c->nout++;
  return t;
}

static int const_i32(Case *c, const char *name, int ndims, const int32_t *dims, const int32_t *v) {
  return tfw_const(c->m, name, TFW_INT32, ndims, dims, v);
}

/* A rank-1 int32 constant of n values. */
static int const_vec(Case *c, const char *name, int n, const int32_t *v) {
  int32_t d = n;
  return const_i32(c, name, 1, &d, v);
}

/* A rank-0 int32 constant. */
static int const_scalar(Case *c, const char *name, int32_t v) {
  return const_i32(c, name, 0, NULL, &v);
}

static Q act_random(Case *c) { return q_random(c->r, kind_dtype(c->kind)); }

/* The output quantization for values of roughly [lo, hi], stretched
 * by a random factor so that some cases saturate and some do not. */
static Q act_out(Case *c, float lo, float hi) {
  float f = runif(c->r, 0.6, 1.4);
  float mid = 0.5f * (lo + hi), half = 0.5f * (hi - lo);
  return q_cover(kind_dtype(c->kind), mid - f * half, mid + f * half);
}

static int random_act(Rng *r) {
  static const int acts[] = {TFW_ACT_NONE, TFW_ACT_NONE, TFW_ACT_RELU, TFW_ACT_RELU6,
                             TFW_ACT_RELU_N1_TO_1};
  return acts[rint_in(r, 0, 4)];
}

/* int16 activations are symmetric (zero point 0) in TFLite's 16x8 scheme. */
static Q act_in(Case *c) {
  Q q = act_random(c);
  return q;
}

/* ------------------------------------------------ weights and biases */

typedef struct {
  double mean, msq; /* of the real weight values */
} WStat;

/*
 * Weights of shape dims, quantized for the case's kind along axis `qdim`
 * (per channel for int8/int16 cases, per tensor for uint8).  Returns the
 * tensor; *st gets the mean of w and of w^2 in real terms.
 */
static int weights(Case *c, const char *name, int ndims, const int32_t *dims, int qdim,
                   float *scales, WStat *st) {
  int64_t n = count_of(ndims, dims);
  int nch = dims[qdim];
  Rng *r = c->r;
  if (c->kind == K_F32) {
    float *v = xmalloc((size_t)n * 4);
    for (int64_t i = 0; i < n; i++)
      v[i] = runif(r, -1, 1);
    int t = tfw_const(c->m, name, TFW_FLOAT32, ndims, dims, v);
    free(v);
    st->mean = 0;
    st->msq = 1.0 / 3.0;
    for (int i = 0; i < nch; i++)
      scales[i] = 1;
    return t;
  }
  if (c->kind == K_U8) {
    uint8_t *v = xmalloc((size_t)n);
    int64_t zp = rint_in(r, 90, 165);
    float s = rlog(r, 0.002, 0.02);
    for (int64_t i = 0; i < n; i++)
      v[i] = (uint8_t)rint_in(r, 0, 255);
    int t = tfw_const(c->m, name, TFW_UINT8, ndims, dims, v);
    free(v);
    tfw_quant1(c->m, t, s, zp);
    for (int i = 0; i < nch; i++)
      scales[i] = s;
    double m = msq((float)(0 - zp), (float)(255 - zp));
    st->mean = (127.5 - (double)zp) * s;
    st->msq = m * s * s;
    return t;
  }
  int8_t *v = xmalloc((size_t)n);
  int wmax = c->w4 ? 7 : 127;
  for (int64_t i = 0; i < n; i++)
    v[i] = (int8_t)rint_in(r, -wmax, wmax);
  int t;
  /* The oracle's TFLite has no int4 tensors: it runs the same weights
   * stored as int8 (the oracle form). */
  if (c->w4 && !c->oracle_form)
    c->needs_oracle_form = 1;
  if (c->w4 && !c->oracle_form) {
    /* Packed: element 2i in the low nibble of byte i, 2i + 1 in the high. */
    uint8_t *p = xmalloc((size_t)(n + 1) / 2);
    memset(p, 0, (size_t)(n + 1) / 2);
    for (int64_t i = 0; i < n; i++)
      p[i / 2] |= (uint8_t)(((unsigned)v[i] & 0xfu) << (i % 2 ? 4 : 0));
    t = tfw_tensor(c->m, name, TFW_INT4, ndims, dims, tfw_buffer(c->m, p, (size_t)(n + 1) / 2));
    free(p);
  } else {
    t = tfw_const(c->m, name, TFW_INT8, ndims, dims, v);
  }
  free(v);
  int64_t *zps = xmalloc((size_t)nch * sizeof *zps);
  double mean_s2 = 0;
  for (int i = 0; i < nch; i++) {
    scales[i] = rlog(r, 0.002, 0.02);
    zps[i] = 0;
    mean_s2 += (double)scales[i] * scales[i] / nch;
  }
  tfw_quant(c->m, t, nch, scales, zps, qdim);
  free(zps);
  st->mean = 0;
  st->msq = (double)wmax * wmax / 3.0 * mean_s2;
  return t;
}

/* Per-tensor int8 weights for the int8/int16 FULLY_CONNECTED. */
static int weights_per_tensor(Case *c, const char *name, int ndims, const int32_t *dims,
                              float *scale, WStat *st) {
  if (c->kind == K_F32 || c->kind == K_U8) {
    float sc[1024];
    int t = weights(c, name, ndims, dims, 0, sc, st);
    *scale = sc[0];
    return t;
  }
  int64_t n = count_of(ndims, dims);
  int8_t *v = xmalloc((size_t)n);
  for (int64_t i = 0; i < n; i++)
    v[i] = (int8_t)rint_in(c->r, -127, 127);
  int t = tfw_const(c->m, name, TFW_INT8, ndims, dims, v);
  free(v);
  *scale = rlog(c->r, 0.002, 0.02);
  tfw_quant1(c->m, t, *scale, 0);
  st->mean = 0;
  st->msq = 127.0 * 127.0 / 3.0 * (double)*scale * *scale;
  return t;
}

/*
 * Bias of n channels: float for float cases, int32 (int8/uint8) or
 * int64 (int16) with scale in_scale * w_scale[i] (one scale per channel
 * if per_channel, else w_scale[0] for all) and zero point 0.  Values
 * are of the order of `sd` in real terms.
 */
static int bias(Case *c, const char *name, int n, float in_scale, const float *w_scale, double sd,
                int per_channel) {
  int32_t d = n;
  Rng *r = c->r;
  if (c->kind == K_F32 || c->kind == K_HYB) {
    float *v = xmalloc((size_t)n * 4);
    for (int i = 0; i < n; i++)
      v[i] = runif(r, -sd, sd);
    int t = tfw_const(c->m, name, TFW_FLOAT32, 1, &d, v);
    free(v);
    return t;
  }
  float *s = xmalloc((size_t)n * sizeof *s);
  int64_t *zp = xmalloc((size_t)n * sizeof *zp);
  int t;
  if (c->kind == K_I16 && !c->bias32) {
    int64_t *v = xmalloc((size_t)n * 8);
    for (int i = 0; i < n; i++) {
      s[i] = in_scale * w_scale[i];
      zp[i] = 0;
      v[i] = (int64_t)llround(runif(r, -sd, sd) / s[i]);
    }
    t = tfw_const(c->m, name, TFW_INT64, 1, &d, v);
    free(v);
  } else {
    int32_t *v = xmalloc((size_t)n * 4);
    for (int i = 0; i < n; i++) {
      s[i] = in_scale * w_scale[i];
      zp[i] = 0;
      double q = runif(r, -sd, sd) / s[i];
      if (q > 1e9)
        q = 1e9;
      if (q < -1e9)
        q = -1e9;
      v[i] = (int32_t)llround(q);
    }
    t = tfw_const(c->m, name, TFW_INT32, 1, &d, v);
    free(v);
  }
  /* Per-tensor weights need a per-tensor bias scale: TFLite checks
   * in_scale * w_scale against the bias's single scale. */
  tfw_quant(c->m, t, per_channel ? n : 1, s, zp, 0);
  free(s);
  free(zp);
  return t;
}

/* Activation bounds for the output range estimate. */
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

/* Input activation for ops with weights: int16 inputs are symmetric. */
static Q conv_in(Case *c) { return act_in(c); }

/* Output quantization for a weighted sum of k terms. */
static Q sum_out(Case *c, const Q *in, const WStat *w, int k, int act) {
  double mx = 0.5 * ((double)in->lo + in->hi);
  double mean = k * mx * w->mean;
  double var = k * (msq(in->lo, in->hi) * w->msq - mx * mx * w->mean * w->mean);
  double sd = sqrt(var > 0 ? var : 0) + 1e-3;
  float lo = (float)(mean - 2.5 * sd), hi = (float)(mean + 2.5 * sd);
  act_clip(act, &lo, &hi);
  return act_out(c, lo, hi);
}

/* Output size of a convolution or pool along one axis. */
static int conv_out(int in, int k, int stride, int dilation, int padding) {
  int eff = (k - 1) * dilation + 1;
  if (padding == TFW_PAD_SAME)
    return (in + stride - 1) / stride;
  return in >= eff ? (in - eff + stride) / stride : 0;
}

static void finish_io(Case *c) {
  tfw_inputs(c->m, c->nin, c->in_tensor);
  tfw_outputs(c->m, c->nout, c->out_tensor);
}

/* Float arithmetic that accumulates: a looser tolerance. */
static void tol_sum(Case *c) {
  c->atol = 1e-4;
  c->rtol = 1e-4;
}

/* The bounds of a fused activation on a tensor of quantization q, as
 * TFLite's CalculateActivationRange (float) and
 * CalculateActivationRangeQuantized compute them: the quantized bounds
 * are zero point + round(bound / scale) in float, clipped to the type's
 * range.  No activation: the whole range. */
static void act_bounds(int act, const Q *q, double *lo, double *hi) {
  double flo = act == TFW_ACT_RELU_N1_TO_1 ? -1 : 0;
  double fhi = act == TFW_ACT_RELU6 ? 6 : act == TFW_ACT_RELU_N1_TO_1 ? 1 : INFINITY;
  if (act == TFW_ACT_NONE)
    flo = -INFINITY;
  if (q->dtype == TFW_FLOAT32) {
    *lo = flo == -INFINITY ? -FLT_MAX : flo;
    *hi = fhi == INFINITY ? FLT_MAX : fhi;
    return;
  }
  int qmin, qmax;
  qrange_of(q->dtype, &qmin, &qmax);
  *lo = qmin;
  *hi = qmax;
  if (flo != -INFINITY) {
    double v = (double)q->zp + (double)(int32_t)roundf((float)flo / q->scale);
    *lo = v > qmin ? v : qmin;
  }
  if (fhi != INFINITY) {
    double v = (double)q->zp + (double)(int32_t)roundf((float)fhi / q->scale);
    *hi = v < qmax ? v : qmax;
  }
}

/* A rank-1 constant of one value v (a raw quantized value for quantized
 * types), with quantization q. */
static int const_value(Case *c, const char *name, const Q *q, double v) {
  int32_t one = 1;
  uint8_t bytes[4];
  switch (q->dtype) {
  case TFW_FLOAT32: {
    float f = (float)v;
    memcpy(bytes, &f, 4);
    break;
  }
  case TFW_INT16: {
    int16_t x = (int16_t)v;
    memcpy(bytes, &x, 2);
    break;
  }
  case TFW_INT8:
    bytes[0] = (uint8_t)(int8_t)v;
    break;
  default:
    bytes[0] = (uint8_t)v;
  }
  int t = tfw_const(c->m, name, q->dtype, 1, &one, bytes);
  if (q->dtype != TFW_FLOAT32)
    tfw_quant1(c->m, t, q->scale, q->zp);
  return t;
}

/* ----------------------------------------------------------- the ops */

static void gen_conv2d(Case *c, int variant) {
  Rng *r = c->r;
  int n = rchance(r, 0.2) ? 2 : 1;
  int h = rint_in(r, 1, 12), w = rint_in(r, 1, 12);
  int cin = rint_in(r, 1, 8), cout = rint_in(r, 1, 8);
  /* The int16_bias32 row also draws grouped convolutions (filter depth =
   * input depth / groups), which TFLite runs on its reference kernel
   * (double rounding) rather than its GEMM path (single). */
  int groups = variant == VAR_BIAS32 && rchance(r, 0.3) ? rint_in(r, 2, 3) : 1;
  cin = (cin + groups - 1) / groups * groups;
  cout = (cout + groups - 1) / groups * groups;
  int padding, kh, kw, sh, sw, dh, dw, oh, ow;
  do {
    padding = rchance(r, 0.5) ? TFW_PAD_SAME : TFW_PAD_VALID;
    kh = rint_in(r, 1, 4);
    kw = rint_in(r, 1, 4);
    sh = rint_in(r, 1, 3);
    sw = rint_in(r, 1, 3);
    dh = rchance(r, 0.2) ? 2 : 1;
    dw = rchance(r, 0.2) ? 2 : 1;
    oh = conv_out(h, kh, sh, dh, padding);
    ow = conv_out(w, kw, sw, dw, padding);
  } while (oh < 1 || ow < 1);
  int act = random_act(r);
  Q in = conv_in(c);
  int32_t din[4] = {n, h, w, cin}, dfil[4] = {cout, kh, kw, cin / groups};
  int32_t dout[4] = {n, oh, ow, cout};
  int ti = input_q(c, "input", 4, din, &in);
  float ws[64];
  WStat st;
  int tw;
  if (c->kind == K_HYB && rchance(r, 0.3)) { /* TFLite's per-tensor hybrid kernel */
    float s1;
    tw = weights_per_tensor(c, "filter", 4, dfil, &s1, &st);
  } else {
    tw = weights(c, "filter", 4, dfil, 0, ws, &st);
  }
  int k = kh * kw * (cin / groups);
  double sd = sqrt((double)k * msq(in.lo, in.hi) * st.msq);
  int tb = bias(c, "bias", cout, in.scale, ws, sd, c->kind != K_U8);
  Q out = sum_out(c, &in, &st, k, act);
  int to = output_q(c, "output", 4, dout, &out);
  int ins[3] = {ti, tw, tb};
  int op = tfw_op(c->m, TFW_OP_CONV_2D, 3, ins, 1, &to);
  tfw_conv2d_options(c->m, op, padding, sw, sh, act, dw, dh);
  tol_sum(c);
  if (c->kind == K_F32)
    c->mode = "litert"; /* see tests/ops/oracle_batch.mjs */
}

static void gen_depthwise(Case *c, int variant) {
  (void)variant;
  Rng *r = c->r;
  int n = rchance(r, 0.2) ? 2 : 1;
  int h = rint_in(r, 1, 12), w = rint_in(r, 1, 12);
  int cin = rint_in(r, 1, 8), mult = rchance(r, 0.3) ? rint_in(r, 2, 3) : 1;
  int cout = cin * mult;
  int padding, kh, kw, sh, sw, dh, dw, oh, ow;
  do {
    padding = rchance(r, 0.5) ? TFW_PAD_SAME : TFW_PAD_VALID;
    kh = rint_in(r, 1, 4);
    kw = rint_in(r, 1, 4);
    sh = rint_in(r, 1, 3);
    sw = rint_in(r, 1, 3);
    dh = rchance(r, 0.2) ? 2 : 1;
    dw = rchance(r, 0.2) ? 2 : 1;
    oh = conv_out(h, kh, sh, dh, padding);
    ow = conv_out(w, kw, sw, dw, padding);
  } while (oh < 1 || ow < 1);
  int act = random_act(r);
  Q in = conv_in(c);
  int32_t din[4] = {n, h, w, cin}, dfil[4] = {1, kh, kw, cout}, dout[4] = {n, oh, ow, cout};
  int ti = input_q(c, "input", 4, din, &in);
  float ws[64];
  WStat st;
  int tw = weights(c, "filter", 4, dfil, 3, ws, &st);
  int k = kh * kw;
  double sd = sqrt((double)k * msq(in.lo, in.hi) * st.msq);
  int tb = bias(c, "bias", cout, in.scale, ws, sd, c->kind != K_U8);
  Q out = sum_out(c, &in, &st, k, act);
  int to = output_q(c, "output", 4, dout, &out);
  int ins[3] = {ti, tw, tb};
  int op = tfw_op(c->m, TFW_OP_DEPTHWISE_CONV_2D, 3, ins, 1, &to);
  tfw_depthwise_options(c->m, op, padding, sw, sh, mult, act, dw, dh);
  tol_sum(c);
}

static void gen_transpose_conv(Case *c, int variant) {
  (void)variant;
  Rng *r = c->r;
  int n = rchance(r, 0.2) ? 2 : 1;
  int h = rint_in(r, 1, 8), w = rint_in(r, 1, 8);
  int cin = rint_in(r, 1, 8), cout = rint_in(r, 1, 8);
  int padding = rchance(r, 0.5) ? TFW_PAD_SAME : TFW_PAD_VALID;
  int kh = rint_in(r, 1, 4), kw = rint_in(r, 1, 4);
  int sh = rint_in(r, 1, 3), sw = rint_in(r, 1, 3);
  int oh = padding == TFW_PAD_SAME ? h * sh : (h - 1) * sh + kh;
  int ow = padding == TFW_PAD_SAME ? w * sw : (w - 1) * sw + kw;
  /* The fused activation (TransposeConvOptions field 3, TFLite 2.14's
   * schema) comes from a stream of its own, so that cases without one
   * are what they were before it was drawn. */
  Rng ar = {r->s ^ 0x7f4a7c159e3779b9ull};
  int act = random_act(&ar);
  Q in = conv_in(c);
  int32_t dshape = 4, shape[4] = {n, oh, ow, cout};
  int32_t din[4] = {n, h, w, cin}, dfil[4] = {cout, kh, kw, cin};
  int ts = const_i32(c, "output_shape", 1, &dshape, shape);
  float ws[64];
  WStat st;
  int tw = weights(c, "filter", 4, dfil, 0, ws, &st);
  int ti = input_q(c, "input", 4, din, &in);
  int k = cin * ((kh + sh - 1) / sh) * ((kw + sw - 1) / sw);
  double sd = sqrt((double)k * msq(in.lo, in.hi) * st.msq);
  int tb = rchance(r, 0.75) ? bias(c, "bias", cout, in.scale, ws, sd, c->kind != K_U8) : -1;
  Q out = sum_out(c, &in, &st, k, act);
  int ins[4] = {ts, tw, ti, tb};
  tol_sum(c);
  if (act == TFW_ACT_NONE || !c->oracle_form) {
    int to = output_q(c, "output", 4, shape, &out);
    int op = tfw_op(c->m, TFW_OP_TRANSPOSE_CONV, tb >= 0 ? 4 : 3, ins, 1, &to);
    tfw_transpose_conv_options(c->m, op, padding, sw, sh, act);
    c->needs_oracle_form = act != TFW_ACT_NONE;
    return;
  }
  /* The oracle's TFLite predates the field and ignores it.  TFLite's
   * kernels that have it clamp the outputs (requantized, zero point
   * added) to the activation's range, as every convolution does: the
   * oracle gets that clamp as MAXIMUM and MINIMUM with constants. */
  int tx = tensor_q(c, "conv", 4, shape, &out);
  int op = tfw_op(c->m, TFW_OP_TRANSPOSE_CONV, tb >= 0 ? 4 : 3, ins, 1, &tx);
  tfw_transpose_conv_options(c->m, op, padding, sw, sh, TFW_ACT_NONE);
  double lo, hi;
  act_bounds(act, &out, &lo, &hi);
  int tlo = const_value(c, "act_min", &out, lo);
  int ty = tensor_q(c, "relu", 4, shape, &out);
  int a[2] = {tx, tlo};
  tfw_op(c->m, TFW_OP_MAXIMUM, 2, a, 1, &ty);
  int to = output_q(c, "output", 4, shape, &out);
  int thi = const_value(c, "act_max", &out, hi);
  int b[2] = {ty, thi};
  tfw_op(c->m, TFW_OP_MINIMUM, 2, b, 1, &to);
}

static void gen_fully_connected(Case *c, int variant) {
  (void)variant;
  Rng *r = c->r;
  int k = rint_in(r, 1, 64), o = rint_in(r, 1, 16);
  int32_t din[4];
  int nd;
  int keep = 0;
  if (rchance(r, 0.7)) {
    nd = 2;
    din[0] = rint_in(r, 1, 3);
    din[1] = k;
  } else {
    nd = 3;
    din[0] = rint_in(r, 1, 2);
    din[1] = rint_in(r, 1, 3);
    din[2] = k;
    keep = rchance(r, 0.5);
  }
  int act = random_act(r);
  Q in = conv_in(c);
  int ti = input_q(c, "input", nd, din, &in);
  int32_t dw[2] = {o, k};
  float ws[64];
  WStat st;
  float s1;
  int tw;
  int per_channel = ((c->kind == K_I8 || c->kind == K_I16) && rchance(r, 0.5)) ||
                    (c->kind == K_HYB && rchance(r, 0.35)) || c->w4;
  if (per_channel) {
    tw = weights(c, "weights", 2, dw, 0, ws, &st);
  } else {
    tw = weights_per_tensor(c, "weights", 2, dw, &s1, &st);
    for (int i = 0; i < o; i++)
      ws[i] = s1;
  }
  double sd = sqrt((double)k * msq(in.lo, in.hi) * st.msq);
  int tb = rchance(r, 0.8) ? bias(c, "bias", o, in.scale, ws, sd, per_channel) : -1;
  Q out = sum_out(c, &in, &st, k, act);
  int32_t dout[4];
  int ndo;
  if (keep) {
    ndo = nd;
    for (int i = 0; i < nd - 1; i++)
      dout[i] = din[i];
    dout[nd - 1] = o;
  } else {
    ndo = 2;
    dout[0] = (int32_t)(count_of(nd, din) / k);
    dout[1] = o;
  }
  int to = output_q(c, "output", ndo, dout, &out);
  int ins[3] = {ti, tw, tb};
  int op = tfw_op(c->m, TFW_OP_FULLY_CONNECTED, 3, ins, 1, &to);
  /* Hybrid: per-channel weights go with asymmetric input quantization
   * (tinyaot refuses them with symmetric); the oracle's TFLite predates
   * per-channel hybrid FULLY_CONNECTED (it takes their scale as 0), so
   * LiteRT runs those cases. */
  int asym = c->kind == K_HYB && (per_channel || rchance(r, 0.5));
  tfw_fully_connected_options_asym(c->m, op, act, keep, asym);
  tol_sum(c);
  if (c->kind == K_HYB && per_channel)
    c->mode = "litert";
}

static void gen_pool(Case *c, int is_max) {
  Rng *r = c->r;
  int n = rchance(r, 0.2) ? 2 : 1;
  int h = rint_in(r, 1, 12), w = rint_in(r, 1, 12), ch = rint_in(r, 1, 8);
  int padding, fh, fw, sh, sw, oh, ow;
  do {
    padding = rchance(r, 0.5) ? TFW_PAD_SAME : TFW_PAD_VALID;
    fh = rint_in(r, 1, 4);
    fw = rint_in(r, 1, 4);
    sh = rint_in(r, 1, 3);
    sw = rint_in(r, 1, 3);
    oh = conv_out(h, fh, sh, 1, padding);
    ow = conv_out(w, fw, sw, 1, padding);
  } while (oh < 1 || ow < 1);
  int act = random_act(r);
  Q in = act_in(c);
  int32_t din[4] = {n, h, w, ch}, dout[4] = {n, oh, ow, ch};
  int ti = input_q(c, "input", 4, din, &in);
  int to = output_q(c, "output", 4, dout, &in);
  /* is_max 2: L2_POOL_2D (gen_ops_data.c) */
  int code = is_max == 2 ? TFW_OP_L2_POOL_2D : is_max ? TFW_OP_MAX_POOL_2D : TFW_OP_AVERAGE_POOL_2D;
  int op = tfw_op(c->m, code, 1, &ti, 1, &to);
  tfw_pool2d_options(c->m, op, padding, sw, sh, fw, fh, act);
  if (is_max != 1)
    tol_sum(c);
}

static void gen_avg_pool(Case *c, int variant) {
  (void)variant;
  gen_pool(c, 0);
}

static void gen_max_pool(Case *c, int variant) {
  (void)variant;
  gen_pool(c, 1);
}

/* A random shape of rank 1..maxrank with up to maxdim per dimension. */
static int random_shape(Rng *r, int minrank, int maxrank, int maxdim, int32_t *d) {
  int nd = rint_in(r, minrank, maxrank);
  for (int i = 0; i < nd; i++)
    d[i] = rint_in(r, 1, maxdim);
  return nd;
}

/* Two shapes that broadcast together; returns the output rank. */
static int broadcast_shapes(Rng *r, int32_t *a, int *na, int32_t *b, int *nb, int32_t *o) {
  int nd = random_shape(r, 1, 4, 6, o);
  *na = nd;
  memcpy(a, o, sizeof(int32_t) * (size_t)nd);
  if (rchance(r, 0.5)) {
    *nb = nd;
    memcpy(b, o, sizeof(int32_t) * (size_t)nd);
    return nd;
  }
  /* b: a suffix of the output shape, some dimensions 1; sometimes a
   * gets ones where b has the full size. */
  *nb = rint_in(r, 1, nd);
  int off = nd - *nb;
  for (int i = 0; i < *nb; i++)
    b[i] = rchance(r, 0.4) ? 1 : o[off + i];
  for (int i = 0; i < nd; i++)
    if (i >= off && b[i - off] != 1 && rchance(r, 0.3))
      a[i] = 1;
  for (int i = 0; i < nd; i++) {
    int32_t da = a[i], db = i >= off ? b[i - off] : 1;
    o[i] = da > db ? da : db;
  }
  return nd;
}

/* ADD, SUB, MUL, MAXIMUM, MINIMUM. */
static void gen_binary(Case *c, int code) {
  Rng *r = c->r;
  int dt = kind_dtype(c->kind);
  Q qa = act_in(c), qb = act_in(c);
  int pot = -1, pot_exp = 0;
  if (c->kind == K_I16 && (code == TFW_OP_ADD || code == TFW_OP_SUB)) {
    /* 16x8 ADD/SUB: either power-of-two scales (pot_scale_int16 true,
     * TFLite's default) or general scales (false). */
    pot = rchance(r, 0.5);
    if (pot) {
      /* TFLite shifts at most one input: the other has the output's
       * scale, and neither scale is larger than the output's. */
      pot_exp = rint_in(r, 9, 14);
      qa = q_fixed(dt, ldexpf(1.0f, -pot_exp), 0);
      qb = q_fixed(dt, ldexpf(1.0f, -pot_exp - rint_in(r, 0, 3)), 0);
      if (rchance(r, 0.5)) {
        Q t = qa;
        qa = qb;
        qb = t;
      }
    }
  }
  int32_t a[4], b[4], o[4];
  int na, nb, no;
  if (pot == 1) {
    /* TFLite's power-of-two int16 path does not broadcast (it aborts). */
    no = na = nb = random_shape(r, 1, 4, 6, o);
    memcpy(a, o, sizeof a);
    memcpy(b, o, sizeof b);
  } else {
    no = broadcast_shapes(r, a, &na, b, &nb, o);
  }
  if (rchance(r, 0.3)) { /* swap: the broadcast operand first */
    int32_t t[4];
    memcpy(t, a, sizeof t);
    memcpy(a, b, sizeof t);
    memcpy(b, t, sizeof t);
    int tn = na;
    na = nb;
    nb = tn;
  }
  int minmax = code == TFW_OP_MAXIMUM || code == TFW_OP_MINIMUM;
  if (minmax)
    qb = qa; /* these ops compare raw values: one quantization */
  int ta = input_q(c, "input1", na, a, &qa);
  int tb = rchance(r, 0.25) ? const_q(c, "input2", nb, b, &qb) : input_q(c, "input2", nb, b, &qb);
  int act = minmax ? TFW_ACT_NONE : random_act(r);
  Q qo;
  if (minmax) {
    qo = qa;
  } else if (pot == 1) {
    qo = q_fixed(dt, ldexpf(1.0f, -pot_exp), 0);
  } else {
    /* Mean and spread of the result for uniform operands. */
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
    qo = act_out(c, lo, hi);
  }
  int to = output_q(c, "output", no, o, &qo);
  int ins[2] = {ta, tb};
  int op = tfw_op(c->m, code, 2, ins, 1, &to);
  if (code == TFW_OP_ADD)
    tfw_add_options(c->m, op, act, pot);
  else if (code == TFW_OP_SUB)
    tfw_sub_options(c->m, op, act, pot);
  else if (code == TFW_OP_MUL)
    tfw_mul_options(c->m, op, act);
  else
    tfw_empty_options(c->m, op);
  if (!minmax) {
    c->atol = 1e-5;
    c->rtol = 1e-5;
  }
}

static void gen_add(Case *c, int v) { (void)v; gen_binary(c, TFW_OP_ADD); }
static void gen_sub(Case *c, int v) { (void)v; gen_binary(c, TFW_OP_SUB); }
static void gen_mul(Case *c, int v) { (void)v; gen_binary(c, TFW_OP_MUL); }
static void gen_maximum(Case *c, int v) { (void)v; gen_binary(c, TFW_OP_MAXIMUM); }
static void gen_minimum(Case *c, int v) { (void)v; gen_binary(c, TFW_OP_MINIMUM); }

/* MEAN, SUM, REDUCE_MAX, REDUCE_MIN (code): random axes, keep_dims. */
static void gen_reducer(Case *c, int code) {
  Rng *r = c->r;
  int32_t d[4];
  int nd = random_shape(r, 2, 4, 7, d);
  int32_t axes[4];
  int na = 0;
  for (int i = 0; i < nd; i++)
    if (rchance(r, 0.5))
      axes[na++] = i;
  if (na == 0)
    axes[na++] = rint_in(r, 0, nd - 1);
  for (int i = 0; i < na; i++)
    if (rchance(r, 0.2))
      axes[i] -= nd;
  int keep = rchance(r, 0.5);
  /* TFLite's quantized kernels have a path of their own for a 4-D input,
   * axes {1, 2} and keep_dims: give it a third of the quantized cases. */
  if (c->kind != K_F32 && rchance(r, 0.35)) {
    nd = random_shape(r, 4, 4, 7, d);
    na = 2;
    int swap = rchance(r, 0.5);
    axes[0] = swap ? 2 : 1;
    axes[1] = swap ? 1 : 2;
    keep = 1;
  }
  int32_t dout[4];
  int ndo = 0;
  for (int i = 0; i < nd; i++) {
    int reduced = 0;
    for (int j = 0; j < na; j++)
      if (axes[j] == i || axes[j] == i - nd)
        reduced = 1;
    if (!reduced)
      dout[ndo++] = d[i];
    else if (keep)
      dout[ndo++] = 1;
  }
  Q in = act_in(c);
  int ti = input_q(c, "input", nd, d, &in);
  int tax = const_vec(c, "axis", na, axes);
  /* The same quantization as the input, or a narrower range around the
   * mean (the mean of many values spreads less). */
  float mid = 0.5f * (in.lo + in.hi), half = 0.5f * (in.hi - in.lo) * runif(r, 0.3, 1.0);
  Q out = in;
  if (code == TFW_OP_MEAN) {
    if (!rchance(r, 0.5))
      out = act_out(c, mid - half, mid + half);
  } else if (code == TFW_OP_SUM && c->kind != K_I16 && !(c->kind == K_I8 && rchance(r, 0.3))) {
    /* The sum of n values: n times the mean, spread by about sqrt(n).
     * TFLite's int16 SUM (and a share of the int8 cases) keeps the
     * input's quantization: TFLite then adds the raw values. */
    double n = (double)count_of(nd, d) / (double)count_of(ndo, dout);
    float spread = (float)(2.0 * sqrt(n)) * half;
    out = act_out(c, (float)n * mid - spread, (float)n * mid + spread);
  }
  int to = output_q(c, "output", ndo, dout, &out);
  int ins[2] = {ti, tax};
  int op = tfw_op(c->m, code, 2, ins, 1, &to);
  tfw_reducer_options(c->m, op, keep);
  if (code == TFW_OP_MEAN || code == TFW_OP_SUM)
    tol_sum(c);
}

static void gen_mean(Case *c, int v) { (void)v; gen_reducer(c, TFW_OP_MEAN); }

static void gen_pad(Case *c, int variant) {
  (void)variant;
  Rng *r = c->r;
  int32_t d[4], dout[4], pads[8];
  int nd = random_shape(r, 1, 4, 6, d);
  for (int i = 0; i < nd; i++) {
    pads[2 * i] = rchance(r, 0.6) ? rint_in(r, 0, 3) : 0;
    pads[2 * i + 1] = rchance(r, 0.6) ? rint_in(r, 0, 3) : 0;
    dout[i] = d[i] + pads[2 * i] + pads[2 * i + 1];
  }
  Q in = act_in(c);
  int ti = input_q(c, "input", nd, d, &in);
  int32_t dp[2] = {nd, 2};
  int tp = const_i32(c, "paddings", 2, dp, pads);
  int to = output_q(c, "output", nd, dout, &in);
  int ins[2] = {ti, tp};
  int op = tfw_op(c->m, TFW_OP_PAD, 2, ins, 1, &to);
  tfw_empty_options(c->m, op);
}

static void gen_concatenation(Case *c, int variant) {
  (void)variant;
  Rng *r = c->r;
  int32_t d[4];
  int nd = random_shape(r, 1, 4, 5, d);
  int axis = rint_in(r, 0, nd - 1);
  int n = rint_in(r, 2, 4);
  Q q = act_in(c);
  /* uint8 inputs with their own scales are requantized; TFLite requires
   * int8 and int16 inputs to share the output's quantization. */
  int mixed = c->kind == K_U8 && rchance(r, 0.5);
  int ins[4];
  int total = 0;
  for (int i = 0; i < n; i++) {
    int32_t di[4];
    memcpy(di, d, sizeof di);
    di[axis] = rint_in(r, 1, 4);
    total += di[axis];
    Q qi = mixed ? act_in(c) : q;
    char name[24];
    snprintf(name, sizeof name, "input%d", i + 1);
    ins[i] = input_q(c, name, nd, di, &qi);
  }
  d[axis] = total;
  int to = output_q(c, "output", nd, d, &q);
  int op = tfw_op(c->m, TFW_OP_CONCATENATION, n, ins, 1, &to);
  tfw_concatenation_options(c->m, op, rchance(r, 0.2) ? axis - nd : axis, TFW_ACT_NONE);
}

static void gen_split(Case *c, int variant) {
  (void)variant;
  Rng *r = c->r;
  int32_t d[4];
  int nd = random_shape(r, 1, 4, 4, d);
  int axis = rint_in(r, 0, nd - 1);
  int num = rint_in(r, 1, 4);
  d[axis] *= num;
  Q q = act_in(c);
  int tax = const_scalar(c, "axis", rchance(r, 0.2) ? axis - nd : axis);
  int ti = input_q(c, "input", nd, d, &q);
  int outs[4];
  int32_t dout[4];
  memcpy(dout, d, sizeof dout);
  dout[axis] = d[axis] / num;
  for (int i = 0; i < num; i++) {
    char name[24];
    snprintf(name, sizeof name, "output%d", i + 1);
    outs[i] = output_q(c, name, nd, dout, &q);
  }
  int ins[2] = {tax, ti};
  int op = tfw_op(c->m, TFW_OP_SPLIT, 2, ins, num, outs);
  tfw_split_options(c->m, op, num);
}

static void gen_split_v(Case *c, int variant) {
  (void)variant;
  Rng *r = c->r;
  int32_t d[4];
  int nd = random_shape(r, 1, 4, 4, d);
  int axis = rint_in(r, 0, nd - 1);
  int num = rint_in(r, 1, 4);
  int32_t sizes[4], written[4];
  int total = 0;
  for (int i = 0; i < num; i++) {
    sizes[i] = rint_in(r, 1, 4);
    written[i] = sizes[i];
    total += sizes[i];
  }
  if (rchance(r, 0.3))
    written[rint_in(r, 0, num - 1)] = -1;
  d[axis] = total;
  Q q = act_in(c);
  int ti = input_q(c, "input", nd, d, &q);
  int ts = const_vec(c, "size_splits", num, written);
  int tax = const_scalar(c, "axis", rchance(r, 0.2) ? axis - nd : axis);
  int outs[4];
  for (int i = 0; i < num; i++) {
    int32_t dout[4];
    memcpy(dout, d, sizeof dout);
    dout[axis] = sizes[i];
    char name[24];
    snprintf(name, sizeof name, "output%d", i + 1);
    outs[i] = output_q(c, name, nd, dout, &q);
  }
  int ins[3] = {ti, ts, tax};
  int op = tfw_op(c->m, TFW_OP_SPLIT_V, 3, ins, num, outs);
  tfw_split_v_options(c->m, op, num);
}

static void gen_pack(Case *c, int variant) {
  (void)variant;
  Rng *r = c->r;
  int32_t d[4];
  int nd = random_shape(r, 1, 3, 5, d);
  int n = rint_in(r, 1, 4);
  int axis = rint_in(r, 0, nd);
  Q q = act_in(c);
  int ins[4];
  for (int i = 0; i < n; i++) {
    char name[24];
    snprintf(name, sizeof name, "input%d", i + 1);
    ins[i] = input_q(c, name, nd, d, &q);
  }
  int32_t dout[5];
  for (int i = 0, j = 0; i <= nd; i++)
    dout[i] = i == axis ? n : d[j++];
  int to = output_q(c, "output", nd + 1, dout, &q);
  int op = tfw_op(c->m, TFW_OP_PACK, n, ins, 1, &to);
  tfw_pack_options(c->m, op, n, rchance(r, 0.2) ? axis - nd - 1 : axis);
}

static void gen_unpack(Case *c, int variant) {
  (void)variant;
  Rng *r = c->r;
  int32_t d[4];
  int nd = random_shape(r, 1, 4, 5, d);
  int axis = rint_in(r, 0, nd - 1);
  Q q = act_in(c);
  int ti = input_q(c, "input", nd, d, &q);
  int32_t dout[4];
  for (int i = 0, j = 0; i < nd; i++)
    if (i != axis)
      dout[j++] = d[i];
  int outs[MAXT];
  int num = d[axis];
  for (int i = 0; i < num; i++) {
    char name[24];
    snprintf(name, sizeof name, "output%d", i + 1);
    outs[i] = output_q(c, name, nd - 1, dout, &q);
  }
  int op = tfw_op(c->m, TFW_OP_UNPACK, 1, &ti, num, outs);
  tfw_unpack_options(c->m, op, num, rchance(r, 0.2) ? axis - nd : axis);
}

/* One slice spec over a dimension of size dim: begin, end, stride and
 * its begin/end/shrink mask bits (bit `bit`); returns the output size
 * along it, or -1 when the axis is shrunk away. */
static int slice_dim(Rng *r, int dim, int bit, int32_t *begin, int32_t *end, int32_t *stride,
                     int *bmask, int *emask, int *smask) {
  if (rchance(r, 0.15)) { /* shrink this axis to one index */
    int b = rint_in(r, 0, dim - 1);
    *begin = rchance(r, 0.3) ? b - dim : b;
    *end = *begin + 1;
    if (*end == 0)
      *end = dim; /* end = begin + 1 would wrap to 0 */
    *stride = 1;
    *smask |= 1 << bit;
    return -1;
  }
  int s = rchance(r, 0.25) ? -rint_in(r, 1, 2) : rchance(r, 0.5) ? 1 : rint_in(r, 2, 3);
  int b, e; /* in-range start and exclusive stop */
  int x = rint_in(r, 0, dim - 1), y = rint_in(r, 0, dim - 1);
  int first = x < y ? x : y, last = x < y ? y : x;
  if (s > 0) {
    b = first;
    e = last + 1;
  } else {
    b = last;
    e = first - 1;
  }
  if (rchance(r, 0.2)) {
    *bmask |= 1 << bit;
    b = s > 0 ? 0 : dim - 1;
    *begin = rint_in(r, -dim, dim - 1); /* ignored */
  } else {
    *begin = rchance(r, 0.3) ? b - dim : b;
  }
  if (rchance(r, 0.2)) {
    *emask |= 1 << bit;
    e = s > 0 ? dim : -1;
    *end = rint_in(r, -dim, dim); /* ignored */
  } else if (e == -1) {
    *end = -dim - 1; /* before the first element, counting from the end */
  } else {
    *end = (rchance(r, 0.3) && e < dim) ? e - dim : e;
  }
  *stride = s;
  return s > 0 ? (e - b + s - 1) / s : (b - e + (-s) - 1) / (-s);
}

/* The STRIDED_SLICE model: input d (rank nd), k begin/end/stride specs,
 * output dout (rank ndo); masks: begin, end, ellipsis, new axis, shrink. */
static void slice_model(Case *c, int nd, int32_t *d, int k, int32_t *begin, int32_t *end,
                        int32_t *strides, int ndo, int32_t *dout, const int masks[5]) {
  Q q = act_in(c);
  int ti = input_q(c, "input", nd, d, &q);
  int tb = const_vec(c, "begin", k, begin);
  int te = const_vec(c, "end", k, end);
  int ts = const_vec(c, "strides", k, strides);
  int to = output_q(c, "output", ndo, dout, &q);
  int ins[4] = {ti, tb, te, ts};
  int op = tfw_op(c->m, TFW_OP_STRIDED_SLICE, 4, ins, 1, &to);
  tfw_strided_slice_options(c->m, op, masks[0], masks[1], masks[2], masks[3], masks[4], 0);
}

/*
 * A STRIDED_SLICE written the numpy way, x[a:b, np.newaxis, ..., c]:
 * specs for some input dimensions, new axes (new_axis_mask) among them,
 * maybe one ellipsis (ellipsis_mask) standing for at least one whole
 * dimension; without an ellipsis the dimensions after the last spec are
 * taken whole.  At most 5 dimensions with the new axes (TFLite's limit).
 * The bits and values TFLite ignores (begin/end mask bits and indices of
 * a new axis or of the ellipsis, a new-axis bit on the ellipsis) are
 * sometimes set, to check that they are ignored.
 */
static void gen_strided_slice_masks(Case *c) {
  Rng *r = c->r;
  int32_t d[4], begin[8], end[8], strides[8], dout[8];
  int nd = random_shape(r, 1, 4, 6, d);
  int ellipsis = rchance(r, 0.6);
  int nnew = rint_in(r, 0, 5 - nd < 2 ? 5 - nd : 2);
  if (!ellipsis && nnew == 0)
    nnew = 1;
  /* m input dimensions get a spec; an ellipsis takes at least one. */
  int m = ellipsis ? rint_in(r, 0, nd - 1) : rint_in(r, 0, nd);
  /* The spec kinds in order: 'd' dimension, 'n' new axis, 'e' ellipsis. */
  char kinds[8];
  int k = 0, left_d = m, left_n = nnew;
  while (left_d + left_n > 0) {
    if (left_n == 0 || (left_d > 0 && rint_in(r, 1, left_d + left_n) <= left_d)) {
      kinds[k++] = 'd';
      left_d--;
    } else {
      kinds[k++] = 'n';
      left_n--;
    }
  }
  if (ellipsis) {
    int at = rint_in(r, 0, k);
    memmove(kinds + at + 1, kinds + at, (size_t)(k - at));
    kinds[at] = 'e';
    k++;
  }
  int bmask = 0, emask = 0, smask = 0, elmask = 0, nmask = 0, ndo = 0, dim = 0;
  for (int i = 0; i < k; i++) {
    if (kinds[i] == 'd') {
      int size = slice_dim(r, d[dim], i, &begin[i], &end[i], &strides[i], &bmask, &emask,
                           &smask);
      if (size >= 0)
        dout[ndo++] = size;
      dim++;
      continue;
    }
    begin[i] = rint_in(r, -3, 3); /* ignored */
    end[i] = rint_in(r, -3, 3);
    strides[i] = rchance(r, 0.5) ? 1 : -1;
    if (rchance(r, 0.2))
      bmask |= 1 << i;
    if (rchance(r, 0.2))
      emask |= 1 << i;
    if (kinds[i] == 'n') {
      nmask |= 1 << i;
      dout[ndo++] = 1;
    } else {
      elmask |= 1 << i;
      if (rchance(r, 0.2))
        nmask |= 1 << i; /* ignored: the ellipsis wins */
      for (int j = 0; j < nd - m; j++)
        dout[ndo++] = d[dim++];
    }
  }
  while (dim < nd)
    dout[ndo++] = d[dim++];
  slice_model(c, nd, d, k, begin, end, strides, ndo, dout,
              (int[5]){bmask, emask, elmask, nmask, smask});
}

/* Four cases in ten use ellipsis and new axes (decided without drawing
 * from the case's stream, so that the others stay what they were). */
static void gen_strided_slice(Case *c, int variant) {
  (void)variant;
  Rng *r = c->r, peek = *c->r;
  if (runit(&peek) < 0.4) {
    gen_strided_slice_masks(c);
    return;
  }
  int32_t d[4], begin[4], end[4], strides[4], dout[4];
  int nd = random_shape(r, 1, 4, 8, d);
  int bmask = 0, emask = 0, smask = 0, ndo = 0;
  for (int i = 0; i < nd; i++) {
    int size = slice_dim(r, d[i], i, &begin[i], &end[i], &strides[i], &bmask, &emask, &smask);
    if (size >= 0)
      dout[ndo++] = size;
  }
  slice_model(c, nd, d, nd, begin, end, strides, ndo, dout,
              (int[5]){bmask, emask, 0, 0, smask});
}

static void gen_transpose(Case *c, int variant) {
  (void)variant;
  Rng *r = c->r;
  int32_t d[5], perm[5], dout[5];
  int nd = random_shape(r, 1, 5, 5, d);
  for (int i = 0; i < nd; i++)
    perm[i] = i;
  for (int i = nd - 1; i > 0; i--) {
    int j = rint_in(r, 0, i);
    int32_t t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
  for (int i = 0; i < nd; i++)
    dout[i] = d[perm[i]];
  Q q = act_in(c);
  int ti = input_q(c, "input", nd, d, &q);
  int tp = const_vec(c, "perm", nd, perm);
  int to = output_q(c, "output", nd, dout, &q);
  int ins[2] = {ti, tp};
  int op = tfw_op(c->m, TFW_OP_TRANSPOSE, 2, ins, 1, &to);
  tfw_empty_options(c->m, op);
}

static void gen_reshape(Case *c, int variant) {
  (void)variant;
  Rng *r = c->r;
  int32_t d[4], dout[4], written[4];
  int nd = random_shape(r, 1, 4, 6, d);
  int64_t total = count_of(nd, d);
  /* Split the total into 1..4 factors. */
  int ndo = rint_in(r, 1, 4);
  int64_t left = total;
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
  memcpy(written, dout, sizeof written);
  if (rchance(r, 0.3))
    written[rint_in(r, 0, ndo - 1)] = -1;
  Q q = act_in(c);
  int ti = input_q(c, "input", nd, d, &q);
  int ts = const_vec(c, "shape", ndo, written);
  int to = output_q(c, "output", ndo, dout, &q);
  int ins[2] = {ti, ts};
  int op = tfw_op(c->m, TFW_OP_RESHAPE, 2, ins, 1, &to);
  if (rchance(r, 0.5))
    tfw_reshape_options(c->m, op, ndo, dout);
}

static void gen_squeeze(Case *c, int variant) {
  (void)variant;
  Rng *r = c->r;
  int32_t d[5], dout[5], sq[5];
  int nd = random_shape(r, 1, 5, 5, d);
  int ones = 0;
  for (int i = 0; i < nd; i++)
    if (rchance(r, 0.4)) {
      d[i] = 1;
      ones++;
    }
  if (!ones) {
    d[rint_in(r, 0, nd - 1)] = 1;
  }
  int all = rchance(r, 0.3);
  int nsq = 0, ndo = 0;
  for (int i = 0; i < nd; i++) {
    int squeeze = d[i] == 1 && (all || rchance(r, 0.6));
    if (squeeze && !all)
      sq[nsq++] = rchance(r, 0.2) ? i - nd : i;
    if (!squeeze)
      dout[ndo++] = d[i];
  }
  if (!all && nsq == 0) { /* squeeze at least one */
    ndo = 0;
    for (int i = 0; i < nd; i++) {
      if (d[i] == 1 && nsq == 0)
        sq[nsq++] = i;
      else
        dout[ndo++] = d[i];
    }
  }
  Q q = act_in(c);
  int ti = input_q(c, "input", nd, d, &q);
  int to = output_q(c, "output", ndo, dout, &q);
  int op = tfw_op(c->m, TFW_OP_SQUEEZE, 1, &ti, 1, &to);
  tfw_squeeze_options(c->m, op, all ? 0 : nsq, sq);
}

static void gen_expand_dims(Case *c, int variant) {
  (void)variant;
  Rng *r = c->r;
  int32_t d[4], dout[5];
  int nd = random_shape(r, 1, 4, 5, d);
  int axis = rint_in(r, 0, nd);
  for (int i = 0, j = 0; i <= nd; i++)
    dout[i] = i == axis ? 1 : d[j++];
  Q q = act_in(c);
  int ti = input_q(c, "input", nd, d, &q);
  int32_t a = rchance(r, 0.3) ? axis - nd - 1 : axis;
  int ta = const_vec(c, "axis", 1, &a);
  int to = output_q(c, "output", nd + 1, dout, &q);
  int ins[2] = {ti, ta};
  int op = tfw_op(c->m, TFW_OP_EXPAND_DIMS, 2, ins, 1, &to);
  tfw_empty_options(c->m, op);
}

static void gen_resize(Case *c, int bilinear) {
  Rng *r = c->r;
  int n = rchance(r, 0.2) ? 2 : 1;
  int h = rint_in(r, 1, 8), w = rint_in(r, 1, 8), ch = rint_in(r, 1, 4);
  int32_t size[2] = {rint_in(r, 1, 16), rint_in(r, 1, 16)};
  int align = 0, half = 0;
  int mode = rint_in(r, 0, 2);
  if (mode == 1)
    align = 1;
  else if (mode == 2)
    half = 1;
  Q q = act_in(c);
  int32_t din[4] = {n, h, w, ch}, dout[4] = {n, size[0], size[1], ch};
  int ti = input_q(c, "input", 4, din, &q);
  int ts = const_vec(c, "size", 2, size);
  int to = output_q(c, "output", 4, dout, &q);
  int ins[2] = {ti, ts};
  int op = tfw_op(c->m, bilinear ? TFW_OP_RESIZE_BILINEAR : TFW_OP_RESIZE_NEAREST_NEIGHBOR, 2, ins, 1, &to);
  if (bilinear) {
    tfw_resize_bilinear_options(c->m, op, align, half);
    c->atol = 1e-5;
    c->rtol = 1e-5;
  } else {
    tfw_resize_nearest_options(c->m, op, align, half);
  }
}

static void gen_resize_nearest(Case *c, int v) { (void)v; gen_resize(c, 0); }
static void gen_resize_bilinear(Case *c, int v) { (void)v; gen_resize(c, 1); }

static void gen_arg_max(Case *c, int variant) {
  (void)variant;
  Rng *r = c->r;
  int32_t d[4], dout[4];
  int nd = random_shape(r, 1, 4, 7, d);
  int axis = rint_in(r, 0, nd - 1);
  int ndo = 0;
  for (int i = 0; i < nd; i++)
    if (i != axis)
      dout[ndo++] = d[i];
  Q q = act_in(c);
  int ti = input_q(c, "input", nd, d, &q);
  int32_t a = rchance(r, 0.2) ? axis - nd : axis;
  int ta = const_vec(c, "axis", 1, &a);
  Q qo = {TFW_INT32, 0, 0, 0, 0};
  int to = output_q(c, "output", ndo, dout, &qo);
  int ins[2] = {ti, ta};
  int op = tfw_op(c->m, TFW_OP_ARG_MAX, 2, ins, 1, &to);
  tfw_arg_max_options(c->m, op, TFW_INT32);
}

/* The fixed output quantization TFLite requires for SOFTMAX, LOGISTIC
 * (probabilities) and TANH. */
static Q prob_out(int kind, int tanh) {
  int dt = kind_dtype(kind);
  if (kind == K_I16)
    return q_fixed(dt, 1.0f / 32768, 0);
  if (tanh)
    return q_fixed(dt, 1.0f / 128, kind == K_U8 ? 128 : 0);
  return q_fixed(dt, 1.0f / 256, kind == K_U8 ? 0 : -128);
}

static void gen_softmax(Case *c, int variant) {
  Rng *r = c->r;
  int32_t d[4];
  int nd = random_shape(r, 1, 4, 8, d);
  Q in = act_in(c);
  int ti = input_q(c, "input", nd, d, &in);
  Q out = c->kind == K_F32 ? in : prob_out(c->kind, 0);
  if (variant == VAR_OUT16) /* the quantization TFLite and TFLM require */
    out = q_fixed(TFW_INT16, 1.0f / 65536, -32768);
  int to = output_q(c, "output", nd, d, &out);
  int op = tfw_op(c->m, TFW_OP_SOFTMAX, 1, &ti, 1, &to);
  tfw_softmax_options(c->m, op, rchance(r, 0.6) ? 1.0f : runif(r, 0.1, 2.0));
  c->atol = 1e-5;
  c->rtol = 1e-5;
}

/* LOGISTIC, TANH, HARD_SWISH, RELU, RELU6, LEAKY_RELU. */
static void gen_unary(Case *c, int code) {
  Rng *r = c->r;
  int32_t d[4];
  int nd = random_shape(r, 1, 4, 8, d);
  Q in = act_in(c);
  if ((code == TFW_OP_LOGISTIC || code == TFW_OP_TANH) && c->kind == K_I16 &&
      rchance(r, 0.3)) /* the power-of-two scales TFLite computes otherwise */
    in = q_fixed(in.dtype, code == TFW_OP_TANH && rchance(r, 0.5) ? 1.0f / 2048 : 1.0f / 4096,
                 0);
  else if (code == TFW_OP_LOGISTIC || code == TFW_OP_TANH) /* wider inputs */
    in = c->kind == K_I16 ? q_cover(in.dtype, -rlog(r, 1, 8), rlog(r, 1, 8))
                          : q_cover(in.dtype, -rlog(r, 0.5, 8), rlog(r, 0.5, 8));
  int ti = input_q(c, "input", nd, d, &in);
  Q out = in;
  float alpha = runif(r, 0.01, 0.9);
  if (c->kind != K_F32) {
    switch (code) {
    case TFW_OP_LOGISTIC: out = prob_out(c->kind, 0); break;
    case TFW_OP_TANH: out = prob_out(c->kind, 1); break;
    case TFW_OP_HARD_SWISH: out = act_out(c, -0.375f, in.hi > 0.5f ? in.hi : 0.5f); break;
    case TFW_OP_RELU: out = act_out(c, 0, in.hi > 0.1f ? in.hi : 0.1f); break;
    case TFW_OP_RELU6: out = act_out(c, 0, in.hi < 6 ? (in.hi > 0.1f ? in.hi : 0.1f) : 6); break;
    case TFW_OP_LEAKY_RELU: out = act_out(c, in.lo * alpha, in.hi); break;
    }
  }
  int to = output_q(c, "output", nd, d, &out);
  int op = tfw_op(c->m, code, 1, &ti, 1, &to);
  if (code == TFW_OP_HARD_SWISH)
    tfw_empty_options(c->m, op);
  if (code == TFW_OP_LEAKY_RELU)
    tfw_leaky_relu_options(c->m, op, alpha);
  c->atol = 1e-5;
  c->rtol = 1e-5;
}

/* int8 LOGISTIC and TANH with an input scale 2^-e / n (e 7..10, TANH
 * 8..10; n 1, 3, 5 or 7) and the 256 int8 values as input (shape
 * [1, 256]), the zero point within 60 of 0: the inputs 2^-7 (TANH 2^-8)
 * away from it exist.  There the function lies 2.5e-6 output steps inside
 * a rounding tie; TFLite's float table rounds to the zero point's side,
 * TFLM's fixed point to the other (doc/operators.md). */
static void gen_sigmoid_ties(Case *c, int code) {
  Rng *r = c->r;
  int32_t d[2] = {1, 256};
  static const int ns[4] = {1, 3, 5, 7};
  int e = rint_in(r, code == TFW_OP_TANH ? 8 : 7, 10);
  int n = ns[rint_in(r, 0, 3)];
  Q in = q_fixed(TFW_INT8, ldexpf(1.0f, -e) / (float)n,
                 rchance(r, 0.5) ? 0 : rint_in(r, -60, 60));
  int ti = input_q(c, "input", 2, d, &in);
  for (int i = 0; i < 256; i++)
    c->in_data[c->nin - 1][i] = (uint8_t)i;
  Q out = prob_out(c->kind, code == TFW_OP_TANH);
  int to = output_q(c, "output", 2, d, &out);
  tfw_op(c->m, code, 1, &ti, 1, &to);
  c->atol = 1e-5;
  c->rtol = 1e-5;
}

static void gen_logistic(Case *c, int v) {
  if (v == VAR_TIES)
    gen_sigmoid_ties(c, TFW_OP_LOGISTIC);
  else
    gen_unary(c, TFW_OP_LOGISTIC);
}
static void gen_tanh(Case *c, int v) {
  if (v == VAR_TIES)
    gen_sigmoid_ties(c, TFW_OP_TANH);
  else
    gen_unary(c, TFW_OP_TANH);
}
static void gen_hard_swish(Case *c, int v) { (void)v; gen_unary(c, TFW_OP_HARD_SWISH); }
static void gen_relu(Case *c, int v) { (void)v; gen_unary(c, TFW_OP_RELU); }
static void gen_relu6(Case *c, int v) { (void)v; gen_unary(c, TFW_OP_RELU6); }
static void gen_leaky_relu(Case *c, int v) { (void)v; gen_unary(c, TFW_OP_LEAKY_RELU); }

/* QUANTIZE, DEQUANTIZE and CAST: variant = (from dtype << 8) | to dtype. */
static void gen_convert(Case *c, int code, int variant) {
  Rng *r = c->r;
  int from = variant >> 8, to_dt = variant & 0xff;
  int32_t d[4];
  int nd = random_shape(r, 1, 4, 8, d);
  Q qi, qo;
  if (code == TFW_OP_CAST) {
    /* Integer values that fit both types; floats with fractions. */
    int lo = -100, hi = 100;
    if (from == TFW_UINT8 || to_dt == TFW_UINT8)
      lo = 0, hi = 255;
    if (from == TFW_INT8 || to_dt == TFW_INT8)
      hi = 127, lo = from == TFW_UINT8 || to_dt == TFW_UINT8 ? 0 : -128;
    qi = (Q){from, 0, 0, (float)lo, (float)hi};
    if (from == TFW_FLOAT32)
      qi.hi = (float)hi + 0.99f;
    qo = (Q){to_dt, 0, 0, 0, 0};
  } else if (code == TFW_OP_DEQUANTIZE) {
    qi = q_random(r, from);
    qo = (Q){TFW_FLOAT32, 0, 0, 0, 0};
  } else if (from == TFW_FLOAT32) {
    qo = q_random(r, to_dt);
    float span = qo.hi - qo.lo;
    qi = (Q){TFW_FLOAT32, 0, 0, qo.lo - 0.1f * span, qo.hi + 0.1f * span};
  } else {
    qi = q_random(r, from);
    qo = q_cover(to_dt, qi.lo * runif(r, 0.5, 1.5), qi.hi * runif(r, 0.5, 1.5));
  }
  int ti = input_q(c, "input", nd, d, &qi);
  int to = output_q(c, "output", nd, d, &qo);
  int op = tfw_op(c->m, code, 1, &ti, 1, &to);
  if (code == TFW_OP_CAST)
    tfw_cast_options(c->m, op, from, to_dt);
  else
    tfw_empty_options(c->m, op);
  if (code == TFW_OP_DEQUANTIZE) {
    c->atol = 1e-6;
    c->rtol = 1e-6;
  }
}

/* TFLite's float16 weights: DEQUANTIZE of a constant float16 tensor
 * added to the float32 input (tinyaot folds it), and a second one that is
 * a model output (widened at run time).  The halves are random bits:
 * normal numbers of moderate size, a tenth of them subnormal. */
static void gen_dequantize_f16(Case *c, int v) {
  (void)v;
  Rng *r = c->r;
  int32_t d[4];
  int nd = random_shape(r, 1, 4, 8, d);
  int64_t n = count_of(nd, d);
  uint16_t *h = xmalloc(2 * (size_t)n * 2);
  for (int64_t k = 0; k < 2 * n; k++) {
    int e = rchance(r, 0.1) ? 0 : rint_in(r, 8, 20);
    h[k] = (uint16_t)(rint_in(r, 0, 1) << 15 | e << 10 | rint_in(r, 0, 1023));
  }
  Q qf = {TFW_FLOAT32, 0, 0, -4.0f, 4.0f};
  int x = input_q(c, "input", nd, d, &qf);
  int w[2], wf[2];
  for (int k = 0; k < 2; k++)
    w[k] = tfw_const(c->m, k ? "weights_b" : "weights_a", TFW_FLOAT16, nd, d, h + k * n);
  free(h);
  int y = output_q(c, "output", nd, d, &qf);
  wf[0] = tfw_tensor(c->m, "weights_a_f32", TFW_FLOAT32, nd, d, 0);
  wf[1] = output_q(c, "weights_b_f32", nd, d, &qf);
  for (int k = 0; k < 2; k++)
    tfw_empty_options(c->m, tfw_op(c->m, TFW_OP_DEQUANTIZE, 1, &w[k], 1, &wf[k]));
  int in[2] = {x, wf[0]};
  tfw_add_options(c->m, tfw_op(c->m, TFW_OP_ADD, 2, in, 1, &y), TFW_ACT_NONE, -1);
  c->atol = 0;
  c->rtol = 0;
}

static void gen_quantize(Case *c, int v) { gen_convert(c, TFW_OP_QUANTIZE, v); }
static void gen_dequantize(Case *c, int v) { gen_convert(c, TFW_OP_DEQUANTIZE, v); }
static void gen_cast(Case *c, int v) { gen_convert(c, TFW_OP_CAST, v); }

/* The data-movement and reduction generators and their rows. */
#include "gen_ops_data.c"
/* Element-wise math, comparisons, logic, SELECT, PRELU, LOG_SOFTMAX,
 * ADD_N: their generators and rows (MATH_ROWS). */
#include "gen_ops_math.h"

/* ------------------------------------------------------------ table */

typedef struct {
  const char *op;
  const char *dtype;
  void (*gen)(Case *c, int variant);
  int kind;
  int variant;
} Row;

#define ALL4(OP, FN)                                                       \
  {OP, "float32", FN, K_F32, 0}, {OP, "int8", FN, K_I8, 0},                \
      {OP, "int16", FN, K_I16, 0}, {OP, "uint8", FN, K_U8, 0}
#define CONV(FROM, TO) (((FROM) << 8) | (TO))

static const Row rows[] = {
    ALL4("CONV_2D", gen_conv2d),
    ALL4("DEPTHWISE_CONV_2D", gen_depthwise),
    ALL4("TRANSPOSE_CONV", gen_transpose_conv),
    ALL4("FULLY_CONNECTED", gen_fully_connected),
    {"FULLY_CONNECTED", "hybrid", gen_fully_connected, K_HYB, 0},
    {"CONV_2D", "int8_w4", gen_conv2d, K_I8, VAR_W4},
    {"DEPTHWISE_CONV_2D", "int8_w4", gen_depthwise, K_I8, VAR_W4},
    {"FULLY_CONNECTED", "int8_w4", gen_fully_connected, K_I8, VAR_W4},
    {"CONV_2D", "hybrid", gen_conv2d, K_HYB, 0},
    {"DEPTHWISE_CONV_2D", "hybrid", gen_depthwise, K_HYB, 0},
    /* 16x8 with an int32 bias: TFLite accepts int32 or int64 there (its
     * DEPTHWISE_CONV_2D takes int64 only). */
    {"CONV_2D", "int16_bias32", gen_conv2d, K_I16, VAR_BIAS32},
    {"TRANSPOSE_CONV", "int16_bias32", gen_transpose_conv, K_I16, VAR_BIAS32},
    {"FULLY_CONNECTED", "int16_bias32", gen_fully_connected, K_I16, VAR_BIAS32},
    ALL4("AVERAGE_POOL_2D", gen_avg_pool),
    ALL4("MAX_POOL_2D", gen_max_pool),
    ALL4("ADD", gen_add),
    ALL4("SUB", gen_sub),
    ALL4("MUL", gen_mul),
    ALL4("MAXIMUM", gen_maximum),
    ALL4("MINIMUM", gen_minimum),
    ALL4("MEAN", gen_mean),
    ALL4("PAD", gen_pad),
    ALL4("CONCATENATION", gen_concatenation),
    ALL4("SPLIT", gen_split),
    ALL4("SPLIT_V", gen_split_v),
    ALL4("PACK", gen_pack),
    ALL4("UNPACK", gen_unpack),
    ALL4("STRIDED_SLICE", gen_strided_slice),
    ALL4("TRANSPOSE", gen_transpose),
    ALL4("RESHAPE", gen_reshape),
    ALL4("SQUEEZE", gen_squeeze),
    ALL4("EXPAND_DIMS", gen_expand_dims),
    ALL4("RESIZE_NEAREST_NEIGHBOR", gen_resize_nearest),
    ALL4("RESIZE_BILINEAR", gen_resize_bilinear),
    /* TFLite has no int16 ARG_MAX or HARD_SWISH, and no int8 -> int16
     * QUANTIZE (its kernel refuses them); these rows are left out. */
    {"ARG_MAX", "float32", gen_arg_max, K_F32, 0},
    {"ARG_MAX", "int8", gen_arg_max, K_I8, 0},
    {"ARG_MAX", "uint8", gen_arg_max, K_U8, 0},
    ALL4("SOFTMAX", gen_softmax),
    {"SOFTMAX", "int8_int16", gen_softmax, K_I8, VAR_OUT16},
    ALL4("LOGISTIC", gen_logistic),
    {"LOGISTIC", "int8_ties", gen_logistic, K_I8, VAR_TIES},
    ALL4("TANH", gen_tanh),
    {"TANH", "int8_ties", gen_tanh, K_I8, VAR_TIES},
    ALL4("LEAKY_RELU", gen_leaky_relu),
    {"HARD_SWISH", "float32", gen_hard_swish, K_F32, 0},
    {"HARD_SWISH", "int8", gen_hard_swish, K_I8, 0},
    {"HARD_SWISH", "uint8", gen_hard_swish, K_U8, 0},
    ALL4("RELU", gen_relu),
    ALL4("RELU6", gen_relu6),
    {"QUANTIZE", "float32_int8", gen_quantize, K_F32, CONV(TFW_FLOAT32, TFW_INT8)},
    {"QUANTIZE", "float32_uint8", gen_quantize, K_F32, CONV(TFW_FLOAT32, TFW_UINT8)},
    {"QUANTIZE", "float32_int16", gen_quantize, K_F32, CONV(TFW_FLOAT32, TFW_INT16)},
    {"QUANTIZE", "int8_int8", gen_quantize, K_I8, CONV(TFW_INT8, TFW_INT8)},
    {"QUANTIZE", "int16_int8", gen_quantize, K_I16, CONV(TFW_INT16, TFW_INT8)},
    {"QUANTIZE", "int16_int16", gen_quantize, K_I16, CONV(TFW_INT16, TFW_INT16)},
    {"QUANTIZE", "uint8_int8", gen_quantize, K_U8, CONV(TFW_UINT8, TFW_INT8)},
    {"QUANTIZE", "int8_uint8", gen_quantize, K_I8, CONV(TFW_INT8, TFW_UINT8)},
    {"DEQUANTIZE", "int8_float32", gen_dequantize, K_I8, CONV(TFW_INT8, TFW_FLOAT32)},
    {"DEQUANTIZE", "int16_float32", gen_dequantize, K_I16, CONV(TFW_INT16, TFW_FLOAT32)},
    {"DEQUANTIZE", "uint8_float32", gen_dequantize, K_U8, CONV(TFW_UINT8, TFW_FLOAT32)},
    {"DEQUANTIZE", "float16_float32", gen_dequantize_f16, K_F32, 0},
    {"CAST", "float32_int32", gen_cast, K_F32, CONV(TFW_FLOAT32, TFW_INT32)},
    {"CAST", "int32_float32", gen_cast, K_F32, CONV(TFW_INT32, TFW_FLOAT32)},
    {"CAST", "int8_float32", gen_cast, K_F32, CONV(TFW_INT8, TFW_FLOAT32)},
    {"CAST", "uint8_float32", gen_cast, K_F32, CONV(TFW_UINT8, TFW_FLOAT32)},
    {"CAST", "int16_float32", gen_cast, K_F32, CONV(TFW_INT16, TFW_FLOAT32)},
    {"CAST", "float32_uint8", gen_cast, K_F32, CONV(TFW_FLOAT32, TFW_UINT8)},
    {"CAST", "float32_int8", gen_cast, K_F32, CONV(TFW_FLOAT32, TFW_INT8)},
    {"CAST", "int8_int32", gen_cast, K_F32, CONV(TFW_INT8, TFW_INT32)},
    {"CAST", "uint8_int32", gen_cast, K_F32, CONV(TFW_UINT8, TFW_INT32)},
    {"CAST", "int32_int8", gen_cast, K_F32, CONV(TFW_INT32, TFW_INT8)},
    {"CAST", "int8_uint8", gen_cast, K_F32, CONV(TFW_INT8, TFW_UINT8)},
    DATA_ROWS
    MATH_ROWS,
};

#define NROWS ((int)(sizeof rows / sizeof rows[0]))

/* ------------------------------------------------------------- main */

static void write_file(const char *path, const void *p, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(p, 1, n, f) != n || fclose(f) != 0) {
    fprintf(stderr, "gen_ops: cannot write %s: %s\n", path, strerror(errno));
    exit(1);
  }
}

static void make_dir(const char *path) {
  if (mkdir(path, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "gen_ops: cannot create %s: %s\n", path, strerror(errno));
    exit(1);
  }
}

/* Does `only` (comma/space separated OP or OP:dtype words) select row? */
static int selected(const char *only, const Row *row) {
  if (!only)
    return 1;
  char full[128];
  snprintf(full, sizeof full, "%s:%s", row->op, row->dtype);
  const char *p = only;
  while (*p) {
    while (*p == ',' || *p == ' ' || *p == '\n' || *p == '\t')
      p++;
    size_t n = strcspn(p, ", \n\t");
    if (n && ((n == strlen(full) && !strncmp(p, full, n)) ||
              (n == strlen(row->op) && !strncmp(p, row->op, n))))
      return 1;
    p += n;
  }
  return 0;
}

static int generate(const Row *row, int k, uint64_t seed, const char *outdir, FILE *manifest) {
  Rng r;
  uint64_t h = fnv1a(FNV_INIT, row->op, strlen(row->op));
  h = fnv1a(h, ":", 1);
  h = fnv1a(h, row->dtype, strlen(row->dtype));
  r.s = seed ^ h ^ ((uint64_t)k * 0x9e3779b97f4a7c15ull);
  rnext(&r);
  Rng r0 = r;
  Case c;
  memset(&c, 0, sizeof c);
  c.m = tfw_new();
  c.r = &r;
  c.kind = row->kind;
  c.mode = "off";
  c.bias32 = row->variant == VAR_BIAS32;
  c.w4 = row->variant == VAR_W4;
  row->gen(&c, row->variant);
  finish_io(&c);

  char name[160], dir[1200], path[1300];
  snprintf(name, sizeof name, "%s.%s.%d", row->op, row->dtype, k);
  snprintf(dir, sizeof dir, "%s/%s", outdir, name);
  make_dir(dir);
  uint8_t *bytes;
  size_t len;
  tfw_finish(c.m, &bytes, &len);
  snprintf(path, sizeof path, "%s/model.tflite", dir);
  write_file(path, bytes, len);
  uint64_t key = fnv1a(FNV_INIT, bytes, len);
  free(bytes);
  if (c.needs_oracle_form) {
    /* The same draws again, written for the oracle; the cache key is of
     * the model the oracle runs. */
    Case o;
    memset(&o, 0, sizeof o);
    o.m = tfw_new();
    o.r = &r0;
    o.kind = row->kind;
    o.mode = "off";
    o.bias32 = c.bias32;
    o.w4 = c.w4;
    o.oracle_form = 1;
    row->gen(&o, row->variant);
    finish_io(&o);
    tfw_finish(o.m, &bytes, &len);
    snprintf(path, sizeof path, "%s/oracle.tflite", dir);
    write_file(path, bytes, len);
    key = fnv1a(FNV_INIT, bytes, len);
    free(bytes);
    for (int i = 0; i < o.nin; i++) {
      if (o.in_bytes[i] != c.in_bytes[i] || memcmp(o.in_data[i], c.in_data[i], c.in_bytes[i]))
        die("the oracle's form of a case draws other inputs");
      free(o.in_data[i]);
    }
    tfw_free(o.m);
  }
  for (int i = 0; i < c.nin; i++) {
    snprintf(path, sizeof path, "%s/in%d.bin", dir, i);
    write_file(path, c.in_data[i], c.in_bytes[i]);
    key = fnv1a(key, c.in_data[i], c.in_bytes[i]);
    free(c.in_data[i]);
  }
  key = fnv1a(key, c.mode, strlen(c.mode));
  fprintf(manifest, "%s %s %s %s %g %g %d %d %016llx ", name, row->op, row->dtype, c.mode,
          c.atol, c.rtol, c.nin, c.nout, (unsigned long long)key);
  for (int i = 0; i < c.nout; i++)
    fprintf(manifest, "%s%s", i ? "," : "", dtype_name(c.out_dtype[i]));
  fputc('\n', manifest);
  tfw_free(c.m);
  return 0;
}

static void usage(void) {
  fprintf(stderr, "usage: gen_ops [--seed S] [--count N] [--only LIST] OUTDIR\n"
                  "       gen_ops --list\n");
  exit(2);
}

int main(int argc, char **argv) {
  uint64_t seed = 1;
  int count = 1;
  const char *only = NULL, *outdir = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--list")) {
      for (int j = 0; j < NROWS; j++)
        printf("%s:%s\n", rows[j].op, rows[j].dtype);
      return 0;
    } else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
      seed = strtoull(argv[++i], NULL, 0);
    } else if (!strcmp(argv[i], "--count") && i + 1 < argc) {
      count = atoi(argv[++i]);
    } else if (!strcmp(argv[i], "--only") && i + 1 < argc) {
      only = argv[++i];
    } else if (argv[i][0] == '-' || outdir) {
      usage();
    } else {
      outdir = argv[i];
    }
  }
  if (!outdir || count < 0)
    usage();
  make_dir(outdir);
  char path[1100];
  snprintf(path, sizeof path, "%s/manifest.txt", outdir);
  FILE *manifest = fopen(path, "w");
  if (!manifest) {
    fprintf(stderr, "gen_ops: cannot write %s: %s\n", path, strerror(errno));
    return 1;
  }
  int n = 0;
  for (int j = 0; j < NROWS; j++) {
    if (!selected(only, &rows[j]))
      continue;
    for (int k = 0; k < count; k++, n++)
      generate(&rows[j], k, seed, outdir, manifest);
  }
  if (fclose(manifest) != 0) {
    fprintf(stderr, "gen_ops: cannot write %s\n", path);
    return 1;
  }
  fprintf(stderr, "gen_ops: %d cases in %s\n", n, outdir);
  return 0;
}
