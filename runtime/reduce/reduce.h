/* SPDX-License-Identifier: Apache-2.0 */
/*
 * reduce.h - visiting the elements of a ta_walk one at a time (private to
 * runtime/reduce/).  ta_it_off is the current element's offset;
 * ta_it_step() moves to the next one in row-major order of the walk.
 */
#ifndef TA_REDUCE_H
#define TA_REDUCE_H

#include <stddef.h>

#include "ta_kernels.h"

typedef struct {
  int32_t idx[TA_MAX_WALK];
  ptrdiff_t off;
} ta_it;

static inline int ta_reduce_walk_ok(const ta_walk *w) {
  if (w->ndims < 0 || w->ndims > TA_MAX_WALK)
    return 0;
  for (int d = 0; d < w->ndims; d++)
    if (w->shape[d] < 1)
      return 0;
  return 1;
}

static inline size_t ta_reduce_walk_size(const ta_walk *w) {
  size_t n = 1;
  for (int d = 0; d < w->ndims; d++)
    n *= (size_t)w->shape[d];
  return n;
}

static inline void ta_it_start(ta_it *it, const ta_walk *w) {
  for (int d = 0; d < TA_MAX_WALK; d++)
    it->idx[d] = 0;
  it->off = w->offset;
}

static inline void ta_it_step(ta_it *it, const ta_walk *w) {
  for (int d = w->ndims - 1; d >= 0; d--) {
    it->off += w->stride[d];
    if (++it->idx[d] < w->shape[d])
      return;
    it->off -= (ptrdiff_t)w->stride[d] * w->shape[d];
    it->idx[d] = 0;
  }
}

/* The shared checks of the MEAN kernels; the number of outputs. */
static inline int ta_mean_ok(const ta_mean_params *p) {
  return ta_reduce_walk_ok(&p->outer) && ta_reduce_walk_ok(&p->inner) && p->count >= 1 &&
         (size_t)p->count == ta_reduce_walk_size(&p->inner);
}

/*
 * TFLite's MEAN paths for integers (`--rounding single`; the kernels
 * ta_mean_{hw,div,float}_{s8,s16}, ta_mean_{s8,s16} and the uint8 ones;
 * arguments p, in, out).  The int32 sum of one output's count inputs
 * wraps like the hardware's (the compiler bounds count so that it cannot).
 */
#define TA_MEAN_SUM(T, base, sum)                                 \
  do {                                                            \
    sum = 0;                                                      \
    if (p->inner.ndims == 1) { /* one stride: no walk state, four \
                                  at a time (the sum wraps, so any  \
                                  order gives the same bits) */    \
      const T *x_ = (base) + p->inner.offset;                     \
      const ptrdiff_t s_ = p->inner.stride[0];                    \
      int32_t n_ = 0;                                             \
      for (; n_ + 4 <= p->count; n_ += 4) {                       \
        const T *y_ = x_ + (ptrdiff_t)n_ * s_;                    \
        sum = ta_wrap_add(sum, ta_wrap_add(ta_wrap_add(y_[0], y_[s_]), \
                                           ta_wrap_add(y_[2 * s_], y_[3 * s_]))); \
      }                                                           \
      for (; n_ < p->count; n_++)                                 \
        sum = ta_wrap_add(sum, x_[(ptrdiff_t)n_ * s_]);           \
      break;                                                      \
    }                                                             \
    ta_it i_;                                                     \
    ta_it_start(&i_, &p->inner);                                  \
    for (int32_t n_ = 0; n_ < p->count; n_++, ta_it_step(&i_, &p->inner)) \
      sum = ta_wrap_add(sum, (base)[i_.off]);                     \
  } while (0)

/* The loop over the outputs; BODY computes int32 v from int32 sum. */
#define TA_MEAN_LOOP(T, LO, HI, BODY)                             \
  do {                                                            \
    if (!ta_mean_ok(p))                                           \
      return TA_ERR_ARG;                                          \
    const size_t nout = ta_reduce_walk_size(&p->outer);           \
    ta_it o_;                                                     \
    ta_it_start(&o_, &p->outer);                                  \
    for (size_t k = 0; k < nout; k++, ta_it_step(&o_, &p->outer)) { \
      int32_t sum, v;                                             \
      TA_MEAN_SUM(T, in + o_.off, sum);                           \
      BODY;                                                       \
      out[k] = (T)ta_clamp_i32(v, LO, HI);                        \
    }                                                             \
    return TA_OK;                                                 \
  } while (0)

/* optimized_integer_ops::Mean (int8, 4-D, axes {1, 2}, keep_dims):
 * MultiplyByQuantizedMultiplier(sum, multiplier, shift) + bias, with
 * the multiplier of input_scale / (count * output_scale) and the bias in
 * output_zero_point, both from the compiler. */
