/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_add_n_s8 - int8 ADD_N (TFLM reference_ops::AddN for int8): with
 * s(v) = requant_le1(v << left_shift, input1_multiplier, input1_shift),
 *   out[i] = clamp(requant_le1(s(input1_offset) + sum_j s(in[j][i] +
 *            input1_offset), output_multiplier, output_shift)
 *            + output_offset, act_min, act_max),
 * double rounding.  The leading s(input1_offset) is TFLM's: its
 * accumulator starts from the offset, not from 0.  out may be one of the
 * inputs (element i is read from every input before out[i] is written).
 */
#include "ta_kernels.h"
#include "ta_fixedpoint.h"

static inline int32_t scaled(const ta_add_params *p, int32_t v) {
  return ta_requant_le1(ta_wrap_shl(v, (int)p->left_shift), p->input1_multiplier,
                        p->input1_shift, TA_ROUND_DOUBLE);
}

ta_status ta_add_n_s8(const ta_add_params *p, int32_t size, int32_t n, const void *const *in,
                      int8_t *out) {
  if (size < 0 || n < 1 || !in)
    return TA_ERR_ARG;
  const int32_t start = scaled(p, p->input1_offset);
  for (int32_t i = 0; i < size; i++) {
    int32_t sum = start;
    for (int32_t k = 0; k < n; k++)
      sum = ta_wrap_add(sum, scaled(p, ((const int8_t *)in[k])[i] + p->input1_offset));
    const int32_t v = ta_requant_le1(sum, p->output_multiplier, p->output_shift,
                                     TA_ROUND_DOUBLE) + p->output_offset;
    out[i] = (int8_t)ta_clamp_i32(v, p->act_min, p->act_max);
  }
  return TA_OK;
}
