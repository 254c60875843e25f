/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_fully_connected_hybrid_f32 - "hybrid" (dynamic-range)
 * FULLY_CONNECTED: float input and output, int8 weights, float bias, as
 * TFLite's builtin kernel computes it (fully_connected.cc
 * EvalHybridDense, tensor_utils' BatchQuantizeFloats and
 * MatrixBatchVectorMultiplyAccumulate):
 *
 *   per batch row b (in_depth values):
 *     symmetric:  q = SymmetricQuantizeFloats(row), factor, offset 0
 *     asymmetric: q = AsymmetricQuantizeFloats(row), factor, offset
 *     per-tensor weights: factor *= filter_scale[0]
 *   per output o:
 *     dot = sum over i of filter[o][i] * q[i]               (int32)
 *     asymmetric: dot -= row_sums[o] * offset
 *     scale = factor, times filter_scale[o] when per channel
 *     out[b][o] = clamp(bias[o] + (float)dot * scale, act_min, act_max)
 *
 * (TFLite's portable MatrixBatchVectorMultiplyAccumulate drops the
 * per-channel scales when the inputs are quantized symmetrically, its
 * SSE and NEON ones apply them: the compiler refuses that combination.
 * TFLite subtracts row_sums * offset in float; that is exact while the
 * products stay below 2^24, as they do for rows of fewer than 1000
 * weights.)
 *
 * scratch: in_depth bytes (the quantized row).  Float steps round as
 * written (TA_FP_STRICT).
 */
#include "ta_hybrid.h"
#include "ta_kernels.h"

TA_FP_STRICT
ta_status ta_fully_connected_hybrid_f32(const ta_fc_params *p, const ta_fc_hybrid_params *h,
                                        const float *in, const int8_t *filter,
                                        const float *bias, float *out, void *scratch) {
  const int32_t B = p->batches, D = p->in_depth, O = p->out_depth;
  if (B < 0 || D < 0 || O < 0 || !scratch || !h->filter_scale ||
      (h->asymmetric && !h->row_sums))
    return TA_ERR_ARG;
  int8_t *q = (int8_t *)scratch;
  for (int32_t b = 0; b < B; b++) {
    const float *x = in + (size_t)b * (size_t)D;
    float *y = out + (size_t)b * (size_t)O;
    float factor;
    int32_t offset = 0;
    if (h->asymmetric)
      ta_hybrid_quantize_asymmetric(x, (size_t)D, q, &factor, &offset);
    else
      ta_hybrid_quantize_symmetric(x, (size_t)D, q, &factor);
    if (!h->per_channel)
      factor = factor * h->filter_scale[0];
    for (int32_t o = 0; o < O; o++) {
      const int8_t *w = filter + (size_t)o * (size_t)D;
      int32_t dot = 0;
      for (int32_t i = 0; i < D; i++)
        dot += (int32_t)w[i] * (int32_t)q[i];
      float scale = factor;
      if (h->asymmetric)
        dot -= h->row_sums[o] * offset;
      if (h->per_channel)
        scale = scale * h->filter_scale[o];
      float v = (bias ? bias[o] : 0.0f) + (float)dot * scale;
      v = v < p->act_min_f32 ? p->act_min_f32 : v;
      y[o] = v > p->act_max_f32 ? p->act_max_f32 : v;
    }
  }
  return TA_OK;
}
