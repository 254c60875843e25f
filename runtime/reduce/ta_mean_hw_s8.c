/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_mean_hw_s8 - int8 MEAN over height and width of a 4-D tensor with
 * keep_dims, as TFLite's optimized_integer_ops::Mean computes it (the
 * oracle's build): for each output the int32 sum of its count inputs, then
 *   out = clamp(MultiplyByQuantizedMultiplier(sum, multiplier, shift)
 *               + output_zero_point, -128, 127)
 * multiplier and shift from input_scale / (count * output_scale) and
 * output_zero_point holding TFLite's bias (the output zero point minus
 * the rescaled input zero point), both from the compiler.
 */
#include "ta_fixedpoint.h"
#include "ta_kernels.h"
#include "reduce.h"

ta_status ta_mean_hw_s8(const ta_mean_params *p, const int8_t *in, int8_t *out) {
  TA_MEAN_LOOP(int8_t, -128, 127, TA_MEAN_HW_BODY);
}
