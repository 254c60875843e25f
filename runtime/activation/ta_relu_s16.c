/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_relu_s16 - int16 RELU and RELU6 (16x8).
 *
 * Matches TFLite's ReluX (QuantizedReluX<int16_t>) and TFLite Micro's
 * ReluQuantized<int16_t>: per element
 *   out = min(max(output_zero_point + MultiplyByQuantizedMultiplier(
 *             in - input_zero_point, multiplier, shift), act_min), act_max)
 * (act_max wins over act_min).  TFLite Micro's RELU6, a clamp of the raw
 * input, is this kernel with the identity multiplier (2^30, shift 1),
 * which gemmlowp's double rounding reproduces exactly.
 */
#include "ta_fixedpoint.h"
#include "ta_kernels.h"

ta_status ta_relu_s16(const ta_relu_params *p, const int16_t *in, int16_t *out) {
  if (p->size < 0 || p->shift < -31 || p->shift > 30)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < p->size; i++) {
    const int32_t x = ta_wrap_sub(in[i], p->input_zero_point);
    int32_t v = ta_wrap_add(ta_requant(x, p->multiplier, p->shift, p->rounding),
                            p->output_zero_point);
    v = v < p->act_min ? p->act_min : v;
    out[i] = (int16_t)(v > p->act_max ? p->act_max : v);
  }
  return TA_OK;
}
