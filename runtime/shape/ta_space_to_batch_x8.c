/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_space_to_batch_x8 - SPACE_TO_BATCH_ND, any element type, as rows of
 * row_bytes (one pixel's channels) (TFLite Micro's reference_ops::
 * SpaceToBatchND): output batch ob = shift * batch + n, shift = sy *
 * block_w + sx; output pixel (oy, ox) of it is input pixel
 *   (oy * block_h + sy - pad_top, ox * block_w + sx - pad_left)
 * of batch n, or, outside the input, elements equal to pad_value (its
 * low elem_bytes bytes: the output zero point, 0 for float).
 */
#include <string.h>

#include "ta_kernels.h"

ta_status ta_space_to_batch_x8(const ta_space_batch_params *p, const void *in, void *out) {
  if (p->batch < 0 || p->block_h < 1 || p->block_w < 1 || p->row_bytes < 0 ||
      (p->elem_bytes != 1 && p->elem_bytes != 2 && p->elem_bytes != 4) ||
      p->row_bytes % p->elem_bytes)
    return TA_ERR_ARG;
  const unsigned char *src = (const unsigned char *)in;
  unsigned char *dst = (unsigned char *)out;
  const size_t row = (size_t)p->row_bytes;
  unsigned char pad[4];
  memcpy(pad, &p->pad_value, 4); /* little and big endian alike: */
  if (p->elem_bytes == 2) {      /* the value's low bytes, in memory order */
    uint16_t v = (uint16_t)p->pad_value;
    memcpy(pad, &v, 2);
  } else if (p->elem_bytes == 1) {
    pad[0] = (unsigned char)p->pad_value;
  }
  const int32_t nout = p->batch * p->block_h * p->block_w;
  for (int32_t ob = 0; ob < nout; ob++) {
    const int32_t n = ob % p->batch, shift = ob / p->batch;
    const int32_t sy = shift / p->block_w, sx = shift % p->block_w;
    for (int32_t oy = 0; oy < p->out_h; oy++) {
      const int32_t iy = oy * p->block_h + sy - p->pad_top;
      for (int32_t ox = 0; ox < p->out_w; ox++, dst += row) {
        const int32_t ix = ox * p->block_w + sx - p->pad_left;
        if (iy < 0 || iy >= p->in_h || ix < 0 || ix >= p->in_w) {
          for (size_t k = 0; k < row; k += (size_t)p->elem_bytes)
            memcpy(dst + k, pad, (size_t)p->elem_bytes);
          continue;
        }
        memcpy(dst, src + (((size_t)n * (size_t)p->in_h + (size_t)iy) * (size_t)p->in_w +
                           (size_t)ix) * row,
               row);
      }
    }
  }
  return TA_OK;
}
