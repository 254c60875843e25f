/*
 * ta_fully_connected_fold_s8 - int8 FULLY_CONNECTED with the input zero
 * point folded into the bias: the same bytes as ta_fully_connected_s8
 * (TFLite's FullyConnected with filter_offset 0).
 *
 * bias_fold[o] = bias[o] + input_offset * sum_i filter[o][i]
 * (fold_bias_s8()), so acc = bias_fold[o] + sum_i filter[o][i] * in[b][i]:
 * four output rows at a time through ta_dot_s8.h's blocked dot products.
 */
#include "ta_dot_s8.h"
#include "ta_fixedpoint.h"
#include "ta_kernels.h"

ta_status ta_fully_connected_fold_s8(const ta_fc_params *p, const ta_quant *q,
                                     const int8_t *in, const int8_t *filter,
                                     const int32_t *bias_fold, int8_t *out) {
  const int32_t B = p->batches, D = p->in_depth, O = p->out_depth;
  if (B < 0 || D < 0 || O < 0 || p->filter_offset != 0 || !bias_fold)
    return TA_ERR_ARG;
  /* Locals: the int8 output may alias the parameters. */
  const int32_t *mult = q->multiplier, *shift = q->shift;
  const int32_t step = q->per_channel ? 1 : 0, rounding = q->rounding;
  const int32_t out_off = p->output_offset, lo = p->act_min, hi = p->act_max;
  for (int32_t b = 0; b < B; b++) {
    const int8_t *x = in + (size_t)b * D;
    int8_t *y = out + (size_t)b * O;
    int32_t o = 0;
    for (; o < O; o += 4) {
      const int32_t n = O - o < 4 ? O - o : 4;
      int32_t acc[4] = {0, 0, 0, 0};
      const int8_t *w = filter + (size_t)o * D;
      if (n == 4)
        ta_dot4_s8(x, w, D, D, acc);
      else
        for (int32_t j = 0; j < n; j++)
          acc[j] = ta_dot1_s8(x, w + (size_t)j * D, D);
      for (int32_t j = 0; j < n; j++) {
        const int32_t ch = (o + j) * step;
        const int32_t v =
            ta_requant(acc[j] + bias_fold[o + j], mult[ch], shift[ch], rounding) + out_off;
        y[o + j] = (int8_t)(v < lo ? lo : v > hi ? hi : v);
      }
    }
  }
  return TA_OK;
}
