/*
 * ta_cast_s32_f32 - CAST int32_t -> float (TFLM cast.cc: static_cast per element):
 * rounded to nearest.
 */
#include "ta_kernels.h"

ta_status ta_cast_s32_f32(int32_t n, const int32_t *in, float *out) {
  if (n < 0)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < n; i++) {
    const int32_t v = in[i];
    out[i] = (float)v;
  }
  return TA_OK;
}
