/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tflite_writer.c - a small FlatBuffers builder and the .tflite model
 * description on top of it.
 *
 * FlatBuffers are built back to front: children (vectors, strings,
 * tables) are written before the tables that point at them, because a
 * uoffset always points forward, to a higher address.  The builder keeps
 * its bytes at the end of a growing array; a position is the distance
 * from the end ("from-end offset"), which does not change when the array
 * grows.  A uoffset stored at from-end position p that refers to an
 * object at from-end position t holds p - t.
 *
 * A table is written as its fields (each aligned to its size), then the
 * int32 soffset to its vtable; the vtable (uint16: vtable bytes, table
 * bytes, one offset per field slot, 0 = absent) goes just in front of
 * the table, so the soffset (table address - vtable address) is positive.
 *
 * Schema slots used (tensorflow/lite/schema/schema.fbs, slot = field
 * number counting from 0; a union field takes two slots, type then value):
 *   Model:     version 0, operator_codes 1, subgraphs 2, description 3,
 *              buffers 4
 *   SubGraph:  tensors 0, inputs 1, outputs 2, operators 3, name 4
 *   Tensor:    shape 0, type 1, buffer 2, name 3, quantization 4,
 *              is_variable 5, shape_signature 7
 *   QuantizationParameters: scale 2, zero_point 3, quantized_dimension 6
 *   OperatorCode: deprecated_builtin_code 0, custom_code 1, version 2,
 *              builtin_code 3
 *   Operator:  opcode_index 0, inputs 1, outputs 2,
 *              builtin_options_type 3, builtin_options 4, custom_options 5
 *   Buffer:    data 0 (force_align 16)
 * The options tables' slots are at the tfw_*_options functions.
 *
 * Several subgraphs: tfw_subgraph() starts the next one; tensors, ops,
 * inputs and outputs added after it belong to it, and every index the
 * functions take or return is local to the current subgraph, as the
 * schema numbers them.
 */
#include "tflite_writer.h"

#include <errno.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "tflite_writer: ");
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n");
  va_end(ap);
  exit(2);
}

static void *xrealloc(void *p, size_t n) {
  p = realloc(p, n ? n : 1);
  if (!p)
    fail("out of memory (%zu bytes)", n);
  return p;
}

static void *xmemdup(const void *src, size_t n) {
  void *p = xrealloc(NULL, n);
  if (n)
    memcpy(p, src, n);
  return p;
}

/* Grows an array to hold at least `need` elements of `size` bytes. */
#define GROW(arr, count, cap)                                              \
  do {                                                                     \
    if ((count) >= (cap)) {                                                \
      (cap) = (cap) ? 2 * (cap) : 8;                                       \
      (arr) = xrealloc((arr), (size_t)(cap) * sizeof *(arr));              \
    }                                                                      \
  } while (0)

/* ------------------------------------------------------ FlatBuffers */

typedef struct {
  uint8_t *buf;
  size_t cap, len; /* bytes used, at buf[cap - len .. cap) */
  size_t minalign;
  /* The table being built. */
  size_t table_start;
  int nfields;
  struct {
    int slot;
    size_t pos;
  } fields[64];
} Fb;

static void fb_reserve(Fb *b, size_t n) {
  if (b->buf && b->cap - b->len >= n)
    return;
  size_t cap = b->cap ? b->cap : 1024;
  while (cap - b->len < n)
    cap *= 2;
  uint8_t *nb = xrealloc(NULL, cap);
  if (b->len)
    memcpy(nb + cap - b->len, b->buf + b->cap - b->len, b->len);
  free(b->buf);
  b->buf = nb;
  b->cap = cap;
}

static void fb_push(Fb *b, const void *p, size_t n) {
  if (!n)
    return;
  fb_reserve(b, n);
  b->len += n;
  memcpy(b->buf + b->cap - b->len, p, n);
}

static void fb_zeros(Fb *b, size_t n) {
  if (!n)
    return;
  fb_reserve(b, n);
  b->len += n;
  memset(b->buf + b->cap - b->len, 0, n);
}

/* Pads so that after `extra` more bytes the size is a multiple of align. */
static void fb_prep(Fb *b, size_t align, size_t extra) {
  if (align > b->minalign)
    b->minalign = align;
  fb_zeros(b, (~(b->len + extra) + 1) & (align - 1));
}

static void put_le(uint8_t *dst, uint64_t v, size_t n) {
  for (size_t i = 0; i < n; i++)
    dst[i] = (uint8_t)(v >> (8 * i));
}

static void fb_scalar(Fb *b, uint64_t v, size_t n) {
  uint8_t tmp[8];
  fb_prep(b, n, 0);
  put_le(tmp, v, n);
  fb_push(b, tmp, n);
}

static uint32_t f32_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

/* A uoffset to the object at from-end position target. */
static void fb_uoffset(Fb *b, size_t target) {
  fb_prep(b, 4, 0);
  uint8_t tmp[4];
  put_le(tmp, (uint64_t)(b->len + 4 - target), 4);
  fb_push(b, tmp, 4);
}

/* A vector of n little-endian elements of elem bytes each, taken from
 * values (uint64_t each, truncated), aligned to align.  Returns its
 * position. */
static size_t fb_vector_u64(Fb *b, const uint64_t *values, size_t n,
                            size_t elem, size_t align) {
  size_t bytes = n * elem;
  fb_prep(b, 4, bytes);
  fb_prep(b, align, bytes);
  fb_reserve(b, bytes);
  b->len += bytes;
  uint8_t *dst = b->buf + b->cap - b->len;
  for (size_t i = 0; i < n; i++)
    put_le(dst + i * elem, values[i], elem);
  fb_scalar(b, n, 4);
  return b->len;
}

static size_t fb_bytes(Fb *b, const void *data, size_t n, size_t align) {
  fb_prep(b, 4, n);
  fb_prep(b, align, n);
  fb_push(b, data, n);
  fb_scalar(b, n, 4);
  return b->len;
}

