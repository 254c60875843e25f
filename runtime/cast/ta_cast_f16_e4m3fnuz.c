/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_cast_f16_e4m3fnuz - CAST float16 -> float8e4m3fnuz (ONNX Cast; see minifloat.h).
 */
#include "ta_kernels.h"
#include "minifloat.h"

ta_status ta_cast_f16_e4m3fnuz(int32_t size, int32_t saturate, const void *in, void *out) {
  if (size < 0)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < size; i++) {
    const float x = ta_f16_bits_get(in, i);
    ta_code_put(out, 8, i, ta_to_e4m3fnuz(x, saturate != 0));
  }
  return TA_OK;
}
