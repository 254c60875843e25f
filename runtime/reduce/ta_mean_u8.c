/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_mean_u8 - legacy uint8 MEAN as TFLite's reference_ops::
 * QuantizedMeanOrSum computes it (compute_sum false): for each output
 * (the outer walk, in order) the int32 sum of its count inputs, then in
 * float
 *   mean = (float)sum / (float)count
 *   out  = clamp(roundf(mean * scale + bias) + output_zero_point, 0, 255)
 * with scale = input_scale / output_scale and bias = -input_zero_point *
 * scale from the compiler.
 * Every float operation rounds as written (TA_FP_STRICT).
 */
#include <math.h>

#include "ta_fixedpoint.h"
#include "ta_fpstrict.h"
#include "ta_kernels.h"
#include "reduce.h"

TA_FP_STRICT
ta_status ta_mean_u8(const ta_mean_params *p, const uint8_t *in, uint8_t *out) {
  TA_MEAN_LOOP(uint8_t, 0, 255, TA_MEAN_FLOAT_BODY(0, 255));
}
