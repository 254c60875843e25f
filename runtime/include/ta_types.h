/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_types.h - types shared by every tinyaot kernel (C99, no libc beyond
 * <stdint.h>/<stddef.h>).
 *
 * Conventions
 *  - Activations are NHWC, row-major.  Filters of CONV_2D are OHWI, of
 *    DEPTHWISE_CONV_2D 1HW(C*M), of FULLY_CONNECTED [out][in] - as TFLite.
 *  - Argument order of every kernel: params, then inputs, then outputs,
 *    then scratch.  Kernels return a ta_status and never print or abort.
 *  - Everything that does not depend on the input is computed by the
 *    compiler on the host and passed in const params: requantization
 *    multipliers and shifts, folded biases, lookup tables.  The host
 *    functions that derive them live in compiler/quant.c (declared in
 *    compiler/tinyaot.h) and fill these structs directly.
 *  - Offsets follow TFLite's sign convention: input_offset = -input zero
 *    point, output_offset = +output zero point.
 */
#ifndef TA_TYPES_H
#define TA_TYPES_H

#include <stddef.h>
#include <stdint.h>

typedef int ta_status;
#define TA_OK 0
#define TA_ERR_ARG 1         /* a parameter the kernel cannot work with */
#define TA_ERR_UNSUPPORTED 2 /* a legal case this kernel does not handle */
/* Not an error: a CIRCULAR_BUFFER has not gathered enough frames since
 * its last output (TFLM's kTfLiteAbort).  The run stops there: the ops
 * after it do not run and their outputs are not written; the next call
 * goes on with the next frame. */
#define TA_PENDING 3

/* Requantization rounding: TFLite Micro's reference kernels round twice
 * (saturating rounding doubling high multiply, then rounding right
 * shift); TFLite (ruy, TFLITE_SINGLE_ROUNDING) rounds once:
 * (acc * M + 2^(n-1)) >> n with n = 31 - shift. */
#define TA_ROUND_DOUBLE 0
#define TA_ROUND_SINGLE 1
/* ONNX Runtime (MLAS, x86): the multiplier holds the bits of a float32
 * scale (shift unused) and acc * scale is rounded half to even. */
#define TA_ROUND_ORT 2

/* Most dimensions a broadcasting kernel handles (as TFLite's MAX_DIMS). */
#define TA_MAX_DIMS 8

/* A 4-D shape, NHWC.  Lower-rank tensors are padded with leading 1s. */
typedef struct {
  int32_t n, h, w, c;
} ta_dims;

/*
 * Requantization of int32 accumulators to the output scale:
 * out = round(acc * multiplier * 2^(shift - 31)), as TFLite's
 * MultiplyByQuantizedMultiplier.  shift > 0 shifts left.  multiplier and
 * shift point to one entry (per tensor, per_channel == 0) or to one entry
 * per output channel (per_channel != 0).
 *
 * mmla says whether the Arm DSP paths of ta_conv2d_fold_s8 and
 * ta_depthwise_conv2d_fold_s8 may requantize in SMMLAR form: nonzero
 * only when ta_quant_mmla_ok() (ta_fixedpoint.h) holds for the op's
 * channels, folded bias and taps.  The compiler decides it once, on the
 * host; a kernel reads the flag instead of scanning every channel on
 * every call.  0 is always safe (those paths are skipped, the portable
 * ones give the same bytes); the other kernels ignore it.  rounding and
 * mmla share one word, so the struct is no larger than without the flag.
 * ta_conv2d_fold_dsp_s8 also needs the bit TA_MMLA_RECORDS: its filter
 * packed and its bias the records of ta_pack_records()
 * (ta_kernels.h), which the compiler stores so (mmla 3).
 */
typedef struct {
  const int32_t *multiplier;
  const int32_t *shift;
  int32_t per_channel;
  uint16_t rounding; /* TA_ROUND_DOUBLE, TA_ROUND_SINGLE or TA_ROUND_ORT */
  uint16_t mmla;     /* ta_quant_mmla_ok() of the op, or 0; | TA_MMLA_RECORDS */
} ta_quant;

/* CONV_2D, DEPTHWISE_CONV_2D. */
typedef struct {
  int32_t stride_h, stride_w;
  int32_t dilation_h, dilation_w;
  int32_t pad_h, pad_w;       /* top/left padding (compute_padding()) */
  int32_t depth_multiplier;   /* DEPTHWISE_CONV_2D: out_c = in_c * this */
  int32_t input_offset;       /* -input zero point */
  int32_t output_offset;      /* output zero point */
  int32_t act_min, act_max;   /* fused activation, in output units */
  float act_min_f32, act_max_f32; /* the same for the float kernels */
} ta_conv_params;

/* An int8 convolution that ONNX Runtime computes in float32
 * (ta_conv2d_ort_f32_s8): the input's and the output's scales, the taps
 * per block of MLAS's K slicing, whether MLAS's one-filter kernel
 * (m1 = 1), its transposed one-row kernel (m1 = 2) or its general GEMM
 * kernel (m1 = 0) sums each block, and whether the
 * bias comes first (bias_first = 1: a Gemm, whose output starts as the
 * bias and accumulates the blocks) or last (a Conv). */
