/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lower.c - picks a kernel for every op and computes, on the host,
 * everything the kernel needs that does not depend on the input.
 *
 * Needs: a verified graph after mark_views() (a tensor with view_of >= 0
 * shares its base's bytes, so the op producing it needs no call).
 * Guarantees: every op has a Lowered record (Op.lowered): the kernel's
 * name and its arguments in order - tensors, the op's scratch, and
 * constant objects computed here (parameter structs with requantization
 * multipliers and shifts, activation ranges, padding, folded biases,
 * softmax parameters; per-channel arrays); Op.scratch_bytes is what the
 * kernel's own <kernel>_scratch_size() asks for (the runtime is linked
 * into the compiler: one source of truth).  An op, or a combination of
 * dtypes, no kernel handles -> error_at() naming it.
 *
 * One lowering function per op kind, found in one table (lowerings[]).
 * The arithmetic that turns scales into multipliers lives in quant.c,
 * which follows TFLite Micro's Prepare steps.  Parameter structs are
 * filled here as host structs (the scratch queries read them) and
 * printed as designated initializers, so both see the same numbers.
 */
#include "tinyaot.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "lower.h"

/* ---------------------------------------------------------- the table */

static LowerFn *const lowerings[OP_COUNT] = {
    [OP_CONV_2D] = lower_conv2d,
    [OP_DEPTHWISE_CONV_2D] = lower_depthwise_conv2d,
    [OP_FULLY_CONNECTED] = lower_fully_connected,
    [OP_AVERAGE_POOL_2D] = lower_average_pool2d,
    [OP_MAX_POOL_2D] = lower_max_pool2d,
    [OP_ADD] = lower_add,
    [OP_SOFTMAX] = lower_softmax,
    [OP_QUANTIZE] = lower_quantize,
    [OP_DEQUANTIZE] = lower_dequantize,
    [OP_RESHAPE] = lower_copy,
    [OP_SQUEEZE] = lower_copy,
    [OP_EXPAND_DIMS] = lower_copy,
    [OP_UNIDIRECTIONAL_SEQUENCE_LSTM] = lower_lstm,
    [OP_SVDF] = lower_svdf,
    [OP_CUSTOM] = lower_custom,
    /* lower_ops.c */
    [OP_SUB] = lower_sub,
    [OP_MUL] = lower_mul,
    [OP_MAXIMUM] = lower_maximum,
    [OP_MINIMUM] = lower_minimum,
    [OP_MEAN] = lower_mean,
    [OP_PAD] = lower_pad,
    [OP_PADV2] = lower_pad,
    [OP_TRANSPOSE] = lower_transpose,
    [OP_STRIDED_SLICE] = lower_strided_slice,
    [OP_SLICE] = lower_slice,
    [OP_CONCATENATION] = lower_concatenation,
    [OP_PACK] = lower_pack,
    [OP_SPLIT] = lower_split,
    [OP_SPLIT_V] = lower_split_v,
    [OP_UNPACK] = lower_unpack,
    [OP_RESIZE_NEAREST_NEIGHBOR] = lower_resize_nearest_neighbor,
    [OP_RESIZE_BILINEAR] = lower_resize_bilinear,
    [OP_RESIZE_TAPS] = lower_resize_taps,
    [OP_MAX_POOL_ND] = lower_max_pool_nd,
    [OP_AVERAGE_POOL_ND] = lower_average_pool_nd,
    [OP_CONV_TRANSPOSE_ND] = lower_conv_transpose_nd,
    [OP_ARG_MAX] = lower_arg_max,
    [OP_ARG_MIN] = lower_arg_min,
    [OP_LOGISTIC] = lower_logistic,
    [OP_TANH] = lower_tanh,
    [OP_HARD_SWISH] = lower_hard_swish,
    [OP_LEAKY_RELU] = lower_leaky_relu,
    [OP_RELU] = lower_relu,
    [OP_RELU6] = lower_relu6,
    [OP_RELU_N1_TO_1] = lower_relu_n1_to_1,
    [OP_CAST] = lower_cast,
    [OP_DIV] = lower_div,
    [OP_TRANSPOSE_CONV] = lower_transpose_conv,
    /* lower_data.c */
    [OP_SUM] = lower_sum,
    [OP_REDUCE_MAX] = lower_reduce_max,
    [OP_REDUCE_MIN] = lower_reduce_min,
    [OP_GATHER] = lower_gather,
    [OP_GATHER_ND] = lower_gather_nd,
    [OP_EMBEDDING_LOOKUP] = lower_embedding_lookup,
    [OP_DEPTH_TO_SPACE] = lower_depth_to_space,
    [OP_SPACE_TO_DEPTH] = lower_space_to_depth,
    [OP_TILE] = lower_tile,
    [OP_BROADCAST_TO] = lower_broadcast_to,
    [OP_REVERSE_V2] = lower_reverse_v2,
    [OP_SHAPE] = lower_shape,
    [OP_BROADCAST_ARGS] = lower_broadcast_args,
    [OP_FILL] = lower_fill,
    [OP_BATCH_MATMUL] = lower_batch_matmul,
    /* lower_math.c */
    [OP_ABS] = lower_abs,
    [OP_NEG] = lower_neg,
    [OP_SQRT] = lower_sqrt,
    [OP_RSQRT] = lower_rsqrt,
    [OP_SQUARE] = lower_square,
    [OP_EXP] = lower_exp,
    [OP_LOG] = lower_log,
    [OP_SIN] = lower_sin,
    [OP_COS] = lower_cos,
    [OP_CEIL] = lower_ceil,
    [OP_FLOOR] = lower_floor,
    [OP_ROUND] = lower_round,
    [OP_ELU] = lower_elu,
    [OP_LOGICAL_NOT] = lower_logical_not,
    [OP_ZEROS_LIKE] = lower_zeros_like,
    [OP_EQUAL] = lower_equal,
    [OP_NOT_EQUAL] = lower_not_equal,
    [OP_GREATER] = lower_greater,
    [OP_GREATER_EQUAL] = lower_greater_equal,
    [OP_LESS] = lower_less,
    [OP_LESS_EQUAL] = lower_less_equal,
    [OP_FLOOR_DIV] = lower_floor_div,
    [OP_FLOOR_MOD] = lower_floor_mod,
    [OP_LOGICAL_AND] = lower_logical_and,
    [OP_LOGICAL_OR] = lower_logical_or,
    [OP_SQUARED_DIFFERENCE] = lower_squared_difference,
    [OP_PRELU] = lower_prelu,
    [OP_SELECT] = lower_select,
    [OP_SELECT_V2] = lower_select_v2,
    [OP_LOG_SOFTMAX] = lower_log_softmax,
    [OP_ADD_N] = lower_add_n,
    [OP_ERF] = lower_erf,
    [OP_POW] = lower_pow,
    [OP_SPACE_TO_BATCH_ND] = lower_space_to_batch_nd,
    [OP_BATCH_TO_SPACE_ND] = lower_batch_to_space_nd,
    [OP_MIRROR_PAD] = lower_mirror_pad,
    [OP_L2_POOL_2D] = lower_l2_pool2d, /* lower_nn.c */
    [OP_L2_NORMALIZATION] = lower_l2_normalization,
    [OP_CUMSUM] = lower_cumsum,
    [OP_READ_VARIABLE] = lower_read_variable, /* lower_data.c */
    [OP_ASSIGN_VARIABLE] = lower_assign_variable,
    [OP_RFFT2D] = lower_rfft2d, /* lower_signal.c */
    [OP_COMPLEX_ABS] = lower_complex_abs,
    [OP_IF] = lower_structure, /* lower_control.c */
    [OP_ELSE] = lower_structure,
    [OP_END_IF] = lower_structure,
    [OP_WHILE] = lower_structure,
    [OP_WHILE_COND] = lower_structure,
    [OP_END_WHILE] = lower_structure,
};

