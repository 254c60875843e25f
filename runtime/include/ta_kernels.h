/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_kernels.h - the public API of tinyaot's kernel library.
 *
 * One kernel per file under runtime/<family>/, named after it:
 * ta_<op>[_<variant>]_<dtype> (for two-type kernels: input type, then
 * output type).  Kernels that need scratch memory have
 * <kernel>_scratch_size(), which the compiler links and calls while
 * planning, so the planned size and the kernel's use agree; they take a
 * `void *scratch` last (may be NULL when the size is 0).
 *
 * Integer kernels reproduce TensorFlow Lite Micro's reference kernels
 * (tensorflow/lite/kernels/internal/reference/...) bit for bit, with the
 * requantization rounding chosen by ta_quant.rounding (or the params'
 * `rounding`).  Float kernels follow TFLM's reference float kernels, in
 * the same summation order.  All kernels return TA_OK, or TA_ERR_ARG for
 * inconsistent shapes/parameters (checked once per call, never per
 * element).  Fixed-point helpers shared by all kernels: ta_fixedpoint.h.
 *
 * The parameter structs are in ta_types.h; compiler/quant.c fills them.
 */
#ifndef TA_KERNELS_H
#define TA_KERNELS_H

#include "ta_types.h"

/* ================================================================ CONV_2D */

/*
 * ta_conv2d_s8 - int8 CONV_2D, per-tensor or per-channel requantization
 * (reference_integer_ops::ConvPerChannel):
 *
 *   acc = bias[oc] + sum_{ky,kx,ic, tap inside the input}
 *           filter[oc][ky][kx][ic] * (in[n][iy][ix][g*fc + ic] + input_offset)
 *   iy = oy*stride_h - pad_h + ky*dilation_h  (likewise x)
 *   out = clamp(requant(acc, q, oc) + output_offset, act_min, act_max)
 *
 * in_dims NHWC; filter_dims {n = out channels, h, w, c = filter input
 * channels}; in c must be a multiple of filter c (grouped convolution:
 * group g = oc / (out_c / groups)); out_dims given by the compiler
 * (compute_padding()).  bias: TFLite's int32 bias, or NULL.  Taps outside
 * the input count as zero (padding is the input zero point).
 * scratch: ta_conv2d_s8_scratch_size() bytes.
 */
size_t ta_conv2d_s8_scratch_size(const ta_conv_params *p, const ta_dims *in_dims,
                                 const ta_dims *filter_dims, const ta_dims *out_dims);
ta_status ta_conv2d_s8(const ta_conv_params *p, const ta_quant *q,
                       const ta_dims *in_dims, const int8_t *in,
                       const ta_dims *filter_dims, const int8_t *filter,
                       const int32_t *bias,
                       const ta_dims *out_dims, int8_t *out, void *scratch);

/*
 * ta_conv2d_fold_s8 - the same result as ta_conv2d_s8, faster: `bias` is
 * the folded bias (required, fold_bias_s8() with per_out = kh*kw*fc):
 *
 *   bias_fold[oc] = bias[oc] + input_offset * sum_{ky,kx,ic} filter[oc][ky][kx][ic]
 *
 * so the inner loop is a plain dot product (padding reads the input zero
 * point).  scratch: ta_conv2d_fold_s8_scratch_size() bytes = 8 * K4, K4 =
 * kh * kw * filter c rounded up to 4 (four gathered filter windows, as
 * int16), plus 4 K4 when filter c is not a multiple of 4; required
 * (non-NULL).  ta_conv2d_fold_s8 runs the portable path (or ONNX
 * Runtime's, TA_ROUND_ORT) with an OHWI filter, any groups.
 */
size_t ta_conv2d_fold_s8_scratch_size(const ta_conv_params *p, const ta_dims *in_dims,
                                      const ta_dims *filter_dims, const ta_dims *out_dims);
ta_status ta_conv2d_fold_s8(const ta_conv_params *p, const ta_quant *q,
                            const ta_dims *in_dims, const int8_t *in,
                            const ta_dims *filter_dims, const int8_t *filter,
                            const int32_t *bias_fold,
                            const ta_dims *out_dims, int8_t *out, void *scratch);
