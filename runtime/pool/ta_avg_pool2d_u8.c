/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_avg_pool2d_u8 - legacy uint8 AVERAGE_POOL_2D (TFLite's uint8
 * AveragePool, 32-bit sums): clamp((acc + count / 2) / count, act_min,
 * act_max) over the window clipped to the input (pool_int.h).
 */
#include "ta_kernels.h"
#include "pool_int.h"

ta_status ta_avg_pool2d_u8(const ta_pool_params *p, const ta_dims *in_dims, const uint8_t *in,
                           const ta_dims *out_dims, uint8_t *out) {
  TA_AVG_POOL_INT(uint8_t);
}
