/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lower.h - what the lowering files share: the state of one op's
 * lowering (Lower), the helpers that build its Lowered record, and the
 * lowering functions the table in lower.c points at.
 *
 * lower.c holds the table (lowerings[]: one function per op kind) and
 * lower(); lower_common.c the helpers below (it calls no lowering);
 * lower_nn.c the core ops (convolutions, fully connected, pools, ADD,
 * SOFTMAX, QUANTIZE); lower_ops.c the element-wise, reduction and shape ops;
 * lower_legacy.c the uint8 (legacy asymmetric) and hybrid variants of
 * CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, pools, ADD and SOFTMAX,
 * which lower_nn.c's functions hand over to; lower_rnn.c the stateful ops
 * (LSTM, SVDF); lower_s16.c the ops of the 16x8 scheme (int16
 * activations) that need int16 kernels; lower_signal.c the custom ops
 * (the signal library, user-supplied kernels); lower_detection.c the
 * custom op TFLite_Detection_PostProcess; lower_circular_buffer.c TFLM's
 * custom op CIRCULAR_BUFFER; lower_control.c the structure ops of IF and
 * WHILE.  The host arithmetic that only
 * these lowerings need (lookup tables, resize maps) is in quant_ops.c,
 * declared here so that tests can call it.
 *
 * Every helper that checks the model reports bad input with error_at()
 * naming the op; none returns on error.
 */
#ifndef LOWER_H
#define LOWER_H

#include "tinyaot.h"
#include "ta_kernels.h"

typedef struct Lower {
  Graph *g;
  Op *op;
  const LowerOptions *o;
  /* The requantization rounding of this op's kernel: op_rounding(). */
  int rounding;
  Lowered *l;
  int argcap, constcap;
} Lower;

typedef void LowerFn(Lower *L);

/* --rounding single: reproduce TensorFlow Lite's builtin kernels where
 * they compute something other than TensorFlow Lite Micro's reference
 * kernels (the default).  lower.c's op_rounding() explains the name. */
static inline bool tflite_arithmetic(const Lower *L) {
  return L->o->rounding == TA_ROUND_SINGLE;
}

/* ---------------------------------------------- the record (lower_common.c) */

void add_arg(Lower *L, ArgKind kind, int index, int64_t value);
void arg_tensor(Lower *L, int t);
void arg_scratch(Lower *L);
void arg_optional(Lower *L, const Tensor *t); /* the tensor, or NULL when t is */
/* DEPTHWISE_CONV_2D: out_c / in_c (the shapes already fit), after checking
 * that the op's depth_multiplier option says the same (error_at if not). */
int32_t depth_multiplier_of(Lower *L, int32_t in_c, int32_t out_c);
int add_const(Lower *L, ConstObj c);
/* A parameter struct with initializer text `init`, passed as &obj when
 * `pass`. */
void const_struct(Lower *L, const char *name, const char *ctype, const char *init,
                  bool pass);
/* An array of any element type (copied), passed when `pass`; its symbol
 * is "@name" in initializers. */
void const_array(Lower *L, const char *name, DType dt, const void *data, size_t count,
                 bool pass);
/* An int32 array (copied), passed when `pass`. */
void const_i32(Lower *L, const char *name, const int32_t *v, size_t n, bool pass);
/* The kernel may run with output 0 at input k's address (Lowered.inplace
 * says exactly when; lower.c explains).  Call it from a lowering whose
 * kernel is a forward element-wise loop over input k; it does nothing
 * unless input k has output 0's byte size. */
void may_run_in_place(Lower *L, int k);
/* Declares that output 0 may overlap input 0 (Lowered.overlap) for a
 * kernel writing NHWC output pixels in order, in blocks of 1 (and of 4
 * when nblocks is 2), each block after reading its pixels' windows (kh x
 * kw taps, p's strides, dilations and top/left padding over input di);
 * by_channel: each output channel reads only its own input channel and
 * the kernel may run channel groups one after another (depthwise).
 * elem: bytes per element.  lower_nn.c says which kernels qualify. */
