/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_concatenation_requant_u8 - legacy uint8 CONCATENATION whose inputs'
 * quantization differs from the output's, as TFLite's builtin kernel
 * computes it (ConcatenationWithScaling): `outer` times, block k of
 * input k (bytes[k] values) is copied when copy[k], else rescaled
 *   out = clamp((int32_t)roundf(x * scale[k] + bias[k]) + output_zero_point, 0, 255)
 * with scale = input_scale * (1 / output_scale) and bias = -input_zero_point
 * * scale, computed by the compiler in float.  The float operations round
 * as written (TA_FP_STRICT).
 */
#include <math.h>
#include <string.h>

#include "ta_fpstrict.h"
#include "ta_kernels.h"

TA_FP_STRICT
ta_status ta_concatenation_requant_u8(const ta_concat_u8_params *p, const void *const *in,
                                      uint8_t *out) {
  if (p->n < 1 || p->outer < 0)
    return TA_ERR_ARG;
  for (int32_t k = 0; k < p->n; k++)
    if (p->bytes[k] < 0)
      return TA_ERR_ARG;
  for (int32_t o = 0; o < p->outer; o++)
    for (int32_t k = 0; k < p->n; k++) {
      const size_t n = (size_t)p->bytes[k];
      const uint8_t *x = (const uint8_t *)in[k] + (size_t)o * n;
      if (p->copy[k]) {
        memcpy(out, x, n);
      } else {
        const float s = p->scale[k], b = p->bias[k];
        for (size_t i = 0; i < n; i++) {
          const float v = (float)x[i] * s + b;
          const float r = roundf(v);
          const int32_t q = (int32_t)r + p->output_zero_point;
          out[i] = (uint8_t)(q < 0 ? 0 : q > 255 ? 255 : q);
        }
      }
      out += n;
    }
  return TA_OK;
}
