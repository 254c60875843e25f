/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_less_equal_f32 - LESS_EQUAL of float values with broadcasting (reference_ops::
 * LessEqualNoScaling): out = a <= b.
 */
#include "math_loops.h"

#define TA_OP(a, b) ((uint8_t)((a) <= (b)))
ta_status ta_less_equal_f32(const ta_bcast *shape, const float *in1, const float *in2,
                            uint8_t *out) {
  TA_RAW_BINARY(TA_OP);
}
