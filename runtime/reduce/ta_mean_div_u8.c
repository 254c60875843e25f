/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_mean_div_u8 - legacy uint8 MEAN when input and output have the same
 * scale and zero point, as TFLite's reference_ops::Mean<uint8_t, int>:
 * for each output the int32 sum of its count inputs divided by count in
 * integer arithmetic (truncated; the sum is not negative).
 */
#include "ta_fixedpoint.h"
#include "ta_kernels.h"
#include "reduce.h"

ta_status ta_mean_div_u8(const ta_mean_params *p, const uint8_t *in, uint8_t *out) {
  TA_MEAN_LOOP(uint8_t, 0, 255, TA_MEAN_DIV_BODY);
}
