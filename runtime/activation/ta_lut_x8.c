/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_lut_x8 - an element-wise function of one 8-bit input (int8 or
 * uint8) as a 256-entry table: out[i] = table[(uint8_t)in[i]].
 *
 * The compiler computes the table with the op's own integer arithmetic
 * (compiler/quant_ops.c: TFLite Micro's reference LOGISTIC, TANH,
 * HARD_SWISH, LEAKY_RELU, RELU... on each of the 256 input values), so
 * the output equals that arithmetic's for every input.
 */
#include "ta_kernels.h"

ta_status ta_lut_x8(const ta_lut_params *p, const void *in, void *out) {
  if (p->size < 0 || !p->table)
    return TA_ERR_ARG;
  const uint8_t *x = (const uint8_t *)in;
  uint8_t *y = (uint8_t *)out;
  for (int32_t i = 0; i < p->size; i++)
    y[i] = p->table[x[i]];
  return TA_OK;
}