static size_t fb_i32s(Fb *b, const int32_t *v, size_t n) {
  uint64_t *tmp = xrealloc(NULL, (n ? n : 1) * sizeof *tmp);
  for (size_t i = 0; i < n; i++)
    tmp[i] = (uint32_t)v[i];
  size_t pos = fb_vector_u64(b, tmp, n, 4, 4);
  free(tmp);
  return pos;
}

static size_t fb_string(Fb *b, const char *s) {
  size_t n = strlen(s);
  fb_prep(b, 4, n + 1);
  fb_zeros(b, 1);
  fb_push(b, s, n);
  fb_scalar(b, n, 4);
  return b->len;
}

/* A vector of uoffsets to the objects at positions targets[0..n). */
static size_t fb_offsets(Fb *b, const size_t *targets, size_t n) {
  fb_prep(b, 4, 4 * n);
  for (size_t i = n; i-- > 0;)
    fb_uoffset(b, targets[i]);
  fb_scalar(b, n, 4);
  return b->len;
}

static void fb_start(Fb *b) {
  b->table_start = b->len;
  b->nfields = 0;
}

static void fb_note(Fb *b, int slot) {
  if (b->nfields >= 64)
    fail("too many fields in one table");
  b->fields[b->nfields].slot = slot;
  b->fields[b->nfields].pos = b->len;
  b->nfields++;
}

static void fb_field(Fb *b, int slot, uint64_t v, size_t n) {
  fb_scalar(b, v, n);
  fb_note(b, slot);
}

static void fb_field_offset(Fb *b, int slot, size_t target) {
  fb_uoffset(b, target);
  fb_note(b, slot);
}

static size_t fb_end(Fb *b) {
  fb_prep(b, 4, 0);
  fb_zeros(b, 4); /* soffset to the vtable, filled in below */
  size_t table = b->len;
  int nslots = 0;
  for (int i = 0; i < b->nfields; i++)
    if (b->fields[i].slot + 1 > nslots)
      nslots = b->fields[i].slot + 1;
  uint16_t vt[2 + 64] = {0};
  vt[0] = (uint16_t)(4 + 2 * nslots);
  vt[1] = (uint16_t)(table - b->table_start);
  for (int i = 0; i < b->nfields; i++)
    vt[2 + b->fields[i].slot] = (uint16_t)(table - b->fields[i].pos);
  fb_prep(b, 2, 0);
  uint8_t bytes[2 * (2 + 64)];
  for (int i = 0; i < 2 + nslots; i++)
    put_le(bytes + 2 * i, vt[i], 2);
  fb_push(b, bytes, (size_t)(4 + 2 * nslots));
  put_le(b->buf + b->cap - table, (uint64_t)(uint32_t)(b->len - table), 4);
  b->nfields = 0;
  return table;
}

/* ------------------------------------------------ model description */

typedef struct {
  uint8_t *data;
  size_t n;
} WBuffer;

typedef struct {
  char *name;
  int dtype;
  int ndims;
  int32_t dims[8];
  int buffer;
  int nq;
  float *scale;
  int64_t *zero_point;
  int qdim;
  int block_size, block_scales, block_zero_points; /* block_size 0: none */
  int is_variable;
  int nsig;           /* shape_signature entries (0: none) */
  int32_t sig[8];
  int sg; /* its subgraph */
} WTensor;

/* One field of an options table. */
typedef struct {
  int slot;
  int kind; /* 'b' byte/bool, 'i' int32, 'f' float, 'v' int32 vector,
               's' string, 'u' ubyte vector (str, nvec bytes) */
  uint32_t value;
  char *str;
  int32_t *vec;
  int nvec;
} WField;

typedef struct {
  int opcode;
  int *in, nin;
  int *out, nout;
  int options_type; /* 0 = NONE */
  int options2;     /* the table is builtin_options_2 (slots 11, 12) */
  WField fields[8];
  int nfields;
  uint8_t *custom_options; /* CUSTOM: FlexBuffers bytes, or NULL */
  size_t ncustom_options;
  int sg; /* its subgraph */
} WOp;

typedef struct {
  int code;
  int version;
  char *custom; /* custom_code of a CUSTOM code, or NULL */
} WOpCode;

struct TfwModel {
  WBuffer *buffers;
  int nbuffers, capbuffers;
  WTensor *tensors;
  int ntensors, captensors;
  WOp *ops;
  int nops, capops;
  WOpCode *codes;
  int ncodes, capcodes;
  struct {
    int *inputs, ninputs;
    int *outputs, noutputs;
  } sub[TFW_MAX_SUBGRAPHS];
  int nsub, cur; /* subgraphs; the one being described */
};

TfwModel *tfw_new(void) {
  TfwModel *m = xrealloc(NULL, sizeof *m);
  memset(m, 0, sizeof *m);
  GROW(m->buffers, m->nbuffers, m->capbuffers);
  m->buffers[m->nbuffers].data = NULL;
  m->buffers[m->nbuffers].n = 0;
  m->nbuffers++;
  m->nsub = 1;
  return m;
}

int tfw_subgraph(TfwModel *m) {
  if (m->nsub >= TFW_MAX_SUBGRAPHS)
    fail("more than %d subgraphs", TFW_MAX_SUBGRAPHS);
  m->cur = m->nsub++;
  return m->cur;
}

/* Position in m->tensors / m->ops of local index i of the current
 * subgraph, or -1. */
static int global_tensor(const TfwModel *m, int i) {
  for (int k = 0; k < m->ntensors; k++)
    if (m->tensors[k].sg == m->cur && i-- == 0)
      return k;
  return -1;
}

static int global_op(const TfwModel *m, int i) {
  for (int k = 0; k < m->nops; k++)
    if (m->ops[k].sg == m->cur && i-- == 0)
      return k;
  return -1;
}

static int count_in(int sg, int n, const void *arr, size_t size, size_t sg_at) {
  int c = 0;
  for (int k = 0; k < n; k++) {
    int s;
    memcpy(&s, (const char *)arr + (size_t)k * size + sg_at, sizeof s);
    c += s == sg;
  }
  return c;
}

