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
  const float scale = p->scale; /* in locals: the stores may alias *p */
  const int32_t zp = p->zero_point, n = p->size;
  TA_AFFINE_Q_LOOP(uint8_t, in, out, n, scale, zp, 0, 255);
  return TA_OK;
}
