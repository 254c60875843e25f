/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_div_s32 - int32 DIV with broadcasting (reference_ops::Div /
 * BroadcastDivSlow for int32): out = clamp(in1 / in2, act_min, act_max),
 * C division (truncation toward zero).  A zero divisor, or INT32_MIN /
 * -1, makes the kernel return TA_ERR_ARG before it writes anything.
 */
#include "ta_fixedpoint.h"
#include "ta_kernels.h"
#include "binary.h"

/* Whether every pair the walk makes can be divided. */
static int all_divisible(const ta_bcast *shape, const int32_t *a, const int32_t *b) {
  const int nd = shape->ndims;
  const int32_t n = shape->shape[nd - 1];
  const size_t s1 = (size_t)shape->stride1[nd - 1], s2 = (size_t)shape->stride2[nd - 1];
  const size_t rows = ta_bcast_rows(shape);
  int32_t idx[TA_MAX_DIMS] = {0};
  size_t o1 = 0, o2 = 0;
  for (size_t r = 0; r < rows; r++) {
    for (int32_t i = 0; i < n; i++) {
      const int32_t x = a[o1 + (size_t)i * s1], y = b[o2 + (size_t)i * s2];
      if (y == 0 || (x == INT32_MIN && y == -1))
        return 0;
    }
    ta_bcast_next(shape, idx, &o1, &o2);
  }
  return 1;
}

static inline int32_t one(int32_t a, int32_t b, const ta_div_params *p) {
  return ta_clamp_i32(a / b, p->act_min, p->act_max);
}

ta_status ta_div_s32(const ta_div_params *p, const ta_bcast *shape, const int32_t *in1,
                     const int32_t *in2, int32_t *out) {
  if (!ta_bcast_ok(shape) || !all_divisible(shape, in1, in2))
    return TA_ERR_ARG;
#define F(a, b) one((a), (b), p)
  TA_BINARY_LOOP(shape, in1, in2, out, F);
#undef F
  return TA_OK;
}