/*
 * The same bytes through one path each, so that a program links only the
 * paths its calls use (the compiler picks one per op; "Paths chosen by the
 * compiler" in doc/cortex-m.md):
 *  - ta_conv2d_fold_dsp_s8: the Arm DSP path on a core with the DSP
 *    extension (the same arithmetic in C elsewhere), for an op
 *    ta_conv2d_fold_dsp_ok() accepts, with a 4-byte aligned scratch
 *    (TA_ERR_ARG otherwise, on every core).  Its `filter` is the OHWI
 *    filter packed by ta_pack_rows_s8() in blocks of 2 rows (ta_pack.h;
 *    4-byte aligned, ta_pack_size() bytes) and its `bias_fold` the
 *    records of ta_pack_records() (blocks of 2) for the folded bias;
 *  - ta_conv2d_fold_wide_dsp_s8: the same with that filter widened to
 *    int16 by ta_pack_wide_s8() (twice the bytes; 4 instructions fewer
 *    per 32 multiply-adds on the DSP cores; the same bytes out), for an
 *    even number of output channels (TA_ERR_ARG otherwise);
 *  - ta_conv2d_fold_lean_dsp_s8: the same two output pixels per block
 *    instead of four (slower on the DSP cores; the same bytes), in half
 *    the scratch: ta_conv2d_fold_lean_dsp_s8_scratch_size() bytes =
 *    4 K4, plus 2 K4 when filter c is not a multiple of 4;
 *  - ta_conv2d_fold_portable_s8: the portable path, TFLite's roundings
 *    (TA_ROUND_DOUBLE, TA_ROUND_SINGLE; TA_ERR_ARG for TA_ROUND_ORT);
 *  - ta_conv2d_fold_ort_s8: the portable path, TA_ROUND_ORT only.
 * ta_conv2d_fold_dsp_ok: ungrouped (filter c = in c), double rounding and
 * q->mmla with TA_MMLA_RECORDS.
 */
int ta_conv2d_fold_dsp_ok(const ta_quant *q, const ta_dims *in_dims, const ta_dims *filter_dims);
ta_status ta_conv2d_fold_dsp_s8(const ta_conv_params *p, const ta_quant *q,
                                const ta_dims *in_dims, const int8_t *in,
                                const ta_dims *filter_dims, const int8_t *filter,
                                const int32_t *bias_fold,
                                const ta_dims *out_dims, int8_t *out, void *scratch);
ta_status ta_conv2d_fold_wide_dsp_s8(const ta_conv_params *p, const ta_quant *q,
                                     const ta_dims *in_dims, const int8_t *in,
                                     const ta_dims *filter_dims, const int16_t *filter,
                                     const int32_t *bias_fold, const ta_dims *out_dims,
                                     int8_t *out, void *scratch);
size_t ta_conv2d_fold_lean_dsp_s8_scratch_size(const ta_conv_params *p, const ta_dims *in_dims,
                                               const ta_dims *filter_dims,
                                               const ta_dims *out_dims);
ta_status ta_conv2d_fold_lean_dsp_s8(const ta_conv_params *p, const ta_quant *q,
                                     const ta_dims *in_dims, const int8_t *in,
                                     const ta_dims *filter_dims, const int8_t *filter,
                                     const int32_t *bias_fold, const ta_dims *out_dims,
                                     int8_t *out, void *scratch);
ta_status ta_conv2d_fold_portable_s8(const ta_conv_params *p, const ta_quant *q,
                                     const ta_dims *in_dims, const int8_t *in,
                                     const ta_dims *filter_dims, const int8_t *filter,
                                     const int32_t *bias_fold,
                                     const ta_dims *out_dims, int8_t *out, void *scratch);
ta_status ta_conv2d_fold_ort_s8(const ta_conv_params *p, const ta_quant *q,
                                const ta_dims *in_dims, const int8_t *in,
                                const ta_dims *filter_dims, const int8_t *filter,
                                const int32_t *bias_fold,
                                const ta_dims *out_dims, int8_t *out, void *scratch);

/*
 * ta_conv2d_fold_add_dsp_s8, ta_conv2d_fold_add_portable_s8 - a residual
 * ADD in the convolution's epilogue: out = ADD(conv, residual), with conv
 * the int8 output ta_conv2d_fold_dsp_s8 / _portable_s8 would write (with
 * the same filter and bias arguments: packed and records for the DSP
 * entry; its own quantization, activation and clamp) and the ADD exactly as
 * ta_add_s8 computes it without broadcast, `add` being the ADD's
 * parameters with the convolution's output as input 1, with both tables
 * and double rounding with a right shift (TA_ERR_ARG otherwise).
 * Each output element is written after its residual element is read, and
 * after its pixel's window is read, so out may be residual itself (or
 * overlap in as the plain kernel's output may).  TFLite's roundings only
 * (TA_ERR_ARG for TA_ROUND_ORT).  scratch:
 * ta_conv2d_fold_add_s8_scratch_size() bytes (the convolution's rounded
 * up to 4, plus four output pixels), 4-byte aligned.
 * ta_conv2d_fold_add_lean_dsp_s8 is the same with ta_conv2d_fold_lean_dsp_s8's
 * blocks, in ta_conv2d_fold_add_lean_dsp_s8_scratch_size() bytes (the
 * lean convolution's rounded up to 4, plus two output pixels).
 */
