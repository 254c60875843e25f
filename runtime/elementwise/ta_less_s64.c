/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_less_s64 - LESS of int64 values with broadcasting (reference_ops::
 * LessNoScaling): out = a < b.
 */
#include "math_loops.h"

#define TA_OP(a, b) ((uint8_t)((a) < (b)))
ta_status ta_less_s64(const ta_bcast *shape, const int64_t *in1, const int64_t *in2,
                      uint8_t *out) {
  TA_RAW_BINARY(TA_OP);
}
