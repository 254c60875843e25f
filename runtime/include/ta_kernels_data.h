/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_kernels_data.h - kernels of the data-movement and reduction ops
 * that TensorFlow Lite Micro registers beyond the core set: SUM,
 * REDUCE_MAX, REDUCE_MIN, GATHER, GATHER_ND, EMBEDDING_LOOKUP and friends
 * (included by ta_kernels.h; the compiler's lowerings are in
 * compiler/passes/lower_data.c).
 *
 * Several of these ops need no kernel of their own: DEPTH_TO_SPACE,
 * SPACE_TO_DEPTH, TILE, BROADCAST_TO and REVERSE_V2 are walks over their
 * input (ta_transpose_x8/x16/x32 with the walk the compiler computes), and
 * SUM of int8/int16 is ta_mean_s8/s16 without the 1/count.
 */
#ifndef TA_KERNELS_DATA_H
#define TA_KERNELS_DATA_H

/* ================================================ SUM, REDUCE_MAX, REDUCE_MIN */

/*
 * Reductions over the walks of a ta_mean_params (outer: one step per
 * output; inner: the count inputs of one output), as TFLite Micro's
 * reference_ops::ReduceGeneric: each output starts at an initial value
 * and takes in its inputs in row-major order.
 *   ta_sum_f32          0.0f, v + x
 *   ta_reduce_max_*     the type's lowest value (-FLT_MAX for float), max
 *   ta_reduce_min_*     the type's largest value (FLT_MAX), min
 * The integer kernels compare raw values: input and output share one
 * quantization.  int8/int16 SUM is ta_mean_s8/s16 with the multiplier of
 * input_scale / output_scale (QuantizedMeanOrSum, compute_sum true).
 */
ta_status ta_sum_f32(const ta_mean_params *p, const float *in, float *out);
/*
 * SUM as TFLite's builtin kernel computes it (`--rounding single`):
 *   ta_sum_float_s8    int8, quantizations differ: (int8)((int32)roundf(
 *                      sum * scale + bias) + output_zero_point), scale =
 *                      input_scale / output_scale, bias = -input_zero_point
 *                      * scale * count, not clamped (wraps)
 *   ta_sum_raw_s8/s16  one quantization: the raw values summed in the
 *                      type, wrapping (TFLite refuses int16 otherwise)
 */
ta_status ta_sum_float_s8(const ta_mean_params *p, const int8_t *in, int8_t *out);
ta_status ta_sum_raw_s8(const ta_mean_params *p, const int8_t *in, int8_t *out);
ta_status ta_sum_raw_s16(const ta_mean_params *p, const int16_t *in, int16_t *out);
ta_status ta_reduce_max_f32(const ta_mean_params *p, const float *in, float *out);
ta_status ta_reduce_max_s8(const ta_mean_params *p, const int8_t *in, int8_t *out);
ta_status ta_reduce_max_s16(const ta_mean_params *p, const int16_t *in, int16_t *out);
ta_status ta_reduce_min_f32(const ta_mean_params *p, const float *in, float *out);
ta_status ta_reduce_min_s8(const ta_mean_params *p, const int8_t *in, int8_t *out);
ta_status ta_reduce_min_s16(const ta_mean_params *p, const int16_t *in, int16_t *out);

/* ============================================ GATHER, GATHER_ND, EMBEDDING_LOOKUP */

/*
 * ta_gather_x8 - GATHER (TFLM gather.cc) and EMBEDDING_LOOKUP, any
 * element type, as rows of inner_bytes: input [batch][outer][axis_size]
 * rows, indices [batch][coords] (int32 or int64: index_bits), output
 * [batch][outer][coords] rows.  An index outside [0, axis_size) ->
 * TA_ERR_ARG.
 */
typedef struct {
  int32_t batch, outer, axis_size, coords;
  int32_t inner_bytes;
  int32_t index_bits; /* 32 or 64 */
} ta_gather_params;
ta_status ta_gather_x8(const ta_gather_params *p, const void *in, const void *indices,
                       void *out);

