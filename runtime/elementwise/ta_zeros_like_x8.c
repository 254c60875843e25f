/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_zeros_like_x8 - ZEROS_LIKE of any type: p->size zero bytes (every type
 * tinyaot has represents zero as all-zero bytes).
 */
#include "ta_kernels.h"

ta_status ta_zeros_like_x8(const ta_unary_params *p, uint8_t *out) {
  if (p->size < 0)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < p->size; i++)
    out[i] = 0;
  return TA_OK;
}
