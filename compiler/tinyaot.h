/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tinyaot.h - the one header of the compiler.  Read this first.
 *
 * tinyaot turns a .tflite (or .onnx) model into C99: a run function that calls one
 * kernel per op, the weights as const arrays, and a static memory plan.
 * The pipeline (main.c, load() and compile()) is a plain list of calls:
 *
 *   read_tflite | read_onnx -> verify -> run_passes -> lower [-> patch_graph]
 *     -> plan_graph -> emit_folder
 *
 * (patch_graph with --patch; --ram-limit runs the pipeline up to
 * plan_graph once per patched run it tries, on fresh copies, main.c.)
 *
 * plan_graph() is storage, schedule and placement: assign_storage ->
 * model_order / memory_order -> set_lifetimes -> mark_inplace ->
 * place_buffers -> check_plan.  verify() runs again after every pass.
 *
 * The parts live in folders named after the pipeline's steps:
 *
 *   front/    the readers: an untrusted file -> the IR, nothing else
 *             (tflite.c, and flexbuf.c for custom ops' options;
 *             onnx.c and onnx_import.c with its onnx_*.c parts on
 *             protobuf.c)
 *   verify.c  the IR's invariants, after the reader and after every pass
 *             (control.c: IF's and WHILE's structure ops)
 *   passes/   graph passes (passes.c) and the lowering: lower.c's table,
 *             one file per op family, their shared helpers in
 *             lower_common.c, the host quantization arithmetic (quant*.c),
 *             patch-based execution of the first convolutions (patch.c)
 *   memory/   storage, schedule, plan and the independent checker: they
 *             know neither the file format nor how C is written
 *   emit/     the generated folder, the plan's JSON and SVG, inspect,
 *             the report (report.c, report_size.c) and profiling (profile.c)
 *   main.c, run.c, util.c, runtime_catalog.c: the driver, the host
 *             compile-and-run, the arena and errors, what the runtime has
 *
 * Nothing after front/ reads a file format: a custom op's options reach
 * the lowering decoded (Op.attrs).  The lowering asks the runtime
 * catalogue, not the emitter, whether a kernel exists.
 *
 * This header holds the IR (Graph, Tensor, Op), the op table, and the
 * prototypes grouped by the file that defines them.
 *
 * Memory: the compiler allocates from one arena (util.c) and frees it all
 * at exit; nothing in the IR is freed individually.
 *
 * Errors: bad input (a corrupt file, an unsupported op or type) goes
 * through error_at()/op_error(): one message naming the model file, the
 * op index and op name, and what is wrong; exit status 1.  Compiler bugs
 * go through die()/unreachable(), which print file:line and abort.
 */
#ifndef TINYAOT_H
#define TINYAOT_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#if defined(__GNUC__)
#define TA_NORETURN __attribute__((noreturn))
#define TA_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define TA_NORETURN
#define TA_PRINTF(a, b)
#endif

/* ---------------------------------------------------------------- types */

/* X(ENUM, TFLITE_TENSOR_TYPE, "name", bits) - tensor element types. */
#define DTYPE_LIST(X)                                                        \
  X(FLOAT32, 0, "float32", 32)                                               \
  X(FLOAT16, 1, "float16", 16)                                               \
  X(INT32, 2, "int32", 32)                                                   \
  X(UINT8, 3, "uint8", 8)                                                    \
  X(INT64, 4, "int64", 64)                                                   \
  X(STRING, 5, "string", 0)                                                  \
  X(BOOL, 6, "bool", 8)                                                      \
  X(INT16, 7, "int16", 16)                                                   \
  X(COMPLEX64, 8, "complex64", 64)                                           \
  X(INT8, 9, "int8", 8)                                                      \
  X(FLOAT64, 10, "float64", 64)                                              \
  X(UINT64, 12, "uint64", 64)                                                \
  X(UINT32, 15, "uint32", 32)                                                \
  X(UINT16, 16, "uint16", 16)                                                \
  X(INT4, 17, "int4", 4)                                                     \
  X(BFLOAT16, 18, "bfloat16", 16)                                            \
  /* ONNX only (no TFLite code): float8s, float4, sub-byte integers. */      \
  X(FLOAT8E4M3FN, 1001, "float8e4m3fn", 8)                                   \
  X(FLOAT8E4M3FNUZ, 1002, "float8e4m3fnuz", 8)                               \
  X(FLOAT8E5M2, 1003, "float8e5m2", 8)                                       \
  X(FLOAT8E5M2FNUZ, 1004, "float8e5m2fnuz", 8)                               \
  X(FLOAT8E8M0, 1005, "float8e8m0", 8)                                       \
  X(FLOAT4E2M1, 1006, "float4e2m1", 4)                                       \
  X(UINT4, 1007, "uint4", 4)                                                 \
  X(INT2, 1008, "int2", 2)                                                   \
  X(UINT2, 1009, "uint2", 2)

typedef enum {
#define X(e, code, name, bits) DT_##e,
  DTYPE_LIST(X)
#undef X
  DT_COUNT
} DType;

typedef enum {
#define X(e, code, name) OP_##e,
#include "ops.h"
#undef X
  OP_COUNT
} OpKind;

/* Fused activation functions (TFLite ActivationFunctionType). */
typedef enum {
  ACT_NONE = 0,
  ACT_RELU = 1,
  ACT_RELU_N1_TO_1 = 2,
  ACT_RELU6 = 3,
  ACT_TANH = 4,
  ACT_SIGN_BIT = 5,
} Activation;

/* Padding (TFLite Padding). */
typedef enum { PAD_SAME = 0, PAD_VALID = 1 } Padding;

#define MAX_DIMS 8

/*
 * Quantization of one tensor.  nscale == 0: not quantized.  nscale == 1:
 * per tensor.  nscale > 1: per channel along `axis`.
 */
typedef struct {
  int nscale;
  float *scale;
  int64_t *zero_point; /* nscale entries (TFLite allows fewer: then 0) */
  int axis;            /* quantized_dimension */
} Quant;

typedef struct Tensor {
  int index; /* position in subgraph 0's tensor table */
  const char *name; /* points into the file; "" when absent */
  DType dtype;
  int ndims;
  int32_t dims[MAX_DIMS]; /* each >= 0; the byte size is bounded (tflite.c) */
  int nsignature;         /* shape_signature: 0 when absent, else ndims */
  int32_t signature[MAX_DIMS]; /* -1 = dynamic (verify.c refuses it) */
  Quant q;
  int buffer;          /* index in the model's buffer table (0 = none) */
  const uint8_t *data; /* constant bytes (points into the file), or NULL */
  size_t ndata;        /* bytes at data */
  /* int4 weights the reader unpacked (data then holds int8): the file's
   * packed bytes, two per byte, element 2i in the low nibble of byte i
   * (points into the file), or NULL.  A kernel that unpacks at run time
   * (ta_conv2d_fold_w4_s8) takes these instead, so flash keeps 4 bits a
   * weight. */
  const uint8_t *packed4;
  size_t npacked4;     /* bytes at packed4: ceil(elements / 2) */
  bool is_variable;    /* persistent state (LSTM/SVDF, resource variables) */
  const uint8_t *init; /* a resource variable's initial value (CALL_ONCE's
                          init subgraph; points into the file), or NULL */
  size_t ninit;        /* bytes at init (tensor_bytes) */
  bool is_input;       /* a model input */
  bool is_output;      /* a model output */
  int producer;        /* index of the op that writes it, or -1 */
  int storage;         /* storage id (storage.c), -1 when not planned */
  int view_of;         /* tensor this one aliases (passes.c), or -1 */
  bool loop_var;       /* a WHILE's loop variable (one of its outputs),
                          written again by its END_WHILE (control.c) */
} Tensor;

/* Groups of Options fields; Options.fields says which ones an op has. */
enum {
  OPTF_PADDING = 1 << 0,   /* padding */
  OPTF_STRIDE = 1 << 1,    /* stride_w, stride_h */
  OPTF_DILATION = 1 << 2,  /* dilation_w, dilation_h */
  OPTF_FILTER = 1 << 3,    /* filter_w, filter_h */
  OPTF_ACTIVATION = 1 << 4,
  OPTF_DEPTH_MULT = 1 << 5,
  OPTF_BETA = 1 << 6,
  OPTF_ALPHA = 1 << 7,
  OPTF_AXIS = 1 << 8,
  OPTF_NUM = 1 << 9,
  OPTF_KEEP_DIMS = 1 << 10,
  OPTF_FC = 1 << 11,       /* keep_num_dims, weights_format */
  OPTF_RESIZE = 1 << 12,   /* align_corners, half_pixel_centers */
  OPTF_SLICE_MASKS = 1 << 13, /* begin_mask ... shrink_axis_mask, offset */
  OPTF_OUT_TYPE = 1 << 14,
  OPTF_CAST = 1 << 15,     /* in_dtype, out_dtype */
  OPTF_NEW_SHAPE = 1 << 16,
  OPTF_SQUEEZE_DIMS = 1 << 17,
  OPTF_LSTM = 1 << 18,     /* cell_clip, proj_clip, time_major */
  OPTF_RANK = 1 << 19,
  OPTF_POT_SCALE = 1 << 20,
  OPTF_BLOCK_SIZE = 1 << 21,
  OPTF_BATCH_DIMS = 1 << 22,
  OPTF_ADJ = 1 << 23,      /* adj_x, adj_y */
  OPTF_ASYMMETRIC = 1 << 24,
  OPTF_BIAS_TYPE = 1 << 25,
  OPTF_MIRROR = 1 << 26,   /* mirror_mode */
  OPTF_CUMSUM = 1 << 27,   /* exclusive, reverse */
  OPTF_SUBGRAPHS = 1 << 28, /* IF then/else, WHILE cond/body subgraph */
  OPTF_VAR_HANDLE = 1 << 29, /* container, shared_name */
  OPTF_CALL_ONCE = 1 << 30,  /* init_subgraph */
};

