/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_add_f32 - float ADD with broadcasting.
 *
 * Matches tflite::reference_ops::Add / BroadcastAdd6DSlow (float):
 * out = min(max(in1 + in2, act_min_f32), act_max_f32).
 */
#include "ta_kernels.h"
#include "bcast.h"

static inline float add_one(float a, float b, const ta_add_params *p) {
  float v = a + b;
  v = v < p->act_min_f32 ? p->act_min_f32 : v;
  return v > p->act_max_f32 ? p->act_max_f32 : v;
}

ta_status ta_add_f32(const ta_add_params *p, const ta_bcast *shape,
                     const float *in1, const float *in2, float *out) {
  if (!ta_bcast_ok(shape))
    return TA_ERR_ARG;
  const int nd = shape->ndims;
  const int32_t n = shape->shape[nd - 1];
  const size_t s1 = (size_t)shape->stride1[nd - 1], s2 = (size_t)shape->stride2[nd - 1];
  const size_t rows = ta_bcast_rows(shape);
  int32_t idx[TA_MAX_DIMS] = {0};
  size_t o1 = 0, o2 = 0;
  for (size_t r = 0; r < rows; r++, out += n) {
    const float *x1 = in1 + o1, *x2 = in2 + o2;
    if (s1 == 1 && s2 == 1) {
      for (int32_t i = 0; i < n; i++)
        out[i] = add_one(x1[i], x2[i], p);
    } else {
      for (int32_t i = 0; i < n; i++)
        out[i] = add_one(x1[(size_t)i * s1], x2[(size_t)i * s2], p);
    }
    ta_bcast_next(shape, idx, &o1, &o2);
  }
  return TA_OK;
}
