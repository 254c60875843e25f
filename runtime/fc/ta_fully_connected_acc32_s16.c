/* SPDX-License-Identifier: Apache-2.0 */
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
 * with the 32-bit requantization and the rounding q names
 * (TA_FULLY_CONNECTED_S16 in ../conv/conv_s16.h).
 */
#include "ta_kernels.h"
#include "../conv/conv_s16.h"

ta_status ta_fully_connected_acc32_s16(const ta_fc_params *p, const ta_quant *q,
                                       const int16_t *in, const int8_t *filter,
                                       const int32_t *bias, int16_t *out) {
  if (p->batches < 0 || p->in_depth < 0 || p->out_depth < 0 ||
      !ta_quant_s32_ok(q, p->out_depth) || p->act_min > p->act_max)
    return TA_ERR_ARG;
  TA_FULLY_CONNECTED_S16(32);
}
