/*
 * tinyaot.h - the one header of the compiler.  Read this first.
 *
 * tinyaot turns a .tflite model into C99: a run function that calls one
 * kernel per op, the weights as const arrays, and a static memory plan.
 * The pipeline (main.c, compile()) is a plain list of calls:
 *
 *   read_tflite -> verify -> run_passes -> lower -> assign_storage
 *     -> schedule -> plan_memory (+ check_plan) -> emit
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
  X(INT4, 17, "int4", 4)

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
  const char *name;
  DType dtype;
  int ndims;
  int32_t dims[MAX_DIMS];
  Quant q;
  const uint8_t *data; /* constant bytes (points into the file), or NULL */
  size_t ndata;        /* bytes at data */
  bool is_variable;    /* persistent state (LSTM/SVDF) */
  bool is_input;       /* a model input */
  bool is_output;      /* a model output */
  int producer;        /* index of the op that writes it, or -1 */
  int storage;         /* storage id (storage.c), -1 when not planned */
  int view_of;         /* tensor this one aliases (passes.c), or -1 */
} Tensor;

/*
 * Builtin options of every op kind, flattened: each op reads the fields
 * its TFLite options table has; the rest stay at their defaults (0,
 * except where noted in tflite.c).
 */
typedef struct {
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
  int nnew_shape;    /* RESHAPE new_shape (may be absent: -1) */
  int32_t new_shape[MAX_DIMS];
  int nsqueeze_dims; /* SQUEEZE */
  int32_t squeeze_dims[MAX_DIMS];
  float cell_clip, proj_clip; /* LSTM */
  bool time_major;            /* LSTM */
  int rank;                   /* SVDF */
  bool pot_scale_int16;       /* ADD/SUB int16 (default true) */
} Options;

typedef struct Op {
  int index; /* position in subgraph 0's operator list (model order) */
  OpKind kind;
  int version;              /* operator code version */
  const char *custom_name;  /* OP_CUSTOM only */
  const uint8_t *custom_options;
  size_t ncustom_options;
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
} Op;

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
extern char error_message[1024];
extern jmp_buf *error_jmp;
TA_NORETURN void error_at(const Graph *g, int op, const char *fmt, ...)
    TA_PRINTF(3, 4);
/* The same for a file that is not (yet) a Graph. */
TA_NORETURN void error_file(const char *path, const char *fmt, ...)
    TA_PRINTF(2, 3);

/* Compiler bugs. */
TA_NORETURN void die_at(const char *file, int line, const char *fmt, ...)
    TA_PRINTF(3, 4);
#define die(...) die_at(__FILE__, __LINE__, __VA_ARGS__)
#define unreachable() die_at(__FILE__, __LINE__, "unreachable")

/* Reads a whole file into arena memory; error_file() on failure. */
uint8_t *read_file(const char *path, size_t *size);

/* Tensor helpers. */
int64_t tensor_elems(const Tensor *t);
size_t tensor_bytes(const Tensor *t);   /* elems * ceil(bits / 8) */
bool is_const(const Tensor *t);         /* has data in the model */

/* ----------------------------------------------------------- tflite.c */

/* Parses a .tflite file held in memory (not copied: the Graph points into
 * `buf`, which must outlive it).  Every offset is bounds-checked; any
 * problem ends in error_at()/error_file().  Reads subgraph 0 only and
 * refuses models with control flow. */
Graph *read_tflite(const char *path, const uint8_t *buf, size_t size);

/* ----------------------------------------------------------- verify.c */

/* Checks the IR invariants (every tensor read is a constant, a model
 * input, a variable or produced earlier; static shapes; legal dtypes).
 * Bad input -> error_at(). */
void verify(const Graph *g);

/* ----------------------------------------------------------- print.c */

void print_inspect(FILE *out, const Graph *g, bool json);

/* ----------------------------------------------------------- quant.c */

/* Host-side quantization arithmetic shared by the lowerings
 * (TFLite's QuantizeMultiplier and friends). */

/* ----------------------------------------------------------- passes.c */

/* Runs the graph passes in order (mark_views for now). */
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

/* ----------------------------------------------------------- lower.c */

/* ------------------------------------------- storage.c, schedule.c, plan.c */

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
  bool persistent;  /* variable tensor: in the persistent area, never shared */
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
  size_t lower_bound;   /* largest sum of live buffer sizes at one step */
  int peak_step;        /* a step where that sum is reached */
  size_t workspace_bytes;  /* all pools' used bytes summed */
  size_t persistent_bytes;
  bool io_in_workspace;
  const char *algo;     /* the algorithm whose result was kept */
  AlgoResult results[PLAN_NALGOS]; /* every algorithm that ran */
  int nresults;
} Plan;

/* storage.c.  Builds Plan.bufs for g (after mark_views): one Buffer per
 * base tensor the runner touches (in tensor order), then one per op with
 * scratch_bytes > 0.  Sets Tensor.storage and Op.scratch_buffer; marks
 * inputs/outputs external unless opt->io_in_workspace, variables
 * persistent.  Lifetimes are left to set_lifetimes(). */
void assign_storage(Graph *g, Plan *p, const PlanOptions *opt);

/* schedule.c.  The execution order: model order.  Returns op indices
 * (arena); *norder = g->nops. */
int *schedule_ops(const Graph *g, int *norder);
/* Sets every Buffer's first/last step from p->order: a tensor lives from
 * the step that writes it (model inputs: step 0) to the last step that
 * reads it (model outputs: the last step); scratch during its op;
 * variables always. */
void set_lifetimes(const Graph *g, Plan *p);

/* plan.c - the algorithms work on a plain list of Buffers, no Graph.
 * Buffers that are external or persistent are skipped. */
extern const char *const plan_algo_names[PLAN_NALGOS];
bool is_plan_algo(const char *name); /* one of the names, or "best" */
/* Largest sum of bytes of planned buffers live at one step; *peak_step
 * (may be NULL) gets the first step reaching it. */
size_t live_lower_bound(const Buffer *bufs, int nbufs, int *peak_step);
/* Places every planned buffer with `algo` (a name or "best"): sets
 * pool/offset of each and pools[].used.  Buffers go to the first allowed
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

/* ----------------------------------------------------------- emit.c */

#endif
