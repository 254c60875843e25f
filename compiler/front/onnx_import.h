/* SPDX-License-Identifier: Apache-2.0 */
/*
 * onnx_import.h - what the files of the ONNX importer share: the state
 * of one import (Imp) and the functions one file calls in another.
 * Private to front/.
 *
 * The parsed ONNX graph (onnx.c) -> the IR.
 *
 * Nodes are imported in file order (ONNX graphs are topologically
 * sorted).  Every ONNX value becomes a Val (onnx.h):
 *   - a constant (initializer, Constant node, or any node whose inputs
 *     are all constant and whose op onnx_fold.c can evaluate on the host:
 *     Shape, Gather, Unsqueeze, Concat, Reshape, Cast, arithmetic, ...):
 *     folded, no IR op;
 *   - an activation: IR tensors in up to two layouts, the ONNX order and
 *     (4-D only) NHWC.  Ops with NHWC kernels (Conv, pools, Resize, ...)
 *     ask for the NHWC tensor, ops whose meaning is tied to the element
 *     order (Reshape, Flatten, Transpose, ...) ask for the ONNX one; a
 *     TRANSPOSE is inserted the first time the missing layout is asked
 *     for (a RESHAPE when both orders coincide: C == 1 or H * W == 1).
 *     Elementwise ops take the layout their inputs already have.
 * Weights are re-laid out on the host: Conv OIHW -> OHWI, depthwise
 * -> [1, kh, kw, C * mult], ConvTranspose IOHW -> OHWI, Gemm/MatMul to
 * [out, in], LSTM gates iofc -> ifco.  BatchNormalization folds into the
 * preceding Conv/Gemm when that is its only consumer, else MUL + ADD; a
 * Relu/Clip after a Conv, Gemm, Add or pool becomes its fused activation.
 *
 * What has no IR mapping is refused with a message naming the node.
 * What maps onto an op row whose kernel does not exist yet is left to
 * the lowering, which refuses it naming the IR op.
 *
 * The files: onnx_import.c walks the nodes and dispatches each by
 * op_type (import_node); onnx_values.c holds the building blocks all
 * others use (value table, IR builder, inputs, attributes, constants);
 * onnx_fold.c constant folding; onnx_types.c the small and wide number
 * types; onnx_ops.c the element-wise, reduction and data-movement
 * nodes; onnx_conv.c convolutions, pools and the N-D windows;
 * onnx_nn.c Gemm, MatMul, the normalizations and the recurrent nodes;
 * onnx_qdq.c QuantizeLinear, DequantizeLinear and QDQ fusion;
 * onnx_qop.c the QOperator nodes.
 *
 * Every function reports bad input with FAIL() (onnx_fail: the file,
 * the node and what is wrong); none returns on error.  What each
 * function takes and gives is said where it is defined.
 */
#ifndef TINYAOT_ONNX_IMPORT_H
#define TINYAOT_ONNX_IMPORT_H

#include "onnx.h"

typedef struct {
  const char *name;
  Val *v;
  int uses; /* nodes and graph outputs reading it */
  /* Its readers as ONNX Runtime counts them when it converts int8 to
   * uint8 (onnx_qdq.c): the nodes but Shape and Size (its constant
   * folding has removed those by then: every shape is static), and a
   * graph output as one; a --probe not at all. */
  int ort_reads;
  const ONode *writer; /* the (last) node writing it, or NULL */
} Slot;

typedef struct {
  Onnx *x;
  Graph *g;
  Tensor *tensors;
  int ntensors, captensors;
  Op *ops;
  int nops, capops;
  Slot *slots; /* open hashing by name */
  size_t cap;
  const ONode *n; /* node being imported */
  size_t budget;  /* bytes of folded constants still allowed */
  bool qdq;       /* importing a QDQ-fused node: DequantizeLinear outputs read as integers */
  bool *fused;    /* per node: taken into an earlier QDQ-fused node */
} Imp;

#define FAIL(...) onnx_fail(m->x, __VA_ARGS__)

/* NHWC dim d = ONNX dim TO_NHWC[d]; TO_NCHW the inverse. */
extern const int TO_NHWC[4], TO_NCHW[4];

