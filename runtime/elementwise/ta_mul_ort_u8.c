/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_mul_ort_u8 - MUL with broadcasting as ONNX Runtime's QLinearMul
 * computes it on x86 (MLAS's SSE2 kernel), per element:
 *   p = (x1 - zp1) * (x2 - zp2)                  (int32, exact)
 *   out = clamp(round_half_even((float)p * ratio + output_zero_point),
 *               act_min, act_max)
 * with the product and the sum rounded to float one after the other
 * (MULPS, ADDPS); the same whichever input is broadcast, ONNX Runtime's
 * swap of a one-value first input changing neither the exact product
 * nor ratio.  --rounding onnxruntime.
 */
#include "ta_fixedpoint.h"
#include "ta_kernels.h"
#include "binary.h"

static inline uint8_t mul_ort_u8(const ta_mul_ort_params *p, uint8_t x1, uint8_t x2) {
  const int32_t prod = ((int32_t)x1 - p->zp1) * ((int32_t)x2 - p->zp2);
  volatile float scaled = (float)prod * p->ratio;
  const float t = scaled + p->output_zero_point;
  return (uint8_t)ta_clamp_i32(ta_round_even_f32(t), p->act_min, p->act_max);
}

#define MUL_ORT(a, b) mul_ort_u8(p, (a), (b))

ta_status ta_mul_ort_u8(const ta_mul_ort_params *p, const ta_bcast *shape, const uint8_t *in1,
                        const uint8_t *in2, uint8_t *out) {
  if (!ta_bcast_ok(shape))
    return TA_ERR_ARG;
  TA_BINARY_LOOP(shape, in1, in2, out, MUL_ORT);
  return TA_OK;
}
