/*
 * ta_fully_connected_acc32_s16 - FULLY_CONNECTED for 16x8 quantization
 * with an int32 bias (or none): int16 input and output, int8 filter (per
 * tensor or per channel), int32 accumulator.
 *
 * Matches tflite::reference_integer_ops::FullyConnected /
 * FullyConnectedPerChannel with an int32 bias and accumulator (TFLite
 * Micro's choice for an int32 or absent bias; TFLite's GEMM path computes
 * the same sums):
 *   acc = bias[o] + sum_i filter[o][i] * in[b][i]   (int32, wrapping)
 *   out[b][o] = clamp(MultiplyByQuantizedMultiplier(acc, q, o), act_min, act_max)
 * with the 32-bit requantization and the rounding q names.
 */
#include "ta_kernels.h"
#include "../conv/conv_s16.h"

ta_status ta_fully_connected_acc32_s16(const ta_fc_params *p, const ta_quant *q,
                                       const int16_t *in, const int8_t *filter,
                                       const int32_t *bias, int16_t *out) {
  const int32_t B = p->batches, D = p->in_depth, O = p->out_depth;
  if (B < 0 || D < 0 || O < 0 || !ta_quant_s32_ok(q, O) || p->act_min > p->act_max)
    return TA_ERR_ARG;
  for (int32_t b = 0; b < B; b++) {
    const int16_t *x = in + (size_t)b * D;
    for (int32_t o = 0; o < O; o++) {
      const int8_t *w = filter + (size_t)o * D;
      int32_t acc = 0;
      for (int32_t i = 0; i < D; i++)
        acc = ta_wrap_add32(acc, (int32_t)w[i] * (int32_t)x[i]);
      if (bias)
        acc = ta_wrap_add32(acc, bias[o]);
      const int32_t ch = q->per_channel ? o : 0;
      const int32_t v = ta_requant(acc, q->multiplier[ch], q->shift[ch], q->rounding);
      out[(size_t)b * O + o] = (int16_t)ta_clamp_i32(v, p->act_min, p->act_max);
    }
  }
  return TA_OK;
}
