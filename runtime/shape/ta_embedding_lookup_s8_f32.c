/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_embedding_lookup_s8_f32 - EMBEDDING_LOOKUP's hybrid form: int8 rows
 * picked by int32 ids and dequantized into float32 with the value's
 * scale (TFLite Micro's embedding_lookup.cc EvalHybrid, whose Dequantize
 * computes (v - 0) * scale in float: one correctly rounded product, the
 * same as TFLite's v * (double)scale rounded to float, since an int8
 * times a float is exact in double).
 */
#include "ta_kernels.h"

ta_status ta_embedding_lookup_s8_f32(const ta_embedding_hybrid_params *p, const int8_t *value,
                                     const int32_t *ids, float *out) {
  if (p->rows < 0 || p->cols < 0 || p->nids < 0)
    return TA_ERR_ARG;
  const size_t cols = (size_t)p->cols;
  for (int32_t i = 0; i < p->nids; i++) {
    const int32_t id = ids[i];
    if (id < 0 || id >= p->rows)
      return TA_ERR_ARG;
    const int8_t *row = value + (size_t)id * cols;
    float *dst = out + (size_t)i * cols;
    for (size_t j = 0; j < cols; j++)
      dst[j] = (float)row[j] * p->scale;
  }
  return TA_OK;
}
