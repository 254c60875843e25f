/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_reduce_max_s8 - int8 REDUCE_MAX (TFLite Micro's EvalMaxHelper): the
 * largest raw value of each output's inputs; input and output share one
 * quantization (the compiler checks it, as TFLM's kernel does).
 */
#include <float.h>
#include <stdint.h>

#include "ta_kernels.h"
#include "reduce.h"

ta_status ta_reduce_max_s8(const ta_mean_params *p, const int8_t *in, int8_t *out) {
  TA_REDUCE_LOOP(int8_t, INT8_MIN, TA_REDUCE_MAX_STEP);
}
