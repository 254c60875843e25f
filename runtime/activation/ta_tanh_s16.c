/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_tanh_s16 - int16 TANH (ta_kernels_s16.h).
 *
 * Matches tflite::reference_integer_ops::Tanh for int16 (TFLite and
 * TFLite Micro), which reads the sigmoid table at twice the argument
 * (tanh(x) = 2 sigmoid(2x) - 1): |x| >> 8 indexes the table, the low 8
 * bits interpolate (r in Q0.24, signed 32-bit), then
 *   x >= 0: out = (r - 2^23 + 2^7) >> 8
 *   x <  0: out = (-r + 2^23 + 2^7 - 1) >> 8     (arithmetic shift)
 * and |x| >= 255 * 2^8 gives r = 0xFFFF << 8.
 */
#include "ta_kernels.h"
#include "sigmoid_s16.h"

ta_status ta_tanh_s16(const ta_sigmoid_s16_params *p, const int16_t *in, int16_t *out) {
  if (!ta_sigmoid_s16_ok(p))
    return TA_ERR_ARG;
  for (int32_t i = 0; i < p->size; i++) {
    const int32_t x = ta_sigmoid_s16_input(p, in[i]);
    /* r < 2^24 (Q0.24) */
    int32_t r = (int32_t)ta_sigmoid_s16_table(p->table, x, 8, (uint32_t)0xFFFF << 8);
    r = x >= 0 ? r - (1 << 23) + (1 << 7) : -r + (1 << 23) + (1 << 7) - 1;
    out[i] = (int16_t)(r >> 8);
  }
  return TA_OK;
}
