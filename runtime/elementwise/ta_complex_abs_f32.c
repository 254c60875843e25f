/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_complex_abs_f32 - COMPLEX_ABS of complex64 values (TFLite's
 * complex_support.cc: std::abs of std::complex<float>, which is hypot):
 * out[i] = hypotf(in[2i], in[2i + 1]).
 */
#include <math.h>
#include <stddef.h>

#include "ta_kernels.h"

ta_status ta_complex_abs_f32(const ta_unary_params *p, const float *in, float *out) {
  if (p->size < 0)
    return TA_ERR_ARG;
  for (int32_t i = 0; i < p->size; i++)
    out[i] = hypotf(in[2 * (size_t)i], in[2 * (size_t)i + 1]);
  return TA_OK;
}
