/* SPDX-License-Identifier: Apache-2.0 */
/*
 * tflite.c - the .tflite reader: FlatBuffers bytes -> IR (Graph).
 *
 * A .tflite file is a FlatBuffer of the TFLite schema (schema.fbs).  The
 * file is untrusted, so this reader decodes it by hand and every access
 * goes through the handful of accessors below (need, rd*, deref,
 * table_at, field, get_*, vec_*).  They check every offset, vtable,
 * vector length and string against the file size, with overflow-checked
 * arithmetic; nothing else in the file touches `buf` directly.
 *
 * FlatBuffers in four lines: a table starts with an int32 soffset to its
 * vtable (vtable = table - soffset); the vtable holds its own size, the
 * table's inline size and one uint16 offset per field (0 = absent, take
 * the default).  Non-scalar fields hold a uint32 offset relative to the
 * field itself; vectors and strings start with a uint32 count.  A union
 * field `x` takes two slots: `x_type` (a byte) and then `x`.
 *
 * Contract (doc/ir.md): on success the Graph holds subgraph 0 with every
 * tensor index in range (or -1 for an optional op input), ranks <= 8,
 * dims >= 0 and tensor sizes bounded by MAX_TENSOR_BYTES, known dtypes,
 * known builtin ops (or CUSTOM with a name), and pointers into `buf` for
 * names, constant data, custom options and metadata.  Resource
 * variables are resolved into variable tensors, CALL_ONCE's init
 * subgraph evaluated (resolve_variables, below), STABLEHLO_COMPOSITE
 * decompositions inlined (inline_composite, below), IF's branches and
 * WHILE's cond and body inlined between structure ops (inline_if,
 * inline_while, below); no other subgraph is read.  Anything else ends in one error_at()/error_file() message.
 */
#include "tinyaot.h"

#include <stdarg.h>
#include <string.h>

/* Largest tensor, in bytes, the reader accepts: keeps every byte count
 * (and sums of them) far from overflow. */
#define MAX_TENSOR_BYTES ((int64_t)INT32_MAX)

typedef struct {
  size_t pos;   /* table start; 0 = absent table */
  size_t vt;    /* its vtable */
  size_t vtlen; /* vtable bytes */
  size_t len;   /* table bytes (inline fields) */
} Table;

typedef struct {
  size_t pos; /* first element */
  size_t n;   /* element count */
} Vec;

typedef struct {
  const char *path;
  const uint8_t *buf;
  size_t size;
  size_t budget; /* vector elements we may still copy into the arena */
  Graph *g;
  int op;        /* op being read (its kind is known), or -1 */
  bool *resource; /* subgraph 0: which tensors are RESOURCE handles */
  int captensors, capops; /* room in g->tensors, g->ops, r->resource */
  /* Inlining a composite's decomposition (inline_composite, below): */
  const int *map; /* its tensor -> graph tensor, or NULL in subgraph 0 */
  int nmap;       /* its tensor count */
  Vec subgraphs, buffers;
  const struct OpCode *codes;
  int ncodes;
  bool *active;   /* subgraphs being inlined (recursion) */
  int ndecomp;    /* subgraphs inlined as decompositions */
  bool *decomp;   /* which */
  char where[64]; /* what is being read, for messages: "tensor 7" */
  /* Subgraph 0's tensors with BlockwiseQuantization details: the block
   * size (0: none) and the tensor holding the scales, refused by the
   * first op that reads one (blockwise_refusal()). */
  int32_t *block_size, *block_scales;
  bool other_subgraph; /* reading a tensor of another subgraph than 0
                          (read_tensor_at): its index is that subgraph's */
} Reader;


/* ---------------------------------------------------------- errors */

static TA_NORETURN TA_PRINTF(2, 3) void fail(Reader *r, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  const char *sep = r->where[0] ? ": " : "";
  if (r->op >= 0)
    error_at(r->g, r->op, "%s%s%s", r->where, sep, msg);
  error_file(r->path, "%s%s%s", r->where, sep, msg);
}

/* ------------------------------------------------------- accessors */

void (*read_trace)(size_t pos, size_t width, FieldKind kind, const char *what);

/* Tells read_trace (when set) where a decoded value lies. */
static void trace(size_t pos, size_t width, FieldKind kind, const char *what) {
  if (read_trace)
    read_trace(pos, width, kind, what);
}

/* Checks that bytes [pos, pos + n) lie inside the file. */
static void need(Reader *r, size_t pos, size_t n, const char *what) {
  if (pos > r->size || n > r->size - pos)
    fail(r, "%s at offset %zu (%zu bytes) lies outside the file (%zu bytes)",
         what, pos, n, r->size);
}

/* Little-endian loads, bounds-checked. */
static uint64_t rdn(Reader *r, size_t pos, size_t n, const char *what) {
  need(r, pos, n, what);
  uint64_t v = 0;
  for (size_t i = 0; i < n; i++)
    v |= (uint64_t)r->buf[pos + i] << (8 * i);
  return v;
}
static uint32_t rd32(Reader *r, size_t pos, const char *what) {
  return (uint32_t)rdn(r, pos, 4, what);
}
static uint16_t rd16(Reader *r, size_t pos, const char *what) {
  return (uint16_t)rdn(r, pos, 2, what);
}

/* Follows the uoffset stored at pos; the target must lie in the file. */
static size_t deref(Reader *r, size_t pos, const char *what) {
  uint32_t off = rd32(r, pos, what);
  size_t to;
  if (off == 0 || add_overflows(pos, off, &to) || to >= r->size)
    fail(r, "%s: offset %u at %zu points outside the file (%zu bytes)", what,
         off, pos, r->size);
  return to;
}

/* The table at pos, with its vtable checked. */
static Table table_at(Reader *r, size_t pos, const char *what) {
  Table t;
  int32_t so = (int32_t)rd32(r, pos, what);
  int64_t vt = (int64_t)pos - (int64_t)so;
  if (vt < 0 || (uint64_t)vt > r->size)
    fail(r, "%s: vtable offset %d at %zu points outside the file", what, so,
         pos);
  t.pos = pos;
  t.vt = (size_t)vt;
  t.vtlen = rd16(r, t.vt, what);
  t.len = rd16(r, t.vt + 2, what);
  if (t.vtlen < 4 || t.vtlen % 2 != 0)
    fail(r, "%s: bad vtable size %zu", what, t.vtlen);
  need(r, t.vt, t.vtlen, what);
  if (t.len < 4)
    fail(r, "%s: bad table size %zu", what, t.len);
  need(r, t.pos, t.len, what);
  return t;
}

/* Position of field `slot` of t (which must hold `width` bytes inside
 * the table), or 0 when the field (or the table) is absent. */
static size_t field(Reader *r, const Table *t, int slot, size_t width,
                    const char *what) {
  size_t e = 4 + 2 * (size_t)slot;
  if (t->pos == 0 || e + 2 > t->vtlen)
    return 0;
  size_t off = rd16(r, t->vt + e, what);
  if (off == 0)
    return 0;
  if (off < 4 || off + width > t->len)
    fail(r, "%s: field %d lies outside its table", what, slot);
  return t->pos + off;
}

/* Scalar fields: unsigned, signed (sign-extended), float. */
static uint64_t get_u(Reader *r, const Table *t, int slot, size_t width,
                      uint64_t def, const char *what) {
  size_t p = field(r, t, slot, width, what);
  if (!p)
    return def;
  trace(p, width, FIELD_INT, what);
  return rdn(r, p, width, what);
}
static int64_t get_i(Reader *r, const Table *t, int slot, size_t width,
                     int64_t def, const char *what) {
  size_t p = field(r, t, slot, width, what);
  if (!p)
    return def;
  trace(p, width, FIELD_INT, what);
  uint64_t v = rdn(r, p, width, what);
  unsigned shift = 64 - 8 * (unsigned)width;
  return (int64_t)(v << shift) >> shift;
}
static bool get_bool(Reader *r, const Table *t, int slot, bool def,
                     const char *what) {
  return get_u(r, t, slot, 1, def, what) != 0;
}
static int32_t get_i32(Reader *r, const Table *t, int slot, int32_t def,
                       const char *what) {
  return (int32_t)get_i(r, t, slot, 4, def, what);
}
static float u32_float(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}
static float get_f32(Reader *r, const Table *t, int slot, float def,
                     const char *what) {
  size_t p = field(r, t, slot, 4, what);
  if (!p)
    return def;
  trace(p, 4, FIELD_FLOAT, what);
  return u32_float(rd32(r, p, what));
}

/* A sub-table field; false (and an absent *out) when missing. */
static bool get_table(Reader *r, const Table *t, int slot, Table *out,
                      const char *what) {
  size_t p = field(r, t, slot, 4, what);
  memset(out, 0, sizeof *out);
  if (!p)
    return false;
  *out = table_at(r, deref(r, p, what), what);
  return true;
}

/* A vector field of `elem`-byte elements; n = 0 when missing. */
static Vec get_vec(Reader *r, const Table *t, int slot, size_t elem,
                   const char *what) {
  Vec v = {0, 0};
  size_t p = field(r, t, slot, 4, what);
  if (!p)
    return v;
  size_t at = deref(r, p, what);
  trace(at, 4, FIELD_LENGTH, what);
  size_t n = rd32(r, at, what), bytes;
  if (mul_overflows(n, elem, &bytes))
    fail(r, "%s: vector of %zu elements is too long", what, n);
  need(r, at + 4, bytes, what);
  v.pos = at + 4;
  v.n = n;
  return v;
}

/* A string field: points into the file, which must hold its NUL; ""
 * when missing. */
static const char *get_str(Reader *r, const Table *t, int slot,
                           const char *what) {
  Vec v = get_vec(r, t, slot, 1, what);
  if (v.pos == 0)
    return "";
  need(r, v.pos + v.n, 1, what);
  if (r->buf[v.pos + v.n] != 0)
    fail(r, "%s: string is not NUL-terminated", what);
  return (const char *)r->buf + v.pos;
}

/* Element i of a vector of tables / int32 / uint8 bytes. */
static Table vec_table(Reader *r, Vec v, size_t i, const char *what) {
  return table_at(r, deref(r, v.pos + 4 * i, what), what);
}
static int32_t vec_i32(Reader *r, Vec v, size_t i, const char *what) {
  trace(v.pos + 4 * i, 4, FIELD_INT, what);
  return (int32_t)rd32(r, v.pos + 4 * i, what);
}
static const uint8_t *vec_bytes(Vec v, const Reader *r) {
  return v.n ? r->buf + v.pos : NULL;
}

/* Charges n copied elements against the budget: a file whose vectors
 * are shared many times over cannot blow up the arena. */
static void charge(Reader *r, size_t n, const char *what) {
  if (n > r->budget)
    fail(r, "%s: the file references more data than it holds", what);
  r->budget -= n;
}

/* An int32 vector copied into the arena. */
static int *vec_ints(Reader *r, Vec v, const char *what) {
  charge(r, v.n, what);
  int *a = arena_array(v.n ? v.n : 1, sizeof *a);
  for (size_t i = 0; i < v.n; i++)
    a[i] = vec_i32(r, v, i, what);
  return a;
}

/* --------------------------------------------------------- buffers */

/* The bytes of buffer `index` (NULL, 0 when empty).  Data lives either
 * in the `data` vector or, in files over 2 GB, at Buffer.offset/size
 * relative to the start of the file (valid when offset > 1). */
