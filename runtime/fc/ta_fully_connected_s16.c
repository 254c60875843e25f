/*
 * ta_fully_connected_s16 - FULLY_CONNECTED for 16x8 quantization: int16
 * input and output, int8 filter (per tensor or per channel), int64 bias
 * and accumulator.
 *
 * Matches tflite::reference_integer_ops::FullyConnected and
 * FullyConnectedPerChannel, the int16 overloads with an int64 bias:
 *   acc = bias[o] + sum_i filter[o][i] * in[b][i]              (int64)
 *   out[b][o] = clamp(requant64(acc, q, o), act_min, act_max)
 * with the 64-bit MultiplyByQuantizedMultiplier (ta_requant_s64).  The
 * offsets are 0 (int16 is symmetric, int8 filters too).
 */
#include "ta_kernels.h"
#include "../conv/conv_s16.h"

ta_status ta_fully_connected_s16(const ta_fc_params *p, const ta_quant *q,
                                 const int16_t *in, const int8_t *filter,
                                 const int64_t *bias, int16_t *out) {
  const int32_t B = p->batches, D = p->in_depth, O = p->out_depth;
  if (B < 0 || D < 0 || O < 0 || !ta_quant_s64_ok(q, O) || p->act_min > p->act_max)
    return TA_ERR_ARG;
  for (int32_t b = 0; b < B; b++) {
    const int16_t *x = in + (size_t)b * D;
    for (int32_t o = 0; o < O; o++) {
      const int8_t *w = filter + (size_t)o * D;
      int64_t acc = 0;
      for (int32_t i = 0; i < D; i++)
        acc += (int32_t)w[i] * (int32_t)x[i];
      if (bias)
        acc += bias[o];
      const int32_t ch = q->per_channel ? o : 0;
      const int32_t v = ta_requant_s64(acc, q->multiplier[ch], q->shift[ch]);
      out[(size_t)b * O + o] = (int16_t)ta_clamp_i32(v, p->act_min, p->act_max);
    }
  }
  return TA_OK;
}
