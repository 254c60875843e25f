/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_cast_e5m2_f32 - CAST float8e5m2 -> float32, exact (ONNX Cast; see minifloat.h).
 */
#include "ta_kernels.h"
#include "minifloat.h"

ta_status ta_cast_e5m2_f32(int32_t size, const void *in, float *out) {
  if (size < 0)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < size; i++)
    out[i] = ta_from_e5m2(ta_code_get(in, 8, i));
  return TA_OK;
}