void overlap_windows(Lower *L, const ta_conv_params *p, ta_dims di, int32_t kh, int32_t kw,
                     ta_dims dout, int nblocks, bool by_channel, int32_t elem);
/* The same for a kernel that reads its input rows once each, in order,
 * into a ring of kh rows, channel group by channel group, and writes
 * each output row once its window rows are in (OverlapDecl.rows_once):
 * the 3 x 3 depthwise path, whose output may then lie over its input
 * (at most about a row above it forwards). */
void overlap_rows(Lower *L, const ta_conv_params *p, ta_dims di, int32_t kh, ta_dims dout);
/* The same for a kernel that writes each output pixel's channels while
 * still reading that pixel's window (blocks of 1, own_reads). */
void overlap_windows_own(Lower *L, const ta_conv_params *p, ta_dims di, int32_t kh,
                         int32_t kw, ta_dims dout, int32_t elem);
/* For a kernel that reads each whole input image (N of di) before it
 * writes any output of that image, and reads only later images after:
 * 1x1 windows, blocks of one image (dout.h * dout.w pixels). */
void overlap_images(Lower *L, ta_dims di, ta_dims dout, int32_t elem);
/* For a kernel over npix pixels, input pixel j of in_elems elements of
 * ielem bytes and output pixel j of out_elems of oelem bytes, writing
 * output pixel j after reading input pixel j and before reading pixel
 * j + 1 (ARG_MAX over the last axis, an FFT frame by frame): 1x1
 * windows, blocks of 1, over that flat view of both tensors. */
void overlap_pixels(Lower *L, int64_t npix, int32_t in_elems, int32_t ielem,
                    int32_t out_elems, int32_t oelem);

/* ------------------------------------------------- checks (lower_common.c) */

Tensor *input(Lower *L, int k);          /* error when missing */
Tensor *optional_input(Lower *L, int k); /* NULL when left out */
Tensor *output(Lower *L, int k);
void need_arity(Lower *L, int nin, int nout);
const char *dtypes_str(Lower *L);
TA_NORETURN void unsupported_types(Lower *L);
void need_const(Lower *L, const Tensor *t, const char *role);
float scale_of(Lower *L, const Tensor *t); /* error when not quantized or 0 */
int32_t zp_of(const Tensor *t);
ta_dims dims4(Lower *L, const Tensor *t); /* rank <= 4, leading 1s */
int32_t elems32(const Tensor *t);
const char *short_type(DType dt); /* "s8", "u8", "s16", "f32" or NULL */
/* ONNX's binary ops on unsigned wide integers (uint16/32/64) and MAXIMUM /
 * MINIMUM of float16/float64: when input 0 has such a dtype, checks
 * both inputs share it, picks "ta_<op>_<u16|u32|u64|f16|f64>" (no
 * parameters: the walk, the inputs, the output) and returns true;
 * otherwise false, nothing done. */
bool lower_wide_binary(Lower *L, const char *op);

/* ------------------------------------------- initializers (lower_common.c) */

const char *flit(float f);   /* a float literal that reads back exactly */
extern bool lower_float_inf; /* flit's +-FLT_MAX is +-INFINITY (Graph.float_inf) */
const char *ilit(int64_t v);
const char *dims_init(ta_dims d);
const char *conv_init(const ta_conv_params *p);
const char *fc_init(const ta_fc_params *p);
const char *pool_init(const ta_pool_params *p);
/* ta_quant over the op's @mult and @shift constants; mmla is the op's
 * ta_quant_mmla_ok() (the int8 convolutions) or 0. */
const char *quant_init(int per_channel, int rounding, int mmla);
/* A ta_add_params initializer (ADD and SUB of every type): with the float
 * activation range when f32_range, then `extra` (more fields, ",\n..."). */
