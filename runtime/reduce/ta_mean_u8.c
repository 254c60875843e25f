/*
 * ta_mean_u8 - legacy uint8 MEAN as TFLite's reference_ops::
 * QuantizedMeanOrSum computes it (compute_sum false): for each output
 * (the outer walk, in order) the int32 sum of its count inputs, then in
 * float
 *   mean = (float)sum / (float)count
 *   out  = clamp(roundf(mean * scale + bias) + output_zero_point, 0, 255)
 * with scale = input_scale / output_scale and bias = -input_zero_point *
 * scale from the compiler.
 * Every float operation rounds as written (TA_FP_STRICT).
 */
#include <math.h>

#include "ta_fpstrict.h"
#include "ta_kernels.h"
#include "reduce.h"

TA_FP_STRICT
ta_status ta_mean_u8(const ta_mean_params *p, const uint8_t *in, uint8_t *out) {
  if (!ta_mean_ok(p))
    return TA_ERR_ARG;
  const size_t nout = ta_reduce_walk_size(&p->outer);
  ta_it o;
  ta_it_start(&o, &p->outer);
  for (size_t k = 0; k < nout; k++, ta_it_step(&o, &p->outer)) {
    const float mean = (float)ta_mean_sum_u8(p, in + o.off) / (float)p->count;
    const float t = mean * p->scale;
    float r = roundf(t + p->bias) + (float)p->output_zero_point; /* TfLiteRound */
    r = r < 255.0f ? r : 255.0f;
    r = r > 0.0f ? r : 0.0f;
    out[k] = (uint8_t)r;
  }
  return TA_OK;
}
