/* SPDX-License-Identifier: Apache-2.0 */
/*
 * conv_x8.h - the loops shared by the reference int8 convolutions and fully
 * connected layers and their legacy uint8 counterparts (private to
 * runtime/conv/ and runtime/fc/).
 *
 * The two formats differ in the element type T of input, filter and output
 * and in the filter offset: int8 filters are symmetric (offset 0), uint8
 * filters carry one.  Every body below is written for both: the kernel
 * passes T and the offset expression (a literal 0 for int8, so the
 * compiler folds it away and the inner loops stay those of the int8
 * reference).  The requantization is the same in both formats: with
 * q->per_channel each output channel has its multiplier and shift,
 * otherwise channel 0's apply to all (the uint8 format is per tensor).
 */
#ifndef TA_CONV_X8_H
#define TA_CONV_X8_H

#include <string.h>

#include "ta_fixedpoint.h"
#include "ta_types.h"
#include "conv_common.h"

/* Stores output channel oc's value, from its int32 sum (bias included), to
 * the T lvalue DST: clamp(requant(acc, q, oc) + output_offset, act_min,
 * act_max), q and p (a ta_conv_params or ta_fc_params) the caller's. */
#define TA_X8_STORE(DST, T, ACC, OC)                                             \
  do {                                                                           \
    const int32_t ch_ = q->per_channel ? (OC) : 0;                               \
    const int32_t v_ = ta_requant((ACC), q->multiplier[ch_], q->shift[ch_],      \
                                  q->rounding) + p->output_offset;               \
    (DST) = (T)ta_clamp_i32(v_, p->act_min, p->act_max);                         \
  } while (0)

/*
 * The kernel bodies.  Each is used as one statement in a function that has
 * the arguments of ta_conv2d_s8 (p, q, in_dims, in, filter_dims, filter,
 * bias, out_dims, out; plus scratch for the TRANSPOSE_CONV body) or, for
 * TA_FULLY_CONNECTED_X8, of ta_fully_connected_s8 (p, q, in, filter, bias,
 * out), and has checked them (the TRANSPOSE_CONV body checks its own); the
 * statement returns TA_OK.  FOFF is the filter offset, evaluated in the
 * inner loop.
 */

/* CONV_2D, grouped when the filter has fewer channels (FC) than the input
 * (never for uint8): per tap the inner loop is a dot product over the
 * group's contiguous channels. */
#define TA_CONV2D_X8(T, FOFF)                                                    \
  do {                                                                           \
    const int32_t H = in_dims->h, W = in_dims->w, C = in_dims->c;                \
    const int32_t KH = filter_dims->h, KW = filter_dims->w, FC = filter_dims->c; \
    const int32_t OH = out_dims->h, OW = out_dims->w, OC = out_dims->c;          \
    const int32_t groups = C / FC, per_group = OC / groups;                      \
    const int32_t in_off = p->input_offset;                                      \
    const int32_t tap_stride = KW * FC; /* filter elements per filter row */     \
    const int32_t oc_stride = KH * tap_stride;                                   \
    for (int32_t b = 0; b < in_dims->n; b++) {                                   \
      const T *in_b = in + (size_t)b * (size_t)H * (size_t)W * (size_t)C;        \
      TA_CONV_PIXELS(T, {                                                        \
        for (int32_t g = 0; g < groups; g++) {                                   \
          for (int32_t oc = g * per_group; oc < (g + 1) * per_group; oc++) {     \
            const T *w_oc = filter + (size_t)oc * (size_t)oc_stride;             \
            int32_t acc = 0;                                                     \
            TA_CONV_TAPS({                                                       \
              const T *xp = in_b + ((size_t)iy * (size_t)W + (size_t)ix) * (size_t)C + (size_t)g * (size_t)FC; \
              const T *wp = w_oc + ky * tap_stride + kx * FC;                    \
              for (int32_t ic = 0; ic < FC; ic++)                                \
                acc += ((int32_t)wp[ic] + (FOFF)) * ((int32_t)xp[ic] + in_off);  \
            })                                                                   \
            if (bias)                                                            \
              acc += bias[oc];                                                   \
            TA_X8_STORE(o[oc], T, acc, oc);                                      \
          }                                                                      \
        }                                                                        \
      })                                                                         \
    }                                                                            \
    return TA_OK;                                                                \
  } while (0)

