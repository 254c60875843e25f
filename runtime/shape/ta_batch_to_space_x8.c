/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_batch_to_space_x8 - BATCH_TO_SPACE_ND, any element type, as rows of
 * row_bytes (TFLite Micro's reference_ops::BatchToSpaceND), written in
 * output order: output pixel (y, x) of batch n (of `batch`) is input
 * pixel (Y / block_h, X / block_w) of input batch
 *   ((Y % block_h) * block_w + X % block_w) * batch + n,
 * Y = y + crop_top, X = x + crop_left (pad_top/pad_left hold the crops).
 */
#include <string.h>

#include "ta_kernels.h"

ta_status ta_batch_to_space_x8(const ta_space_batch_params *p, const void *in, void *out) {
  if (p->batch < 0 || p->block_h < 1 || p->block_w < 1 || p->row_bytes < 0 ||
      p->pad_top < 0 || p->pad_left < 0 ||
      (int64_t)(p->out_h + p->pad_top) > (int64_t)p->in_h * p->block_h ||
      (int64_t)(p->out_w + p->pad_left) > (int64_t)p->in_w * p->block_w)
    return TA_ERR_ARG;
  const unsigned char *src = (const unsigned char *)in;
  unsigned char *dst = (unsigned char *)out;
  const size_t row = (size_t)p->row_bytes;
  for (int32_t n = 0; n < p->batch; n++)
    for (int32_t y = 0; y < p->out_h; y++) {
      const int32_t Y = y + p->pad_top;
      for (int32_t x = 0; x < p->out_w; x++, dst += row) {
        const int32_t X = x + p->pad_left;
        const int32_t b = ((Y % p->block_h) * p->block_w + X % p->block_w) * p->batch + n;
        memcpy(dst, src + (((size_t)b * (size_t)p->in_h + (size_t)(Y / p->block_h)) *
                               (size_t)p->in_w + (size_t)(X / p->block_w)) * row,
               row);
      }
    }
  return TA_OK;
}