/*
 * Builtin options of every op kind, flattened: each op reads the fields
 * its TFLite options table has (listed in `fields`); the rest stay at
 * their defaults (0, except where noted).  When the file leaves the
 * table out, the op still has the fields, at the schema's defaults.
 */
typedef struct {
  unsigned fields; /* OPTF_* groups this op has */
  Padding padding;
  int stride_w, stride_h;
  int dilation_w, dilation_h; /* default 1 */
  int filter_w, filter_h;     /* pools */
  int depth_multiplier;
  Activation activation;
  float beta;        /* SOFTMAX */
  float alpha;       /* LEAKY_RELU */
  int axis;          /* CONCATENATION, PACK, UNPACK, GATHER */
  int num;           /* SPLIT/SPLIT_V num_splits, PACK values_count, UNPACK num */
  bool keep_dims;    /* MEAN, SUM, REDUCE_* */
  bool keep_num_dims;      /* FULLY_CONNECTED */
  int weights_format;      /* FULLY_CONNECTED */
  bool asymmetric_quantize_inputs;
  bool align_corners, half_pixel_centers; /* RESIZE_* */
  int begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask;
  bool offset;       /* STRIDED_SLICE */
  DType out_type;    /* ARG_MAX, ARG_MIN */
  DType in_dtype, out_dtype; /* CAST */
  bool cast_no_saturate;     /* CAST to a float8: ONNX saturate = 0 */
  int cast_round_mode;       /* CAST to float8e8m0: 0 up, 1 down, 2 nearest */
  int nnew_shape;    /* RESHAPE new_shape (may be absent: -1) */
  int32_t new_shape[MAX_DIMS];
  int nsqueeze_dims; /* SQUEEZE */
  int32_t squeeze_dims[MAX_DIMS];
  float cell_clip, proj_clip; /* LSTM */
  bool time_major;            /* LSTM */
  int rank;                   /* SVDF */
  bool pot_scale_int16;       /* ADD/SUB int16 (default true) */
  int block_size;             /* DEPTH_TO_SPACE, SPACE_TO_DEPTH */
  int batch_dims;             /* GATHER */
  bool adj_x, adj_y;          /* BATCH_MATMUL */
  bool diagonal_recurrent_tensors; /* UNIDIRECTIONAL_SEQUENCE_LSTM */
  DType quantized_bias_type;  /* CONV_2D, FULLY_CONNECTED, TRANSPOSE_CONV;
                                 FLOAT32 (0) = not set */
  int mirror_mode;            /* MIRROR_PAD: 0 REFLECT, 1 SYMMETRIC; ONNX Pad: 2 EDGE, 3 WRAP */
  bool exclusive, reverse;    /* CUMSUM */
  const char *container, *shared_name; /* VAR_HANDLE ("" when absent) */
  int init_subgraph;          /* CALL_ONCE init_subgraph_index */
  int subgraph[2];            /* IF then_ and else_subgraph_index, WHILE
                                 cond_ and body_subgraph_index */
} Options;

/* One attribute of an op beyond its builtin Options: an entry of a custom
 * op's options map (tflite.c decodes the FlexBuffer), so that nothing after
 * the front end reads a file format.  ATTR_OTHER: a value that is no
 * number (a string, a vector), present but unreadable as one. */
typedef enum { ATTR_INT, ATTR_FLOAT, ATTR_OTHER } AttrKind;
typedef struct {
  const char *key;
  AttrKind kind;
  int64_t i; /* ATTR_INT (bool: 0/1) */
  double f;  /* ATTR_FLOAT, and ATTR_INT converted */
} Attr;

typedef struct Op {
  int index; /* position in subgraph 0's operator list (model order) */
  OpKind kind;
  int version;              /* operator code version */
  const char *custom_name;  /* OP_CUSTOM only */
  const uint8_t *custom_options; /* raw bytes, handed to user kernels as is */
  size_t ncustom_options;
  Attr *attrs;  /* the custom options decoded (front end), or none */
  int nattrs;
  int *inputs;  /* tensor indices; -1 = optional input left out */
  int ninputs;
  int *outputs;
  int noutputs;
  int *intermediates; /* LSTM quantization-only tensors */
  int nintermediates;
  Options opt;
  void *lowered;        /* lower.c's record for this op */
  size_t scratch_bytes; /* kernel scratch (lower.c asks the kernel) */
  int scratch_buffer;   /* its Buffer in the Plan, or -1 */
  size_t state_bytes;   /* state the kernel keeps between runs that is no
                           tensor (a noise estimate): persistent, zeroed
                           by <prefix>_reset() (lower.c asks the kernel) */
  int state_buffer;     /* its Buffer in the Plan (persistent), or -1 */
  const char *refused;  /* check_lowering(): why no kernel takes this op
                           (the error message), or NULL */
  bool folded;          /* fold_constants(): computed at compile time; the
                           op reads and writes nothing, outputs[0] is the
                           constant it became */
  /* A quantized op that the model's reference runtime computes in
   * float32 (dequantize, float op, quantize): ONNX Runtime's x86 build
   * leaves such QDQ Conv, MatMul, Gemm, Add and Mul groups unfused (the
   * ONNX front end decides, onnx_qdq.c).  The lowering follows it under
   * --rounding onnxruntime only.  ref_bias_scale: the model's own bias
   * scales, one per output channel, or NULL (no bias). */
  bool ref_float;
  const float *ref_bias_scale;
  bool ref_trans_b; /* ref_float FULLY_CONNECTED: the reference reads the
                       weights as rows of K (an ONNX Gemm with transB) */
} Op;

/* One Model.metadata entry ("min_runtime_version", "OfflineMemoryAllocation",
 * ...): its name and the bytes of its buffer (pointing into the file). */
typedef struct {
  const char *key;
  const uint8_t *data;
  size_t ndata;
} Metadata;

typedef struct Graph {
  const char *path; /* the model file, for messages */
  const char *description;
  uint32_t schema_version;
  Tensor *tensors;
  int ntensors;
  Op *ops;
  int nops;
  int *inputs; /* model inputs: tensor indices */
  int ninputs;
  int *outputs; /* model outputs: tensor indices */
  int noutputs;
  Metadata *metadata;
  int nmetadata;
  int nsubgraphs;
  /* Float ops pass infinities on (ONNX, IEEE arithmetic): an unbounded
   * float activation range is +-INFINITY in the generated code, where
   * TFLite's is +-FLT_MAX (which clamps an infinity to FLT_MAX). */
  bool float_inf;
} Graph;

/* ----------------------------------------------------------- op table */

const char *op_name(OpKind kind);        /* "CONV_2D" */
int op_tflite_code(OpKind kind);         /* BuiltinOperator value */
bool op_from_tflite_code(int code, OpKind *kind);
const char *dtype_name(DType dt);        /* "int8" */
int dtype_bits(DType dt);
bool dtype_from_tflite(int code, DType *dt);
/* Display name of op i: "CONV_2D" or "CUSTOM:SignalWindow". */
const char *op_display_name(const Graph *g, int i);

/* ----------------------------------------------------------- util.c */

void *arena_alloc(size_t n);                   /* zeroed; dies on OOM */
void *arena_array(size_t count, size_t size);  /* overflow-checked */
char *arena_strdup(const char *s);
char *arena_printf(const char *fmt, ...) TA_PRINTF(1, 2);
void arena_reset(void);                        /* frees everything */

bool mul_overflows(size_t a, size_t b, size_t *out);
bool add_overflows(size_t a, size_t b, size_t *out);

/* Bad input.  Formats "MODEL: op I (NAME): message" (op parts only when
 * op >= 0) into error_message; then, if error_jmp is set, longjmps there
 * (the fuzzer and in-process tests catch errors this way), else prints
 * the message to stderr and exits with status 1. */
extern char error_message[8192];
extern jmp_buf *error_jmp;
TA_NORETURN void error_at(const Graph *g, int op, const char *fmt, ...)
    TA_PRINTF(3, 4);
/* Raises an error whose whole text is `message` (already formatted, as
 * lower()'s report of several refused ops is). */
TA_NORETURN void error_raise(const char *message);
/* The same for a file that is not (yet) a Graph. */
TA_NORETURN void error_file(const char *path, const char *fmt, ...)
    TA_PRINTF(2, 3);

