/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gather.h - reading one index of a GATHER / GATHER_ND / EMBEDDING_LOOKUP
 * index tensor (private to runtime/shape/).  Index tensors are int32 or
 * int64 (index_bits); a value outside [0, limit) makes the kernel return
 * TA_ERR_ARG, as TFLite Micro's kernels return an error there.
 */
#ifndef TA_GATHER_H
#define TA_GATHER_H

#include <string.h>

#include "ta_kernels.h"

/* Index k of `indices` (index_bits 32 or 64) into *v; 0 when it is not
 * in [0, limit). */
static inline int ta_gather_index(const void *indices, int32_t index_bits, size_t k,
                                  int32_t limit, int32_t *v) {
  int64_t x;
  if (index_bits == 64) {
    memcpy(&x, (const unsigned char *)indices + 8 * k, 8);
  } else {
    int32_t y;
    memcpy(&y, (const unsigned char *)indices + 4 * k, 4);
    x = y;
  }
  if (x < 0 || x >= limit)
    return 0;
  *v = (int32_t)x;
  return 1;
}

#endif
