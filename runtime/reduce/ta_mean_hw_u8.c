/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_mean_hw_u8 - legacy uint8 MEAN over height and width of a 4-D
 * tensor with keep_dims, TFLite's special case (optimized_ops::Mean for
 * uint8): for each output the int32 sum of its count inputs, then
 *   out = clamp(MultiplyByQuantizedMultiplier(sum, multiplier, shift)
 *               + output_zero_point, 0, 255)
 * multiplier and shift from input_scale / (count * output_scale) and
 * output_zero_point holding TFLite's bias (the output zero point minus
 * the rescaled input zero point), both from the compiler.
 */
#include "ta_fixedpoint.h"
#include "ta_kernels.h"
#include "reduce.h"

ta_status ta_mean_hw_u8(const ta_mean_params *p, const uint8_t *in, uint8_t *out) {
  TA_MEAN_LOOP(uint8_t, 0, 255, TA_MEAN_HW_BODY);
}
