/*
 * ta_mean_div_u8 - legacy uint8 MEAN when input and output have the same
 * scale and zero point, as TFLite's reference_ops::Mean<uint8_t, int>:
 * for each output the int32 sum of its count inputs divided by count in
 * integer arithmetic (truncated; the sum is not negative).
 */
#include "ta_kernels.h"
#include "reduce.h"

ta_status ta_mean_div_u8(const ta_mean_params *p, const uint8_t *in, uint8_t *out) {
  if (!ta_mean_ok(p))
    return TA_ERR_ARG;
  const size_t nout = ta_reduce_walk_size(&p->outer);
  ta_it o;
  ta_it_start(&o, &p->outer);
  for (size_t k = 0; k < nout; k++, ta_it_step(&o, &p->outer))
    out[k] = (uint8_t)(ta_mean_sum_u8(p, in + o.off) / p->count);
  return TA_OK;
}