void tfw_free(TfwModel *m) {
  if (!m)
    return;
  for (int i = 0; i < m->nbuffers; i++)
    free(m->buffers[i].data);
  for (int i = 0; i < m->ntensors; i++) {
    free(m->tensors[i].name);
    free(m->tensors[i].scale);
    free(m->tensors[i].zero_point);
  }
  for (int i = 0; i < m->nops; i++) {
    free(m->ops[i].in);
    free(m->ops[i].out);
    for (int f = 0; f < m->ops[i].nfields; f++) {
      free(m->ops[i].fields[f].vec);
      free(m->ops[i].fields[f].str);
    }
    free(m->ops[i].custom_options);
  }
  for (int i = 0; i < m->ncodes; i++)
    free(m->codes[i].custom);
  free(m->buffers);
  free(m->tensors);
  free(m->ops);
  free(m->codes);
  for (int i = 0; i < m->nsub; i++) {
    free(m->sub[i].inputs);
    free(m->sub[i].outputs);
  }
  free(m);
}

size_t tfw_dtype_size(int dtype) {
  switch (dtype) {
  case TFW_FLOAT32:
  case TFW_INT32:
    return 4;
  case TFW_FLOAT16:
  case TFW_INT16:
    return 2;
  case TFW_UINT8:
  case TFW_INT8:
  case TFW_BOOL:
    return 1;
  case TFW_INT64:
  case TFW_COMPLEX64:
    return 8;
  case TFW_RESOURCE:
    return 0; /* no data */
  default:
    return 0;
  }
}

int tfw_buffer(TfwModel *m, const void *data, size_t n) {
  GROW(m->buffers, m->nbuffers, m->capbuffers);
  m->buffers[m->nbuffers].data = xmemdup(data, n);
  m->buffers[m->nbuffers].n = n;
  return m->nbuffers++;
}

int tfw_tensor(TfwModel *m, const char *name, int dtype, int ndims,
               const int32_t *dims, int buffer) {
  if (ndims < 0 || ndims > 8)
    fail("tensor %s: rank %d out of range", name, ndims);
  if (buffer < 0 || buffer >= m->nbuffers)
    fail("tensor %s: no buffer %d", name, buffer);
  int local = count_in(m->cur, m->ntensors, m->tensors, sizeof *m->tensors,
                       offsetof(WTensor, sg));
  GROW(m->tensors, m->ntensors, m->captensors);
  WTensor *t = &m->tensors[m->ntensors];
  memset(t, 0, sizeof *t);
  t->sg = m->cur;
  t->name = xmemdup(name, strlen(name) + 1);
  t->dtype = dtype;
  t->ndims = ndims;
  for (int i = 0; i < ndims; i++)
    t->dims[i] = dims[i];
  t->buffer = buffer;
  m->ntensors++;
  return local;
}

int tfw_const(TfwModel *m, const char *name, int dtype, int ndims,
              const int32_t *dims, const void *data) {
  size_t n = tfw_dtype_size(dtype);
  if (!n)
    fail("constant %s: unsupported dtype %d", name, dtype);
  for (int i = 0; i < ndims; i++)
    n *= (size_t)dims[i];
  return tfw_tensor(m, name, dtype, ndims, dims, tfw_buffer(m, data, n));
}

static WTensor *tensor_at(TfwModel *m, int t) {
  int k = global_tensor(m, t);
  if (t < 0 || k < 0)
    fail("no tensor %d", t);
  return &m->tensors[k];
}

static WOp *op_at(TfwModel *m, int op) {
  int k = global_op(m, op);
  if (op < 0 || k < 0)
    fail("no operator %d", op);
  return &m->ops[k];
}

void tfw_quant(TfwModel *m, int tensor, int n, const float *scale,
               const int64_t *zero_point, int qdim) {
  WTensor *t = tensor_at(m, tensor);
  free(t->scale);
  free(t->zero_point);
  t->nq = n;
  t->scale = xmemdup(scale, (size_t)n * sizeof *scale);
  t->zero_point = xmemdup(zero_point, (size_t)n * sizeof *zero_point);
  t->qdim = qdim;
}

void tfw_blockwise(TfwModel *m, int tensor, int scales, int zero_points, int block_size) {
  WTensor *t = tensor_at(m, tensor);
  t->block_size = block_size;
  t->block_scales = scales;
  t->block_zero_points = zero_points;
}

void tfw_quant1(TfwModel *m, int tensor, float scale, int64_t zero_point) {
  tfw_quant(m, tensor, 1, &scale, &zero_point, 0);
}

void tfw_shape_signature(TfwModel *m, int tensor, int n, const int32_t *sig) {
  WTensor *t = tensor_at(m, tensor);
  if (n < 0 || n > 8)
    fail("shape_signature of %d entries", n);
  t->nsig = n;
  memcpy(t->sig, sig, (size_t)n * sizeof *sig);
}

void tfw_set_variable(TfwModel *m, int tensor) {
  tensor_at(m, tensor)->is_variable = 1;
}

/* The operator code of builtin_code (and custom name, for CUSTOM). */
static int opcode_of(TfwModel *m, int builtin_code, const char *custom) {
  for (int i = 0; i < m->ncodes; i++)
    if (m->codes[i].code == builtin_code &&
        (!custom || (m->codes[i].custom && !strcmp(m->codes[i].custom, custom))))
      return i;
  GROW(m->codes, m->ncodes, m->capcodes);
  m->codes[m->ncodes].code = builtin_code;
  m->codes[m->ncodes].version = 1;
  m->codes[m->ncodes].custom = custom ? xmemdup(custom, strlen(custom) + 1) : NULL;
  return m->ncodes++;
}

static int add_op(TfwModel *m, int code, int nin, const int *in, int nout, const int *out);

