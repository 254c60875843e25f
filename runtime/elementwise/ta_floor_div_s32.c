/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_floor_div_s32 - int32 FLOOR_DIV with broadcasting (reference FloorDiv):
 * floor(a / b); the quotient in double is exact for int32 operands.
 * A zero divisor: TA_ERR_ARG (TFLite's Eval fails on one too).
 */
#include "ta_kernels.h"
#include "binary.h"

static inline int32_t floor_div(int32_t a, int32_t b, int *zero) {
  if (b == 0) {
    *zero = 1;
    return 0;
  }
  /* Truncated quotient, one less when the signs differ and it is not
   * exact; INT32_MIN / -1 overflows int32 in TFLite too (it wraps). */
  if (a == INT32_MIN && b == -1)
    return INT32_MIN;
  int32_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    q -= 1;
  return q;
}

ta_status ta_floor_div_s32(const ta_bcast *shape, const int32_t *in1, const int32_t *in2,
                           int32_t *out) {
  if (!ta_bcast_ok(shape))
    return TA_ERR_ARG;
  int zero = 0;
#define F(a, b) floor_div((a), (b), &zero)
  TA_BINARY_LOOP(shape, in1, in2, out, F);
#undef F
  return zero ? TA_ERR_ARG : TA_OK;
}
