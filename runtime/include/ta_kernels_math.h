/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_kernels_math.h - the element-wise math, comparison and logic
 * kernels (runtime/elementwise/ and runtime/softmax/, one kernel per file;
 * included by ta_kernels.h), and RFFT2D (runtime/signal/ta_rfft2d_f32.c).
 *
 * Argument order as everywhere: parameters, then inputs, then outputs.
 * Bool tensors are one byte per element, 0 or 1 (uint8_t).  Binary
 * kernels broadcast through a ta_bcast (ta_types.h); the loops they share
 * are in runtime/elementwise/math.h.  Each kernel's file names the reference
 * function (TFLite / TFLite Micro) whose arithmetic it reproduces.
 */
#ifndef TA_KERNELS_MATH_H
#define TA_KERNELS_MATH_H

#include "ta_types.h"

/* ------------------------------------------------------ float unary */

/*
 * out[i] = f(in[i]) for p->size elements (ta_unary_params, ta_kernels_ops.h;
 * only .size is read):
 *   abs fabsf   neg -x   sqrt sqrtf   rsqrt 1 / sqrtf   square x * x
 *   exp expf    log logf  sin sinf    cos cosf
 *   ceil ceilf  floor floorf  round (half to even, reference_ops::Round)
 *   elu (x < 0 ? expm1f(x) : x)
 */
ta_status ta_abs_f32(const ta_unary_params *p, const float *in, float *out);
ta_status ta_neg_f32(const ta_unary_params *p, const float *in, float *out);
ta_status ta_sqrt_f32(const ta_unary_params *p, const float *in, float *out);
ta_status ta_rsqrt_f32(const ta_unary_params *p, const float *in, float *out);
ta_status ta_square_f32(const ta_unary_params *p, const float *in, float *out);
ta_status ta_exp_f32(const ta_unary_params *p, const float *in, float *out);
ta_status ta_log_f32(const ta_unary_params *p, const float *in, float *out);
ta_status ta_sin_f32(const ta_unary_params *p, const float *in, float *out);
ta_status ta_cos_f32(const ta_unary_params *p, const float *in, float *out);
ta_status ta_ceil_f32(const ta_unary_params *p, const float *in, float *out);
ta_status ta_floor_f32(const ta_unary_params *p, const float *in, float *out);
ta_status ta_round_f32(const ta_unary_params *p, const float *in, float *out);
ta_status ta_elu_f32(const ta_unary_params *p, const float *in, float *out);
/* erf erff (ONNX Erf; TFLite has no builtin for it) */
ta_status ta_erf_f32(const ta_unary_params *p, const float *in, float *out);

/*
 * ABS int16 (TFLM AbsEval): quantized (zero points 0) v = |x|, then
 * requant(v, multiplier, shift) when the scales differ (rescale 1),
 * saturated to int16 (so -32768 gives 32767); unquantized (quantized 0)
 * std::abs as int16 arithmetic wraps it (-32768 stays -32768).
 */
typedef struct {
  int32_t size;
  int32_t quantized, rescale;
  int32_t multiplier, shift; /* input scale / output scale */
} ta_abs_params;
ta_status ta_abs_s16(const ta_abs_params *p, const int16_t *in, int16_t *out);

/* LOGICAL_NOT: out = !in (bool). */
ta_status ta_logical_not_bool(const ta_unary_params *p, const uint8_t *in, uint8_t *out);

/* ZEROS_LIKE of any type: p->size bytes of zeros. */
ta_status ta_zeros_like_x8(const ta_unary_params *p, void *out);

/* ----------------------------------------------------- float binary */

/*
 * out = f(a, b), broadcasting (ta_bcast):
 *   squared_difference (a - b)^2
 *   floor_div  floor(a / b), the quotient in double (reference FloorDiv)
 *   floor_mod  a - b * floor(a / b) as TFLite's FloorMod: the truncated
 *              remainder (fmodf, %), plus b when its sign differs from b's
 * The int32 FLOOR_DIV and FLOOR_MOD return TA_ERR_ARG on a zero divisor
 * (TFLite's kernel fails the same way).
 */
ta_status ta_squared_difference_f32(const ta_bcast *shape, const float *in1, const float *in2,
                                    float *out);
ta_status ta_squared_difference_s32(const ta_bcast *shape, const int32_t *in1,
                                    const int32_t *in2, int32_t *out);
ta_status ta_floor_div_f32(const ta_bcast *shape, const float *in1, const float *in2,
                           float *out);
ta_status ta_floor_div_s32(const ta_bcast *shape, const int32_t *in1, const int32_t *in2,
                           int32_t *out);
ta_status ta_floor_mod_f32(const ta_bcast *shape, const float *in1, const float *in2,
                           float *out);
