/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_pow_s32 - int32 POW with broadcasting (TFLite's IntegerPow): a^b by
 * repeated squaring, the products wrapping around as two's complement
 * (done in uint32_t).  A negative exponent: TA_ERR_ARG (TFLite's Eval
 * fails on one too).
 */
#include "ta_kernels.h"
#include "binary.h"

static inline int32_t int_pow(int32_t a, int32_t b, int *negative) {
  if (b < 0) {
    *negative = 1;
    return 0;
  }
  uint32_t base = (uint32_t)a, r = 1;
  for (uint32_t e = (uint32_t)b; e; e >>= 1) {
    if (e & 1)
      r *= base;
    base *= base;
  }
  return (int32_t)r;
}

ta_status ta_pow_s32(const ta_bcast *shape, const int32_t *in1, const int32_t *in2,
                     int32_t *out) {
  if (!ta_bcast_ok(shape))
    return TA_ERR_ARG;
  int negative = 0;
#define F(a, b) int_pow((a), (b), &negative)
  TA_BINARY_LOOP(shape, in1, in2, out, F);
#undef F
  return negative ? TA_ERR_ARG : TA_OK;
}