int tfw_op(TfwModel *m, int builtin_code, int nin, const int *in, int nout,
           const int *out) {
  if (builtin_code == TFW_OP_CUSTOM)
    fail("a CUSTOM op needs its name: tfw_custom_op()");
  return add_op(m, opcode_of(m, builtin_code, NULL), nin, in, nout, out);
}

int tfw_custom_op(TfwModel *m, const char *name, const uint8_t *options, size_t noptions,
                  int nin, const int *in, int nout, const int *out) {
  int op = add_op(m, opcode_of(m, TFW_OP_CUSTOM, name), nin, in, nout, out);
  WOp *o = op_at(m, op);
  o->custom_options = noptions ? xmemdup(options, noptions) : NULL;
  o->ncustom_options = noptions;
  return op;
}

static int add_op(TfwModel *m, int code, int nin, const int *in, int nout, const int *out) {
  int local = count_in(m->cur, m->nops, m->ops, sizeof *m->ops, offsetof(WOp, sg));
  GROW(m->ops, m->nops, m->capops);
  WOp *op = &m->ops[m->nops];
  memset(op, 0, sizeof *op);
  op->sg = m->cur;
  op->opcode = code;
  op->in = xmemdup(in, (size_t)nin * sizeof *in);
  op->nin = nin;
  op->out = xmemdup(out, (size_t)nout * sizeof *out);
  op->nout = nout;
  m->nops++;
  return local;
}

void tfw_op_version(TfwModel *m, int op, int version) {
  WOpCode *c = &m->codes[op_at(m, op)->opcode];
  if (version > c->version)
    c->version = version;
}

void tfw_inputs(TfwModel *m, int n, const int *tensors) {
  free(m->sub[m->cur].inputs);
  m->sub[m->cur].inputs = xmemdup(tensors, (size_t)n * sizeof *tensors);
  m->sub[m->cur].ninputs = n;
}

void tfw_outputs(TfwModel *m, int n, const int *tensors) {
  free(m->sub[m->cur].outputs);
  m->sub[m->cur].outputs = xmemdup(tensors, (size_t)n * sizeof *tensors);
  m->sub[m->cur].noutputs = n;
}

/* ---------------------------------------------------- options tables */

/* BuiltinOptions union type numbers (1 + position in the union). */
enum {
  OPT_CONV2D = 1,
  OPT_DEPTHWISE_CONV2D = 2,
  OPT_POOL2D = 5,
  OPT_FULLY_CONNECTED = 8,
  OPT_SOFTMAX = 9,
  OPT_CONCATENATION = 10,
  OPT_ADD = 11,
  OPT_RESIZE_BILINEAR = 15,
  OPT_RESHAPE = 17,
  OPT_MUL = 21,
  OPT_PAD = 22,
  OPT_TRANSPOSE = 26,
  OPT_REDUCER = 27,
  OPT_SUB = 28,
  OPT_SQUEEZE = 30,
  OPT_STRIDED_SLICE = 32,
  OPT_SPLIT = 35,
  OPT_CAST = 37,
  OPT_DEQUANTIZE = 38,
  OPT_MAXIMUM_MINIMUM = 39,
  OPT_ARG_MAX = 40,
  OPT_TRANSPOSE_CONV = 49,
  OPT_EXPAND_DIMS = 52,
  OPT_PACK = 59,
  OPT_UNPACK = 64,
  OPT_RESIZE_NEAREST_NEIGHBOR = 74,
  OPT_LEAKY_RELU = 75,
  OPT_SPLIT_V = 79,
  OPT_QUANTIZE = 89,
  OPT_HARD_SWISH = 91,
  OPT_CALL_ONCE = 103,
  OPT_VAR_HANDLE = 111,
  OPT_READ_VARIABLE = 112,
  OPT_ASSIGN_VARIABLE = 113,
};

static WOp *options(TfwModel *m, int op, int type) {
  WOp *o = op_at(m, op);
  for (int f = 0; f < o->nfields; f++) {
    free(o->fields[f].vec);
    free(o->fields[f].str);
  }
  o->nfields = 0;
  o->options_type = type;
  o->options2 = 0;
  return o;
}

static void field(WOp *o, int slot, int kind, uint32_t value) {
  if (o->nfields >= 8)
    fail("too many option fields");
  WField *f = &o->fields[o->nfields++];
  memset(f, 0, sizeof *f);
  f->slot = slot;
  f->kind = kind;
  f->value = value;
}

static void field_vec(WOp *o, int slot, int n, const int32_t *v) {
  field(o, slot, 'v', 0);
  WField *f = &o->fields[o->nfields - 1];
  f->vec = xmemdup(v, (size_t)n * sizeof *v);
  f->nvec = n;
}

/* Conv2DOptions: padding 0, stride_w 1, stride_h 2,
 * fused_activation_function 3, dilation_w_factor 4, dilation_h_factor 5. */
void tfw_conv2d_options(TfwModel *m, int op, int padding, int stride_w,
                        int stride_h, int act, int dilation_w, int dilation_h) {
  WOp *o = options(m, op, OPT_CONV2D);
  field(o, 0, 'b', (uint32_t)padding);
  field(o, 1, 'i', (uint32_t)stride_w);
  field(o, 2, 'i', (uint32_t)stride_h);
  field(o, 3, 'b', (uint32_t)act);
  field(o, 4, 'i', (uint32_t)dilation_w);
  field(o, 5, 'i', (uint32_t)dilation_h);
}

/* DepthwiseConv2DOptions: padding 0, stride_w 1, stride_h 2,
 * depth_multiplier 3, fused_activation_function 4, dilation_w_factor 5,
 * dilation_h_factor 6. */
void tfw_depthwise_options(TfwModel *m, int op, int padding, int stride_w,
                           int stride_h, int depth_multiplier, int act,
                           int dilation_w, int dilation_h) {
  WOp *o = options(m, op, OPT_DEPTHWISE_CONV2D);
  field(o, 0, 'b', (uint32_t)padding);
  field(o, 1, 'i', (uint32_t)stride_w);
  field(o, 2, 'i', (uint32_t)stride_h);
  field(o, 3, 'i', (uint32_t)depth_multiplier);
  field(o, 4, 'b', (uint32_t)act);
  field(o, 5, 'i', (uint32_t)dilation_w);
  field(o, 6, 'i', (uint32_t)dilation_h);
}

