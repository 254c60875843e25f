/* SPDX-License-Identifier: Apache-2.0 */
/*
 * user_energy.c - the custom op UserEnergy12 of the tests that build
 * several models together (test_flat_build.sh, tests/arm/
 * test_weights_section.sh): audio_preprocessor_int8's SignalEnergy op
 * under another name, written as a user would.  SignalEnergy's
 * arithmetic: for each complex bin i of the int16 spectrum, re^2 + im^2
 * as uint32, bins outside [start_index, end_index) = [5, 241) zero.
 */
#include "ta_kernels.h"

ta_status user_energy(const ta_custom_op *op, const void *const *inputs,
                      void *const *outputs, void *scratch);

ta_status user_energy(const ta_custom_op *op, const void *const *inputs,
                      void *const *outputs, void *scratch) {
  const int16_t *x = (const int16_t *)inputs[0];
  uint32_t *y = (uint32_t *)outputs[0];
  int32_t i;
  (void)scratch;
  if (op->noutputs != 1 || op->outputs[0].dims[0] != 257)
    return TA_ERR_ARG;
  for (i = 0; i < 257; i++) {
    int32_t re = x[2 * i], im = x[2 * i + 1];
    y[i] = i < 5 || i >= 241 ? 0u : (uint32_t)(re * re) + (uint32_t)(im * im);
  }
  return TA_OK;
}
