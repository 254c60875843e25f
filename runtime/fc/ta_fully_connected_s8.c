/*
 * ta_fully_connected_s8 - int8 FULLY_CONNECTED, the reference form.
 *
 * Matches tflite::reference_integer_ops::FullyConnected (per tensor) and
 * FullyConnectedPerChannel (q->per_channel):
 *   acc = bias[o] + sum_i (filter[o][i] + filter_offset) * (in[b][i] + input_offset)
 *   out[b][o] = clamp(requant(acc) + output_offset, act_min, act_max)
 */
#include "ta_fixedpoint.h"
#include "ta_kernels.h"

ta_status ta_fully_connected_s8(const ta_fc_params *p, const ta_quant *q,
                                const int8_t *in, const int8_t *filter,
                                const int32_t *bias, int8_t *out) {
  const int32_t B = p->batches, D = p->in_depth, O = p->out_depth;
  if (B < 0 || D < 0 || O < 0)
    return TA_ERR_ARG;
  const int32_t in_off = p->input_offset, f_off = p->filter_offset;
  for (int32_t b = 0; b < B; b++) {
    const int8_t *x = in + (size_t)b * D;
    for (int32_t o = 0; o < O; o++) {
      const int8_t *w = filter + (size_t)o * D;
      int32_t acc = 0;
      for (int32_t i = 0; i < D; i++)
        acc += ((int32_t)w[i] + f_off) * ((int32_t)x[i] + in_off);
      if (bias)
        acc += bias[o];
      const int32_t ch = q->per_channel ? o : 0;
      acc = ta_requant(acc, q->multiplier[ch], q->shift[ch], q->rounding) + p->output_offset;
      out[(size_t)b * O + o] = (int8_t)ta_clamp_i32(acc, p->act_min, p->act_max);
    }
  }
  return TA_OK;
}
