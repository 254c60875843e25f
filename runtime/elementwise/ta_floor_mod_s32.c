/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_floor_mod_s32 - int32 FLOOR_MOD with broadcasting (reference FloorMod):
 * r = a % b (truncated); r + b when r != 0 and r and b have different
 * signs.  A zero divisor: TA_ERR_ARG.
 */
#include "ta_kernels.h"
#include "binary.h"

static inline int32_t floor_mod(int32_t a, int32_t b, int *zero) {
  if (b == 0) {
    *zero = 1;
    return 0;
  }
  if (b == -1) /* INT32_MIN % -1 is undefined in C; the remainder is 0 */
    return 0;
  const int32_t r = a % b;
  return r != 0 && ((b < 0) != (r < 0)) ? r + b : r;
}

ta_status ta_floor_mod_s32(const ta_bcast *shape, const int32_t *in1, const int32_t *in2,
                           int32_t *out) {
  if (!ta_bcast_ok(shape))
    return TA_ERR_ARG;
  int zero = 0;
#define F(a, b) floor_mod((a), (b), &zero)
  TA_BINARY_LOOP(shape, in1, in2, out, F);
#undef F
  return zero ? TA_ERR_ARG : TA_OK;
}
