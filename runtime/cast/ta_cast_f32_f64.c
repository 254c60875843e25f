/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_cast_f32_f64 - CAST f32 -> f64 (ONNX Cast; exact; see cast.h).
 */
#include "ta_kernels.h"
#include "cast.h"

ta_status ta_cast_f32_f64(int32_t size, const float *in, double *out) {
  if (size < 0)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < size; i++) {
    out[i] = (double)in[i];
  }
  return TA_OK;
}