static const uint8_t *buffer_data(Reader *r, Vec buffers, uint32_t index,
                                  size_t *n) {
  *n = 0;
  if (index == 0 && buffers.n == 0)
    return NULL;
  if (index >= buffers.n)
    fail(r, "buffer index %u out of range (the model has %zu buffers)",
         index, buffers.n);
  Table b = vec_table(r, buffers, index, "buffer");
  uint64_t off = get_u(r, &b, 1, 8, 0, "buffer offset");
  uint64_t size = get_u(r, &b, 2, 8, 0, "buffer size");
  if (off > 1) {
    if (off > r->size || size > r->size - off)
      fail(r, "buffer %u: external data at offset %llu (%llu bytes) lies "
              "outside the file (%zu bytes)",
           index, (unsigned long long)off, (unsigned long long)size, r->size);
    *n = (size_t)size;
    return size ? r->buf + off : NULL;
  }
  Vec d = get_vec(r, &b, 0, 1, "buffer data");
  *n = d.n;
  return vec_bytes(d, r);
}

/* --------------------------------------------------------- tensors */

/* QuantizationDetails union types of the schema. */
enum { QD_CUSTOM = 1, QD_BLOCKWISE = 2 };

static void read_quant(Reader *r, Tensor *t, const Table *q) {
  uint64_t details = get_u(r, q, 4, 1, 0, "quantization details type");
  Table bw;
  if (details == QD_BLOCKWISE && r->block_size && !r->map && !r->other_subgraph &&
      get_table(r, q, 5, &bw, "blockwise quantization")) {
    /* BlockwiseQuantization {scales, zero_points, block_size}: kept for
     * the refusal, which names the op that reads the tensor. */
    r->block_scales[t->index] = get_i32(r, &bw, 0, -1, "blockwise scales");
    int32_t bs = get_i32(r, &bw, 2, 0, "block_size");
    r->block_size[t->index] = bs > 0 ? bs : -1;
    return;
  }
  if (details == QD_BLOCKWISE)
    fail(r, "blockwise quantization is not supported");
  if (details != 0)
    fail(r, "custom quantization (QuantizationDetails) is not supported");
  Vec scale = get_vec(r, q, 2, 4, "quantization scale");
  Vec zp = get_vec(r, q, 3, 8, "quantization zero_point");
  t->q.axis = get_i32(r, q, 6, 0, "quantized_dimension");
  if (scale.n == 0)
    return;
  if (scale.n > INT32_MAX)
    fail(r, "%zu quantization scales are too many", scale.n);
  charge(r, 3 * scale.n, "quantization");
  t->q.nscale = (int)scale.n;
  t->q.scale = arena_array(scale.n, sizeof(float));
  t->q.zero_point = arena_array(scale.n, sizeof(int64_t));
  for (size_t i = 0; i < scale.n; i++) {
    trace(scale.pos + 4 * i, 4, FIELD_FLOAT, "scale");
    t->q.scale[i] = u32_float(rd32(r, scale.pos + 4 * i, "scale"));
    if (i < zp.n) {
      trace(zp.pos + 8 * i, 8, FIELD_INT, "zero_point");
      t->q.zero_point[i] = (int64_t)rdn(r, zp.pos + 8 * i, 8, "zero_point");
    }
  }
}

static void read_dims(Reader *r, Vec v, int32_t *dims, int *ndims,
                      const char *what) {
  if (v.n > MAX_DIMS)
    fail(r, "%s has rank %zu; at most %d is supported", what, v.n, MAX_DIMS);
  *ndims = (int)v.n;
  for (size_t i = 0; i < v.n; i++)
    dims[i] = vec_i32(r, v, i, what);
}

/* TensorType RESOURCE: a variable's handle (VAR_HANDLE's output). */
#define TFLITE_RESOURCE 13

/* Reads tensor table tt into t.  A RESOURCE tensor sets *resource (when
 * resource is not NULL; else it is refused) and reads as an int32 handle
 * until resolve_variables() makes it the variable itself. */
static void read_tensor(Reader *r, Tensor *t, const Table *tt, Vec buffers,
                        bool *resource) {
  read_dims(r, get_vec(r, tt, 0, 4, "shape"), t->dims, &t->ndims, "shape");
  int code = (int)get_i(r, tt, 1, 1, 0, "type");
  if (code == TFLITE_RESOURCE && resource) {
    *resource = true;
    t->dtype = DT_INT32;
  } else if (!dtype_from_tflite(code, &t->dtype))
    fail(r, "unsupported element type %u", (unsigned)(uint8_t)code);
  t->name = get_str(r, tt, 3, "name");
  Table q;
  if (get_table(r, tt, 4, &q, "quantization"))
    read_quant(r, t, &q);
  t->is_variable = get_bool(r, tt, 5, false, "is_variable");
  if (field(r, tt, 6, 4, "sparsity"))
    fail(r, "sparse tensors are not supported");
  Vec sig = get_vec(r, tt, 7, 4, "shape_signature");
  if (sig.n) {
    if (sig.n != (size_t)t->ndims)
      fail(r, "shape_signature has rank %zu but shape has rank %d", sig.n,
           t->ndims);
    read_dims(r, sig, t->signature, &t->nsignature, "shape_signature");
  }

  /* Bound the size now: tensor_elems()/tensor_bytes() rely on it. */
  int64_t elems = 1;
  int64_t width = (dtype_bits(t->dtype) + 7) / 8;
  for (int i = 0; i < t->ndims; i++) {
    if (t->dims[i] < 0)
      fail(r, "dimension %d is %d (dynamic or negative shapes are not "
              "supported)",
           i, t->dims[i]);
    if (t->dims[i] > 0 && elems > MAX_TENSOR_BYTES / t->dims[i])
      fail(r, "shape is too large (more than %lld bytes)",
           (long long)MAX_TENSOR_BYTES);
    elems *= t->dims[i];
  }
  if (width > 0 && elems > MAX_TENSOR_BYTES / width)
    fail(r, "shape is too large (more than %lld bytes)",
         (long long)MAX_TENSOR_BYTES);

  uint32_t b = (uint32_t)get_u(r, tt, 2, 4, 0, "buffer index");
  if (b > INT32_MAX)
    fail(r, "buffer index %u out of range", b);
  t->buffer = (int)b;
  t->data = buffer_data(r, buffers, b, &t->ndata);
  if (resource && *resource && t->data)
    fail(r, "a resource tensor holds constant data");
}

/* ------------------------------------------------------ op options */

/* BuiltinOptions union members (schema.fbs order, NONE = 0). */
enum {
  BO_NONE = 0,
  BO_CONV2D = 1,
  BO_DEPTHWISE_CONV2D = 2,
  BO_POOL2D = 5,
  BO_SVDF = 6,
  BO_FULLY_CONNECTED = 8,
  BO_SOFTMAX = 9,
  BO_CONCATENATION = 10,
  BO_ADD = 11,
  BO_L2NORM = 12,
  BO_RESIZE_BILINEAR = 15,
  BO_CALL = 16,
  BO_RESHAPE = 17,
  BO_SPACE_TO_DEPTH = 19,
  BO_MUL = 21,
  BO_PAD = 22,
  BO_GATHER = 23,
  BO_BATCH_TO_SPACE_ND = 24,
  BO_SPACE_TO_BATCH_ND = 25,
  BO_TRANSPOSE = 26,
  BO_REDUCER = 27,
  BO_SUB = 28,
  BO_DIV = 29,
  BO_SQUEEZE = 30,
  BO_STRIDED_SLICE = 32,
  BO_EXP = 33,
  BO_SPLIT = 35,
  BO_LOG_SOFTMAX = 36,
  BO_CAST = 37,
  BO_DEQUANTIZE = 38,
  BO_MAXIMUM_MINIMUM = 39,
  BO_ARG_MAX = 40,
  BO_NEG = 42,
  BO_PADV2 = 43,
  BO_SLICE = 48,
  BO_TRANSPOSE_CONV = 49,
  BO_EXPAND_DIMS = 52,
  BO_ARG_MIN = 57,
  BO_PACK = 59,
  BO_UNPACK = 64,
  BO_SQUARE = 66,
  BO_UNIDIRECTIONAL_SEQUENCE_LSTM = 71,
  BO_RESIZE_NEAREST_NEIGHBOR = 74,
  BO_LEAKY_RELU = 75,
  BO_SQUARED_DIFFERENCE = 76,
  BO_ABS = 78,
  BO_SPLIT_V = 79,
  BO_QUANTIZE = 89,
  BO_HARD_SWISH = 91,
  BO_IF = 92,
  BO_WHILE = 93,
  BO_DEPTH_TO_SPACE = 94,
  BO_BATCH_MATMUL = 101,
  BO_CALL_ONCE = 103,
  BO_VAR_HANDLE = 111,
  BO_READ_VARIABLE = 112,
  BO_ASSIGN_VARIABLE = 113,
  /* the data-movement and reduction ops (passes/lower_data.c) */
  BO_TILE = 51,
  BO_SHAPE = 55,
  BO_FILL = 68,
  BO_MIRROR_PAD = 77,
  BO_REVERSE_V2 = 81,
  BO_GATHER_ND = 83,
  BO_CUMSUM = 102,
  BO_BROADCAST_TO = 104,
  /* Tables without fields: element-wise math, comparisons, logic. */
  BO_LESS = 41,
  BO_GREATER = 44,
  BO_GREATER_EQUAL = 45,
  BO_LESS_EQUAL = 46,
  BO_SELECT = 47,
  BO_EQUAL = 53,
  BO_NOT_EQUAL = 54,
  BO_LOGICAL_OR = 60,
  BO_LOGICAL_AND = 62,
  BO_LOGICAL_NOT = 63,
  BO_FLOOR_DIV = 65,
  BO_ZEROS_LIKE = 67,
  BO_FLOOR_MOD = 72,
  BO_ADD_N = 82,
  BO_COS = 84,
  BO_SELECT_V2 = 98,
  BO_RFFT2D = 105,
};