ta_status ta_floor_mod_s32(const ta_bcast *shape, const int32_t *in1, const int32_t *in2,
                           int32_t *out);

/* POW: powf(a, b); int32 and int64 a^b by repeated squaring, wrapping
 * (TFLite's IntegerPow), TA_ERR_ARG for a negative exponent. */
ta_status ta_pow_f32(const ta_bcast *shape, const float *in1, const float *in2, float *out);
ta_status ta_pow_s32(const ta_bcast *shape, const int32_t *in1, const int32_t *in2,
                     int32_t *out);
ta_status ta_pow_s64(const ta_bcast *shape, const int64_t *in1, const int64_t *in2,
                     int64_t *out);

/*
 * Quantized SQUARED_DIFFERENCE (TFLM squared_difference.cc, int8 with
 * left_shift 7, int16 with 0; ta_add_params read as ArithmeticParams):
 *   a' = requant_le1((a + input1_offset) << left_shift, input1_multiplier, input1_shift)
 *   b' likewise; out = clamp(requant((a' - b')^2, output_multiplier,
 *   output_shift) + output_offset, act_min, act_max), double rounding.
 */
ta_status ta_squared_difference_s8(const ta_add_params *p, const ta_bcast *shape,
                                   const int8_t *in1, const int8_t *in2, int8_t *out);
ta_status ta_squared_difference_s16(const ta_add_params *p, const ta_bcast *shape,
                                    const int16_t *in1, const int16_t *in2, int16_t *out);

/*
 * DIV int8 (TFLM div.cc, reference_ops::DivElementwise): with a = in1 +
 * input1_offset and b = in2 + input2_offset (b != 0, else TA_ERR_ARG),
 * 1/b as GetReciprocal (Q0.31 and a shift), a scaled up by its headroom,
 * then out = clamp(output_offset + requant_le1(a * (1/b), output_multiplier,
 * output_shift - reciprocal shift - headroom), act_min, act_max).
 */
ta_status ta_div_s8(const ta_add_params *p, const ta_bcast *shape, const int8_t *in1,
                    const int8_t *in2, int8_t *out);

/* ----------------------------------------------------- comparisons */

/*
 * EQUAL, NOT_EQUAL, GREATER, GREATER_EQUAL, LESS, LESS_EQUAL: out (bool)
 * = a OP b, broadcasting.  float32, int32, int64 and bool (EQUAL,
 * NOT_EQUAL) compare raw values; int8 compares rescaled values as TFLM's
 * ComparisonsPrepare / *WithScaling: each input x becomes
 * requant_le1((x + offset) << left_shift (8), multiplier, shift), the
 * multiplier and shift QuantizeMultiplierSmallerThanOneExp(scale)
 * (ta_add_params: input1_* and input2_*, left_shift).
 */
#define TA_COMPARE_DECLS(op)                                                              \
  ta_status ta_##op##_f32(const ta_bcast *shape, const float *in1, const float *in2,      \
                          uint8_t *out);                                                  \
  ta_status ta_##op##_s32(const ta_bcast *shape, const int32_t *in1, const int32_t *in2,  \
                          uint8_t *out);                                                  \
  ta_status ta_##op##_s8(const ta_add_params *p, const ta_bcast *shape, const int8_t *in1, \
                         const int8_t *in2, uint8_t *out);                        \
  ta_status ta_##op##_s64(const ta_bcast *shape, const int64_t *in1, const int64_t *in2,  \
                          uint8_t *out);
TA_COMPARE_DECLS(equal)
TA_COMPARE_DECLS(not_equal)
TA_COMPARE_DECLS(greater)
TA_COMPARE_DECLS(greater_equal)
TA_COMPARE_DECLS(less)
TA_COMPARE_DECLS(less_equal)
#undef TA_COMPARE_DECLS
/* Unsigned wide integers (ONNX Add, Sub, Mul, Div, Max, Min, Equal,
 * Greater, Less of uint16, uint32, uint64): arithmetic modulo 2^bits,
 * division truncating (a zero divisor: TA_ERR_ARG), comparisons to bool
 * bytes.  Max and Min of float16 (binary16 bits) and float64 as well. */
#define TA_UINT_DECLS(s, T)                                                              \
  ta_status ta_add_##s(const ta_bcast *shape, const T *in1, const T *in2, T *out);       \
  ta_status ta_sub_##s(const ta_bcast *shape, const T *in1, const T *in2, T *out);       \
  ta_status ta_mul_##s(const ta_bcast *shape, const T *in1, const T *in2, T *out);       \
  ta_status ta_div_##s(const ta_bcast *shape, const T *in1, const T *in2, T *out);       \
  ta_status ta_maximum_##s(const ta_bcast *shape, const T *in1, const T *in2, T *out);   \
  ta_status ta_minimum_##s(const ta_bcast *shape, const T *in1, const T *in2, T *out);   \
  ta_status ta_equal_##s(const ta_bcast *shape, const T *in1, const T *in2, uint8_t *out); \
  ta_status ta_greater_##s(const ta_bcast *shape, const T *in1, const T *in2, uint8_t *out); \
  ta_status ta_less_##s(const ta_bcast *shape, const T *in1, const T *in2, uint8_t *out);
