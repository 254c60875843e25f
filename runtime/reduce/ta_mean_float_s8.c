/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_mean_float_s8 - int8 MEAN as TFLite's reference_ops::QuantizedMeanOrSum
 * computes it in float (compute_sum false): for each output the int32
 * sum of its count inputs, then
 *   mean = (float)sum / (float)count
 *   out  = clamp(roundf(mean * scale + bias) + output_zero_point)
 * with scale = input_scale / output_scale and bias = -input_zero_point *
 * scale from the compiler.  Every float operation rounds as written.
 */
#include <math.h>

#include "ta_fixedpoint.h"
#include "ta_fpstrict.h"
#include "ta_kernels.h"
#include "reduce.h"

TA_FP_STRICT
ta_status ta_mean_float_s8(const ta_mean_params *p, const int8_t *in, int8_t *out) {
  TA_MEAN_LOOP(int8_t, -128, 127, TA_MEAN_FLOAT_BODY(-128, 127));
}