/* TransposeConvOptions: padding 0, stride_w 1, stride_h 2,
 * fused_activation_function 3 (written only when not NONE). */
void tfw_transpose_conv_options(TfwModel *m, int op, int padding,
                                int stride_w, int stride_h, int act) {
  WOp *o = options(m, op, OPT_TRANSPOSE_CONV);
  field(o, 0, 'b', (uint32_t)padding);
  field(o, 1, 'i', (uint32_t)stride_w);
  field(o, 2, 'i', (uint32_t)stride_h);
  if (act != TFW_ACT_NONE)
    field(o, 3, 'b', (uint32_t)act);
}

/* Pool2DOptions: padding 0, stride_w 1, stride_h 2, filter_width 3,
 * filter_height 4, fused_activation_function 5. */
void tfw_pool2d_options(TfwModel *m, int op, int padding, int stride_w,
                        int stride_h, int filter_w, int filter_h, int act) {
  WOp *o = options(m, op, OPT_POOL2D);
  field(o, 0, 'b', (uint32_t)padding);
  field(o, 1, 'i', (uint32_t)stride_w);
  field(o, 2, 'i', (uint32_t)stride_h);
  field(o, 3, 'i', (uint32_t)filter_w);
  field(o, 4, 'i', (uint32_t)filter_h);
  field(o, 5, 'b', (uint32_t)act);
}

/* FullyConnectedOptions: fused_activation_function 0, weights_format 1,
 * keep_num_dims 2. */
void tfw_fully_connected_options(TfwModel *m, int op, int act,
                                 int keep_num_dims) {
  tfw_fully_connected_options_asym(m, op, act, keep_num_dims, 0);
}

/* The same with asymmetric_quantize_inputs (field 3; hybrid kernels). */
void tfw_fully_connected_options_asym(TfwModel *m, int op, int act, int keep_num_dims,
                                      int asymmetric) {
  WOp *o = options(m, op, OPT_FULLY_CONNECTED);
  field(o, 0, 'b', (uint32_t)act);
  field(o, 2, 'b', (uint32_t)(keep_num_dims != 0));
  if (asymmetric)
    field(o, 3, 'b', 1);
}

/* SoftmaxOptions: beta 0. */
void tfw_softmax_options(TfwModel *m, int op, float beta) {
  field(options(m, op, OPT_SOFTMAX), 0, 'f', f32_bits(beta));
}

/* ConcatenationOptions: axis 0, fused_activation_function 1. */
void tfw_concatenation_options(TfwModel *m, int op, int axis, int act) {
  WOp *o = options(m, op, OPT_CONCATENATION);
  field(o, 0, 'i', (uint32_t)axis);
  field(o, 1, 'b', (uint32_t)act);
}

/* AddOptions / SubOptions: fused_activation_function 0,
 * pot_scale_int16 1. */
void tfw_add_options(TfwModel *m, int op, int act, int pot_scale_int16) {
  WOp *o = options(m, op, OPT_ADD);
  field(o, 0, 'b', (uint32_t)act);
  if (pot_scale_int16 >= 0)
    field(o, 1, 'b', (uint32_t)(pot_scale_int16 != 0));
}

void tfw_sub_options(TfwModel *m, int op, int act, int pot_scale_int16) {
  WOp *o = options(m, op, OPT_SUB);
  field(o, 0, 'b', (uint32_t)act);
  if (pot_scale_int16 >= 0)
    field(o, 1, 'b', (uint32_t)(pot_scale_int16 != 0));
}

/* MulOptions: fused_activation_function 0. */
void tfw_mul_options(TfwModel *m, int op, int act) {
  field(options(m, op, OPT_MUL), 0, 'b', (uint32_t)act);
}

/* ReducerOptions: keep_dims 0. */
void tfw_reducer_options(TfwModel *m, int op, int keep_dims) {
  field(options(m, op, OPT_REDUCER), 0, 'b', (uint32_t)(keep_dims != 0));
}

/* ReshapeOptions: new_shape 0. */
void tfw_reshape_options(TfwModel *m, int op, int n, const int32_t *new_shape) {
  WOp *o = options(m, op, OPT_RESHAPE);
  if (n >= 0)
    field_vec(o, 0, n, new_shape);
}

/* SqueezeOptions: squeeze_dims 0. */
void tfw_squeeze_options(TfwModel *m, int op, int n, const int32_t *dims) {
  WOp *o = options(m, op, OPT_SQUEEZE);
  if (n > 0)
    field_vec(o, 0, n, dims);
}

/* StridedSliceOptions: begin_mask 0, end_mask 1, ellipsis_mask 2,
 * new_axis_mask 3, shrink_axis_mask 4, offset 5. */
void tfw_strided_slice_options(TfwModel *m, int op, int begin_mask,
                               int end_mask, int ellipsis_mask,
                               int new_axis_mask, int shrink_axis_mask,
                               int offset) {
  WOp *o = options(m, op, OPT_STRIDED_SLICE);
  field(o, 0, 'i', (uint32_t)begin_mask);
  field(o, 1, 'i', (uint32_t)end_mask);
  field(o, 2, 'i', (uint32_t)ellipsis_mask);
  field(o, 3, 'i', (uint32_t)new_axis_mask);
  field(o, 4, 'i', (uint32_t)shrink_axis_mask);
  if (offset)
    field(o, 5, 'b', 1);
}

/* SplitOptions / SplitVOptions: num_splits 0. */
void tfw_split_options(TfwModel *m, int op, int num_splits) {
  field(options(m, op, OPT_SPLIT), 0, 'i', (uint32_t)num_splits);
}

void tfw_split_v_options(TfwModel *m, int op, int num_splits) {
  field(options(m, op, OPT_SPLIT_V), 0, 'i', (uint32_t)num_splits);
}