/* Compiler bugs: prints "tinyaot: internal error at FILE:LINE: message"
 * to stderr, calls die_hook (when set) with that message, and aborts.
 * The hook lets the fuzzer and the robustness tests tell a die() from a
 * refusal; it may longjmp away (then nothing is aborted). */
TA_NORETURN void die_at(const char *file, int line, const char *fmt, ...)
    TA_PRINTF(3, 4);
extern void (*die_hook)(const char *message);
/* Called first by every error_at/error_file/die (when set): removes what
 * a failed step leaves behind (outdir.c's temporary folders). */
extern void (*error_cleanup_hook)(void);
#define die(...) die_at(__FILE__, __LINE__, __VA_ARGS__)
#define unreachable() die_at(__FILE__, __LINE__, "unreachable")

/* Reads a whole file into arena memory; error_file() on failure (and for
 * a folder, or a file beyond 16 GB). */
uint8_t *read_file(const char *path, size_t *size);
/* The same for a model: the file mapped into memory (copy-on-write, never
 * written back), read() where it cannot be mapped; not in the arena. */
uint8_t *map_file(const char *path, size_t *size);

/* digest.c: SHA-256 of n bytes into out[32]; the same as 64 lowercase hex
 * digits (arena); CRC-32 (IEEE, zlib's) of n bytes. */
void sha256(const void *data, size_t n, uint8_t out[32]);
const char *sha256_hex(const void *data, size_t n);
uint32_t crc32(const void *data, size_t n);

/* Tensor helpers. */
int64_t tensor_elems(const Tensor *t);
size_t tensor_bytes(const Tensor *t);   /* elems * ceil(bits / 8) */
bool is_const(const Tensor *t);         /* has data in the model */
const char *tensor_type_label(const Tensor *t); /* "int8[1,4]" (arena) */
bool same_dtype_and_shape(const Tensor *a, const Tensor *b);
/* The attribute `key` of op (Op.attrs), or NULL. */
const Attr *op_attr(const Op *op, const char *key);

/* ------------------------------------------------------ front/tflite.c */

/* Parses a .tflite file held in memory (not copied: the Graph points into
 * `buf`, which must outlive it).  Every offset is bounds-checked; any
 * problem ends in error_at()/error_file().  Reads subgraph 0, with the
 * subgraphs CALL_ONCE, STABLEHLO_COMPOSITE, IF and WHILE call inlined or
 * evaluated (IF and WHILE between structure ops, control.c); refuses
 * CALL.  Contract: doc/ir.md. */
Graph *read_tflite(const char *path, const uint8_t *buf, size_t size);
/* The metadata entry named `key`, or NULL. */
const Metadata *find_metadata(const Graph *g, const char *key);
/* Name of a TFLite BuiltinOperator code for messages ("SIN"), or NULL. */
const char *tflite_builtin_name(int code);
/* Structure-aware fuzzing (tests/fuzz/mutate.h): when set, read_tflite()
 * calls it for every value it decodes - a scalar field, a vector's length,
 * an element of a vector of numbers - with the value's offset in the
 * file, its width in bytes, its kind and the field's name ("shape",
 * "stride_w", "quantization scale", ...).  NULL (the default): no calls. */
typedef enum { FIELD_INT, FIELD_FLOAT, FIELD_LENGTH } FieldKind;
extern void (*read_trace)(size_t pos, size_t width, FieldKind kind,
                          const char *what);

/* ----------------------------------------------------- front/flexbuf.c */

/* A custom op's options (FlexBuffers, untrusted bytes): the value of
 * `key` in the root map.  flex_map_int() takes int, uint and bool values
 * (inline or indirect), flex_map_float() those and floats.  false when
 * the bytes are not a map, the key is missing, the value has another
 * type, or anything lies outside buf[0..n) - never reads outside. */
bool flex_map_int(const uint8_t *buf, size_t n, const char *key, int64_t *out);
bool flex_map_float(const uint8_t *buf, size_t n, const char *key, double *out);
bool flex_map_has(const uint8_t *buf, size_t n, const char *key);
/* Every entry of the root map as an Attr array (arena); false (and none)
 * when the bytes are not a readable map. */
bool flex_map_attrs(const uint8_t *buf, size_t n, Attr **attrs, int *nattrs);

/* ---------------------------------------------------- front/protobuf.c */

/* The protobuf wire format, bounds-checked (untrusted bytes).  A PbMsg is
 * a byte range [pos, end) of buf holding fields; a nested message is a
 * sub-range that never reaches past its parent.  Errors -> error_file()
 * naming path, `what` and the byte offset. */
enum { PB_VARINT = 0, PB_FIXED64 = 1, PB_LEN = 2, PB_FIXED32 = 5 };
typedef struct {
  const char *path; /* the file, for messages */
  const uint8_t *buf;
  size_t pos, end;
  const char *what; /* what is being read ("node 3"), or NULL */
} PbMsg;
typedef struct {
  uint32_t num; /* field number */
  int wire;     /* PB_* */
  uint64_t v;   /* PB_VARINT, PB_FIXED32, PB_FIXED64: the value */
  PbMsg sub;    /* PB_LEN: the payload; otherwise the enclosing message */
  size_t pos;   /* offset of the field's key */
} PbField;
/* Repeated numbers of one field occurrence: packed (a PB_LEN run) or one
 * value. */
typedef struct {
  PbMsg m;
  int wire;
  bool single, done;
  uint64_t v;
} PbValues;
PbMsg pb_root(const char *path, const uint8_t *buf, size_t size, const char *what);
/* The next field of m (advancing m), false at its end.  Unknown fields are
 * the caller's to ignore: their bytes are already skipped. */
bool pb_next(PbMsg *m, PbField *f);
/* The values of a repeated numeric field (elements of wire type elem_wire,
 * packed or not), their count (an upper bound for varints), the next. */
PbValues pb_values(const PbField *f, int elem_wire);
size_t pb_values_count(const PbField *f, int elem_wire);
bool pb_next_value(PbValues *it, uint64_t *v);
/* Typed views of one field; the wrong wire type -> error_file(). */
const char *pb_string(const PbField *f); /* NUL-terminated arena copy */
PbMsg pb_message(const PbField *f);
int64_t pb_int(const PbField *f);
float pb_float(const PbField *f);

/* -------------------------------------------------------- front/onnx.c */

/* Options of the readers (main.c's --layout, --input-shape: ONNX;
 * --constant-input: both formats). */
typedef struct {
  const char *name;
  int ndims;
  int64_t dims[MAX_DIMS];
} InputShape;
typedef struct {
  const char *name;
  const char *file; /* raw little-endian bytes, or a TensorProto .pb */
} ConstantInput;
typedef struct {
  bool nhwc_io; /* --layout nhwc: 4-D inputs/outputs in NHWC, no transposes */
  const InputShape *shapes;
  int nshapes;
  const ConstantInput *constants;
  int nconstants;
  /* --probe NAME: values the model computes that become extra outputs,
   * after the model's own, without changing how it is compiled. */
  const char *const *probes;
  int nprobes;
} ImportOptions;
/* --constant-input for a .tflite Graph (front/constant_input.c): each
 * named model input becomes a constant with the file's bytes (raw, or a
 * TensorProto .pb); error_file() for an unknown name or a size mismatch. */
void bind_constant_inputs(Graph *g, const ImportOptions *o);
/* --probe for a .tflite Graph (front/constant_input.c): each named tensor
 * becomes an extra model output; error_file() for an unknown name. */
void bind_probes(Graph *g, const ImportOptions *o);
/* Is buf an ONNX ModelProto (by content: field 1 ir_version varint and a
 * graph field 7)?  Cheap; never fails. */
bool looks_like_onnx(const uint8_t *buf, size_t size);
/* Parses an .onnx file held in memory into the same IR read_tflite()
 * makes (NHWC kernels, TFLite op semantics); the Graph may point into
 * buf.  Anything unsupported or malformed -> error_at()/error_file()
 * naming the node index, name, op_type, domain and opset.  Contract:
 * doc/ir.md ("Front ends"). */
Graph *read_onnx(const char *path, const uint8_t *buf, size_t size,
                 const ImportOptions *o);
/* Reads a TensorProto .pb file (for --constant-input): its name ("" when
 * absent), dtype, shape and bytes (host order, arena); error_file() when
 * it is none. */
void read_tensor_pb(const char *path, const char **name, DType *dt, int *ndims,
                    int64_t *dims, const uint8_t **data, size_t *ndata);

/* ----------------------------------------------------------- verify.c */

/* Checks the IR invariants (every tensor read is a constant, a model
 * input, a variable or produced earlier; static shapes; legal dtypes).
 * Bad input -> error_at().  Also what the passes and the lowering add,
 * once they have run (views, Lowered records, in-place flags): a
 * violation there is a compiler bug -> die(). */
void verify(const Graph *g);
/* Run verify() after every pass and after the lowering: true unless
 * built with NDEBUG; the environment variable TINYAOT_VERIFY=0 or 1
 * overrides it (main.c). */
extern bool verify_each_pass;

/* ---------------------------------------------------------- control.c */

