/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_cast_f16_e2m1 - CAST float16 -> float4e2m1 (packed two to a byte) (ONNX Cast; see minifloat.h).
 */
#include "ta_kernels.h"
#include "minifloat.h"

ta_status ta_cast_f16_e2m1(int32_t size, const void *in, void *out) {
  if (size < 0)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < size; i++) {
    const float x = ta_f16_bits_get(in, i);
    ta_code_put(out, 4, i, ta_to_e2m1(x));
  }
  return TA_OK;
}
