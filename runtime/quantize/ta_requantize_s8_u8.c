/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_requantize_s8_u8 - QUANTIZE/DEQUANTIZE, int8_t -> uint8_t (see quant_common.h for the
 * arithmetic and the TFLite function it matches).
 */
#include "ta_kernels.h"
#include "quant_common.h"

ta_status ta_requantize_s8_u8(const ta_requant_params *p, const int8_t *in, uint8_t *out) {
  if (p->size < 0 || p->shift < -31 || p->shift > 30)
    return TA_ERR_ARG;
  TA_REQUANT_X8_LOOP(p, in, out, uint8_t, 0, 255);
  return TA_OK;
}
