/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_softmax_s8_s16 - int8 SOFTMAX, int16 output (scale 1/65536, zero
 * point -32768): tflite::reference_ops::Softmax<int8_t, int16_t>; see
 * softmax_common.h.
 */
#include "ta_kernels.h"
#include "softmax_common.h"

ta_status ta_softmax_s8_s16(const ta_softmax_params *p, const int8_t *in, int16_t *out) {
  return ta_softmax_s8_any(p, in, 0, out, 16);
}
