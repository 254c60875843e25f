/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_concatenation_x8 - CONCATENATION and PACK (reference_ops::
 * Concatenation), as bytes: the output is `outer` rows, each the
 * concatenation of the next block of every input (bytes[k] bytes of
 * input k).  Inputs whose quantization differs from the output's are
 * requantized by other kernels; this one only copies.
 */
#include <string.h>

#include "ta_kernels.h"

ta_status ta_concatenation_x8(const ta_concat_params *p, const void *const *in,
                              void *out) {
  if (p->n < 1 || p->outer < 0)
    return TA_ERR_ARG;
  for (int32_t k = 0; k < p->n; k++)
    if (p->bytes[k] < 0)
      return TA_ERR_ARG;
  unsigned char *dst = (unsigned char *)out;
  for (int32_t o = 0; o < p->outer; o++)
    for (int32_t k = 0; k < p->n; k++) {
      const size_t n = (size_t)p->bytes[k];
      memcpy(dst, (const unsigned char *)in[k] + (size_t)o * n, n);
      dst += n;
    }
  return TA_OK;
}