/* PackOptions: values_count 0, axis 1.  UnpackOptions: num 0, axis 1. */
void tfw_pack_options(TfwModel *m, int op, int values_count, int axis) {
  WOp *o = options(m, op, OPT_PACK);
  field(o, 0, 'i', (uint32_t)values_count);
  field(o, 1, 'i', (uint32_t)axis);
}

void tfw_unpack_options(TfwModel *m, int op, int num, int axis) {
  WOp *o = options(m, op, OPT_UNPACK);
  field(o, 0, 'i', (uint32_t)num);
  field(o, 1, 'i', (uint32_t)axis);
}

/* ResizeBilinearOptions: new_height 0 and new_width 1 (deprecated),
 * align_corners 2, half_pixel_centers 3. */
void tfw_resize_bilinear_options(TfwModel *m, int op, int align_corners,
                                 int half_pixel_centers) {
  WOp *o = options(m, op, OPT_RESIZE_BILINEAR);
  field(o, 2, 'b', (uint32_t)(align_corners != 0));
  field(o, 3, 'b', (uint32_t)(half_pixel_centers != 0));
}

/* ResizeNearestNeighborOptions: align_corners 0, half_pixel_centers 1. */
void tfw_resize_nearest_options(TfwModel *m, int op, int align_corners,
                                int half_pixel_centers) {
  WOp *o = options(m, op, OPT_RESIZE_NEAREST_NEIGHBOR);
  field(o, 0, 'b', (uint32_t)(align_corners != 0));
  field(o, 1, 'b', (uint32_t)(half_pixel_centers != 0));
}

/* ArgMaxOptions: output_type 0. */
void tfw_arg_max_options(TfwModel *m, int op, int output_type) {
  field(options(m, op, OPT_ARG_MAX), 0, 'b', (uint32_t)output_type);
}

/* LeakyReluOptions: alpha 0. */
void tfw_leaky_relu_options(TfwModel *m, int op, float alpha) {
  field(options(m, op, OPT_LEAKY_RELU), 0, 'f', f32_bits(alpha));
}

/* CastOptions: in_data_type 0, out_data_type 1. */
void tfw_cast_options(TfwModel *m, int op, int in_type, int out_type) {
  WOp *o = options(m, op, OPT_CAST);
  field(o, 0, 'b', (uint32_t)in_type);
  field(o, 1, 'b', (uint32_t)out_type);
}

/* Any options table of scalar fields: union type `type`, field k at
 * slot k, kinds[k] 'i' (int32) or 'b' (byte, bool or enum), value v[k]. */
void tfw_scalar_options(TfwModel *m, int op, int type, const char *kinds, const int32_t *v) {
  WOp *o = options(m, op, type);
  for (int k = 0; kinds[k]; k++)
    field(o, k, kinds[k] == 'b' ? 'b' : 'i', (uint32_t)v[k]);
}

/* VarHandleOptions: container 0, shared_name 1 (strings; NULL leaves
 * one out). */
void tfw_var_handle_options(TfwModel *m, int op, const char *container,
                            const char *shared_name) {
  WOp *o = options(m, op, OPT_VAR_HANDLE);
  const char *v[2] = {container, shared_name};
  for (int k = 0; k < 2; k++)
    if (v[k]) {
      field(o, k, 's', 0);
      o->fields[o->nfields - 1].str = xmemdup(v[k], strlen(v[k]) + 1);
    }
}

/* CallOnceOptions: init_subgraph_index 0. */
void tfw_call_once_options(TfwModel *m, int op, int init_subgraph_index) {
  field(options(m, op, OPT_CALL_ONCE), 0, 'i', (uint32_t)init_subgraph_index);
}

/* StableHLOCompositeOptions: name 0, decomposition_subgraph_index 1,
 * composite_attributes 2 (ubyte vector), composite_attributes_format 3
 * (FLEXBUFFERS, 0), version 4; BuiltinOptions2 type 21. */
void tfw_composite_options(TfwModel *m, int op, const char *name, int subgraph,
                           const uint8_t *attrs, size_t nattrs, int version) {
  WOp *o = options(m, op, 21);
  o->options2 = 1;
  field(o, 0, 's', 0);
  o->fields[o->nfields - 1].str = xmemdup(name, strlen(name) + 1);
  field(o, 1, 'i', (uint32_t)subgraph);
  if (attrs) {
    field(o, 2, 'u', 0);
    o->fields[o->nfields - 1].str = xmemdup(attrs, nattrs);
    o->fields[o->nfields - 1].nvec = (int)nattrs;
  }
  field(o, 4, 'i', (uint32_t)version);
}

void tfw_empty_options(TfwModel *m, int op) {
  int type;
  switch (m->codes[op_at(m, op)->opcode].code) {
  case TFW_OP_PAD: type = OPT_PAD; break;
  case TFW_OP_TRANSPOSE: type = OPT_TRANSPOSE; break;
  case TFW_OP_DEQUANTIZE: type = OPT_DEQUANTIZE; break;
  case TFW_OP_MAXIMUM:
  case TFW_OP_MINIMUM: type = OPT_MAXIMUM_MINIMUM; break;
  case TFW_OP_EXPAND_DIMS: type = OPT_EXPAND_DIMS; break;
  case TFW_OP_QUANTIZE: type = OPT_QUANTIZE; break;
  case TFW_OP_HARD_SWISH: type = OPT_HARD_SWISH; break;
  case TFW_OP_READ_VARIABLE: type = OPT_READ_VARIABLE; break;
  case TFW_OP_ASSIGN_VARIABLE: type = OPT_ASSIGN_VARIABLE; break;
  default:
    fail("operator %d has no empty options table", op);
    return;
  }
  options(m, op, type);
}

/* ------------------------------------------------------- serializing */