const char *add_init(const ta_add_params *p, bool f32_range, const char *extra);
/* "TA_ROUND_SINGLE" or "TA_ROUND_DOUBLE": a rounding as generated C. */
const char *rounding_str(int rounding);
const char *i32_list(const int32_t *v, int n);
const char *bcast_init(const ta_bcast *b);

/* Activation range of the output (quantized or float). */
void act_range(Lower *L, const Tensor *out, int32_t *lo, int32_t *hi, float *flo,
               float *fhi);
/* CONV_2D / DEPTHWISE_CONV_2D: stride and dilation (0 read as 1) from the
 * options, the padding and the output size *oh x *ow it gives for input
 * di and filter df (compute_padding); the other fields 0. */
ta_conv_params conv_params_of(const Options *opt, ta_dims di, ta_dims df, int32_t *oh,
                              int32_t *ow);
/* A convolution kernel's arguments after its parameters: in_dims, in,
 * filter_dims, filter, bias (NULL when bias is), out_dims, out. */
void conv_tensor_args(Lower *L, ta_dims di, const Tensor *in, ta_dims df,
                      const Tensor *filter, const Tensor *bias, ta_dims dout,
                      const Tensor *out);
/* CONV_2D / DEPTHWISE_CONV_2D: input, filter and output of rank 4, a
 * constant filter and bias (bias may be NULL). */
void need_conv_tensors(Lower *L, const Tensor *in, const Tensor *filter,
                       const Tensor *bias, const Tensor *out);
/* FULLY_CONNECTED: out_depth x in_depth from the rank-2 filter, batches
 * from the input read as rows of in_depth; an error unless the output
 * has batches x out_depth values.  The other fields 0. */
ta_fc_params fc_params_of(Lower *L, const Tensor *in, const Tensor *filter,
                          const Tensor *out);
/* The broadcast of inputs a and b; an error unless it has out's size. */
ta_bcast broadcast_of(Lower *L, const Tensor *a, const Tensor *b, const Tensor *out);
/* Whether a, b and out are all int8 or all uint8: the element-wise ops
 * ONNX Runtime's arithmetic covers. */
bool same_type_x8(const Tensor *a, const Tensor *b, const Tensor *out);
/* The arguments of such a kernel (ta_add_ort_*, ta_mul_ort_*): the
 * broadcast walk (a one-element a gets stride 0 throughout), a, b, out;
 * out[i] is written after a's and b's elements for i are read, so an
 * input of out's size may be overwritten. */
void ort_binary_args(Lower *L, const Tensor *a, const Tensor *b, const Tensor *out);
/* An int8 ADD or MUL that ONNX Runtime computes in float32 (Op.ref_float,
 * --rounding onnxruntime): ta_binary_ort_f32_s8; false when it does not
 * apply. */
bool lower_binary_ort_float(Lower *L, bool mul);

/* Walks, axes and constant operands (lower_common.c), shared by the
 * data-movement and reduction lowerings. */
/* A ta_walk initializer. */
const char *walk_init(const ta_walk *w);
/* A walk of up to MAX_DIMS dimensions (int64 element strides, offset)
 * with size-1 dimensions dropped and contiguous neighbours merged; error
 * when more than TA_MAX_WALK remain or a stride exceeds int32. */
ta_walk make_walk(Lower *L, int n, const int32_t *shape, const int64_t *stride,
                  int64_t offset);
void strides_of(const Tensor *t, int64_t *stride); /* row-major, elements */
const char *width_suffix(Lower *L, const Tensor *t); /* "x8", "x16", "x32" */
/* Element k of a constant int32 or int64 tensor (error otherwise). */
int64_t const_int(Lower *L, const Tensor *t, int64_t k, const char *role);
/* An axis in [-rank, rank) resolved to [0, rank). */
int resolve_axis(Lower *L, int64_t axis, int rank);
bool same_quant(const Tensor *a, const Tensor *b); /* per-tensor scale and zp */
bool is_quantized_type(DType dt);                  /* int8, uint8, int16 */
/* Same dtype for the first `nin` inputs (-1: all) and every output (and,
 * for quantized types, the same per-tensor quantization when `same_q`). */