/* Slice's start, step and element count per axis (slice_params). */
typedef struct {
  int64_t start[MAX_DIMS], step[MAX_DIMS], count[MAX_DIMS];
} SliceP;

/* ----------------------------------- building blocks (onnx_values.c) */

Slot *slot(Imp *m, const char *name, bool add);
void grow_slots(Imp *m, size_t want);
void bind(Imp *m, const char *name, Val *v);
Val *lookup(Imp *m, const char *name);
int uses_of(Imp *m, const char *name);
int32_t dim32(Imp *m, int64_t d);
int new_tensor(Imp *m, const char *name, DType dt, int ndims, const int64_t *dims);
Tensor *T(Imp *m, int t);
int const_tensor(Imp *m, const char *name, DType dt, int ndims, const int64_t *dims,
                 const void *data);
int const_i32_tensor(Imp *m, const int32_t *v, int n);
int add_op(Imp *m, OpKind kind, const int *ins, int nins, const int *outs, int nouts);
Op *OP(Imp *m, int i);
int reshape_to(Imp *m, int in, const char *name, int ndims, const int64_t *dims);
int transpose_to(Imp *m, int in, const char *name, const int *perm);
int nhwc_axis(int a);
Val *new_val(Imp *m, const char *name, DType dt, int ndims, const int64_t *dims);
Val *new_const(Imp *m, const char *name, DType dt, int ndims, const int64_t *dims);
int out_tensor(Imp *m, Val *v, int layout);
int ir(Imp *m, Val *v, int layout);
int pref(const Val *v);
Val *in(Imp *m, int k);
Val *need_in(Imp *m, int k);
Val *need_const_input(Imp *m, int k, const char *what);
const OAttr *attr(Imp *m, const char *name);
int64_t attr_i(Imp *m, const char *name, int64_t def);
float attr_f(Imp *m, const char *name, float def);
const char *attr_s(Imp *m, const char *name, const char *def);
int attr_ints(Imp *m, const char *name, int64_t *out, int max);
bool is_float(DType dt);
double cget_d(const Val *v, int64_t k);
int64_t cget_i(const Val *v, int64_t k);
void cset(Val *v, int64_t k, double d, int64_t i);
void copy_elem(Val *dst, int64_t kd, const Val *src, int64_t ks);
int64_t resolve(Imp *m, int64_t axis, int rank, const char *what);
void strides(const int64_t *dims, int n, int64_t *st);
bool bcast(const int64_t *a, int na, const int64_t *b, int nb, int64_t *out, int *n);
int64_t bidx(const Val *v, const int64_t *out, int n, int64_t k);
int const_list(Imp *m, const Val *v, int64_t *out, int max, const char *what);
int act_out(Imp *m, int k, DType dt, int ndims, const int64_t *dims, int layout, Val **vo);
Val *act_in(Imp *m, int k);
Val *act4(Imp *m, int k);
void need_f32(Imp *m, const Val *v);
Quant quant1(float scale, int64_t zp);
int cast_op(Imp *m, int in, int out, DType from, DType to);
float *floats_of(Imp *m, const Val *v);
int f32_tensor(Imp *m, const char *name, int ndims, const int64_t *dims, const float *data);
bool can_fuse(Imp *m, const Val *v, int t);
void activation(Imp *m, OpKind kind, Activation act);
int common_layout(Imp *m, int rank, int first, int count);
int as_layout(Imp *m, Val *v, int layout, int rank);

/* --------------- constant folding and shape arithmetic (onnx_fold.c) */

int reshape_dims(Imp *m, const Val *a, const Val *shape, int64_t *out);
int squeeze_dims(Imp *m, const Val *a, int64_t *out, bool unsqueeze);
int flatten_dims(Imp *m, const Val *a, int64_t *out);
void slice_params(Imp *m, const Val *a, SliceP *s);
void perm_of(Imp *m, int rank, int *perm);
bool try_fold(Imp *m);

/* ------------------------ small and wide number types (onnx_types.c) */

