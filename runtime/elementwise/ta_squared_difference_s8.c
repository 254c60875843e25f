/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_squared_difference_s8 - int8 SQUARED_DIFFERENCE with broadcasting (TFLM
 * squared_difference.cc, left_shift 7): math.h, ta_sqdiff_q().
 */
#include "math_loops.h"

ta_status ta_squared_difference_s8(const ta_add_params *p, const ta_bcast *shape,
                                   const int8_t *in1, const int8_t *in2, int8_t *out) {
  TA_RAW_BINARY((int8_t)TA_SQDIFF_ONE);
}
