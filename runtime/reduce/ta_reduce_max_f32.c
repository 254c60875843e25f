/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_reduce_max_f32 - float REDUCE_MAX (TFLite Micro's EvalMaxHelper): each
 * output starts at the lowest float (-FLT_MAX, so an output whose inputs
 * are all -inf is -FLT_MAX there too) and keeps the larger of it and each
 * input.
 */
#include <float.h>
#include <stdint.h>

#include "ta_kernels.h"
#include "reduce.h"

ta_status ta_reduce_max_f32(const ta_mean_params *p, const float *in, float *out) {
  TA_REDUCE_LOOP(float, -FLT_MAX, TA_REDUCE_MAX_STEP);
}
