/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_split_x8 - SPLIT, SPLIT_V and UNPACK (reference_ops::Split,
 * Unpack), as bytes: the input is `outer` rows; each row is cut into
 * blocks of bytes[k] bytes, block k going to output k.
 */
#include <string.h>

#include "ta_kernels.h"

ta_status ta_split_x8(const ta_concat_params *p, const void *in, void *const *out) {
  if (p->n < 1 || p->outer < 0)
    return TA_ERR_ARG;
  for (int32_t k = 0; k < p->n; k++)
    if (p->bytes[k] < 0)
      return TA_ERR_ARG;
  const unsigned char *src = (const unsigned char *)in;
  for (int32_t o = 0; o < p->outer; o++)
    for (int32_t k = 0; k < p->n; k++) {
      const size_t n = (size_t)p->bytes[k];
      memcpy((unsigned char *)out[k] + (size_t)o * n, src, n);
      src += n;
    }
  return TA_OK;
}
