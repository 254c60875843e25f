/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_cast_f32_f16 - CAST f32 -> f16 (ONNX Cast; to nearest, ties to even; see cast.h).
 * float16 elements are their 16 bits, passed as bytes.
 */
#include "ta_kernels.h"
#include "cast.h"

ta_status ta_cast_f32_f16(int32_t size, const float *in, void *out) {
  if (size < 0)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < size; i++) {
    const uint16_t h = ta_f64_to_f16((double)in[i]);
    memcpy((unsigned char *)out + 2 * (size_t)i, &h, 2);
  }
  return TA_OK;
}
