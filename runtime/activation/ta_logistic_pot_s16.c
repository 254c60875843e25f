/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_logistic_pot_s16 - int16 LOGISTIC as TFLite computes it for the
 * power-of-two input scale 2^-12 (ta_kernels_s16.h): the raw input read
 * as Q3.12, out = gemmlowp::logistic(in) in Q0.15 (optimized_ops::Logistic
 * for int16, scalar loop; fixed16.h).  Only p->size is read.
 */
#include "ta_kernels.h"

#include "fixed16.h"

ta_status ta_logistic_pot_s16(const ta_sigmoid_s16_params *p, const int16_t *in,
                              int16_t *out) {
  if (p->size < 0)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < p->size; i++)
    out[i] = ta_f16_logistic(in[i]);
  return TA_OK;
}
