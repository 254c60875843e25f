/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_cast_u8_s16 - CAST uint8_t -> int16_t (TFLite's static_cast; see cast.h).
 */
#include "ta_kernels.h"
#include "cast.h"

ta_status ta_cast_u8_s16(int32_t size, const uint8_t *in, int16_t *out) {
  if (size < 0)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < size; i++)
    out[i] = ta_wrap_s16((int32_t)in[i]);
  return TA_OK;
}
