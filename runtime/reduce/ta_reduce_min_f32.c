/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_reduce_min_f32 - float REDUCE_MIN (TFLite Micro's EvalMinHelper): each
 * output starts at FLT_MAX and keeps the smaller of it and each input.
 */
#include <float.h>
#include <stdint.h>

#include "ta_kernels.h"
#include "reduce.h"

ta_status ta_reduce_min_f32(const ta_mean_params *p, const float *in, float *out) {
  TA_REDUCE_LOOP(float, FLT_MAX, TA_REDUCE_MIN_STEP);
}