/* The options table each op kind carries (BO_NONE: none in the schema). */
static int options_type(OpKind k) {
  switch (k) {
  case OP_CONV_2D: return BO_CONV2D;
  case OP_DEPTHWISE_CONV_2D: return BO_DEPTHWISE_CONV2D;
  case OP_AVERAGE_POOL_2D: case OP_MAX_POOL_2D: return BO_POOL2D;
  case OP_SVDF: return BO_SVDF;
  case OP_FULLY_CONNECTED: return BO_FULLY_CONNECTED;
  case OP_SOFTMAX: return BO_SOFTMAX;
  case OP_CONCATENATION: return BO_CONCATENATION;
  case OP_ADD: return BO_ADD;
  case OP_L2_NORMALIZATION: return BO_L2NORM;
  case OP_RESIZE_BILINEAR: return BO_RESIZE_BILINEAR;
  case OP_CALL: return BO_CALL;
  case OP_RESHAPE: return BO_RESHAPE;
  case OP_SPACE_TO_DEPTH: return BO_SPACE_TO_DEPTH;
  case OP_MUL: return BO_MUL;
  case OP_PAD: return BO_PAD;
  case OP_GATHER: return BO_GATHER;
  case OP_BATCH_TO_SPACE_ND: return BO_BATCH_TO_SPACE_ND;
  case OP_SPACE_TO_BATCH_ND: return BO_SPACE_TO_BATCH_ND;
  case OP_TRANSPOSE: return BO_TRANSPOSE;
  case OP_MEAN: case OP_SUM: case OP_REDUCE_MAX: case OP_REDUCE_MIN: return BO_REDUCER;
  case OP_SUB: return BO_SUB;
  case OP_DIV: return BO_DIV;
  case OP_SQUEEZE: return BO_SQUEEZE;
  case OP_STRIDED_SLICE: return BO_STRIDED_SLICE;
  case OP_EXP: return BO_EXP;
  case OP_SPLIT: return BO_SPLIT;
  case OP_LOG_SOFTMAX: return BO_LOG_SOFTMAX;
  case OP_CAST: return BO_CAST;
  case OP_DEQUANTIZE: return BO_DEQUANTIZE;
  case OP_MAXIMUM: case OP_MINIMUM: return BO_MAXIMUM_MINIMUM;
  case OP_ARG_MAX: return BO_ARG_MAX;
  case OP_NEG: return BO_NEG;
  case OP_PADV2: return BO_PADV2;
  case OP_SLICE: return BO_SLICE;
  case OP_TRANSPOSE_CONV: return BO_TRANSPOSE_CONV;
  case OP_EXPAND_DIMS: return BO_EXPAND_DIMS;
  case OP_ARG_MIN: return BO_ARG_MIN;
  case OP_PACK: return BO_PACK;
  case OP_UNPACK: return BO_UNPACK;
  case OP_SQUARE: return BO_SQUARE;
  case OP_UNIDIRECTIONAL_SEQUENCE_LSTM: return BO_UNIDIRECTIONAL_SEQUENCE_LSTM;
  case OP_RESIZE_NEAREST_NEIGHBOR: return BO_RESIZE_NEAREST_NEIGHBOR;
  case OP_LEAKY_RELU: return BO_LEAKY_RELU;
  case OP_SQUARED_DIFFERENCE: return BO_SQUARED_DIFFERENCE;
  case OP_ABS: return BO_ABS;
  case OP_SPLIT_V: return BO_SPLIT_V;
  case OP_QUANTIZE: return BO_QUANTIZE;
  case OP_HARD_SWISH: return BO_HARD_SWISH;
  case OP_IF: return BO_IF;
  case OP_WHILE: return BO_WHILE;
  case OP_DEPTH_TO_SPACE: return BO_DEPTH_TO_SPACE;
  case OP_BATCH_MATMUL: return BO_BATCH_MATMUL;
  case OP_CALL_ONCE: return BO_CALL_ONCE;
  case OP_VAR_HANDLE: return BO_VAR_HANDLE;
  case OP_READ_VARIABLE: return BO_READ_VARIABLE;
  case OP_ASSIGN_VARIABLE: return BO_ASSIGN_VARIABLE;
  case OP_TILE: return BO_TILE;
  case OP_SHAPE: return BO_SHAPE;
  case OP_FILL: return BO_FILL;
  case OP_MIRROR_PAD: return BO_MIRROR_PAD;
  case OP_REVERSE_V2: return BO_REVERSE_V2;
  case OP_GATHER_ND: return BO_GATHER_ND;
  case OP_CUMSUM: return BO_CUMSUM;
  case OP_BROADCAST_TO: return BO_BROADCAST_TO;
  case OP_L2_POOL_2D: return BO_POOL2D;
  case OP_LESS: return BO_LESS;
  case OP_GREATER: return BO_GREATER;
  case OP_GREATER_EQUAL: return BO_GREATER_EQUAL;
  case OP_LESS_EQUAL: return BO_LESS_EQUAL;
  case OP_SELECT: return BO_SELECT;
  case OP_EQUAL: return BO_EQUAL;
  case OP_NOT_EQUAL: return BO_NOT_EQUAL;
  case OP_LOGICAL_OR: return BO_LOGICAL_OR;
  case OP_LOGICAL_AND: return BO_LOGICAL_AND;
  case OP_LOGICAL_NOT: return BO_LOGICAL_NOT;
  case OP_FLOOR_DIV: return BO_FLOOR_DIV;
  case OP_ZEROS_LIKE: return BO_ZEROS_LIKE;
  case OP_FLOOR_MOD: return BO_FLOOR_MOD;
  case OP_ADD_N: return BO_ADD_N;
  case OP_COS: return BO_COS;
  case OP_SELECT_V2: return BO_SELECT_V2;
  case OP_RFFT2D: return BO_RFFT2D;
  default: return BO_NONE;
  }
}

static Padding rd_padding(Reader *r, const Table *t, int slot) {
  int64_t v = get_i(r, t, slot, 1, 0, "padding");
  if (v != PAD_SAME && v != PAD_VALID) /* the byte as stored: 255, not -1 */
    fail(r, "padding %u is neither SAME (0) nor VALID (1)", (unsigned)(uint8_t)v);
  return (Padding)v;
}

static Activation rd_act(Reader *r, const Table *t, int slot) {
  int64_t v = get_i(r, t, slot, 1, 0, "fused_activation_function");
  if (v < ACT_NONE || v > ACT_SIGN_BIT)
    fail(r, "unknown fused activation function %u", (unsigned)(uint8_t)v);
  return (Activation)v;
}

static DType rd_dtype(Reader *r, const Table *t, int slot, const char *what) {
  int code = (int)get_i(r, t, slot, 1, 0, what);
  DType dt;
  if (!dtype_from_tflite(code, &dt))
    fail(r, "%s: unknown tensor type %d", what, code);
  return dt;
}

/* Reads a small int vector field into dims (RESHAPE new_shape, SQUEEZE
 * squeeze_dims); returns its length, or -1 when absent. */
static int rd_small_vec(Reader *r, const Table *t, int slot, int32_t *out,
                        const char *what) {
  if (!field(r, t, slot, 4, what))
    return -1;
  int n;
  read_dims(r, get_vec(r, t, slot, 4, what), out, &n, what);
  return n;
}

/*
 * Fills op->opt from its options table `t` (absent: schema defaults).
 * Slots follow the table's field order in schema.fbs.
 */
static void read_options(Reader *r, Op *op, const Table *t) {
  Options *o = &op->opt;
  o->dilation_w = o->dilation_h = 1;
  o->pot_scale_int16 = true;
  switch (options_type(op->kind)) {
  case BO_VAR_HANDLE:
    o->fields = OPTF_VAR_HANDLE;
    o->container = get_str(r, t, 0, "container");
    o->shared_name = get_str(r, t, 1, "shared_name");
    break;
  case BO_CALL_ONCE:
    o->fields = OPTF_CALL_ONCE;
    o->init_subgraph = get_i32(r, t, 0, 0, "init_subgraph_index");
    break;
  case BO_IF: /* IfOptions: then_, else_subgraph_index */
  case BO_WHILE: /* WhileOptions: cond_, body_subgraph_index */
    o->fields = OPTF_SUBGRAPHS;
    o->subgraph[0] = get_i32(r, t, 0, 0, op->kind == OP_IF ? "then_subgraph_index"
                                                             : "cond_subgraph_index");
    o->subgraph[1] = get_i32(r, t, 1, 0, op->kind == OP_IF ? "else_subgraph_index"
                                                             : "body_subgraph_index");
    break;
  case BO_CONV2D:
    o->fields = OPTF_PADDING | OPTF_STRIDE | OPTF_ACTIVATION | OPTF_DILATION |
                OPTF_BIAS_TYPE;
    o->padding = rd_padding(r, t, 0);
    o->stride_w = get_i32(r, t, 1, 0, "stride_w");
    o->stride_h = get_i32(r, t, 2, 0, "stride_h");
    o->activation = rd_act(r, t, 3);
    o->dilation_w = get_i32(r, t, 4, 1, "dilation_w_factor");
    o->dilation_h = get_i32(r, t, 5, 1, "dilation_h_factor");
    o->quantized_bias_type = rd_dtype(r, t, 6, "quantized_bias_type");
    break;
  case BO_DEPTHWISE_CONV2D:
    o->fields = OPTF_PADDING | OPTF_STRIDE | OPTF_DEPTH_MULT | OPTF_ACTIVATION |
                OPTF_DILATION;
    o->padding = rd_padding(r, t, 0);
    o->stride_w = get_i32(r, t, 1, 0, "stride_w");
    o->stride_h = get_i32(r, t, 2, 0, "stride_h");
    o->depth_multiplier = get_i32(r, t, 3, 0, "depth_multiplier");
    o->activation = rd_act(r, t, 4);
    o->dilation_w = get_i32(r, t, 5, 1, "dilation_w_factor");
    o->dilation_h = get_i32(r, t, 6, 1, "dilation_h_factor");
    break;
  case BO_POOL2D:
    o->fields = OPTF_PADDING | OPTF_STRIDE | OPTF_FILTER | OPTF_ACTIVATION;
    o->padding = rd_padding(r, t, 0);
    o->stride_w = get_i32(r, t, 1, 0, "stride_w");
    o->stride_h = get_i32(r, t, 2, 0, "stride_h");
    o->filter_w = get_i32(r, t, 3, 0, "filter_width");
    o->filter_h = get_i32(r, t, 4, 0, "filter_height");
    o->activation = rd_act(r, t, 5);
    break;
  case BO_SVDF:
    o->fields = OPTF_RANK | OPTF_ACTIVATION | OPTF_ASYMMETRIC;
    o->rank = get_i32(r, t, 0, 0, "rank");
    o->activation = rd_act(r, t, 1);
    o->asymmetric_quantize_inputs = get_bool(r, t, 2, false, "asymmetric");
    break;
  case BO_FULLY_CONNECTED:
    o->fields = OPTF_ACTIVATION | OPTF_FC | OPTF_ASYMMETRIC | OPTF_BIAS_TYPE;
    o->activation = rd_act(r, t, 0);
    o->weights_format = (uint8_t)get_i(r, t, 1, 1, 0, "weights_format"); /* 0..255 */
    o->keep_num_dims = get_bool(r, t, 2, false, "keep_num_dims");
    o->asymmetric_quantize_inputs = get_bool(r, t, 3, false, "asymmetric");
    o->quantized_bias_type = rd_dtype(r, t, 4, "quantized_bias_type");
    break;
  case BO_SOFTMAX:
    o->fields = OPTF_BETA;
    o->beta = get_f32(r, t, 0, 0.0f, "beta");
    break;
  case BO_CONCATENATION:
    o->fields = OPTF_AXIS | OPTF_ACTIVATION;
    o->axis = get_i32(r, t, 0, 0, "axis");
    o->activation = rd_act(r, t, 1);
    break;
  case BO_ADD:
  case BO_SUB:
    o->fields = OPTF_ACTIVATION | OPTF_POT_SCALE;
    o->activation = rd_act(r, t, 0);
    o->pot_scale_int16 = get_bool(r, t, 1, true, "pot_scale_int16");
    break;
  case BO_MUL:
  case BO_DIV:
  case BO_L2NORM:
    o->fields = OPTF_ACTIVATION;
    o->activation = rd_act(r, t, 0);
    break;
  case BO_RESIZE_BILINEAR: /* slots 0, 1: deprecated new_height/width */
    o->fields = OPTF_RESIZE;
    o->align_corners = get_bool(r, t, 2, false, "align_corners");
    o->half_pixel_centers = get_bool(r, t, 3, false, "half_pixel_centers");
    break;
  case BO_RESIZE_NEAREST_NEIGHBOR:
    o->fields = OPTF_RESIZE;
    o->align_corners = get_bool(r, t, 0, false, "align_corners");
    o->half_pixel_centers = get_bool(r, t, 1, false, "half_pixel_centers");
    break;
  case BO_RESHAPE:
    o->fields = OPTF_NEW_SHAPE;
    o->nnew_shape = rd_small_vec(r, t, 0, o->new_shape, "new_shape");
    break;
  case BO_SQUEEZE:
    o->fields = OPTF_SQUEEZE_DIMS;
    o->nsqueeze_dims = rd_small_vec(r, t, 0, o->squeeze_dims, "squeeze_dims");
    if (o->nsqueeze_dims < 0)
      o->nsqueeze_dims = 0;
    break;
  case BO_SPACE_TO_DEPTH:
  case BO_DEPTH_TO_SPACE:
    o->fields = OPTF_BLOCK_SIZE;
    o->block_size = get_i32(r, t, 0, 0, "block_size");
    break;
  case BO_GATHER:
    o->fields = OPTF_AXIS | OPTF_BATCH_DIMS;
    o->axis = get_i32(r, t, 0, 0, "axis");
    o->batch_dims = get_i32(r, t, 1, 0, "batch_dims");
    break;
  case BO_REDUCER:
    o->fields = OPTF_KEEP_DIMS;
    o->keep_dims = get_bool(r, t, 0, false, "keep_dims");
    break;
  case BO_STRIDED_SLICE:
    o->fields = OPTF_SLICE_MASKS;
    o->begin_mask = get_i32(r, t, 0, 0, "begin_mask");
    o->end_mask = get_i32(r, t, 1, 0, "end_mask");
    o->ellipsis_mask = get_i32(r, t, 2, 0, "ellipsis_mask");
    o->new_axis_mask = get_i32(r, t, 3, 0, "new_axis_mask");
    o->shrink_axis_mask = get_i32(r, t, 4, 0, "shrink_axis_mask");
    o->offset = get_bool(r, t, 5, false, "offset");
    break;
  case BO_SPLIT:
  case BO_SPLIT_V:
    o->fields = OPTF_NUM;
    o->num = get_i32(r, t, 0, 0, "num_splits");
    break;
  case BO_CAST: /* often left out: then the tensors' types say it */
    o->fields = t->pos ? OPTF_CAST : 0;
    o->in_dtype = rd_dtype(r, t, 0, "in_data_type");
    o->out_dtype = rd_dtype(r, t, 1, "out_data_type");
    break;
  case BO_ARG_MAX:
  case BO_ARG_MIN:
  case BO_SHAPE:
    o->fields = OPTF_OUT_TYPE;
    o->out_type = rd_dtype(r, t, 0, "output_type");
    break;
  case BO_MIRROR_PAD:
    o->fields = OPTF_MIRROR;
    o->mirror_mode = (int)get_i(r, t, 0, 1, 0, "mode");
    if (o->mirror_mode != 0 && o->mirror_mode != 1)
      fail(r, "mirror pad mode %d is neither REFLECT nor SYMMETRIC", o->mirror_mode);
    break;
  case BO_CUMSUM:
    o->fields = OPTF_CUMSUM;
    o->exclusive = get_bool(r, t, 0, false, "exclusive");
    o->reverse = get_bool(r, t, 1, false, "reverse");
    break;
  case BO_TRANSPOSE_CONV:
    o->fields = OPTF_PADDING | OPTF_STRIDE | OPTF_ACTIVATION | OPTF_BIAS_TYPE;
    o->padding = rd_padding(r, t, 0);
    o->stride_w = get_i32(r, t, 1, 0, "stride_w");
    o->stride_h = get_i32(r, t, 2, 0, "stride_h");
    o->activation = rd_act(r, t, 3);
    o->quantized_bias_type = rd_dtype(r, t, 4, "quantized_bias_type");
    break;
  case BO_PACK:
    o->fields = OPTF_NUM | OPTF_AXIS;
    o->num = get_i32(r, t, 0, 0, "values_count");
    o->axis = get_i32(r, t, 1, 0, "axis");
    break;
  case BO_UNPACK:
    o->fields = OPTF_NUM | OPTF_AXIS;
    o->num = get_i32(r, t, 0, 0, "num");
    o->axis = get_i32(r, t, 1, 0, "axis");
    break;
  case BO_UNIDIRECTIONAL_SEQUENCE_LSTM:
    o->fields = OPTF_ACTIVATION | OPTF_LSTM | OPTF_ASYMMETRIC;
    o->activation = rd_act(r, t, 0);
    o->cell_clip = get_f32(r, t, 1, 0.0f, "cell_clip");
    o->proj_clip = get_f32(r, t, 2, 0.0f, "proj_clip");
    o->time_major = get_bool(r, t, 3, false, "time_major");
    o->asymmetric_quantize_inputs = get_bool(r, t, 4, false, "asymmetric");
    o->diagonal_recurrent_tensors = get_bool(r, t, 5, false, "diagonal");
    break;
  case BO_LEAKY_RELU:
    o->fields = OPTF_ALPHA;
    o->alpha = get_f32(r, t, 0, 0.0f, "alpha");
    break;
  case BO_BATCH_MATMUL:
    o->fields = OPTF_ADJ | OPTF_ASYMMETRIC;
    o->adj_x = get_bool(r, t, 0, false, "adj_x");
    o->adj_y = get_bool(r, t, 1, false, "adj_y");
    o->asymmetric_quantize_inputs = get_bool(r, t, 2, false, "asymmetric");
    break;
  default: /* tables without fields, or no table */
    break;
  }
}

