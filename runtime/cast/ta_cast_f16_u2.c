/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_cast_f16_u2 - CAST float16 -> uint2 (packed four to a byte) (ONNX Cast; see minifloat.h).
 */
#include "ta_kernels.h"
#include "minifloat.h"

ta_status ta_cast_f16_u2(int32_t size, const void *in, void *out) {
  if (size < 0)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < size; i++) {
    const float x = ta_f16_bits_get(in, i);
    ta_code_put(out, 2, i, ta_to_u2(x));
  }
  return TA_OK;
}
