/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_cast_f16_e8m0 - CAST float16 -> float8e8m0 (ONNX Cast; see minifloat.h).
 */
#include "ta_kernels.h"
#include "minifloat.h"

ta_status ta_cast_f16_e8m0(int32_t size, int32_t saturate, int32_t round_mode, const void *in, void *out) {
  if (size < 0 || round_mode < 0 || round_mode > 2)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < size; i++) {
    const float x = ta_f16_bits_get(in, i);
    ta_code_put(out, 8, i, ta_to_e8m0(x, saturate != 0, (int)round_mode));
  }
  return TA_OK;
}