TA_UINT_DECLS(u16, uint16_t)
TA_UINT_DECLS(u32, uint32_t)
TA_UINT_DECLS(u64, uint64_t)
#undef TA_UINT_DECLS
ta_status ta_maximum_f16(const ta_bcast *shape, const uint16_t *in1, const uint16_t *in2,
                         uint16_t *out);
ta_status ta_minimum_f16(const ta_bcast *shape, const uint16_t *in1, const uint16_t *in2,
                         uint16_t *out);
ta_status ta_maximum_f64(const ta_bcast *shape, const double *in1, const double *in2,
                         double *out);
ta_status ta_minimum_f64(const ta_bcast *shape, const double *in1, const double *in2,
                         double *out);
/* GREATER int16 (TFLM's only int16 comparison): rescaled as int8. */
ta_status ta_greater_s16(const ta_add_params *p, const ta_bcast *shape, const int16_t *in1,
                         const int16_t *in2, uint8_t *out);
ta_status ta_equal_bool(const ta_bcast *shape, const uint8_t *in1, const uint8_t *in2,
                        uint8_t *out);
ta_status ta_not_equal_bool(const ta_bcast *shape, const uint8_t *in1, const uint8_t *in2,
                            uint8_t *out);

/* LOGICAL_AND, LOGICAL_OR (bool, broadcasting). */
ta_status ta_logical_and_bool(const ta_bcast *shape, const uint8_t *in1, const uint8_t *in2,
                              uint8_t *out);
ta_status ta_logical_or_bool(const ta_bcast *shape, const uint8_t *in1, const uint8_t *in2,
                             uint8_t *out);

/* ------------------------------------------------------------ PRELU */

/*
 * PRELU: out = x >= 0 ? x : x * alpha, alpha broadcast against x
 * (ta_bcast: stride1 for x, stride2 for alpha).  int8 as TFLM's
 * BroadcastPrelu4DSlow: with v = x + input_offset,
 *   v >= 0: requant(v, mult_pos, shift_pos)
 *   v < 0:  requant(v * (alpha + alpha_offset), mult_neg, shift_neg)
 * plus output_offset, clamped to int8; double rounding.
 */
typedef struct {
  int32_t input_offset, alpha_offset, output_offset; /* -zp, -zp, zp */
  int32_t mult_pos, shift_pos;                       /* in / out */
  int32_t mult_neg, shift_neg;                       /* in * alpha / out */
} ta_prelu_params;
ta_status ta_prelu_f32(const ta_bcast *shape, const float *in, const float *alpha,
                       float *out);
ta_status ta_prelu_s8(const ta_prelu_params *p, const ta_bcast *shape, const int8_t *in,
                      const int8_t *alpha, int8_t *out);

/* ------------------------------------------------- SELECT, SELECT_V2 */

/*
 * out = cond ? x : y, the three broadcast to the output (row-major,
 * shape[0..ndims-1]; stride_* the element strides of each input along
 * each output dimension, 0 where it is broadcast).  By element width.
 */
typedef struct {
  int32_t ndims;
  int32_t shape[TA_MAX_DIMS];
  int32_t stride_c[TA_MAX_DIMS], stride_x[TA_MAX_DIMS], stride_y[TA_MAX_DIMS];
} ta_select_shape;
ta_status ta_select_x8(const ta_select_shape *s, const uint8_t *cond, const void *x,
                       const void *y, void *out);
ta_status ta_select_x16(const ta_select_shape *s, const uint8_t *cond, const void *x,
                        const void *y, void *out);
ta_status ta_select_x32(const ta_select_shape *s, const uint8_t *cond, const void *x,
                        const void *y, void *out);
ta_status ta_select_x64(const ta_select_shape *s, const uint8_t *cond, const void *x,
                        const void *y, void *out);

/* ------------------------------------------------------ LOG_SOFTMAX */

/*
 * LOG_SOFTMAX float over the innermost dimension (reference_ops::
 * LogSoftmax): per row, out = x - max - logf(sum(expf(x - max))).
 * ta_softmax_params (ta_types.h): only .outer and .depth are read.
 */
ta_status ta_log_softmax_f32(const ta_softmax_params *p, const float *in, float *out);