/* ------------------------------------------------------ op codes */

typedef struct OpCode {
  int code;            /* BuiltinOperator */
  bool known;          /* code has an OpKind */
  OpKind kind;
  const char *custom;  /* custom_code, for CUSTOM */
  int version;
} OpCode;

static OpCode *read_opcodes(Reader *r, const Table *model, int *n) {
  Vec v = get_vec(r, model, 1, 4, "operator_codes");
  if (v.n > INT32_MAX)
    fail(r, "too many operator codes");
  OpCode *codes = arena_array(v.n ? v.n : 1, sizeof *codes);
  for (size_t i = 0; i < v.n; i++) {
    snprintf(r->where, sizeof r->where, "operator code %zu", i);
    Table t = vec_table(r, v, i, "operator code");
    OpCode *c = &codes[i];
    int64_t dep = get_i(r, &t, 0, 1, 0, "deprecated_builtin_code");
    int64_t ext = get_i(r, &t, 3, 4, 0, "builtin_code");
    /* TFLite's rule: the larger of the two (the byte field saturates at
     * PLACEHOLDER_FOR_GREATER_OP_CODES = 127). */
    c->code = (int)(dep > ext ? dep : ext);
    c->known = op_from_tflite_code(c->code, &c->kind);
    c->custom = get_str(r, &t, 1, "custom_code");
    c->version = get_i32(r, &t, 2, 1, "version");
  }
  r->where[0] = 0;
  *n = (int)v.n;
  return codes;
}

/* ------------------------------------------------------------ ops */

/* Copies a vector of tensor indices, each in [lo, ntensors). */
static int *read_indices_in(Reader *r, const Table *t, int slot, int *n,
                            int lo, int ntensors, const char *what) {
  Vec v = get_vec(r, t, slot, 4, what);
  if (v.n > INT32_MAX)
    fail(r, "%s: too many entries", what);
  int *a = vec_ints(r, v, what);
  for (size_t i = 0; i < v.n; i++)
    if (a[i] < lo || a[i] >= ntensors)
      fail(r, "%s[%zu] = %d is not a tensor index (the graph has %d tensors)",
           what, i, a[i], ntensors);
  *n = (int)v.n;
  return a;
}

/* Tensor indices of the subgraph being read, as graph tensors (a
 * decomposition's through r->map). */
static int *read_indices(Reader *r, const Table *t, int slot, int *n, int lo,
                         const char *what) {
  if (!r->map)
    return read_indices_in(r, t, slot, n, lo, r->g->ntensors, what);
  int *a = read_indices_in(r, t, slot, n, lo, r->nmap, what);
  for (int i = 0; i < *n; i++)
    if (a[i] >= 0)
      a[i] = r->map[a[i]];
  return a;
}

/*
 * Blockwise-quantized weights (QuantizationDetails BlockwiseQuantization:
 * int4 or int8 weights with one float16 scale per block_size inputs,
 * scales and zero points in tensors of their own).  TFLite computes with
 * them only in the XNNPACK delegate (FULLY_CONNECTED with float or
 * dynamically quantized input) and in the builtin EMBEDDING_LOOKUP;
 * TFLite Micro has no kernel for them.  tinyaot refuses the first op
 * that reads such a tensor, naming the tensor and the block size.
 */
static void blockwise_refusal(Reader *r, const Op *op) {
  if (!r->block_size)
    return;
  for (int k = 0; k < op->ninputs; k++) {
    int ti = op->inputs[k];
    if (ti < 0 || r->block_size[ti] == 0)
      continue;
    const Tensor *x = &r->g->tensors[ti];
    fail(r, "input %d (tensor %d \"%s\", %s): blockwise quantization (block size %d, "
            "scales in tensor %d) of weights is not supported: no kernel computes with "
            "per-block scales (TFLite runs them only in its XNNPACK delegate, TFLite Micro "
            "not at all); quantize the weights per channel instead",
         k, ti, x->name, dtype_name(x->dtype), r->block_size[ti], r->block_scales[ti]);
  }
}

static void read_op(Reader *r, int i, const Table *t, const OpCode *codes,
                    int ncodes) {
  Graph *g = r->g;
  Op *op = &g->ops[i];
  op->index = i;
  op->scratch_buffer = -1;
  snprintf(r->where, sizeof r->where, "op %d", i);
  uint32_t ci = (uint32_t)get_u(r, t, 0, 4, 0, "opcode_index");
  if (ci >= (uint32_t)ncodes)
    fail(r, "opcode_index %u out of range (the model has %d operator codes)",
         ci, ncodes);
  const OpCode *c = &codes[ci];
  if (!c->known) {
    const char *name = tflite_builtin_name(c->code);
    fail(r, "unsupported builtin operator %d%s%s%s", c->code,
         name ? " (" : "", name ? name : "", name ? ")" : "");
  }
  op->kind = c->kind;
  op->version = c->version;
  if (op->kind == OP_CUSTOM)
    op->custom_name = c->custom;
  /* From here on messages name the op through error_at(). */
  g->nops = i + 1;
  r->op = i;
  r->where[0] = 0;
  if (op->kind == OP_CALL)
    fail(r, "CALL is not supported (IF and WHILE are)");

  op->inputs = read_indices(r, t, 1, &op->ninputs, -1, "inputs");
  op->outputs = read_indices(r, t, 2, &op->noutputs, 0, "outputs");
  blockwise_refusal(r, op);
  op->intermediates =
      read_indices(r, t, 8, &op->nintermediates, 0, "intermediates");

  int type = (int)get_u(r, t, 3, 1, 0, "builtin_options_type");
  int want = options_type(op->kind);
  if (type != BO_NONE && type != want)
    fail(r, "builtin options of union type %d, expected %d", type, want);
  Table opts;
  get_table(r, t, 4, &opts, "builtin_options");
  read_options(r, op, &opts);
  if (get_u(r, t, 11, 1, 0, "builtin_options_2_type") != 0)
    fail(r, "unexpected builtin_options_2");

  Vec co = get_vec(r, t, 5, 1, "custom_options");
  op->custom_options = vec_bytes(co, r);
  op->ncustom_options = co.n;
  uint64_t lo = get_u(r, t, 9, 8, 0, "large_custom_options_offset");
  uint64_t ls = get_u(r, t, 10, 8, 0, "large_custom_options_size");
  if (lo > 1) {
    if (lo > r->size || ls > r->size - lo)
      fail(r, "large custom options at offset %llu (%llu bytes) lie outside "
              "the file (%zu bytes)",
           (unsigned long long)lo, (unsigned long long)ls, r->size);
    op->custom_options = ls ? r->buf + lo : NULL;
    op->ncustom_options = (size_t)ls;
  }
  /* custom_options_format 0 is FLEXBUFFERS, the only one defined: its map
   * becomes Op.attrs.  Bytes that are no map are left to a user kernel. */
  if (op->kind == OP_CUSTOM && op->ncustom_options &&
      get_u(r, t, 6, 1, 0, "custom_options_format") == 0)
    flex_map_attrs(op->custom_options, op->ncustom_options, &op->attrs, &op->nattrs);

  for (int k = 0; k < op->noutputs; k++) {
    Tensor *out = &g->tensors[op->outputs[k]];
    if (out->producer < 0)
      out->producer = i;
  }
  r->op = -1;
}

/* ----------------------------------------------- resource variables */

