/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tflite_writer.h - writes .tflite files (TFLite FlatBuffers schema,
 * version 3, file identifier "TFL3") for tests.
 *
 * A model is described in memory first (buffers, tensors, operators,
 * subgraph inputs and outputs) and serialized by tfw_finish() or
 * tfw_write_file().  Only what single-op test models and small example
 * networks need is covered: several subgraphs, builtin operators with their
 * options tables, custom operators with FlexBuffers options, per-tensor
 * and per-channel quantization, variable tensors.  Field slots and union
 * type numbers follow tensorflow/lite/schema/schema.fbs; they are listed
 * in tflite_writer.c next to the code that writes them.
 *
 * This is host-side test tooling: it uses malloc and exits with a message
 * on misuse or when memory runs out.  A model owns everything added to
 * it; tfw_free() releases it all.
 */
#ifndef TFLITE_WRITER_H
#define TFLITE_WRITER_H

#include <stddef.h>
#include <stdint.h>

/* TensorType values of the schema. */
enum {
  TFW_FLOAT32 = 0,
  TFW_FLOAT16 = 1,
  TFW_INT32 = 2,
  TFW_UINT8 = 3,
  TFW_INT64 = 4,
  TFW_BOOL = 6,
  TFW_INT16 = 7,
  TFW_COMPLEX64 = 8, /* (re, im) float32 pairs */
  TFW_INT8 = 9,
  TFW_RESOURCE = 13, /* a resource variable's handle */
  TFW_INT4 = 17,     /* two per byte, the first in the low nibble */
};

#define TFW_MAX_SUBGRAPHS 16

/* BuiltinOperator values used by the generators. */
enum {
  TFW_OP_ADD = 0,
  TFW_OP_AVERAGE_POOL_2D = 1,
  TFW_OP_CONCATENATION = 2,
  TFW_OP_CONV_2D = 3,
  TFW_OP_DEPTHWISE_CONV_2D = 4,
  TFW_OP_DEQUANTIZE = 6,
  TFW_OP_FULLY_CONNECTED = 9,
  TFW_OP_LOGISTIC = 14,
  TFW_OP_MAX_POOL_2D = 17,
  TFW_OP_MUL = 18,
  TFW_OP_RELU = 19,
  TFW_OP_RELU6 = 21,
  TFW_OP_RESHAPE = 22,
  TFW_OP_RESIZE_BILINEAR = 23,
  TFW_OP_SOFTMAX = 25,
  TFW_OP_TANH = 28,
  TFW_OP_PAD = 34,
  TFW_OP_TRANSPOSE = 39,
  TFW_OP_MEAN = 40,
  TFW_OP_SUB = 41,
  TFW_OP_SQUEEZE = 43,
  TFW_OP_STRIDED_SLICE = 45,
  TFW_OP_SPLIT = 49,
  TFW_OP_CAST = 53,
  TFW_OP_MAXIMUM = 55,
  TFW_OP_ARG_MAX = 56,
  TFW_OP_MINIMUM = 57,
  TFW_OP_TRANSPOSE_CONV = 67,
  TFW_OP_EXPAND_DIMS = 70,
  TFW_OP_PACK = 83,
  TFW_OP_UNPACK = 88,
  TFW_OP_RESIZE_NEAREST_NEIGHBOR = 97,
  TFW_OP_LEAKY_RELU = 98,
  TFW_OP_SPLIT_V = 102,
  TFW_OP_QUANTIZE = 114,
  TFW_OP_HARD_SWISH = 117,
  TFW_OP_CALL_ONCE = 129,
  TFW_OP_VAR_HANDLE = 142,
  TFW_OP_READ_VARIABLE = 143,
  TFW_OP_ASSIGN_VARIABLE = 144,
  TFW_OP_STABLEHLO_COMPOSITE = 206, /* tfw_composite_options() */
  /* tools/gen_ops_data.c */
  TFW_OP_SUM = 74,
  TFW_OP_REDUCE_MAX = 82,
  TFW_OP_REDUCE_MIN = 89,
  TFW_OP_EMBEDDING_LOOKUP = 7,
  TFW_OP_GATHER = 36,
  TFW_OP_GATHER_ND = 107,
  TFW_OP_DEPTH_TO_SPACE = 5,
  TFW_OP_SPACE_TO_DEPTH = 26,
  TFW_OP_TILE = 69,
  TFW_OP_REVERSE_V2 = 105,
  TFW_OP_BROADCAST_TO = 130,
  TFW_OP_SHAPE = 77,
  TFW_OP_FILL = 94,
  TFW_OP_BROADCAST_ARGS = 145,
  TFW_OP_BATCH_MATMUL = 126,
  TFW_OP_BATCH_TO_SPACE_ND = 37,
  TFW_OP_SPACE_TO_BATCH_ND = 38,
  TFW_OP_MIRROR_PAD = 100,
  TFW_OP_L2_POOL_2D = 12,
  TFW_OP_L2_NORMALIZATION = 11,
  TFW_OP_CUMSUM = 128,
  /* tools/gen_ops_math.h */
  TFW_OP_RFFT2D = 131,
  TFW_OP_COMPLEX_ABS = 135,
  TFW_OP_CUSTOM = 32, /* tfw_custom_op() */
};

