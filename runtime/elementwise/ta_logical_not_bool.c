/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_logical_not_bool - LOGICAL_NOT: out = !in, one byte per bool.
 */
#include "ta_kernels.h"

ta_status ta_logical_not_bool(const ta_unary_params *p, const uint8_t *in, uint8_t *out) {
  if (p->size < 0)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < p->size; i++)
    out[i] = (uint8_t)!in[i];
  return TA_OK;
}
