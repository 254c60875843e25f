/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_sum_raw_s8 - int8_t SUM as TFLite's builtin kernel computes it when
 * input and output share one quantization (`--rounding single`;
 * EvalGeneric): the raw values added in the type itself, zero points
 * ignored, wrapping on overflow.  TFLite Micro rescales instead
 * (ta_mean_s8 with the multiplier of 1.0, saturating).
 */
#include "ta_fixedpoint.h"
#include "ta_kernels.h"
#include "reduce.h"

ta_status ta_sum_raw_s8(const ta_mean_params *p, const int8_t *in, int8_t *out) {
  TA_MEAN_LOOP(int8_t, INT32_MIN, INT32_MAX, TA_SUM_RAW_BODY);
}
