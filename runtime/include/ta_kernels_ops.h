/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_kernels_ops.h - kernels of the element-wise, reduction, shape and
 * resize ops, and the legacy uint8 variants of the CNN ops.  Included by
 * ta_kernels.h; same conventions (params, inputs, outputs, scratch;
 * integer arithmetic bit-exact with TensorFlow Lite Micro's reference
 * kernels, or with TFLite's builtin kernels for the legacy uint8 ops TFLM
 * does not have).
 *
 * Kernels that only move bytes do not care about the element type, only
 * about its width: their dtype suffix is _x8, _x16, _x32 or _x64 ("any
 * 8-, 16-, 32- or 64-bit type").  Kernels that copy whole blocks
 * (CONCATENATION, SPLIT) count in bytes and use _x8.
 */
#ifndef TA_KERNELS_OPS_H
#define TA_KERNELS_OPS_H

#include "ta_types.h"

/* Most dimensions the walks below handle (TFLite's data-movement ops go
 * up to 5 or 6; TILE of a 4-D tensor walks 8: a copy and an index per
 * dimension). */
#define TA_MAX_WALK 8

/*
 * A strided walk over an N-d index space, outermost dimension first.
 * Element (i_0 .. i_{n-1}) is at `offset + sum_d i_d * stride[d]` (in
 * elements; strides may be negative or 0).  The compiler drops size-1
 * dimensions and merges neighbours that continue each other, so most
 * walks have one to three dimensions.
 */
typedef struct {
  int32_t ndims; /* 0 = a single element */
  int32_t shape[TA_MAX_WALK];
  int32_t stride[TA_MAX_WALK];
  int32_t offset;
} ta_walk;

/* ===================================================== data movement */

/*
 * ta_transpose_x* - TRANSPOSE (reference_ops::Transpose) and any other
 * gather the compiler can describe as one walk: the output is written in
 * order, out[k] = in[walk(k)], with w->shape the output shape and
 * w->stride the input strides of the permuted dimensions.
 */
ta_status ta_transpose_x8(const ta_walk *w, const void *in, void *out);
ta_status ta_transpose_x16(const ta_walk *w, const void *in, void *out);
ta_status ta_transpose_x32(const ta_walk *w, const void *in, void *out);

/*
 * ta_strided_slice_x* - STRIDED_SLICE and SLICE (reference_ops::
 * StridedSlice): out[k] = in[walk(k)], w->offset the first element,
 * w->stride the (possibly negative) steps, w->shape the output shape.
 */
ta_status ta_strided_slice_x8(const ta_walk *w, const void *in, void *out);
ta_status ta_strided_slice_x16(const ta_walk *w, const void *in, void *out);
ta_status ta_strided_slice_x32(const ta_walk *w, const void *in, void *out);

/*
 * ta_pad_x* - PAD and PADV2 (reference_ops::Pad): the output has shape
 * before[d] + in_shape[d] + after[d]; the input is copied into it and
 * everything else is `value` (the raw bits of one element: the output
 * zero point for a quantized PAD, PADV2's constant, 0.0f as 0).
 */
typedef struct {
  int32_t ndims;
  int32_t in_shape[TA_MAX_WALK];
  int32_t before[TA_MAX_WALK];
  int32_t after[TA_MAX_WALK];
  uint32_t value;
} ta_pad_params;
ta_status ta_pad_x8(const ta_pad_params *p, const void *in, void *out);
ta_status ta_pad_x16(const ta_pad_params *p, const void *in, void *out);
ta_status ta_pad_x32(const ta_pad_params *p, const void *in, void *out);

/*
 * ta_concatenation_x8 - CONCATENATION and PACK
 * (reference_ops::Concatenation): `outer` times, block k of input k
 * (bytes[k] bytes) is appended to the output, k = 0 .. n-1.
 * ta_split_x8 - SPLIT, SPLIT_V and UNPACK, the inverse: `outer` times,
 * the next bytes[k] bytes of the input go to output k.
 */
typedef struct {
  int32_t n;
  int32_t outer;
  const int32_t *bytes; /* n entries */
} ta_concat_params;
ta_status ta_concatenation_x8(const ta_concat_params *p, const void *const *in,
                              void *out);
ta_status ta_split_x8(const ta_concat_params *p, const void *in, void *const *out);

/*
 * ta_resize_nearest_x* - RESIZE_NEAREST_NEIGHBOR
 * (reference_ops::ResizeNearestNeighbor): out[b][y][x][c] =
 * in[b][y_map[y]][x_map[x]][c].  The maps are GetNearestNeighbor() of
 * every output row and column, computed by the compiler with TFLite's
 * float arithmetic.
 */
typedef struct {
  int32_t batches, in_h, in_w, depth, out_h, out_w;
  const int32_t *y_map; /* out_h entries */
  const int32_t *x_map; /* out_w entries */
} ta_resize_params;
ta_status ta_resize_nearest_x8(const ta_resize_params *p, const void *in, void *out);
ta_status ta_resize_nearest_x16(const ta_resize_params *p, const void *in, void *out);
ta_status ta_resize_nearest_x32(const ta_resize_params *p, const void *in, void *out);

/*
 * ta_resize_taps_f32 - RESIZE_TAPS (ONNX Resize beyond what TFLite's
 * resizes express): out[b][y][x][c] = sum_i y_w[y][i] * sum_j x_w[x][j] *
 * in[b][y_idx[y][i]][x_idx[x][j]][c], the tables [out_h][taps_h] and
 * [out_w][taps_w] made by the compiler (indices already clamped).  A row
 * or column whose indices are -1 lies outside the crop's input
 * (tf_crop_and_resize): its outputs are `extrapolation`.
 */
typedef struct {
  int32_t batches, in_h, in_w, depth, out_h, out_w, taps_h, taps_w;
  float extrapolation;
} ta_resize_taps_params;
ta_status ta_resize_taps_f32(const ta_resize_taps_params *p, const float *in,
                             const int32_t *y_idx, const float *y_w, const int32_t *x_idx,
                             const float *x_w, float *out);

/*
 * MAX_POOL_ND, AVERAGE_POOL_ND (ONNX MaxPool / AveragePool beyond what
 * TFLite's 2-D pools express: 1-D and 3-D, dilations, pads SAME cannot
 * give, the Indices output), float32 in the ONNX layout [N][C][spatial].
 * Up to three spatial axes; unused ones have extent, kernel, stride and
 * dilation 1 and no padding.  pad: before each axis, pad_end: after it
 * (only count_include_pad reads it).  indices: NULL, or an int64 output
 * of out's shape (the flat input position of each maximum).
 */
typedef struct {
  int32_t batches, channels;
  int32_t in[3], out[3], kernel[3], stride[3], dilation[3], pad[3], pad_end[3];
  int32_t count_include_pad, column_major;
} ta_pool_nd_params;
ta_status ta_max_pool_nd_f32(const ta_pool_nd_params *p, const float *in, float *out,
                             int64_t *indices);
ta_status ta_avg_pool_nd_f32(const ta_pool_nd_params *p, const float *in, float *out);

/*
 * CONV_TRANSPOSE_ND (ONNX ConvTranspose beyond TFLite's TRANSPOSE_CONV:
 * 1-D and 3-D, groups, dilations, any pads), float32 in the ONNX layout:
 * in [N][in_channels][spatial], filter [in_channels][out_channels /
 * group][kernel], bias [out_channels] or NULL, out [N][out_channels]
 * [spatial].  pad: before each axis (negative: the output starts before
 * the full result).  Unused axes as for the pools.
 */
typedef struct {
  int32_t batches, in_channels, out_channels, group;
  int32_t in[3], out[3], kernel[3], stride[3], dilation[3], pad[3];
} ta_conv_transpose_nd_params;
ta_status ta_conv_transpose_nd_f32(const ta_conv_transpose_nd_params *p, const float *in,
                                   const float *filter, const float *bias, float *out);

/*
 * RESIZE_BILINEAR.  The compiler computes, per output row y and column x,
 * the two source rows/columns (lo, hi) and where between them the sample
 * falls, exactly as the reference computes it (ComputeInterpolationValues
 * and its integer twin); the kernels only interpolate:
 *   ta_resize_bilinear_s8 - TFLM/TFLite's ResizeBilinearInteger: 10-bit
 *     fractions frac = input_y - 1024 * y_lo (likewise x),
 *       acc = in[lo,lo] (1024 - fy)(1024 - fx) + in[hi,lo] fy (1024 - fx)
 *           + in[lo,hi] (1024 - fy) fx + in[hi,hi] fy fx     (int64)
 *     out = (acc + 2^19) >> 20 with single rounding, else acc / 2^20
 *     rounded half away from zero.
 *   ta_resize_bilinear_s16 - the same on int16 values (TFLite's
 *     ResizeBilinearInteger<int16_t>; TFLite Micro has no int16 kernel).
 *   ta_resize_bilinear_u8 - TFLite's builtin uint8 kernel
 *     (optimized_ops::ResizeBilinearGenericSmallChannel), in float:
 *       s = {(1 - dy)(1 - dx), (1 - dy) dx, dy (1 - dx), dy dx},
 *       dy = y_in - y_lo, dx = x_in - x_lo,
 *       out = (uint8_t)(in[lo,lo] s0 + in[lo,hi] s1 + in[hi,lo] s2
 *                       + in[hi,hi] s3 + 0.5f)
 *   ta_resize_bilinear_f32 - reference_ops::ResizeBilinear in float:
 *       in[lo,lo] (1 - dy)(1 - dx) + in[hi,lo] dy (1 - dx)
 *       + in[lo,hi] (1 - dy) dx + in[hi,hi] dy dx
 *   Float operations round as written (no fused multiply-add).
 */
typedef struct {
  int32_t batches, in_h, in_w, depth, out_h, out_w;
  const int32_t *y_lo, *y_hi; /* out_h entries */
  const int32_t *x_lo, *x_hi; /* out_w entries */
  const int32_t *y_frac, *x_frac; /* integer kernel; NULL for the others */
  const float *y_in, *x_in;   /* float kernels: the scaled coordinates */
  int32_t rounding;
} ta_bilinear_params;
ta_status ta_resize_bilinear_s8(const ta_bilinear_params *p, const int8_t *in, int8_t *out);
ta_status ta_resize_bilinear_s16(const ta_bilinear_params *p, const int16_t *in,
                                 int16_t *out);
ta_status ta_resize_bilinear_u8(const ta_bilinear_params *p, const uint8_t *in, uint8_t *out);
ta_status ta_resize_bilinear_f32(const ta_bilinear_params *p, const float *in, float *out);

/* ========================================================== element-wise */

/*
 * ta_sub_s8, ta_sub_u8 - SUB with broadcasting (reference_ops::
 * SubElementwise / BroadcastQuantSubSlow): ADD's arithmetic (ta_add_s8,
 * same ta_add_params) with the two scaled inputs subtracted.
 * ta_add_u8 - legacy uint8 ADD: ta_add_s8's arithmetic on uint8.
 * ta_sub_f32 - out = clamp(in1 - in2, act_min_f32, act_max_f32).
 */
ta_status ta_sub_s8(const ta_add_params *p, const ta_bcast *shape, const int8_t *in1,
                    const int8_t *in2, int8_t *out);
/* ta_sub_s8 for the parameters ta_add_double_ok() takes (ta_add_double_s8's
 * arithmetic, minus); TA_ERR_ARG otherwise. */
ta_status ta_sub_double_s8(const ta_add_params *p, const ta_bcast *shape, const int8_t *in1,
                           const int8_t *in2, int8_t *out);
ta_status ta_sub_u8(const ta_add_params *p, const ta_bcast *shape, const uint8_t *in1,
                    const uint8_t *in2, uint8_t *out);
ta_status ta_sub_f32(const ta_add_params *p, const ta_bcast *shape, const float *in1,
                     const float *in2, float *out);
ta_status ta_add_u8(const ta_add_params *p, const ta_bcast *shape, const uint8_t *in1,
                    const uint8_t *in2, uint8_t *out);

/*
 * ta_mul_s8, ta_mul_u8 - MUL with broadcasting (reference_integer_ops::
 * MulElementwise / BroadcastMul4DSlow), per element:
 *   out = clamp(MultiplyByQuantizedMultiplier((x1 + input1_offset) *
 *               (x2 + input2_offset), multiplier, shift) + output_offset,
 *               act_min, act_max)
 * ta_mul_f32 - out = clamp(in1 * in2, act_min_f32, act_max_f32).
 * ta_mul_s32 - out = clamp(in1 * in2, act_min, act_max), wrapping.
 */
typedef struct {
  int32_t input1_offset, input2_offset; /* -zero points */
  int32_t output_offset;                /* output zero point */
  int32_t multiplier, shift;            /* (s1 * s2) / so */
  int32_t act_min, act_max;
  int32_t rounding;
  float act_min_f32, act_max_f32;
} ta_mul_params;
ta_status ta_mul_s8(const ta_mul_params *p, const ta_bcast *shape, const int8_t *in1,
                    const int8_t *in2, int8_t *out);
/* ta_mul_s8 for the usual parameters (double rounding, a multiplier >= 0,
 * offsets of int8 zero points, a left shift of at most 13:
 * ta_mul_double_ok()) in 32-bit instructions; TA_ERR_ARG otherwise. */
int ta_mul_double_ok(const ta_mul_params *p);
ta_status ta_mul_double_s8(const ta_mul_params *p, const ta_bcast *shape, const int8_t *in1,
                           const int8_t *in2, int8_t *out);
ta_status ta_mul_u8(const ta_mul_params *p, const ta_bcast *shape, const uint8_t *in1,
                    const uint8_t *in2, uint8_t *out);
ta_status ta_mul_s32(const ta_mul_params *p, const ta_bcast *shape, const int32_t *in1,
                     const int32_t *in2, int32_t *out);
ta_status ta_mul_f32(const ta_mul_params *p, const ta_bcast *shape, const float *in1,
                     const float *in2, float *out);

/*
 * ta_maximum_*, ta_minimum_* - MAXIMUM, MINIMUM with broadcasting
 * (reference_ops::MaximumMinimumBroadcastSlow): the larger / smaller of
 * the two raw values (quantized inputs share the output's quantization).
 */
ta_status ta_maximum_s8(const ta_bcast *shape, const int8_t *in1, const int8_t *in2,
                        int8_t *out);
ta_status ta_maximum_u8(const ta_bcast *shape, const uint8_t *in1, const uint8_t *in2,
                        uint8_t *out);
ta_status ta_maximum_s16(const ta_bcast *shape, const int16_t *in1, const int16_t *in2,
                         int16_t *out);
ta_status ta_maximum_s32(const ta_bcast *shape, const int32_t *in1, const int32_t *in2,
                         int32_t *out);
ta_status ta_maximum_f32(const ta_bcast *shape, const float *in1, const float *in2,
                         float *out);
ta_status ta_minimum_s8(const ta_bcast *shape, const int8_t *in1, const int8_t *in2,
                        int8_t *out);
ta_status ta_minimum_u8(const ta_bcast *shape, const uint8_t *in1, const uint8_t *in2,
                        uint8_t *out);
ta_status ta_minimum_s16(const ta_bcast *shape, const int16_t *in1, const int16_t *in2,
                         int16_t *out);
ta_status ta_minimum_s32(const ta_bcast *shape, const int32_t *in1, const int32_t *in2,
                         int32_t *out);
ta_status ta_minimum_f32(const ta_bcast *shape, const float *in1, const float *in2,
                         float *out);
ta_status ta_maximum_s64(const ta_bcast *shape, const int64_t *in1, const int64_t *in2,
                         int64_t *out);
ta_status ta_minimum_s64(const ta_bcast *shape, const int64_t *in1, const int64_t *in2,
                         int64_t *out);

/*
 * ta_lut_x8 - any element-wise function of one 8-bit input (int8 or
 * uint8): out[i] = table[(uint8_t)in[i]].  The compiler fills the table
 * by running TFLite Micro's integer arithmetic of the op (LOGISTIC,
 * TANH, HARD_SWISH, LEAKY_RELU, RELU, RELU6, RELU_N1_TO_1, ...) on every
 * one of the 256 possible inputs, so the result is that arithmetic's,
 * byte for byte.
 */
typedef struct {
  int32_t size;
  const uint8_t *table; /* 256 entries */
} ta_lut_params;
ta_status ta_lut_x8(const ta_lut_params *p, const void *in, void *out);

/*
 * Float activations (reference_ops::Logistic, Tanh, HardSwish,
 * LeakyRelu, Relu/Relu6/ReluX):
 *   ta_logistic_f32    1 / (1 + expf(-x))
 *   ta_tanh_f32        tanhf(x)
 *   ta_hard_swish_f32  x * min(6, max(0, x + 3)) / 6
 *   ta_leaky_relu_f32  x > 0 ? x : alpha * x
 *   ta_clamp_f32       min(max(x, lo), hi)   (RELU, RELU6, RELU_N1_TO_1)
 */
typedef struct {
  int32_t size;
  float alpha;
  float lo, hi;
} ta_unary_params;
ta_status ta_logistic_f32(const ta_unary_params *p, const float *in, float *out);
ta_status ta_tanh_f32(const ta_unary_params *p, const float *in, float *out);
ta_status ta_hard_swish_f32(const ta_unary_params *p, const float *in, float *out);
ta_status ta_leaky_relu_f32(const ta_unary_params *p, const float *in, float *out);
ta_status ta_clamp_f32(const ta_unary_params *p, const float *in, float *out);

/*
 * ta_cast_<from>_<to> - CAST between int8, uint8, int16, int32 and float
 * (static_cast per element: float -> integer truncates toward zero,
 * integer -> integer wraps; runtime/cast/cast.h).
 */
ta_status ta_cast_s8_u8(int32_t size, const int8_t *in, uint8_t *out);
ta_status ta_cast_s8_s16(int32_t size, const int8_t *in, int16_t *out);
ta_status ta_cast_s8_s32(int32_t size, const int8_t *in, int32_t *out);
ta_status ta_cast_s8_f32(int32_t size, const int8_t *in, float *out);
ta_status ta_cast_u8_s8(int32_t size, const uint8_t *in, int8_t *out);
ta_status ta_cast_u8_s16(int32_t size, const uint8_t *in, int16_t *out);
ta_status ta_cast_u8_s32(int32_t size, const uint8_t *in, int32_t *out);
ta_status ta_cast_u8_f32(int32_t size, const uint8_t *in, float *out);
ta_status ta_cast_s16_s8(int32_t size, const int16_t *in, int8_t *out);
ta_status ta_cast_s16_u8(int32_t size, const int16_t *in, uint8_t *out);
ta_status ta_cast_s16_s32(int32_t size, const int16_t *in, int32_t *out);
ta_status ta_cast_s16_f32(int32_t size, const int16_t *in, float *out);
ta_status ta_cast_s32_s8(int32_t size, const int32_t *in, int8_t *out);
ta_status ta_cast_s32_u8(int32_t size, const int32_t *in, uint8_t *out);
ta_status ta_cast_s32_s16(int32_t size, const int32_t *in, int16_t *out);
ta_status ta_cast_s32_f32(int32_t size, const int32_t *in, float *out);
/* ONNX Cast between float32, float64 and float16 (its 16 bits as bytes;
 * to float16: to nearest, ties to even). */
ta_status ta_cast_f16_f32(int32_t size, const void *in, float *out);
ta_status ta_cast_f32_f16(int32_t size, const float *in, void *out);
ta_status ta_cast_f16_f64(int32_t size, const void *in, double *out);
ta_status ta_cast_f64_f16(int32_t size, const double *in, void *out);
ta_status ta_cast_f32_f64(int32_t size, const float *in, double *out);
ta_status ta_cast_f64_f32(int32_t size, const double *in, float *out);
ta_status ta_cast_f32_s8(int32_t size, const float *in, int8_t *out);
ta_status ta_cast_f32_u8(int32_t size, const float *in, uint8_t *out);
ta_status ta_cast_f32_s16(int32_t size, const float *in, int16_t *out);
ta_status ta_cast_f32_s32(int32_t size, const float *in, int32_t *out);
/* uint16 to and from float32 (ONNX Cast, Quantize/DequantizeLinear). */
ta_status ta_cast_u16_f32(int32_t size, const uint16_t *in, float *out);
ta_status ta_cast_f32_u16(int32_t size, const float *in, uint16_t *out);

/*
 * ta_cast_<from>_<to> - CAST to and from ONNX's small types (bf16
 * bfloat16; e4m3fn, e4m3fnuz, e5m2, e5m2fnuz, e8m0 the float8s; e2m1
 * float4; s4, u4, s2, u2 the sub-byte integers, packed), as ONNX's
 * reference converts them: runtime/cast/minifloat.h.  saturate (0 or 1)
 * is Cast's attribute; round_mode of e8m0: 0 up, 1 down, 2 nearest.
 */
ta_status ta_cast_f32_bf16(int32_t size, const float *in, void *out);
ta_status ta_cast_f16_bf16(int32_t size, const void *in, void *out);
ta_status ta_cast_bf16_f32(int32_t size, const void *in, float *out);
ta_status ta_cast_bf16_f16(int32_t size, const void *in, void *out);
ta_status ta_cast_f32_e4m3fn(int32_t size, int32_t saturate, const float *in, void *out);
ta_status ta_cast_f16_e4m3fn(int32_t size, int32_t saturate, const void *in, void *out);
ta_status ta_cast_e4m3fn_f32(int32_t size, const void *in, float *out);
ta_status ta_cast_e4m3fn_f16(int32_t size, const void *in, void *out);
ta_status ta_cast_f32_e4m3fnuz(int32_t size, int32_t saturate, const float *in, void *out);
ta_status ta_cast_f16_e4m3fnuz(int32_t size, int32_t saturate, const void *in, void *out);
ta_status ta_cast_e4m3fnuz_f32(int32_t size, const void *in, float *out);
ta_status ta_cast_e4m3fnuz_f16(int32_t size, const void *in, void *out);
ta_status ta_cast_f32_e5m2(int32_t size, int32_t saturate, const float *in, void *out);
ta_status ta_cast_f16_e5m2(int32_t size, int32_t saturate, const void *in, void *out);
ta_status ta_cast_e5m2_f32(int32_t size, const void *in, float *out);
ta_status ta_cast_e5m2_f16(int32_t size, const void *in, void *out);
ta_status ta_cast_f32_e5m2fnuz(int32_t size, int32_t saturate, const float *in, void *out);
ta_status ta_cast_f16_e5m2fnuz(int32_t size, int32_t saturate, const void *in, void *out);
ta_status ta_cast_e5m2fnuz_f32(int32_t size, const void *in, float *out);
ta_status ta_cast_e5m2fnuz_f16(int32_t size, const void *in, void *out);
ta_status ta_cast_f32_e8m0(int32_t size, int32_t saturate, int32_t round_mode, const float *in, void *out);
ta_status ta_cast_f16_e8m0(int32_t size, int32_t saturate, int32_t round_mode, const void *in, void *out);
ta_status ta_cast_e8m0_f32(int32_t size, const void *in, float *out);
ta_status ta_cast_e8m0_f16(int32_t size, const void *in, void *out);
ta_status ta_cast_f32_e2m1(int32_t size, const float *in, void *out);
ta_status ta_cast_f16_e2m1(int32_t size, const void *in, void *out);
ta_status ta_cast_e2m1_f32(int32_t size, const void *in, float *out);
ta_status ta_cast_e2m1_f16(int32_t size, const void *in, void *out);
ta_status ta_cast_f32_s4(int32_t size, const float *in, void *out);
ta_status ta_cast_f16_s4(int32_t size, const void *in, void *out);
ta_status ta_cast_s4_f32(int32_t size, const void *in, float *out);
ta_status ta_cast_s4_f16(int32_t size, const void *in, void *out);
ta_status ta_cast_f32_u4(int32_t size, const float *in, void *out);
ta_status ta_cast_f16_u4(int32_t size, const void *in, void *out);
ta_status ta_cast_u4_f32(int32_t size, const void *in, float *out);
ta_status ta_cast_u4_f16(int32_t size, const void *in, void *out);
ta_status ta_cast_f32_s2(int32_t size, const float *in, void *out);
ta_status ta_cast_f16_s2(int32_t size, const void *in, void *out);
ta_status ta_cast_s2_f32(int32_t size, const void *in, float *out);
ta_status ta_cast_s2_f16(int32_t size, const void *in, void *out);
ta_status ta_cast_f32_u2(int32_t size, const float *in, void *out);
ta_status ta_cast_f16_u2(int32_t size, const void *in, void *out);
ta_status ta_cast_u2_f32(int32_t size, const void *in, float *out);
ta_status ta_cast_u2_f16(int32_t size, const void *in, void *out);
ta_status ta_cast_s4_s8(int32_t size, const void *in, int8_t *out);
ta_status ta_cast_u4_u8(int32_t size, const void *in, uint8_t *out);
ta_status ta_cast_s2_s8(int32_t size, const void *in, int8_t *out);
ta_status ta_cast_u2_u8(int32_t size, const void *in, uint8_t *out);

/* ========================================================= reductions */

/*
 * ta_mean_s8, ta_mean_s16 - integer MEAN (TFLM's EvalIntegerMean, with
 * reference_ops::QuantizedMeanOrSum): for every output element (outer
 * walk, in order) the int32 sum of its count inputs (inner walk,
 * starting at the outer walk's offset), then
 *   out = clamp(MultiplyByQuantizedMultiplier(sum - input_zero_point *
 *               count, multiplier, shift) + output_zero_point)
 * with 1/count folded into multiplier and shift as QuantizedMeanOrSum
 * does (mean_multiplier()).
 * ta_mean_f32 - the float sum in the same order, then sum / (float)count.
 */
typedef struct {
  ta_walk outer; /* output elements: input offset of each one's first */
  ta_walk inner; /* the reduced elements of one output, relative */
  int32_t count;
  int32_t input_zero_point, output_zero_point;
  int32_t multiplier, shift;
  int32_t rounding;
  float scale, bias; /* ta_mean_u8, ta_mean_float_s8/16 only */
} ta_mean_params;
ta_status ta_mean_s8(const ta_mean_params *p, const int8_t *in, int8_t *out);
ta_status ta_mean_s16(const ta_mean_params *p, const int16_t *in, int16_t *out);
ta_status ta_mean_f32(const ta_mean_params *p, const float *in, float *out);
/*
 * Legacy uint8 MEAN, TFLite's three paths (the compiler picks one):
 *   ta_mean_hw_u8   4-D input, keep_dims, axes {1, 2}:
 *                   clamp(MBQM(sum, multiplier, shift) + output_zero_point)
 *                   (output_zero_point: TFLite's bias)
 *   ta_mean_div_u8  input and output quantization equal: sum / count
 *   ta_mean_u8      otherwise, in float: clamp(roundf((float)sum /
 *                   (float)count * scale + bias) + output_zero_point)
 */
ta_status ta_mean_u8(const ta_mean_params *p, const uint8_t *in, uint8_t *out);
ta_status ta_mean_hw_u8(const ta_mean_params *p, const uint8_t *in, uint8_t *out);
ta_status ta_mean_div_u8(const ta_mean_params *p, const uint8_t *in, uint8_t *out);
/* ta_mean_ort_u8 - uint8 MEAN in ta_mean_s8's arithmetic, for rounding
 * TA_ROUND_ORT only: ONNX Runtime's QLinearGlobalAveragePool of uint8
 * (the multiplier holds the float scale's bits, shift 0). */
ta_status ta_mean_ort_u8(const ta_mean_params *p, const uint8_t *in, uint8_t *out);
/*
 * int8 and int16 MEAN as TFLite computes them (`--rounding single`; the
 * compiler picks the path TFLite's EvalMean takes):
 *   ta_mean_hw_s8     4-D input, keep_dims, axes {1, 2} (optimized_
 *                     integer_ops::Mean): as ta_mean_hw_u8
 *   ta_mean_div_s8/16 input and output quantization equal: sum / count
 *                     (truncated)
 *   ta_mean_float_s8/16  otherwise, as ta_mean_u8
 */
ta_status ta_mean_hw_s8(const ta_mean_params *p, const int8_t *in, int8_t *out);
ta_status ta_mean_div_s8(const ta_mean_params *p, const int8_t *in, int8_t *out);
ta_status ta_mean_div_s16(const ta_mean_params *p, const int16_t *in, int16_t *out);
ta_status ta_mean_float_s8(const ta_mean_params *p, const int8_t *in, int8_t *out);
ta_status ta_mean_float_s16(const ta_mean_params *p, const int16_t *in, int16_t *out);

/*
 * ta_arg_max_*, ta_arg_min_* - ARG_MAX, ARG_MIN (reference_ops::
 * ArgMinMax): over the middle dimension of [outer][axis][inner], the
 * index of the first largest (smallest) value; written as int32 or int64
 * (out_bits 32 or 64).
 */
typedef struct {
  int32_t outer, axis, inner;
  int32_t out_bits;
} ta_arg_params;
ta_status ta_arg_max_s8(const ta_arg_params *p, const int8_t *in, void *out);
ta_status ta_arg_max_u8(const ta_arg_params *p, const uint8_t *in, void *out);
ta_status ta_arg_max_s16(const ta_arg_params *p, const int16_t *in, void *out);
ta_status ta_arg_max_s32(const ta_arg_params *p, const int32_t *in, void *out);
ta_status ta_arg_max_f32(const ta_arg_params *p, const float *in, void *out);
ta_status ta_arg_min_s8(const ta_arg_params *p, const int8_t *in, void *out);
ta_status ta_arg_min_u8(const ta_arg_params *p, const uint8_t *in, void *out);
ta_status ta_arg_min_s16(const ta_arg_params *p, const int16_t *in, void *out);
ta_status ta_arg_min_s32(const ta_arg_params *p, const int32_t *in, void *out);
ta_status ta_arg_min_f32(const ta_arg_params *p, const float *in, void *out);

/* ==================================================== TRANSPOSE_CONV */

/*
 * ta_transpose_conv_s8 - int8 TRANSPOSE_CONV with per-channel
 * requantization (reference_integer_ops::TransposeConv, the scatter
 * form into int32 accumulators); filter OHWI, padding from the output
 * size (compute_padding() on the output).  scratch: the accumulators.
 * ta_transpose_conv_f32 - float, the same scatter order
 * (reference_ops::TransposeConv), accumulating in the output.
 */
size_t ta_transpose_conv_s8_scratch_size(const ta_conv_params *p, const ta_dims *in_dims,
                                         const ta_dims *filter_dims,
                                         const ta_dims *out_dims);
ta_status ta_transpose_conv_s8(const ta_conv_params *p, const ta_quant *q,
                               const ta_dims *in_dims, const int8_t *in,
                               const ta_dims *filter_dims, const int8_t *filter,
                               const int32_t *bias, const ta_dims *out_dims, int8_t *out,
                               void *scratch);
/* ta_transpose_conv_u8 - legacy uint8 (TFLite's builtin kernel): the same
 * scatter with (filter + filter_offset); per-tensor requantization. */
size_t ta_transpose_conv_u8_scratch_size(const ta_conv_params *p, const ta_dims *in_dims,
                                         const ta_dims *filter_dims,
                                         const ta_dims *out_dims);
ta_status ta_transpose_conv_u8(const ta_conv_params *p, const ta_quant *q,
                               int32_t filter_offset, const ta_dims *in_dims,
                               const uint8_t *in, const ta_dims *filter_dims,
                               const uint8_t *filter, const int32_t *bias,
                               const ta_dims *out_dims, uint8_t *out, void *scratch);
ta_status ta_transpose_conv_f32(const ta_conv_params *p, const ta_dims *in_dims,
                                const float *in, const ta_dims *filter_dims,
                                const float *filter, const float *bias,
                                const ta_dims *out_dims, float *out);

/* ============================================ legacy uint8 CNN kernels */

/*
 * ta_concatenation_requant_u8 - uint8 CONCATENATION with inputs in other
 * quantizations (TFLite's ConcatenationWithScaling): like
 * ta_concatenation_x8, except that block k is rescaled unless copy[k]:
 *   out = clamp(roundf(x * scale[k] + bias[k]) + output_zero_point, 0, 255)
 */
typedef struct {
  int32_t n;
  int32_t outer;
  const int32_t *bytes; /* n entries: values of input k per outer step */
  const int32_t *copy;  /* n entries: 1 = same quantization as the output */
  const float *scale;   /* n entries: input_scale * (1 / output_scale) */
  const float *bias;    /* n entries: -input_zero_point * scale */
  int32_t output_zero_point;
} ta_concat_u8_params;
ta_status ta_concatenation_requant_u8(const ta_concat_u8_params *p, const void *const *in,
                                      uint8_t *out);

/* ta_requantize_u8_u8 - QUANTIZE uint8 -> uint8 (see ta_requantize_*). */
ta_status ta_requantize_u8_u8(const ta_requant_params *p, const uint8_t *in, uint8_t *out);

/*
 * ta_conv2d_u8, ta_depthwise_conv2d_u8, ta_fully_connected_u8 - uint8
 * activations and filters with zero points (TFLite's builtin uint8
 * kernels; the convolutions' filter zero point is filter_offset =
 * -zero point, FULLY_CONNECTED's is p->filter_offset):
 *   acc = bias + sum (filter + filter_offset) * (in + input_offset)
 *   out = clamp(requant(acc, q) + output_offset, act_min, act_max)
 * over the taps inside the input.  Shapes as the int8 kernels'.
 */
ta_status ta_conv2d_u8(const ta_conv_params *p, const ta_quant *q, int32_t filter_offset,
                       const ta_dims *in_dims, const uint8_t *in,
                       const ta_dims *filter_dims, const uint8_t *filter,
                       const int32_t *bias, const ta_dims *out_dims, uint8_t *out);
ta_status ta_depthwise_conv2d_u8(const ta_conv_params *p, const ta_quant *q,
                                 int32_t filter_offset, const ta_dims *in_dims,
                                 const uint8_t *in, const ta_dims *filter_dims,
                                 const uint8_t *filter, const int32_t *bias,
                                 const ta_dims *out_dims, uint8_t *out);
ta_status ta_fully_connected_u8(const ta_fc_params *p, const ta_quant *q, const uint8_t *in,
                                const uint8_t *filter, const int32_t *bias, uint8_t *out);

/* ta_avg_pool2d_u8, ta_max_pool2d_u8 - uint8 pools (TFLite's uint8
 * AveragePool: (sum + count / 2) / count; MaxPool). */
ta_status ta_avg_pool2d_u8(const ta_pool_params *p, const ta_dims *in_dims, const uint8_t *in,
                           const ta_dims *out_dims, uint8_t *out);
ta_status ta_max_pool2d_u8(const ta_pool_params *p, const ta_dims *in_dims, const uint8_t *in,
                           const ta_dims *out_dims, uint8_t *out);

/*
 * ta_softmax_u8 - uint8 SOFTMAX as TFLite's builtin kernel
 * (optimized_ops::Softmax with PopulateSoftmaxLookupTable's float table):
 * rows of depth values; table[255 - v] = expf(-input_scale * beta * v),
 * computed by the compiler; output scale 1/256, zero point 0.
 */
typedef struct {
  int32_t outer, depth;
  float output_scale;
  const float *table; /* 256 entries */
  int32_t output_zero_point; /* ta_softmax_table_s8 */
} ta_softmax_u8_params;
ta_status ta_softmax_u8(const ta_softmax_u8_params *p, const uint8_t *in, uint8_t *out);
/*
 * ta_softmax_table_s8 - int8 SOFTMAX with int8 output as TFLite's
 * builtin kernel (`--rounding single`): ta_softmax_u8's float table and
 * sum, then clamp(roundf(e * inv) + output_zero_point, -128, 127).
 */
ta_status ta_softmax_table_s8(const ta_softmax_u8_params *p, const int8_t *in, int8_t *out);
/* ta_softmax_table_s8_s16 - the same with int16 output, clamped to
 * [-32768, 32767]. */
ta_status ta_softmax_table_s8_s16(const ta_softmax_u8_params *p, const int8_t *in,
                                  int16_t *out);

/* ===================================================== hybrid kernels */

/*
 * ta_conv2d_hybrid_f32 - CONV_2D with float activations and an int8
 * filter of one scale (*filter_scale), as TFLite's builtin hybrid kernel
 * (EvalHybrid): the input of each batch quantized symmetrically to int8
 * at run time (SymmetricQuantizeFloats), an int32 convolution, then
 *   out = clamp((float)acc * (range / 127 * filter_scale) + bias)
 * scratch: ta_conv2d_hybrid_f32_scratch_size() bytes (one batch, int8).
 */
size_t ta_conv2d_hybrid_f32_scratch_size(const ta_conv_params *p, const ta_dims *in_dims,
                                         const ta_dims *filter_dims,
                                         const ta_dims *out_dims);
ta_status ta_conv2d_hybrid_f32(const ta_conv_params *p, const float *filter_scale,
                               const ta_dims *in_dims, const float *in,
                               const ta_dims *filter_dims, const int8_t *filter,
                               const float *bias, const ta_dims *out_dims, float *out,
                               void *scratch);

/*
 * ta_conv2d_hybrid_per_channel_f32 - CONV_2D with float activations and
 * bias and an int8 filter with one scale per output channel
 * (filter_scale[oc]), as TFLite's builtin EvalHybridPerChannel: the
 * input of each batch quantized asymmetrically at run time, an int32
 * sum of filter * (q - offset), then
 *   out = clamp((float)acc * filter_scale[oc] * factor + bias)
 * scratch: ta_conv2d_hybrid_per_channel_f32_scratch_size() bytes.
 */
size_t ta_conv2d_hybrid_per_channel_f32_scratch_size(const ta_conv_params *p,
                                                     const ta_dims *in_dims,
                                                     const ta_dims *filter_dims,
                                                     const ta_dims *out_dims);
ta_status ta_conv2d_hybrid_per_channel_f32(const ta_conv_params *p, const float *filter_scale,
                                           const ta_dims *in_dims, const float *in,
                                           const ta_dims *filter_dims, const int8_t *filter,
                                           const float *bias, const ta_dims *out_dims,
                                           float *out, void *scratch);

/*
 * ta_depthwise_conv2d_hybrid_f32 - DEPTHWISE_CONV_2D with float
 * activations and bias and an int8 filter with one scale per output
 * channel (filter_scale[oc]), as TFLite's builtin EvalHybridPerChannel:
 * the input of each batch quantized asymmetrically at run time
 * (AsymmetricQuantizeFloats), an int32 depthwise sum of
 * filter * (q - offset), then
 *   out = clamp((float)acc * (filter_scale[oc] * factor) + bias)
 * scratch: ta_depthwise_conv2d_hybrid_f32_scratch_size() bytes.
 */
size_t ta_depthwise_conv2d_hybrid_f32_scratch_size(const ta_conv_params *p,
                                                   const ta_dims *in_dims,
                                                   const ta_dims *filter_dims,
                                                   const ta_dims *out_dims);
ta_status ta_depthwise_conv2d_hybrid_f32(const ta_conv_params *p, const float *filter_scale,
                                         const ta_dims *in_dims, const float *in,
                                         const ta_dims *filter_dims, const int8_t *filter,
                                         const float *bias, const ta_dims *out_dims,
                                         float *out, void *scratch);

/*
 * ta_fully_connected_hybrid_f32 - FULLY_CONNECTED with float input and
 * output, int8 weights (symmetric, one scale or one per output) and a
 * float bias, as TFLite's builtin EvalHybridDense: each batch row
 * quantized to int8 at run time (symmetrically, or asymmetrically with
 * an offset when asymmetric_quantize_inputs), an int32 dot product per
 * output, then out = clamp(bias + (float)dot * scale).  The arithmetic
 * is spelled out in the kernel's file.
 * scratch: in_depth bytes.
 */
typedef struct {
  const float *filter_scale; /* 1 value, or out_depth when per_channel */
  int32_t per_channel;
  int32_t asymmetric;        /* asymmetric_quantize_inputs */
  const int32_t *row_sums;   /* asymmetric: the sum of each weight row */
} ta_fc_hybrid_params;
ta_status ta_fully_connected_hybrid_f32(const ta_fc_params *p, const ta_fc_hybrid_params *h,
                                        const float *in, const int8_t *filter,
                                        const float *bias, float *out, void *scratch);

#endif