/*
 * The rounding an op's kernel requantizes with.  --rounding double (the
 * default) is TensorFlow Lite Micro's arithmetic: its reference kernels
 * requantize with gemmlowp's double rounding (SaturatingRoundingDoubling-
 * HighMul, then RoundingDivideByPOT).  --rounding single is TensorFlow
 * Lite's arithmetic as its builtin kernels compute it: the int8 CONV_2D
 * and FULLY_CONNECTED go through ruy's GEMM, whose output stage rounds
 * once; every other TFLite kernel calls MultiplyByQuantizedMultiplier,
 * which rounds twice in TFLite's default build (TFLITE_SINGLE_ROUNDING
 * unset) -- the legacy uint8 kernels included.  The 16x8 lowerings
 * (lower_s16.c) also read the mode, for Prepare-time differences.
 *
 * Evidence (TFLite compiled to WebAssembly, ../shared/oracle, builtin
 * kernels).  DEPTHWISE_CONV_2D int8 outputs recomputed independently
 * match double rounding and not single.  tinyaot was then run in both
 * roundings on 20 cases of every requantizing op x dtype of
 * tools/gen_ops.c (seed 21): only single matched all of CONV_2D int8 and
 * FULLY_CONNECTED int8 (and ADD/SUB int16, whose power-of-two path is a
 * Prepare choice); only double matched all of CONV_2D uint8,
 * DEPTHWISE_CONV_2D int8/uint8, TRANSPOSE_CONV int8, MUL int8/uint8,
 * LEAKY_RELU int8/uint8, RESIZE_BILINEAR int8 and QUANTIZE int16 -> int8;
 * the other rows matched in both.  The uint8 MobileNets and DeepLab are
 * bit-exact with TFLite only this way.  tests/ops runs every row with
 * --rounding single.
 *
 * --rounding onnxruntime is ONNX Runtime's CPU arithmetic for QDQ models
 * (MLAS on x86): the int8/uint8 convolutions and fully connected layers
 * (QLinearConv, QLinearMatMul, QGemm) requantize with a float32 scale,
 * rounding half to even (ta_requant_ort()), and ADD is QLinearAdd's float
 * arithmetic (lower_add_ort(), lower_nn.c), MUL QLinearMul's
 * (lower_mul_ort(), lower_ops.c), the int8 and uint8 MEAN
 * QLinearGlobalAveragePool's (lower_mean(), lower_ops.c) and LEAKY_RELU
 * QLinearLeakyRelu's float table (leaky_relu_table(), quant_ops.c), and
 * an int8 -> int8 or uint8 -> uint8 QUANTIZE QLinearConcat's identity
 * table (lower_quantize(), lower_nn.c); an int8 CONV_2D, DEPTHWISE_CONV_2D,
 * FULLY_CONNECTED, ADD or MUL the front end marked Op.ref_float (a QDQ
 * group ONNX Runtime leaves in float32) is ONNX Runtime's float
 * computation instead (lower_conv_ort_float(), lower_fc_ort_float(),
 * lower_nn.c; lower_binary_ort_float(), lower_common.c); every other op
 * keeps the default arithmetic.
 */
