/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_cast_s4_s8 - CAST s4 -> s8 (sign- or zero-extended) (ONNX Cast; see minifloat.h).
 */
#include "ta_kernels.h"
#include "minifloat.h"

ta_status ta_cast_s4_s8(int32_t size, const void *in, int8_t *out) {
  if (size < 0)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < size; i++)
    out[i] = (int8_t)ta_int_s4(ta_code_get(in, 4, i));
  return TA_OK;
}