size_t ta_conv2d_fold_add_s8_scratch_size(const ta_conv_params *p, const ta_dims *in_dims,
                                          const ta_dims *filter_dims, const ta_dims *out_dims);
ta_status ta_conv2d_fold_add_dsp_s8(const ta_conv_params *p, const ta_quant *q,
                                    const ta_dims *in_dims, const int8_t *in,
                                    const ta_dims *filter_dims, const int8_t *filter,
                                    const int32_t *bias_fold, const ta_dims *out_dims,
                                    int8_t *out, void *scratch, const ta_add_params *add,
                                    const int8_t *residual);
ta_status ta_conv2d_fold_add_portable_s8(const ta_conv_params *p, const ta_quant *q,
                                         const ta_dims *in_dims, const int8_t *in,
                                         const ta_dims *filter_dims, const int8_t *filter,
                                         const int32_t *bias_fold, const ta_dims *out_dims,
                                         int8_t *out, void *scratch, const ta_add_params *add,
                                         const int8_t *residual);
size_t ta_conv2d_fold_add_lean_dsp_s8_scratch_size(const ta_conv_params *p,
                                                   const ta_dims *in_dims,
                                                   const ta_dims *filter_dims,
                                                   const ta_dims *out_dims);
ta_status ta_conv2d_fold_add_lean_dsp_s8(const ta_conv_params *p, const ta_quant *q,
                                         const ta_dims *in_dims, const int8_t *in,
                                         const ta_dims *filter_dims, const int8_t *filter,
                                         const int32_t *bias_fold, const ta_dims *out_dims,
                                         int8_t *out, void *scratch, const ta_add_params *add,
                                         const int8_t *residual);

/*
 * ta_conv2d_ort_f32_s8 - an int8 convolution (grouped and depthwise
 * ones too) as ONNX Runtime computes a QDQ Conv group it leaves in
 * float32: the input dequantized, MLAS's float sums in MLAS's order, the
 * bias, the float activation [p->act_min_f32, p->act_max_f32], then
 * QuantizeLinear (runtime/conv/ta_conv2d_ort_f32_s8.c says how).
 * filter: float32 [out_c][cg][kh][kw], filter_dims {out_c, kh, kw, cg};
 * bias: float32 [out_c].  p's input_offset, output_offset, strides,
 * padding and dilation are used, its integer activation range is not.
 * No scratch.
 */
ta_status ta_conv2d_ort_f32_s8(const ta_conv_params *p, const ta_conv_ort_params *f,
                               const ta_dims *in_dims, const int8_t *in,
                               const ta_dims *filter_dims, const float *filter,
                               const float *bias, const ta_dims *out_dims, int8_t *out);

/*
 * ta_conv2d_fold_w4_s8 - ta_conv2d_fold_s8 with an int4 filter kept
 * packed in flash (two per byte, element 2i in the low nibble of byte i):
 * each call unpacks it into the front of scratch (ta_cast_s4_s8: the
 * nibbles sign-extended, as
 * TFLite Micro unpacks int4 filters into a scratch buffer before its int8
 * kernel) and runs ta_conv2d_fold_s8 on the rest.  scratch:
 * ta_conv2d_fold_w4_s8_scratch_size() bytes = the filter's elements
 * rounded up to 4, plus ta_conv2d_fold_s8_scratch_size().
 */
size_t ta_conv2d_fold_w4_s8_scratch_size(const ta_conv_params *p, const ta_dims *in_dims,
                                         const ta_dims *filter_dims,
                                         const ta_dims *out_dims);
ta_status ta_conv2d_fold_w4_s8(const ta_conv_params *p, const ta_quant *q,
                               const ta_dims *in_dims, const int8_t *in,
                               const ta_dims *filter_dims, const uint8_t *filter,
                               const int32_t *bias_fold,
                               const ta_dims *out_dims, int8_t *out, void *scratch);

