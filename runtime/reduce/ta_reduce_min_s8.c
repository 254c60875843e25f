/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_reduce_min_s8 - int8 REDUCE_MIN (TFLite Micro's EvalMinHelper): the
 * smallest raw value; input and output share one quantization.
 */
#include <float.h>
#include <stdint.h>

#include "ta_kernels.h"
#include "reduce.h"

ta_status ta_reduce_min_s8(const ta_mean_params *p, const int8_t *in, int8_t *out) {
  TA_REDUCE_LOOP(int8_t, INT8_MAX, TA_REDUCE_MIN_STEP);
}
