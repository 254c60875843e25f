/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_squared_difference_s16 - int16 SQUARED_DIFFERENCE with broadcasting (TFLM
 * squared_difference.cc, left_shift 0): math.h, ta_sqdiff_q().
 */
#include "math_loops.h"

ta_status ta_squared_difference_s16(const ta_add_params *p, const ta_bcast *shape,
                                    const int16_t *in1, const int16_t *in2, int16_t *out) {
  TA_RAW_BINARY((int16_t)TA_SQDIFF_ONE);
}
