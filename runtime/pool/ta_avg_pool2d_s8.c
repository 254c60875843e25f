/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_avg_pool2d_s8 - int8 AVERAGE_POOL_2D, as tflite::reference_integer_ops::
 * AveragePool: the rounded average of the window clipped to the input,
 * clamped to [act_min, act_max] (pool_int.h).
 */
#include "ta_kernels.h"
#include "pool_int.h"

ta_status ta_avg_pool2d_s8(const ta_pool_params *p, const ta_dims *in_dims, const int8_t *in,
                           const ta_dims *out_dims, int8_t *out) {
  TA_AVG_POOL_INT(int8_t);
}
