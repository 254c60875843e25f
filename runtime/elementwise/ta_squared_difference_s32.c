/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_squared_difference_s32 - int32 SQUARED_DIFFERENCE with broadcasting: (a - b)^2
 * in two's-complement int32 arithmetic (wrapping, as TFLite computes it).
 */
#include "math_loops.h"

static inline int32_t sqdiff(int32_t a, int32_t b) {
  const uint32_t d = (uint32_t)a - (uint32_t)b;
  return (int32_t)(d * d);
}

ta_status ta_squared_difference_s32(const ta_bcast *shape, const int32_t *in1, const int32_t *in2,
                                    int32_t *out) {
  TA_RAW_BINARY(sqdiff);
}
