/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Tests of the 16x8 kernels (ta_kernels_s16.h) against transliterations of
 * TensorFlow Lite's reference code written here, with TFLite's own loop
 * order and indexing:
 *
 *  - the 64-bit MultiplyByQuantizedMultiplier (common.cc) on hand-worked
 *    values: ties round up (-1.5 -> -1, 1.5 -> 2), and the multiplier is
 *    reduced to 16 bits with saturation at 0x7FFF;
 *  - ConvPerChannel<int64_t> (16-bit data), TransposeConv<int64_t>
 *    (the scatter into an int64 scratch tensor, which ta_transpose_conv_s16
 *    replaces by a gather) and DepthwiseConvPerChannel (int16) on
 *    hundreds of random shapes, strides, dilations, paddings, groups,
 *    depth multipliers and multipliers; ConvPerChannel<int32_t> and
 *    TransposeConv<int32_t> (int32 bias, wrapping int32 sums, the 32-bit
 *    requantization, both roundings) likewise;
 *  - FullyConnected / FullyConnectedPerChannel for int16 data with int64
 *    and with int32 sums; MulElementwise (int16);
 *  - AddElementwise / SubElementwise with left_shift 15, Add(pot_scale) /
 *    Sub16 / BroadcastSub16POTSlow, QuantizeLeakyRelu<int16_t> and
 *    Requantize (int32 <-> int16) on random values, both roundings;
 *  - AveragePool / MaxPool for int16 on hundreds of random windows, and
 *    ReluX (RELU, RELU6) on random multipliers and ranges, and
 *    ResizeBilinearInteger<int16_t> on random sizes and both roundings;
 *  - broadcasting: a [2,1,3] x [1,4,1] walk against explicit indexing.
 *
 * Every output sits between canary bytes.
 */
#include "test.h"
#include "ta_kernels.h"
#include "tinyaot.h"
#include "ref.h"

static size_t count(const ta_dims *d) { return (size_t)d->n * d->h * d->w * d->c; }

/* MultiplyByQuantizedMultiplier(int64_t x, ...), TFLite's common.cc. */
static int32_t ref_mbqm64(int64_t x, int32_t m, int shift) {
  int32_t reduced = m < 0x7FFF0000 ? (m + (1 << 15)) >> 16 : 0x7FFF;
  int64_t total_shift = 15 - shift;
  int64_t round = (int64_t)1 << (total_shift - 1);
  int64_t result = x * (int64_t)reduced + round;
  /* >> of a negative int64: arithmetic on every compiler TFLite supports;
   * written as a floor division here. */
  int64_t d = (int64_t)1 << total_shift;
  int64_t q = result / d;
  if (result % d != 0 && result < 0)
    q--;
  return (int32_t)q;
}

static void random_quant(int32_t n, int32_t *mult, int32_t *shift) {
  for (int32_t i = 0; i < n; i++) {
    int r = ref_rand(0, 9);
    mult[i] = r == 0 ? 0x7FFFFFFF - ref_rand(0, 0x8000)
                     : (int32_t)((1u << 30) + (ref_next() & 0x3fffffffu));
    shift[i] = r == 1 ? ref_rand(0, 7) : ref_rand(-24, -8);
  }
}

static void fill_s16(int16_t *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    p[i] = (int16_t)ref_rand(-32768, 32767);
}

/* -------------------------------------------------- 64-bit requantize */

/* A 1x1 convolution with filter 1 and no bias is requant64(input). */
static int32_t conv_requant(int16_t x, int32_t mult, int32_t shift) {
  ta_conv_params p = {.stride_h = 1, .stride_w = 1, .dilation_h = 1, .dilation_w = 1,
                      .act_min = -32768, .act_max = 32767};
  ta_dims d = {1, 1, 1, 1};
  ta_quant q = {&mult, &shift, 0, TA_ROUND_DOUBLE, 0};
  int8_t one = 1;
  int16_t out = 0;
  if (ta_conv2d_s16(&p, &q, &d, &x, &d, &one, NULL, &d, &out) != TA_OK)
    return INT32_MIN;
  return out;
}

static void test_requant64(void) {
  /* multiplier 2^30 (0.5): reduced to 16384; 3 * 0.5 = 1.5 -> 2, -1.5 -> -1. */
  CHECK(conv_requant(3, 1 << 30, 0) == 2 && conv_requant(-3, 1 << 30, 0) == -1,
        "the 64-bit requantization rounds ties up: 1.5 -> 2, -1.5 -> -1 (got %d, %d)",
        (int)conv_requant(3, 1 << 30, 0), (int)conv_requant(-3, 1 << 30, 0));
  /* 0x7FFF8000 would reduce to 0x8000; TFLite saturates it to 0x7FFF:
   * 32767 * 0x7FFF / 2^15 * 2^0 = 32766.0000305 -> 32766. */
  CHECK(conv_requant(32767, 0x7FFF8000, 0) == 32766,
        "a multiplier above 0x7FFF0000 is reduced to 0x7FFF (got %d)",
        (int)conv_requant(32767, 0x7FFF8000, 0));
  /* shift 1: 100 * 0.75 * 2 = 150. */
  CHECK(conv_requant(100, 0x60000000, 1) == 150, "a positive shift scales up (got %d)",
        (int)conv_requant(100, 0x60000000, 1));
  int bad = 0;
  for (int k = 0; k < 20000; k++) {
    int64_t x = (int64_t)(int32_t)ref_next() * 4096 + ref_rand(-4096, 4096);
    int32_t m, s;
    random_quant(1, &m, &s);
    s = ref_rand(-31, 7);
    int32_t want = ref_mbqm64(x, m, s);
    if (want < -32768 || want > 32767)
      continue;
    /* Through a 1x1 convolution with one input channel and a bias: acc =
     * 1 * 0 + bias. */
    ta_conv_params p = {.stride_h = 1, .stride_w = 1, .dilation_h = 1, .dilation_w = 1,
                        .act_min = -32768, .act_max = 32767};
    ta_dims d = {1, 1, 1, 1};
    ta_quant q = {&m, &s, 0, TA_ROUND_DOUBLE, 0};
    int8_t one = 1;
    int16_t zero = 0, out = 0;
    if (ta_conv2d_s16(&p, &q, &d, &zero, &d, &one, &x, &d, &out) != TA_OK || out != want)
      bad++;
  }
  CHECK(bad == 0, "20000 random 64-bit requantizations equal TFLite's (%d differ)", bad);
}

