/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_svdf_f32 - float SVDF (TFLM EvalFloatSvdfReference): shift the state
 * left by one, state[b][f][M-1] = sum_i w_f[f][i] * x[b][i] (in order),
 * s[b][f] = sum_m w_t[f][m] * state[b][f][m], out[b][u] = act(bias[u] +
 * sum_r s[b][u*rank + r]), the activation as a clamp.
 */
#include "ta_kernels.h"

size_t ta_svdf_f32_scratch_size(const ta_svdf_params *p) {
  if (p->batches < 0 || p->num_filters < 0)
    return 0;
  return (size_t)p->batches * (size_t)p->num_filters * sizeof(float);
}

ta_status ta_svdf_f32(const ta_svdf_params *p, const float *in, const float *w_feature,
                      const float *w_time, const float *bias, float *state, float *out,
                      void *scratch) {
  const int32_t B = p->batches, I = p->input_size, F = p->num_filters;
  const int32_t M = p->memory_size, R = p->rank;
  if (B < 0 || I < 0 || F < 0 || R <= 0 || M <= 0 || F % R || (!scratch && B && F))
    return TA_ERR_ARG;
  const int32_t U = F / R;
  float *sc = (float *)scratch;
  const size_t total = (size_t)B * (size_t)F * (size_t)M;
  for (size_t k = 0; k + 1 < total; k++)
    state[k] = state[k + 1];
  for (int32_t b = 0; b < B; b++) {
    const float *x = in + (size_t)b * (size_t)I;
    for (int32_t f = 0; f < F; f++) {
      const float *w = w_feature + (size_t)f * (size_t)I;
      float dot = 0.0f;
      for (int32_t i = 0; i < I; i++)
        dot += w[i] * x[i];
      state[((size_t)b * (size_t)F + (size_t)f) * (size_t)M + (size_t)(M - 1)] = dot;
    }
  }
  for (int32_t b = 0; b < B; b++) {
    const float *wt = w_time, *st = state + (size_t)b * (size_t)M * (size_t)F;
    for (int32_t f = 0; f < F; f++) {
      float s = 0.0f;
      for (int32_t m = 0; m < M; m++)
        s += *wt++ * *st++;
      sc[(size_t)b * (size_t)F + (size_t)f] = s;
    }
  }
  for (int32_t b = 0; b < B; b++) {
    const float *s = sc + (size_t)b * (size_t)F;
    for (int32_t u = 0; u < U; u++) {
      float v = bias ? bias[u] : 0.0f;
      for (int32_t r = 0; r < R; r++)
        v += *s++;
      v = v < p->act_min_f32 ? p->act_min_f32 : v > p->act_max_f32 ? p->act_max_f32 : v;
      out[(size_t)b * (size_t)U + (size_t)u] = v;
    }
  }
  return TA_OK;
}
