/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_cast_s16_u8 - CAST int16_t -> uint8_t (TFLite's static_cast; see cast.h).
 */
#include "ta_kernels.h"
#include "cast.h"

ta_status ta_cast_s16_u8(int32_t size, const int16_t *in, uint8_t *out) {
  if (size < 0)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < size; i++)
    out[i] = ta_wrap_u8((int32_t)in[i]);
  return TA_OK;
}
