/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_sum_float_s8 - int8 SUM as TFLite's builtin kernel computes it when
 * input and output quantization differ (`--rounding single`):
 * reference_ops::QuantizedMeanOrSum in float, compute_sum true -
 *   out = (int8)((int32)roundf((float)sum * scale + bias) + output_zero_point)
 * with scale = input_scale / output_scale and bias = -input_zero_point *
 * scale * count (the compiler's), and no clamp: a sum beyond the int8
 * range wraps, as TFLite's cast does.  Every float operation rounds as
 * written.
 */
#include <math.h>

#include "ta_fixedpoint.h"
#include "ta_fpstrict.h"
#include "ta_kernels.h"
#include "reduce.h"

TA_FP_STRICT
ta_status ta_sum_float_s8(const ta_mean_params *p, const int8_t *in, int8_t *out) {
  TA_MEAN_LOOP(int8_t, INT32_MIN, INT32_MAX, TA_SUM_FLOAT_BODY);
}
