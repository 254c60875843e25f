/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_select_x64 - SELECT / SELECT_V2 of 64-bit elements (ONNX Where of
 * int64 or float64): out = cond ? x : y, broadcast (select.h).
 */
#include "select.h"

ta_status ta_select_x64(const ta_select_shape *s, const uint8_t *cond, const void *x,
                        const void *y, void *out) {
  TA_SELECT_BODY(uint64_t);
}
