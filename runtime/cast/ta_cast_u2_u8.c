/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_cast_u2_u8 - CAST u2 -> u8 (sign- or zero-extended) (ONNX Cast; see minifloat.h).
 */
#include "ta_kernels.h"
#include "minifloat.h"

ta_status ta_cast_u2_u8(int32_t size, const void *in, uint8_t *out) {
  if (size < 0)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < size; i++)
    out[i] = (uint8_t)ta_int_u2(ta_code_get(in, 2, i));
  return TA_OK;
}
