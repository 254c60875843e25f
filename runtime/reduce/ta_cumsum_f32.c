/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_cumsum_f32 - float CUMSUM (TFLite Micro's reference_ops::CumSum):
 * the input is [outer][axis][inner]; along the axis, forwards or (reverse)
 * backwards, a float running sum from 0.0f - each output the sum up to
 * and including its element, or (exclusive) before it.
 */
#include <stddef.h>

#include "ta_kernels.h"

ta_status ta_cumsum_f32(const ta_cumsum_params *p, const float *in, float *out) {
  if (p->outer < 0 || p->axis < 0 || p->inner < 0)
    return TA_ERR_ARG;
  for (int32_t o = 0; o < p->outer; o++)
    for (int32_t i = 0; i < p->inner; i++) {
      float acc = 0.0f;
      for (int32_t k = 0; k < p->axis; k++) {
        const int32_t a = p->reverse ? p->axis - 1 - k : k;
        const size_t at = ((size_t)o * (size_t)p->axis + (size_t)a) * (size_t)p->inner + (size_t)i;
        if (p->exclusive) {
          out[at] = acc;
          acc += in[at];
        } else {
          acc += in[at];
          out[at] = acc;
        }
      }
    }
  return TA_OK;
}