/*
 * Resource variables (VAR_HANDLE, READ_VARIABLE, ASSIGN_VARIABLE) and
 * CALL_ONCE, resolved at read time into variable tensors, which the rest
 * of the compiler already plans as persistent state:
 *
 *   - each distinct (container, shared_name) of a VAR_HANDLE is one
 *     variable, as in TFLite's resource map; its tensor in subgraph 0 is
 *     the RESOURCE tensor of its first VAR_HANDLE there, which becomes a
 *     variable tensor of the variable's type and shape;
 *   - the type and shape come from the variable's first assignment (as
 *     TFLite Micro sizes its resource buffer); every later assignment and
 *     every READ_VARIABLE output must have the same type and shape;
 *   - CALL_ONCE, only as subgraph 0's first op, names an init subgraph
 *     whose ops may only be VAR_HANDLE and ASSIGN_VARIABLE of constants:
 *     it is evaluated here, and the last constant assigned to a variable
 *     is its initial value (Tensor.init), which <prefix>_reset() writes;
 *   - READ_VARIABLE and ASSIGN_VARIABLE then read the variable tensor
 *     (ASSIGN_VARIABLE writes it, as LSTM/SVDF update theirs); VAR_HANDLE
 *     and CALL_ONCE are marked folded, with no inputs and no outputs.
 *
 * Anything else is refused: other subgraphs, other ops in the init
 * subgraph, a variable read before any value is assigned to it, and any
 * other use of a RESOURCE tensor.
 */

typedef struct {
  const char *container, *name; /* VarHandleOptions */
  int tensor;          /* its tensor in subgraph 0, or -1 */
  bool typed;          /* value holds the type, shape and quantization */
  Tensor value;        /* the first assignment's tensor */
  const uint8_t *init; /* the initial value (the init subgraph), or NULL */
} Var;

typedef struct {
  Var *v;
  int n, cap;
} Vars;

static int var_id(Reader *r, Vars *vs, const Options *o) {
  for (int i = 0; i < vs->n; i++)
    if (!strcmp(vs->v[i].container, o->container) &&
        !strcmp(vs->v[i].name, o->shared_name))
      return i;
  if (vs->n >= vs->cap)
    fail(r, "too many variables");
  Var *v = &vs->v[vs->n];
  memset(v, 0, sizeof *v);
  v->container = o->container;
  v->name = o->shared_name;
  v->tensor = -1;
  return vs->n++;
}

static const char *var_label(const Var *v) {
  return arena_printf("'%s%s%s'", v->container, v->container[0] ? "/" : "",
                      v->name);
}

/* Tensor t (what) meets variable v: the first assignment types v, every
 * other use must match. */
static void var_use(Reader *r, Var *v, const Tensor *t, bool assign,
                    const char *what) {
  if (!v->typed && assign) {
    v->typed = true;
    v->value = *t;
    return;
  }
  if (!v->typed)
    fail(r, "reads variable %s before any value is assigned to it (no "
            "CALL_ONCE init subgraph assigns it)",
         var_label(v));
  if (!same_dtype_and_shape(&v->value, t))
    fail(r, "%s is %s, but variable %s holds %s", what, tensor_type_label(t),
         var_label(v), tensor_type_label(&v->value));
}

/* Reads tensor i of a subgraph's tensor vector into t. */
static void read_tensor_at(Reader *r, Vec tv, int i, Vec buffers, Tensor *t,
                           bool *resource) {
  memset(t, 0, sizeof *t);
  t->index = i;
  t->producer = t->storage = t->view_of = -1;
  t->name = "";
  *resource = false;
  Table tt = vec_table(r, tv, (size_t)i, "tensor");
  r->other_subgraph = true;
  read_tensor(r, t, &tt, buffers, resource);
  r->other_subgraph = false;
}

/* Evaluates CALL_ONCE's init subgraph k: VAR_HANDLE and ASSIGN_VARIABLE of
 * constants only. */
static void read_init_subgraph(Reader *r, Vec subgraphs, int k, Vec buffers,
                               const OpCode *codes, int ncodes, Vars *vs) {
  snprintf(r->where, sizeof r->where, "subgraph %d", k);
  Table sg = vec_table(r, subgraphs, (size_t)k, "subgraph");
  Vec tv = get_vec(r, &sg, 0, 4, "tensors");
  if (tv.n > INT32_MAX)
    fail(r, "too many tensors");
  int nt = (int)tv.n;
  charge(r, tv.n, "tensors");
  int *handle = arena_array(tv.n + 1, sizeof(int)); /* tensor -> var */
  for (int i = 0; i < nt; i++)
    handle[i] = -1;
  Vec ov = get_vec(r, &sg, 3, 4, "operators");
  for (size_t i = 0; i < ov.n; i++) {
    snprintf(r->where, sizeof r->where, "subgraph %d op %zu", k, i);
    Table ot = vec_table(r, ov, i, "operator");
    uint32_t ci = (uint32_t)get_u(r, &ot, 0, 4, 0, "opcode_index");
    if (ci >= (uint32_t)ncodes)
      fail(r, "opcode_index %u out of range (the model has %d operator "
              "codes)", ci, ncodes);
    const OpCode *c = &codes[ci];
    const char *name = c->known ? op_name(c->kind) : tflite_builtin_name(c->code);
    snprintf(r->where, sizeof r->where, "subgraph %d op %zu (%s)", k, i,
             name ? name : "unknown operator");
    if (!c->known || (c->kind != OP_VAR_HANDLE && c->kind != OP_ASSIGN_VARIABLE))
      fail(r, "CALL_ONCE's init subgraph may only hold VAR_HANDLE and "
              "ASSIGN_VARIABLE of constants");
    int nin, nout;
    int *in = read_indices_in(r, &ot, 1, &nin, 0, nt, "inputs");
    int *out = read_indices_in(r, &ot, 2, &nout, 0, nt, "outputs");
    Tensor t;
    bool res;
    if (c->kind == OP_VAR_HANDLE) {
      if (nin != 0 || nout != 1)
        fail(r, "has %d inputs and %d outputs, expected 0 and 1", nin, nout);
      read_tensor_at(r, tv, out[0], buffers, &t, &res);
      if (!res)
        fail(r, "output tensor %d is not a RESOURCE tensor", out[0]);
      Op op = {.kind = OP_VAR_HANDLE};
      int type = (int)get_u(r, &ot, 3, 1, 0, "builtin_options_type");
      if (type != BO_NONE && type != BO_VAR_HANDLE)
        fail(r, "builtin options of union type %d, expected %d", type,
             BO_VAR_HANDLE);
      Table opts;
      get_table(r, &ot, 4, &opts, "builtin_options");
      read_options(r, &op, &opts);
      handle[out[0]] = var_id(r, vs, &op.opt);
      continue;
    }
    if (nin != 2 || nout != 0)
      fail(r, "has %d inputs and %d outputs, expected 2 and 0", nin, nout);
    if (handle[in[0]] < 0)
      fail(r, "input 0 (tensor %d) is no handle of an earlier VAR_HANDLE",
           in[0]);
    read_tensor_at(r, tv, in[1], buffers, &t, &res);
    if (res || !t.data)
      fail(r, "input 1 (tensor %d) is not a constant: only constant initial "
              "values are supported", in[1]);
    if (t.ndata != tensor_bytes(&t))
      fail(r, "input 1 (tensor %d) has %zu bytes of data, its shape %s "
              "needs %zu", in[1], t.ndata, tensor_type_label(&t), tensor_bytes(&t));
    Var *v = &vs->v[handle[in[0]]];
    var_use(r, v, &t, true, "the initial value");
    v->init = t.data;
  }
  r->where[0] = 0;
}

/* Resolves subgraph 0's resource variables (see above). */
static void resolve_variables(Reader *r, Vec subgraphs, Vec buffers,
                              const OpCode *codes, int ncodes) {
  Graph *g = r->g;
  bool once = g->nops > 0 && g->ops[0].kind == OP_CALL_ONCE;
  size_t extra = subgraphs.n - 1 - (size_t)r->ndecomp; /* neither 0 nor inlined */
  if (extra > 0 && !once)
    fail(r, "the model has %zu subgraphs, and %zu of them are neither the "
            "init subgraph of a CALL_ONCE that is subgraph 0's first op, a "
            "STABLEHLO_COMPOSITE's decomposition nor an IF or WHILE "
            "subgraph: a subgraph no op calls is not supported",
         subgraphs.n, extra);
  Vars vs = {.cap = g->nops};
  if (once) {
    Op *op = &g->ops[0];
    r->op = 0;
    int k = op->opt.init_subgraph;
    if (op->ninputs || op->noutputs)
      fail(r, "has %d inputs and %d outputs, expected none", op->ninputs,
           op->noutputs);
    if (k < 1 || (size_t)k >= subgraphs.n)
      fail(r, "init_subgraph_index %d is no subgraph other than 0 (the model "
              "has %zu)", k, subgraphs.n);
    if (r->decomp[k])
      fail(r, "init_subgraph_index %d is also a composite's decomposition or "
              "an IF or WHILE subgraph", k);
    if (extra > 1)
      fail(r, "the model has %zu subgraphs; only subgraph 0, CALL_ONCE's "
              "init subgraph, composite decompositions and IF and WHILE "
              "subgraphs are supported",
           subgraphs.n);
    Table init = vec_table(r, subgraphs, (size_t)k, "subgraph");
    Vec ov = get_vec(r, &init, 3, 4, "operators");
    if (ov.n > (size_t)INT32_MAX - (size_t)vs.cap)
      fail(r, "too many operators");
    vs.cap += (int)ov.n;
    charge(r, (size_t)vs.cap, "variables");
    vs.v = arena_array((size_t)vs.cap + 1, sizeof(Var));
    r->op = -1;
    read_init_subgraph(r, subgraphs, k, buffers, codes, ncodes, &vs);
  } else {
    vs.v = arena_array((size_t)vs.cap + 1, sizeof(Var));
  }

  int *handle = arena_array((size_t)g->ntensors + 1, sizeof(int));
  for (int t = 0; t < g->ntensors; t++)
    handle[t] = -1;
  for (int i = 0; i < g->nops; i++) {
    Op *op = &g->ops[i];
    r->op = i;
    if (op->kind == OP_CALL_ONCE && i > 0)
      fail(r, "CALL_ONCE is supported only as subgraph 0's first op");
    if (op->kind == OP_CALL_ONCE || op->kind == OP_VAR_HANDLE) {
      if (op->kind == OP_VAR_HANDLE) {
        if (op->ninputs != 0 || op->noutputs != 1 || !r->resource[op->outputs[0]])
          fail(r, "expected no inputs and one RESOURCE output");
        int t = op->outputs[0], id = var_id(r, &vs, &op->opt);
        handle[t] = id;
        if (vs.v[id].tensor < 0)
          vs.v[id].tensor = t;
        g->tensors[t].producer = -1;
      }
      /* Evaluated here: no call, no data flow (as a folded op). */
      op->folded = true;
      op->ninputs = op->noutputs = 0;
      op->outputs = arena_array(1, sizeof(int));
      op->outputs[0] = -1;
      continue;
    }
    if (op->kind == OP_READ_VARIABLE || op->kind == OP_ASSIGN_VARIABLE) {
      bool assign = op->kind == OP_ASSIGN_VARIABLE;
      if (op->ninputs != (assign ? 2 : 1) || op->noutputs != (assign ? 0 : 1))
        fail(r, "has %d inputs and %d outputs, expected %d and %d",
             op->ninputs, op->noutputs, assign ? 2 : 1, assign ? 0 : 1);
      int h = op->inputs[0];
      if (h < 0 || handle[h] < 0)
        fail(r, "input 0 (tensor %d) is no handle of an earlier VAR_HANDLE", h);
      int x = assign ? op->inputs[1] : op->outputs[0];
      if (x < 0 || r->resource[x])
        fail(r, "%s %d is missing or a RESOURCE tensor",
             assign ? "input 1" : "output 0", x);
      Var *v = &vs.v[handle[h]];
      var_use(r, v, &g->tensors[x], assign,
              arena_printf("%s (tensor %d)", assign ? "input 1" : "output 0", x));
      op->inputs[0] = v->tensor;
      continue;
    }
    for (int k = 0; k < op->ninputs + op->noutputs; k++) {
      int t = k < op->ninputs ? op->inputs[k] : op->outputs[k - op->ninputs];
      if (t >= 0 && r->resource[t])
        fail(r, "uses RESOURCE tensor %d, which only VAR_HANDLE, "
                "READ_VARIABLE and ASSIGN_VARIABLE may", t);
    }
  }
  r->op = -1;
  for (int i = 0; i < g->ninputs + g->noutputs; i++) {
    int t = i < g->ninputs ? g->inputs[i] : g->outputs[i - g->ninputs];
    if (r->resource[t])
      fail(r, "model %s %d is RESOURCE tensor %d (variables cannot be model "
              "inputs or outputs)",
           i < g->ninputs ? "input" : "output",
           i < g->ninputs ? i : i - g->ninputs, t);
  }

  /* Each variable's handle becomes the variable. */
  for (int i = 0; i < vs.n; i++) {
    const Var *v = &vs.v[i];
    if (v->tensor < 0 || !v->typed)
      continue;
    Tensor *t = &g->tensors[v->tensor];
    t->dtype = v->value.dtype;
    t->ndims = v->value.ndims;
    memcpy(t->dims, v->value.dims, sizeof t->dims);
    t->nsignature = 0;
    t->q = v->value.q;
    t->is_variable = true;
    t->init = v->init;
    t->ninit = v->init ? tensor_bytes(t) : 0;
  }
}

