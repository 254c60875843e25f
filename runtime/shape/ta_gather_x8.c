/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_gather_x8 - GATHER and EMBEDDING_LOOKUP, any element type, as bytes
 * (TFLite Micro's gather.cc Gather): the input is [batch][outer][axis_size]
 * [inner_bytes], the indices [batch][coords]; for every batch b, outer
 * row o and index i,
 *   out[b][o][i][:] = in[b][o][indices[b][i]][:]
 * An index outside [0, axis_size) -> TA_ERR_ARG (TFLM's kernel fails
 * there too; the outputs written before it stay).
 */
#include <string.h>

#include "ta_kernels.h"
#include "gather.h"

ta_status ta_gather_x8(const ta_gather_params *p, const void *in, const void *indices,
                       void *out) {
  if (p->batch < 0 || p->outer < 0 || p->axis_size < 0 || p->coords < 0 ||
      p->inner_bytes < 0 || (p->index_bits != 32 && p->index_bits != 64))
    return TA_ERR_ARG;
  const unsigned char *src = (const unsigned char *)in;
  unsigned char *dst = (unsigned char *)out;
  const size_t row = (size_t)p->inner_bytes;
  for (int32_t b = 0; b < p->batch; b++)
    for (int32_t o = 0; o < p->outer; o++) {
      const unsigned char *base =
          src + ((size_t)b * (size_t)p->outer + (size_t)o) * (size_t)p->axis_size * row;
      for (int32_t i = 0; i < p->coords; i++) {
        int32_t k;
        if (!ta_gather_index(indices, p->index_bits, (size_t)b * (size_t)p->coords + (size_t)i,
                             p->axis_size, &k))
          return TA_ERR_ARG;
        memcpy(dst, base + (size_t)k * row, row);
        dst += row;
      }
    }
  return TA_OK;
}