/*
 * ta_embedding_lookup_s8_f32 - EMBEDDING_LOOKUP's hybrid form (TFLM
 * embedding_lookup.cc, EvalHybrid): value is [rows][cols] int8 with zero
 * point 0; for each of the nids int32 ids,
 *   out[i][j] = (float)value[ids[i]][j] * scale
 * An id outside [0, rows) -> TA_ERR_ARG (the outputs before it stay).
 */
typedef struct {
  int32_t rows, cols, nids;
  float scale;
} ta_embedding_hybrid_params;
ta_status ta_embedding_lookup_s8_f32(const ta_embedding_hybrid_params *p, const int8_t *value,
                                     const int32_t *ids, float *out);

/*
 * ta_gather_nd_x8 - GATHER_ND (TFLM gather_nd.cc), any element type:
 * indices [nslices][depth]; slice s, of slice_bytes, starts at byte
 * sum_d indices[s][d] * stride[d] of the params tensor.  An index
 * outside [0, dims[d]) -> TA_ERR_ARG.
 */
typedef struct {
  int32_t nslices, depth, slice_bytes;
  int32_t index_bits; /* 32 or 64 */
  int32_t dims[TA_MAX_WALK];
  int32_t stride[TA_MAX_WALK]; /* bytes */
} ta_gather_nd_params;
ta_status ta_gather_nd_x8(const ta_gather_nd_params *p, const void *in,
                          const void *indices, void *out);

/* ==================================================================== FILL */

/* ta_fill_x8/x16/x32 - FILL of a run-time value (TFLM fill.cc): count
 * elements equal to value[0].  SHAPE, BROADCAST_ARGS and FILL of a
 * constant need no kernel: the compiler folds them. */
ta_status ta_fill_x8(int32_t count, const void *value, void *out);
ta_status ta_fill_x16(int32_t count, const void *value, void *out);
ta_status ta_fill_x32(int32_t count, const void *value, void *out);

/* ============================================================ BATCH_MATMUL */

/*
 * ta_batch_matmul_f32/_s8/_s16 - BATCH_MATMUL (TFLM batch_matmul.cc):
 * for every batch (batch[nbatch], outermost first; the operands' element
 * strides per batch dimension, 0 where one broadcasts), out[r][c] (rows x
 * cols, row-major) from
 *   acc = sum_k (lhs(r, k) + lhs_offset) * (rhs(k, c) + rhs_offset)
 * with lhs(r, k) at r * lhs_row + k * lhs_depth and rhs(k, c) at
 * k * rhs_depth + c * rhs_col (adj_x / adj_y change only these strides).
 * f32: out = acc (offsets 0).  s8: clamp(MBQM(acc) + output_offset) in
 * `rounding`; s16: int64 acc, the 64-bit MBQM, zero points 0.
 */
#define TA_BMM_MAX_BATCH 3
typedef struct {
  int32_t nbatch;
  int32_t batch[TA_BMM_MAX_BATCH];
  int32_t lhs_batch[TA_BMM_MAX_BATCH], rhs_batch[TA_BMM_MAX_BATCH];
  int32_t rows, cols, depth;
  int32_t lhs_row, lhs_depth, rhs_depth, rhs_col;
  int32_t lhs_offset, rhs_offset, output_offset; /* -zero points, output zp */
  int32_t multiplier, shift, rounding;
  int32_t act_min, act_max;
} ta_batch_matmul_params;
ta_status ta_batch_matmul_f32(const ta_batch_matmul_params *p, const float *lhs,
                              const float *rhs, float *out);
ta_status ta_batch_matmul_s8(const ta_batch_matmul_params *p, const int8_t *lhs,
                             const int8_t *rhs, int8_t *out);
ta_status ta_batch_matmul_s16(const ta_batch_matmul_params *p, const int16_t *lhs,
                              const int16_t *rhs, int16_t *out);

/* ===================================== SPACE_TO_BATCH_ND, BATCH_TO_SPACE_ND */

