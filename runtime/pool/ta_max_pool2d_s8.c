/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_max_pool2d_s8 - int8 MAX_POOL_2D, as tflite::reference_integer_ops::
 * MaxPool: the maximum over the window clipped to the input (starting
 * from -128), clamped to [act_min, act_max] (pool_int.h).
 */
#include "ta_kernels.h"
#include "pool_int.h"

ta_status ta_max_pool2d_s8(const ta_pool_params *p, const ta_dims *in_dims, const int8_t *in,
                           const ta_dims *out_dims, int8_t *out) {
  TA_MAX_POOL_INT(int8_t, -128);
}