/* ------------------------------------------------------------ CONV_2D */

/* The requantization of a 16x8 accumulator: the 64-bit
 * MultiplyByQuantizedMultiplier for int64 sums; for int32 sums (acc32:
 * an int32 bias or none) the sum wrapped to int32 (TFLite's int32
 * additions, modulo 2^32) and the 32-bit one with q->rounding. */
static int32_t ref_requant16(int64_t acc, const ta_quant *q, int c, bool acc32) {
  if (acc32)
    return ref_mbqm((int32_t)(uint32_t)(uint64_t)acc, q->multiplier[c], q->shift[c],
                    q->rounding);
  return ref_mbqm64(acc, q->multiplier[c], q->shift[c]);
}

static void ref_conv_s16(const ta_conv_params *p, const ta_quant *q, const ta_dims *id,
                         const int16_t *in, const ta_dims *fd, const int8_t *filter,
                         const int64_t *bias, const ta_dims *od, int16_t *out, bool acc32) {
  int groups = id->c / fd->c, per_group = od->c / groups;
  for (int b = 0; b < od->n; b++)
    for (int oy = 0; oy < od->h; oy++)
      for (int ox = 0; ox < od->w; ox++)
        for (int oc = 0; oc < od->c; oc++) {
          int g = oc / per_group;
          int64_t acc = 0;
          for (int fy = 0; fy < fd->h; fy++) {
            int iy = oy * p->stride_h - p->pad_h + p->dilation_h * fy;
            for (int fx = 0; fx < fd->w; fx++) {
              int ix = ox * p->stride_w - p->pad_w + p->dilation_w * fx;
              if (ix < 0 || ix >= id->w || iy < 0 || iy >= id->h)
                continue;
              for (int ic = 0; ic < fd->c; ic++) {
                int32_t iv = in[ref_offset(id, b, iy, ix, ic + g * fd->c)];
                int32_t fv = filter[ref_offset(fd, oc, fy, fx, ic)];
                acc += fv * iv;
              }
            }
          }
          if (bias)
            acc += bias[oc];
          int32_t v = ref_requant16(acc, q, q->per_channel ? oc : 0, acc32);
          out[ref_offset(od, b, oy, ox, oc)] = (int16_t)ref_clamp(v, p->act_min, p->act_max);
        }
}

/* DepthwiseConvPerChannel (int16): output channel ic * m + k reads input
 * channel ic; int64 sums. */
static void ref_dw_s16(const ta_conv_params *p, const ta_quant *q, const ta_dims *id,
                       const int16_t *in, const ta_dims *fd, const int8_t *filter,
                       const int64_t *bias, const ta_dims *od, int16_t *out) {
  for (int b = 0; b < od->n; b++)
    for (int oy = 0; oy < od->h; oy++)
      for (int ox = 0; ox < od->w; ox++)
        for (int ic = 0; ic < id->c; ic++)
          for (int m = 0; m < p->depth_multiplier; m++) {
            int oc = m + ic * p->depth_multiplier;
            int64_t acc = 0;
            for (int fy = 0; fy < fd->h; fy++)
              for (int fx = 0; fx < fd->w; fx++) {
                int iy = oy * p->stride_h - p->pad_h + p->dilation_h * fy;
                int ix = ox * p->stride_w - p->pad_w + p->dilation_w * fx;
                if (ix < 0 || ix >= id->w || iy < 0 || iy >= id->h)
                  continue;
                int32_t iv = in[ref_offset(id, b, iy, ix, ic)];
                int32_t fv = filter[ref_offset(fd, 0, fy, fx, oc)];
                acc += (int64_t)fv * (int64_t)iv;
              }
            if (bias)
              acc += bias[oc];
            int32_t v = ref_mbqm64(acc, q->multiplier[q->per_channel ? oc : 0],
                                   q->shift[q->per_channel ? oc : 0]);
            out[ref_offset(od, b, oy, ox, oc)] = (int16_t)ref_clamp(v, p->act_min, p->act_max);
          }
}

/* TransposeConv<int64_t>: scatter every input pixel into an int64
 * scratch tensor, then bias, requantize, clamp. */
static void ref_transpose_conv_s16(const ta_conv_params *p, const ta_quant *q,
                                   const ta_dims *id, const int16_t *in, const ta_dims *fd,
                                   const int8_t *filter, const int64_t *bias,
                                   const ta_dims *od, int16_t *out, bool acc32) {
  int64_t *scratch = calloc(count(od), sizeof(int64_t));
  for (int b = 0; b < id->n; b++)
    for (int iy = 0; iy < id->h; iy++)
      for (int ix = 0; ix < id->w; ix++)
        for (int ic = 0; ic < id->c; ic++) {
          int ox0 = ix * p->stride_w - p->pad_w, oy0 = iy * p->stride_h - p->pad_h;
          for (int fy = 0; fy < fd->h; fy++)
            for (int fx = 0; fx < fd->w; fx++)
              for (int oc = 0; oc < od->c; oc++) {
                int ox = ox0 + fx, oy = oy0 + fy;
                if (ox >= 0 && ox < od->w && oy >= 0 && oy < od->h) {
                  int32_t iv = in[ref_offset(id, b, iy, ix, ic)];
                  int32_t fv = filter[ref_offset(fd, oc, fy, fx, ic)];
                  scratch[ref_offset(od, b, oy, ox, oc)] += iv * fv;
                }
              }
        }
  for (size_t i = 0; i < count(od); i++) {
    int oc = (int)(i % (size_t)od->c);
    int64_t acc = scratch[i] + (bias ? bias[oc] : 0);
    int32_t v = ref_requant16(acc, q, q->per_channel ? oc : 0, acc32);
    out[i] = (int16_t)ref_clamp(v, p->act_min, p->act_max);
  }
  free(scratch);
}

enum { K_CONV, K_TRANSPOSE, K_DEPTHWISE };
static const char *const kind_name[] = {"CONV_2D", "TRANSPOSE_CONV", "DEPTHWISE_CONV_2D"};

