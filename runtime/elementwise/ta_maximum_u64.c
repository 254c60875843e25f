/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_maximum_u64 - uint64 MAXIMUM with broadcasting (ONNX Max of uint64):
 * out = ((a) > (b) ? (a) : (b)).
 */
#include "math_loops.h"

#define TA_OP(a, b) ((a) > (b) ? (a) : (b))
ta_status ta_maximum_u64(const ta_bcast *shape, const uint64_t *in1, const uint64_t *in2,
                         uint64_t *out) {
  TA_RAW_BINARY(TA_OP);
}
