/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_not_equal_s32 - NOT_EQUAL of int32 values with broadcasting (reference_ops::
 * NotEqualNoScaling): out = a != b.
 */
#include "math_loops.h"

#define TA_OP(a, b) ((uint8_t)((a) != (b)))
ta_status ta_not_equal_s32(const ta_bcast *shape, const int32_t *in1, const int32_t *in2,
                           uint8_t *out) {
  TA_RAW_BINARY(TA_OP);
}
