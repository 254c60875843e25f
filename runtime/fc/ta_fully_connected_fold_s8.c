/*
 * ta_fully_connected_fold_s8 - int8 FULLY_CONNECTED with the input zero
 * point folded into the bias: the same bytes as ta_fully_connected_s8
 * (TFLite's FullyConnected with filter_offset 0).
 *
 * bias_fold[o] = bias[o] + input_offset * sum_i filter[o][i]
 * (fold_bias_s8()), so acc = bias_fold[o] + sum_i filter[o][i] * in[b][i].
 * Four output rows are computed together, each input byte loaded once
 * per four multiply-adds.
 */
#include "ta_fixedpoint.h"
#include "ta_kernels.h"

static inline int8_t finish(int32_t acc, const ta_fc_params *p, const ta_quant *q, int32_t o) {
  const int32_t ch = q->per_channel ? o : 0;
  acc = ta_requant(acc, q->multiplier[ch], q->shift[ch], q->rounding) + p->output_offset;
  return (int8_t)ta_clamp_i32(acc, p->act_min, p->act_max);
}

ta_status ta_fully_connected_fold_s8(const ta_fc_params *p, const ta_quant *q,
                                     const int8_t *in, const int8_t *filter,
                                     const int32_t *bias_fold, int8_t *out) {
  const int32_t B = p->batches, D = p->in_depth, O = p->out_depth;
  if (B < 0 || D < 0 || O < 0 || p->filter_offset != 0 || !bias_fold)
    return TA_ERR_ARG;
  for (int32_t b = 0; b < B; b++) {
    const int8_t *x = in + (size_t)b * D;
    int8_t *y = out + (size_t)b * O;
    int32_t o = 0;
    for (; o + 4 <= O; o += 4) {
      const int8_t *w0 = filter + (size_t)o * D, *w1 = w0 + D, *w2 = w1 + D, *w3 = w2 + D;
      int32_t a0 = bias_fold[o], a1 = bias_fold[o + 1], a2 = bias_fold[o + 2],
              a3 = bias_fold[o + 3];
      for (int32_t i = 0; i < D; i++) {
        const int32_t xv = x[i];
        a0 += w0[i] * xv;
        a1 += w1[i] * xv;
        a2 += w2[i] * xv;
        a3 += w3[i] * xv;
      }
      y[o] = finish(a0, p, q, o);
      y[o + 1] = finish(a1, p, q, o + 1);
      y[o + 2] = finish(a2, p, q, o + 2);
      y[o + 3] = finish(a3, p, q, o + 3);
    }
    for (; o < O; o++) {
      const int8_t *w = filter + (size_t)o * D;
      int32_t a = bias_fold[o];
      for (int32_t i = 0; i < D; i++)
        a += w[i] * x[i];
      y[o] = finish(a, p, q, o);
    }
  }
  return TA_OK;
}
