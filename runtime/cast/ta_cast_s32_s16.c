/*
 * ta_cast_s32_s16 - CAST int32_t -> int16_t (TFLM cast.cc: static_cast per element):
 * the low 16 bits, two's complement.
 */
#include "ta_kernels.h"

ta_status ta_cast_s32_s16(int32_t n, const int32_t *in, int16_t *out) {
  if (n < 0)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < n; i++) {
    const int32_t v = in[i];
    out[i] = (int16_t)(((uint32_t)v & 0xffffu) >= 0x8000u ? (int32_t)((uint32_t)v & 0xffffu) - 0x10000 : (int32_t)((uint32_t)v & 0xffffu));
  }
  return TA_OK;
}
