/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_conv2d_ort_f32_s8 - an int8 convolution that ONNX Runtime computes
 * in float32 (--rounding onnxruntime): a QDQ Conv group its x86 build
 * does not fuse into QLinearConv, so it dequantizes the input, runs its
 * float convolution (MLAS's MlasConv, one thread) and quantizes the
 * result.  The bytes depend on the order of the float sums, which this
 * kernel reproduces.
 *
 * Per output value of group g (filters of K = cg x kh x kw taps, in the
 * order channel, filter row, filter column; a tap outside the input reads
 * 0, as MLAS's im2col writes it):
 *   x(k) = (float)(input + input_offset) * in_scale   (DequantizeLinear)
 *   the taps in blocks of f->stride_k (MLAS's K slices), c = 0 (or the
 *   bias, f->bias_first) and per block c = c + s, where s is
 *     - the general GEMM kernel: fmaf(w(k), x(k), s) in tap order from 0;
 *     - f->m1 == 1 (MLAS's one-filter kernel, SgemmKernelM1Avx): the
 *       products w(k) * x(k) summed four at a time (((p0 + p1) + p2) +
 *       p3), then two, then one, each partial sum added to c as it is
 *       formed;
 *     - f->m1 == 2 (MLAS's transposed one-row kernel, one output pixel
 *       or a one-row Gemm with transB): eight lanes of products, lane j
 *       summing taps j, j + 8, ..., reduced as transposed_sum() says;
 *   v = c + bias (v = c when the bias came first), clamped to
 *   [act_min_f32, act_max_f32] (the fused Relu
 *   or Clip), then QuantizeLinear: v / out_scale clamped to the int8
 *   range less the zero point, rounded half to even, plus the zero point.
 *
 * filter: float32 weights [out_c][cg][kh][kw] (the dequantized int8
 * weights, laid out by the compiler in tap order); filter_dims holds
 * {out_c, kh, kw, cg}.  Groups = in_c / cg, out_c / groups filters each
 * (a depthwise convolution: cg = 1).  bias: float32 [out_c].  No scratch.
 * A Gemm or MatMul of rows x K runs as a 1x1 convolution over a 1 x rows
 * image (the compiler's lower_fc_ort_float()).
 */
#include "ta_kernels.h"
#include "ta_fixedpoint.h"

#include <math.h>

/* w * x rounded to float on its own: never fused with the sum it goes
 * into (a compiler contracting a + w * x into one FMA, as -ffp-contract
 * allows, would change the bytes). */
static float product(float w, float x) {
  volatile float r = w * x;
  return r;
}

/* MLAS's transposed one-row kernel (SgemmKernelM1TransposeBAvx): the
 * eight lanes of one row's dot product (lane j: the taps j, j + 8, ...
 * of the slice, each product added in turn), added up as that kernel
 * does for the block of rows `row` falls in: rows go four at a time,
 * then two, then one. */
static float transposed_sum(const float *a, int32_t row, int32_t rows) {
  const int32_t four = rows - rows % 4;
  if (row < four) /* the 4 x 1 block: each half left to right, then the halves */
    return (((a[0] + a[1]) + a[2]) + a[3]) + (((a[4] + a[5]) + a[6]) + a[7]);
  if ((rows % 4) >= 2 && row < four + 2) /* the 2 x 1 block */
    return ((a[0] + a[2]) + (a[4] + a[6])) + ((a[1] + a[3]) + (a[5] + a[7]));
  return ((a[0] + a[1]) + (a[2] + a[3])) + ((a[4] + a[5]) + (a[6] + a[7])); /* 1 x 1 */
}

/* One output value's window: where its taps are read. */
typedef struct {
  const ta_conv_params *p;
  const ta_dims *di;
  const int8_t *in;
  float in_scale;
  int32_t b, y0, x0, c0; /* image, top-left input pixel, group's first channel */
  int32_t khw, kw;
} window;

/* Tap k of the window, dequantized: (float)(x + input_offset) * in_scale,
 * or 0 outside the input (MLAS's im2col writes 0 there). */
static float tap(const window *q, int32_t k) {
  const int32_t c = q->c0 + k / q->khw, ky = (k % q->khw) / q->kw, kx = k % q->kw;
  const int32_t iy = q->y0 + ky * q->p->dilation_h, ix = q->x0 + kx * q->p->dilation_w;
  if (iy < 0 || iy >= q->di->h || ix < 0 || ix >= q->di->w)
    return 0.0f;
  const size_t pixel = ((size_t)q->b * (size_t)q->di->h + (size_t)iy) * (size_t)q->di->w +
                       (size_t)ix;
  const int8_t v = q->in[pixel * (size_t)q->di->c + (size_t)c];
  return (float)((int32_t)v + q->p->input_offset) * q->in_scale;
}

/* The sum of taps [k0, end) of filter row w, added to c, as f->m1 says
 * (the file's comment). */
static float slice_sum(const ta_conv_ort_params *f, const window *q, const float *w, int32_t k0,
                       int32_t end, int32_t row, int32_t rows, float c) {
  int32_t k = k0;
  if (f->m1 == 2) {
    float lane[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (; k < end; k++)
      lane[(k - k0) % 8] += product(w[k], tap(q, k));
    return transposed_sum(lane, row, rows) + c;
  }
  if (f->m1) {
    for (; end - k >= 4; k += 4) {
      float s = product(w[k], tap(q, k));
      s = s + product(w[k + 1], tap(q, k + 1));
      s = s + product(w[k + 2], tap(q, k + 2));
      s = s + product(w[k + 3], tap(q, k + 3));
      c = s + c;
    }
    if (end - k >= 2) {
      c = (product(w[k], tap(q, k)) + product(w[k + 1], tap(q, k + 1))) + c;
      k += 2;
    }
    return k < end ? product(w[k], tap(q, k)) + c : c;
  }
  float s = 0.0f;
  for (; k < end; k++)
    s = fmaf(w[k], tap(q, k), s);
  return c + s;
}

ta_status ta_conv2d_ort_f32_s8(const ta_conv_params *p, const ta_conv_ort_params *f,
                               const ta_dims *in_dims, const int8_t *in,
                               const ta_dims *filter_dims, const float *filter,
                               const float *bias, const ta_dims *out_dims, int8_t *out) {
  const int32_t cg = filter_dims->c, kh = filter_dims->h, kw = filter_dims->w;
  if (cg <= 0 || in_dims->c % cg || filter_dims->n != out_dims->c || f->stride_k <= 0)
    return TA_ERR_ARG;
  const int32_t groups = in_dims->c / cg;
  if (groups <= 0 || out_dims->c % groups)
    return TA_ERR_ARG;
  const int32_t per_group = out_dims->c / groups, K = cg * kh * kw;
  const float lo = (float)(-128 - p->output_offset), hi = (float)(127 - p->output_offset);
  window q = {.p = p, .di = in_dims, .in = in, .in_scale = f->in_scale, .khw = kh * kw, .kw = kw};
  int8_t *o = out;
  for (q.b = 0; q.b < out_dims->n; q.b++)
    for (int32_t oy = 0; oy < out_dims->h; oy++)
      for (int32_t ox = 0; ox < out_dims->w; ox++) {
        q.y0 = oy * p->stride_h - p->pad_h;
        q.x0 = ox * p->stride_w - p->pad_w;
        for (int32_t oc = 0; oc < out_dims->c; oc++) {
          q.c0 = (oc / per_group) * cg;
          const float *w = filter + (size_t)oc * (size_t)K;
          float c = f->bias_first ? bias[oc] : 0.0f;
          for (int32_t k0 = 0; k0 < K; k0 += f->stride_k)
            c = slice_sum(f, &q, w, k0, K - k0 < f->stride_k ? K : k0 + f->stride_k,
                          oc % per_group, per_group, c);
          float v = f->bias_first ? c : c + bias[oc];
          v = v < p->act_min_f32 ? p->act_min_f32 : v;
          v = v > p->act_max_f32 ? p->act_max_f32 : v;
          float r = v / f->out_scale;
          r = r < lo ? lo : r;
          r = r > hi ? hi : r;
          *o++ = (int8_t)(ta_round_even_f32(r) + p->output_offset);
        }
      }
  return TA_OK;
}