/*
 * ta_conv2d_f32 - float CONV_2D (reference_ops::Conv):
 *   out = clamp(sum_{ky,kx,ic} in*filter (in that order) + bias[oc],
 *               act_min_f32, act_max_f32)
 * bias may be NULL.  No scratch.
 */
ta_status ta_conv2d_f32(const ta_conv_params *p,
                        const ta_dims *in_dims, const float *in,
                        const ta_dims *filter_dims, const float *filter,
                        const float *bias,
                        const ta_dims *out_dims, float *out);

/* ====================================================== DEPTHWISE_CONV_2D */

/*
 * ta_depthwise_conv2d_s8 - int8 DEPTHWISE_CONV_2D, any depth multiplier
 * (reference_integer_ops::DepthwiseConvPerChannel):
 *
 *   oc = ic * depth_multiplier + m
 *   acc = bias[oc] + sum_{ky,kx inside} filter[0][ky][kx][oc] * (in[n][iy][ix][ic] + input_offset)
 *   out = clamp(requant(acc, q, oc) + output_offset, act_min, act_max)
 *
 * filter_dims {n = 1, h, w, c = out channels = in c * depth_multiplier}.
 * bias may be NULL.  scratch: ta_depthwise_conv2d_s8_scratch_size().
 */
size_t ta_depthwise_conv2d_s8_scratch_size(const ta_conv_params *p, const ta_dims *in_dims,
                                           const ta_dims *filter_dims, const ta_dims *out_dims);
ta_status ta_depthwise_conv2d_s8(const ta_conv_params *p, const ta_quant *q,
                                 const ta_dims *in_dims, const int8_t *in,
                                 const ta_dims *filter_dims, const int8_t *filter,
                                 const int32_t *bias,
                                 const ta_dims *out_dims, int8_t *out, void *scratch);

/*
 * ta_depthwise_conv2d_fold_s8 - the same with a folded bias (required,
 * fold_bias_depthwise_s8()):
 *   bias_fold[oc] = bias[oc] + input_offset * sum_{ky,kx} filter[0][ky][kx][oc]
 * scratch: ta_depthwise_conv2d_fold_s8_scratch_size() bytes (0 today).
 * The Arm DSP path (depth multiplier 1, channels a multiple of 4) needs
 * q->mmla = ta_quant_mmla_ok(q, out c, bias_fold, kh * kw), else the
 * portable path runs; its 3 x 3 form also TA_MMLA_DOUBLED in q->mmla
 * and the scratch of ta_depthwise_conv2d_fold_s8_scratch_size() (0 for
 * the ops that cannot take that form), else the form for any filter.
 */
size_t ta_depthwise_conv2d_fold_s8_scratch_size(const ta_conv_params *p,
                                                const ta_dims *in_dims,
                                                const ta_dims *filter_dims,
                                                const ta_dims *out_dims);
ta_status ta_depthwise_conv2d_fold_s8(const ta_conv_params *p, const ta_quant *q,
                                      const ta_dims *in_dims, const int8_t *in,
                                      const ta_dims *filter_dims, const int8_t *filter,
                                      const int32_t *bias_fold,
                                      const ta_dims *out_dims, int8_t *out, void *scratch);
/* ta_depthwise_conv2d_fold_rev_s8 - the same bytes, output pixels walked
 * from the last to the first (an output placed above its input). */
ta_status ta_depthwise_conv2d_fold_rev_s8(const ta_conv_params *p, const ta_quant *q,
                                          const ta_dims *in_dims, const int8_t *in,
                                          const ta_dims *filter_dims, const int8_t *filter,
                                          const int32_t *bias_fold,
                                          const ta_dims *out_dims, int8_t *out,
                                          void *scratch);
/*
 * The same through one path each, as ta_conv2d_fold_dsp_s8 and its
 * kin above, each forwards and backwards (_rev_):
 *  - _dsp_ for an op ta_depthwise_conv2d_fold_dsp_ok() accepts (depth
 *    multiplier 1, channels a multiple of 4, at most 64 taps, double
 *    rounding, q->mmla set): any filter size (the rows with border
 *    pixels copied, padded, to the stack first where
 *    ta_depthwise_conv2d_fold_ring_ok(): those rows fit 512 bytes);
 *  - _3x3_dsp_ for one ta_depthwise_conv2d_fold_3x3_ok() also accepts
 *    (3 x 3, no dilation, stride_w 1 or 2, TA_MMLA_DOUBLED in q->mmla):
 *    each group of four channels widened into channel planes, with a
 *    4-byte aligned scratch of
 *    ta_depthwise_conv2d_fold_3x3_dsp_s8_scratch_size() bytes;
 *  - _portable_ for TFLite's roundings, _ort_ for TA_ROUND_ORT.
 */
