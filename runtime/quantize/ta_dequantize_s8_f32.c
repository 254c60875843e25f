/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_dequantize_s8_f32 - QUANTIZE/DEQUANTIZE, int8_t -> float (see quant_common.h for the
 * arithmetic and the TFLite function it matches).
 */
#include "ta_kernels.h"
#include "quant_common.h"

ta_status ta_dequantize_s8_f32(const ta_affine_params *p, const int8_t *in, float *out) {
  if (p->size < 0)
    return TA_ERR_ARG;
  const float scale = p->scale;
  const int32_t zp = p->zero_point;
  for (int32_t i = 0; i < p->size; i++)
    out[i] = scale * (float)((int32_t)in[i] - zp);
  return TA_OK;
}