static int op_rounding(const Graph *g, const Op *op, const LowerOptions *o) {
  if (o->rounding == TA_ROUND_ORT && op->ninputs >= 1 && op->inputs[0] >= 0) {
    DType dt = g->tensors[op->inputs[0]].dtype;
    bool gemm = op->kind == OP_CONV_2D || op->kind == OP_DEPTHWISE_CONV_2D ||
                op->kind == OP_FULLY_CONNECTED || op->kind == OP_ADD || op->kind == OP_MUL ||
                op->kind == OP_MEAN || op->kind == OP_LEAKY_RELU || op->kind == OP_QUANTIZE;
    return gemm && (dt == DT_INT8 || dt == DT_UINT8) ? TA_ROUND_ORT : TA_ROUND_DOUBLE;
  }
  if (o->rounding != TA_ROUND_SINGLE || op->ninputs < 1 || op->inputs[0] < 0)
    return TA_ROUND_DOUBLE;
  bool gemm = op->kind == OP_CONV_2D || op->kind == OP_FULLY_CONNECTED;
  return gemm && g->tensors[op->inputs[0]].dtype == DT_INT8 ? TA_ROUND_SINGLE
                                                            : TA_ROUND_DOUBLE;
}

/* Lowers op i: the body of lower()'s loop; error_at() when refused. */
static void lower_op(Graph *g, int i, const LowerOptions *o) {
  Op *op = &g->ops[i];
  LowerFn *fn = lowering_s16(g, op); /* 16x8 quantization: lower_s16.c */
  if (!fn)
    fn = (unsigned)op->kind < OP_COUNT ? lowerings[op->kind] : NULL;
  Lower L = {.g = g, .op = op, .o = o, .rounding = op_rounding(g, op, o),
             .l = arena_alloc(sizeof(Lowered))};
  op->scratch_bytes = 0;
  op->lowered = L.l;
  /* fold_constants() made the output a constant: no call. */
  if (op->folded)
    return;
  /* mark_views() made the output share the input's bytes: no call. */
  if (op->noutputs == 1 && g->tensors[op->outputs[0]].view_of >= 0)
    return;
  if (!fn)
    error_at(g, i, "this operator is not supported (no kernel)");
  fn(&L);
  /* Lowerings that spell a kernel's name from the dtypes may spell one
   * the runtime does not have. */
  const char *k = L.l->kernel;
  if (k && k[0] != '@' && !L.l->user_kernel && !runtime_defines(k))
    error_at(g, i, "not supported for these types (%s): the runtime has no %s",
             dtypes_str(&L), k);
}

