/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_minimum_s64 - int64 MINIMUM with broadcasting (ONNX Min of int64;
 * TFLite's reference_ops::MaximumMinimumBroadcastSlow on int64_t).
 */
#include "ta_kernels.h"
#include "binary.h"

ta_status ta_minimum_s64(const ta_bcast *shape, const int64_t *in1, const int64_t *in2, int64_t *out) {
  if (!ta_bcast_ok(shape))
    return TA_ERR_ARG;
#define F(a, b) ((a) < (b) ? (a) : (b))
  TA_BINARY_LOOP(shape, in1, in2, out, F);
#undef F
  return TA_OK;
}
