/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_softmax_table_s8 - int8 SOFTMAX (int8 output) as TFLite's builtin
 * kernel computes it (optimized_ops::Softmax<int8_t, int8_t> with the
 * float lookup table); see softmax_table.h.
 */
#include "ta_fpstrict.h"
#include "ta_kernels.h"
#include "softmax_table.h"

TA_FP_STRICT
ta_status ta_softmax_table_s8(const ta_softmax_u8_params *p, const int8_t *in, int8_t *out) {
  return ta_softmax_table_s8_any(p, in, out, 0, 8);
}
