/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_mean_s8 - int8 MEAN as TFLite Micro's EvalIntegerMean computes it:
 * for each output (the outer walk, in order) the int32 sum of its count
 * inputs (the inner walk), then
 *   clamp(MultiplyByQuantizedMultiplier(sum - input_zero_point * count,
 *         multiplier, shift) + output_zero_point)
 *   (reference_ops::QuantizedMeanOrSum; the compiler folded 1/count into
 *   multiplier and shift the way that function does).
 */
#include "ta_fixedpoint.h"
#include "ta_kernels.h"
#include "reduce.h"

ta_status ta_mean_s8(const ta_mean_params *p, const int8_t *in, int8_t *out) {
  TA_MEAN_LOOP(int8_t, -128, 127, TA_MEAN_ZP_BODY);
}