/*
 * ta_log_softmax_s8 - int8 LOG_SOFTMAX as TFLite Micro computes it
 * (reference_ops::LogSoftmax, LogSoftmaxQuantized<int8_t>): output scale
 * 16/256, zero point 127.  Per row, with max the row's largest input and
 * d = x - max:
 *   sum  = the exps (exp_on_negative_values of d scaled to Q5.26 by
 *          input_multiplier << input_left_shift) of every d >= diff_min,
 *          each rescaled to Q12.19 and added
 *   lse  = log_x_for_x_greater_than_or_equal_to_1 of sum, Q5.26
 *   keep = max(diff_min - 1, (lse + INT32_MIN) requantized by
 *          reverse_multiplier, reverse_shift)
 *   out  = d > keep ? clamp(RoundingDivideByPOT(d_Q5.26 - lse, 22) + 127)
 *                   : -128
 * Every requantization rounds twice (SaturatingRoundingDoublingHighMul,
 * then RoundingDivideByPOT), as TFLM's build does.  The parameters are
 * PreprocessLogSoftmaxScalingExp's (lower_math.c).
 */
typedef struct {
  int32_t outer, depth;
  int32_t input_multiplier, input_left_shift; /* left shift >= 0 */
  int32_t reverse_multiplier, reverse_shift;  /* shift <= 0 */
  int32_t diff_min;                           /* -CalculateInputRadius(5, ...) */
} ta_log_softmax_s8_params;
ta_status ta_log_softmax_s8(const ta_log_softmax_s8_params *p, const int8_t *in, int8_t *out);

/*
 * ta_log_softmax_table_s8 - int8 LOG_SOFTMAX as TFLite's builtin kernel
 * computes it (`--rounding single`; optimized_ops::LogSoftmax<int8_t>
 * with PopulateSoftmaxLookupTable's float table, table[255 - v] =
 * expf(-input_scale * v)).  Per row, in float, each operation rounded as
 * written:
 *   sum = table[255 - max + x] summed in order, lse = logf(sum)
 *   pre = (input_scale * max + lse) / output_scale
 *   out = clamp(rintf(input_scale / output_scale * x - pre) + zero_point)
 */
typedef struct {
  int32_t outer, depth;
  float input_scale, output_scale;
  const float *table; /* 256 entries */
  int32_t output_zero_point;
} ta_log_softmax_table_params;
ta_status ta_log_softmax_table_s8(const ta_log_softmax_table_params *p, const int8_t *in,
                                  int8_t *out);

/* ------------------------------------------------ RFFT2D, COMPLEX_ABS */

/*
 * ta_rfft2d_f32 - RFFT2D (TFLite's rfft2d.cc: tf.signal.rfft2d) of float
 * input to complex64 output, (re, im) float pairs.  Each of `slices`
 * [in_h][in_w] slices is cropped or zero-padded to [fft_h][fft_w] (powers
 * of two) and transformed,
 *   out[k1][k2] = sum x[n1][n2] e^(-2 pi i (k1 n1 / fft_h + k2 n2 / fft_w)),
 * k2 < fft_w / 2 + 1: each row by a real FFT (a complex FFT of fft_w / 2
 * points over (even, odd) pairs and a split step), then each column by a
 * complex FFT of fft_h points, both radix-2 and in place in the output.
 * twiddles: table_n / 2 complex values e^(-2 pi i k / table_n), table_n =
 * max(2, fft_h, fft_w) (computed by the compiler).  No scratch.
 */
typedef struct {
  int32_t slices, in_h, in_w;
  int32_t fft_h, fft_w;
  int32_t table_n;
} ta_rfft2d_params;
ta_status ta_rfft2d_f32(const ta_rfft2d_params *p, const float *twiddles, const float *in,
                        float *out);

/* ta_complex_abs_f32 - COMPLEX_ABS (complex_support.cc): out[i] =
 * hypotf(re, im) of p->size complex64 values. */
ta_status ta_complex_abs_f32(const ta_unary_params *p, const float *in, float *out);

/* ------------------------------------------------------------ ADD_N */

/* ADD_N float: out = in[0] + ... + in[n - 1] (n float tensors of p->size
 * elements), summed in input order (reference_ops::AddN). */
ta_status ta_add_n_f32(const ta_unary_params *p, int32_t n, const void *const *in, float *out);

/*
 * ADD_N int8 (TFLM add_n.cc, reference_ops::AddN): inputs of one
 * quantization; each (q + input1_offset) << left_shift (20) scaled by
 * input1_multiplier (1/2), summed, requantized by output_multiplier, plus
 * output_offset, clamped.  As TFLM, the sum starts from the scaled
 * input1_offset itself (its "x = 0" term is the offset, -zero point), so a
 * nonzero input zero point biases the result; reproduced exactly.
 */
ta_status ta_add_n_s8(const ta_add_params *p, int32_t size, int32_t n, const void *const *in,
                      int8_t *out);

#endif
