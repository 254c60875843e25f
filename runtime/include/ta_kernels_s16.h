/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_kernels_s16.h - kernels for TFLite's 16x8 quantization scheme: int16
 * activations (symmetric, zero point 0), int8 weights, int64 biases.
 * Included by ta_kernels.h; the conventions there hold here too.
 *
 * What each kernel matches (TFLite Micro's reference kernels, which TFLite's
 * builtin reference kernels share for these types):
 *
 *   ta_conv2d_s16           reference_integer_ops::ConvPerChannel<int64_t>
 *   ta_conv2d_acc32_s16     reference_integer_ops::ConvPerChannel<int32_t>
 *   ta_depthwise_conv2d_s16 reference_integer_ops::DepthwiseConvPerChannel
 *                           (int16 overload, int64 bias)
 *   ta_transpose_conv_s16   reference_integer_ops::TransposeConv<int64_t>
 *   ta_transpose_conv_acc32_s16  reference_integer_ops::TransposeConv<int32_t>
 *   ta_fully_connected_s16  reference_integer_ops::FullyConnected /
 *                           FullyConnectedPerChannel, int64 bias
 *   ta_fully_connected_acc32_s16  the same with an int32 bias/accumulator
 *   ta_mul_s16              reference_integer_ops::MulElementwise /
 *                           BroadcastMul6DSlow for int16
 *   ta_add_s16, ta_sub_s16  reference_ops::AddElementwise / SubElementwise
 *                           and their broadcasting forms (the general path)
 *   ta_add_pot_s16,         reference_ops::Add(pot_scale) / Sub16 and
 *   ta_sub_pot_s16          BroadcastSub16POTSlow (power-of-two scales)
 *   ta_avg_pool2d_s16,      reference_integer_ops::AveragePool / MaxPool
 *   ta_max_pool2d_s16       (int16)
 *   ta_leaky_relu_s16       reference_ops::QuantizeLeakyRelu<int16_t>
 *   ta_relu_s16             ReluX / ReluQuantized<int16_t> (RELU, RELU6)
 *   ta_logistic_s16,        reference_integer_ops::Logistic / Tanh (int16:
 *   ta_tanh_s16             the sigmoid table, interpolated)
 *   ta_logistic_pot_s16,    optimized_ops::Logistic / Tanh for int16 (gemmlowp
 *   ta_tanh_pot_s16         fixed point; TFLite's power-of-two scales)
 *   ta_softmax_s16          reference_ops::SoftmaxInt16 (exp and 1/(1+x)
 *                           tables of 513 entries)
 *   ta_requantize_s32_s16   reference_ops::Requantize (QUANTIZE int32 to
 *                           int16; int16 to int32 is in ta_kernels_rnn.h)
 *
 * Rounding: the kernels with int64 accumulators (int64 bias) requantize
 * with TFLite's 64-bit MultiplyByQuantizedMultiplier (the multiplier
 * reduced to 16 bits, one rounding), which is the same function in TFLite
 * Micro and in TFLite built with or without TFLITE_SINGLE_ROUNDING;
 * ta_quant.rounding is not read.  The "acc32" kernels (int32 bias or no
 * bias: TFLite picks its int32 accumulator then) and the others requantize
 * int32 values with the 32-bit MultiplyByQuantizedMultiplier and the
 * rounding their params name, as ta_add_s8 does.
 */
#ifndef TA_KERNELS_S16_H
#define TA_KERNELS_S16_H

#include "ta_kernels_ops.h"
#include "ta_types.h"

/* ========================================================= 16x8 CONV_2D */

/*
 * ta_conv2d_s16 - CONV_2D, int16 input and output, int8 filter (per-channel
 * or per-tensor), int64 bias (or NULL):
 *
 *   acc = bias[oc] + sum_{ky,kx,ic, tap inside the input}
 *           filter[oc][ky][kx][ic] * in[n][iy][ix][g*fc + ic]     (int64)
 *   out = clamp(requant64(acc, q, oc), act_min, act_max)
 *
 * No input or output offset (int16 tensors are symmetric).  Shapes and
 * grouping as ta_conv2d_s8.  No scratch.
 */
ta_status ta_conv2d_s16(const ta_conv_params *p, const ta_quant *q,
                        const ta_dims *in_dims, const int16_t *in,
                        const ta_dims *filter_dims, const int8_t *filter,
                        const int64_t *bias,
                        const ta_dims *out_dims, int16_t *out);

