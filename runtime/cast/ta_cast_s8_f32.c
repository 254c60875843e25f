/*
 * ta_cast_s8_f32 - CAST int8_t -> float (TFLM cast.cc: static_cast per element):
 * exact.
 */
#include "ta_kernels.h"

ta_status ta_cast_s8_f32(int32_t n, const int8_t *in, float *out) {
  if (n < 0)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < n; i++) {
    const int8_t v = in[i];
    out[i] = (float)v;
  }
  return TA_OK;
}
