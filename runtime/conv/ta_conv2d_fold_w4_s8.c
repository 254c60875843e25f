/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_conv2d_fold_w4_s8 - int8 CONV_2D whose filter stays int4 in flash,
 * packed two per byte (element 2i in the low nibble of byte i, as the
 * .tflite file stores it).  As TFLite Micro does (conv.cc with an int4
 * filter: UnpackDenseInt4IntoInt8 into a scratch buffer, then the int8
 * kernel), each call first unpacks the filter into the front of its
 * scratch (ta_cast_s4_s8: each nibble sign-extended, 8..15 -> -8..-1),
 * then runs
 * ta_conv2d_fold_s8 on it with the rest of the scratch: the same bytes
 * as the int8 kernel on the unpacked weights.
 */
#include "ta_kernels.h"

/* The unpacked filter's bytes, rounded up to 4 (the int8 kernel's own
 * scratch follows, 4-byte aligned when the whole scratch is). */
static size_t unpacked_bytes(const ta_dims *f) {
  size_t n = (size_t)f->n * (size_t)f->h * (size_t)f->w * (size_t)f->c;
  return (n + 3) & ~(size_t)3;
}

size_t ta_conv2d_fold_w4_s8_scratch_size(const ta_conv_params *p, const ta_dims *in_dims,
                                         const ta_dims *filter_dims,
                                         const ta_dims *out_dims) {
  if (filter_dims->n < 0 || filter_dims->h < 0 || filter_dims->w < 0 || filter_dims->c < 0)
    return 0;
  return unpacked_bytes(filter_dims) +
         ta_conv2d_fold_s8_scratch_size(p, in_dims, filter_dims, out_dims);
}

ta_status ta_conv2d_fold_w4_s8(const ta_conv_params *p, const ta_quant *q,
                               const ta_dims *in_dims, const int8_t *in,
                               const ta_dims *filter_dims, const uint8_t *filter,
                               const int32_t *bias_fold,
                               const ta_dims *out_dims, int8_t *out, void *scratch) {
  if (!scratch || filter_dims->n < 0 || filter_dims->h < 0 || filter_dims->w < 0 ||
      filter_dims->c < 0)
    return TA_ERR_ARG;
  int8_t *w = (int8_t *)scratch;
  size_t n = (size_t)filter_dims->n * (size_t)filter_dims->h * (size_t)filter_dims->w *
             (size_t)filter_dims->c;
  if (n > (size_t)INT32_MAX || ta_cast_s4_s8((int32_t)n, filter, w) != TA_OK)
    return TA_ERR_ARG;
  return ta_conv2d_fold_s8(p, q, in_dims, in, filter_dims, w, bias_fold, out_dims, out,
                           (uint8_t *)scratch + unpacked_bytes(filter_dims));
}