int ta_depthwise_conv2d_fold_dsp_ok(const ta_conv_params *p, const ta_quant *q,
                                    const ta_dims *in_dims, const ta_dims *filter_dims);
int ta_depthwise_conv2d_fold_ring_ok(const ta_conv_params *p, const ta_dims *in_dims,
                                     const ta_dims *filter_dims, const ta_dims *out_dims);
int ta_depthwise_conv2d_fold_3x3_ok(const ta_conv_params *p, const ta_quant *q,
                                    const ta_dims *in_dims, const ta_dims *filter_dims);
size_t ta_depthwise_conv2d_fold_3x3_dsp_s8_scratch_size(const ta_conv_params *p,
                                                        const ta_dims *in_dims,
                                                        const ta_dims *filter_dims,
                                                        const ta_dims *out_dims);
ta_status ta_depthwise_conv2d_fold_dsp_s8(const ta_conv_params *p, const ta_quant *q,
                                          const ta_dims *in_dims, const int8_t *in,
                                          const ta_dims *filter_dims, const int8_t *filter,
                                          const int32_t *bias_fold, const ta_dims *out_dims,
                                          int8_t *out, void *scratch);
ta_status ta_depthwise_conv2d_fold_rev_dsp_s8(const ta_conv_params *p, const ta_quant *q,
                                              const ta_dims *in_dims, const int8_t *in,
                                              const ta_dims *filter_dims, const int8_t *filter,
                                              const int32_t *bias_fold, const ta_dims *out_dims,
                                              int8_t *out, void *scratch);
ta_status ta_depthwise_conv2d_fold_3x3_dsp_s8(const ta_conv_params *p, const ta_quant *q,
                                              const ta_dims *in_dims, const int8_t *in,
                                              const ta_dims *filter_dims, const int8_t *filter,
                                              const int32_t *bias_fold, const ta_dims *out_dims,
                                              int8_t *out, void *scratch);
ta_status ta_depthwise_conv2d_fold_rev_3x3_dsp_s8(const ta_conv_params *p, const ta_quant *q,
                                                  const ta_dims *in_dims, const int8_t *in,
                                                  const ta_dims *filter_dims, const int8_t *filter,
                                                  const int32_t *bias_fold, const ta_dims *out_dims,
                                                  int8_t *out, void *scratch);
ta_status ta_depthwise_conv2d_fold_portable_s8(const ta_conv_params *p, const ta_quant *q,
                                               const ta_dims *in_dims, const int8_t *in,
                                               const ta_dims *filter_dims, const int8_t *filter,
                                               const int32_t *bias_fold, const ta_dims *out_dims,
                                               int8_t *out, void *scratch);
ta_status ta_depthwise_conv2d_fold_rev_portable_s8(
    const ta_conv_params *p, const ta_quant *q, const ta_dims *in_dims, const int8_t *in,
    const ta_dims *filter_dims, const int8_t *filter, const int32_t *bias_fold,
    const ta_dims *out_dims, int8_t *out, void *scratch);
ta_status ta_depthwise_conv2d_fold_ort_s8(const ta_conv_params *p, const ta_quant *q,
                                          const ta_dims *in_dims, const int8_t *in,
                                          const ta_dims *filter_dims, const int8_t *filter,
                                          const int32_t *bias_fold, const ta_dims *out_dims,
                                          int8_t *out, void *scratch);
ta_status ta_depthwise_conv2d_fold_rev_ort_s8(const ta_conv_params *p, const ta_quant *q,
                                              const ta_dims *in_dims, const int8_t *in,
                                              const ta_dims *filter_dims, const int8_t *filter,
                                              const int32_t *bias_fold, const ta_dims *out_dims,
                                              int8_t *out, void *scratch);

/* ta_depthwise_conv2d_f32 - float (reference_ops::DepthwiseConv): sum over
 * ky, kx in that order, then + bias, then clamp.  bias may be NULL. */
ta_status ta_depthwise_conv2d_f32(const ta_conv_params *p,
                                  const ta_dims *in_dims, const float *in,
                                  const ta_dims *filter_dims, const float *filter,
                                  const float *bias,
                                  const ta_dims *out_dims, float *out);