void need_same_types(Lower *L, int nin, bool same_q);
/* MEAN, SUM, REDUCE_MAX, REDUCE_MIN: the outer walk (one step per output)
 * and inner walk (the reduced elements of one output) of input `in`
 * reduced over the constant axes, and their count; error unless the
 * output has as many values as the kept dimensions. */
ta_mean_params reduce_walks(Lower *L, const Tensor *in, const Tensor *axes,
                            const Tensor *out);
const char *mean_init(const ta_mean_params *p); /* its initializer */

/* ------------------------------------------------------ quant_ops.c */

/* 256-entry tables for ta_lut_x8 (entry i: the input whose byte is i),
 * computed with TFLite Micro's integer arithmetic of the op: */
/* LOGISTIC, TANH (int8): reference_integer_ops::Logistic / Tanh. */
bool logistic_table(DType dt, float in_scale, int32_t in_zp, int rounding,
                    uint8_t table[256]);
bool tanh_table(DType dt, float in_scale, int32_t in_zp, int rounding, uint8_t table[256]);
/* HARD_SWISH (int8, uint8): reference_ops::HardSwish. */
bool hard_swish_table(DType dt, float in_scale, int32_t in_zp, float out_scale,
                      int32_t out_zp, int rounding, uint8_t table[256]);
/* ONNX Runtime's lookup table (QlinearBuildLookupTable) of
 * QLinearLeakyRelu, and with alpha 1 of QLinearConcat's requantization:
 * each byte dequantized in float, x_scale * (x - x_zp); v >= 0 ? v :
 * alpha * v; then MlasQuantizeLinear: v / y_scale, clamped to the type's
 * range less the zero point, rounded half to even, plus the zero point.
 * false for an output scale that is not a positive finite float. */
bool leaky_relu_table_ort(DType dt, float in_scale, int32_t in_zp, float alpha,
                          float out_scale, int32_t out_zp, uint8_t table[256]);
/* LEAKY_RELU (int8, uint8): reference_ops::QuantizeLeakyRelu; under
 * TA_ROUND_ORT leaky_relu_table_ort(). */
bool leaky_relu_table(DType dt, float in_scale, int32_t in_zp, float alpha, float out_scale,
                      int32_t out_zp, int rounding, uint8_t table[256]);
/* RELU (act [0, inf]), RELU_N1_TO_1 ([-1, 1]), uint8 RELU6 ([0, 6]):
 * ReluQuantized, requantizing to the output scale. */
bool relu_table(DType dt, float act_min, float act_max, float in_scale, int32_t in_zp,
                float out_scale, int32_t out_zp, int rounding, uint8_t table[256]);
/* The clamp range of ReluQuantized / ReluX: [max(type min, out_zp +
 * round(act_min / out_scale)), min(type max, out_zp + round(act_max /
 * out_scale))] (act_max INFINITY: the type's max), rounded in float. */
void relu_range(DType dt, float act_min, float act_max, float out_scale, int32_t out_zp,
                int32_t *qmin, int32_t *qmax);
/* TFLM's Relu6Prepare: 6.0 quantized with the input's scale and zero
 * point, saturated to the type (dt int8 or int16). */
int32_t relu6_six(DType dt, float in_scale, int32_t in_zp);
/* int8 RELU6 as TFLM computes it: the raw input clamped to [zero point,
 * quantized 6.0], the output's quantization not read. */
bool relu6_table_tflm(DType dt, float in_scale, int32_t in_zp, uint8_t table[256]);

/* uint8 and int8 (dt) LOGISTIC (tanh false) and TANH as TFLite's builtin
 * kernel (PopulateLookupTable: the float function, rounded to the
 * output): uint8 always, int8 with --rounding single. */
bool float_function_table(DType dt, bool tanh, float in_scale, int32_t in_zp, float out_scale,
                          int32_t out_zp, uint8_t table[256]);
