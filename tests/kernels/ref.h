/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ref.h - slow reference kernels for the kernel tests: line-by-line
 * transliterations of TensorFlow Lite's reference code (tflite-micro
 * tensorflow/lite/kernels/internal/reference/..., gemmlowp
 * fixedpoint.h), with TFLite's own loop order and Offset() indexing, the
 * bounds test inside the innermost tap loop, and its own fixed-point
 * helpers (nothing shared with runtime/).  The tests compare the fast
 * kernels against these on many random shapes and parameters; the
 * tables of values from TFLite's own unit tests check these and the
 * kernels directly.
 */
#ifndef TEST_REF_H
#define TEST_REF_H

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ta_types.h"
#include "tinyaot.h"

/* ------------------------------------------------ gemmlowp / common.h */

static inline int32_t ref_srdhm(int32_t a, int32_t b) {
  int overflow = a == b && a == INT32_MIN;
  int64_t ab = (int64_t)a * (int64_t)b;
  int32_t nudge = ab >= 0 ? (1 << 30) : (1 - (1 << 30));
  int32_t r = (int32_t)((ab + nudge) / (INT64_C(1) << 31));
  return overflow ? INT32_MAX : r;
}

static inline int32_t ref_rdbpot(int32_t x, int exponent) {
  int32_t mask = (int32_t)((INT64_C(1) << exponent) - 1);
  int32_t remainder = x & mask;
  int32_t threshold = (mask >> 1) + ((x < 0) ? 1 : 0);
  return (x >> exponent) + ((remainder > threshold) ? 1 : 0);
}

static inline int32_t ref_mbqm(int32_t x, int32_t m, int shift, int rounding) {
  if (rounding == TA_ROUND_SINGLE) {
    int64_t total_shift = 31 - shift;
    int64_t round = INT64_C(1) << (total_shift - 1);
    int64_t result = (int64_t)x * (int64_t)m + round;
    return (int32_t)(result >> total_shift);
  }
  int left_shift = shift > 0 ? shift : 0;
  int right_shift = shift > 0 ? 0 : -shift;
  return ref_rdbpot(ref_srdhm((int32_t)((uint32_t)x << left_shift), m), right_shift);
}

static inline int32_t ref_clamp(int32_t v, int32_t lo, int32_t hi) { return v < lo ? lo : v > hi ? hi : v; }

/* ------------------------------------------------------- ConvPerChannel */

static inline int ref_offset(const ta_dims *d, int n, int h, int w, int c) {
  return ((n * d->h + h) * d->w + w) * d->c + c;
}

static inline void ref_conv_s8(const ta_conv_params *p, const ta_quant *q, const ta_dims *id,
                        const int8_t *in, const ta_dims *fd, const int8_t *filter,
                        const int32_t *bias, const ta_dims *od, int8_t *out) {
  int groups = id->c / fd->c, filters_per_group = od->c / groups;
  for (int batch = 0; batch < id->n; ++batch)
    for (int out_y = 0; out_y < od->h; ++out_y) {
      int in_y_origin = out_y * p->stride_h - p->pad_h;
      for (int out_x = 0; out_x < od->w; ++out_x) {
        int in_x_origin = out_x * p->stride_w - p->pad_w;
        for (int oc = 0; oc < od->c; ++oc) {
          int group = oc / filters_per_group;
          int32_t acc = 0;
          for (int fy = 0; fy < fd->h; ++fy) {
            int in_y = in_y_origin + p->dilation_h * fy;
            for (int fx = 0; fx < fd->w; ++fx) {
              int in_x = in_x_origin + p->dilation_w * fx;
              int inside = in_x >= 0 && in_x < id->w && in_y >= 0 && in_y < id->h;
              if (!inside)
                continue;
              for (int ic = 0; ic < fd->c; ++ic) {
                int32_t iv = in[ref_offset(id, batch, in_y, in_x, ic + group * fd->c)];
                int32_t fv = filter[ref_offset(fd, oc, fy, fx, ic)];
                acc += fv * (iv + p->input_offset);
              }
            }
          }
          if (bias)
            acc += bias[oc];
          int ch = q->per_channel ? oc : 0;
          acc = ref_mbqm(acc, q->multiplier[ch], q->shift[ch], q->rounding);
          acc += p->output_offset;
          acc = ref_clamp(acc, p->act_min, p->act_max);
          out[ref_offset(od, batch, out_y, out_x, oc)] = (int8_t)acc;
        }
      }
    }
}