static size_t write_options(Fb *b, const WOp *o) {
  size_t vecs[8] = {0};
  for (int f = 0; f < o->nfields; f++)
    if (o->fields[f].kind == 'v')
      vecs[f] = fb_i32s(b, o->fields[f].vec, (size_t)o->fields[f].nvec);
    else if (o->fields[f].kind == 's')
      vecs[f] = fb_string(b, o->fields[f].str);
    else if (o->fields[f].kind == 'u')
      vecs[f] = fb_bytes(b, (const uint8_t *)o->fields[f].str,
                         (size_t)o->fields[f].nvec, 4);
  fb_start(b);
  /* Widest fields first keeps padding small; order does not matter. */
  for (int f = 0; f < o->nfields; f++) {
    const WField *x = &o->fields[f];
    if (x->kind == 'v' || x->kind == 's' || x->kind == 'u')
      fb_field_offset(b, x->slot, vecs[f]);
    else if (x->kind == 'i' || x->kind == 'f')
      fb_field(b, x->slot, x->value, 4);
  }
  for (int f = 0; f < o->nfields; f++)
    if (o->fields[f].kind == 'b')
      fb_field(b, o->fields[f].slot, o->fields[f].value, 1);
  return fb_end(b);
}

static size_t write_tensor(Fb *b, const WTensor *t) {
  size_t shape = fb_i32s(b, t->dims, (size_t)t->ndims);
  size_t name = fb_string(b, t->name);
  size_t quant = 0, blockwise = 0;
  if (t->block_size) { /* BlockwiseQuantization: scales 0, zero_points 1, block_size 2 */
    fb_start(b);
    fb_field(b, 0, (uint32_t)t->block_scales, 4);
    if (t->block_zero_points >= 0)
      fb_field(b, 1, (uint32_t)t->block_zero_points, 4);
    fb_field(b, 2, (uint32_t)t->block_size, 4);
    blockwise = fb_end(b);
    fb_start(b);
    fb_field_offset(b, 5, blockwise); /* details */
    fb_field(b, 4, 2, 1);             /* details_type BlockwiseQuantization */
    quant = fb_end(b);
  } else if (t->nq > 0) {
    uint64_t *tmp = xrealloc(NULL, (size_t)t->nq * sizeof *tmp);
    for (int i = 0; i < t->nq; i++)
      tmp[i] = f32_bits(t->scale[i]);
    size_t scale = fb_vector_u64(b, tmp, (size_t)t->nq, 4, 4);
    for (int i = 0; i < t->nq; i++)
      tmp[i] = (uint64_t)t->zero_point[i];
    size_t zp = fb_vector_u64(b, tmp, (size_t)t->nq, 8, 8);
    free(tmp);
    fb_start(b);
    fb_field_offset(b, 2, scale);
    fb_field_offset(b, 3, zp);
    if (t->qdim)
      fb_field(b, 6, (uint32_t)t->qdim, 4);
    quant = fb_end(b);
  }
  size_t sig = t->nsig ? fb_i32s(b, t->sig, (size_t)t->nsig) : 0;
  fb_start(b);
  fb_field_offset(b, 0, shape);
  if (sig)
    fb_field_offset(b, 7, sig);
  fb_field(b, 2, (uint32_t)t->buffer, 4);
  fb_field_offset(b, 3, name);
  if (quant)
    fb_field_offset(b, 4, quant);
  fb_field(b, 1, (uint32_t)t->dtype, 1);
  if (t->is_variable)
    fb_field(b, 5, 1, 1);
  return fb_end(b);
}

void tfw_finish(TfwModel *m, uint8_t **bytes, size_t *len) {
  Fb b;
  memset(&b, 0, sizeof b);
  b.minalign = 1;

  size_t *buffers = xrealloc(NULL, (size_t)m->nbuffers * sizeof *buffers);
  for (int i = 0; i < m->nbuffers; i++) {
    size_t data = 0;
    if (m->buffers[i].n)
      data = fb_bytes(&b, m->buffers[i].data, m->buffers[i].n, 16);
    fb_start(&b);
    if (data)
      fb_field_offset(&b, 0, data);
    buffers[i] = fb_end(&b);
  }

  size_t *codes = xrealloc(NULL, (size_t)(m->ncodes ? m->ncodes : 1) * sizeof *codes);
  for (int i = 0; i < m->ncodes; i++) {
    int c = m->codes[i].code;
    size_t custom = m->codes[i].custom ? fb_string(&b, m->codes[i].custom) : 0;
    fb_start(&b);
    if (custom)
      fb_field_offset(&b, 1, custom);
    fb_field(&b, 2, (uint32_t)m->codes[i].version, 4);
    fb_field(&b, 3, (uint32_t)c, 4);
    fb_field(&b, 0, (uint32_t)(c < 127 ? c : 127), 1);
    codes[i] = fb_end(&b);
  }

  size_t subgraphs[TFW_MAX_SUBGRAPHS];
  size_t *tensors = xrealloc(NULL, (size_t)(m->ntensors ? m->ntensors : 1) * sizeof *tensors);
  size_t *ops = xrealloc(NULL, (size_t)(m->nops ? m->nops : 1) * sizeof *ops);
  /* Back to front: the last subgraph first. */
  for (int s = m->nsub - 1; s >= 0; s--) {
  int nt = 0, nops = 0;
  for (int i = 0; i < m->ntensors; i++)
    if (m->tensors[i].sg == s)
      tensors[nt++] = write_tensor(&b, &m->tensors[i]);

  for (int i = 0; i < m->nops; i++) {
    if (m->ops[i].sg != s)
      continue;
    const WOp *o = &m->ops[i];
    size_t in = fb_i32s(&b, o->in, (size_t)o->nin);
    size_t out = fb_i32s(&b, o->out, (size_t)o->nout);
    size_t opt = o->options_type ? write_options(&b, o) : 0;
    size_t copt = o->custom_options
                      ? fb_bytes(&b, o->custom_options, o->ncustom_options, 4)
                      : 0;
    fb_start(&b);
    fb_field(&b, 0, (uint32_t)o->opcode, 4);
    fb_field_offset(&b, 1, in);
    fb_field_offset(&b, 2, out);
    if (opt)
      fb_field_offset(&b, o->options2 ? 12 : 4, opt);
    if (copt) /* custom_options_format (slot 6) stays FLEXBUFFERS, 0 */
      fb_field_offset(&b, 5, copt);
    if (o->options_type)
      fb_field(&b, o->options2 ? 11 : 3, (uint32_t)o->options_type, 1);
    ops[nops++] = fb_end(&b);
  }

  size_t vtensors = fb_offsets(&b, tensors, (size_t)nt);
  size_t vin = fb_i32s(&b, m->sub[s].inputs, (size_t)m->sub[s].ninputs);
  size_t vout = fb_i32s(&b, m->sub[s].outputs, (size_t)m->sub[s].noutputs);
  size_t vops = fb_offsets(&b, ops, (size_t)nops);
  size_t sgname = fb_string(&b, s ? "init" : "main");
  fb_start(&b);
  fb_field_offset(&b, 0, vtensors);
  fb_field_offset(&b, 1, vin);
  fb_field_offset(&b, 2, vout);
  fb_field_offset(&b, 3, vops);
  fb_field_offset(&b, 4, sgname);
  subgraphs[s] = fb_end(&b);
  }

  size_t vcodes = fb_offsets(&b, codes, (size_t)m->ncodes);
  size_t vsub = fb_offsets(&b, subgraphs, (size_t)m->nsub);
  size_t desc = fb_string(&b, "tinyaot test model");
  size_t vbuf = fb_offsets(&b, buffers, (size_t)m->nbuffers);
  fb_start(&b);
  fb_field(&b, 0, 3, 4);
  fb_field_offset(&b, 1, vcodes);
  fb_field_offset(&b, 2, vsub);
  fb_field_offset(&b, 3, desc);
  fb_field_offset(&b, 4, vbuf);
  size_t root = fb_end(&b);

  /* Root uoffset, then the file identifier at bytes 4..7. */
  fb_prep(&b, b.minalign, 8);
  fb_push(&b, "TFL3", 4);
  fb_uoffset(&b, root);

  *len = b.len;
  *bytes = xmemdup(b.buf + b.cap - b.len, b.len);
  free(b.buf);
  free(buffers);
  free(codes);
  free(tensors);
  free(ops);
}