/* int16 LOGISTIC and TANH: the sigmoid table of reference_integer_ops
 * (256 entries, Q0.16) and the kernel's input multiplier and left shift
 * (Logistic/TanhPrepare; *pot: the scale took the power-of-two branch). */
const uint16_t *sigmoid_table_q16(void);
bool sigmoid_s16_params(float in_scale, bool tanh, int32_t *mult, int32_t *shift,
                        bool *pot);
/* int16 SOFTMAX: gen_lut's exp table on [-10, 0] and 1 / (1 + x) table on
 * [0, 1], 513 entries each, in double (in_double) or in float. */
void softmax_s16_luts(bool in_double, int16_t exp_lut[513], int16_t recip_lut[513]);
/* CheckedLog2: log2(x) rounded, in float as TFLite; false unless x is a
 * power of two within 1e-3 in the exponent. */
bool checked_log2f(float x, int *log2_result);

/* GetNearestNeighbor of RESIZE_NEAREST_NEIGHBOR (float arithmetic). */
int32_t nearest_neighbor(int32_t out_index, int32_t in_size, int32_t out_size,
                         bool align_corners, bool half_pixel_centers);
/* SUB: TFLM's CalculateOpDataSub (int8, int16: ratios in float); uint8
 * as TFLite's (add_params()). */
bool sub_params(float s1, int32_t zp1, float s2, int32_t zp2, float so, int32_t zpo,
                DType out_dt, Activation act, int rounding, ta_add_params *p);
/* MUL: s1 * s2 / so in double (TFLM), or in float and then widened
 * (TFLite's mul.cc) when float_scales or for uint8 (TFLM has none). */
bool mul_params(float s1, int32_t zp1, float s2, int32_t zp2, float so, int32_t zpo,
                DType out_dt, Activation act, bool float_scales, int rounding,
                ta_mul_params *p);
/* MEAN: QuantizeMultiplier(in / out) with 1/count folded in as
 * reference_ops::QuantizedMeanOrSum does. */
bool mean_multiplier(float in_scale, float out_scale, int64_t count, int rounding,
                     int32_t *mult, int32_t *shift);

/* ------------------------------------------------------- lower_nn.c */

LowerFn lower_conv2d, lower_depthwise_conv2d, lower_fully_connected,
    lower_average_pool2d, lower_max_pool2d, lower_l2_pool2d, lower_add, lower_softmax,
    lower_quantize, lower_dequantize, lower_copy;

/* ------------------------------------------------ lower_legacy.c */

/* Called by lower_nn.c's lowerings for the types they do not handle:
 * uint8 activations (legacy asymmetric quantization, filters with a zero
 * point) and hybrid ops (float activations, int8 filters). */
void lower_conv_legacy(Lower *L, bool depthwise);
void lower_fully_connected_legacy(Lower *L);
void lower_add_legacy(Lower *L);
/* An int8 ADD of a convolution's output that nothing else reads, run in
 * that convolution's epilogue (lower_fuse.c): true when it did, with the
 * convolution's record rewritten and this op left without a call;
 * false, nothing changed, otherwise. */
bool lower_add_fused(Lower *L, const Tensor *a, const Tensor *b, const Tensor *out);
/* Output elements from which an int8 ADD gets its input tables: they
 * save about 55 of 85 instructions per element on a Cortex-M4 and cost
 * 2 KB of flash, so from 1024 elements on at least ~27 instructions per
 * byte. */
#define ADD_TABLE_MIN 1024
void lower_softmax_legacy(Lower *L);

/* ------------------------------------------------------ lower_ops.c */

LowerFn lower_sub, lower_mul, lower_maximum, lower_minimum, lower_mean,
    lower_pad, lower_concatenation, lower_split, lower_split_v, lower_pack,
    lower_unpack, lower_strided_slice, lower_slice, lower_transpose,
    lower_resize_nearest_neighbor, lower_resize_bilinear, lower_resize_taps, lower_arg_max,
    lower_arg_min, lower_logistic, lower_tanh, lower_leaky_relu,
    lower_hard_swish, lower_relu, lower_relu6, lower_relu_n1_to_1, lower_cast,
    lower_div, lower_add_s32,
    lower_transpose_conv;