static inline void ref_dw_s8(const ta_conv_params *p, const ta_quant *q, const ta_dims *id,
                      const int8_t *in, const ta_dims *fd, const int8_t *filter,
                      const int32_t *bias, const ta_dims *od, int8_t *out) {
  for (int b = 0; b < id->n; ++b)
    for (int out_y = 0; out_y < od->h; ++out_y)
      for (int out_x = 0; out_x < od->w; ++out_x)
        for (int ic = 0; ic < id->c; ++ic)
          for (int m = 0; m < p->depth_multiplier; ++m) {
            int oc = m + ic * p->depth_multiplier;
            int in_x_origin = out_x * p->stride_w - p->pad_w;
            int in_y_origin = out_y * p->stride_h - p->pad_h;
            int32_t acc = 0;
            for (int fy = 0; fy < fd->h; ++fy)
              for (int fx = 0; fx < fd->w; ++fx) {
                int in_x = in_x_origin + p->dilation_w * fx;
                int in_y = in_y_origin + p->dilation_h * fy;
                if (in_x >= 0 && in_x < id->w && in_y >= 0 && in_y < id->h) {
                  int32_t iv = in[ref_offset(id, b, in_y, in_x, ic)];
                  int32_t fv = filter[ref_offset(fd, 0, fy, fx, oc)];
                  acc += fv * (iv + p->input_offset);
                }
              }
            if (bias)
              acc += bias[oc];
            int ch = q->per_channel ? oc : 0;
            acc = ref_mbqm(acc, q->multiplier[ch], q->shift[ch], q->rounding);
            acc += p->output_offset;
            acc = ref_clamp(acc, p->act_min, p->act_max);
            out[ref_offset(od, b, out_y, out_x, oc)] = (int8_t)acc;
          }
}

static inline void ref_fc_s8(const ta_fc_params *p, const ta_quant *q, const int8_t *in,
                      const int8_t *filter, const int32_t *bias, int8_t *out) {
  for (int b = 0; b < p->batches; ++b)
    for (int oc = 0; oc < p->out_depth; ++oc) {
      int32_t acc = 0;
      for (int d = 0; d < p->in_depth; ++d) {
        int32_t iv = in[b * p->in_depth + d];
        int32_t fv = filter[oc * p->in_depth + d];
        acc += (fv + p->filter_offset) * (iv + p->input_offset);
      }
      if (bias)
        acc += bias[oc];
      int ch = q->per_channel ? oc : 0;
      acc = ref_mbqm(acc, q->multiplier[ch], q->shift[ch], q->rounding);
      acc += p->output_offset;
      out[oc + p->out_depth * b] = (int8_t)ref_clamp(acc, p->act_min, p->act_max);
    }
}

/* --------------------------------------------------------------- pools */

static inline void ref_pool_s8(int avg, const ta_pool_params *p, const ta_dims *id, const int8_t *in,
                        const ta_dims *od, int8_t *out) {
  for (int b = 0; b < id->n; ++b)
    for (int out_y = 0; out_y < od->h; ++out_y)
      for (int out_x = 0; out_x < od->w; ++out_x)
        for (int c = 0; c < id->c; ++c) {
          int in_x_origin = out_x * p->stride_w - p->pad_w;
          int in_y_origin = out_y * p->stride_h - p->pad_h;
          int fx_start = in_x_origin < 0 ? -in_x_origin : 0;
          int fx_end = id->w - in_x_origin < p->filter_w ? id->w - in_x_origin : p->filter_w;
          int fy_start = in_y_origin < 0 ? -in_y_origin : 0;
          int fy_end = id->h - in_y_origin < p->filter_h ? id->h - in_y_origin : p->filter_h;
          int32_t acc = 0, count = 0, mx = -128;
          for (int fy = fy_start; fy < fy_end; ++fy)
            for (int fx = fx_start; fx < fx_end; ++fx) {
              int32_t v = in[ref_offset(id, b, in_y_origin + fy, in_x_origin + fx, c)];
              acc += v;
              mx = v > mx ? v : mx;
              count++;
            }
          int32_t r;
          if (avg)
            r = acc > 0 ? (acc + count / 2) / count : (acc - count / 2) / count;
          else
            r = mx;
          out[ref_offset(od, b, out_y, out_x, c)] = (int8_t)ref_clamp(r, p->act_min, p->act_max);
        }
}

/* ----------------------------------------------------------------- add */

/* AddFunc, or (sub) SubFunc: the same scaling, the difference. */
static inline int8_t ref_add_sub_func(int8_t x, int8_t y, const ta_add_params *p, int sub) {
  int32_t a = p->input1_offset + x, b = p->input2_offset + y;
  int32_t sa = a * (1 << p->left_shift), sb = b * (1 << p->left_shift);
  int32_t ra = ref_mbqm(sa, p->input1_multiplier, p->input1_shift, p->rounding);
  int32_t rb = ref_mbqm(sb, p->input2_multiplier, p->input2_shift, p->rounding);
  int32_t raw = ref_mbqm(sub ? ra - rb : ra + rb, p->output_multiplier, p->output_shift,
                         p->rounding) +
                p->output_offset;
  return (int8_t)ref_clamp(raw, p->act_min, p->act_max);
}

static inline int8_t ref_add_func(int8_t x, int8_t y, const ta_add_params *p) {
  return ref_add_sub_func(x, y, p, 0);
}

/* f(in1, in2, ctx) broadcast over explicit shapes of equal rank n (numpy
 * rules). */