/*
 * ta_conv2d_acc32_s16 - the same with an int32 bias (or NULL) and an int32
 * accumulator (wrapping on overflow, as TFLite's):
 *   out = clamp(MultiplyByQuantizedMultiplier(acc, q, oc), act_min, act_max)
 * with the 32-bit requantization and q->rounding.
 */
ta_status ta_conv2d_acc32_s16(const ta_conv_params *p, const ta_quant *q,
                              const ta_dims *in_dims, const int16_t *in,
                              const ta_dims *filter_dims, const int8_t *filter,
                              const int32_t *bias,
                              const ta_dims *out_dims, int16_t *out);

/* =============================================== 16x8 DEPTHWISE_CONV_2D */

/*
 * ta_depthwise_conv2d_s16 - DEPTHWISE_CONV_2D, int16 input and output,
 * int8 filter {1, h, w, c * depth_multiplier} (per channel or per
 * tensor), int64 bias or NULL:
 *
 *   acc = bias[oc] + sum_{ky,kx, tap inside the input}
 *           filter[0][ky][kx][oc] * in[n][iy][ix][oc / depth_multiplier]  (int64)
 *   out = clamp(requant64(acc, q, oc), act_min, act_max)
 *
 * Shapes as ta_depthwise_conv2d_s8.  No scratch.
 */
ta_status ta_depthwise_conv2d_s16(const ta_conv_params *p, const ta_quant *q,
                                  const ta_dims *in_dims, const int16_t *in,
                                  const ta_dims *filter_dims, const int8_t *filter,
                                  const int64_t *bias,
                                  const ta_dims *out_dims, int16_t *out);

/* ================================================== 16x8 TRANSPOSE_CONV */

/*
 * ta_transpose_conv_s16 - TRANSPOSE_CONV, int16 input and output, int8
 * filter OHWI ({n = out channels, h, w, c = in channels}), int64 bias or
 * NULL.  Every input pixel (iy, ix) scatters into the outputs
 * oy = iy*stride_h - pad_h + ky (likewise x) that lie inside the output:
 *
 *   acc[oy][ox][oc] = sum of in[iy][ix][ic] * filter[oc][ky][kx][ic]  (int64)
 *   out = clamp(requant64(acc + bias[oc], q, oc), act_min, act_max)
 *
 * TFLite sums into an int64 scratch tensor; here each output gathers the
 * same integer products itself (integer sums do not depend on the order),
 * so no scratch is needed.  Dilation must be 1.  The op's output-shape
 * input is not read: out_dims is the output's static shape.
 */
ta_status ta_transpose_conv_s16(const ta_conv_params *p, const ta_quant *q,
                                const ta_dims *in_dims, const int16_t *in,
                                const ta_dims *filter_dims, const int8_t *filter,
                                const int64_t *bias,
                                const ta_dims *out_dims, int16_t *out);

/*
 * ta_transpose_conv_acc32_s16 - the same with an int32 bias (or NULL),
 * summed in int32 (wrapping, as TFLite's int32 scratch), then the 32-bit
 * MultiplyByQuantizedMultiplier with q->rounding.
 */
ta_status ta_transpose_conv_acc32_s16(const ta_conv_params *p, const ta_quant *q,
                                      const ta_dims *in_dims, const int16_t *in,
                                      const ta_dims *filter_dims, const int8_t *filter,
                                      const int32_t *bias,
                                      const ta_dims *out_dims, int16_t *out);

/* ================================================= 16x8 FULLY_CONNECTED */

/*
 * ta_fully_connected_s16 - FULLY_CONNECTED, int16 input and output, int8
 * filter [out_depth, in_depth] (per tensor or per channel), int64 bias or
 * NULL:
 *   acc = bias[o] + sum_i filter[o][i] * in[b][i]                 (int64)
 *   out[b][o] = clamp(requant64(acc, q, o), act_min, act_max)
 * Shapes in p; the offsets in p are not read (all 0 in 16x8).
 */
ta_status ta_fully_connected_s16(const ta_fc_params *p, const ta_quant *q,
                                 const int16_t *in, const int8_t *filter,
                                 const int64_t *bias, int16_t *out);

/* ta_fully_connected_acc32_s16 - the same with an int32 bias (or NULL) and
 * an int32 accumulator (wrapping), requantized by the 32-bit
 * MultiplyByQuantizedMultiplier with q->rounding. */
ta_status ta_fully_connected_acc32_s16(const ta_fc_params *p, const ta_quant *q,
                                       const int16_t *in, const int8_t *filter,
                                       const int32_t *bias, int16_t *out);

/* ================================================================== MUL */

