/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_cast_u32_s32 - CAST uint32_t -> int32_t (TFLM cast.cc: static_cast per element):
 * the same bits (values from 2^31 wrap to negative).
 */
#include "ta_kernels.h"

ta_status ta_cast_u32_s32(int32_t n, const uint32_t *in, int32_t *out) {
  if (n < 0)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < n; i++) {
    const uint32_t v = in[i];
    out[i] = (int32_t)(v >= 0x80000000u ? (int64_t)v - 0x100000000LL : (int64_t)v);
  }
  return TA_OK;
}
