/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_prelu_f32 - float PRELU with alpha broadcast (reference_ops::
 * BroadcastPrelu4DSlow): x >= 0 ? x : x * alpha.
 */
#include "math_loops.h"

static inline float prelu(float x, float alpha) { return x >= 0.0f ? x : x * alpha; }

ta_status ta_prelu_f32(const ta_bcast *shape, const float *in1, const float *in2,
                       float *out) {
  TA_RAW_BINARY(prelu);
}