/* The structure ops IF, ELSE, END_IF, WHILE, WHILE_COND, END_WHILE
 * (control.c's opening comment has their layout). */
bool is_structure_op(OpKind k);
bool has_control_flow(const Graph *g);
/* Checks the markers' nesting, arities, copies, conditions and scoping
 * (control.c); nothing for a graph without them.  Bad input ->
 * error_at().  Called by verify(). */
void verify_control(const Graph *g);
/* Per op (arena): IF -> its ELSE -> its END_IF -> the IF, WHILE -> its
 * WHILE_COND -> its END_WHILE -> the WHILE; -1 for the other ops.  Needs
 * a graph verify_control() accepted (else die()). */
int *control_partners(const Graph *g);

/* ------------------------------------------------------- emit/print.c */

void print_inspect(FILE *out, const Graph *g, bool json);
/* Multiply-accumulates of op (0 for ops without matrix work). */
int64_t op_macs(const Graph *g, const Op *op);
/* The lowering (-dL): one line per op with its kernel (or "view: no
 * call"), its scratch bytes and the inputs its output may overwrite. */
void print_lowering(FILE *out, const Graph *g);

/* ------------------------------------------------------ passes/quant.c */

/* Host-side quantization arithmetic shared by the lowerings: the
 * parameters TFLite Micro's kernels compute in Prepare, computed here the
 * same way (same float/double steps), so the kernels in runtime/ get
 * exactly TFLM's numbers.  Functions returning bool return false where
 * TFLite would refuse the model (the caller reports it with error_at()).
 * `rounding` is TA_ROUND_DOUBLE (TFLM) or TA_ROUND_SINGLE (TFLite built
 * with TFLITE_SINGLE_ROUNDING); it changes a few saturation limits.
 * TA_ROUND_ORT (ONNX Runtime's float requantization) reaches only the
 * conv and fully connected multipliers (lower.c's op_rounding()). */

#include "ta_types.h"

/* QuantizeMultiplier: real = mult * 2^(shift - 31), |mult| in [2^30, 2^31)
 * (frexp, round half away from zero); 0 -> (0, 0); shift < -31 flushes
 * to (0, 0); single rounding saturates shift > 30 to (2^31 - 1, 30).
 * false for a non-finite real, a shift above 31, or (single rounding) a
 * negative real. */
bool quantize_multiplier(double real, int rounding, int32_t *mult, int32_t *shift);
/* QuantizeMultiplierSmallerThanOneExp: 0 < real < 1, shift <= 0. */
bool quantize_multiplier_smaller_than_one_exp(double real, int rounding,
                                              int32_t *mult, int32_t *shift);
/* QuantizeMultiplierGreaterThanOne: real > 1, shift >= 0. */
bool quantize_multiplier_greater_than_one(double real, int rounding,
                                          int32_t *mult, int32_t *shift);

/* CONV_2D, DEPTHWISE_CONV_2D (per channel or per tensor alike) and
 * per-channel FULLY_CONNECTED: real = (double)in * (double)filter /
 * (double)out (PopulateConvolutionQuantizationParams). */
bool conv_multiplier(float in_scale, float filter_scale, float out_scale, int rounding,
                     int32_t *mult, int32_t *shift);
/* Per-tensor FULLY_CONNECTED: real = (double)(float)(in * filter) /
 * (double)out - the float product of GetQuantizedConvolutionMultipler. */
bool fc_multiplier(float in_scale, float filter_scale, float out_scale, int rounding,
                   int32_t *mult, int32_t *shift);
/* TA_ROUND_ORT (both of the above under it): the float32 scale
 * in * filter / out as ONNX Runtime computes it, its bits in *mult,
 * *shift = 0; false when it is not a positive finite float. */
bool ort_multiplier(float in_scale, float filter_scale, float out_scale, int32_t *mult,
                    int32_t *shift);

/* CalculateActivationRangeQuantized: the [qmin, qmax] of dt (int8, uint8,
 * int16) narrowed by the fused activation: zero_point + round(f / scale)
 * (float division, round half away) for f = 0, 6, -1, 1.  false for
 * another dtype or ACT_TANH/ACT_SIGN_BIT. */
bool activation_range_quantized(Activation act, DType dt, float scale, int32_t zero_point,
                                int32_t *act_min, int32_t *act_max);
/* CalculateActivationRange (float): NONE -> [-FLT_MAX, FLT_MAX], RELU ->
 * [0, FLT_MAX], RELU6 -> [0, 6], RELU_N1_TO_1 -> [-1, 1]. */
bool activation_range_float(Activation act, float *act_min, float *act_max);

/* ComputeOutSize: SAME -> ceil(in / stride), VALID -> (in - effective
 * filter + stride) / stride with effective = (filter - 1) * dilation + 1;
 * -1 for sizes that are not positive or a result beyond int32. */
int32_t compute_out_size(Padding pad, int32_t in, int32_t filter, int32_t stride,
                         int32_t dilation);
/* ComputePaddingHeightWidth: output size and top/left padding
 * (max(0, ((out - 1) * stride + effective - in)) / 2) of one spatial axis;
 * call once for height and once for width.  The output size is -1 (no
 * tensor has it: the caller refuses the op) when a size is not positive
 * or (out - 1) * stride + effective exceeds int32. */
void compute_padding(Padding pad, int32_t in, int32_t filter, int32_t stride,
                     int32_t dilation, int32_t *out, int32_t *pad_before);

/* SOFTMAX int8 -> int8/int16: input_multiplier and input_left_shift from
 * PreprocessSoftmaxScaling(beta, input_scale, 5 integer bits), diff_min =
 * -CalculateInputRadius(5, left_shift, 31).  Fills p except outer/depth. */
/* CalculateInputRadius(integer_bits, left_shift, 31). */
int32_t calculate_input_radius(int integer_bits, int left_shift);
bool softmax_params(float beta, float input_scale, int rounding, ta_softmax_params *p);
/* The optional exp table of ta_softmax_s8/_s16 for parameters p: table[k]
 * = exp_on_negative_values(MultiplyByQuantizedMultiplierGreaterThanOne(-k))
 * for k = 0..255 (entries with -k < diff_min are 0 and never read).  The
 * caller emits it as const data and points p->exp_table at it. */
void softmax_exp_table(const ta_softmax_params *p, int32_t table[256]);

/* ADD: offsets, left_shift (20 for int8, 15 for int16 output), the three
 * multipliers (QuantizeMultiplierSmallerThanOneExp of s1 / (2 max(s1, s2)),
 * s2 / (2 max), 2 max / (2^left_shift * so)) and the activation range.
 * out_dt DT_INT8 or DT_INT16.  For float ADD use activation_range_float(). */
bool add_params(float s1, int32_t zp1, float s2, int32_t zp2, float so, int32_t zpo,
                DType out_dt, Activation act, int rounding, ta_add_params *p);
/* The optional input tables of ta_add_s8 for parameters p (int8 inputs):
 * t1[(uint8_t)x] = the scaled input-1 value of byte x, likewise t2.  The
 * caller emits them as const data and points p->table1/table2 at them;
 * then each element costs two look-ups and one requantization. */
void add_tables(const ta_add_params *p, int32_t t1[256], int32_t t2[256]);

/* QUANTIZE int -> int: multiplier/shift of (double)in_scale /
 * (double)out_scale (QuantizeMultiplier), zero points.  Fills p except
 * size. */
bool requant_params(float in_scale, int32_t in_zp, float out_scale, int32_t out_zp,
                    int rounding, ta_requant_params *p);

/* Folded biases for ta_conv2d_fold_s8 / ta_fully_connected_fold_s8
 * (filter [nout][per_out]) and ta_depthwise_conv2d_fold_s8 (filter
 * [taps][nout]): out[o] = (bias ? bias[o] : 0) + input_offset * sum of
 * filter row/column o.  out has nout entries. */
void fold_bias_s8(const int8_t *filter, int32_t nout, int32_t per_out, const int32_t *bias,
                  int32_t input_offset, int32_t *out);
void fold_bias_depthwise_s8(const int8_t *filter, int32_t taps, int32_t nout,
                            const int32_t *bias, int32_t input_offset, int32_t *out);

/* The walk of a broadcasting binary op: shapes (outermost first, ranks up
 * to TA_MAX_DIMS, aligned at the innermost dimension as numpy) -> b, with
 * size-1 output dimensions dropped and mergeable neighbours merged.  false
 * when the shapes do not broadcast.  The output shape itself is the
 * elementwise max; out_shape (may be NULL) receives it, *out_ndims its rank. */
bool make_broadcast(const int32_t *shape1, int n1, const int32_t *shape2, int n2,
                    ta_bcast *b, int32_t *out_shape, int *out_ndims);

/* ----------------------------------------------------- passes/passes.c */

/* passes/int8_io.c, --int8-io: makes each float input's QUANTIZE output
 * the model input and each float output's DEQUANTIZE input the model
 * output, and removes those ops (renumbering the rest).  A float input or
 * output without one, or nothing to drop -> error_at(). */
void drop_io_conversions(Graph *g);

