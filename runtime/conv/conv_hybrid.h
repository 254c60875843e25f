/* SPDX-License-Identifier: Apache-2.0 */
/*
 * conv_hybrid.h - the frame of the "hybrid" (dynamic-range) convolution
 * kernels of this folder (private to runtime/conv/): float input quantized
 * one batch at a time into the scratch (ta_hybrid.h), then an int8 sum
 * per output.
 */
#ifndef TA_CONV_HYBRID_H
#define TA_CONV_HYBRID_H

#include "ta_hybrid.h"
#include "ta_types.h"
#include "conv_common.h"

/* The scratch of every hybrid convolution: the quantized input of one
 * batch. */
static inline size_t ta_conv_hybrid_scratch_size(const ta_conv_params *p,
                                                 const ta_dims *in_dims,
                                                 const ta_dims *filter_dims,
                                                 const ta_dims *out_dims) {
  (void)p;
  (void)filter_dims;
  (void)out_dims;
  return (size_t)in_dims->h * (size_t)in_dims->w * (size_t)in_dims->c;
}

/*
 * The batches b of a hybrid convolution: declares the dimensions H, W, C,
 * KH, KW, OH, OW, OC (from in_dims, filter_dims, out_dims) that
 * TA_CONV_PIXELS needs, quantizes each batch of in into q (the scratch)
 * with its factor and, when asymmetric (a constant), its offset
 * (AsymmetricQuantizeFloats; else SymmetricQuantizeFloats, offset 0),
 * then runs the statements given.  The caller is TA_FP_STRICT.
 */
#define TA_CONV_HYBRID_BATCHES(asymmetric, ...)                                  \
  const int32_t H = in_dims->h, W = in_dims->w, C = in_dims->c;                  \
  const int32_t KH = filter_dims->h, KW = filter_dims->w;                        \
  const int32_t OH = out_dims->h, OW = out_dims->w, OC = out_dims->c;            \
  const size_t n = (size_t)H * (size_t)W * (size_t)C;                            \
  int8_t *q = (int8_t *)scratch;                                                 \
  for (int32_t b = 0; b < in_dims->n; b++) {                                     \
    float factor;                                                                \
    int32_t offset = 0;                                                          \
    if (asymmetric)                                                              \
      ta_hybrid_quantize_asymmetric(in + (size_t)b * n, n, q, &factor, &offset); \
    else                                                                         \
      ta_hybrid_quantize_symmetric(in + (size_t)b * n, n, q, &factor);           \
    __VA_ARGS__                                                                  \
  }

#endif
