/*
 * ta_add_s8 - int8 ADD with broadcasting.
 *
 * Matches tflite::reference_integer_ops::AddFunc, applied element-wise
 * (Add) or over a broadcast (BroadcastAdd6DSlow): each input is offset,
 * shifted left by left_shift and scaled by its own multiplier
 * (MultiplyByQuantizedMultiplierSmallerThanOneExp), the two are summed,
 * scaled by the output multiplier, offset and clamped.
 */
#include "ta_fixedpoint.h"
#include "ta_kernels.h"
#include "bcast.h"

static inline int8_t add_one(int32_t x1, int32_t x2, const ta_add_params *p) {
  const int32_t r = p->rounding;
  int32_t a = ta_wrap_shl(x1 + p->input1_offset, (int)p->left_shift);
  int32_t b = ta_wrap_shl(x2 + p->input2_offset, (int)p->left_shift);
  a = ta_requant_le1(a, p->input1_multiplier, p->input1_shift, r);
  b = ta_requant_le1(b, p->input2_multiplier, p->input2_shift, r);
  int32_t s = ta_requant_le1(ta_wrap_add(a, b), p->output_multiplier, p->output_shift, r);
  return (int8_t)ta_clamp_i32(s + p->output_offset, p->act_min, p->act_max);
}

ta_status ta_add_s8(const ta_add_params *p, const ta_bcast *shape,
                    const int8_t *in1, const int8_t *in2, int8_t *out) {
  if (!ta_bcast_ok(shape) || p->left_shift < 0 || p->left_shift > 30)
    return TA_ERR_ARG;
  const int nd = shape->ndims;
  const int32_t n = shape->shape[nd - 1];
  const size_t s1 = (size_t)shape->stride1[nd - 1], s2 = (size_t)shape->stride2[nd - 1];
  const size_t rows = ta_bcast_rows(shape);
  int32_t idx[TA_MAX_DIMS] = {0};
  size_t o1 = 0, o2 = 0;
  for (size_t r = 0; r < rows; r++, out += n) {
    const int8_t *x1 = in1 + o1, *x2 = in2 + o2;
    if (s1 == 1 && s2 == 1) {
      for (int32_t i = 0; i < n; i++)
        out[i] = add_one(x1[i], x2[i], p);
    } else if (s2 == 0) {
      for (int32_t i = 0; i < n; i++)
        out[i] = add_one(x1[i * s1], x2[0], p);
    } else if (s1 == 0) {
      for (int32_t i = 0; i < n; i++)
        out[i] = add_one(x1[0], x2[i * s2], p);
    } else {
      for (int32_t i = 0; i < n; i++)
        out[i] = add_one(x1[i * s1], x2[i * s2], p);
    }
    ta_bcast_next(shape, idx, &o1, &o2);
  }
  return TA_OK;
}