/* Runs the graph passes in order: fold_constants, then mark_views. */
void run_passes(Graph *g);
/* Makes the output of every op whose output is bytewise its input
 * (RESHAPE, SQUEEZE, EXPAND_DIMS; QUANTIZE and CAST between identical
 * types) a view of that input: Tensor.view_of = the base (never itself a
 * view).  Not when the output is a variable or constant, or when the
 * base is a variable; not when the view's group (base and all its views)
 * would hold both a model input and a model output, or two model
 * outputs (the op then copies); a view of a constant only when it is
 * not a model output. */
void mark_views(Graph *g);

/* ------------------------------------------------------- passes/fold.c */

/* The output bytes of a SHAPE, a BROADCAST_ARGS of constant shapes or a
 * FILL of a constant value (arena; false for any other op, or when they
 * are not known at compile time). */
bool fold_value(const Graph *g, const Op *op, uint8_t **bytes, size_t *nbytes);
/* Turns each such op whose output is no model output into a constant
 * (Op.folded; fold.c says how).  Run by run_passes() before mark_views. */
void fold_constants(Graph *g);

/* ------------------------------------------------------- passes/lower.c */

/*
 * What lower() decides for one op: the kernel call the runner makes, as
 * data, so that emit.c prints every op the same way without knowing it.
 * Each argument is a tensor (emit.c turns it into its planned address or
 * its weights array), the op's scratch, or a constant object lower()
 * computed on the host (a params struct or an array).
 */
typedef enum {
  ARG_TENSOR,  /* index: a tensor of the graph */
  ARG_SCRATCH, /* the op's planned scratch, or NULL without one */
  ARG_CONST,   /* index: into Lowered.consts; passed as &obj / array */
  ARG_INT,     /* value: an integer literal */
  ARG_NULL,    /* a null pointer (an optional input left out) */
  ARG_INPUTS,  /* op inputs [index, index + value) as one array of
                  pointers (const void *const[]): CONCATENATION, PACK */
  ARG_OUTPUTS, /* op outputs [index, index + value) likewise (void
                  *const[]): SPLIT, SPLIT_V, UNPACK */
  ARG_STATE,   /* the op's persistent state (Op.state_bytes), or NULL */
} ArgKind;

typedef struct {
  ArgKind kind;
  int index;
  int64_t value;
} KernelArg;

/*
 * A constant object of one op.  A struct: ctype ("ta_conv_params") and
 * init, the initializer's text, in which "@NAME" stands for the symbol of
 * the op's constant NAME (emit.c substitutes it); with count > 0 an array
 * of count such structs (init is then a braced list), passed as the
 * array.  An array: init == NULL, dtype and count elements at data (host
 * byte order).
 */
typedef struct {
  const char *name; /* unique within the op: "params", "mult", "bias" */
  const char *ctype;
  const char *init;
  DType dtype;
  const void *data;
  size_t count;
} ConstObj;

/*
 * A kernel's declared overlap of output 0 with op input `input`.  The
 * access pattern: output pixels (N*OH*OW of them, each OC contiguous
 * elements) are written in blocks of `block[j]` consecutive pixels, in
 * increasing order, each block only after every input byte its pixels'
 * windows read (kh x kw taps, strides sh/sw, dilations dh/dw, padding
 * ph/pw over the input's NHWC tensor) has been read; later blocks read
 * nothing more.  Every block size listed is a path the kernel may take
 * (the portable C and the Arm DSP one), so a placement must suit all;
 * a block may be a whole image (the hybrid kernels quantize an image
 * before writing any of its outputs).
 * max_ahead: the output's base may lie at most this many bytes after
 * the input's base (negative: at least -max_ahead bytes before it),
 * derived by the lowering from the pattern; any lower base is legal too
 * (with chan_mod, only bases a multiple of chan_mod away).
 */
typedef struct {
  bool declared;
  int input;
  int64_t max_ahead;
  int32_t kh, kw, sh, sw, dh, dw, ph, pw;
  int32_t block[2];
  int nblocks;
  /* > 0: each output channel depends only on the same input channel
   * (depthwise), and the kernel may run channel group by channel group
   * over all pixels; the output's base must then lie a multiple of this
   * many bytes (one pixel) from the input's, so that every output channel
   * falls on its own input channel. */
  int32_t chan_mod;
  /* A block's outputs may be written while its own windows are still
   * being read (the float kernels re-read the window for each output
   * channel): every byte they write must lie below what the block itself
   * still reads, not only what later blocks read. */
  bool own_reads;
  /* The kernel reads its input rows into a ring, each row once and in
   * order (the 3 x 3 depthwise path, channel group by channel group:
   * chan_mod set), and writes output row y of an image once the rows its
   * windows need are in (through row y*sh - ph + kh - 1, dilation 1)
   * and before it reads the next; the blocks are the output rows and
   * what is still to be read when one is written starts at row
   * y*sh - ph + kh of that image (the next image's first when past the
   * last), not at the lowest row later windows touch.  Backwards
   * (reverse_kernel) the rows still to be read end at row y*sh - ph. */
  bool rows_once;
  /* The NHWC shapes the pattern walks when they are not the tensors' own
   * (view): the same elements, regrouped - ARG_MAX's [outer, axis] input
   * and [outer, 1] output, SignalRfft's frames.  Without it, the tensors'
   * shapes (rank at most 4, leading 1s added). */
  bool view;
  int64_t in_view[4], out_view[4];
  /* Non-NULL: a kernel computing the same bytes with the blocks walked
   * from the last to the first (ta_depthwise_conv2d_fold_rev_s8); with
   * it the output's base may also lie at least min_above bytes after
   * the input's (each block written only above every byte the earlier
   * blocks still read).  The emitter calls it when the plan places the
   * output there (Buffer.overlap_rev). */
  const char *reverse_kernel;
  int64_t min_above;
} OverlapDecl;

/*
 * A patched run (passes/patch.c, doc/memory-plan.md section 2d): ops
 * ops[0..nops-1], a chain of int8 CONV_2D / DEPTHWISE_CONV_2D, computed
 * band by band: band b produces output rows [rows[b*nops+nops-1].a, .e)
 * of the last op, each op j of it its output rows [a, e) from its input
 * rows [r0, r1) (halo rows recomputed).  The intermediates live only as
 * band buffers inside the last op's scratch: op j's (j < nops-1) at
 * buf_off[j], buf_bytes[j] bytes (the largest band's rows), the kernels'
 * scratch at scratch_off; total_bytes in all.  The run's input is op 0's
 * input 0, its output the last op's output 0.
 */
typedef struct {
  int32_t a, e;   /* output rows of the op in this band */
  int32_t r0, r1; /* input rows it reads */
} PatchRows;

typedef struct PatchRun {
  int nops;
  int *ops;               /* op indices, in run order */
  int *in_t, *out_t;      /* each op's input 0 and output 0 tensor */
  int *w_t;               /* each op's filter tensor (input 1) */
  size_t *op_scratch;     /* each op's kernel scratch bytes */
  struct Lowered **orig;  /* each op's lowering before the run took it */
  int nbands;
  PatchRows *rows;        /* rows[b * nops + j] */
  size_t *buf_off, *buf_bytes; /* j < nops - 1 */
  size_t scratch_off, scratch_bytes;
  size_t total_bytes;
  int64_t macs, plain_macs; /* MACs of the run's ops: patched, unpatched */
} PatchRun;

typedef struct Lowered {
  const char *kernel; /* "ta_conv2d_s8"; NULL: no call (a view) */
  bool user_kernel;   /* a function the user supplies (--custom-op): declared
                         in the runner, not taken from the runtime */
  KernelArg *args;
  int nargs;
  ConstObj *consts;
  int nconsts;
  /* In-place: bit k set = the kernel may run with output 0 at the very
   * address of op input k (the pointers equal), because input k has
   * output 0's byte size and each output element depends only on input
   * k's element of the same index (other inputs aside), which the kernel
   * reads before writing that output element, reading no input k element
   * of a lower index afterwards.  Elementwise kernels qualify (ADD/SUB/
   * MUL of a non-broadcast input, requantization, activations); anything
   * reading neighbours (convolutions, pools) does not.  A lowering sets
   * it with may_run_in_place(); the planner decides whether to use it
   * (storage.c, mark_inplace). */
  uint32_t inplace;
  /* Overlap (doc/memory-plan.md, 2c): the output may partly overlap one
   * input, at a distance the kernel's loop order allows.  Declared by the
   * lowering (overlap_conv() in lower_nn.c); the planner uses max_ahead,
   * the checker re-derives legality from the access pattern alone. */
  OverlapDecl overlap;
  /* The lean form of a convolution runs (LowerOptions.lean_ops): less
   * scratch, slower. */
  bool lean;
  /* The kernel may return TA_PENDING (CIRCULAR_BUFFER): the runner then
   * returns at once, so every op before this one in model order runs
   * before it and every op after it after it, in every schedule. */
  bool pends;
  /* Non-NULL: the op belongs to this patched run (patch.c); only the
   * run's last op (patch_end) makes calls, those of every band. */
  const PatchRun *patch;
  bool patch_end;
  /* An int8 ADD computed in op fused_op's epilogue (lower_fuse.c): no
   * call of its own, no inputs or outputs left (that op reads the
   * residual and writes the ADD's output). */
  bool fused;
  int fused_op;
} Lowered;

