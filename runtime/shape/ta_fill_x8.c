/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_fill_x8 - FILL of a run-time value, any 8-bit element type (TFLite
 * Micro's fill.cc): out[0 .. count) = value[0].  (A constant value is
 * folded by the compiler: no call.)
 */
#include <string.h>

#include "ta_kernels.h"

ta_status ta_fill_x8(int32_t count, const void *value, void *out) {
  if (count < 0)
    return TA_ERR_ARG;
  uint8_t v;
  memcpy(&v, value, sizeof v);
  for (int32_t k = 0; k < count; k++)
    memcpy((unsigned char *)out + (size_t)k * sizeof v, &v, sizeof v);
  return TA_OK;
}