/* ------------------------------------------------------- lower_nd.c */

LowerFn lower_max_pool_nd, lower_average_pool_nd, lower_conv_transpose_nd;

/* ------------------------------------------------------ lower_data.c */

LowerFn lower_read_variable, lower_assign_variable;
LowerFn lower_sum, lower_reduce_max, lower_reduce_min, lower_gather, lower_gather_nd,
    lower_embedding_lookup, lower_depth_to_space, lower_space_to_depth, lower_tile,
    lower_broadcast_to, lower_reverse_v2, lower_shape, lower_broadcast_args, lower_fill,
    lower_batch_matmul, lower_space_to_batch_nd, lower_batch_to_space_nd,
    lower_mirror_pad, lower_l2_normalization, lower_cumsum;
/* ----------------------------------------------------- lower_math.c */

/* Element-wise math, comparisons, logic, SELECT, PRELU, LOG_SOFTMAX,
 * ADD_N; lower_div_s8 is DIV's int8 case (lower_div hands it over). */
LowerFn lower_abs, lower_neg, lower_sqrt, lower_rsqrt, lower_square, lower_exp,
    lower_log, lower_sin, lower_cos, lower_ceil, lower_floor, lower_round, lower_elu,
    lower_logical_not, lower_zeros_like, lower_equal, lower_not_equal, lower_greater,
    lower_greater_equal, lower_less, lower_less_equal, lower_floor_div, lower_floor_mod,
    lower_logical_and, lower_logical_or, lower_squared_difference, lower_div_s8,
    lower_prelu, lower_select, lower_select_v2, lower_log_softmax, lower_add_n, lower_erf,
    lower_pow;

/* ------------------------------------------------------ lower_s16.c */

/* The lowering of op when it is a 16x8-quantized op (int16 activations)
 * with a kernel of its own (CONV_2D, TRANSPOSE_CONV, ADD, SUB, LEAKY_RELU,
 * QUANTIZE int32 -> int16), else NULL.  lower() asks it before its table. */
LowerFn *lowering_s16(const Graph *g, const Op *op);

/* ------------------------------------------------------ lower_rnn.c */

/* The stateful ops: their state tensors are variables (persistent). */
LowerFn lower_lstm, lower_svdf;

/* ---------------------------------------------------- lower_signal.c */

/* CUSTOM: a --custom-op kernel, a signal library op,
 * TFLite_Detection_PostProcess, or refused. */
LowerFn lower_custom;
/* RFFT2D float32 -> complex64, COMPLEX_ABS complex64 -> float32. */
LowerFn lower_rfft2d, lower_complex_abs;
/* The plan of an int16 real FFT of fft_length points for
 * ta_signal_rfft_s16: p's fft_length and factors (KISS FFT's kf_factor of
 * fft_length / 2), the fft_length / 2 twiddles and fft_length / 4 split
 * twiddles as (re, im) int16 pairs.  false when fft_length is not a
 * power of two (at least 2). */
bool rfft_tables(int32_t fft_length, ta_rfft_params *p, int16_t *twiddles,
                 int16_t *split_twiddles);

/* ---------------------------------------------------- lower_control.c */

/* IF, ELSE, END_IF, WHILE, WHILE_COND, END_WHILE: no kernel, C control
 * flow the emitter writes ("@if" ...). */
LowerFn lower_structure;

/* -------------------------------------------------- lower_detection.c */

/* CUSTOM TFLite_Detection_PostProcess (lower_custom hands it over). */
LowerFn lower_detection_postprocess;

/* ------------------------------------------- lower_circular_buffer.c */

/* CUSTOM CIRCULAR_BUFFER (TFLM; lower_custom hands it over). */
LowerFn lower_circular_buffer;

#endif