/* A custom op the user implements: --custom-op NAME=function
 * [--custom-op-scratch NAME=BYTES]. */
typedef struct {
  const char *name;     /* the custom op's name in the model */
  const char *function; /* the C function the runner calls */
  size_t scratch;       /* bytes of scratch it gets */
} CustomKernel;

typedef struct {
  int rounding; /* TA_ROUND_DOUBLE (TFLite Micro, default), TA_ROUND_SINGLE or TA_ROUND_ORT */
  const CustomKernel *custom; /* user-supplied kernels for custom ops */
  int ncustom;
  /* The plan's buffer alignment (--align; 0: the default, 16): kernel
   * paths that need an aligned scratch are picked only when it is. */
  size_t align;
  /* --fuse-add: residual ADDs run in their convolution's epilogue
   * (lower_fuse.c); --ram-limit sets it when that lowers the RAM. */
  bool fuse_add;
  /* --lean-conv: the ops (indices) whose convolution runs its lean DSP
   * form (the same bytes, slower, less scratch): a CONV_2D two output
   * pixels per block in half the columns, a 3 x 3 DEPTHWISE_CONV_2D
   * through the DSP entry for any filter, no ring of rows; --ram-limit
   * names the convolution at a RAM peak when nothing else fits. */
  const int *lean_ops;
  int nlean;
  /* --optimize speed: CONV_2D's DSP path over filters widened to int16
   * on the host (ta_conv2d_fold_wide_dsp_s8: fewer instructions, twice
   * the filter's flash), for an even number of output channels and
   * neither lean nor, with --fuse-add, fused. */
  bool wide_filters;
} LowerOptions;

/* Picks a kernel for every op, computes its constant parameters and asks
 * it for its scratch size: sets Op.lowered and Op.scratch_bytes.  Needs
 * mark_views() first (a view needs no call).  An op or a dtype
 * combination no kernel handles -> error_at() naming it. */
void lower(Graph *g, const LowerOptions *o);
/* What lower() does without stopping: lowers every op it can, sets
 * Op.refused of each it cannot, and returns how many those are.  lower()
 * reports them all in one error (lower.c); `tinyaot inspect` marks them.
 * The Lowered records of a graph with refusals serve reports only. */
int check_lowering(Graph *g, const LowerOptions *o);
static inline Lowered *op_lowered(const Op *op) { return (Lowered *)op->lowered; }

/* ------------------------------------------------------- passes/patch.c */

/* Turns ops start..end (a chain of int8 CONV_2D / DEPTHWISE_CONV_2D
 * whose intermediates nothing else reads) into a patched run of nbands
 * row bands of op end's output (doc/memory-plan.md, 2d).  Needs lower().
 * Ops start..end-1 keep their constants but no longer read or write
 * tensors; op end reads the run's input (op start's input 0, a whole
 * planned tensor) and its own constants, writes the run's output, and its
 * scratch holds the band buffers.  A run that cannot be patched ->
 * error_at() naming the op; but with why non-NULL, a band that would read
 * no row of some op's input -> NULL, the graph untouched, *why saying so. */
const PatchRun *patch_graph(Graph *g, int start, int end, int nbands, const char **why);
/* A run as --patch takes it: "END:N" from op 0, "START:END:N" else. */
const char *patch_spec(int start, int end, int nbands);
/* The kernel each band of a run calls for op l (its kind's per-call
 * dispatcher, which takes any band's rows and padding). */
const char *patch_band_kernel(const Lowered *l);
/* The last op of the longest chain from op start patch_graph() accepts,
 * or -1 (no chain of two ops). */
int patch_max_end(const Graph *g, int start);

/* ------------------------------ memory/: storage.c, schedule.c, plan.c */

/*
 * The memory plan (doc/memory-plan.md).  Every non-constant tensor the
 * run function touches gets a Buffer (its storage id is its index in
 * Plan.bufs); views share their base's Buffer; each op with kernel
 * scratch gets one more.  A Buffer lives from the step that first writes
 * it to the step that last reads it (steps index Plan.order).  Buffers
 * whose lifetimes overlap never share a byte of the same pool.
 *
 * Where a tensor's bytes are: bufs[t->storage] is
 *   external    the caller's pointer for model input/output `io`;
 *   persistent  `offset` bytes into the persistent area (variables);
 *   otherwise   `offset` bytes into pool `pool` (Plan.pools[pool]).
 * A view of a constant has storage -1 and view_of = the constant.
 */

#define MAX_POOLS 32

/* A memory pool: one region the caller provides ("workspace" by default). */
typedef struct {
  const char *name;
  size_t limit; /* bytes; SIZE_MAX = unbounded */
  size_t used;  /* bytes the plan needs in it */
} Pool;

/* One planned buffer: the storage of one or more tensors (a base and its
 * views), or one op's kernel scratch. */
typedef struct {
  int id;           /* storage id */
  size_t bytes;     /* exact size: elements * ceil(bits / 8) */
  size_t align;     /* offset alignment, a power of two */
  int first, last;  /* schedule steps: first write, last read (inclusive) */
  int *tensors;     /* tensors stored here, base first; empty for scratch */
  int ntensors;
  int scratch_op;   /* >= 0: scratch of this op, live only during it */
  int state_op;     /* >= 0: this op's own state (persistent, no tensor) */
  int inplace_of;   /* >= 0: the buffer whose bytes this one takes over at
                       its first step (an op running in place), sharing
                       exactly its offset; else -1 */
  bool overlap;     /* this buffer (an op's output 0) may share bytes with
                       buffer overlap_of (that op's input, dying there) at
                       its first step: its offset is at most overlap_max
                       bytes above overlap_of's (Lowered.overlap) */
  int overlap_of;
  int64_t overlap_max;
  int64_t overlap_mod; /* > 0: the offsets must differ by a multiple of it */
  bool overlap_rev_ok; /* ... or at least overlap_min bytes above it, the op
                          then running its kernel backwards
                          (OverlapDecl.reverse_kernel) */
  int64_t overlap_min;
  bool overlap_rev;    /* set by the placement: this pair shares bytes above
                          overlap_max, so the backward kernel runs */
  bool persistent;  /* variable tensor or op state: in the persistent
                       area, never shared */
  bool external;    /* model input/output in a caller buffer: not planned */
  int io;           /* external: the model input/output tensor, else -1 */
  uint32_t pool_mask; /* pools it may go to (bit p = Plan.pools[p]); 0 = any */
  int pool;         /* index into Plan.pools (-1: external or persistent) */
  size_t offset;    /* within its pool (or the persistent area) */
} Buffer;

typedef struct {
  Pool *pools;          /* in order of preference; none: one unbounded
                           pool called "workspace" */
  int npools;
  size_t align;         /* 0: 16 */
  bool io_in_workspace; /* plan inputs/outputs inside the workspace */
  const char *algo;     /* NULL: "best" */
  const char *schedule; /* "model", "memory", NULL/"best" (schedule.c) */
  bool no_inplace;      /* never let an op's output take over its input */
  bool no_overlap;      /* never let an op's output overlap its input */
  bool may_miss;        /* a plan that does not fit is returned (Plan.missing
                           > 0, unchecked) instead of refused */
} PlanOptions;

/* What one algorithm achieved on the buffers. */
typedef struct {
  const char *algo;
  size_t bytes;   /* all pools summed */
  size_t missing; /* 0: everything fits; else bytes beyond the pools */
  double seconds; /* wall time: for reports only, never for decisions */
} AlgoResult;

#define PLAN_NALGOS 4 /* linear, greedy-size, greedy-conflicts, search */

typedef struct {
  Buffer *bufs;
  int nbufs;
  Pool *pools;
  int npools;
  int *order;           /* schedule: op indices in execution order */
  int norder;
  int nsteps;           /* max(norder, 1) */
  size_t lower_bound;   /* largest sum of live buffer sizes at one step:
                           the whole-tensor bound (ops in place counted) */
  size_t overlap_bound; /* the same with each overlapping pair counted as
                           the least span it can take (<= lower_bound) */
  int noverlap;         /* buffers planned overlapping their op's input */
  int peak_step;        /* a step where that sum is reached */
  size_t workspace_bytes;  /* all pools' used bytes summed */
  size_t persistent_bytes;
  bool io_in_workspace;
  const char *algo;     /* the algorithm whose result was kept */
  const char *schedule; /* "model" or "memory": the order kept */
  size_t model_order_bytes; /* the workspace in model order (the same as
                               workspace_bytes when that was kept) */
  int ninplace;         /* buffers planned in place (inplace_of >= 0) */
  size_t missing;       /* bytes beyond the pools (PlanOptions.may_miss) */
  AlgoResult results[PLAN_NALGOS]; /* every algorithm that ran */
  int nresults;
} Plan;

