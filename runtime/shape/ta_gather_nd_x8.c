/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_gather_nd_x8 - GATHER_ND, any element type, as bytes (TFLite Micro's
 * gather_nd.cc GatherNd): the indices are [nslices][depth]; slice s is
 * the block of slice_bytes at
 *   sum_d indices[s][d] * stride[d]   (bytes into the params tensor)
 * and goes to out[s].  An index outside [0, dims[d]) -> TA_ERR_ARG (TFLM
 * fails there too).
 */
#include <string.h>

#include "ta_kernels.h"
#include "gather.h"

ta_status ta_gather_nd_x8(const ta_gather_nd_params *p, const void *in,
                          const void *indices, void *out) {
  if (p->nslices < 0 || p->depth < 0 || p->depth > TA_MAX_WALK || p->slice_bytes < 0 ||
      (p->index_bits != 32 && p->index_bits != 64))
    return TA_ERR_ARG;
  const unsigned char *src = (const unsigned char *)in;
  unsigned char *dst = (unsigned char *)out;
  for (int32_t s = 0; s < p->nslices; s++) {
    size_t off = 0;
    for (int32_t d = 0; d < p->depth; d++) {
      int32_t k;
      if (!ta_gather_index(indices, p->index_bits, (size_t)s * (size_t)p->depth + (size_t)d,
                           p->dims[d], &k))
        return TA_ERR_ARG;
      off += (size_t)k * (size_t)p->stride[d];
    }
    memcpy(dst, src + off, (size_t)p->slice_bytes);
    dst += p->slice_bytes;
  }
  return TA_OK;
}