/* Lowers op i and catches its refusal (error_jmp, util.c): the message,
 * or NULL when it lowered.  Nothing here changes between setjmp() and a
 * longjmp() back to it, so no local needs to be volatile. */
static const char *try_lower_op(Graph *g, int i, const LowerOptions *o) {
  jmp_buf here;
  jmp_buf *outer = error_jmp;
  error_jmp = &here;
  if (setjmp(here)) {
    error_jmp = outer;
    return arena_strdup(error_message);
  }
  lower_op(g, i, o);
  error_jmp = outer;
  return NULL;
}

/* "int8, int32 -> int8": the dtypes of op's inputs and outputs. */
static const char *op_types(const Graph *g, const Op *op) {
  const char *s = "";
  for (int k = 0; k < op->ninputs; k++)
    if (op->inputs[k] >= 0)
      s = arena_printf("%s%s%s", s, *s ? ", " : "", dtype_name(g->tensors[op->inputs[k]].dtype));
  s = arena_printf("%s ->", s);
  for (int k = 0; k < op->noutputs; k++)
    if (op->outputs[k] >= 0)
      s = arena_printf("%s %s", s, dtype_name(g->tensors[op->outputs[k]].dtype));
  return s;
}

int check_lowering(Graph *g, const LowerOptions *o) {
  int n = 0;
  lower_float_inf = g->float_inf;
  for (int i = 0; i < g->nops; i++) {
    const char *why = try_lower_op(g, i, o);
    g->ops[i].refused = why;
    if (why)
      n++;
  }
  return n;
}

/*
 * One refusal report for the whole model: every op no kernel takes, not
 * only the first.  One refused op: its message as error_at() wrote it.
 * Several: one line per op in model order, each as error_at() writes it
 * ("MODEL: op I (NAME): why") followed by the op's dtypes in brackets
 * when the reason does not already name them,
 * then a line counting them - so that a user sees in one go what stands
 * in the way.  Lines that do not fit the message buffer are counted, not
 * printed.
 */
void lower(Graph *g, const LowerOptions *o) {
  int n = check_lowering(g, o);
  if (n == 0)
    return;
  const char *report = NULL;
  int shown = 0;
  for (int i = 0; i < g->nops; i++) {
    const Op *op = &g->ops[i];
    if (!op->refused)
      continue;
    if (n == 1)
      error_raise(op->refused);
    /* The dtypes, unless the reason already names them. */
    const char *types = op_types(g, op);
    const char *line = strstr(op->refused, types) ? op->refused
                                                  : arena_printf("%s [%s]", op->refused, types);
    const char *next = report ? arena_printf("%s\n%s", report, line) : line;
    if (strlen(next) + 200 < sizeof error_message) {
      report = next;
      shown++;
    }
  }
  const char *path = g->path ? g->path : "<model>";
  report = arena_printf("%s\n%s: %d of %d ops are not supported%s", report, path, n, g->nops,
                        shown < n ? arena_printf(" (%d listed above)", shown) : "");
  error_raise(report);
}
