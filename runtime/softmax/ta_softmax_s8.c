/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_softmax_s8 - int8 SOFTMAX, int8 output (scale 1/256, zero point
 * -128): tflite::reference_ops::Softmax<int8_t, int8_t>; see
 * softmax_common.h.
 */
#include "ta_kernels.h"
#include "softmax_common.h"

ta_status ta_softmax_s8(const ta_softmax_params *p, const int8_t *in, int8_t *out) {
  return ta_softmax_s8_any(p, in, out, 0, 8);
}
