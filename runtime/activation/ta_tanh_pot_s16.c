/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_tanh_pot_s16 - int16 TANH as TFLite computes it for the power-of-two
 * input scales 2^-12 (input_left_shift 0) and 2^-11 (1) (ta_kernels_s16.h):
 * the raw input, doubled with saturation for shift 1, read as Q3.12,
 * out = gemmlowp::tanh(x) in Q0.15 (optimized_ops::Tanh for int16, scalar
 * loop; fixed16.h).  Reads p->size and p->input_left_shift.
 */
#include "ta_kernels.h"

#include "fixed16.h"

ta_status ta_tanh_pot_s16(const ta_sigmoid_s16_params *p, const int16_t *in, int16_t *out) {
  if (p->size < 0 || p->input_left_shift < 0 || p->input_left_shift > 1)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < p->size; i++) {
    const int16_t x = p->input_left_shift ? ta_f16_sat_shl(in[i], 1) : in[i];
    out[i] = ta_f16_tanh(x);
  }
  return TA_OK;
}