/*
 * ta_mul_s16 - int16 MUL with broadcasting over `shape` (make_broadcast()),
 * per element:
 *   out = clamp(MultiplyByQuantizedMultiplier(x1 * x2, multiplier, shift),
 *               act_min, act_max)
 * (ta_mul_params from mul_params(); output_offset is added, the input
 * offsets must be 0: TA_ERR_ARG otherwise).
 */
ta_status ta_mul_s16(const ta_mul_params *p, const ta_bcast *shape, const int16_t *in1,
                     const int16_t *in2, int16_t *out);

/* =========================================================== ADD and SUB */

/*
 * ta_add_s16 / ta_sub_s16 - the general int16 path (any scales), per
 * element over the broadcast walk `shape` (make_broadcast()):
 *   a = MBQMSmallerThanOneExp((x1 + input1_offset) << left_shift (15),
 *                             input1_multiplier, input1_shift), b likewise
 *   out = clamp(MBQMSmallerThanOneExp(a + b (ADD) or a - b (SUB),
 *               output_multiplier, output_shift) + output_offset,
 *               act_min, act_max)
 * Parameters from add_params() (ADD) or the SUB lowering.
 */
ta_status ta_add_s16(const ta_add_params *p, const ta_bcast *shape,
                     const int16_t *in1, const int16_t *in2, int16_t *out);
ta_status ta_sub_s16(const ta_add_params *p, const ta_bcast *shape,
                     const int16_t *in1, const int16_t *in2, int16_t *out);

/*
 * ta_add_pot_s16 / ta_sub_pot_s16 - the power-of-two path TFLite takes
 * when the op's pot_scale_int16 is set and every scale is a power of two:
 * input_k_shift = log2(scale_k) - log2(output scale) <= 0 (one of the two
 * is 0), and
 *   out = clamp(RoundingDivideByPOT(x1, -input1_shift)
 *               +/- RoundingDivideByPOT(x2, -input2_shift), act_min, act_max)
 * (the int16 saturation of TFLite's SaturatingAdd/Sub is implied by the
 * clamp).  Only input1_shift, input2_shift, act_min and act_max are read.
 */
ta_status ta_add_pot_s16(const ta_add_params *p, const ta_bcast *shape,
                         const int16_t *in1, const int16_t *in2, int16_t *out);
ta_status ta_sub_pot_s16(const ta_add_params *p, const ta_bcast *shape,
                         const int16_t *in1, const int16_t *in2, int16_t *out);

/* ================================================================= POOLS */

/*
 * ta_avg_pool2d_s16, ta_max_pool2d_s16 - AVERAGE_POOL_2D and MAX_POOL_2D
 * of int16 tensors (reference_integer_ops::AveragePool / MaxPool for
 * int16, which TFLite and TFLite Micro share): the int8 kernels'
 * arithmetic with int16 values (runtime/pool/pool_int.h).  act_min and
 * act_max are the fused activation's range on the output's scale.
 */
ta_status ta_avg_pool2d_s16(const ta_pool_params *p, const ta_dims *in_dims, const int16_t *in,
                            const ta_dims *out_dims, int16_t *out);
ta_status ta_max_pool2d_s16(const ta_pool_params *p, const ta_dims *in_dims, const int16_t *in,
                            const ta_dims *out_dims, int16_t *out);

/* ============================================================ LEAKY_RELU */

/* LEAKY_RELU of a quantized tensor (TFLite's LeakyReluParams): the
 * multipliers of input_scale * alpha / output_scale (negative inputs) and
 * input_scale / output_scale (the rest), each from QuantizeMultiplier. */
typedef struct {
  int32_t size; /* elements */
  int32_t input_zero_point, output_zero_point;
  int32_t multiplier_alpha, shift_alpha;
  int32_t multiplier_identity, shift_identity;
  int32_t rounding;
} ta_leaky_relu_params;

/*
 * ta_leaky_relu_s16 - per element, x = in - input_zero_point:
 *   out = clamp(output_zero_point + MultiplyByQuantizedMultiplier(x,
 *               x >= 0 ? identity : alpha), -32768, 32767)
 */
ta_status ta_leaky_relu_s16(const ta_leaky_relu_params *p, const int16_t *in,
                            int16_t *out);

/* ========================================================= RELU, RELU6 */

/* RELU and RELU6 of an int16 tensor (TFLite's ReluParams).  act_min and
 * act_max must lie in [-32768, 32767]. */
