/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_cast_f64_f32 - CAST f64 -> f32 (ONNX Cast; to nearest (the C conversion); see cast.h).
 */
#include "ta_kernels.h"
#include "cast.h"

ta_status ta_cast_f64_f32(int32_t size, const double *in, float *out) {
  if (size < 0)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < size; i++) {
    out[i] = (float)in[i];
  }
  return TA_OK;
}