typedef struct {
  float in_scale, out_scale;
  int32_t stride_k;
  int32_t m1;
  int32_t bias_first;
} ta_conv_ort_params;

/* FULLY_CONNECTED: input [batches][in_depth], filter [out_depth][in_depth],
 * output [batches][out_depth]. */
typedef struct {
  int32_t batches, in_depth, out_depth;
  int32_t input_offset;  /* -input zero point */
  int32_t filter_offset; /* -filter zero point (0 for int8 symmetric) */
  int32_t output_offset; /* output zero point */
  int32_t act_min, act_max;
  float act_min_f32, act_max_f32;
} ta_fc_params;

/* AVERAGE_POOL_2D, MAX_POOL_2D. */
typedef struct {
  int32_t stride_h, stride_w;
  int32_t filter_h, filter_w;
  int32_t pad_h, pad_w;
  int32_t act_min, act_max;
  float act_min_f32, act_max_f32;
} ta_pool_params;

/*
 * Shape walk of a broadcasting binary op (make_broadcast() in quant.c
 * builds it).  The output is dense, row-major, of shape shape[0..ndims-1]
 * (outermost first); stride1[d] / stride2[d] are the element strides of
 * input 1 / input 2 along output dimension d (0 where that input is
 * broadcast).  Adjacent dimensions with the same broadcast pattern are
 * merged, so an element-wise op is ndims = 1, strides 1 and 1.
 */
typedef struct {
  int32_t ndims;
  int32_t shape[TA_MAX_DIMS];
  int32_t stride1[TA_MAX_DIMS];
  int32_t stride2[TA_MAX_DIMS];
} ta_bcast;

/* ADD (int8: left_shift 20, int16: 15), as TFLite's ArithmeticParams. */
typedef struct {
  int32_t input1_offset, input2_offset; /* -zero points */
  int32_t output_offset;                /* output zero point */
  int32_t left_shift;
  int32_t input1_multiplier, input1_shift; /* shifts <= 0 */
  int32_t input2_multiplier, input2_shift;
  int32_t output_multiplier, output_shift;
  int32_t act_min, act_max;
  int32_t rounding;
  /* Optional (int8 only): the scaled value of every input byte,
   * table1[(uint8_t)x] = requant((x + input1_offset) << left_shift,
   * input1_multiplier, input1_shift), likewise table2 (add_tables()).
   * With both set, ta_add_s8 only requantizes the sum. */
  const int32_t *table1, *table2;
  float act_min_f32, act_max_f32;
} ta_add_params;

/* ADD as ONNX Runtime's QLinearAdd (MLAS, x86 AVX2; --rounding
 * onnxruntime): ratio1 = in1 scale / out scale, ratio2 likewise (float
 * divisions), fixed = out zero point - fmaf(ratio1, zp1, ratio2 * zp2)
 * (its build contracts ratio1 * zp1 + ratio2 * zp2 so), fixed21 the
 * same with the inputs swapped, for rows where input 1 is one value. */
typedef struct {
  float ratio1, ratio2, fixed, fixed21;
  int32_t act_min, act_max;
} ta_add_ort_params;

/* MUL as ONNX Runtime's QLinearMul (MLAS, x86 SSE2; --rounding
 * onnxruntime): ratio = in1 scale * in2 scale / out scale (float, left to
 * right), the zero points, the output's as a float. */
typedef struct {
  float ratio, output_zero_point;
  int32_t zp1, zp2;
  int32_t act_min, act_max;
} ta_mul_ort_params;

/* An int8 ADD or MUL that ONNX Runtime computes in float32
 * (ta_binary_ort_f32_s8): each input's and the output's scale and zero
 * point, the float activation, and which op (mul = 1: MUL). */
typedef struct {
  float scale1, scale2, out_scale;
  int32_t zp1, zp2, out_zp;
  float act_min_f32, act_max_f32;
  int32_t mul;
} ta_binary_ort_params;

/* SOFTMAX over the innermost dimension: outer rows of depth elements. */
typedef struct {
  int32_t outer, depth;
  int32_t input_multiplier; /* PreprocessSoftmaxScaling */
  int32_t input_left_shift;
  int32_t diff_min;         /* -CalculateInputRadius */
  int32_t rounding;
  const int32_t *exp_table; /* NULL, or 256 entries: exp of diff = -k at [k]
                               (softmax_exp_table()) */
  float beta;               /* float kernel */
} ta_softmax_params;

/* QUANTIZE from float32 (q = clamp(round(x / scale) + zero_point)) and
 * DEQUANTIZE to float32 (x = scale * (q - zero_point)). */
typedef struct {
  int32_t size; /* elements */
  float scale;
  int32_t zero_point;
} ta_affine_params;

/* QUANTIZE between integer types (TFLite's Requantize):
 * out = clamp(MultiplyByQuantizedMultiplier(in - input_zero_point,
 *             multiplier, shift) + output_zero_point). */
typedef struct {
  int32_t size;
  int32_t input_zero_point, output_zero_point;
  int32_t multiplier, shift;
  int32_t rounding;
} ta_requant_params;

#endif