/* storage.c.  Builds Plan.bufs for g (after mark_views): one Buffer per
 * base tensor the runner touches (in tensor order), then one per op with
 * scratch_bytes > 0, then one per op with state_bytes > 0 (persistent).
 * Sets Tensor.storage, Op.scratch_buffer and Op.state_buffer; marks
 * inputs/outputs external unless opt->io_in_workspace, variables
 * persistent.  Lifetimes are left to set_lifetimes(). */
void assign_storage(Graph *g, Plan *p, const PlanOptions *opt);

/* schedule.c.  The model's order: op indices 0..nops-1 (arena);
 * *norder = g->nops. */
int *model_order(const Graph *g, int *norder);
/* An order of all g->nops ops minimising the peak of live bytes, in-place
 * ops counted as sharing when `inplace` (needs assign_storage's buffers;
 * lifetimes are not read).  Exact while the sets of ops run at each step
 * fit the search's beam (schedule_beam_width; 0, the default, derives it
 * from the graph's size), a beam search beyond.  *peak: the peak it
 * reaches, as live_lower_bound() will count it after set_lifetimes()
 * and mark_inplace(). */
int *memory_order(const Graph *g, const Plan *p, bool inplace, size_t *peak);
extern int schedule_beam_width;
bool is_schedule_name(const char *name); /* model, memory or best */
/* Sets every Buffer's first/last step from p->order: a tensor lives from
 * the step that writes it (model inputs: step 0) to the last step that
 * reads it (model outputs: the last step); scratch during its op;
 * variables always. */
void set_lifetimes(const Graph *g, Plan *p);
/* Sets Buffer.inplace_of (and Plan.ninplace) for every op that may run
 * in place in p->order (Lowered.inplace) and whose input dies at its
 * step; the others -1.  Needs set_lifetimes(). */
void mark_inplace(const Graph *g, Plan *p);
/* Sets Buffer.overlap (and Plan.noverlap) for every op whose lowering
 * declares an overlap with input k (Lowered.overlap), whose output 0's
 * buffer begins at its step and is not in place, and whose input k's
 * buffer ends there, in the same pools, holding no model output and no
 * other input of the op.  Needs mark_inplace(). */
void mark_overlaps(const Graph *g, Plan *p);

/* plan.c - the algorithms work on a plain list of Buffers, no Graph.
 * Buffers that are external or persistent are skipped. */
extern const char *const plan_algo_names[PLAN_NALGOS];
bool is_plan_algo(const char *name); /* one of the names, or "best" */
/* Largest sum of bytes of planned buffers live at one step; *peak_step
 * (may be NULL) gets the first step reaching it.  A buffer planned in
 * place (inplace_of >= 0) shares its first step's bytes with the buffer
 * it takes over, so it counts from the step after. */
size_t live_lower_bound(const Buffer *bufs, int nbufs, int *peak_step);
/* live_lower_bound() with each overlapping pair (Buffer.overlap) counted,
 * at the step they meet, as the least span the two can cover. */
size_t overlap_lower_bound(const Buffer *bufs, int nbufs);
/* Places every planned buffer with `algo` (a name or "best"): sets
 * pool/offset of each and pools[].used.  A buffer with inplace_of >= 0
 * gets exactly the offset and pool of the buffer it takes over (both
 * must be planned, of equal bytes and pool_mask, the one's lifetime
 * starting where the other's ends); they are placed as one.  Buffers go to the first allowed
 * pool, in order, where they fit.  Fills results[] (PLAN_NALGOS entries)
 * with each algorithm run and returns the index of the one kept.  When
 * nothing fits, the kept result has missing > 0 (offsets are then
 * meaningless).  Deterministic: same input, same plan. */
int place_buffers(Buffer *bufs, int nbufs, Pool *pools, int npools,
                  const char *algo, AlgoResult *results, int *nresults);
/* Iterations of the search; 0 (default): from the problem's size alone
 * (up to 3,000, fewer for large problems).  Tests lower it for speed. */
extern int plan_search_iterations;

/* Storage + schedule + lifetimes + placement + check: the whole planner.
 * Errors: pools too small -> error_at() naming the bytes missing and the
 * step with the largest live set.  A plan the checker rejects -> die(). */
Plan *plan_graph(Graph *g, const PlanOptions *opt);
/* Human-readable table, one JSON object, or an SVG picture of the plan. */
void print_plan(FILE *out, const Graph *g, const Plan *p);
void print_plan_json(FILE *out, const Graph *g, const Plan *p);
void print_plan_svg(FILE *out, const Graph *g, const Plan *p);
/* The picture print_plan_svg() writes; html: with hooks for the
 * report's script (class and data-b attributes).  plan_buffer_name():
 * a buffer named after the layer producing it ("#3 CONV_2D"). */
void print_plan_picture(FILE *out, const Graph *g, const Plan *p, bool html);
const char *plan_buffer_name(const Graph *g, const Plan *p, const Buffer *b);
const char *human_bytes(size_t n); /* "12.5 KiB" (arena) */

/* check.c - the independent checker, written apart from the algorithms.
 * check_buffers(): no two buffers of one pool with overlapping lifetimes
 * share a byte, every buffer lies inside its pool (and the pool inside
 * its limit), every offset is aligned; persistent buffers are disjoint
 * and inside persistent_bytes.  Returns NULL when the plan holds, else
 * the first violation (arena string).  check_plan() also recomputes from
 * the graph that every touched tensor has a buffer large enough and live
 * whenever the tensor is written or read. */
const char *check_buffers(const Buffer *bufs, int nbufs, const Pool *pools,
                          int npools, size_t persistent_bytes);
const char *check_plan(const Graph *g, const Plan *p);

/* --------------------------------------------------- runtime_catalog.c */

/* The runtime's text, compiled into tinyaot (mk/emit.mk). */
typedef struct {
  const char *path; /* "runtime/conv/ta_conv2d_s8.c" */
  const char *text;
} EmbeddedFile;
extern const EmbeddedFile runtime_files[];
extern const int nruntime_files;
/* Does a runtime .c file define the function `fn` (a kernel)? */
bool runtime_defines(const char *fn);
/* The index in runtime_files[] of the .c file defining `fn`, or -1. */
int runtime_file_defining(const char *fn);
/* Marks in need[nruntime_files] the files a build of these kernels needs:
 * every header, each kernel's file and, transitively, the files of the
 * ta_* functions those mention.  Returns NULL, or the first kernel no
 * file defines. */
const char *runtime_select(const char *const *kernels, int nkernels, bool *need);

/* ------------------------------------------------------------ help.c */

/* The short usage (every command's synopsis). */
void print_usage(FILE *f);
/* `tinyaot help [COMMAND]`: the commands, or one command and each of its
 * options described.  -1 for an unknown command (nothing printed). */
int print_help(FILE *f, const char *command);
/* The man page, roff (doc/tinyaot.1). */
void print_man(FILE *f);

/* -------------------------------------------------------- emit/emit.c */

typedef struct {
  const char *prefix;   /* C identifier for every generated name */
  const char *model;    /* the model's file name, for comments */
  bool io_in_workspace; /* as planned: adds <prefix>_io() */
  bool profile;         /* --profile: a hook around every op (profile.c) */
  bool force;           /* --force: replace files tinyaot did not write */
  const char *model_path; /* the input model: never overwritten */
  const char *model_sha256; /* the model file's SHA-256 (hex), or NULL */
  const char *options;      /* the compile options as given, for the header */
  const char *runtime_dir;  /* --runtime DIR: refer to a shared runtime
                               (tinyaot runtime) instead of copying kernels;
                               NULL: embedded */
  const char *weights_section; /* the weights' linker section; NULL: ".weights" */
  const char *weights_blob; /* --weights-blob FILE: the constant tensors go
                               there, bound at run time (blob.c) */
  bool flat_include;        /* the runtime's public headers beside the
                               model's, not in runtime/include (package.c) */
  const char *package;      /* --package KIND, or NULL: emit_folder() writes
                               the package's files too (package.c), the
                               sources under DIR/src when package_uses_src() */
} EmitOptions;

/* The files emit_folder() wrote, relative to its folder: the C sources (for a
 * host build) and the include folders. */
typedef struct {
  const char **sources;
  int nsources;
  const char **in_names;  /* struct <prefix>_inputs members, in order */
  const char **out_names; /* struct <prefix>_outputs members */
} EmitResult;

/* Writes the generated folder DIR (created if needed): <prefix>.h,
 * <prefix>.c, <prefix>_weights.c, <prefix>_plan.json, <prefix>.mk,
 * CMakeLists.txt and runtime/ (the sources of the kernels used).  Needs
 * lower() and the plan.  Same graph, plan and options -> the same bytes.
 * With o->package, the package's files too, all through one OutDir
 * (outdir.c), the sources under DIR/src for package_uses_src() kinds (r's
 * paths are then relative to DIR/src).
 * A file that cannot be written -> error_file(). */
EmitResult emit_folder(const Graph *g, const Plan *p, const EmitOptions *o,
                       const char *dir);
/* Does the lowered graph hold an op whose kernel returns TA_PENDING on
 * some calls (CIRCULAR_BUFFER)?  Then <prefix>_run() may return
 * <PREFIX>_PENDING, which the header defines. */