/* Padding and ActivationFunctionType of the schema. */
enum { TFW_PAD_SAME = 0, TFW_PAD_VALID = 1 };
enum {
  TFW_ACT_NONE = 0,
  TFW_ACT_RELU = 1,
  TFW_ACT_RELU_N1_TO_1 = 2,
  TFW_ACT_RELU6 = 3,
};

typedef struct TfwModel TfwModel;

/* A new, empty model (buffer 0, the empty sentinel, already exists). */
TfwModel *tfw_new(void);
void tfw_free(TfwModel *m);

/* Size in bytes of one element of a TensorType (0 if unknown). */
size_t tfw_dtype_size(int dtype);

/* Adds a buffer holding a copy of n bytes; returns its index (>= 1). */
int tfw_buffer(TfwModel *m, const void *data, size_t n);

/* Adds a tensor; buffer 0 = no data.  Returns the tensor index.  The name
 * is copied. */
int tfw_tensor(TfwModel *m, const char *name, int dtype, int ndims,
               const int32_t *dims, int buffer);

/* A constant: a buffer with the tensor's bytes (product of dims times the
 * element size, read from data) and the tensor that refers to it. */
int tfw_const(TfwModel *m, const char *name, int dtype, int ndims,
              const int32_t *dims, const void *data);

/* Quantization: n scales and zero points (n == 1: per tensor; n > 1: per
 * channel along quantized dimension qdim). */
void tfw_quant(TfwModel *m, int tensor, int n, const float *scale,
               const int64_t *zero_point, int qdim);
/* Per-tensor shorthand. */
void tfw_quant1(TfwModel *m, int tensor, float scale, int64_t zero_point);
/* QuantizationDetails BlockwiseQuantization: the tensors holding the
 * scales and the zero points (-1: none), the block size. */
void tfw_blockwise(TfwModel *m, int tensor, int scales, int zero_points, int block_size);

void tfw_set_variable(TfwModel *m, int tensor);
/* shape_signature: n entries (-1: a dynamic dimension). */
void tfw_shape_signature(TfwModel *m, int tensor, int n, const int32_t *sig);

/* Adds an operator (its operator code is added or reused; version 1 unless
 * tfw_op_version says otherwise).  Input index -1 = optional input left
 * out.  Returns the operator index. */
int tfw_op(TfwModel *m, int builtin_code, int nin, const int *in, int nout,
           const int *out);
void tfw_op_version(TfwModel *m, int op, int version);
/* A CUSTOM operator named `name` (its own operator code per name) with
 * custom options (copied; FlexBuffers, e.g. from tfw_flex_map()). */
int tfw_custom_op(TfwModel *m, const char *name, const uint8_t *options, size_t noptions,
                  int nin, const int *in, int nout, const int *out);

/* One entry of a FlexBuffers map: type 'i' (int32), 'f' (float) or 'b'
 * (bool, from i). */
typedef struct {
  const char *key;
  int type;
  int32_t i;
  float f;
} TfwFlexEntry;
/* The FlexBuffers bytes of a map of n scalar entries (keys sorted):
 * *bytes is malloc'd (the caller frees it); returns its length. */
size_t tfw_flex_map(const TfwFlexEntry *entries, int n, uint8_t **bytes);

/* The subgraph's inputs and outputs, in order. */
void tfw_inputs(TfwModel *m, int n, const int *tensors);
void tfw_outputs(TfwModel *m, int n, const int *tensors);