/* One random case of a 16x8 convolution kernel against its reference;
 * acc32: the int32-bias kernel (ta_*_acc32_s16) with a random rounding.
 * Returns 1 (equal), -1 (differs) or 0 (shape without output). */
static int random_conv_case(int kind, bool acc32, int k) {
  bool transpose = kind == K_TRANSPOSE, dw = kind == K_DEPTHWISE;
  ta_conv_params p = {0};
  ta_dims id, fd, od;
  id.n = ref_rand(1, 2);
  id.h = ref_rand(1, 8);
  id.w = ref_rand(1, 8);
  int groups = kind == K_CONV && ref_rand(0, 3) == 0 ? 2 : 1;
  int fc = ref_rand(1, 6);
  id.c = fc * groups;
  fd.h = ref_rand(1, 4);
  fd.w = ref_rand(1, 4);
  if (dw) {
    p.depth_multiplier = ref_rand(1, 3);
    fd.n = 1;
    fd.c = id.c * p.depth_multiplier;
  } else {
    fd.c = fc;
    fd.n = ref_rand(1, 6) * groups;
  }
  p.stride_h = ref_rand(1, 3);
  p.stride_w = ref_rand(1, 3);
  p.dilation_h = !transpose && ref_rand(0, 3) == 0 ? ref_rand(2, 3) : 1;
  p.dilation_w = !transpose && ref_rand(0, 3) == 0 ? ref_rand(2, 3) : 1;
  Padding pad = ref_rand(0, 1) ? PAD_SAME : PAD_VALID;
  od.n = id.n;
  od.c = dw ? fd.c : fd.n;
  int32_t unused;
  if (transpose) {
    /* TFLite's output size for a transposed convolution, then its
     * padding from the output back to the input. */
    od.h = pad == PAD_SAME ? id.h * p.stride_h : (id.h - 1) * p.stride_h + fd.h;
    od.w = pad == PAD_SAME ? id.w * p.stride_w : (id.w - 1) * p.stride_w + fd.w;
    compute_padding(pad, od.h, fd.h, p.stride_h, 1, &unused, &p.pad_h);
    compute_padding(pad, od.w, fd.w, p.stride_w, 1, &unused, &p.pad_w);
  } else {
    compute_padding(pad, id.h, fd.h, p.stride_h, p.dilation_h, &od.h, &p.pad_h);
    compute_padding(pad, id.w, fd.w, p.stride_w, p.dilation_w, &od.w, &p.pad_w);
  }
  if (od.h < 1 || od.w < 1)
    return 0;
  p.act_min = ref_rand(0, 3) == 0 ? ref_rand(-32768, 0) : -32768;
  p.act_max = ref_rand(0, 3) == 0 ? ref_rand(p.act_min, 32767) : 32767;
  int32_t *mult = malloc(sizeof(int32_t) * od.c), *shift = malloc(sizeof(int32_t) * od.c);
  random_quant(od.c, mult, shift);
  ta_quant q = {mult, shift, ref_rand(0, 3) != 0,
                acc32 && ref_rand(0, 1) ? TA_ROUND_SINGLE : TA_ROUND_DOUBLE, 0};
  size_t ni = count(&id), nf = count(&fd), no = count(&od);
  int16_t *in = canary_alloc(ni * 2);
  int8_t *filter = canary_alloc(nf);
  fill_s16(in, ni);
  ref_fill_s8(filter, nf);
  /* int32 biases large enough that some int32 sums wrap. */
  int64_t *bias = malloc(sizeof(int64_t) * od.c);
  int32_t *bias32 = malloc(sizeof(int32_t) * od.c);
  for (int i = 0; i < od.c; i++) {
    bias32[i] = (int32_t)ref_next();
    bias[i] = acc32 ? bias32[i] : (int64_t)(int32_t)ref_next() * 64;
  }
  bool has_bias = ref_rand(0, 4) != 0;
  const int64_t *b = has_bias ? bias : NULL;
  const int32_t *b32 = has_bias ? bias32 : NULL;
  int16_t *expect = malloc(no * 2), *got = canary_alloc(no * 2);
  ta_status s;
  if (transpose) {
    ref_transpose_conv_s16(&p, &q, &id, in, &fd, filter, b, &od, expect, acc32);
    s = acc32 ? ta_transpose_conv_acc32_s16(&p, &q, &id, in, &fd, filter, b32, &od, got)
              : ta_transpose_conv_s16(&p, &q, &id, in, &fd, filter, b, &od, got);
  } else if (dw) {
    ref_dw_s16(&p, &q, &id, in, &fd, filter, b, &od, expect);
    s = ta_depthwise_conv2d_s16(&p, &q, &id, in, &fd, filter, b, &od, got);
  } else {
    ref_conv_s16(&p, &q, &id, in, &fd, filter, b, &od, expect, acc32);
    s = acc32 ? ta_conv2d_acc32_s16(&p, &q, &id, in, &fd, filter, b32, &od, got)
              : ta_conv2d_s16(&p, &q, &id, in, &fd, filter, b, &od, got);
  }
  long d = first_diff(got, expect, no * 2);
  bool ok = s == TA_OK && d < 0 && canary_ok(got, no * 2) && canary_ok(in, ni * 2) &&
            canary_ok(filter, nf);
  if (!ok)
    CHECK(0, "%s%s random case %d (in %dx%dx%dx%d filter %dx%dx%dx%d stride %d,%d dil %d,%d "
          "pad %d,%d) matches the reference: status %d, element %ld expected %d actual %d",
          kind_name[kind], acc32 ? " acc32" : "", k, id.n, id.h, id.w, id.c, fd.n, fd.h,
          fd.w, fd.c, p.stride_h, p.stride_w, p.dilation_h, p.dilation_w, p.pad_h, p.pad_w,
          s, d / 2, d >= 0 ? expect[d / 2] : 0, d >= 0 ? got[d / 2] : 0);
  canary_free(in);
  canary_free(filter);
  canary_free(got);
  free(expect);
  free(bias);
  free(bias32);
  free(mult);
  free(shift);
  return ok ? 1 : -1;
}

