/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_fully_connected_f32 - float FULLY_CONNECTED.
 *
 * Matches tflite::reference_ops::FullyConnected (float): total = sum over
 * i ascending of in[b][i] * filter[o][i], then
 * min(max(total + bias[o], act_min_f32), act_max_f32).  Four outputs are
 * accumulated side by side, each in that order.
 */
#include "ta_kernels.h"

static inline float act(float v, const ta_fc_params *p) {
  v = v < p->act_min_f32 ? p->act_min_f32 : v;
  return v > p->act_max_f32 ? p->act_max_f32 : v;
}

ta_status ta_fully_connected_f32(const ta_fc_params *p,
                                 const float *in, const float *filter,
                                 const float *bias, float *out) {
  const int32_t B = p->batches, D = p->in_depth, O = p->out_depth;
  if (B < 0 || D < 0 || O < 0)
    return TA_ERR_ARG;
  for (int32_t b = 0; b < B; b++) {
    const float *x = in + (size_t)b * (size_t)D;
    float *y = out + (size_t)b * (size_t)O;
    int32_t o = 0;
    for (; o + 4 <= O; o += 4) {
      const float *w0 = filter + (size_t)o * (size_t)D, *w1 = w0 + D, *w2 = w1 + D, *w3 = w2 + D;
      float t0 = 0.0f, t1 = 0.0f, t2 = 0.0f, t3 = 0.0f;
      for (int32_t i = 0; i < D; i++) {
        const float xv = x[i];
        t0 += xv * w0[i];
        t1 += xv * w1[i];
        t2 += xv * w2[i];
        t3 += xv * w3[i];
      }
      y[o] = act(t0 + (bias ? bias[o] : 0.0f), p);
      y[o + 1] = act(t1 + (bias ? bias[o + 1] : 0.0f), p);
      y[o + 2] = act(t2 + (bias ? bias[o + 2] : 0.0f), p);
      y[o + 3] = act(t3 + (bias ? bias[o + 3] : 0.0f), p);
    }
    for (; o < O; o++) {
      const float *w = filter + (size_t)o * (size_t)D;
      float t = 0.0f;
      for (int32_t i = 0; i < D; i++)
        t += x[i] * w[i];
      y[o] = act(t + (bias ? bias[o] : 0.0f), p);
    }
  }
  return TA_OK;
}
