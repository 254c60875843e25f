/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_pow_s64 - int64 POW with broadcasting (ONNX Pow of int64; TFLite's
 * IntegerPow on int64_t): a^b by repeated squaring, the products
 * wrapping around as two's complement (done in uint64_t).  A negative
 * exponent: TA_ERR_ARG.
 */
#include "ta_kernels.h"
#include "binary.h"

static inline int64_t int_pow(int64_t a, int64_t b, int *negative) {
  if (b < 0) {
    *negative = 1;
    return 0;
  }
  uint64_t base = (uint64_t)a, r = 1;
  for (uint64_t e = (uint64_t)b; e; e >>= 1) {
    if (e & 1)
      r *= base;
    base *= base;
  }
  return (int64_t)r;
}

ta_status ta_pow_s64(const ta_bcast *shape, const int64_t *in1, const int64_t *in2,
                     int64_t *out) {
  if (!ta_bcast_ok(shape))
    return TA_ERR_ARG;
  int negative = 0;
#define F(a, b) int_pow((a), (b), &negative)
  TA_BINARY_LOOP(shape, in1, in2, out, F);
#undef F
  return negative ? TA_ERR_ARG : TA_OK;
}