static void test_conv_random(int kind, bool acc32) {
  int run = 0, bad = 0;
  for (int k = 0; k < 300; k++) {
    int r = random_conv_case(kind, acc32, k);
    run += r != 0;
    bad += r < 0;
  }
  CHECK(bad == 0 && run > 150, "%d random 16x8 %s%s cases match TFLite's reference loop "
        "(%d differ)", run, kind_name[kind], acc32 ? " (int32 bias and sums)" : "", bad);
}

/* ---------------------------------------------------- FULLY_CONNECTED */

/* reference_integer_ops::FullyConnected(PerChannel) for int16 data: int64
 * sums (int64 bias), or int32 sums (acc32). */
static void test_fc_random(bool acc32) {
  int bad = 0, runs = 300;
  for (int k = 0; k < runs; k++) {
    ta_fc_params p = {0};
    p.batches = ref_rand(0, 3);
    p.in_depth = ref_rand(1, 70);
    p.out_depth = ref_rand(1, 12);
    p.act_min = ref_rand(0, 3) == 0 ? ref_rand(-32768, 0) : -32768;
    p.act_max = ref_rand(0, 3) == 0 ? ref_rand(p.act_min, 32767) : 32767;
    int32_t mult[12], shift[12];
    random_quant(p.out_depth, mult, shift);
    ta_quant q = {mult, shift, ref_rand(0, 1),
                  acc32 && ref_rand(0, 1) ? TA_ROUND_SINGLE : TA_ROUND_DOUBLE, 0};
    size_t ni = (size_t)p.batches * p.in_depth, nf = (size_t)p.out_depth * p.in_depth;
    size_t no = (size_t)p.batches * p.out_depth;
    int16_t *in = canary_alloc(ni * 2 + 2);
    int8_t *filter = canary_alloc(nf);
    fill_s16(in, ni);
    ref_fill_s8(filter, nf);
    int64_t bias[12];
    int32_t bias32[12];
    for (int o = 0; o < p.out_depth; o++) {
      bias32[o] = (int32_t)ref_next();
      bias[o] = acc32 ? bias32[o] : (int64_t)(int32_t)ref_next() * 64;
    }
    bool has_bias = ref_rand(0, 4) != 0;
    int16_t *expect = malloc(no * 2 + 2), *got = canary_alloc(no * 2 + 2);
    for (int b = 0; b < p.batches; b++)
      for (int o = 0; o < p.out_depth; o++) {
        int64_t acc = 0;
        for (int i = 0; i < p.in_depth; i++)
          acc += (int64_t)filter[o * p.in_depth + i] * in[b * p.in_depth + i];
        if (has_bias)
          acc += bias[o];
        int32_t v = ref_requant16(acc, &q, q.per_channel ? o : 0, acc32);
        expect[b * p.out_depth + o] = (int16_t)ref_clamp(v, p.act_min, p.act_max);
      }
    ta_status s = acc32 ? ta_fully_connected_acc32_s16(&p, &q, in, filter,
                                                       has_bias ? bias32 : NULL, got)
                        : ta_fully_connected_s16(&p, &q, in, filter, has_bias ? bias : NULL,
                                                 got);
    long d = first_diff(got, expect, no * 2);
    if (s != TA_OK || d >= 0 || !canary_ok(got, no * 2 + 2)) {
      if (!bad)
        CHECK(0, "16x8 FULLY_CONNECTED%s random case %d (%d x %d -> %d) matches the "
              "reference: status %d, element %ld expected %d actual %d",
              acc32 ? " acc32" : "", k, (int)p.batches, (int)p.in_depth, (int)p.out_depth,
              s, d / 2, d >= 0 ? expect[d / 2] : 0, d >= 0 ? got[d / 2] : 0);
      bad++;
    }
    canary_free(in);
    canary_free(filter);
    canary_free(got);
    free(expect);
  }
  CHECK(bad == 0, "%d random 16x8 FULLY_CONNECTED%s cases match TFLite's reference loop "
        "(%d differ)", runs, acc32 ? " (int32 bias and sums)" : "", bad);
}

/* --------------------------------------------------------------- MUL */

/* MulElementwise (int16): MultiplyByQuantizedMultiplier(x1 * x2), clamp;
 * broadcasting through the same walk as ADD (checked below). */
static void test_mul(void) {
  int bad = 0;
  for (int k = 0; k < 200; k++) {
    ta_mul_params p = {0};
    p.multiplier = (int32_t)((1u << 30) + (ref_next() & 0x3fffffffu));
    p.shift = ref_rand(-31, 2);
    p.rounding = ref_rand(0, 1) ? TA_ROUND_SINGLE : TA_ROUND_DOUBLE;
    p.act_min = ref_rand(0, 3) == 0 ? ref_rand(-32768, 0) : -32768;
    p.act_max = ref_rand(0, 3) == 0 ? ref_rand(p.act_min, 32767) : 32767;
    int n = ref_rand(1, 64);
    int32_t shape[1] = {n};
    ta_bcast bc;
    int32_t oshape[TA_MAX_DIMS];
    int nd;
    if (!make_broadcast(shape, 1, shape, 1, &bc, oshape, &nd)) {
      bad++;
      continue;
    }
    int16_t a[64], b[64], expect[64];
    int16_t *got = canary_alloc(sizeof(int16_t) * 64);
    fill_s16(a, (size_t)n);
    fill_s16(b, (size_t)n);
    for (int i = 0; i < n; i++) {
      int32_t v = ref_mbqm((int32_t)a[i] * b[i], p.multiplier, p.shift, p.rounding);
      expect[i] = (int16_t)ref_clamp(v, p.act_min, p.act_max);
    }
    if (ta_mul_s16(&p, &bc, a, b, got) != TA_OK ||
        first_diff(got, expect, (size_t)n * 2) >= 0 || !canary_ok(got, sizeof(int16_t) * 64))
      bad++;
    canary_free(got);
  }
  ta_mul_params off = {.input1_offset = 1, .multiplier = 1 << 30};
  int32_t one[1] = {1};
  ta_bcast bc;
  int32_t oshape[TA_MAX_DIMS];
  int nd;
  int16_t x = 1, y = 1, z = 0;
  bool refused = make_broadcast(one, 1, one, 1, &bc, oshape, &nd) &&
                 ta_mul_s16(&off, &bc, &x, &y, &z) == TA_ERR_ARG;
  CHECK(bad == 0 && refused, "200 random int16 MULs equal MulElementwise, and a nonzero "
        "input offset is refused (%d differ, refused %d)", bad, (int)refused);
}

