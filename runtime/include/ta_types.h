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
 *    multipliers and shifts, folded biases, lookup tables.
 */
#ifndef TA_TYPES_H
#define TA_TYPES_H

#include <stddef.h>
#include <stdint.h>

typedef int ta_status;
#define TA_OK 0
#define TA_ERR_ARG 1         /* a parameter the kernel cannot work with */
#define TA_ERR_UNSUPPORTED 2 /* a legal case this kernel does not handle */

/* Requantization rounding: TFLite Micro's reference kernels round twice
 * (saturating rounding doubling high multiply, then rounding right
 * shift); TFLite (ruy, TFLITE_SINGLE_ROUNDING) rounds once. */
#define TA_ROUND_DOUBLE 0
#define TA_ROUND_SINGLE 1

/* A 4-D shape, NHWC.  Lower-rank tensors are padded with leading 1s. */
typedef struct {
  int32_t n, h, w, c;
} ta_dims;

/*
 * Requantization of int32 accumulators to the output scale:
 * out = round(acc * multiplier * 2^(shift - 31)), as TFLite's
 * MultiplyByQuantizedMultiplier.  shift > 0 shifts left.  multiplier and
 * shift point to one entry (per tensor, per_channel == 0) or to one entry
 * per output channel.
 */
typedef struct {
  const int32_t *multiplier;
  const int32_t *shift;
  int32_t per_channel;
  int32_t rounding; /* TA_ROUND_DOUBLE or TA_ROUND_SINGLE */
} ta_quant;

/* CONV_2D, DEPTHWISE_CONV_2D, TRANSPOSE_CONV. */
typedef struct {
  int32_t stride_h, stride_w;
  int32_t dilation_h, dilation_w;
  int32_t pad_h, pad_w; /* top/left padding, computed by the compiler */
  int32_t depth_multiplier;
  int32_t input_offset;  /* -input zero point */
  int32_t output_offset; /* output zero point */
  int32_t act_min, act_max; /* fused activation, in output units */
} ta_conv_params;

/* FULLY_CONNECTED. */
typedef struct {
  int32_t input_offset;
  int32_t filter_offset; /* -filter zero point (0 for int8 symmetric) */
  int32_t output_offset;
  int32_t act_min, act_max;
} ta_fc_params;

/* AVERAGE_POOL_2D, MAX_POOL_2D. */
typedef struct {
  int32_t stride_h, stride_w;
  int32_t filter_h, filter_w;
  int32_t pad_h, pad_w;
  int32_t act_min, act_max;
} ta_pool_params;

#endif
