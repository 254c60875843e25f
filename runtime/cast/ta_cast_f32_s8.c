/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_cast_f32_s8 - CAST float -> int8_t (TFLite's static_cast; see cast.h).
 */
#include "ta_kernels.h"
#include "cast.h"

ta_status ta_cast_f32_s8(int32_t size, const float *in, int8_t *out) {
  if (size < 0)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < size; i++)
    out[i] = ta_wrap_s8(ta_f32_to_i32(in[i]));
  return TA_OK;
}