/* ------------------------------------------------------------ ADD, SUB */

static int16_t ref_add_sub(int16_t x1, int16_t x2, const ta_add_params *p, bool sub) {
  const int32_t input1_val = p->input1_offset + x1;
  const int32_t input2_val = p->input2_offset + x2;
  const int32_t shifted1 = input1_val * (1 << p->left_shift);
  const int32_t shifted2 = input2_val * (1 << p->left_shift);
  const int32_t scaled1 = ref_mbqm(shifted1, p->input1_multiplier, p->input1_shift,
                                   p->rounding);
  const int32_t scaled2 = ref_mbqm(shifted2, p->input2_multiplier, p->input2_shift,
                                   p->rounding);
  const int32_t raw = sub ? scaled1 - scaled2 : scaled1 + scaled2;
  const int32_t out = ref_mbqm(raw, p->output_multiplier, p->output_shift, p->rounding) +
                      p->output_offset;
  return (int16_t)ref_clamp(out, p->act_min, p->act_max);
}

/* Add(pot_scale) / Sub16: one input unshifted, the other divided by a
 * power of two, SaturatingAdd/Sub in int16, then the clamp. */
static int16_t ref_pot(int16_t x1, int16_t x2, const ta_add_params *p, bool sub) {
  int32_t a = ref_rdbpot(x1, -p->input1_shift), b = ref_rdbpot(x2, -p->input2_shift);
  int32_t s = ref_clamp(sub ? a - b : a + b, -32768, 32767);
  return (int16_t)ref_clamp(s, p->act_min, p->act_max);
}

static void random_add_params(ta_add_params *p, bool pot) {
  memset(p, 0, sizeof *p);
  p->act_min = ref_rand(0, 3) == 0 ? ref_rand(-32768, 0) : -32768;
  p->act_max = ref_rand(0, 3) == 0 ? ref_rand(p->act_min, 32767) : 32767;
  p->rounding = ref_rand(0, 1);
  if (pot) {
    int which = ref_rand(0, 1), s = -ref_rand(0, 15);
    p->input1_shift = which ? s : 0;
    p->input2_shift = which ? 0 : s;
    return;
  }
  p->left_shift = 15;
  p->input1_offset = ref_rand(0, 3) == 0 ? ref_rand(-100, 100) : 0;
  p->input2_offset = ref_rand(0, 3) == 0 ? ref_rand(-100, 100) : 0;
  p->output_offset = ref_rand(0, 3) == 0 ? ref_rand(-100, 100) : 0;
  /* The larger input has multiplier 0.5; the other and the output less. */
  p->input1_multiplier = 1 << 30;
  p->input1_shift = 0;
  p->input2_multiplier = (int32_t)((1u << 30) + (ref_next() & 0x3fffffffu));
  p->input2_shift = -ref_rand(1, 6);
  if (ref_rand(0, 1)) {
    int32_t m = p->input1_multiplier, s = p->input1_shift;
    p->input1_multiplier = p->input2_multiplier;
    p->input1_shift = p->input2_shift;
    p->input2_multiplier = m;
    p->input2_shift = s;
  }
  p->output_multiplier = (int32_t)((1u << 30) + (ref_next() & 0x3fffffffu));
  p->output_shift = -ref_rand(12, 16);
}

typedef ta_status (*binary_fn)(const ta_add_params *, const ta_bcast *, const int16_t *,
                               const int16_t *, int16_t *);

static void test_binary(const char *name, binary_fn fn, bool pot, bool sub) {
  enum { N = 4096 };
  int bad = 0;
  int16_t *x1 = canary_alloc(N * 2), *x2 = canary_alloc(N * 2), *out = canary_alloc(N * 2);
  for (int k = 0; k < 40; k++) {
    ta_add_params p;
    random_add_params(&p, pot);
    fill_s16(x1, N);
    fill_s16(x2, N);
    ta_bcast b = {.ndims = 1, .shape = {N}, .stride1 = {1}, .stride2 = {1}};
    if (fn(&p, &b, x1, x2, out) != TA_OK) {
      bad++;
      continue;
    }
    for (int i = 0; i < N; i++) {
      int16_t want = pot ? ref_pot(x1[i], x2[i], &p, sub) : ref_add_sub(x1[i], x2[i], &p, sub);
      if (out[i] != want) {
        if (!bad)
          printf("# %s: case %d element %d: %d, %d -> expected %d, actual %d\n", name, k, i,
                 x1[i], x2[i], want, out[i]);
        bad++;
        break;
      }
    }
  }
  bool canaries = canary_ok(x1, N * 2) && canary_ok(x2, N * 2) && canary_ok(out, N * 2);
  CHECK(bad == 0 && canaries, "%s equals TFLite's reference arithmetic on 40 x %d random "
        "pairs, both roundings (%d cases differ)", name, N, bad);

  /* Broadcast: in1 [2,1,3], in2 [1,4,1] -> [2,4,3]. */
  int16_t a[6], c[4], o[24];
  fill_s16(a, 6);
  fill_s16(c, 4);
  ta_bcast b;
  int32_t s1[3] = {2, 1, 3}, s2[3] = {1, 4, 1}, so[TA_MAX_DIMS];
  int nd;
  bool ok = make_broadcast(s1, 3, s2, 3, &b, so, &nd);
  ta_add_params p;
  random_add_params(&p, pot);
  ok = ok && fn(&p, &b, a, c, o) == TA_OK;
  for (int i = 0; i < 2 && ok; i++)
    for (int j = 0; j < 4 && ok; j++)
      for (int l = 0; l < 3 && ok; l++) {
        int16_t want = pot ? ref_pot(a[i * 3 + l], c[j], &p, sub)
                           : ref_add_sub(a[i * 3 + l], c[j], &p, sub);
        ok = o[(i * 4 + j) * 3 + l] == want;
      }
  CHECK(ok, "%s broadcasts [2,1,3] with [1,4,1] element by element", name);
  canary_free(x1);
  canary_free(x2);
  canary_free(out);
}