bool model_pends(const Graph *g);

/* ------------------------------------------------ emit/const_set.c */

/* A constant array by content: a constant tensor (op < 0, k its index)
 * or op's k-th lowered array. */
typedef struct {
  int op, k;
  DType dtype;
  size_t bytes;
  const void *data;
} ConstSlot;
typedef struct ConstSet ConstSet;
/* A set for at most `most` arrays (in the arena). */
ConstSet *const_set_new(size_t most);
/* The earlier slot equal to *c (tensor or lowered alike, dtype, bytes),
 * or NULL after adding c. */
const ConstSlot *const_set_intern(ConstSet *s, const ConstSlot *c);

/* ------------------------------------- emit/report.c, report_size.c */

/* Flash of a generated folder by category (report_size.c). */
enum { FLASH_CODE, FLASH_WEIGHTS, FLASH_KERNELS, FLASH_LIB, FLASH_NCAT };
typedef struct {
  size_t bytes[FLASH_NCAT]; /* the runner, weights, kernels, C library */
  size_t size_total;        /* arm-none-eabi-size text + data (measured) */
  bool measured;            /* false: estimated from the graph */
  const char *target;       /* "Cortex-M4F, -O2 ..." */
  const char *note;         /* how it was obtained, or why estimated */
} Flash;
/* Compiles and links the folder emit_folder() wrote in dir (its
 * `sources`) for a Cortex-M4F with the cross toolchain when there is
 * one, else estimates; never fails. */
void measure_flash(const Graph *g, const char *dir, const char *prefix,
                   const char **sources, int nsources, Flash *fl);

typedef struct {
  const char *options;      /* the compile options as given, for the record */
  const char *prefix;
  const char *profile_data; /* a file `tinyaot run --profile-out` wrote, or NULL */
  const char *sha256;       /* the model file's SHA-256 (hex) */
  const Flash *flash;
} ReportOptions;
/* `tinyaot report`: one self-contained HTML page (inline CSS, script and
 * SVG; nothing fetched) or, json, the same data as one JSON object
 * (doc/report.md).  Needs lower() and the plan.  A profile file that
 * cannot be read or does not fit the model -> error_file(). */
void write_report(FILE *out, const Graph *g, const Plan *p,
                  const ReportOptions *o, bool json);

/* emit/profile.c - per-op profiling (compile --profile): the hook call
 * before (phase 0) or after (phase 1) op in the runner, its declarations
 * in <p>.h, and <p>_profile.c, the default hook and its counters. */
void put_profile_call(FILE *f, const Graph *g, const char *prefix, int op, int phase);
void put_profile_decls(FILE *f, const Graph *g, const char *prefix, const char *U);
struct OutDir;
void emit_profile_source(const Graph *g, struct OutDir *out, const char *prefix,
                         const char *U);
/* ------------------------------------------------------- emit/names.c */

/* Checks the identifiers the user gives that reach the generated C (the
 * prefix, pool names, custom-op functions) against keywords, reserved
 * names, the runtime's and the standard headers' names and each other.
 * NULL, or a message naming the option (names.c lists the rules). */
const char *check_c_names(const char *prefix, bool prefix_given,
                          const Pool *pools, int npools,
                          const CustomKernel *custom, int ncustom);
/* Would s, as an identifier of the generated code, clash (names.c)? */
bool c_name_reserved(const char *s);

/* ------------------------------------------------------ emit/outdir.c */

/* Writing a folder safely (outdir.c's opening comment): files go to a
 * temporary folder beside DIR and move into DIR at outdir_commit(),
 * which refuses to replace a file that DIR/.tinyaot-manifest does not
 * list (unless force) or that is `protect` (the input model), and removes
 * the files of the previous manifest it did not write again.  Any error
 * removes the temporary folder; DIR is then as it was. */
typedef struct OutDir OutDir;
typedef struct {
  bool force;          /* replace files tinyaot did not write */
  const char *protect; /* a file never replaced or removed, or NULL */
} OutDirOptions;
OutDir *outdir_begin(const char *dir, const OutDirOptions *o);
/* Opens DIR/rel (rel: a path inside DIR, its folders made as needed). */
FILE *outdir_open(OutDir *d, const char *rel);
/* From now on, rel paths of outdir_open/close/path are inside DIR/sub
 * ("" or NULL: DIR itself); the manifest lists the full paths. */
void outdir_set_base(OutDir *d, const char *sub);
/* Where DIR/rel is being written (in the temporary folder), to read back
 * a file written before the commit. */
const char *outdir_path(const OutDir *d, const char *rel);
void outdir_close(OutDir *d, FILE *f, const char *rel);
void outdir_commit(OutDir *d);
void outdir_discard(OutDir *d); /* drops everything written */

/* Refuses (error_file) a host compiler command whose program cannot be
 * run: a path that is not executable, a name not on $PATH. */
void check_compiler(const char *cc);

/* rm -r DIR (a folder tinyaot made). */
void remove_tree(const char *dir);

/* ------------------------------------------------ emit/runtime_out.c */

/* `tinyaot runtime`: writes the runtime into DIR (include/, one folder
 * per kernel family, runtime.mk, CMakeLists.txt): the files these
 * kernels need, or every file when kernels is NULL.  An unknown kernel
 * or a file that cannot be written -> error_file(). */
void emit_runtime_library(const char *dir, const char *const *kernels, int nkernels);
/* runtime_files[file]'s path inside such a DIR ("conv/ta_conv2d_s8.c"). */
const char *runtime_library_path(int file);
/* NULL when DIR holds every file marked in need[nruntime_files] (and its
 * runtime.mk), else the first one missing. */
const char *runtime_missing(const char *dir, const bool *need);
/* The path of existing folder `to` relative to folder `from` (which may
 * not exist yet: compile writes its folder last). */
const char *relative_dir(const char *from, const char *to);

/* ------------------------------------------------- emit/io_helpers.c */

/* The header's static inline <P>_quantize_<kind><i>(float) and
 * <P>_dequantize_<kind><i>(q) for tensor t ("input" or "output" i), when
 * it is a quantized int8, uint8 or int16 tensor with one scale. */
void put_io_helpers(FILE *f, const char *P, const char *U, const char *kind, int i,
                    const Tensor *t);

/* ---------------------------------------------------- emit/package.c */

/* --package KIND: cmake, zephyr, esp-idf, arduino or platformio. */
bool is_package_kind(const char *kind);
/* Whether KIND puts the sources under DIR/src with the runtime's headers
 * beside the model's (EmitOptions.flat_include): arduino, platformio. */
bool package_uses_src(const char *kind);
/* Writes KIND's files into out (the model's folder, before its commit:
 * they are listed in its manifest like every generated file), after
 * emit_folder() wrote r there (or under src/ when package_uses_src()).
 * error_file() on a write error. */
void emit_package(const char *kind, OutDir *out, const EmitOptions *o,
                  const EmitResult *r);

/* ------------------------------------------------------- emit/blob.c */

/* The weights image (--weights-blob; the format in blob.c's opening
 * comment).  write_weights_blob() writes the header and payload to path
 * (error_file() on failure) and returns the payload's CRC-32;
 * put_blob_interface() prints the header's part (sizes, status codes,
 * <P>_bind_weights()); put_blob_binder() the runner's (the bound pointer
 * <P>_blob and the checks). */
size_t blob_header_size(void);
uint32_t write_weights_blob(const char *path, const char *sha256_hex,
                            const uint8_t *payload, size_t size);
void put_blob_interface(FILE *f, const char *P, const char *U, size_t size);
void put_blob_binder(FILE *f, const char *P, const char *U, const char *sha256_hex,
                     size_t size);

/* ------------------------------------------------------------- run.c */

typedef struct {
  const char *cc;     /* host compiler: $CC, default "cc" */
  const char *cflags; /* extra flags: $TINYAOT_CFLAGS */
  const char *keep;   /* build here and keep it; NULL: a temporary folder */
  const char *dump;   /* write every tensor of the first inference here */
  const char *state_dir; /* after inference k, every variable tensor as
                            state_dir/step<k>/t<N>.bin */
  bool reset_each;    /* <prefix>_reset() before every inference (each
                         starts from the reset state); default: once */
  const char *profile_out; /* with EmitOptions.profile: write the per-op
                               table here (doc/report.md's format) */
  const char **sources; /* more C files to build with the runner: the
                           user's kernels for --custom-op */
  int nsources;
} RunOptions;

/* Builds the folder emit_folder() wrote into DIR together with a harness, and
 * runs it: ninputs files per inference in `inputs`, noutputs in
 * `outputs` (k inferences: k * model inputs, k * model outputs files).
 * The harness gives the runner exactly <PREFIX>_WORKSPACE_SIZE bytes
 * between guard zones and checks them after every inference.  Returns
 * the process status (0: every inference ran and returned TA_OK). */
int build_and_run(const Graph *g, const Plan *p, const EmitOptions *eo,
                  const EmitResult *er, const char *dir, const RunOptions *ro,
                  char **inputs, int ninputs, char **outputs, int noutputs);


#endif