static inline void ref_broadcast_s8(int n, const int32_t *s1, const int32_t *s2,
                                    const int8_t *in1, const int8_t *in2, int8_t *out,
                                    int8_t (*f)(int8_t, int8_t, const void *), const void *ctx) {
  int32_t so[TA_MAX_DIMS], idx[TA_MAX_DIMS];
  long total = 1;
  for (int d = 0; d < n; d++) {
    so[d] = s1[d] > s2[d] ? s1[d] : s2[d];
    total *= so[d];
    idx[d] = 0;
  }
  for (long i = 0; i < total; i++) {
    long o1 = 0, o2 = 0;
    for (int d = 0; d < n; d++) {
      o1 = o1 * s1[d] + (s1[d] == 1 ? 0 : idx[d]);
      o2 = o2 * s2[d] + (s2[d] == 1 ? 0 : idx[d]);
    }
    out[i] = f(in1[o1], in2[o2], ctx);
    for (int d = n - 1; d >= 0; d--) {
      if (++idx[d] < so[d])
        break;
      idx[d] = 0;
    }
  }
}

static inline int8_t ref_add_f(int8_t x, int8_t y, const void *p) {
  return ref_add_sub_func(x, y, (const ta_add_params *)p, 0);
}
static inline int8_t ref_sub_f(int8_t x, int8_t y, const void *p) {
  return ref_add_sub_func(x, y, (const ta_add_params *)p, 1);
}

/* Broadcast add (sub: subtract). */
static inline void ref_add_sub_s8(const ta_add_params *p, int n, const int32_t *s1,
                                  const int32_t *s2, const int8_t *in1, const int8_t *in2,
                                  int8_t *out, int sub) {
  ref_broadcast_s8(n, s1, s2, in1, in2, out, sub ? ref_sub_f : ref_add_f, p);
}

static inline void ref_add_s8(const ta_add_params *p, int n, const int32_t *s1, const int32_t *s2,
                              const int8_t *in1, const int8_t *in2, int8_t *out) {
  ref_add_sub_s8(p, n, s1, s2, in1, in2, out, 0);
}

/* ---------------------------------------------------------- random data */

static uint32_t ref_rng = 12345u;
static inline uint32_t ref_next(void) {
  uint32_t x = ref_rng;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return ref_rng = x;
}
static inline int32_t ref_rand(int32_t lo, int32_t hi) { /* inclusive */
  return lo + (int32_t)(ref_next() % (uint32_t)(hi - lo + 1));
}
static inline void ref_fill_s8(int8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    p[i] = (int8_t)ref_rand(-128, 127);
}

/* Random pooling parameters and shapes as the pool tests draw them: a
 * fused activation range inside [lo, hi] now and then; 0 (and nothing
 * more drawn) when the output would be empty. */
static inline int ref_random_pool(ta_pool_params *p, ta_dims *id, ta_dims *od, int32_t lo,
                                  int32_t hi) {
  memset(p, 0, sizeof *p);
  id->n = ref_rand(1, 2);
  id->h = ref_rand(1, 9);
  id->w = ref_rand(1, 9);
  id->c = ref_rand(1, 40);
  p->filter_h = ref_rand(1, 4);
  p->filter_w = ref_rand(1, 4);
  p->stride_h = ref_rand(1, 3);
  p->stride_w = ref_rand(1, 3);
  Padding pad = ref_rand(0, 1) ? PAD_SAME : PAD_VALID;
  compute_padding(pad, id->h, p->filter_h, p->stride_h, 1, &od->h, &p->pad_h);
  compute_padding(pad, id->w, p->filter_w, p->stride_w, 1, &od->w, &p->pad_w);
  if (od->h < 1 || od->w < 1)
    return 0;
  od->n = id->n;
  od->c = id->c;
  p->act_min = ref_rand(0, 2) ? lo : ref_rand(lo, 0);
  p->act_max = ref_rand(0, 2) ? hi : ref_rand(p->act_min, hi);
  return 1;
}

/* ------------------------------------------------------------- canaries */

/* A buffer of n bytes with 64 canary bytes on each side. */
#define CANARY 64
#define CANARY_BYTE 0xA5
static inline void *canary_alloc(size_t n) {
  unsigned char *b = malloc(n + 2 * CANARY);
  memset(b, CANARY_BYTE, n + 2 * CANARY);
  return b + CANARY;
}
static inline int canary_ok(void *p, size_t n) {
  unsigned char *b = (unsigned char *)p - CANARY;
  for (size_t i = 0; i < CANARY; i++)
    if (b[i] != CANARY_BYTE || b[CANARY + n + i] != CANARY_BYTE)
      return 0;
  return 1;
}
static inline void canary_free(void *p) {
  if (p)
    free((unsigned char *)p - CANARY);
}

/* Index of the first differing byte, or -1. */
static inline long first_diff(const void *a, const void *b, size_t n) {
  const unsigned char *x = a, *y = b;
  for (size_t i = 0; i < n; i++)
    if (x[i] != y[i])
      return (long)i;
  return -1;
}

#endif
