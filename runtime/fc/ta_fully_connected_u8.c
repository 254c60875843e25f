/*
 * ta_fully_connected_u8 - legacy uint8 FULLY_CONNECTED, as TFLite's
 * builtin uint8 kernel computes it (optimized_ops::FullyConnected: a GEMM
 * with both offsets, one requantization):
 *
 *   acc = bias[o] + sum_i (filter[o][i] + filter_offset) * (in[b][i] + input_offset)
 *   out[b][o] = clamp(requant(acc, q) + output_offset, act_min, act_max)
 */
#include "ta_fixedpoint.h"
#include "ta_kernels.h"

ta_status ta_fully_connected_u8(const ta_fc_params *p, const ta_quant *q, const uint8_t *in,
                                const uint8_t *filter, const int32_t *bias, uint8_t *out) {
  const int32_t B = p->batches, D = p->in_depth, O = p->out_depth;
  if (B < 0 || D < 0 || O < 0)
    return TA_ERR_ARG;
  const int32_t in_off = p->input_offset, f_off = p->filter_offset;
  for (int32_t b = 0; b < B; b++) {
    const uint8_t *x = in + (size_t)b * D;
    for (int32_t o = 0; o < O; o++) {
      const uint8_t *w = filter + (size_t)o * D;
      int32_t acc = 0;
      for (int32_t i = 0; i < D; i++)
        acc += ((int32_t)w[i] + f_off) * ((int32_t)x[i] + in_off);
      if (bias)
        acc += bias[o];
      const int32_t ch = q->per_channel ? o : 0;
      acc = ta_requant(acc, q->multiplier[ch], q->shift[ch], q->rounding) + p->output_offset;
      out[(size_t)b * O + o] = (uint8_t)ta_clamp_i32(acc, p->act_min, p->act_max);
    }
  }
  return TA_OK;
}