/* ------------------------------------------------------ composites */

/*
 * STABLEHLO_COMPOSITE calls its decomposition, another subgraph, whose
 * inputs and outputs are the op's.  The reader inlines it: the
 * subgraph's ops are appended where the composite stood, its inputs and
 * outputs are the op's tensors, and its other tensors join the graph,
 * named "<composite name>/<tensor name>" (nested composites prefix the
 * outer names too).  Nested composites are inlined the same way, at most
 * MAX_COMPOSITE_DEPTH deep; a subgraph that reaches itself is refused.
 * Each decomposition input and output must match the op's tensor in
 * type, shape and quantization, so no op after the reader sees a
 * composite.
 */

#define TFLITE_STABLEHLO_COMPOSITE 206
#define BO2_STABLEHLO_COMPOSITE 21 /* BuiltinOptions2 StableHLOCompositeOptions */
#define MAX_COMPOSITE_DEPTH 8

static bool same_quant(const Quant *a, const Quant *b) {
  if (a->nscale != b->nscale || (a->nscale > 1 && a->axis != b->axis))
    return false;
  for (int i = 0; i < a->nscale; i++)
    if (a->scale[i] != b->scale[i] || a->zero_point[i] != b->zero_point[i])
      return false;
  return true;
}

/* A new graph tensor (g->tensors, r->resource and the blockwise tables
 * grow as needed). */
static int add_tensor(Reader *r) {
  Graph *g = r->g;
  if (g->ntensors == INT32_MAX)
    fail(r, "too many tensors");
  if (g->ntensors >= r->captensors) {
    size_t cap = (size_t)r->captensors * 2 + 16;
    Tensor *t = arena_array(cap, sizeof *t);
    bool *res = arena_array(cap, sizeof *res);
    int32_t *bs = arena_array(cap, sizeof *bs), *bsc = arena_array(cap, sizeof *bsc);
    if (g->ntensors) {
      memcpy(t, g->tensors, (size_t)g->ntensors * sizeof *t);
      memcpy(res, r->resource, (size_t)g->ntensors * sizeof *res);
      memcpy(bs, r->block_size, (size_t)g->ntensors * sizeof *bs);
      memcpy(bsc, r->block_scales, (size_t)g->ntensors * sizeof *bsc);
    }
    g->tensors = t;
    r->resource = res;
    r->block_size = bs; /* an inlined tensor's: 0 (its blockwise */
    r->block_scales = bsc; /* quantization is refused as it is read) */
    r->captensors = cap > INT32_MAX ? INT32_MAX : (int)cap;
  }
  return g->ntensors++;
}

/* Room for op g->nops. */
static void reserve_op(Reader *r) {
  Graph *g = r->g;
  if (g->nops == INT32_MAX)
    fail(r, "too many operators");
  if (g->nops < r->capops)
    return;
  size_t cap = (size_t)r->capops * 2 + 16;
  Op *ops = arena_array(cap, sizeof *ops);
  if (g->nops)
    memcpy(ops, g->ops, (size_t)g->nops * sizeof *ops);
  g->ops = ops;
  r->capops = cap > INT32_MAX ? INT32_MAX : (int)cap;
}

static void read_ops(Reader *r, const Table *sg, const char *prefix, int depth);

/* Reads subgraph k's ops (sg) into the graph, its tensors through map
 * (ntv of them, named with prefix inner), marked active while they are
 * read (recursion is refused) and counted as inlined. */
static void read_inlined(Reader *r, const Table *sg, const char *inner, int depth, int k,
                         const int *map, int ntv) {
  const int *outer_map = r->map;
  int outer_nmap = r->nmap;
  r->map = map;
  r->nmap = ntv;
  r->active[k] = true;
  if (!r->decomp[k]) {
    r->decomp[k] = true;
    r->ndecomp++;
  }
  read_ops(r, sg, inner, depth + 1);
  r->active[k] = false;
  r->map = outer_map;
  r->nmap = outer_nmap;
}

/* Inlines the STABLEHLO_COMPOSITE op table t (see above). */
static void inline_composite(Reader *r, const Table *t, const char *prefix,
                             int depth) {
  Graph *g = r->g;
  snprintf(r->where, sizeof r->where, "op %d (STABLEHLO_COMPOSITE)", g->nops);
  int nin, nout;
  int *in = read_indices(r, t, 1, &nin, -1, "inputs");
  int *out = read_indices(r, t, 2, &nout, 0, "outputs");
  if (get_u(r, t, 3, 1, 0, "builtin_options_type") != BO_NONE)
    fail(r, "unexpected builtin_options");
  uint64_t type = get_u(r, t, 11, 1, 0, "builtin_options_2_type");
  Table o;
  if (type != BO2_STABLEHLO_COMPOSITE ||
      !get_table(r, t, 12, &o, "builtin_options_2"))
    fail(r, "builtin_options_2 of union type %llu, expected "
            "StableHLOCompositeOptions (%d)",
         (unsigned long long)type, BO2_STABLEHLO_COMPOSITE);
  const char *name = get_str(r, &o, 0, "name");
  int k = get_i32(r, &o, 1, -1, "decomposition_subgraph_index");
  snprintf(r->where, sizeof r->where, "op %d (STABLEHLO_COMPOSITE '%s')",
           g->nops, name);
  if (!name[0])
    fail(r, "the composite has no name");
  if (k < 1 || (size_t)k >= r->subgraphs.n)
    fail(r, "decomposition_subgraph_index %d is no subgraph other than 0 "
            "(the model has %zu)", k, r->subgraphs.n);
  if (r->active[k])
    fail(r, "decomposition subgraph %d is already being inlined: composites "
            "may not recurse", k);
  if (depth >= MAX_COMPOSITE_DEPTH)
    fail(r, "composites nested more than %d deep", MAX_COMPOSITE_DEPTH);

  Table sg = vec_table(r, r->subgraphs, (size_t)k, "subgraph");
  Vec tv = get_vec(r, &sg, 0, 4, "tensors");
  if (tv.n > INT32_MAX)
    fail(r, "subgraph %d: too many tensors", k);
  int ntv = (int)tv.n, sin, sout;
  int *si = read_indices_in(r, &sg, 1, &sin, 0, ntv, "decomposition inputs");
  int *so = read_indices_in(r, &sg, 2, &sout, 0, ntv, "decomposition outputs");
  if (sin != nin || sout != nout)
    fail(r, "has %d inputs and %d outputs, but its decomposition (subgraph "
            "%d) has %d and %d", nin, nout, k, sin, sout);
  charge(r, tv.n, "decomposition tensors");
  int *map = arena_array(tv.n + 1, sizeof *map);
  for (int i = 0; i < ntv; i++)
    map[i] = -1;
  for (int j = 0; j < nin + nout; j++) {
    int s = j < nin ? si[j] : so[j - nin];
    int x = j < nin ? in[j] : out[j - nin];
    const char *what = j < nin ? "input" : "output";
    int jj = j < nin ? j : j - nin;
    if (x < 0)
      fail(r, "input %d is absent; a decomposition needs every input", jj);
    if (map[s] >= 0 && map[s] != x)
      fail(r, "decomposition %s %d (its tensor %d) is also another of its "
              "inputs or outputs", what, jj, s);
    map[s] = x;
    Tensor st;
    bool res;
    snprintf(r->where, sizeof r->where, "subgraph %d tensor %d", k, s);
    read_tensor_at(r, tv, s, r->buffers, &st, &res);
    snprintf(r->where, sizeof r->where, "op %d (STABLEHLO_COMPOSITE '%s')",
             g->nops, name);
    const Tensor *gt = &g->tensors[x];
    if (res || r->resource[x])
      fail(r, "%s %d is a RESOURCE tensor", what, jj);
    if (!same_dtype_and_shape(&st, gt) || !same_quant(&st.q, &gt->q))
      fail(r, "%s %d (tensor %d) is %s%s, but its decomposition's (subgraph "
              "%d tensor %d) is %s%s", what, jj, x, tensor_type_label(gt),
           gt->q.nscale ? " quantized" : "", k, s, tensor_type_label(&st),
           st.q.nscale ? " quantized" : "");
  }
  const char *inner = arena_printf("%s%s/", prefix, name);
  for (int i = 0; i < ntv; i++) {
    if (map[i] >= 0)
      continue;
    int x = add_tensor(r);
    map[i] = x;
    snprintf(r->where, sizeof r->where, "subgraph %d tensor %d", k, i);
    read_tensor_at(r, tv, i, r->buffers, &g->tensors[x], &r->resource[x]);
    g->tensors[x].index = x;
    g->tensors[x].name = arena_printf("%s%s", inner, g->tensors[x].name);
  }
  r->where[0] = 0;

  int first = g->nops;
  read_inlined(r, &sg, inner, depth, k, map, ntv);
  for (int j = 0; j < nout; j++) {
    int p = g->tensors[out[j]].producer;
    if (p < first)
      error_file(r->path, "op %d (STABLEHLO_COMPOSITE '%s'): output %d is "
                 "computed by no op of its decomposition (subgraph %d)",
                 first, name, j, k);
  }
}

/* ---------------------------------------------------- control flow */

/*
 * IF and WHILE call other subgraphs: IF one of its two branches, WHILE
 * its cond and body subgraphs again and again.  The reader inlines them
 * between structure ops (ops.h, compiler/control.c), so the rest of the
 * compiler sees one op list whose markers the emitter turns into C's
 * `if` and `for`:
 *
 *   IF(cond)  <then ops>  ELSE  <else ops>  END_IF(cond, then outs, else outs) -> outs
 *   WHILE(inits) -> vars  <cond ops>  WHILE_COND(c)  <body ops>  END_WHILE(nexts, vars)
 *
 * Each inlined subgraph's inputs are bound to tensors of the caller: a
 * branch's to IF's inputs 1..n, cond's and body's to the loop variables,
 * which are WHILE's outputs (WHILE copies its inputs into them, END_WHILE
 * the body's outputs, once the iteration is done).  A bound input must
 * have its tensor's type, shape and quantization (TFLite copies the
 * bytes, so the subgraph reads the same numbers only then).  Every other
 * tensor of the subgraph becomes a new graph tensor named
 * "subgraph<k>/<name>" (prefixed by the outer names when nested); a
 * subgraph inlined twice gets new tensors each time.  Branch outputs must
 * have the type and shape of IF's outputs, the body's those of the loop
 * variables (no shape may change across iterations), cond's one output
 * is one bool.  Control flow nests MAX_CONTROL_DEPTH deep at most, and a
 * subgraph that reaches itself is refused.  Messages name the IF or
 * WHILE op and the subgraph.
 */

#define MAX_CONTROL_DEPTH 8

