/*
 * ta_cast_s32_s8 - CAST int32_t -> int8_t (TFLM cast.cc: static_cast per element):
 * the low 8 bits, two's complement (as static_cast).
 */
#include "ta_kernels.h"

ta_status ta_cast_s32_s8(int32_t n, const int32_t *in, int8_t *out) {
  if (n < 0)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < n; i++) {
    const int32_t v = in[i];
    out[i] = (int8_t)(((uint32_t)v & 0xffu) >= 0x80u ? (int32_t)((uint32_t)v & 0xffu) - 0x100 : (int32_t)((uint32_t)v & 0xffu));
  }
  return TA_OK;
}
