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

ta_status ta_tanh_s16(const ta_sigmoid_s16_params *p, const int16_t *in, int16_t *out) {
  if (p->size < 0 || !p->table || p->input_multiplier < 1 || p->input_multiplier > 65535 ||
      p->input_left_shift < 0 || p->input_left_shift > 31)
    return TA_ERR_ARG;
  const int shift = (int)p->input_left_shift;
  const int64_t round = shift > 0 ? (int64_t)1 << (shift - 1) : 0;
  for (int32_t i = 0; i < p->size; i++) {
    const int32_t x = (int32_t)(((int64_t)in[i] * p->input_multiplier + round) >> shift);
    const uint32_t ax = x < 0 ? (uint32_t)-(int64_t)x : (uint32_t)x;
    const uint32_t uh = ax >> 8;
    int32_t r;
    if (uh >= 255) {
      r = 0xFFFF << 8;
    } else {
      const uint32_t ua = p->table[uh], ub = p->table[uh + 1];
      r = (int32_t)((ua << 8) + (ax & 0xFF) * (ub - ua)); /* < 2^24 */
    }
    r = x >= 0 ? r - (1 << 23) + (1 << 7) : -r + (1 << 23) + (1 << 7) - 1;
    out[i] = (int16_t)(r >> 8);
  }
  return TA_OK;
}
