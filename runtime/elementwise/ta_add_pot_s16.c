/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_add_pot_s16 - int16 ADD with power-of-two scales: TFLite's
 * reference_ops::Add(..., pot_scale = true).
 * The arithmetic is in binary_s16.h.
 */
#include "binary_s16.h"

ta_status ta_add_pot_s16(const ta_add_params *p, const ta_bcast *shape,
                         const int16_t *in1, const int16_t *in2, int16_t *out) {
  return ta_binary_s16(p, shape, in1, in2, out, TA_S16_ADD_POT);
}