/* ======================================================== FULLY_CONNECTED */

/*
 * ta_fully_connected_s8 - int8 FULLY_CONNECTED
 * (reference_integer_ops::FullyConnected / FullyConnectedPerChannel):
 *
 *   acc = bias[o] + sum_i (filter[o][i] + filter_offset) * (in[b][i] + input_offset)
 *   out[b][o] = clamp(requant(acc, q, o) + output_offset, act_min, act_max)
 *
 * Shapes in p (batches, in_depth, out_depth).  bias may be NULL.
 */
ta_status ta_fully_connected_s8(const ta_fc_params *p, const ta_quant *q,
                                const int8_t *in, const int8_t *filter,
                                const int32_t *bias, int8_t *out);

/*
 * ta_fully_connected_fold_s8 - the same with the input zero point folded
 * into the bias (required; fold_bias_s8() with per_out = in_depth):
 *   bias_fold[o] = bias[o] + input_offset * sum_i filter[o][i]
 * Needs filter_offset == 0 (TA_ERR_ARG otherwise).
 */
ta_status ta_fully_connected_fold_s8(const ta_fc_params *p, const ta_quant *q,
                                     const int8_t *in, const int8_t *filter,
                                     const int32_t *bias_fold, int8_t *out);
/* The same through one path each, as ta_conv2d_fold_dsp_s8 and its kin:
 * _dsp_ for an op ta_fully_connected_fold_dsp_ok() accepts (double
 * rounding, every right shift 1..31, multipliers >= 0: ta_quant_rs_ok()),
 * _portable_ for TFLite's roundings, _ort_ for TA_ROUND_ORT. */
int ta_fully_connected_fold_dsp_ok(const ta_fc_params *p, const ta_quant *q);
ta_status ta_fully_connected_fold_dsp_s8(const ta_fc_params *p, const ta_quant *q,
                                         const int8_t *in, const int8_t *filter,
                                         const int32_t *bias_fold, int8_t *out);
/* _wide_dsp_: the DSP path over that packed filter widened to int16 by
 * ta_pack_wide_s8() (twice the bytes, 13 instructions for 16
 * multiply-adds instead of 20; --optimize speed); out_depth a multiple
 * of 4. */
ta_status ta_fully_connected_fold_wide_dsp_s8(const ta_fc_params *p, const ta_quant *q,
                                              const int8_t *in, const int16_t *filter,
                                              const int32_t *bias_fold, int8_t *out);
ta_status ta_fully_connected_fold_portable_s8(const ta_fc_params *p, const ta_quant *q,
                                              const int8_t *in, const int8_t *filter,
                                              const int32_t *bias_fold, int8_t *out);
ta_status ta_fully_connected_fold_ort_s8(const ta_fc_params *p, const ta_quant *q,
                                         const int8_t *in, const int8_t *filter,
                                         const int32_t *bias_fold, int8_t *out);

/*
 * ta_fully_connected_fold_w4_s8 - ta_fully_connected_fold_s8 with an int4
 * filter kept packed in flash (as ta_conv2d_fold_w4_s8): each call
 * unpacks it into scratch, ta_fully_connected_fold_w4_s8_scratch_size()
 * = in_depth * out_depth bytes, and runs the int8 kernel on it.
 */
size_t ta_fully_connected_fold_w4_s8_scratch_size(const ta_fc_params *p);
ta_status ta_fully_connected_fold_w4_s8(const ta_fc_params *p, const ta_quant *q,
                                        const int8_t *in, const uint8_t *filter,
                                        const int32_t *bias_fold, int8_t *out,
                                        void *scratch);

/* ta_fully_connected_f32 - float (reference_ops::FullyConnected):
 * out = clamp(sum_i in*filter (i ascending) + bias[o]).  bias may be NULL. */
ta_status ta_fully_connected_f32(const ta_fc_params *p,
                                 const float *in, const float *filter,
                                 const float *bias, float *out);

/* ================================================================= POOLS */

/*
 * ta_avg_pool2d_s8 - int8 AVERAGE_POOL_2D (reference_integer_ops::AveragePool):
 * the window clamped to the input; acc = sum, count = taps inside;
 * out = clamp(acc > 0 ? (acc + count/2) / count : (acc - count/2) / count).
 * Returns TA_ERR_ARG if a window has no tap inside the input.
 */
