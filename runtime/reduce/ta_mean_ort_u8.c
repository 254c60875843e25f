/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_mean_ort_u8 - uint8 MEAN as ONNX Runtime's QLinearGlobalAveragePool
 * computes it (MLAS): for each output (the outer walk, in order) the
 * int32 sum of its count inputs, then
 *   clamp(round_half_even((float)(sum - input_zero_point * count) * scale)
 *         + output_zero_point, 0, 255)
 * with scale = input_scale / (output_scale * count) in float, its bits
 * in p->multiplier (ta_requant() with TA_ROUND_ORT).
 */
#include "ta_fixedpoint.h"
#include "ta_kernels.h"
#include "reduce.h"

ta_status ta_mean_ort_u8(const ta_mean_params *p, const uint8_t *in, uint8_t *out) {
  if (p->rounding != TA_ROUND_ORT)
    return TA_ERR_ARG;
  TA_MEAN_LOOP(uint8_t, 0, 255, TA_MEAN_ZP_BODY);
}
