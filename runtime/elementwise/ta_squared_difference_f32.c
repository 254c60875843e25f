/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_squared_difference_f32 - float SQUARED_DIFFERENCE with broadcasting
 * (TFLM squared_difference.cc): d = a - b, out = d * d.
 */
#include "math_loops.h"

static inline float sqdiff(float a, float b) {
  const float d = a - b;
  return d * d;
}

ta_status ta_squared_difference_f32(const ta_bcast *shape, const float *in1, const float *in2,
                                    float *out) {
  TA_RAW_BINARY(sqdiff);
}