/*
 * ta_space_to_batch_x8, ta_batch_to_space_x8 - any element type, NHWC
 * (NHC: in_w = out_w = 1, block_w 1), as rows of row_bytes = channels x
 * elem_bytes.  `batch` is the smaller batch (the input's for
 * SPACE_TO_BATCH_ND, the output's for BATCH_TO_SPACE_ND); pad_top and
 * pad_left are the paddings, or the crops; pad_value fills padded
 * elements (SPACE_TO_BATCH_ND: the output zero point, 0 for float).
 */
typedef struct {
  int32_t batch, in_h, in_w, out_h, out_w;
  int32_t block_h, block_w;
  int32_t pad_top, pad_left;
  int32_t row_bytes, elem_bytes;
  uint32_t pad_value;
} ta_space_batch_params;
ta_status ta_space_to_batch_x8(const ta_space_batch_params *p, const void *in, void *out);
ta_status ta_batch_to_space_x8(const ta_space_batch_params *p, const void *in, void *out);

/* ============================================================= MIRROR_PAD */

/* ta_mirror_pad_x8 - MIRROR_PAD (TFLM mirror_pad.cc), any element type of
 * elem_bytes: out(o) = in(sum_d map[base_d + o_d] * in_stride[d]), map
 * holding, dimension after dimension, the mirrored input index of every
 * output index (REFLECT: -1 -> 1; SYMMETRIC: -1 -> 0). */
typedef struct {
  int32_t ndims;
  int32_t out_shape[TA_MAX_WALK];
  int32_t in_stride[TA_MAX_WALK]; /* elements */
  int32_t elem_bytes;
  const int32_t *map; /* sum of out_shape entries */
} ta_mirror_pad_params;
ta_status ta_mirror_pad_x8(const ta_mirror_pad_params *p, const void *in, void *out);

/* ============================================================= L2_POOL_2D */

/* ta_l2_pool2d_f32 - float L2_POOL_2D (TFLM reference_ops::L2Pool): the
 * window of AVERAGE_POOL_2D, sqrtf(sum of squares / taps), clamped. */
ta_status ta_l2_pool2d_f32(const ta_pool_params *p, const ta_dims *in_dims, const float *in,
                           const ta_dims *out_dims, float *out);

/* ======================================================= L2_NORMALIZATION */

/* ta_l2_normalization_f32/_s8 - L2_NORMALIZATION over the innermost
 * dimension, rows of depth values (TFLM l2norm.cc): f32 x / max(sqrt(sum
 * x^2), 1e-6); s8 the integer inverse square root of the sum of squares,
 * output scale 1/128 (ta_l2_normalization_s8.c shows the arithmetic). */
ta_status ta_l2_normalization_f32(int32_t outer, int32_t depth, const float *in, float *out);
ta_status ta_l2_normalization_s8(int32_t outer, int32_t depth, int32_t input_zero_point,
                                 const int8_t *in, int8_t *out);

/* ================================================================= CUMSUM */

/* ta_cumsum_f32 - float CUMSUM (TFLM reference_ops::CumSum) along the
 * middle of [outer][axis][inner]: running float sums from 0.0f, backwards
 * when reverse, each output before its own element when exclusive. */
typedef struct {
  int32_t outer, axis, inner;
  int32_t exclusive, reverse;
} ta_cumsum_params;
ta_status ta_cumsum_f32(const ta_cumsum_params *p, const float *in, float *out);

/* ta_cumsum_s8 - int8 CUMSUM (TFLM reference_ops::CumSum, quantized): each
 * input y - zp scaled as ADD scales its operands (<< 20, then times
 * input_multiplier: one half), summed in int32 from the scaled -zp (TFLM
 * starts there, not at 0), each running sum requantized to the output:
 *   out = clamp(MBQMSmallerThanOneExp(sum, output_multiplier,
 *               output_shift) + output_zero_point)
 * The int32 sums wrap as TFLM's do on a 32-bit core. */
typedef struct {
  ta_cumsum_params shape;
  int32_t input_offset; /* -input zero point */
  int32_t input_multiplier, input_shift;
  int32_t output_multiplier, output_shift, output_zero_point;
} ta_cumsum_s8_params;
ta_status ta_cumsum_s8(const ta_cumsum_s8_params *p, const int8_t *in, int8_t *out);

#endif
