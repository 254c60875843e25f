/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_quantize_double_f32_s16 - QUANTIZE float -> int16_t with the division
 * by the scale in double, as TFLite's (not TFLite Micro's) int16 QUANTIZE
 * computes it (see quant_common.h, ta_affine_q_double).  The compiler
 * takes it with --rounding single only; on a core with a single-precision
 * FPU it brings in the C library's software double arithmetic.
 */
#include "ta_kernels.h"
#include "quant_common.h"

ta_status ta_quantize_double_f32_s16(const ta_affine_params *p, const float *in,
                                     int16_t *out) {
  if (p->size < 0 || !(p->scale > 0.0f))
    return TA_ERR_ARG;
  for (int32_t i = 0; i < p->size; i++)
    out[i] = (int16_t)ta_affine_q_double(in[i], p->scale, p->zero_point, -32768, 32767);
  return TA_OK;
}
