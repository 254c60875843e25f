/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_less_equal_s8 - LESS_EQUAL of int8 values with broadcasting (TFLM reference_ops::
 * LessEqualWithScaling): both inputs rescaled to a common scale first
 * (math.h, ta_rescale_input), then a' <= b'.
 */
#include "math_loops.h"

#define TA_OP(a, b) ((a) <= (b))
ta_status ta_less_equal_s8(const ta_add_params *p, const ta_bcast *shape, const int8_t *in1,
                           const int8_t *in2, uint8_t *out) {
  TA_SCALED_COMPARE();
}
