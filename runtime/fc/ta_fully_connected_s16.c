/* SPDX-License-Identifier: Apache-2.0 */
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
 * offsets are 0 (int16 is symmetric, int8 filters too).  The loops are
 * TA_FULLY_CONNECTED_S16 in ../conv/conv_s16.h.
 */
#include "ta_kernels.h"
#include "../conv/conv_s16.h"

ta_status ta_fully_connected_s16(const ta_fc_params *p, const ta_quant *q,
                                 const int16_t *in, const int8_t *filter,
                                 const int64_t *bias, int16_t *out) {
  if (p->batches < 0 || p->in_depth < 0 || p->out_depth < 0 ||
      !ta_quant_s64_ok(q, p->out_depth) || p->act_min > p->act_max)
    return TA_ERR_ARG;
  TA_FULLY_CONNECTED_S16(64);
}