#define TA_MEAN_HW_BODY v = ta_wrap_add(ta_requant(sum, p->multiplier, p->shift, p->rounding), \
                                        p->output_zero_point)

/* reference_ops::QuantizedMeanOrSum as TFLite Micro's EvalIntegerMean
 * uses it: MultiplyByQuantizedMultiplier(sum - input_zero_point * count,
 * multiplier, shift) + output_zero_point, with 1/count folded into
 * multiplier and shift by the compiler. */
#define TA_MEAN_ZP_BODY                                                         \
  v = ta_requant(ta_wrap_sub(sum, (int32_t)((uint32_t)p->input_zero_point *     \
                                            (uint32_t)p->count)),               \
                 p->multiplier, p->shift, p->rounding) +                        \
      p->output_zero_point

/* reference_ops::Mean<T, int> (input and output quantization equal):
 * sum / count, truncated toward zero as C++ divides. */
#define TA_MEAN_DIV_BODY v = sum / p->count

/* reference_ops::QuantizedMeanOrSum in float (compute_sum false):
 * roundf((float)sum / (float)count * scale + bias) + output_zero_point,
 * clamped in float; scale = input_scale / output_scale and bias =
 * -input_zero_point * scale from the compiler.  Use in a TA_FP_STRICT
 * function. */
#define TA_MEAN_FLOAT_BODY(LO, HI)                                          \
  do {                                                                      \
    const float mean_ = (float)sum / (float)p->count;                       \
    const float t_ = mean_ * p->scale;                                      \
    float r_ = roundf(t_ + p->bias) + (float)p->output_zero_point;          \
    r_ = r_ < (float)(HI) ? r_ : (float)(HI);                               \
    r_ = r_ > (float)(LO) ? r_ : (float)(LO);                               \
    v = (int32_t)r_;                                                        \
  } while (0)

/* TFLite's SUM (not Micro's; `--rounding single`):
 * reference_ops::QuantizedMeanOrSum in float with compute_sum true,
 *   v = (int32)roundf((float)sum * scale + bias) + output_zero_point
 * with scale = input_scale / output_scale and bias = -input_zero_point *
 * scale * count from the compiler, then converted to the output type
 * without clamping (wrapping, as TFLite's static_cast does).  Use with
 * TA_MEAN_LOOP(T, INT32_MIN, INT32_MAX, ...) in a TA_FP_STRICT function. */
#define TA_SUM_FLOAT_BODY                                                   \
  do {                                                                      \
    const float r_ = roundf((float)sum * p->scale + p->bias);               \
    v = (int32_t)r_ + p->output_zero_point;                                 \
  } while (0)

/* TFLite's SUM of equal input and output quantization (EvalGeneric): the
 * raw values added in the type itself, zero points ignored, wrapping -
 * the int32 sum converted once gives the same bits. */
#define TA_SUM_RAW_BODY v = sum


/*
 * SUM (float) and REDUCE_MAX / REDUCE_MIN (every type) as TFLite Micro's
 * reference_ops::ReduceGeneric computes them: each output starts at INIT
 * and takes in every one of its count inputs in the inner walk's order
 * (row-major, as the reference iterates the input) through
 * v = STEP(v, x).  Arguments p, in, out.
 */
#define TA_REDUCE_LOOP(T, INIT, STEP)                                    \
  do {                                                                  \
    if (!ta_mean_ok(p))                                                 \
      return TA_ERR_ARG;                                                \
    const size_t nout = ta_reduce_walk_size(&p->outer);                 \
    ta_it o_;                                                           \
    ta_it_start(&o_, &p->outer);                                        \
    for (size_t k = 0; k < nout; k++, ta_it_step(&o_, &p->outer)) {     \
      const T *base_ = in + o_.off;                                     \
      T v = (INIT);                                                     \
      ta_it i_;                                                         \
      ta_it_start(&i_, &p->inner);                                      \
      for (int32_t n_ = 0; n_ < p->count; n_++, ta_it_step(&i_, &p->inner)) { \
        const T x = base_[i_.off];                                      \
        v = STEP(v, x);                                                 \
      }                                                                 \
      out[k] = v;                                                       \
    }                                                                   \
    return TA_OK;                                                       \
  } while (0)

/* The reducers of TFLM's Eval{Max,Min,Sum}Helper: a NaN input never
 * replaces the running maximum or minimum (the comparison is false). */
#define TA_REDUCE_MAX_STEP(v, x) ((x) > (v) ? (x) : (v))
#define TA_REDUCE_MIN_STEP(v, x) ((x) < (v) ? (x) : (v))
#define TA_REDUCE_SUM_STEP(v, x) ((v) + (x))

#endif
