/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_cast_f16_f32 - CAST f16 -> f32 (ONNX Cast; exact; see cast.h).
 * float16 elements are their 16 bits, passed as bytes.
 */
#include "ta_kernels.h"
#include "cast.h"

ta_status ta_cast_f16_f32(int32_t size, const void *in, float *out) {
  if (size < 0)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < size; i++) {
    uint16_t h;
    memcpy(&h, (const unsigned char *)in + 2 * (size_t)i, 2);
    out[i] = ta_f16_to_f32(h);
  }
  return TA_OK;
}