/*
 * TRANSPOSE_CONV, TFLite's scatter form: every input element adds
 * (in + input_offset) * (filter[oc][ky][kx][ic] + FOFF) to the int32
 * accumulator (in scratch, one per output element) of output
 * (iy * stride_h - pad_h + ky, ix * stride_w - pad_w + kx, oc) when that
 * lies inside the output; then each accumulator gets its bias, the
 * requantization and the clamp.  The body checks its arguments itself
 * (TA_ERR_ARG).  ta_transpose_x8_scratch is the scratch size in bytes.
 */
static inline size_t ta_transpose_x8_scratch(const ta_dims *out_dims) {
  return (size_t)out_dims->n * (size_t)out_dims->h * (size_t)out_dims->w * (size_t)out_dims->c * sizeof(int32_t);
}

#define TA_TRANSPOSE_CONV_X8(T, FOFF)                                            \
  do {                                                                           \
    if (p->stride_h < 1 || p->stride_w < 1 || filter_dims->c != in_dims->c ||    \
        filter_dims->n != out_dims->c || out_dims->n != in_dims->n || !scratch)  \
      return TA_ERR_ARG;                                                         \
    const int32_t H = in_dims->h, W = in_dims->w, C = in_dims->c;                \
    const int32_t KH = filter_dims->h, KW = filter_dims->w, OC = out_dims->c;    \
    const int32_t OH = out_dims->h, OW = out_dims->w;                            \
    int32_t *acc = (int32_t *)scratch;                                           \
    const size_t nout = (size_t)out_dims->n * (size_t)OH * (size_t)OW * (size_t)OC; \
    memset(acc, 0, nout * sizeof(int32_t));                                      \
    for (int32_t b = 0; b < in_dims->n; b++)                                     \
      for (int32_t iy = 0; iy < H; iy++)                                         \
        for (int32_t ix = 0; ix < W; ix++) {                                     \
          const T *x = in + (((size_t)b * (size_t)H + (size_t)iy) * (size_t)W + (size_t)ix) * (size_t)C; \
          for (int32_t ky = 0; ky < KH; ky++) {                                  \
            const int32_t oy = iy * p->stride_h - p->pad_h + ky;                 \
            if (oy < 0 || oy >= OH)                                              \
              continue;                                                          \
            for (int32_t kx = 0; kx < KW; kx++) {                                \
              const int32_t ox = ix * p->stride_w - p->pad_w + kx;               \
              if (ox < 0 || ox >= OW)                                            \
                continue;                                                        \
              int32_t *a = acc + (((size_t)b * (size_t)OH + (size_t)oy) * (size_t)OW + (size_t)ox) * (size_t)OC; \
              for (int32_t oc = 0; oc < OC; oc++) {                              \
                const T *w = filter + (((size_t)oc * (size_t)KH + (size_t)ky) * (size_t)KW + (size_t)kx) * (size_t)C; \
                int32_t s = 0;                                                   \
                for (int32_t ic = 0; ic < C; ic++)                               \
                  s += ((int32_t)x[ic] + p->input_offset) * ((int32_t)w[ic] + (FOFF)); \
                a[oc] += s;                                                      \
              }                                                                  \
            }                                                                    \
          }                                                                      \
        }                                                                        \
    for (size_t i = 0; i < nout; i++) {                                          \
      const int32_t oc = (int32_t)(i % (size_t)OC);                              \
      TA_X8_STORE(out[i], T, acc[i] + (bias ? bias[oc] : 0), oc);                \
    }                                                                            \
    return TA_OK;                                                                \
  } while (0)

/* FULLY_CONNECTED: out[b][o] from the sum over i of
 * (filter[o][i] + filter_offset) * (in[b][i] + input_offset), plus bias. */
#define TA_FULLY_CONNECTED_X8(T)                                                 \
  do {                                                                           \
    const int32_t B = p->batches, D = p->in_depth, O = p->out_depth;             \
    const int32_t in_off = p->input_offset, f_off = p->filter_offset;            \
    for (int32_t b = 0; b < B; b++) {                                            \
      const T *x = in + (size_t)b * (size_t)D;                                   \
      for (int32_t o = 0; o < O; o++) {                                          \
        const T *w = filter + (size_t)o * (size_t)D;                             \
        int32_t acc = 0;                                                         \
        for (int32_t i = 0; i < D; i++)                                          \
          acc += ((int32_t)w[i] + f_off) * ((int32_t)x[i] + in_off);             \
        if (bias)                                                                \
          acc += bias[o];                                                        \
        TA_X8_STORE(out[(size_t)b * (size_t)O + (size_t)o], T, acc, o);          \
      }                                                                          \
    }                                                                            \
    return TA_OK;                                                                \
  } while (0)

#endif