/* Appends structure op `kind` (arrays are kept). */
static int push_structure(Reader *r, OpKind kind, int *in, int nin, int *out,
                          int nout, const Options *opt) {
  reserve_op(r);
  Graph *g = r->g;
  int i = g->nops++;
  Op *op = &g->ops[i];
  memset(op, 0, sizeof *op);
  op->index = i;
  op->kind = kind;
  op->version = 1;
  op->scratch_buffer = -1;
  op->inputs = in;
  op->ninputs = nin;
  op->outputs = out;
  op->noutputs = nout;
  op->opt.dilation_w = op->opt.dilation_h = 1;
  op->opt.pot_scale_int16 = true;
  op->opt.subgraph[0] = opt->subgraph[0];
  op->opt.subgraph[1] = opt->subgraph[1];
  for (int k = 0; k < nout; k++)
    g->tensors[out[k]].producer = i;
  return i;
}

/* Has t a dynamic dimension (-1 in shape_signature)?  Keras' batch
 * dimension, -1 over a static 1, is taken as 1 (as verify() does). */
static bool is_dynamic(const Tensor *t) {
  for (int i = 0; i < t->nsignature && i < t->ndims; i++)
    if (t->signature[i] < 0 && !(i == 0 && t->dims[0] == 1))
      return true;
  return false;
}

/* Inlines subgraph k as the `role` ("then", "else", "cond", "body") of
 * control-flow op `at`: its inputs bound to bind[0..nbind), its other
 * tensors new, its ops appended.  Returns its outputs as graph tensors
 * (*nout of them). */
static int *inline_subgraph(Reader *r, int at, const char *role, int k,
                            const int *bind, int nbind, int *nout,
                            const char *prefix, int depth) {
  Graph *g = r->g;
  r->op = at;
  snprintf(r->where, sizeof r->where, "%s subgraph %d", role, k);
  if (k < 1 || (size_t)k >= r->subgraphs.n)
    fail(r, "%s_subgraph_index %d is no subgraph other than 0 (the model has "
            "%zu)", role, k, r->subgraphs.n);
  if (r->active[k])
    fail(r, "subgraph %d is already being inlined: a subgraph may not call "
            "itself", k);
  if (depth >= MAX_CONTROL_DEPTH)
    fail(r, "control flow and composites nested more than %d deep",
         MAX_CONTROL_DEPTH);
  Table sg = vec_table(r, r->subgraphs, (size_t)k, "subgraph");
  Vec tv = get_vec(r, &sg, 0, 4, "tensors");
  if (tv.n > INT32_MAX)
    fail(r, "too many tensors");
  int ntv = (int)tv.n, sin, sout;
  int *si = read_indices_in(r, &sg, 1, &sin, 0, ntv, "subgraph inputs");
  int *so = read_indices_in(r, &sg, 2, &sout, 0, ntv, "subgraph outputs");
  if (sin != nbind)
    fail(r, "has %d inputs, but the %s passes %d", sin, op_name(g->ops[at].kind),
         nbind);
  charge(r, tv.n, "subgraph tensors");
  int *map = arena_array(tv.n + 1, sizeof *map);
  for (int i = 0; i < ntv; i++)
    map[i] = -1;
  char where[64];
  snprintf(where, sizeof where, "%s", r->where);
  for (int j = 0; j < sin; j++) {
    int s = si[j], x = bind[j];
    if (map[s] >= 0 && map[s] != x)
      fail(r, "input %d (its tensor %d) is also another of its inputs", j, s);
    map[s] = x;
    Tensor st;
    bool res;
    snprintf(r->where, sizeof r->where, "subgraph %d tensor %d", k, s);
    read_tensor_at(r, tv, s, r->buffers, &st, &res);
    snprintf(r->where, sizeof r->where, "%s", where);
    const Tensor *gt = &g->tensors[x];
    if (res || r->resource[x])
      fail(r, "input %d is a RESOURCE tensor", j);
    if (is_dynamic(&st))
      fail(r, "input %d (its tensor %d) has a dynamic shape (-1 in "
              "shape_signature): not supported", j, s);
    if (!same_dtype_and_shape(&st, gt) || !same_quant(&st.q, &gt->q))
      fail(r, "input %d (its tensor %d) is %s%s, but the tensor bound to it "
              "(tensor %d) is %s%s", j, s, tensor_type_label(&st),
           st.q.nscale ? " quantized" : "", x, tensor_type_label(gt),
           gt->q.nscale ? " quantized" : "");
  }
  const char *inner = arena_printf("%ssubgraph%d/", prefix, k);
  for (int i = 0; i < ntv; i++) {
    if (map[i] >= 0)
      continue;
    int x = add_tensor(r);
    map[i] = x;
    snprintf(r->where, sizeof r->where, "subgraph %d tensor %d", k, i);
    Tensor *t = &g->tensors[x];
    memset(t, 0, sizeof *t);
    read_tensor_at(r, tv, i, r->buffers, t, &r->resource[x]);
    t->index = x;
    t->producer = t->storage = t->view_of = -1;
    t->name = arena_printf("%s%s", inner, t->name);
    if (t->is_variable)
      fail(r, "is a variable tensor: state inside control flow is not "
              "supported");
  }
  r->where[0] = 0;
  int *outs = arena_array((size_t)sout + 1, sizeof *outs);
  for (int j = 0; j < sout; j++)
    outs[j] = map[so[j]];
  *nout = sout;

  r->op = -1;
  read_inlined(r, &sg, inner, depth, k, map, ntv);
  r->op = at;
  snprintf(r->where, sizeof r->where, "%s subgraph %d", role, k);
  for (int j = 0; j < sout; j++) {
    const Tensor *t = &g->tensors[outs[j]];
    if (is_dynamic(t))
      fail(r, "output %d (tensor %d) has a dynamic shape (-1 in "
              "shape_signature): not supported", j, outs[j]);
  }
  return outs;
}

/* Checks that n outputs of a subgraph (got) have the types and shapes of
 * the tensors they are copied into (want). */
static void same_outputs(Reader *r, const int *got, int ngot, const int *want,
                         int nwant, const char *into) {
  Graph *g = r->g;
  if (ngot != nwant)
    fail(r, "has %d outputs, but the op has %d %ss", ngot, nwant, into);
  for (int j = 0; j < ngot; j++) {
    const Tensor *a = &g->tensors[got[j]], *b = &g->tensors[want[j]];
    if (!same_dtype_and_shape(a, b))
      fail(r, "output %d (tensor %d) is %s, but %s %d (tensor %d) is %s: "
              "shapes and types must match", j, got[j], tensor_type_label(a), into, j,
           want[j], tensor_type_label(b));
  }
}

/* Inlines IF op `at` (read as a TFLite op: cond, inputs -> outputs). */
static void inline_if(Reader *r, int at, const char *prefix, int depth) {
  Graph *g = r->g;
  Op *op = &g->ops[at];
  Options opt = op->opt;
  int nin = op->ninputs, nout = op->noutputs;
  int *in = op->inputs, *out = op->outputs;
  r->op = at;
  r->where[0] = 0;
  if (nin < 1)
    fail(r, "has no condition input");
  for (int j = 0; j < nin; j++)
    if (in[j] < 0 || r->resource[in[j]])
      fail(r, "input %d is absent or a RESOURCE tensor", j);
  for (int j = 0; j < nout; j++)
    g->tensors[out[j]].producer = -1;
  op->ninputs = 1;
  op->noutputs = 0;
  int n1, n2;
  int *then_out = inline_subgraph(r, at, "then", opt.subgraph[0], in + 1, nin - 1,
                                  &n1, prefix, depth);
  same_outputs(r, then_out, n1, out, nout, "output");
  push_structure(r, OP_ELSE, NULL, 0, NULL, 0, &opt);
  int *else_out = inline_subgraph(r, at, "else", opt.subgraph[1], in + 1, nin - 1,
                                  &n2, prefix, depth);
  same_outputs(r, else_out, n2, out, nout, "output");
  int *ein = arena_array((size_t)(1 + 2 * nout), sizeof *ein);
  ein[0] = in[0];
  memcpy(ein + 1, then_out, (size_t)nout * sizeof *ein);
  memcpy(ein + 1 + nout, else_out, (size_t)nout * sizeof *ein);
  push_structure(r, OP_END_IF, ein, 1 + 2 * nout, out, nout, &opt);
  r->op = -1;
  r->where[0] = 0;
}

/* Inlines WHILE op `at` (read as a TFLite op: inits -> outputs). */
static void inline_while(Reader *r, int at, const char *prefix, int depth) {
  Graph *g = r->g;
  Op *op = &g->ops[at];
  Options opt = op->opt;
  int n = op->noutputs;
  int *in = op->inputs, *vars = op->outputs;
  r->op = at;
  r->where[0] = 0;
  if (op->ninputs != n)
    fail(r, "has %d inputs and %d outputs; a loop variable is both",
         op->ninputs, n);
  if (n < 1)
    fail(r, "has no loop variables");
  for (int j = 0; j < n; j++) {
    if (in[j] < 0 || r->resource[in[j]] || r->resource[vars[j]])
      fail(r, "input %d is absent or a RESOURCE tensor", j);
    Tensor *v = &g->tensors[vars[j]];
    const Tensor *x = &g->tensors[in[j]];
    if (is_dynamic(v) || is_dynamic(x))
      fail(r, "loop variable %d (tensor %d) has a dynamic shape (-1 in "
              "shape_signature): not supported", j, vars[j]);
    if (!same_dtype_and_shape(v, x))
      fail(r, "output %d (tensor %d) is %s, but input %d (tensor %d) is %s: "
              "a loop variable keeps its type and shape", j, vars[j], tensor_type_label(v),
           j, in[j], tensor_type_label(x));
    for (int i = 0; i < n; i++)
      if (in[i] == vars[j])
        fail(r, "output %d is also input %d", j, i);
    v->loop_var = true;
  }
  int nc, nb;
  int *c = inline_subgraph(r, at, "cond", opt.subgraph[0], vars, n, &nc, prefix,
                           depth);
  if (nc != 1)
    fail(r, "has %d outputs; a loop condition is one bool", nc);
  const Tensor *ct = &g->tensors[c[0]];
  if (ct->dtype != DT_BOOL || tensor_elems(ct) != 1)
    fail(r, "output 0 (tensor %d) is %s; a loop condition is one bool", c[0],
         tensor_type_label(ct));
  push_structure(r, OP_WHILE_COND, c, 1, NULL, 0, &opt);
  int *next = inline_subgraph(r, at, "body", opt.subgraph[1], vars, n, &nb, prefix,
                              depth);
  same_outputs(r, next, nb, vars, n, "loop variable");
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++)
      if (i != j && next[j] == vars[i])
        fail(r, "output %d is loop variable %d unchanged: loop variables that "
                "trade places are not supported", j, i);
  int *ein = arena_array((size_t)(2 * n), sizeof *ein);
  memcpy(ein, next, (size_t)n * sizeof *ein);
  memcpy(ein + n, vars, (size_t)n * sizeof *ein);
  push_structure(r, OP_END_WHILE, ein, 2 * n, NULL, 0, &opt);
  r->op = -1;
  r->where[0] = 0;
}

/* Reads subgraph sg's ops onto the end of g->ops, inlining composites,
 * IF and WHILE. */
static void read_ops(Reader *r, const Table *sg, const char *prefix, int depth) {
  Vec ov = get_vec(r, sg, 3, 4, "operators");
  if (ov.n > INT32_MAX)
    fail(r, "too many operators");
  for (size_t i = 0; i < ov.n; i++) {
    snprintf(r->where, sizeof r->where, "op %d", r->g->nops);
    Table ot = vec_table(r, ov, i, "operator");
    uint32_t ci = (uint32_t)get_u(r, &ot, 0, 4, 0, "opcode_index");
    if (ci < (uint32_t)r->ncodes &&
        r->codes[ci].code == TFLITE_STABLEHLO_COMPOSITE) {
      inline_composite(r, &ot, prefix, depth);
      continue;
    }
    reserve_op(r);
    int at = r->g->nops;
    read_op(r, at, &ot, r->codes, r->ncodes);
    if (r->g->ops[at].kind == OP_IF)
      inline_if(r, at, prefix, depth);
    else if (r->g->ops[at].kind == OP_WHILE)
      inline_while(r, at, prefix, depth);
  }
  r->where[0] = 0;
}