typedef struct {
  int32_t size; /* elements */
  int32_t input_zero_point, output_zero_point;
  int32_t multiplier, shift; /* input_scale / output_scale */
  int32_t act_min, act_max;
  int32_t rounding;
} ta_relu_params;

/*
 * ta_relu_s16 - per element:
 *   out = min(max(output_zero_point + MultiplyByQuantizedMultiplier(
 *             in - input_zero_point, multiplier, shift), act_min), act_max)
 */
ta_status ta_relu_s16(const ta_relu_params *p, const int16_t *in, int16_t *out);
/* ====================================================== LOGISTIC, TANH */

/*
 * ta_logistic_s16 / ta_tanh_s16 - int16 LOGISTIC and TANH (input zero
 * point 0, output scale 2^-15 and zero point 0), as
 * reference_integer_ops::Logistic / Tanh for int16: a 256-entry table of
 * sigmoid(i / 24) in Q0.16 (TFLite's sigmoid_table_uint16, passed in
 * `table`), interpolated linearly.  Per element
 *
 *   x = (in * input_multiplier + round) >> input_left_shift
 *       (round = 2^(input_left_shift - 1), or 0 for a shift of 0)
 *   LOGISTIC: |x| / 2^9 indexes the table, the low 9 bits interpolate;
 *   TANH:     |x| / 2^8 indexes it (tanh(x) = 2 sigmoid(2x) - 1), the
 *             low 8 bits interpolate;
 *   then the sign is applied and the result scaled back to 16 bits.
 *
 * The compiler folds TFLite's power-of-two case (input_multiplier 0:
 * 3 << left shift, shift 0) into the two numbers, so 1 <= input_multiplier
 * <= 65535 and 0 <= input_left_shift <= 31.
 */
typedef struct {
  int32_t size; /* elements */
  int32_t input_multiplier, input_left_shift;
  const uint16_t *table; /* 256 entries */
} ta_sigmoid_s16_params;
ta_status ta_logistic_s16(const ta_sigmoid_s16_params *p, const int16_t *in, int16_t *out);
ta_status ta_tanh_s16(const ta_sigmoid_s16_params *p, const int16_t *in, int16_t *out);
/*
 * ta_logistic_pot_s16 / ta_tanh_pot_s16 - TFLite's own arithmetic for the
 * power-of-two input scales that leave input_multiplier 0 (2^-12; TANH
 * also 2^-11, input_left_shift 1): optimized_ops::Logistic / Tanh for
 * int16, gemmlowp's fixed-point logistic / tanh of the raw input as Q3.12
 * (TANH: doubled with saturation first when input_left_shift is 1), Q0.15
 * out.  TFLite Micro uses the table kernels above for these scales too.
 * `table` and input_multiplier are not read.
 */
ta_status ta_logistic_pot_s16(const ta_sigmoid_s16_params *p, const int16_t *in,
                              int16_t *out);
ta_status ta_tanh_pot_s16(const ta_sigmoid_s16_params *p, const int16_t *in, int16_t *out);

/* ============================================================== SOFTMAX */

/*
 * ta_softmax_s16 - int16 SOFTMAX (input zero point 0, output scale 2^-15,
 * zero point 0) as reference_ops::SoftmaxInt16: rows of depth values;
 * per element exp(x - max) from the 513-entry table exp_lut (exp on
 * [-10, 0]) after rescaling x - max by input_multiplier / input_left_shift
 * (MultiplyByQuantizedMultiplier, double rounding) so that [-65535, 0]
 * spans [-10, 0]; the sum's reciprocal from one_over_one_plus_x_lut
 * (1 / (1 + x) on [0, 1]) after normalizing the sum; each exp times the
 * reciprocal, rounded, clamped to [0, 32767].  Both tables are computed
 * by the compiler (softmax_s16_luts()).  1 <= depth <= 65536.
 */
typedef struct {
  int32_t outer, depth;
  int32_t input_multiplier, input_left_shift;
  const int16_t *exp_lut;                 /* 513 entries */
  const int16_t *one_over_one_plus_x_lut; /* 513 entries */
} ta_softmax_s16_params;
ta_status ta_softmax_s16(const ta_softmax_s16_params *p, const int16_t *in, int16_t *out);

/* ============================================================== QUANTIZE */

/* int32 -> int16 (reference_ops::Requantize); parameters from
 * requant_params().  The input may use the whole int32 range: the zero
 * point is subtracted with wrap-around, as TFLite's int32 arithmetic. */
ta_status ta_requantize_s32_s16(const ta_requant_params *p, const int32_t *in,
                                int16_t *out);

#endif