bool onnx_small_type(DType dt);
void onnx_cast_attrs(Imp *m, Op *o, DType to);
DType cast_target(Imp *m);
void small_int_binary(Imp *m, OpKind kind, int ta, int tb, int out);
void import_clip_int(Imp *m, Val *x);
int widen_i32(Imp *m, int t);

/* Unsigned wide integers and float16/float64: only the element-wise
 * kernels of lower_wide_binary() take them; other ops refuse them when
 * lowered. */
static inline bool wide_dtype(DType dt) {
  return dt == DT_UINT16 || dt == DT_UINT32 || dt == DT_UINT64 || dt == DT_FLOAT16 ||
         dt == DT_FLOAT64;
}

/* --------------- element-wise, reduction, data movement (onnx_ops.c) */

void binary(Imp *m, OpKind kind);
void import_pow(Imp *m);
void import_reciprocal(Imp *m);
int scalar_op(Imp *m, OpKind kind, int t, float s, const char *name);
void variadic(Imp *m, OpKind kind, bool mean);
void import_clip(Imp *m);
void import_hard_sigmoid(Imp *m);
void import_leaky_relu(Imp *m);
void reshape_act(Imp *m, int ndims, const int64_t *dims);
void import_transpose(Imp *m);
void import_concat(Imp *m);
void import_softmax(Imp *m, bool log);
void import_pad(Imp *m);
void import_slice(Imp *m);
void import_gather(Imp *m);
void import_split(Imp *m);
void import_reduce(Imp *m, OpKind kind);
void import_arg(Imp *m, OpKind kind);
void import_resize(Imp *m);
void unary_f32(Imp *m, OpKind kind);
void compare_op(Imp *m, OpKind kind);
void import_not(Imp *m);
void import_where(Imp *m);
void import_elu(Imp *m, bool selu);
void import_softplus(Imp *m);
void import_tile(Imp *m);
void import_expand(Imp *m);
void import_block_shuffle(Imp *m, bool to_space);

/* -------------------- convolutions, pools, N-D windows (onnx_conv.c) */

void import_conv(Imp *m);
void import_conv_transpose(Imp *m);
void import_pool(Imp *m, bool max);
void import_global_pool(Imp *m, bool max);

/* --------------- Gemm, MatMul, normalizations, recurrent (onnx_nn.c) */

int fully_connected(Imp *m, int t, const float *w, int64_t nout, int64_t nin,
                    const float *bias, int ndims, const int64_t *od, bool keep);
void import_gemm(Imp *m);
void import_matmul(Imp *m);
void import_batch_norm(Imp *m);
int f32_like(Imp *m, int t);
void import_layer_norm(Imp *m);
void import_instance_norm(Imp *m);
void import_gelu(Imp *m);
void import_gru(Imp *m);
void import_lstm(Imp *m);

/* ---------------- QuantizeLinear, DequantizeLinear, QDQ (onnx_qdq.c) */

/* The output side of an integer op: its type, scale and zero point, its
 * fused activation, and the QuantizeLinear (and Relu or Clip) a QDQ
 * group folds into it (both NULL for a QOperator node). */
typedef struct {
  const ONode *act, *q;
  Activation activation;
  DType dt;
  float scale;
  int64_t zp;
} QOut;


int64_t quant_params(Imp *m, int ks, int kz, bool half, float **scale, float **zp,
                     const Val **zv);
int qparam_const(Imp *m, const float *v, int64_t n, int64_t axis, int rank);
int f32_binary(Imp *m, OpKind kind, int t, int c);
void import_quantize_linear(Imp *m);
int dq_ops(Imp *m, int t, DType dt, const float *scale, const float *zp, int64_t n,
           int64_t axis, int out);
void import_dequantize_linear(Imp *m);
void settle_dq(Imp *m, Val *v);
bool import_qdq(Imp *m);
bool quant_fits(Imp *m, const Val *x, float scale, int64_t zp);
void mark_act(Imp *m, const Val *v);
void fused_conv(Imp *m, const Val *x, const Val *w, const Val *b, const QOut *o);
void fused_fc(Imp *m, Val *a, const Val *w, const Val *b, bool tb, const QOut *o);

/* -------------------------------------------- QOperator (onnx_qop.c) */

bool import_qop(Imp *m);

#endif
