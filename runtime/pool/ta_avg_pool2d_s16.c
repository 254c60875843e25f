/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_avg_pool2d_s16 - int16 AVERAGE_POOL_2D (16x8), as
 * tflite::reference_integer_ops::AveragePool for int16 (TFLite and TFLite
 * Micro): the int8 arithmetic with int16 values (pool_int.h).
 */
#include "ta_kernels.h"
#include "pool_int.h"

ta_status ta_avg_pool2d_s16(const ta_pool_params *p, const ta_dims *in_dims, const int16_t *in,
                            const ta_dims *out_dims, int16_t *out) {
  TA_AVG_POOL_INT(int16_t);
}
