/*
 * ta_mean_hw_u8 - legacy uint8 MEAN over height and width of a 4-D
 * tensor with keep_dims, TFLite's special case (optimized_ops::Mean for
 * uint8): for each output the int32 sum of its count inputs, then
 *   out = clamp(MultiplyByQuantizedMultiplier(sum, multiplier, shift)
 *               + output_zero_point, 0, 255)
 * multiplier and shift from input_scale / (count * output_scale) and
 * output_zero_point holding TFLite's bias (the output zero point minus
 * the rescaled input zero point), both from the compiler.
 */
#include "ta_fixedpoint.h"
#include "ta_kernels.h"
#include "reduce.h"

ta_status ta_mean_hw_u8(const ta_mean_params *p, const uint8_t *in, uint8_t *out) {
  if (!ta_mean_ok(p))
    return TA_ERR_ARG;
  const size_t nout = ta_reduce_walk_size(&p->outer);
  ta_it o;
  ta_it_start(&o, &p->outer);
  for (size_t k = 0; k < nout; k++, ta_it_step(&o, &p->outer)) {
    const int32_t sum = ta_mean_sum_u8(p, in + o.off);
    const int32_t v = ta_requant(sum, p->multiplier, p->shift, p->rounding);
    out[k] = (uint8_t)ta_clamp_i32(ta_wrap_add(v, p->output_zero_point), 0, 255);
  }
  return TA_OK;
}
