/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_max_pool2d_s16 - int16 MAX_POOL_2D (16x8), as
 * tflite::reference_integer_ops::MaxPool for int16: the maximum over the
 * window clipped to the input (starting from -32768), clamped to
 * [act_min, act_max] (pool_int.h).
 */
#include "ta_kernels.h"
#include "pool_int.h"

ta_status ta_max_pool2d_s16(const ta_pool_params *p, const ta_dims *in_dims, const int16_t *in,
                            const ta_dims *out_dims, int16_t *out) {
  TA_MAX_POOL_INT(int16_t, -32768);
}
