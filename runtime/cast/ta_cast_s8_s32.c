/*
 * ta_cast_s8_s32 - CAST int8_t -> int32_t (TFLM cast.cc: static_cast per element):
 * sign extension.
 */
#include "ta_kernels.h"

ta_status ta_cast_s8_s32(int32_t n, const int8_t *in, int32_t *out) {
  if (n < 0)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < n; i++) {
    const int8_t v = in[i];
    out[i] = (int32_t)v;
  }
  return TA_OK;
}
