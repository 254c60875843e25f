/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_requantize_s16_s16 - QUANTIZE/DEQUANTIZE, int16_t -> int16_t (see quant_common.h for the
 * arithmetic and the TFLite function it matches).
 */
#include "ta_kernels.h"
#include "quant_common.h"

ta_status ta_requantize_s16_s16(const ta_requant_params *p, const int16_t *in, int16_t *out) {
  if (p->size < 0 || p->shift < -31 || p->shift > 30)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < p->size; i++)
    out[i] = (int16_t)ta_requant_q(in[i], p, -32768, 32767);
  return TA_OK;
}
