/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_hybrid.h - the run-time input quantization of TFLite's "hybrid"
 * (dynamic-range) kernels: float activations quantized to int8, one
 * scale per batch row, right before an int8 matrix product with int8
 * weights.  Two ways, as tensor_utils (portable_tensor_utils.cc) does
 * them; every float and double step is written out in TFLite's order
 * (the callers are TA_FP_STRICT), so the int8 values are TFLite's.
 */
#ifndef TA_HYBRID_H
#define TA_HYBRID_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "ta_fpstrict.h"

/*
 * SymmetricQuantizeFloats: range = max(|min x|, |max x|) (float);
 * range 0: q = 0, *factor = 1; else *factor = range / 127,
 * q[i] = clamp(roundf(x[i] * (127 / range)), -127, 127).
 */
TA_FP_STRICT
static inline void ta_hybrid_quantize_symmetric(const float *x, size_t n, int8_t *q,
                                                float *factor) {
  float lo = n ? x[0] : 0.0f, hi = lo;
  for (size_t i = 1; i < n; i++) {
    lo = x[i] < lo ? x[i] : lo;
    hi = x[i] > hi ? x[i] : hi;
  }
  const float range = fabsf(lo) > fabsf(hi) ? fabsf(lo) : fabsf(hi);
  if (range == 0.0f) {
    for (size_t i = 0; i < n; i++)
      q[i] = 0;
    *factor = 1.0f;
    return;
  }
  *factor = range / 127.0f;
  const float inv = 127.0f / range;
  for (size_t i = 0; i < n; i++) {
    const float r = roundf(x[i] * inv);
    q[i] = (int8_t)(r > 127.0f ? 127 : r < -127.0f ? -127 : (int32_t)r);
  }
}

/*
 * AsymmetricQuantizeFloats: rmin = min(0, min x), rmax = max(0, max x)
 * (in double); equal: q = 0, *factor = 1, *offset = 0.  Else, in double,
 * scale = (rmax - rmin) / 255, the zero point from whichever end has the
 * smaller error (-128 - rmin / scale, or 127 - rmax / scale), nudged to
 * -128 / 127 at or beyond them, else round()ed; *factor = (float)scale,
 * inv = (float)(1.0 / *factor), and
 * q[i] = clamp(roundf(offset + x[i] * inv), -128, 127) in float.
 */
TA_FP_STRICT
static inline void ta_hybrid_quantize_asymmetric(const float *x, size_t n, int8_t *q,
                                                 float *factor, int32_t *offset) {
  float lo = n ? x[0] : 0.0f, hi = lo;
  for (size_t i = 1; i < n; i++) {
    lo = x[i] < lo ? x[i] : lo;
    hi = x[i] > hi ? x[i] : hi;
  }
  const double rmin = lo < 0.0f ? (double)lo : 0.0, rmax = hi > 0.0f ? (double)hi : 0.0;
  if (rmax - rmin <= 0.0) { /* rmin == rmax: rmin <= 0 <= rmax */
    for (size_t i = 0; i < n; i++)
      q[i] = 0;
    *factor = 1.0f;
    *offset = 0;
    return;
  }
  const double qmin = -128.0, qmax = 127.0;
  const double scale = (rmax - rmin) / (qmax - qmin);
  const double zp_from_min = qmin - rmin / scale, zp_from_max = qmax - rmax / scale;
  const double err_min = fabs(qmin) + fabs(rmin / scale);
  const double err_max = fabs(qmax) + fabs(rmax / scale);
  const double zp = err_min < err_max ? zp_from_min : zp_from_max;
  int32_t z;
  if (zp <= qmin)
    z = -128;
  else if (zp >= qmax)
    z = 127;
  else {
    const double zr = round(zp);
    z = (int32_t)zr;
  }
  *factor = (float)scale;
  *offset = z;
  const float inv = (float)(1.0 / (double)*factor);
  const float zf = (float)z;
  for (size_t i = 0; i < n; i++) {
    const float r = roundf(zf + x[i] * inv);
    q[i] = (int8_t)(r > 127.0f ? 127 : r < -128.0f ? -128 : (int32_t)r);
  }
}

#endif
