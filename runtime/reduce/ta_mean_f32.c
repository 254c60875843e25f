/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_mean_f32 - float MEAN (reference_ops::Mean): for each output (the
 * outer walk, in order) the float sum of its count inputs in the inner
 * walk's order, divided by (float)count.
 */
#include "ta_kernels.h"
#include "reduce.h"

ta_status ta_mean_f32(const ta_mean_params *p, const float *in, float *out) {
  if (!ta_mean_ok(p))
    return TA_ERR_ARG;
  const size_t nout = ta_reduce_walk_size(&p->outer);
  ta_it o;
  ta_it_start(&o, &p->outer);
  for (size_t k = 0; k < nout; k++, ta_it_step(&o, &p->outer)) {
    const float *base = in + o.off;
    float sum = 0.0f;
    ta_it i;
    ta_it_start(&i, &p->inner);
    for (int32_t n = 0; n < p->count; n++, ta_it_step(&i, &p->inner))
      sum += base[i.off];
    out[k] = sum / (float)p->count;
  }
  return TA_OK;
}
