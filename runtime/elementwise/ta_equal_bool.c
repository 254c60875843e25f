/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_equal_bool - EQUAL of bool values with broadcasting (reference_ops::
 * EqualNoScaling): out = a == b.
 */
#include "math_loops.h"

#define TA_OP(a, b) ((uint8_t)((a) == (b)))
ta_status ta_equal_bool(const ta_bcast *shape, const uint8_t *in1, const uint8_t *in2,
                        uint8_t *out) {
  TA_RAW_BINARY(TA_OP);
}
