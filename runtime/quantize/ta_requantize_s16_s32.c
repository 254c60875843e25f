/*
 * ta_requantize_s16_s32 - QUANTIZE, int16_t -> int32_t (see quant_common.h
 * for the arithmetic and the TFLite function it matches; the clamp to the
 * int32 range is the identity).
 */
#include "ta_kernels.h"
#include "quant_common.h"

ta_status ta_requantize_s16_s32(const ta_requant_params *p, const int16_t *in,
                                int32_t *out) {
  if (p->size < 0 || p->shift < -31 || p->shift > 30)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < p->size; i++)
    out[i] = ta_requant_q(in[i], p, INT32_MIN, INT32_MAX);
  return TA_OK;
}
