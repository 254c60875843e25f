/* SPDX-License-Identifier: Apache-2.0 */
/*
 * io_helpers.c - the header's quantize/dequantize helpers.
 *
 * For every quantized integer input and output (int8, uint8 or int16 with
 * one scale and zero point) the generated header gets two static inline
 * functions:
 *
 *   <p>_quantize_input<i>(float x)   real value -> the tensor's integer,
 *       as TFLite's QUANTIZE computes it (tflite::reference_ops::
 *       AffineQuantize): round(x / scale) half away from zero, plus the
 *       zero point, saturated; the division in float; NaN and values
 *       beyond int32 saturate (as runtime/quantize/quant_common.h);
 *   <p>_dequantize_input<i>(q)       scale * (q - zero_point) in float,
 *       as DEQUANTIZE.
 *
 * (and the same for outputs), so that a caller feeding int8 tensors
 * (--int8-io) converts exactly as the model's dropped QUANTIZE and
 * DEQUANTIZE would have.  They use only the header's own macros
 * (<P>_INPUT<i>_SCALE, _ZERO_POINT) and need no library call.
 */
#include "tinyaot.h"

#include <ctype.h>
#include <string.h>

void put_io_helpers(FILE *f, const char *P, const char *U, const char *kind, int i,
                    const Tensor *t) {
  const char *ct, *lo, *hi;
  switch (t->dtype) {
  case DT_INT8: ct = "int8_t", lo = "-128", hi = "127"; break;
  case DT_UINT8: ct = "uint8_t", lo = "0", hi = "255"; break;
  case DT_INT16: ct = "int16_t", lo = "-32768", hi = "32767"; break;
  default: return;
  }
  if (t->q.nscale != 1)
    return;
  char K[16];
  size_t n = strlen(kind);
  for (size_t k = 0; k <= n && k < sizeof K - 1; k++)
    K[k] = (char)toupper((unsigned char)kind[k]);
  K[sizeof K - 1] = '\0';
  fprintf(f,
          "/* %s %d: a real value -> %s as the model's QUANTIZE computes it:\n"
          " * round(x / scale) half away from zero, plus the zero point,\n"
          " * saturated (NaN gives the lowest value). */\n"
          "static inline %s %s_quantize_%s%d(float x) {\n"
          "  const float d = x / %s_%s%d_SCALE;\n"
          "  if (d >= -2147483648.0f && d < 2147483648.0f) {\n"
          "    int32_t r = (int32_t)d; /* truncated; then away from zero */\n"
          "    const float frac = d - (float)r;\n"
          "    int64_t v;\n"
          "    r += frac >= 0.5f ? 1 : frac <= -0.5f ? -1 : 0;\n"
          "    v = (int64_t)r + %s_%s%d_ZERO_POINT;\n"
          "    return (%s)(v < %s ? %s : v > %s ? %s : v);\n"
          "  }\n"
          "  return (%s)(d > 0.0f ? %s : %s);\n"
          "}\n\n"
          "/* %s %d: %s -> its real value, scale * (q - zero point). */\n"
          "static inline float %s_dequantize_%s%d(%s q) {\n"
          "  return %s_%s%d_SCALE * (float)((int32_t)q - %s_%s%d_ZERO_POINT);\n"
          "}\n\n",
          kind, i, ct, ct, P, kind, i, U, K, i, U, K, i, ct, lo, lo, hi, hi, ct, hi,
          lo, kind, i, ct, P, kind, i, ct, U, K, i, U, K, i);
}
