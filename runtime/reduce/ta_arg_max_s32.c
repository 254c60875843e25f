/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_arg_max_s32 - ARG_MAX (reference_ops::ArgMinMax): along the
 * middle dimension of [outer][axis][inner], the index of the first
 * largest value, stored as int32 or int64 (p->out_bits).
 */
#include "ta_kernels.h"

ta_status ta_arg_max_s32(const ta_arg_params *p, const int32_t *in, void *out) {
  if (p->outer < 0 || p->axis < 1 || p->inner < 0 || (p->out_bits != 32 && p->out_bits != 64))
    return TA_ERR_ARG;
  int32_t *o32 = (int32_t *)out;
  int64_t *o64 = (int64_t *)out;
  for (int32_t o = 0; o < p->outer; o++) {
    const int32_t *row = in + (size_t)o * (size_t)p->axis * (size_t)p->inner;
    for (int32_t k = 0; k < p->inner; k++) {
      int32_t best = row[k];
      int32_t at = 0;
      for (int32_t a = 1; a < p->axis; a++) {
        const int32_t v = row[(size_t)a * (size_t)p->inner + (size_t)k];
        if (v > best) {
          best = v;
          at = a;
        }
      }
      const size_t i = (size_t)o * (size_t)p->inner + (size_t)k;
      if (p->out_bits == 64)
        o64[i] = at;
      else
        o32[i] = at;
    }
  }
  return TA_OK;
}