int tfw_write_file(TfwModel *m, const char *path) {
  uint8_t *bytes;
  size_t len;
  tfw_finish(m, &bytes, &len);
  FILE *f = fopen(path, "wb");
  if (!f) {
    free(bytes);
    return -1;
  }
  size_t w = fwrite(bytes, 1, len, f);
  int err = errno;
  free(bytes);
  if (fclose(f) != 0 || w != len) {
    errno = err ? err : EIO;
    return -1;
  }
  return 0;
}

/* ------------------------------------------------------ FlexBuffers */

/*
 * A FlexBuffers map of scalars, the custom options TFLite's converter
 * writes (flexbuffers::Builder's Map of Int, Float and Bool), every slot
 * 4 bytes wide:
 *   the keys, NUL-terminated, padded to 4;
 *   the keys vector: count, then one offset per key (back to its string);
 *   the map: offset back to the keys vector, the keys vector's byte
 *   width (4), count, then the values (int32, float32, bool as uint32),
 *   then one packed type byte per value (type << 2 | 2: 32-bit);
 *   the root: offset back to the map, its packed type (MAP << 2 | 2) and
 *   the root's byte width (1).
 * Keys are sorted by strcmp, as the builder sorts them: TFLite looks
 * them up by binary search.
 */
static int flex_cmp(const void *a, const void *b) {
  return strcmp(((const TfwFlexEntry *)a)->key, ((const TfwFlexEntry *)b)->key);
}

size_t tfw_flex_map(const TfwFlexEntry *entries, int n, uint8_t **bytes) {
  if (n < 0 || n > 64)
    fail("a FlexBuffers map of %d entries", n);
  TfwFlexEntry *e = xmemdup(entries, (size_t)n * sizeof *e);
  qsort(e, (size_t)n, sizeof *e, flex_cmp);
  size_t cap = 64 + (size_t)n * 16;
  for (int i = 0; i < n; i++)
    cap += strlen(e[i].key) + 4;
  uint8_t *buf = xrealloc(NULL, cap);
  memset(buf, 0, cap);
  size_t at = 0;
  size_t *keypos = xrealloc(NULL, (size_t)(n ? n : 1) * sizeof *keypos);
  for (int i = 0; i < n; i++) {
    keypos[i] = at;
    size_t len = strlen(e[i].key) + 1;
    memcpy(buf + at, e[i].key, len);
    at += len;
  }
  at = (at + 3) & ~(size_t)3;
  put_le(buf + at, (uint64_t)n, 4); /* the keys vector's count */
  at += 4;
  size_t keys = at;
  for (int i = 0; i < n; i++, at += 4)
    put_le(buf + at, (uint64_t)(at - keypos[i]), 4);
  put_le(buf + at, (uint64_t)(at - keys), 4); /* map: offset to the keys */
  put_le(buf + at + 4, 4, 4);                 /* their byte width */
  put_le(buf + at + 8, (uint64_t)n, 4);        /* count */
  at += 12;
  size_t map = at;
  for (int i = 0; i < n; i++, at += 4) {
    uint32_t v = e[i].type == 'f' ? f32_bits(e[i].f) : (uint32_t)e[i].i;
    put_le(buf + at, v, 4);
  }
  for (int i = 0; i < n; i++)
    buf[at++] = (uint8_t)((e[i].type == 'f' ? 3 : e[i].type == 'b' ? 26 : 1) << 2 | 2);
  buf[at] = (uint8_t)(at - map); /* the root: one byte back to the map */
  if (at - map > 255)
    fail("FlexBuffers map too large for a one-byte root");
  buf[at + 1] = 9 << 2 | 2;
  buf[at + 2] = 1;
  at += 3;
  free(keypos);
  free(e);
  *bytes = buf;
  return at;
}
