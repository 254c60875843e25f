/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_cast_e5m2_f16 - CAST float8e5m2 -> float16 (through float32, exact; to nearest, ties to even) (ONNX Cast; see minifloat.h).
 */
#include "ta_kernels.h"
#include "minifloat.h"

ta_status ta_cast_e5m2_f16(int32_t size, const void *in, void *out) {
  if (size < 0)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < size; i++)
    ta_code_put(out, 16, i, ta_f32_to_f16_bits(ta_from_e5m2(ta_code_get(in, 8, i))));
  return TA_OK;
}
