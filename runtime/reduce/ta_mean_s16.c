/*
 * ta_mean_s16 - int16 MEAN as TFLite Micro's EvalIntegerMean computes it:
 * for each output (the outer walk, in order) the int32 sum of its count
 * inputs (the inner walk), then
 *   clamp(MultiplyByQuantizedMultiplier(sum - input_zero_point * count,
 *         multiplier, shift) + output_zero_point)
 *   (reference_ops::QuantizedMeanOrSum; the compiler folded 1/count into
 *   multiplier and shift the way that function does).
 */
#include "ta_fixedpoint.h"
#include "ta_kernels.h"
#include "reduce.h"

ta_status ta_mean_s16(const ta_mean_params *p, const int16_t *in, int16_t *out) {
  if (!ta_mean_ok(p))
    return TA_ERR_ARG;
  const size_t nout = ta_reduce_walk_size(&p->outer);
  const int32_t bias = (int32_t)((uint32_t)p->input_zero_point * (uint32_t)p->count);
  ta_it o;
  ta_it_start(&o, &p->outer);
  for (size_t k = 0; k < nout; k++, ta_it_step(&o, &p->outer)) {
    const int16_t *base = in + o.off;
    int32_t sum = 0;
    ta_it i;
    ta_it_start(&i, &p->inner);
    for (int32_t n = 0; n < p->count; n++, ta_it_step(&i, &p->inner))
      sum = ta_wrap_add(sum, base[i.off]);
    int32_t v = ta_requant(ta_wrap_sub(sum, bias), p->multiplier, p->shift, p->rounding) +
                p->output_zero_point;
    v = ta_clamp_i32(v, -32768, 32767);
    out[k] = (int16_t)v;
  }
  return TA_OK;
}
