/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_add_ort_u8 - ADD of two tensors of the same shape as ONNX Runtime's
 * QLinearAdd computes it on x86 (MLAS's AVX2 kernel), per element:
 *   t = fmaf(x2, ratio2, fixed)
 *   t = fmaf(x1, ratio1, t)
 *   out = clamp(round_half_even(t), act_min, act_max)
 * (the zero points are in fixed; one rounding per fused multiply-add, as
 * VFMADD does).  --rounding onnxruntime; n elements.
 */
#include <math.h>

#include "ta_fixedpoint.h"
#include "ta_kernels.h"

ta_status ta_add_ort_u8(const ta_add_ort_params *p, int32_t n, const uint8_t *in1,
                        const uint8_t *in2, uint8_t *out) {
  if (n < 0)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < n; i++) {
    const float t = fmaf((float)in1[i], p->ratio1, fmaf((float)in2[i], p->ratio2, p->fixed));
    out[i] = (uint8_t)ta_clamp_i32(ta_round_even_f32(t), p->act_min, p->act_max);
  }
  return TA_OK;
}