ta_status ta_avg_pool2d_s8(const ta_pool_params *p,
                           const ta_dims *in_dims, const int8_t *in,
                           const ta_dims *out_dims, int8_t *out);
/* ta_max_pool2d_s8 - int8 MAX_POOL_2D: max over the clamped window, then
 * clamp(act_min, act_max). */
ta_status ta_max_pool2d_s8(const ta_pool_params *p,
                           const ta_dims *in_dims, const int8_t *in,
                           const ta_dims *out_dims, int8_t *out);
/* Float pools (reference_ops::AveragePool / MaxPool): average = sum /
 * (float)count, summed in window order; then clamp(act_*_f32). */
ta_status ta_avg_pool2d_f32(const ta_pool_params *p,
                            const ta_dims *in_dims, const float *in,
                            const ta_dims *out_dims, float *out);
ta_status ta_max_pool2d_f32(const ta_pool_params *p,
                            const ta_dims *in_dims, const float *in,
                            const ta_dims *out_dims, float *out);

/* =================================================================== ADD */

/*
 * ta_add_s8 - int8 ADD with broadcasting (reference_integer_ops::Add /
 * BroadcastAdd6DSlow, AddFunc), per element:
 *   a = (x1 + input1_offset) << left_shift, b likewise
 *   a = MBQMSmallerThanOneExp(a, input1_multiplier, input1_shift), b likewise
 *   out = clamp(MBQMSmallerThanOneExp(a + b, output_multiplier, output_shift)
 *               + output_offset, act_min, act_max)
 * shape: make_broadcast() of the two input shapes.  Never in place unless
 * the output and that input have the same walk (element-wise).
 */
ta_status ta_add_s8(const ta_add_params *p, const ta_bcast *shape,
                    const int8_t *in1, const int8_t *in2, int8_t *out);
/* The usual case without tables only (double rounding, right shifts,
 * offsets of int8 zero points, left_shift <= 21: ta_add_double_ok()),
 * in 32-bit instructions; TA_ERR_ARG otherwise.  The compiler calls it
 * for such an ADD too small for the tables. */
int ta_add_double_ok(const ta_add_params *p);
ta_status ta_add_double_s8(const ta_add_params *p, const ta_bcast *shape, const int8_t *in1,
                           const int8_t *in2, int8_t *out);
/* The usual case with the input tables (both set, double rounding,
 * right shifts, ta_add_double_ok()'s bounds, and the output offset
 * folding into the rounding constant: ta_add_table_ok()), in 32-bit
 * instructions; TA_ERR_ARG otherwise.  The compiler calls it for every
 * ADD with tables that takes it. */
int ta_add_table_ok(const ta_add_params *p);
ta_status ta_add_table_s8(const ta_add_params *p, const ta_bcast *shape, const int8_t *in1,
                          const int8_t *in2, int8_t *out);
/* ta_add_ort_s8, ta_add_ort_u8 - ADD with broadcasting as ONNX Runtime's
 * QLinearAdd (--rounding onnxruntime), per row of the walk
 *   out = clamp(round_half_even(fmaf(x1, ratio1, fmaf(x2, ratio2, fixed))),
 *               act_min, act_max)
 * except along a row where input 1 is a single value: fmaf(x2, ratio2,
 * fmaf(x1, ratio1, fixed21)), ONNX Runtime's order there. */
ta_status ta_add_ort_s8(const ta_add_ort_params *p, const ta_bcast *shape, const int8_t *in1,
                        const int8_t *in2, int8_t *out);
ta_status ta_add_ort_u8(const ta_add_ort_params *p, const ta_bcast *shape, const uint8_t *in1,
                        const uint8_t *in2, uint8_t *out);
/* ta_binary_ort_f32_s8 - ADD or MUL (p->mul) with broadcasting as ONNX
 * Runtime computes a QDQ Add or Mul group it leaves in float32: both
 * inputs dequantized, the float op, the float activation, QuantizeLinear
 * (runtime/elementwise/ta_binary_ort_f32_s8.c). */
ta_status ta_binary_ort_f32_s8(const ta_binary_ort_params *p, const ta_bcast *shape,
                               const int8_t *in1, const int8_t *in2, int8_t *out);

/* ta_mul_ort_s8, ta_mul_ort_u8 - MUL with broadcasting as ONNX Runtime's
 * QLinearMul (--rounding onnxruntime):
 *   out = clamp(round_half_even((float)((x1 - zp1) * (x2 - zp2)) * ratio
 *                               + output_zero_point), act_min, act_max). */
