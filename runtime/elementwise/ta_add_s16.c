/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_add_s16 - int16 ADD, the general path (any scales): TFLite's AddElementwise with
 * left_shift 15, over a broadcast (BroadcastAdd6DSlow).
 * The arithmetic is in binary_s16.h.
 */
#include "binary_s16.h"

ta_status ta_add_s16(const ta_add_params *p, const ta_bcast *shape,
                     const int16_t *in1, const int16_t *in2, int16_t *out) {
  return ta_binary_s16(p, shape, in1, in2, out, TA_S16_ADD);
}
