/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_cast_f32_u4 - CAST float32 -> uint4 (packed two to a byte) (ONNX Cast; see minifloat.h).
 */
#include "ta_kernels.h"
#include "minifloat.h"

ta_status ta_cast_f32_u4(int32_t size, const float *in, void *out) {
  if (size < 0)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < size; i++) {
    const float x = in[i];
    ta_code_put(out, 4, i, ta_to_u4(x));
  }
  return TA_OK;
}
