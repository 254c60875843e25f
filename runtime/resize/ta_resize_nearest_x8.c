/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_resize_nearest_x8 - RESIZE_NEAREST_NEIGHBOR for any 8-bit element
 * type (reference_ops::ResizeNearestNeighbor): every output pixel copies
 * the depth elements of input pixel (y_map[y], x_map[x]).
 */
#include <string.h>

#include "ta_kernels.h"

ta_status ta_resize_nearest_x8(const ta_resize_params *p, const void *in, void *out) {
  if (p->batches < 0 || p->in_h < 1 || p->in_w < 1 || p->depth < 0 || p->out_h < 0 ||
      p->out_w < 0)
    return TA_ERR_ARG;
  for (int32_t y = 0; y < p->out_h; y++)
    if (p->y_map[y] < 0 || p->y_map[y] >= p->in_h)
      return TA_ERR_ARG;
  for (int32_t x = 0; x < p->out_w; x++)
    if (p->x_map[x] < 0 || p->x_map[x] >= p->in_w)
      return TA_ERR_ARG;
  const size_t pixel = (size_t)p->depth * 1;
  const unsigned char *src = (const unsigned char *)in;
  unsigned char *dst = (unsigned char *)out;
  for (int32_t b = 0; b < p->batches; b++) {
    const unsigned char *img = src + (size_t)b * (size_t)p->in_h * (size_t)p->in_w * pixel;
    for (int32_t y = 0; y < p->out_h; y++) {
      const unsigned char *row = img + (size_t)p->y_map[y] * (size_t)p->in_w * pixel;
      for (int32_t x = 0; x < p->out_w; x++, dst += pixel)
        memcpy(dst, row + (size_t)p->x_map[x] * pixel, pixel);
    }
  }
  return TA_OK;
}