static void test_pot_values(void) {
  /* RoundingDivideByPOT rounds ties away from zero: -3 / 2 -> -2, 3 / 2 -> 2. */
  ta_add_params p = {.input1_shift = -1, .input2_shift = 0, .act_min = -32768,
                     .act_max = 32767};
  ta_bcast b = {.ndims = 1, .shape = {3}, .stride1 = {1}, .stride2 = {1}};
  int16_t x1[3] = {3, -3, 32767}, x2[3] = {0, 0, 32767}, o[3];
  ta_status s = ta_add_pot_s16(&p, &b, x1, x2, o);
  CHECK(s == TA_OK && o[0] == 2 && o[1] == -2 && o[2] == 32767,
        "power-of-two ADD: 3/2 + 0 = 2, -3/2 + 0 = -2, 16384 + 32767 saturates "
        "(got %d %d %d)", o[0], o[1], o[2]);
  int16_t y1[2] = {-32768, 5}, y2[2] = {32767, 7};
  ta_bcast b2 = {.ndims = 1, .shape = {2}, .stride1 = {1}, .stride2 = {1}};
  p.input1_shift = 0;
  s = ta_sub_pot_s16(&p, &b2, y1, y2, o);
  CHECK(s == TA_OK && o[0] == -32768 && o[1] == -2,
        "power-of-two SUB: -32768 - 32767 saturates, 5 - 7 = -2 (got %d %d)", o[0], o[1]);
  p.input1_shift = -16;
  CHECK(ta_add_pot_s16(&p, &b2, y1, y2, o) == TA_ERR_ARG,
        "a power-of-two shift beyond 15 is TA_ERR_ARG");
}

/* ---------------------------------------------------------- LEAKY_RELU */

static void test_leaky_relu(void) {
  enum { N = 4096 };
  int bad = 0;
  int16_t *in = canary_alloc(N * 2), *out = canary_alloc(N * 2);
  for (int k = 0; k < 40; k++) {
    ta_leaky_relu_params p = {.size = N, .rounding = ref_rand(0, 1)};
    p.input_zero_point = ref_rand(0, 3) == 0 ? ref_rand(-50, 50) : 0;
    p.output_zero_point = ref_rand(0, 3) == 0 ? ref_rand(-50, 50) : 0;
    p.multiplier_alpha = (int32_t)((1u << 30) + (ref_next() & 0x3fffffffu));
    p.shift_alpha = ref_rand(-4, 0);
    p.multiplier_identity = (int32_t)((1u << 30) + (ref_next() & 0x3fffffffu));
    p.shift_identity = ref_rand(-1, 1);
    fill_s16(in, N);
    if (ta_leaky_relu_s16(&p, in, out) != TA_OK) {
      bad++;
      continue;
    }
    for (int i = 0; i < N; i++) {
      int32_t x = in[i] - p.input_zero_point;
      int32_t v = x >= 0 ? ref_mbqm(x, p.multiplier_identity, p.shift_identity, p.rounding)
                         : ref_mbqm(x, p.multiplier_alpha, p.shift_alpha, p.rounding);
      int16_t want = (int16_t)ref_clamp(p.output_zero_point + v, -32768, 32767);
      if (out[i] != want) {
        bad++;
        break;
      }
    }
  }
  CHECK(bad == 0 && canary_ok(in, N * 2) && canary_ok(out, N * 2),
        "LEAKY_RELU int16 equals TFLite's QuantizeLeakyRelu on 40 x %d random values, both "
        "roundings (%d cases differ)", N, bad);
  canary_free(in);
  canary_free(out);
}

/* --------------------------------------------------------------- pools */

/* reference_integer_ops::AveragePool / MaxPool for int16, transliterated:
 * the window clipped in the loop bounds, Offset() indexing, channel
 * innermost in the output order. */
static void ref_pool_s16(bool avg, const ta_pool_params *p, const ta_dims *id,
                         const int16_t *in, const ta_dims *od, int16_t *out) {
  for (int b = 0; b < id->n; ++b)
    for (int out_y = 0; out_y < od->h; ++out_y)
      for (int out_x = 0; out_x < od->w; ++out_x)
        for (int c = 0; c < id->c; ++c) {
          const int in_x_origin = out_x * p->stride_w - p->pad_w;
          const int in_y_origin = out_y * p->stride_h - p->pad_h;
          const int fx_start = in_x_origin < 0 ? -in_x_origin : 0;
          const int fx_end =
              id->w - in_x_origin < p->filter_w ? id->w - in_x_origin : p->filter_w;
          const int fy_start = in_y_origin < 0 ? -in_y_origin : 0;
          const int fy_end =
              id->h - in_y_origin < p->filter_h ? id->h - in_y_origin : p->filter_h;
          int32_t acc = 0;
          int filter_count = 0;
          int16_t max = -32768;
          for (int fy = fy_start; fy < fy_end; ++fy)
            for (int fx = fx_start; fx < fx_end; ++fx) {
              const int16_t v = in[ref_offset(id, b, in_y_origin + fy, in_x_origin + fx, c)];
              acc += v;
              filter_count++;
              max = v > max ? v : max;
            }
          int32_t r = max;
          if (avg)
            r = acc > 0 ? (acc + filter_count / 2) / filter_count
                        : (acc - filter_count / 2) / filter_count;
          r = r > p->act_min ? r : p->act_min;
          r = r < p->act_max ? r : p->act_max;
          out[ref_offset(od, b, out_y, out_x, c)] = (int16_t)r;
        }
}

