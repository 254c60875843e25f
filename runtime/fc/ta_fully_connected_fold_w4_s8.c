/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_fully_connected_fold_w4_s8 - int8 FULLY_CONNECTED whose filter
 * stays int4 in flash, packed two per byte (element 2i in the low nibble
 * of byte i, as the .tflite file stores it).  As TFLite Micro does
 * (fully_connected.cc with an int4 filter: UnpackDenseInt4IntoInt8 into
 * a scratch buffer, then the int8 kernel), each call unpacks the filter
 * into its scratch (ta_cast_s4_s8: 8..15 -> -8..-1) and runs
 * ta_fully_connected_fold_s8 on it: the same bytes as the int8 kernel on
 * the unpacked weights.
 */
#include "ta_kernels.h"

size_t ta_fully_connected_fold_w4_s8_scratch_size(const ta_fc_params *p) {
  if (p->in_depth < 0 || p->out_depth < 0)
    return 0;
  return (size_t)p->in_depth * (size_t)p->out_depth;
}

ta_status ta_fully_connected_fold_w4_s8(const ta_fc_params *p, const ta_quant *q,
                                        const int8_t *in, const uint8_t *filter,
                                        const int32_t *bias_fold, int8_t *out,
                                        void *scratch) {
  if (!scratch || p->in_depth < 0 || p->out_depth < 0)
    return TA_ERR_ARG;
  int8_t *w = (int8_t *)scratch;
  size_t n = (size_t)p->in_depth * (size_t)p->out_depth;
  if (n > (size_t)INT32_MAX || ta_cast_s4_s8((int32_t)n, filter, w) != TA_OK)
    return TA_ERR_ARG;
  return ta_fully_connected_fold_s8(p, q, in, w, bias_fold, out);
}
