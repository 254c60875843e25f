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

ta_status ta_logistic_s16(const ta_sigmoid_s16_params *p, const int16_t *in, int16_t *out) {
  if (p->size < 0 || !p->table || p->input_multiplier < 1 || p->input_multiplier > 65535 ||
      p->input_left_shift < 0 || p->input_left_shift > 31)
    return TA_ERR_ARG;
  const int shift = (int)p->input_left_shift;
  const int64_t round = shift > 0 ? (int64_t)1 << (shift - 1) : 0;
  for (int32_t i = 0; i < p->size; i++) {
    /* |in * multiplier| <= 2^15 * 65535 and the rounding term keep the
     * sum inside int32 (the compiler checks it), as TFLite's int32 math. */
    const int32_t x = (int32_t)(((int64_t)in[i] * p->input_multiplier + round) >> shift);
    const uint32_t ax = x < 0 ? (uint32_t)-(int64_t)x : (uint32_t)x;
    const uint32_t uh = ax >> 9;
    uint32_t r;
    if (uh >= 255) {
      r = (uint32_t)0x7FFF << 10;
    } else {
      const uint32_t ua = p->table[uh], ub = p->table[uh + 1];
      r = (ua << 9) + (ax & 0x1FF) * (ub - ua);
    }
    r = x >= 0 ? r + (1u << 9) : (1u << 25) - r + (1u << 9) - 1;
    out[i] = (int16_t)(r >> 10);
  }
  return TA_OK;
}
