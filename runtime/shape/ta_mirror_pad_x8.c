/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_mirror_pad_x8 - MIRROR_PAD, any element type (TFLite Micro's
 * mirror_pad.cc): output element (o_0 .. o_{n-1}) is the input element
 * at sum_d map[base_d + o_d] * in_stride[d] (elements), where the
 * compiler's map sends each output index of dimension d to its mirrored
 * input index (REFLECT or SYMMETRIC) and base_d is the sum of the output
 * sizes before d.  Written in output order.
 */
#include <string.h>

#include "ta_kernels.h"

ta_status ta_mirror_pad_x8(const ta_mirror_pad_params *p, const void *in, void *out) {
  if (p->ndims < 1 || p->ndims > TA_MAX_WALK ||
      (p->elem_bytes != 1 && p->elem_bytes != 2 && p->elem_bytes != 4))
    return TA_ERR_ARG;
  size_t total = 1;
  for (int d = 0; d < p->ndims; d++) {
    if (p->out_shape[d] < 0)
      return TA_ERR_ARG;
    total *= (size_t)p->out_shape[d];
  }
  const unsigned char *src = (const unsigned char *)in;
  unsigned char *dst = (unsigned char *)out;
  const size_t w = (size_t)p->elem_bytes;
  int32_t idx[TA_MAX_WALK] = {0};
  int32_t base[TA_MAX_WALK];
  int32_t b = 0;
  for (int d = 0; d < p->ndims; d++) {
    base[d] = b;
    b += p->out_shape[d];
  }
  for (size_t k = 0; k < total; k++, dst += w) {
    ptrdiff_t off = 0;
    for (int d = 0; d < p->ndims; d++)
      off += (ptrdiff_t)p->map[base[d] + idx[d]] * p->in_stride[d];
    memcpy(dst, src + off * (ptrdiff_t)w, w);
    for (int d = p->ndims - 1; d >= 0; d--) {
      if (++idx[d] < p->out_shape[d])
        break;
      idx[d] = 0;
    }
  }
  return TA_OK;
}
