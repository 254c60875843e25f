/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_minimum_f32 - MINIMUM with broadcasting (reference_ops::
 * MaximumMinimumBroadcastSlow): the smaller of the two raw values.
 */
#include "ta_kernels.h"
#include "binary.h"

ta_status ta_minimum_f32(const ta_bcast *shape, const float *in1, const float *in2, float *out) {
  if (!ta_bcast_ok(shape))
    return TA_ERR_ARG;
#define F(a, b) ((a) < (b) ? (a) : (b))
  TA_BINARY_LOOP(shape, in1, in2, out, F);
#undef F
  return TA_OK;
}