static void test_pools(void) {
  int bad = 0, n = 0;
  for (int k = 0; k < 300; k++) {
    ta_pool_params p;
    ta_dims id, od;
    if (!ref_random_pool(&p, &id, &od, -32768, 32767)) /* a RELU-like range now and then */
      continue;
    size_t ni = count(&id), no = count(&od);
    int16_t *in = canary_alloc(ni * 2), *out = canary_alloc(no * 2);
    int16_t *want = malloc(no * 2);
    fill_s16(in, ni);
    for (int avg = 0; avg < 2; avg++) {
      n++;
      ref_pool_s16(avg, &p, &id, in, &od, want);
      ta_status st = avg ? ta_avg_pool2d_s16(&p, &id, in, &od, out)
                         : ta_max_pool2d_s16(&p, &id, in, &od, out);
      long d = first_diff(out, want, no * 2);
      if (st != TA_OK || d >= 0 || !canary_ok(out, no * 2)) {
        if (!bad)
          CHECK(0, "%s pool int16 case %d matches the reference: byte %ld, status %d",
                avg ? "average" : "max", k, d, (int)st);
        bad++;
      }
    }
    canary_free(in);
    canary_free(out);
    free(want);
  }
  CHECK(bad == 0, "%d random AVERAGE_POOL_2D and MAX_POOL_2D int16 cases (SAME/VALID, "
                  "activation ranges) match TFLite's reference loops", n);
  /* Sums beyond int16 and ties: -3.5 -> -4, 3.5 -> 4 (away from zero). */
  const int16_t in[4] = {-32768, -32767, 32767, 32766};
  ta_pool_params p = {1, 2, 1, 2, 0, 0, -32768, 32767, 0, 0};
  ta_dims id = {1, 1, 2, 1}, od = {1, 1, 1, 1};
  int16_t o1 = 0, o2 = 0;
  ta_avg_pool2d_s16(&p, &id, in, &od, &o1);
  ta_avg_pool2d_s16(&p, &id, in + 2, &od, &o2);
  CHECK(o1 == -32768 && o2 == 32767,
        "the int16 average of extreme values rounds half away from zero without "
        "overflow: got %d and %d (expected -32768 and 32767)", o1, o2);
}

/* -------------------------------------------------------- RELU, RELU6 */

static void test_relu(void) {
  enum { N = 4096 };
  int bad = 0;
  int16_t *in = canary_alloc(N * 2), *out = canary_alloc(N * 2);
  for (int k = 0; k < 40; k++) {
    ta_relu_params p = {.size = N, .rounding = TA_ROUND_DOUBLE};
    p.multiplier = (int32_t)((1u << 30) + (ref_next() & 0x3fffffffu));
    p.shift = ref_rand(-3, 2);
    p.act_min = ref_rand(0, 1) ? 0 : ref_rand(-100, 100);
    p.act_max = ref_rand(0, 1) ? 32767 : ref_rand(p.act_min, 32767);
    fill_s16(in, N);
    bad += ta_relu_s16(&p, in, out) != TA_OK;
    for (int i = 0; i < N && !bad; i++) {
      /* ReluX: clamped = output_offset + MBQM(val - input_offset), then
       * max with the minimum, min with the maximum. */
      int32_t v = ref_mbqm(in[i], p.multiplier, p.shift, p.rounding);
      v = v > p.act_min ? v : p.act_min;
      v = v < p.act_max ? v : p.act_max;
      bad += out[i] != v;
    }
  }
  CHECK(bad == 0 && canary_ok(in, N * 2) && canary_ok(out, N * 2),
        "RELU/RELU6 int16 equals TFLite's ReluX on 40 x %d random values (%d cases differ)",
        N, bad);
  /* TFLite Micro's RELU6 (a clamp of the raw input) as the identity
   * multiplier: every int16 value passes unchanged inside the range. */
  static int16_t all[65536], got[65536];
  for (int i = 0; i < 65536; i++)
    all[i] = (int16_t)(i - 32768);
  ta_relu_params id = {.size = 65536, .multiplier = 1 << 30, .shift = 1,
                       .act_min = 0, .act_max = 24576, .rounding = TA_ROUND_DOUBLE};
  ta_relu_s16(&id, all, got);
  int diff = 0;
  for (int i = 0; i < 65536; i++)
    diff += got[i] != (all[i] < 0 ? 0 : all[i] > 24576 ? 24576 : all[i]);
  CHECK(diff == 0, "the identity multiplier (2^30, shift 1) clamps every int16 value "
                   "unchanged, as TFLite Micro's Relu6Quantized (%d differ)", diff);
  canary_free(in);
  canary_free(out);
}

/* ---------------------------------------------------- RESIZE_BILINEAR */

/* ComputeInterpolationValues (the integer one), transliterated. */
static void ref_interp10(int32_t value, int32_t scale_10, bool half, int32_t size,
                         int32_t *scaled, int32_t *lo, int32_t *hi) {
  *scaled = half ? value * scale_10 + scale_10 / 2 - (1 << 9) : value * scale_10;
  *lo = *scaled / (1 << 10) > 0 ? *scaled / (1 << 10) : 0;
  const int32_t up = (*scaled + (1 << 10) - 1) / (1 << 10);
  *hi = up < size - 1 ? up : size - 1;
}

/* ResizeBilinearInteger<int16_t> against ta_resize_bilinear_s16 (fed the
 * same source indices and fractions) on random sizes, the extreme int16
 * values included, both roundings (TFLITE_SINGLE_ROUNDING or not). */
