/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_max_pool2d_u8 - legacy uint8 MAX_POOL_2D (TFLite's uint8 MaxPool):
 * clamp(max of the taps, act_min, act_max) over the window clipped to the
 * input (pool_int.h).
 */
#include "ta_kernels.h"
#include "pool_int.h"

ta_status ta_max_pool2d_u8(const ta_pool_params *p, const ta_dims *in_dims, const uint8_t *in,
                           const ta_dims *out_dims, uint8_t *out) {
  TA_MAX_POOL_INT(uint8_t, 0);
}
