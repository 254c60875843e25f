/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_sum_f32 - float SUM (TFLite Micro's EvalSumHelper, reference_ops::ReduceGeneric):
 * each output is 0.0f plus its count inputs, added in the inner walk's
 * (row-major) order.
 */
#include <float.h>
#include <stdint.h>

#include "ta_kernels.h"
#include "reduce.h"

ta_status ta_sum_f32(const ta_mean_params *p, const float *in, float *out) {
  TA_REDUCE_LOOP(float, 0.0f, TA_REDUCE_SUM_STEP);
}
