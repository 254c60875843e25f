/* SPDX-License-Identifier: Apache-2.0 */
/*
 * softmax_table.h - int8 SOFTMAX as TFLite's builtin kernel computes it
 * with the float lookup table of PopulateSoftmaxLookupTable
 * (optimized_ops::Softmax<int8_t, OutputT>; `--rounding single`), shared
 * by the int8- and int16-output kernels (private to runtime/softmax/).
 * Per row of depth values,
 *
 *   max = the largest input, e[x] = table[255 - max + x]
 *         (the compiler fills table[255 - v] = expf(-input_scale * beta * v))
 *   sum = e[x_0] + e[x_1] + ... (float, in order)
 *   inv = 1 / (sum * output_scale)
 *   out = clamp(roundf(e[x] * inv) + output_zero_point, out_min, out_max)
 *
 * (QuantizeSoftmaxOutput<OutputT>: std::round, half away from zero.)
 * Each float operation rounds as written: no fused multiply-add (the
 * callers are TA_FP_STRICT too).
 */
#ifndef TA_SOFTMAX_TABLE_H
#define TA_SOFTMAX_TABLE_H

#include <math.h>

#include "ta_fixedpoint.h"
#include "ta_fpstrict.h"
#include "ta_kernels.h"

/* out_bits 8 or 16; writes out8 or out16. */
TA_FP_STRICT
static inline ta_status ta_softmax_table_s8_any(const ta_softmax_u8_params *p,
                                                const int8_t *in, int8_t *out8,
                                                int16_t *out16, int out_bits) {
  if (p->outer < 0 || p->depth < 1 || !p->table)
    return TA_ERR_ARG;
  const int32_t out_min = out_bits == 8 ? -128 : -32768;
  const int32_t out_max = out_bits == 8 ? 127 : 32767;
  for (int32_t r = 0; r < p->outer; r++, in += p->depth) {
    int32_t max = -128;
    for (int32_t j = 0; j < p->depth; j++)
      max = in[j] > max ? in[j] : max;
    const float *e = p->table + 255; /* e[x - max], x - max in [-255, 0] */
    float sum = 0.0f;
    for (int32_t j = 0; j < p->depth; j++)
      sum += e[in[j] - max];
    const float inv = 1.0f / (sum * p->output_scale);
    for (int32_t j = 0; j < p->depth; j++) {
      const float prob = roundf(e[in[j] - max] * inv);
      const int32_t q = prob < 2147483648.0f ? (int32_t)prob : INT32_MAX;
      const int32_t v = ta_clamp_i32(ta_wrap_add(q, p->output_zero_point), out_min, out_max);
      if (out_bits == 8)
        out8[(size_t)r * (size_t)p->depth + (size_t)j] = (int8_t)v;
      else
        out16[(size_t)r * (size_t)p->depth + (size_t)j] = (int16_t)v;
    }
  }
  return TA_OK;
}

#endif
