/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_greater_s16 - GREATER of int16 values with broadcasting (TFLM
 * reference_ops::GreaterWithScaling, the one TFLM comparison with an int16
 * case): both inputs rescaled as for int8 (math.h, ta_rescale_input; left
 * shift 8), then a' > b'.
 */
#include "math_loops.h"

#define TA_OP(a, b) ((a) > (b))
ta_status ta_greater_s16(const ta_add_params *p, const ta_bcast *shape, const int16_t *in1,
                         const int16_t *in2, uint8_t *out) {
  TA_SCALED_COMPARE();
}
