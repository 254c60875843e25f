/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_fully_connected_u8 - legacy uint8 FULLY_CONNECTED, as TFLite's
 * builtin uint8 kernel computes it (optimized_ops::FullyConnected: a GEMM
 * with both offsets, one requantization):
 *
 *   acc = bias[o] + sum_i (filter[o][i] + filter_offset) * (in[b][i] + input_offset)
 *   out[b][o] = clamp(requant(acc, q) + output_offset, act_min, act_max)
 *
 * The loops are TA_FULLY_CONNECTED_X8 (conv/conv_x8.h), shared by the int8
 * and uint8 kernels.
 */
#include "ta_kernels.h"
#include "../conv/conv_x8.h"

ta_status ta_fully_connected_u8(const ta_fc_params *p, const ta_quant *q, const uint8_t *in,
                                const uint8_t *filter, const int32_t *bias, uint8_t *out) {
  if (p->batches < 0 || p->in_depth < 0 || p->out_depth < 0)
    return TA_ERR_ARG;
  TA_FULLY_CONNECTED_X8(uint8_t);
}
