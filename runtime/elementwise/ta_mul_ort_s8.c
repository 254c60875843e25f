/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_mul_ort_s8 - MUL of two tensors of the same shape as ONNX Runtime's
 * QLinearMul computes it on x86 (MLAS's SSE2 kernel), per element:
 *   p = (x1 - zp1) * (x2 - zp2)                  (int32, exact)
 *   out = clamp(round_half_even((float)p * ratio + output_zero_point),
 *               act_min, act_max)
 * with the product and the sum rounded to float one after the other
 * (MULPS, ADDPS).  --rounding onnxruntime; n elements.
 */
#include "ta_fixedpoint.h"
#include "ta_kernels.h"

ta_status ta_mul_ort_s8(const ta_mul_ort_params *p, int32_t n, const int8_t *in1,
                        const int8_t *in2, int8_t *out) {
  if (n < 0)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < n; i++) {
    const int32_t prod = ((int32_t)in1[i] - p->zp1) * ((int32_t)in2[i] - p->zp2);
    volatile float scaled = (float)prod * p->ratio;
    const float t = scaled + p->output_zero_point;
    out[i] = (int8_t)ta_clamp_i32(ta_round_even_f32(t), p->act_min, p->act_max);
  }
  return TA_OK;
}
