/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_cumsum_s8 - int8 CUMSUM (TFLite Micro's cumsum.cc, which calls the
 * quantized reference_ops::CumSum): the input is [outer][axis][inner];
 * along the axis, forwards or (reverse) backwards, each value y becomes
 *   scaled = MBQMSmallerThanOneExp((y - zp) << 20, input_multiplier,
 *                                  input_shift)
 * and the running int32 sum, which starts at the same scaling of -zp
 * (TFLM's accumulator starts at input_offset, scaled, not at 0), is
 * requantized into each output - the sum up to and including its
 * element, or (exclusive) before it.  Double rounding (gemmlowp) as TFLM;
 * the sums wrap.
 */
#include <stddef.h>

#include "ta_kernels.h"
#include "ta_fixedpoint.h"

#define CUMSUM_LEFT_SHIFT 20 /* kCumSumIntegerShift */

static int32_t scaled(const ta_cumsum_s8_params *p, int32_t v) {
  return ta_requant_double(ta_wrap_shl(v, CUMSUM_LEFT_SHIFT), p->input_multiplier,
                           p->input_shift);
}

static int8_t requant_out(const ta_cumsum_s8_params *p, int32_t sum) {
  int32_t r = ta_wrap_add(ta_requant_double(sum, p->output_multiplier, p->output_shift),
                          p->output_zero_point);
  return (int8_t)(r < -128 ? -128 : r > 127 ? 127 : r);
}

ta_status ta_cumsum_s8(const ta_cumsum_s8_params *p, const int8_t *in, int8_t *out) {
  const ta_cumsum_params *s = &p->shape;
  if (s->outer < 0 || s->axis < 0 || s->inner < 0 || p->input_shift > 0 ||
      p->output_shift > 0)
    return TA_ERR_ARG;
  const int32_t start = scaled(p, p->input_offset);
  for (int32_t o = 0; o < s->outer; o++)
    for (int32_t i = 0; i < s->inner; i++) {
      int32_t acc = start;
      for (int32_t k = 0; k < s->axis; k++) {
        const int32_t a = s->reverse ? s->axis - 1 - k : k;
        const size_t at = ((size_t)o * (size_t)s->axis + (size_t)a) * (size_t)s->inner + (size_t)i;
        const int32_t y = scaled(p, ta_wrap_add(p->input_offset, in[at]));
        if (s->exclusive) {
          out[at] = requant_out(p, acc);
          acc = ta_wrap_add(acc, y);
        } else {
          acc = ta_wrap_add(acc, y);
          out[at] = requant_out(p, acc);
        }
      }
    }
  return TA_OK;
}