static void test_resize_bilinear(void) {
  enum { MAXD = 12 };
  int bad = 0;
  for (int k = 0; k < 200; k++) {
    const int32_t ih = ref_rand(1, 6), iw = ref_rand(1, 6), c = ref_rand(1, 4);
    const int32_t oh = ref_rand(1, MAXD), ow = ref_rand(1, MAXD), nb = ref_rand(1, 2);
    const bool align = k % 3 == 1, half = k % 3 == 2;
    const int rounding = ref_rand(0, 1) ? TA_ROUND_SINGLE : TA_ROUND_DOUBLE;
    int32_t hs = ((1 << 10) * ih + oh / 2) / oh, ws = ((1 << 10) * iw + ow / 2) / ow;
    if (align && oh > 1)
      hs = ((1 << 10) * (ih - 1) + (oh - 1) / 2) / (oh - 1);
    if (align && ow > 1)
      ws = ((1 << 10) * (iw - 1) + (ow - 1) / 2) / (ow - 1);
    int32_t ylo[MAXD], yhi[MAXD], yf[MAXD], xlo[MAXD], xhi[MAXD], xf[MAXD], v;
    for (int32_t y = 0; y < oh; y++) {
      ref_interp10(y, hs, half, ih, &v, &ylo[y], &yhi[y]);
      yf[y] = v - (1 << 10) * ylo[y];
    }
    for (int32_t x = 0; x < ow; x++) {
      ref_interp10(x, ws, half, iw, &v, &xlo[x], &xhi[x]);
      xf[x] = v - (1 << 10) * xlo[x];
    }
    const ta_dims id = {nb, ih, iw, c}, od = {nb, oh, ow, c};
    size_t ni = count(&id), no = count(&od);
    int16_t *in = canary_alloc(ni * 2), *out = canary_alloc(no * 2), *want = malloc(no * 2);
    fill_s16(in, ni);
    in[0] = k % 2 ? -32768 : 32767;
    for (int b = 0; b < nb; ++b)
      for (int y = 0; y < oh; ++y) {
        int32_t input_y, y0, y1;
        ref_interp10(y, hs, half, ih, &input_y, &y0, &y1);
        for (int x = 0; x < ow; ++x) {
          int32_t input_x, x0, x1;
          ref_interp10(x, ws, half, iw, &input_x, &x0, &x1);
          for (int ch = 0; ch < c; ++ch) {
            const int64_t ll = (int64_t)in[ref_offset(&id, b, y0, x0, ch)] *
                               ((1 << 10) - (input_y - (1 << 10) * y0)) *
                               ((1 << 10) - (input_x - (1 << 10) * x0));
            const int64_t lu = (int64_t)in[ref_offset(&id, b, y1, x0, ch)] *
                               (input_y - (1 << 10) * y0) *
                               ((1 << 10) - (input_x - (1 << 10) * x0));
            const int64_t rl = (int64_t)in[ref_offset(&id, b, y0, x1, ch)] *
                               ((1 << 10) - (input_y - (1 << 10) * y0)) *
                               (input_x - (1 << 10) * x0);
            const int64_t ru = (int64_t)in[ref_offset(&id, b, y1, x1, ch)] *
                               (input_y - (1 << 10) * y0) * (input_x - (1 << 10) * x0);
            const int64_t o20 = ll + lu + rl + ru;
            int64_t r;
            if (rounding == TA_ROUND_SINGLE) { /* (o20 + 2^19) >> 20, as a floor */
              const int64_t t = o20 + (1 << 19);
              r = t / (1 << 20) - (t % (1 << 20) < 0);
            } else {
              r = (o20 + (o20 > 0 ? (1 << 19) : -(1 << 19))) / (1 << 20);
            }
            want[ref_offset(&od, b, y, x, ch)] = (int16_t)r;
          }
        }
      }
    ta_bilinear_params p = {.batches = nb, .in_h = ih, .in_w = iw, .depth = c, .out_h = oh,
                            .out_w = ow, .y_lo = ylo, .y_hi = yhi, .x_lo = xlo, .x_hi = xhi,
                            .y_frac = yf, .x_frac = xf, .rounding = rounding};
    ta_status st = ta_resize_bilinear_s16(&p, in, out);
    long d = first_diff(out, want, no * 2);
    if (st != TA_OK || d >= 0 || !canary_ok(out, no * 2)) {
      if (!bad)
        CHECK(0, "RESIZE_BILINEAR int16 case %d matches the reference: byte %ld, status %d",
              k, d, (int)st);
      bad++;
    }
    canary_free(in);
    canary_free(out);
    free(want);
  }
  CHECK(bad == 0, "200 random RESIZE_BILINEAR int16 cases (align_corners, "
                  "half_pixel_centers, both roundings) match ResizeBilinearInteger");
}

/* ------------------------------------------------------------ QUANTIZE */

static void test_requantize(void) {
  enum { N = 4096 };
  int bad = 0;
  int32_t *w = canary_alloc(N * 4);
  int16_t *h = canary_alloc(N * 2);
  for (int k = 0; k < 40; k++) {
    ta_requant_params p = {.size = N, .rounding = ref_rand(0, 1)};
    p.multiplier = (int32_t)((1u << 30) + (ref_next() & 0x3fffffffu));
    p.input_zero_point = ref_rand(0, 3) == 0 ? ref_rand(-50, 50) : 0;
    p.output_zero_point = ref_rand(0, 3) == 0 ? ref_rand(-50, 50) : 0;
    bool to16 = k % 2 == 0;
    if (to16) { /* int32 -> int16: the whole int32 range, scaled down */
      p.shift = -ref_rand(8, 20);
      for (int i = 0; i < N; i++)
        w[i] = (int32_t)ref_next();
      bad += ta_requantize_s32_s16(&p, w, h) != TA_OK;
      for (int i = 0; i < N && !bad; i++) {
        int32_t x = (int32_t)((uint32_t)w[i] - (uint32_t)p.input_zero_point);
        int32_t v = ref_mbqm(x, p.multiplier, p.shift, p.rounding) + p.output_zero_point;
        bad += h[i] != (int16_t)ref_clamp(v, -32768, 32767);
      }
    } else { /* int16 -> int32, scaled up */
      p.shift = ref_rand(0, 12);
      fill_s16(h, N);
      bad += ta_requantize_s16_s32(&p, h, w) != TA_OK;
      for (int i = 0; i < N && !bad; i++)
        bad += w[i] != ref_mbqm(h[i] - p.input_zero_point, p.multiplier, p.shift,
                                p.rounding) + p.output_zero_point;
    }
  }
  CHECK(bad == 0 && canary_ok(w, N * 4) && canary_ok(h, N * 2),
        "QUANTIZE int32 <-> int16 equals TFLite's Requantize on 40 x %d random values "
        "(%d differ)", N, bad);
  canary_free(w);
  canary_free(h);
}

int main(void) {
  test_requant64();
  test_conv_random(K_CONV, false);
  test_conv_random(K_TRANSPOSE, false);
  test_conv_random(K_DEPTHWISE, false);
  test_conv_random(K_CONV, true);
  test_conv_random(K_TRANSPOSE, true);
  test_fc_random(false);
  test_fc_random(true);
  test_mul();
  test_binary("ADD int16", ta_add_s16, false, false);
  test_binary("SUB int16", ta_sub_s16, false, true);
  test_binary("power-of-two ADD int16", ta_add_pot_s16, true, false);
  test_binary("power-of-two SUB int16", ta_sub_pot_s16, true, true);
  test_pot_values();
  test_leaky_relu();
  test_pools();
  test_relu();
  test_resize_bilinear();
  test_requantize();
  return test_exit();
}