ta_status ta_mul_ort_s8(const ta_mul_ort_params *p, const ta_bcast *shape, const int8_t *in1,
                        const int8_t *in2, int8_t *out);
ta_status ta_mul_ort_u8(const ta_mul_ort_params *p, const ta_bcast *shape, const uint8_t *in1,
                        const uint8_t *in2, uint8_t *out);
/* ta_add_f32 - out = clamp(in1 + in2, act_min_f32, act_max_f32). */
ta_status ta_add_f32(const ta_add_params *p, const ta_bcast *shape,
                     const float *in1, const float *in2, float *out);

/* =============================================================== SOFTMAX */

/*
 * ta_softmax_s8 - int8 in, int8 out (output scale 1/256, zero point -128)
 * (reference_ops::Softmax<int8_t, int8_t>: gemmlowp fixed point,
 * exp_on_negative_values, GetReciprocal).  Rows of p->depth elements,
 * p->outer rows.  Parameters from softmax_params().
 */
ta_status ta_softmax_s8(const ta_softmax_params *p, const int8_t *in, int8_t *out);
/* ta_softmax_s8_s16 - int8 in, int16 out: TFLM requires output zero point
 * -32768 and scale 1/65536 (within 0.1%, TF_LITE_ENSURE_NEAR). */
ta_status ta_softmax_s8_s16(const ta_softmax_params *p, const int8_t *in, int16_t *out);
/* ta_softmax_f32 - reference_ops::Softmax float: e = expf((x - max) * beta),
 * sum in order, out = e / sum. */
ta_status ta_softmax_f32(const ta_softmax_params *p, const float *in, float *out);

/* ============================================= QUANTIZE and DEQUANTIZE */

/* float32 -> int: q = clamp(round_half_away(x / scale) + zero_point) in
 * the output type's range (reference_ops::AffineQuantize), the division in
 * float as TFLite Micro does (and TFLite for int8 and uint8). */
ta_status ta_quantize_f32_s8(const ta_affine_params *p, const float *in, int8_t *out);
ta_status ta_quantize_f32_u8(const ta_affine_params *p, const float *in, uint8_t *out);
ta_status ta_quantize_f32_s16(const ta_affine_params *p, const float *in, int16_t *out);
/* The same with the division in double: TFLite's (not Micro's) int16
 * QUANTIZE. */
ta_status ta_quantize_double_f32_s16(const ta_affine_params *p, const float *in,
                                     int16_t *out);

/* int -> int (reference_ops::Requantize); parameters from requant_params().
 * TFLite (not Micro) requantizes int16 -> int8 with double rounding. */
ta_status ta_requantize_s8_s8(const ta_requant_params *p, const int8_t *in, int8_t *out);
ta_status ta_requantize_s8_s16(const ta_requant_params *p, const int8_t *in, int16_t *out);
ta_status ta_requantize_s8_u8(const ta_requant_params *p, const int8_t *in, uint8_t *out);
ta_status ta_requantize_u8_s8(const ta_requant_params *p, const uint8_t *in, int8_t *out);
ta_status ta_requantize_s16_s8(const ta_requant_params *p, const int16_t *in, int8_t *out);
ta_status ta_requantize_s16_s16(const ta_requant_params *p, const int16_t *in, int16_t *out);

/* int -> float32: x = scale * (q - zero_point) (reference_ops::Dequantize;
 * the product is exact in double, so the float result is the same). */
ta_status ta_dequantize_s8_f32(const ta_affine_params *p, const int8_t *in, float *out);
ta_status ta_dequantize_u8_f32(const ta_affine_params *p, const uint8_t *in, float *out);
ta_status ta_dequantize_s16_f32(const ta_affine_params *p, const int16_t *in, float *out);

/* Stateful, signal and user-supplied kernels. */
#include "ta_kernels_rnn.h"

/* ================================================ more ops (ta_kernels_ops.h) */

#include "ta_kernels_ops.h"

/* ==================================== data movement, reductions (ta_kernels_data.h) */

#include "ta_kernels_data.h"

/* ======================================= 16x8 quantization (ta_kernels_s16.h) */

#include "ta_kernels_s16.h"

/* ========================= element-wise math, comparisons, logic (ta_kernels_math.h) */

#include "ta_kernels_math.h"

/* ======================= SSD detection post-processing (ta_kernels_detection.h) */

#include "ta_kernels_detection.h"

#endif
