/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_cast_s32_f32 - CAST int32_t -> float (TFLite's static_cast; see cast.h).
 */
#include "ta_kernels.h"
#include "cast.h"

ta_status ta_cast_s32_f32(int32_t size, const int32_t *in, float *out) {
  if (size < 0)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < size; i++)
    out[i] = (float)in[i];
  return TA_OK;
}
