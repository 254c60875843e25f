/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_logistic_s16 - int16 LOGISTIC (ta_kernels_s16.h).
 *
 * Matches tflite::reference_integer_ops::Logistic for int16 (TFLite and
 * TFLite Micro): the input is rescaled so that 2^9 is one step of the
 * table (sigmoid(i / 24) in Q0.16), the table is interpolated linearly on
 * |x| with the low 9 bits, and
 *   x >= 0: out = (r + 2^9) >> 10
 *   x <  0: out = (2^25 - r + 2^9 - 1) >> 10     (1 - sigmoid(|x|))
 * in unsigned 32-bit arithmetic; |x| >= 255 * 2^9 gives r = 0x7FFF << 10.
 */
#include "ta_kernels.h"
#include "sigmoid_s16.h"

ta_status ta_logistic_s16(const ta_sigmoid_s16_params *p, const int16_t *in, int16_t *out) {
  if (!ta_sigmoid_s16_ok(p))
    return TA_ERR_ARG;
  for (int32_t i = 0; i < p->size; i++) {
    const int32_t x = ta_sigmoid_s16_input(p, in[i]);
    uint32_t r = ta_sigmoid_s16_table(p->table, x, 9, (uint32_t)0x7FFF << 10);
    r = x >= 0 ? r + (1u << 9) : (1u << 25) - r + (1u << 9) - 1;
    out[i] = (int16_t)(r >> 10);
  }
  return TA_OK;
}
