/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_add_n_f32 - float ADD_N (reference_ops::AddN): out[i] = in[0][i] +
 * in[1][i] + ... + in[n-1][i], summed in input order.  out may be one of
 * the inputs: element i of every input is read before out[i] is written.
 */
#include "ta_kernels.h"

ta_status ta_add_n_f32(const ta_unary_params *p, int32_t n, const void *const *in, float *out) {
  if (p->size < 0 || n < 1 || !in)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < p->size; i++) {
    float sum = ((const float *)in[0])[i];
    for (int32_t k = 1; k < n; k++)
      sum += ((const float *)in[k])[i];
    out[i] = sum;
  }
  return TA_OK;
}
