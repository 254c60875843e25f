/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_reduce_min_s16 - int16 REDUCE_MIN (TFLite's builtin kernel): the
 * smallest raw value; input and output share one quantization.
 */
#include <float.h>
#include <stdint.h>

#include "ta_kernels.h"
#include "reduce.h"

ta_status ta_reduce_min_s16(const ta_mean_params *p, const int16_t *in, int16_t *out) {
  TA_REDUCE_LOOP(int16_t, INT16_MAX, TA_REDUCE_MIN_STEP);
}
