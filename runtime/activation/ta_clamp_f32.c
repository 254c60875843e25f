/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_clamp_f32 - float RELU, RELU6, RELU_N1_TO_1 (reference_ops::Relu,
 * ReluX): min(max(x, lo), hi) with [lo, hi] = [0, FLT_MAX], [0, 6],
 * [-1, 1].
 */
#include <math.h>

#include "ta_kernels.h"

ta_status ta_clamp_f32(const ta_unary_params *p, const float *in, float *out) {
  if (p->size < 0)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < p->size; i++) {
    const float x = in[i];
    out[i] = x < p->lo ? p->lo : x > p->hi ? p->hi : x;
  }
  return TA_OK;
}
