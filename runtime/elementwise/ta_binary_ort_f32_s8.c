/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_binary_ort_f32_s8 - an int8 ADD or MUL that ONNX Runtime computes in
 * float32 (--rounding onnxruntime): a QDQ Add or Mul group its x86 build
 * does not fuse (its inputs and output do not all have one type after
 * its int8 -> uint8 conversion), run as DequantizeLinear, the float op
 * and QuantizeLinear, per element:
 *   a = (float)(x1 - zp1) * scale1,  b = (float)(x2 - zp2) * scale2
 *   v = a + b  (p->mul: a * b), clamped to [act_min_f32, act_max_f32]
 *   out = round_half_even(clamp(v / out_scale, -128 - zp, 127 - zp)) + zp
 * each step rounded to float on its own (the volatile keeps a compiler
 * from fusing a product into the sum).
 */
#include "ta_fixedpoint.h"
#include "ta_kernels.h"
#include "binary.h"

static inline int8_t binary_ort_f32(const ta_binary_ort_params *p, int8_t x1, int8_t x2) {
  volatile float a = (float)((int32_t)x1 - p->zp1) * p->scale1;
  volatile float b = (float)((int32_t)x2 - p->zp2) * p->scale2;
  float v = p->mul ? a * b : a + b;
  v = v < p->act_min_f32 ? p->act_min_f32 : v;
  v = v > p->act_max_f32 ? p->act_max_f32 : v;
  float q = v / p->out_scale;
  const float lo = (float)(-128 - p->out_zp), hi = (float)(127 - p->out_zp);
  q = q < lo ? lo : q;
  q = q > hi ? hi : q;
  return (int8_t)(ta_round_even_f32(q) + p->out_zp);
}

#define BINARY_ORT_F32(a, b) binary_ort_f32(p, (a), (b))

ta_status ta_binary_ort_f32_s8(const ta_binary_ort_params *p, const ta_bcast *shape,
                               const int8_t *in1, const int8_t *in2, int8_t *out) {
  if (!ta_bcast_ok(shape))
    return TA_ERR_ARG;
  TA_BINARY_LOOP(shape, in1, in2, out, BINARY_ORT_F32);
  return TA_OK;
}
