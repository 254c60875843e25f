/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_div_u64 - uint64 DIV with broadcasting (ONNX Div of uint64): out = a / b,
 * C's unsigned division (the quotient truncated).  A zero divisor makes
 * the kernel return TA_ERR_ARG before it writes anything.
 */
#include "math_loops.h"

/* Whether no pair the walk makes has a zero divisor. */
static int no_zero_divisor(const ta_bcast *shape, const uint64_t *b) {
  const int nd = shape->ndims;
  const int32_t n = shape->shape[nd - 1];
  const size_t s2 = (size_t)shape->stride2[nd - 1];
  const size_t rows = ta_bcast_rows(shape);
  int32_t idx[TA_MAX_DIMS] = {0};
  size_t o1 = 0, o2 = 0;
  for (size_t r = 0; r < rows; r++) {
    for (int32_t i = 0; i < n; i++)
      if (b[o2 + (size_t)i * s2] == 0)
        return 0;
    ta_bcast_next(shape, idx, &o1, &o2);
  }
  return 1;
}

#define TA_OP(a, b) ((uint64_t)((uint64_t)(a) / (uint64_t)(b)))
ta_status ta_div_u64(const ta_bcast *shape, const uint64_t *in1, const uint64_t *in2,
                     uint64_t *out) {
  if (!ta_bcast_ok(shape) || !no_zero_divisor(shape, in2))
    return TA_ERR_ARG;
  TA_RAW_BINARY(TA_OP);
}
