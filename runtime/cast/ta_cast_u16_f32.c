/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_cast_u16_f32 - CAST uint16_t -> float (exact; ONNX Cast and
 * DequantizeLinear of uint16).
 */
#include "ta_kernels.h"
#include "cast.h"

ta_status ta_cast_u16_f32(int32_t size, const uint16_t *in, float *out) {
  if (size < 0)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < size; i++)
    out[i] = (float)in[i];
  return TA_OK;
}
