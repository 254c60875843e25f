/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_zeros_like_x8 - ZEROS_LIKE of any type: p->size zero bytes (every type
 * tinyaot has represents zero as all-zero bytes).  The output is a void
 * pointer, as for every kernel of any element type: the runner passes it
 * typed as the tensor is (int32_t * for an int32 model output).
 */
#include "ta_kernels.h"

ta_status ta_zeros_like_x8(const ta_unary_params *p, void *out) {
  if (p->size < 0)
    return TA_ERR_ARG;
  unsigned char *o = (unsigned char *)out;
  for (int32_t i = 0; i < p->size; i++)
    o[i] = 0;
  return TA_OK;
}
