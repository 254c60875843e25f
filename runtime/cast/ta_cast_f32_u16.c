/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_cast_f32_u16 - CAST float -> uint16_t (static_cast through int32 as
 * the other integer casts, see cast.h; QuantizeLinear to uint16 casts
 * values already rounded and saturated to [0, 65535]).
 */
#include "ta_kernels.h"
#include "cast.h"

ta_status ta_cast_f32_u16(int32_t size, const float *in, uint16_t *out) {
  if (size < 0)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < size; i++)
    out[i] = (uint16_t)(uint32_t)ta_f32_to_i32(in[i]);
  return TA_OK;
}