/* Builtin options, one function per options table.  Each sets the
 * operator's builtin_options_type and fields. */
void tfw_conv2d_options(TfwModel *m, int op, int padding, int stride_w,
                        int stride_h, int act, int dilation_w, int dilation_h);
void tfw_depthwise_options(TfwModel *m, int op, int padding, int stride_w,
                           int stride_h, int depth_multiplier, int act,
                           int dilation_w, int dilation_h);
void tfw_transpose_conv_options(TfwModel *m, int op, int padding,
                                int stride_w, int stride_h, int act);
void tfw_pool2d_options(TfwModel *m, int op, int padding, int stride_w,
                        int stride_h, int filter_w, int filter_h, int act);
void tfw_fully_connected_options(TfwModel *m, int op, int act,
                                 int keep_num_dims);
void tfw_fully_connected_options_asym(TfwModel *m, int op, int act, int keep_num_dims,
                                      int asymmetric);
void tfw_softmax_options(TfwModel *m, int op, float beta);
void tfw_concatenation_options(TfwModel *m, int op, int axis, int act);
/* ADD and SUB; pot_scale_int16 < 0 leaves the field out (default true). */
void tfw_add_options(TfwModel *m, int op, int act, int pot_scale_int16);
void tfw_sub_options(TfwModel *m, int op, int act, int pot_scale_int16);
void tfw_mul_options(TfwModel *m, int op, int act);
void tfw_reducer_options(TfwModel *m, int op, int keep_dims);
/* RESHAPE: n < 0 writes an options table without new_shape. */
void tfw_reshape_options(TfwModel *m, int op, int n, const int32_t *new_shape);
void tfw_squeeze_options(TfwModel *m, int op, int n, const int32_t *dims);
void tfw_strided_slice_options(TfwModel *m, int op, int begin_mask,
                               int end_mask, int ellipsis_mask,
                               int new_axis_mask, int shrink_axis_mask,
                               int offset);
void tfw_split_options(TfwModel *m, int op, int num_splits);
void tfw_split_v_options(TfwModel *m, int op, int num_splits);
void tfw_pack_options(TfwModel *m, int op, int values_count, int axis);
void tfw_unpack_options(TfwModel *m, int op, int num, int axis);
void tfw_resize_bilinear_options(TfwModel *m, int op, int align_corners,
                                 int half_pixel_centers);
void tfw_resize_nearest_options(TfwModel *m, int op, int align_corners,
                                int half_pixel_centers);
void tfw_arg_max_options(TfwModel *m, int op, int output_type);
void tfw_leaky_relu_options(TfwModel *m, int op, float alpha);
void tfw_cast_options(TfwModel *m, int op, int in_type, int out_type);
/* Any options table of scalar fields: BuiltinOptions union type `type`,
 * field k at slot k, kinds[k] 'i' (int32) or 'b' (byte/bool/enum), value
 * v[k] (kinds "" writes an empty table of that type). */
void tfw_scalar_options(TfwModel *m, int op, int type, const char *kinds, const int32_t *v);
/* Options tables without fields: PadOptions, TransposeOptions,
 * DequantizeOptions, MaximumMinimumOptions, ExpandDimsOptions,
 * QuantizeOptions, HardSwishOptions.  Picks the table from the op code. */
void tfw_empty_options(TfwModel *m, int op);

/* Resource variables: VAR_HANDLE's container and shared_name (NULL
 * leaves a string out), CALL_ONCE's init subgraph. */
void tfw_var_handle_options(TfwModel *m, int op, const char *container,
                            const char *shared_name);
void tfw_call_once_options(TfwModel *m, int op, int init_subgraph_index);

/* StableHLOCompositeOptions (in builtin_options_2): the composite's name,
 * its decomposition subgraph, composite_attributes (FlexBuffers bytes,
 * NULL: none) and version. */
void tfw_composite_options(TfwModel *m, int op, const char *name, int subgraph,
                           const uint8_t *attrs, size_t nattrs, int version);

/* Starts the next subgraph (returns its index); what is added from now
 * on goes into it, with indices local to it. */
int tfw_subgraph(TfwModel *m);

/* Serializes the model.  *bytes is malloc'd; the caller frees it. */
void tfw_finish(TfwModel *m, uint8_t **bytes, size_t *len);
/* Serializes and writes to path; returns 0, or -1 (errno set). */
int tfw_write_file(TfwModel *m, const char *path);

#endif
