/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_add_ort_s8 - ADD with broadcasting as ONNX Runtime's QLinearAdd
 * computes it on x86 (MLAS's AVX2 kernel), per element
 *   t = fmaf(x1, ratio1, fmaf(x2, ratio2, fixed))
 *   out = clamp(round_half_even(t), act_min, act_max)
 * (the zero points are in fixed; one rounding per fused multiply-add).
 * ONNX Runtime walks the output in spans (its broadcaster's; the
 * ta_bcast rows here); along a span where input 1 is a single value it
 * swaps the operands, folding that value into the fixed term first,
 * and the fixed term is the swapped operands' (fixed21):
 *   t = fmaf(x2, ratio2, fmaf(x1, ratio1, fixed21))
 * which rounds differently now and then (tools/gen_qdq.py's
 * QLinearAdd _tie rows find such inputs).  A one-element input 1 takes
 * that form throughout (the compiler gives it stride 0).  --rounding
 * onnxruntime.
 */
#include <math.h>

#include "ta_fixedpoint.h"
#include "ta_kernels.h"
#include "bcast.h"

ta_status ta_add_ort_s8(const ta_add_ort_params *p, const ta_bcast *shape, const int8_t *in1,
                        const int8_t *in2, int8_t *out) {
  if (!ta_bcast_ok(shape))
    return TA_ERR_ARG;
  const int nd = shape->ndims;
  const int32_t n = shape->shape[nd - 1];
  const size_t s1 = (size_t)shape->stride1[nd - 1], s2 = (size_t)shape->stride2[nd - 1];
  const size_t rows = ta_bcast_rows(shape);
  int32_t idx[TA_MAX_DIMS] = {0};
  size_t o1 = 0, o2 = 0;
  for (size_t r = 0; r < rows; r++, out += n) {
    if (s1 == 0) {
      const float f = fmaf((float)in1[o1], p->ratio1, p->fixed21);
      for (int32_t i = 0; i < n; i++) {
        const float t = fmaf((float)in2[o2 + (size_t)i * s2], p->ratio2, f);
        out[i] = (int8_t)ta_clamp_i32(ta_round_even_f32(t), p->act_min, p->act_max);
      }
    } else {
      for (int32_t i = 0; i < n; i++) {
        const float t = fmaf((float)in1[o1 + (size_t)i * s1], p->ratio1,
                             fmaf((float)in2[o2 + (size_t)i * s2], p->ratio2, p->fixed));
        out[i] = (int8_t)ta_clamp_i32(ta_round_even_f32(t), p->act_min, p->act_max);
      }
    }
    ta_bcast_next(shape, idx, &o1, &o2);
  }
  return TA_OK;
}
