/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_cast_f16_e5m2 - CAST float16 -> float8e5m2 (ONNX Cast; see minifloat.h).
 */
#include "ta_kernels.h"
#include "minifloat.h"

ta_status ta_cast_f16_e5m2(int32_t size, int32_t saturate, const void *in, void *out) {
  if (size < 0)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < size; i++) {
    const float x = ta_f16_bits_get(in, i);
    ta_code_put(out, 8, i, ta_to_e5m2(x, saturate != 0));
  }
  return TA_OK;
}
