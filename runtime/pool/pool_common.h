/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pool_common.h - the clamped pooling window (private to runtime/pool/).
 *
 * As TFLite's reference pools: for output (oy, ox) the window starts at
 * in_origin = out * stride - pad and keeps filter taps
 * [max(0, -origin), min(filter, in_size - origin)).
 */
#ifndef TA_POOL_COMMON_H
#define TA_POOL_COMMON_H

#include "ta_types.h"

/* Channels processed together (one accumulator array on the stack). */
#define TA_POOL_BLOCK 16

static inline void ta_pool_range(int32_t origin, int32_t filter, int32_t size, int32_t *start,
                                 int32_t *end) {
  int32_t s = -origin > 0 ? -origin : 0;
  int32_t e = size - origin < filter ? size - origin : filter;
  *start = s;
  *end = e;
}

static inline int ta_pool_shapes_ok(const ta_pool_params *p, const ta_dims *in,
                                    const ta_dims *out) {
  return p->stride_h >= 1 && p->stride_w >= 1 && p->filter_h >= 1 && p->filter_w >= 1 &&
         in->n >= 0 && in->h >= 0 && in->w >= 0 && in->c >= 0 && out->n == in->n &&
         out->c == in->c && out->h >= 0 && out->w >= 0;
}

#endif
