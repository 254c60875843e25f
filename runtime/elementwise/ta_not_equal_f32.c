/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_not_equal_f32 - NOT_EQUAL of float values with broadcasting (reference_ops::
 * NotEqualNoScaling): out = a != b.
 */
#include "math_loops.h"

/* a != b, spelled with the quiet comparison macros (true for NaN, as
 * !=) so that -Wfloat-equal builds stay clean. */
#define TA_OP(a, b) ((uint8_t)(isunordered((a), (b)) || islessgreater((a), (b))))
ta_status ta_not_equal_f32(const ta_bcast *shape, const float *in1, const float *in2,
                           uint8_t *out) {
  TA_RAW_BINARY(TA_OP);
}
