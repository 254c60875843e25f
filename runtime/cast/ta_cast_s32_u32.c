/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_cast_s32_u32 - CAST int32_t -> uint32_t (TFLM cast.cc: static_cast per element):
 * the same bits (negative values wrap).
 */
#include "ta_kernels.h"

ta_status ta_cast_s32_u32(int32_t n, const int32_t *in, uint32_t *out) {
  if (n < 0)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < n; i++) {
    const int32_t v = in[i];
    out[i] = (uint32_t)v;
  }
  return TA_OK;
}
