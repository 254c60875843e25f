/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_mean_div_s16 - int16 MEAN when input and output have the same scale and
 * zero point, as TFLite's reference_ops::Mean<int16_t, int>: for each
 * output the int32 sum of its count inputs divided by count in integer
 * arithmetic (truncated toward zero).
 */
#include "ta_fixedpoint.h"
#include "ta_kernels.h"
#include "reduce.h"

ta_status ta_mean_div_s16(const ta_mean_params *p, const int16_t *in, int16_t *out) {
  TA_MEAN_LOOP(int16_t, -32768, 32767, TA_MEAN_DIV_BODY);
}
