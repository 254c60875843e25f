/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_select_x32 - SELECT / SELECT_V2 of 32-bit elements (any type of that
 * width): out = cond ? x : y, broadcast (select.h).
 */
#include "select.h"

ta_status ta_select_x32(const ta_select_shape *s, const uint8_t *cond, const void *x,
                        const void *y, void *out) {
  TA_SELECT_BODY(uint32_t);
}
