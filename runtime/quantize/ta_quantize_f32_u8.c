/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_quantize_f32_u8 - QUANTIZE/DEQUANTIZE, float -> uint8_t (see quant_common.h for the
 * arithmetic and the TFLite function it matches).
 */
#include "ta_kernels.h"
#include "quant_common.h"

ta_status ta_quantize_f32_u8(const ta_affine_params *p, const float *in, uint8_t *out) {
  if (p->size < 0 || !(p->scale > 0.0f))
    return TA_ERR_ARG;
  for (int32_t i = 0; i < p->size; i++)
    out[i] = (uint8_t)ta_affine_q(in[i], p->scale, p->zero_point, 0, 255);
  return TA_OK;
}