/* -------------------------------------------------------- metadata */

static void read_metadata(Reader *r, const Table *model, Vec buffers) {
  Graph *g = r->g;
  Vec v = get_vec(r, model, 6, 4, "metadata");
  if (v.n > INT32_MAX)
    fail(r, "too many metadata entries");
  charge(r, v.n, "metadata");
  g->metadata = arena_array(v.n ? v.n : 1, sizeof *g->metadata);
  g->nmetadata = (int)v.n;
  for (size_t i = 0; i < v.n; i++) {
    snprintf(r->where, sizeof r->where, "metadata %zu", i);
    Table m = vec_table(r, v, i, "metadata");
    g->metadata[i].key = get_str(r, &m, 0, "name");
    uint32_t b = (uint32_t)get_u(r, &m, 1, 4, 0, "buffer");
    g->metadata[i].data = buffer_data(r, buffers, b, &g->metadata[i].ndata);
  }
  r->where[0] = 0;
}

const Metadata *find_metadata(const Graph *g, const char *key) {
  for (int i = 0; i < g->nmetadata; i++)
    if (!strcmp(g->metadata[i].key, key))
      return &g->metadata[i];
  return NULL;
}

/* ------------------------------------------------------------ model */

/* int4 weights of CONV_2D, DEPTHWISE_CONV_2D and FULLY_CONNECTED (packed
 * two per byte, element 2i in the low nibble of byte i, as TFLite's
 * UnpackDenseInt4IntoInt8 reads them) become int8 constants here, as
 * TFLite Micro unpacks them before the int8 kernels run; every later
 * stage sees int8 weights.  Tensor.packed4 keeps the file's packed bytes
 * for the kernels that unpack at run time (int8 CONV_2D and
 * FULLY_CONNECTED), whose flash then holds 4 bits a weight; the others
 * (DEPTHWISE_CONV_2D, 16x8) read the int8 bytes. */
static void unpack_int4_weights(Graph *g) {
  for (int i = 0; i < g->nops; i++) {
    Op *op = &g->ops[i];
    if ((op->kind != OP_CONV_2D && op->kind != OP_DEPTHWISE_CONV_2D &&
         op->kind != OP_FULLY_CONNECTED) || op->ninputs < 2 || op->inputs[1] < 0)
      continue;
    Tensor *t = &g->tensors[op->inputs[1]];
    if (t->dtype != DT_INT4 || !t->data)
      continue;
    size_t n = (size_t)tensor_elems(t);
    if (t->ndata < (n + 1) / 2)
      continue; /* verify() names the short buffer */
    uint8_t *w = arena_array(n ? n : 1, 1);
    for (size_t k = 0; k < n; k++) {
      int u = (t->data[k / 2] >> (k % 2 ? 4 : 0)) & 0xf;
      w[k] = (uint8_t)(int8_t)(u >= 8 ? u - 16 : u);
    }
    t->packed4 = t->data;
    t->npacked4 = (n + 1) / 2;
    t->dtype = DT_INT8;
    t->data = w;
    t->ndata = n;
  }
}

Graph *read_tflite(const char *path, const uint8_t *buf, size_t size) {
  Graph *g = arena_alloc(sizeof *g);
  g->path = path;
  Reader rd = {.path = path, .buf = buf, .size = size, .g = g, .op = -1};
  Reader *r = &rd;
  /* Legitimate files copy at most about one element per 4 bytes. */
  rd.budget = size + 4096;

  if (size < 8)
    fail(r, "file too small (%zu bytes) to be a .tflite model", size);
  if (memcmp(buf + 4, "TFL3", 4) != 0) {
    char id[5];
    for (int i = 0; i < 4; i++)
      id[i] = (buf[4 + i] >= 32 && buf[4 + i] < 127) ? (char)buf[4 + i] : '?';
    id[4] = 0;
    fail(r, "not a .tflite model: file identifier is \"%s\", expected "
            "\"TFL3\"",
         id);
  }
  Table model = table_at(r, deref(r, 0, "root table"), "model");
  g->schema_version = (uint32_t)get_u(r, &model, 0, 4, 0, "version");
  if (g->schema_version != 3)
    fail(r, "schema version %u is not supported (expected 3)",
         g->schema_version);
  g->description = get_str(r, &model, 3, "description");
  Vec buffers = get_vec(r, &model, 4, 4, "buffers");
  int ncodes;
  OpCode *codes = read_opcodes(r, &model, &ncodes);

  Vec subgraphs = get_vec(r, &model, 2, 4, "subgraphs");
  if (subgraphs.n == 0)
    fail(r, "the model has no subgraph");
  g->nsubgraphs = 1;
  Table sg = vec_table(r, subgraphs, 0, "subgraph 0");

  Vec tv = get_vec(r, &sg, 0, 4, "tensors");
  if (tv.n > INT32_MAX)
    fail(r, "too many tensors");
  g->tensors = arena_array(tv.n ? tv.n : 1, sizeof *g->tensors);
  g->ntensors = (int)tv.n;
  rd.resource = arena_array(tv.n + 1, sizeof(bool));
  r->block_size = arena_array(tv.n + 1, sizeof(int32_t));
  r->block_scales = arena_array(tv.n + 1, sizeof(int32_t));
  for (int i = 0; i < g->ntensors; i++) {
    Tensor *t = &g->tensors[i];
    t->index = i;
    t->producer = t->storage = t->view_of = -1;
    t->name = "";
  }
  for (int i = 0; i < g->ntensors; i++) {
    snprintf(r->where, sizeof r->where, "tensor %d", i);
    Table tt = vec_table(r, tv, (size_t)i, "tensor");
    read_tensor(r, &g->tensors[i], &tt, buffers, &rd.resource[i]);
  }
  r->where[0] = 0;

  g->inputs = read_indices(r, &sg, 1, &g->ninputs, 0, "subgraph inputs");
  g->outputs = read_indices(r, &sg, 2, &g->noutputs, 0, "subgraph outputs");
  for (int i = 0; i < g->ninputs; i++)
    g->tensors[g->inputs[i]].is_input = true;
  for (int i = 0; i < g->noutputs; i++)
    g->tensors[g->outputs[i]].is_output = true;

  rd.captensors = g->ntensors;
  rd.subgraphs = subgraphs;
  rd.buffers = buffers;
  rd.codes = codes;
  rd.ncodes = ncodes;
  rd.active = arena_array(subgraphs.n, sizeof(bool));
  rd.decomp = arena_array(subgraphs.n, sizeof(bool));
  read_ops(r, &sg, "", 0);
  if (!g->ops)
    g->ops = arena_array(1, sizeof *g->ops);
  resolve_variables(r, subgraphs, buffers, codes, ncodes);
  unpack_int4_weights(g);

  read_metadata(r, &model, buffers);
  return g;
}

/* ---------------------------------------------- builtin op names */

/* BuiltinOperator names, for messages about ops tinyaot does not know. */
static const char *const builtin_names[] = {
    "ADD", "AVERAGE_POOL_2D", "CONCATENATION", "CONV_2D", "DEPTHWISE_CONV_2D",
    "DEPTH_TO_SPACE", "DEQUANTIZE", "EMBEDDING_LOOKUP", "FLOOR",
    "FULLY_CONNECTED", "HASHTABLE_LOOKUP", "L2_NORMALIZATION", "L2_POOL_2D",
    "LOCAL_RESPONSE_NORMALIZATION", "LOGISTIC", "LSH_PROJECTION", "LSTM",
    "MAX_POOL_2D", "MUL", "RELU", "RELU_N1_TO_1", "RELU6", "RESHAPE",
    "RESIZE_BILINEAR", "RNN", "SOFTMAX", "SPACE_TO_DEPTH", "SVDF", "TANH",
    "CONCAT_EMBEDDINGS", "SKIP_GRAM", "CALL", "CUSTOM",
    "EMBEDDING_LOOKUP_SPARSE", "PAD", "UNIDIRECTIONAL_SEQUENCE_RNN", "GATHER",
    "BATCH_TO_SPACE_ND", "SPACE_TO_BATCH_ND", "TRANSPOSE", "MEAN", "SUB", "DIV",
    "SQUEEZE", "UNIDIRECTIONAL_SEQUENCE_LSTM", "STRIDED_SLICE",
    "BIDIRECTIONAL_SEQUENCE_RNN", "EXP", "TOPK_V2", "SPLIT", "LOG_SOFTMAX",
    "DELEGATE", "BIDIRECTIONAL_SEQUENCE_LSTM", "CAST", "PRELU", "MAXIMUM",
    "ARG_MAX", "MINIMUM", "LESS", "NEG", "PADV2", "GREATER", "GREATER_EQUAL",
    "LESS_EQUAL", "SELECT", "SLICE", "SIN", "TRANSPOSE_CONV", "SPARSE_TO_DENSE",
    "TILE", "EXPAND_DIMS", "EQUAL", "NOT_EQUAL", "LOG", "SUM", "SQRT", "RSQRT",
    "SHAPE", "POW", "ARG_MIN", "FAKE_QUANT", "REDUCE_PROD", "REDUCE_MAX",
    "PACK", "LOGICAL_OR", "ONE_HOT", "LOGICAL_AND", "LOGICAL_NOT", "UNPACK",
    "REDUCE_MIN", "FLOOR_DIV", "REDUCE_ANY", "SQUARE", "ZEROS_LIKE", "FILL",
    "FLOOR_MOD", "RANGE", "RESIZE_NEAREST_NEIGHBOR", "LEAKY_RELU",
    "SQUARED_DIFFERENCE", "MIRROR_PAD", "ABS", "SPLIT_V", "UNIQUE", "CEIL",
    "REVERSE_V2", "ADD_N", "GATHER_ND", "COS", "WHERE", "RANK", "ELU",
    "REVERSE_SEQUENCE", "MATRIX_DIAG", "QUANTIZE", "MATRIX_SET_DIAG", "ROUND",
    "HARD_SWISH", "IF", "WHILE", "NON_MAX_SUPPRESSION_V4",
    "NON_MAX_SUPPRESSION_V5", "SCATTER_ND", "SELECT_V2", "DENSIFY",
    "SEGMENT_SUM", "BATCH_MATMUL", "PLACEHOLDER_FOR_GREATER_OP_CODES", "CUMSUM",
    "CALL_ONCE", "BROADCAST_TO", "RFFT2D", "CONV_3D", "IMAG", "REAL",
    "COMPLEX_ABS", "HASHTABLE", "HASHTABLE_FIND", "HASHTABLE_IMPORT",
    "HASHTABLE_SIZE", "REDUCE_ALL", "CONV_3D_TRANSPOSE", "VAR_HANDLE",
    "READ_VARIABLE", "ASSIGN_VARIABLE", "BROADCAST_ARGS",
    "RANDOM_STANDARD_NORMAL", "BUCKETIZE", "RANDOM_UNIFORM", "MULTINOMIAL",
    "GELU", "DYNAMIC_UPDATE_SLICE", "RELU_0_TO_1", "UNSORTED_SEGMENT_PROD",
    "UNSORTED_SEGMENT_MAX", "UNSORTED_SEGMENT_SUM", "ATAN2",
    "UNSORTED_SEGMENT_MIN", "SIGN", "BITCAST", "BITWISE_XOR", "RIGHT_SHIFT",
};

const char *tflite_builtin_name(int code) {
  if (code < 0 || code >= (int)(sizeof builtin_names / sizeof *builtin_names))
    return NULL;
  return builtin_names[code];
}
