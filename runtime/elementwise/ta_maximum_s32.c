/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_maximum_s32 - MAXIMUM with broadcasting (reference_ops::
 * MaximumMinimumBroadcastSlow): the larger of the two raw values.
 */
#include "ta_kernels.h"
#include "binary.h"

ta_status ta_maximum_s32(const ta_bcast *shape, const int32_t *in1, const int32_t *in2, int32_t *out) {
  if (!ta_bcast_ok(shape))
    return TA_ERR_ARG;
#define F(a, b) ((a) > (b) ? (a) : (b))
  TA_BINARY_LOOP(shape, in1, in2, out, F);
#undef F
  return TA_OK;
}
