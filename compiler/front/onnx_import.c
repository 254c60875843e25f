/* SPDX-License-Identifier: Apache-2.0 */
/*
 * onnx_import.c - the parsed ONNX graph (onnx.c) -> the IR.
 *
 * Nodes are imported in file order (ONNX graphs are topologically
 * sorted).  Every ONNX value becomes a Val (onnx.h):
 *   - a constant (initializer, Constant node, or any node whose inputs
 *     are all constant and whose op this file can evaluate on the host:
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
 */
#include "onnx.h"

#include <float.h>
#include <math.h>
#include <string.h>

typedef struct {
  const char *name;
  Val *v;
  int uses; /* nodes and graph outputs reading it */
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

/* ------------------------------------------------- the value table */

static uint64_t hash_str(const char *s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

static Slot *slot(Imp *m, const char *name, bool add) {
  if (add && m->cap == 0) {
    m->cap = 1024;
    m->slots = arena_array(m->cap, sizeof(Slot));
  }
  if (m->cap == 0)
    return NULL;
  size_t i = (size_t)hash_str(name) & (m->cap - 1);
  for (size_t k = 0; k < m->cap; k++, i = (i + 1) & (m->cap - 1)) {
    if (!m->slots[i].name) {
      if (!add)
        return NULL;
      m->slots[i].name = name;
      return &m->slots[i];
    }
    if (!strcmp(m->slots[i].name, name))
      return &m->slots[i];
  }
  unreachable(); /* the table is grown before it fills */
}

static void grow_slots(Imp *m, size_t want) {
  if (want * 2 < m->cap)
    return;
  size_t old = m->cap;
  Slot *s = m->slots;
  m->cap = m->cap ? m->cap : 1024;
  while (want * 2 >= m->cap)
    m->cap *= 2;
  m->slots = arena_array(m->cap, sizeof(Slot));
  for (size_t i = 0; i < old; i++)
    if (s[i].name)
      *slot(m, s[i].name, true) = s[i];
}

static void bind(Imp *m, const char *name, Val *v) {
  if (!name[0])
    return; /* an output nobody may read */
  Slot *s = slot(m, name, true);
  if (s->v)
    FAIL("value '%s' is produced twice", name);
  s->v = v;
}

static Val *lookup(Imp *m, const char *name) {
  Slot *s = slot(m, name, false);
  return s ? s->v : NULL;
}

static int uses_of(Imp *m, const char *name) {
  Slot *s = slot(m, name, false);
  return s ? s->uses : 0;
}

/* ------------------------------------------------------ IR builder */

static int32_t dim32(Imp *m, int64_t d) {
  if (d < 0 || d > INT32_MAX)
    FAIL("dimension %lld out of range", (long long)d);
  return (int32_t)d;
}

static int new_tensor(Imp *m, const char *name, DType dt, int ndims, const int64_t *dims) {
  if (m->ntensors == m->captensors) {
    m->captensors = m->captensors ? 2 * m->captensors : 256;
    Tensor *t = arena_array((size_t)m->captensors, sizeof(Tensor));
    if (m->ntensors)
      memcpy(t, m->tensors, (size_t)m->ntensors * sizeof(Tensor));
    m->tensors = t;
  }
  int64_t width = (dtype_bits(dt) + 7) / 8;
  onnx_elems(m->x, dims, ndims, (int)width);
  Tensor *t = &m->tensors[m->ntensors];
  memset(t, 0, sizeof *t);
  t->index = m->ntensors;
  t->name = name ? name : "";
  t->dtype = dt;
  t->ndims = ndims;
  for (int d = 0; d < ndims; d++)
    t->dims[d] = dim32(m, dims[d]);
  t->producer = t->storage = t->view_of = -1;
  return m->ntensors++;
}

static Tensor *T(Imp *m, int t) { return &m->tensors[t]; }

static int const_tensor(Imp *m, const char *name, DType dt, int ndims, const int64_t *dims,
                        const void *data) {
  int t = new_tensor(m, name, dt, ndims, dims);
  size_t n = tensor_bytes(T(m, t));
  uint8_t *copy = arena_alloc(n ? n : 1);
  if (n)
    memcpy(copy, data, n);
  T(m, t)->data = copy;
  T(m, t)->ndata = n;
  T(m, t)->buffer = 1;
  return t;
}

static int const_i32(Imp *m, const int32_t *v, int n) {
  int64_t d = n;
  return const_tensor(m, "", DT_INT32, 1, &d, v);
}

/* Appends an op reading ins and writing outs; returns its index. */
static int add_op(Imp *m, OpKind kind, const int *ins, int nins, const int *outs,
                  int nouts) {
  if (m->nops == m->capops) {
    m->capops = m->capops ? 2 * m->capops : 128;
    Op *o = arena_array((size_t)m->capops, sizeof(Op));
    if (m->nops)
      memcpy(o, m->ops, (size_t)m->nops * sizeof(Op));
    m->ops = o;
  }
  Op *op = &m->ops[m->nops];
  memset(op, 0, sizeof *op);
  op->index = m->nops;
  op->kind = kind;
  op->version = 1;
  op->scratch_buffer = op->state_buffer = -1;
  op->inputs = arena_array((size_t)nins + 1, sizeof(int));
  op->outputs = arena_array((size_t)nouts + 1, sizeof(int));
  memcpy(op->inputs, ins, (size_t)nins * sizeof(int));
  memcpy(op->outputs, outs, (size_t)nouts * sizeof(int));
  op->ninputs = nins;
  op->noutputs = nouts;
  op->opt.dilation_w = op->opt.dilation_h = 1;
  op->opt.pot_scale_int16 = true;
  op->opt.beta = 1.0f;
  for (int k = 0; k < nouts; k++)
    T(m, outs[k])->producer = m->nops;
  return m->nops++;
}

static Op *OP(Imp *m, int i) { return &m->ops[i]; }

static int reshape_to(Imp *m, int in, const char *name, int ndims, const int64_t *dims) {
  int32_t s[MAX_DIMS];
  for (int d = 0; d < ndims; d++)
    s[d] = dim32(m, dims[d]);
  int ins[2] = {in, const_i32(m, s, ndims)};
  int out = new_tensor(m, name, T(m, in)->dtype, ndims, dims);
  T(m, out)->q = T(m, in)->q;
  int o = add_op(m, OP_RESHAPE, ins, 2, &out, 1);
  OP(m, o)->opt.fields = OPTF_NEW_SHAPE;
  OP(m, o)->opt.nnew_shape = ndims;
  memcpy(OP(m, o)->opt.new_shape, s, sizeof s);
  return out;
}

static int transpose_to(Imp *m, int in, const char *name, const int *perm) {
  Tensor *t = T(m, in);
  int n = t->ndims;
  int32_t p[MAX_DIMS];
  int64_t dims[MAX_DIMS];
  for (int d = 0; d < n; d++)
    p[d] = perm[d], dims[d] = t->dims[perm[d]];
  int ins[2] = {in, const_i32(m, p, n)};
  int out = new_tensor(m, name, t->dtype, n, dims);
  T(m, out)->q = T(m, in)->q;
  add_op(m, OP_TRANSPOSE, ins, 2, &out, 1);
  return out;
}

/* ------------------------------------------------------------ Vals */

static const int TO_NHWC[4] = {0, 2, 3, 1}; /* NHWC dim d = ONNX dim TO_NHWC[d] */
static const int TO_NCHW[4] = {0, 3, 1, 2};
/* The NHWC position of ONNX axis a of a 4-D value. */
static int nhwc_axis(int a) { return a == 0 ? 0 : a == 1 ? 3 : a - 1; }

static Val *new_val(Imp *m, const char *name, DType dt, int ndims, const int64_t *dims) {
  Val *v = arena_alloc(sizeof *v);
  v->name = name;
  v->dt = dt;
  v->ndims = ndims;
  for (int d = 0; d < ndims; d++)
    v->dims[d] = dims[d];
  v->t[0] = v->t[1] = -1;
  onnx_elems(m->x, dims, ndims, (dtype_bits(dt) + 7) / 8);
  return v;
}

/* Folded constants are charged to a budget (64 MB, more for large
 * models): a corrupt shape cannot make the host allocate gigabytes. */
static Val *new_const(Imp *m, const char *name, DType dt, int ndims, const int64_t *dims) {
  Val *v = new_val(m, name, dt, ndims, dims);
  size_t n = val_bytes(v);
  if (n > m->budget)
    FAIL("constant '%s' (%zu bytes) exceeds what folding may create", name, n);
  m->budget -= n;
  v->data = arena_alloc(n ? n : 1);
  return v;
}

static void nhwc_dims(const Val *v, int64_t *dims) {
  for (int d = 0; d < 4; d++)
    dims[d] = v->dims[TO_NHWC[d]];
}

/* v's IR tensor for an activation in layout (made on first use). */
static int out_tensor(Imp *m, Val *v, int layout) {
  if (layout == L_NHWC) {
    int64_t d[4];
    nhwc_dims(v, d);
    v->t[L_NHWC] = new_tensor(m, v->name, v->dt, 4, d);
  } else {
    v->t[L_ONNX] = new_tensor(m, v->name, v->dt, v->ndims, v->dims);
  }
  return v->t[layout];
}

static void settle_dq(Imp *m, Val *v);

static int ir(Imp *m, Val *v, int layout) {
  if (layout == L_NHWC && v->ndims != 4)
    unreachable();
  if (v->qsrc && !v->data) {
    if (m->qdq)
      return ir(m, v->qsrc, layout);
    settle_dq(m, v);
  }
  if (v->t[layout] >= 0)
    return v->t[layout];
  if (v->data) {
    if (layout == L_ONNX) {
      v->t[0] = const_tensor(m, v->name, v->dt, v->ndims, v->dims, v->data);
    } else {
      int64_t d[4];
      nhwc_dims(v, d);
      size_t w = (size_t)(dtype_bits(v->dt) + 7) / 8;
      uint8_t *p = arena_alloc(val_bytes(v) + 1);
      int64_t N = v->dims[0], C = v->dims[1], H = v->dims[2], W = v->dims[3];
      for (int64_t n = 0; n < N; n++)
        for (int64_t c = 0; c < C; c++)
          for (int64_t y = 0; y < H; y++)
            for (int64_t x = 0; x < W; x++)
              memcpy(p + (size_t)(((n * H + y) * W + x) * C + c) * w,
                     v->data + (size_t)(((n * C + c) * H + y) * W + x) * w, w);
      v->t[1] = const_tensor(m, v->name, v->dt, 4, d, p);
    }
    return v->t[layout];
  }
  int other = v->t[!layout];
  if (other < 0)
    unreachable();
  bool same_order = v->dims[1] == 1 || v->dims[2] * v->dims[3] == 1;
  const char *name = arena_printf("%s%s", v->name, layout == L_NHWC ? ":nhwc" : "");
  if (same_order) {
    int64_t d[4];
    if (layout == L_NHWC)
      nhwc_dims(v, d);
    else
      memcpy(d, v->dims, sizeof d);
    v->t[layout] = reshape_to(m, other, name, 4, d);
  } else {
    v->t[layout] = transpose_to(m, other, name, layout == L_NHWC ? TO_NHWC : TO_NCHW);
  }
  return v->t[layout];
}

/* The layout an activation already has (NHWC preferred). */
static int pref(const Val *v) { return v->ndims == 4 && v->t[L_NHWC] >= 0 ? L_NHWC : L_ONNX; }

/* ------------------------------------------- node inputs, attributes */

static Val *in(Imp *m, int k) {
  if (k >= m->n->ninputs || !m->n->inputs[k][0])
    return NULL;
  Val *v = lookup(m, m->n->inputs[k]);
  if (!v)
    FAIL("input '%s' is neither a graph input, an initializer nor an earlier node's output",
         m->n->inputs[k]);
  if (v->qsrc && !v->data && !m->qdq)
    settle_dq(m, v);
  return v;
}

static Val *need_in(Imp *m, int k) {
  Val *v = in(m, k);
  if (!v)
    FAIL("input %d is missing", k);
  return v;
}

static Val *need_const(Imp *m, int k, const char *what) {
  Val *v = need_in(m, k);
  if (!v->data)
    FAIL("input %d (%s, '%s') must be a constant (an initializer, or --constant-input)", k,
         what, v->name);
  return v;
}

static const OAttr *attr(Imp *m, const char *name) {
  for (int k = 0; k < m->n->nattrs; k++)
    if (!strcmp(m->n->attrs[k].name, name))
      return &m->n->attrs[k];
  return NULL;
}

static int64_t attr_i(Imp *m, const char *name, int64_t def) {
  const OAttr *a = attr(m, name);
  if (!a)
    return def;
  if (!(a->has & 2))
    FAIL("attribute %s is not an integer", name);
  return a->i;
}

static float attr_f(Imp *m, const char *name, float def) {
  const OAttr *a = attr(m, name);
  if (!a)
    return def;
  if (a->has & 1)
    return a->f;
  if (a->has & 2)
    return (float)a->i;
  FAIL("attribute %s is not a float", name);
}

static const char *attr_s(Imp *m, const char *name, const char *def) {
  const OAttr *a = attr(m, name);
  if (!a)
    return def;
  if (!(a->has & 4))
    FAIL("attribute %s is not a string", name);
  return a->s;
}

/* Integer list attribute: count (or -1 when absent). */
static int attr_ints(Imp *m, const char *name, int64_t *out, int max) {
  const OAttr *a = attr(m, name);
  if (!a)
    return -1;
  if (a->nints > max)
    FAIL("attribute %s has %d values (at most %d)", name, a->nints, max);
  for (int k = 0; k < a->nints; k++)
    out[k] = a->ints[k];
  return a->nints;
}

/* ------------------------------------------------- constant values */

static bool is_float(DType dt) {
  return dt == DT_FLOAT32 || dt == DT_FLOAT64 || dt == DT_FLOAT16;
}

static float half_to_float(uint16_t h) {
  int e = (h >> 10) & 31, f = h & 1023;
  float v = e == 0 ? ldexpf((float)f, -24) : e == 31 ? (f ? NAN : INFINITY)
                                                     : ldexpf((float)(f | 1024), e - 25);
  return h & 0x8000 ? -v : v;
}

/* Element k of a constant, as double / int64. */
/* Element k of a packed 4- or 2-bit integer array, in ONNX's order
 * (element 0 in the lowest bits of byte 0), sign-extended for int4/int2. */
static int packed_int(DType dt, const uint8_t *p, int64_t k) {
  int bits = dt == DT_INT4 || dt == DT_UINT4 ? 4 : 2;
  int64_t per = 8 / bits;
  int u = (p[k / per] >> (int)((k % per) * bits)) & ((1 << bits) - 1);
  if ((dt == DT_INT4 || dt == DT_INT2) && u >= 1 << (bits - 1))
    u -= 1 << bits;
  return u;
}

static double cget_d(const Val *v, int64_t k) {
  const uint8_t *p = v->data;
  switch (v->dt) {
  case DT_FLOAT32: { float f; memcpy(&f, p + 4 * k, 4); return f; }
  case DT_FLOAT64: { double f; memcpy(&f, p + 8 * k, 8); return f; }
  case DT_FLOAT16: { uint16_t h; memcpy(&h, p + 2 * k, 2); return half_to_float(h); }
  case DT_INT8: return (int8_t)p[k];
  case DT_UINT8: case DT_BOOL: return p[k];
  case DT_INT16: { int16_t i; memcpy(&i, p + 2 * k, 2); return i; }
  case DT_UINT16: { uint16_t i; memcpy(&i, p + 2 * k, 2); return i; }
  case DT_INT32: { int32_t i; memcpy(&i, p + 4 * k, 4); return i; }
  case DT_UINT32: { uint32_t i; memcpy(&i, p + 4 * k, 4); return i; }
  case DT_INT64: { int64_t i; memcpy(&i, p + 8 * k, 8); return (double)i; }
  case DT_UINT64: { uint64_t i; memcpy(&i, p + 8 * k, 8); return (double)i; }
  case DT_INT4: case DT_UINT4: case DT_INT2: case DT_UINT2: return packed_int(v->dt, p, k);
  default: return 0;
  }
}

static int64_t cget_i(const Val *v, int64_t k) {
  const uint8_t *p = v->data;
  switch (v->dt) {
  case DT_INT64: case DT_UINT64: { int64_t i; memcpy(&i, p + 8 * k, 8); return i; }
  case DT_INT32: { int32_t i; memcpy(&i, p + 4 * k, 4); return i; }
  case DT_UINT32: { uint32_t i; memcpy(&i, p + 4 * k, 4); return i; }
  default: {
    double d = cget_d(v, k);
    if (!(d > -9.2e18 && d < 9.2e18))
      return d > 0 ? INT64_MAX : INT64_MIN;
    return (int64_t)d;
  }
  }
}

/* Stores x (double or int64, whichever the type needs) as element k. */
static void cset(Val *v, int64_t k, double d, int64_t i) {
  uint8_t *p = (uint8_t *)v->data;
  switch (v->dt) {
  case DT_FLOAT32: { float f = (float)d; memcpy(p + 4 * k, &f, 4); break; }
  case DT_FLOAT64: memcpy(p + 8 * k, &d, 8); break;
  case DT_INT8: case DT_UINT8: p[k] = (uint8_t)i; break;
  case DT_BOOL: p[k] = i != 0; break;
  case DT_INT16: case DT_UINT16: { uint16_t h = (uint16_t)i; memcpy(p + 2 * k, &h, 2); break; }
  case DT_INT32: case DT_UINT32: { uint32_t u = (uint32_t)i; memcpy(p + 4 * k, &u, 4); break; }
  case DT_INT64: case DT_UINT64: memcpy(p + 8 * k, &i, 8); break;
  default: break;
  }
}

static void copy_elem(Val *dst, int64_t kd, const Val *src, int64_t ks) {
  size_t w = (size_t)(dtype_bits(src->dt) + 7) / 8;
  memcpy((uint8_t *)dst->data + (size_t)kd * w, src->data + (size_t)ks * w, w);
}

static int64_t resolve(Imp *m, int64_t axis, int rank, const char *what) {
  if (axis < -rank || axis >= (rank ? rank : 1))
    FAIL("%s %lld is out of range for rank %d", what, (long long)axis, rank);
  return axis < 0 ? axis + rank : axis;
}

/* Row-major strides of dims. */
static void strides(const int64_t *dims, int n, int64_t *st) {
  int64_t s = 1;
  for (int d = n - 1; d >= 0; d--)
    st[d] = s, s *= dims[d];
}

/* numpy broadcasting of two shapes; false when they do not broadcast. */
static bool bcast(const int64_t *a, int na, const int64_t *b, int nb, int64_t *out, int *n) {
  *n = na > nb ? na : nb;
  for (int d = 0; d < *n; d++) {
    int64_t x = d - (*n - na) >= 0 ? a[d - (*n - na)] : 1;
    int64_t y = d - (*n - nb) >= 0 ? b[d - (*n - nb)] : 1;
    if (x != y && x != 1 && y != 1)
      return false;
    out[d] = x == 1 ? y : x;
  }
  return true;
}

/* Index into v (broadcast to out[n]) of output element k. */
static int64_t bidx(const Val *v, const int64_t *out, int n, int64_t k) {
  int64_t st[MAX_DIMS], idx = 0;
  strides(v->dims, v->ndims, st);
  for (int d = n - 1; d >= 0; d--) {
    int64_t c = k % out[d];
    k /= out[d];
    int vd = d - (n - v->ndims);
    if (vd >= 0 && v->dims[vd] != 1)
      idx += c * st[vd];
  }
  return idx;
}

/* Integer list of a constant input (shapes, axes, pads). */
static int const_list(Imp *m, const Val *v, int64_t *out, int max, const char *what) {
  int64_t n = val_elems(v);
  if (n > max)
    FAIL("%s has %lld values (at most %d)", what, (long long)n, max);
  if (is_float(v->dt))
    FAIL("%s must be integers", what);
  for (int64_t k = 0; k < n; k++)
    out[k] = cget_i(v, k);
  return (int)n;
}

/* ------------------------------------------- constant folding */

static Val *out_const(Imp *m, int k, DType dt, int ndims, const int64_t *dims) {
  return new_const(m, m->n->outputs[k], dt, ndims, dims);
}

static void fold_elementwise(Imp *m, const char *op) {
  Val *a = need_in(m, 0), *b = in(m, 1), *c = in(m, 2);
  bool where = !strcmp(op, "Where");
  int64_t dims[MAX_DIMS];
  int n;
  if (b) {
    if (!bcast(a->dims, a->ndims, b->dims, b->ndims, dims, &n))
      FAIL("shapes do not broadcast");
    if (c && !bcast(dims, n, c->dims, c->ndims, dims, &n))
      FAIL("shapes do not broadcast");
  } else {
    n = a->ndims;
    memcpy(dims, a->dims, sizeof dims);
  }
  bool cmp = !strcmp(op, "Equal") || !strcmp(op, "Less") || !strcmp(op, "Greater") ||
             !strcmp(op, "LessOrEqual") || !strcmp(op, "GreaterOrEqual") || !strcmp(op, "Not") ||
             !strcmp(op, "And") || !strcmp(op, "Or");
  DType dt = cmp ? DT_BOOL : where ? b->dt : a->dt;
  Val *o = out_const(m, 0, dt, n, dims);
  bool fl = is_float(where ? b->dt : a->dt);
  int64_t ne = val_elems(o);
  for (int64_t k = 0; k < ne; k++) {
    int64_t ia = bidx(a, dims, n, k), ib = b ? bidx(b, dims, n, k) : 0;
    double x = cget_d(a, ia), y = b ? cget_d(b, ib) : 0, r = 0;
    int64_t xi = cget_i(a, ia), yi = b ? cget_i(b, ib) : 0, ri = 0;
    if (where) {
      int64_t ic = bidx(c, dims, n, k);
      bool t = xi != 0;
      r = t ? y : cget_d(c, ic);
      ri = t ? yi : cget_i(c, ic);
    } else if (!strcmp(op, "Add")) r = x + y, ri = (int64_t)((uint64_t)xi + (uint64_t)yi);
    else if (!strcmp(op, "Sub")) r = x - y, ri = (int64_t)((uint64_t)xi - (uint64_t)yi);
    else if (!strcmp(op, "Mul")) r = x * y, ri = (int64_t)((uint64_t)xi * (uint64_t)yi);
    else if (!strcmp(op, "Div")) {
      r = x / y;
      if (!fl && yi == 0)
        FAIL("integer division by zero in a constant");
      ri = !fl ? (xi == INT64_MIN && yi == -1 ? xi : xi / yi) : 0;
    } else if (!strcmp(op, "Pow")) r = pow(x, y), ri = (int64_t)r;
    else if (!strcmp(op, "Max")) r = x > y ? x : y, ri = xi > yi ? xi : yi;
    else if (!strcmp(op, "Min")) r = x < y ? x : y, ri = xi < yi ? xi : yi;
    else if (!strcmp(op, "Equal")) ri = fl ? x == y : xi == yi;
    else if (!strcmp(op, "Less")) ri = fl ? x < y : xi < yi;
    else if (!strcmp(op, "Greater")) ri = fl ? x > y : xi > yi;
    else if (!strcmp(op, "LessOrEqual")) ri = fl ? x <= y : xi <= yi;
    else if (!strcmp(op, "GreaterOrEqual")) ri = fl ? x >= y : xi >= yi;
    else if (!strcmp(op, "And")) ri = xi && yi;
    else if (!strcmp(op, "Or")) ri = xi || yi;
    else if (!strcmp(op, "Not")) ri = !xi;
    else if (!strcmp(op, "Neg")) r = -x, ri = (int64_t)(0 - (uint64_t)xi);
    else if (!strcmp(op, "Abs")) r = fabs(x), ri = xi < 0 ? (int64_t)(0 - (uint64_t)xi) : xi;
    else if (!strcmp(op, "Sqrt")) r = sqrt(x), ri = (int64_t)r;
    else if (!strcmp(op, "Floor")) r = floor(x), ri = xi;
    else if (!strcmp(op, "Ceil")) r = ceil(x), ri = xi;
    else if (!strcmp(op, "Reciprocal")) r = 1.0 / x, ri = 0;
    else if (!strcmp(op, "Relu")) r = x > 0 ? x : 0, ri = xi > 0 ? xi : 0;
    else unreachable();
    if (fl && !cmp)
      ri = (int64_t)r;
    if (!fl && !cmp)
      r = (double)ri;
    if (cmp)
      r = (double)ri;
    cset(o, k, r, ri);
  }
  if (fl && !cmp && dt == DT_FLOAT32) {
    /* Float32 arithmetic, rounded once per op as ONNX Runtime does. */
    for (int64_t k = 0; k < ne; k++) {
      int64_t ia = bidx(a, dims, n, k), ib = b ? bidx(b, dims, n, k) : 0;
      float x = (float)cget_d(a, ia), y = b ? (float)cget_d(b, ib) : 0.0f, r;
      if (!strcmp(op, "Add")) r = x + y;
      else if (!strcmp(op, "Sub")) r = x - y;
      else if (!strcmp(op, "Mul")) r = x * y;
      else if (!strcmp(op, "Div")) r = x / y;
      else continue;
      cset(o, k, r, 0);
    }
  }
  bind(m, m->n->outputs[0], o);
}

/* ------------------------------------- ONNX's small types (Cast) */

/* bfloat16, the float8s, float4e2m1 and the sub-byte integers: types a
 * CAST converts to and from (runtime/cast/minifloat.h), nothing else. */
static bool onnx_small_type(DType dt) {
  return dt == DT_BFLOAT16 || dt == DT_FLOAT8E4M3FN || dt == DT_FLOAT8E4M3FNUZ ||
         dt == DT_FLOAT8E5M2 || dt == DT_FLOAT8E5M2FNUZ || dt == DT_FLOAT8E8M0 ||
         dt == DT_FLOAT4E2M1 || dt == DT_INT4 || dt == DT_UINT4 || dt == DT_INT2 ||
         dt == DT_UINT2;
}

/* Cast's saturate (float8 targets; default 1) and round_mode (float8e8m0
 * targets: "up", the default, "down" or "nearest") onto the CAST op. */
static void onnx_cast_attrs(Imp *m, Op *o, DType to) {
  bool float8 = to == DT_FLOAT8E4M3FN || to == DT_FLOAT8E4M3FNUZ || to == DT_FLOAT8E5M2 ||
                to == DT_FLOAT8E5M2FNUZ || to == DT_FLOAT8E8M0;
  int64_t sat = attr_i(m, "saturate", 1);
  if (sat != 0 && sat != 1)
    FAIL("saturate is %lld (0 or 1)", (long long)sat);
  o->opt.cast_no_saturate = float8 && sat == 0;
  const char *rm = attr_s(m, "round_mode", "up");
  if (!strcmp(rm, "up")) o->opt.cast_round_mode = 0;
  else if (!strcmp(rm, "down")) o->opt.cast_round_mode = 1;
  else if (!strcmp(rm, "nearest")) o->opt.cast_round_mode = 2;
  else FAIL("round_mode '%s' is not one of up, down, nearest", rm);
}

/* Cast's target type ("to"), or CastLike's (input 1's type). */
static DType cast_target(Imp *m) {
  if (!strcmp(m->n->op_type, "CastLike"))
    return need_in(m, 1)->dt;
  DType dt;
  int64_t to = attr_i(m, "to", 0);
  if (!onnx_dtype((int)to, &dt))
    FAIL("Cast to data type %lld is not supported", (long long)to);
  return dt;
}

static void fold_cast(Imp *m) {
  Val *a = need_in(m, 0);
  DType dt = cast_target(m);
  Val *o = out_const(m, 0, dt, a->ndims, a->dims);
  for (int64_t k = 0; k < val_elems(a); k++) {
    double d = cget_d(a, k);
    int64_t i = is_float(a->dt) ? (int64_t)(isfinite(d) && fabs(d) < 9.2e18 ? d : 0) : cget_i(a, k);
    cset(o, k, is_float(a->dt) ? d : (double)i, i);
  }
  bind(m, m->n->outputs[0], o);
}

static Val *shape_const(Imp *m, const char *name, const int64_t *v, int n) {
  int64_t d = n;
  Val *o = new_const(m, name, DT_INT64, 1, &d);
  memcpy((void *)o->data, v, (size_t)n * 8);
  return o;
}

static void fold_shape(Imp *m) {
  Val *a = need_in(m, 0);
  int64_t r = a->ndims;
  int64_t start = attr_i(m, "start", 0), end = attr_i(m, "end", r);
  start = start < 0 ? start + r : start;
  end = end < 0 ? end + r : end;
  start = start < 0 ? 0 : start > r ? r : start;
  end = end < 0 ? 0 : end > r ? r : end;
  int n = end > start ? (int)(end - start) : 0;
  bind(m, m->n->outputs[0], shape_const(m, m->n->outputs[0], a->dims + start, n));
}

/* Output shape of Reshape (ONNX rules: 0 copies, -1 infers). */
static int reshape_dims(Imp *m, const Val *a, const Val *shape, int64_t *out) {
  int n = const_list(m, shape, out, MAX_DIMS, "the shape");
  bool allowzero = attr_i(m, "allowzero", 0) != 0;
  int infer = -1;
  int64_t known = 1;
  for (int d = 0; d < n; d++) {
    if (out[d] == 0 && !allowzero) {
      if (d >= a->ndims)
        FAIL("shape entry %d is 0 but the input has rank %d", d, a->ndims);
      out[d] = a->dims[d];
    }
    if (out[d] == -1) {
      if (infer >= 0)
        FAIL("the shape has two -1 entries");
      infer = d;
    } else if (out[d] < 0) {
      FAIL("shape entry %d is %lld", d, (long long)out[d]);
    } else {
      if (out[d] && known > MAX_VAL_BYTES / out[d])
        FAIL("the shape is too large");
      known *= out[d];
    }
  }
  int64_t total = val_elems(a);
  if (infer >= 0) {
    if (known == 0 || total % known)
      FAIL("cannot infer the -1 of the shape (%lld elements)", (long long)total);
    out[infer] = total / known;
  } else if (known != total) {
    FAIL("the shape holds %lld elements, the input %lld", (long long)known, (long long)total);
  }
  return n;
}

/* Unsqueeze/Squeeze axes: attribute (opset < 13) or input 1. */
static int axes_of(Imp *m, int64_t *axes, bool *given) {
  int n = -1;
  if (m->x->opset < 13 || !in(m, 1)) {
    n = attr_ints(m, "axes", axes, MAX_DIMS);
  } else {
    Val *v = in(m, 1);
    if (!v->data)
      FAIL("the axes must be constant");
    n = const_list(m, v, axes, MAX_DIMS, "the axes");
  }
  *given = n >= 0;
  return n < 0 ? 0 : n;
}

static int squeeze_dims(Imp *m, const Val *a, int64_t *out, bool unsqueeze) {
  int64_t axes[MAX_DIMS];
  bool given;
  int na = axes_of(m, axes, &given);
  bool mark[MAX_DIMS + 1] = {false};
  if (unsqueeze) {
    int r = a->ndims + na;
    if (!given || r > MAX_DIMS)
      FAIL("Unsqueeze needs axes and a result of rank <= %d", MAX_DIMS);
    for (int k = 0; k < na; k++) {
      int64_t ax = resolve(m, axes[k], r, "axis");
      if (mark[ax])
        FAIL("axis %lld given twice", (long long)axes[k]);
      mark[ax] = true;
    }
    int s = 0;
    for (int d = 0; d < r; d++)
      out[d] = mark[d] ? 1 : a->dims[s++];
    return r;
  }
  for (int k = 0; k < na; k++) {
    int64_t ax = resolve(m, axes[k], a->ndims, "axis");
    if (a->dims[ax] != 1)
      FAIL("cannot squeeze axis %lld of size %lld", (long long)ax, (long long)a->dims[ax]);
    mark[ax] = true;
  }
  int r = 0;
  for (int d = 0; d < a->ndims; d++)
    if (given ? !mark[d] : a->dims[d] != 1)
      out[r++] = a->dims[d];
  return r;
}

static int flatten_dims(Imp *m, const Val *a, int64_t *out) {
  /* axis in [-r, r]: a negative one counts from the back. */
  int64_t axis = attr_i(m, "axis", 1);
  if (axis < -a->ndims || axis > a->ndims)
    FAIL("axis %lld is out of range for rank %d", (long long)axis, a->ndims);
  axis = axis < 0 ? axis + a->ndims : axis;
  out[0] = out[1] = 1;
  for (int d = 0; d < a->ndims; d++)
    out[d >= axis] *= a->dims[d];
  return 2;
}

static void fold_reshape_like(Imp *m, int ndims, const int64_t *dims) {
  Val *a = need_in(m, 0);
  Val *o = new_val(m, m->n->outputs[0], a->dt, ndims, dims);
  o->data = a->data;
  bind(m, m->n->outputs[0], o);
}

static void fold_concat(Imp *m) {
  Val *a = need_in(m, 0);
  int64_t axis = resolve(m, attr_i(m, "axis", 0), a->ndims, "axis");
  int64_t dims[MAX_DIMS];
  memcpy(dims, a->dims, sizeof dims);
  dims[axis] = 0;
  for (int k = 0; k < m->n->ninputs; k++) {
    Val *v = need_in(m, k);
    if (v->ndims != a->ndims || v->dt != a->dt)
      FAIL("inputs of different ranks or types");
    for (int d = 0; d < a->ndims; d++)
      if (d != axis && v->dims[d] != a->dims[d])
        FAIL("input %d's shape does not fit", k);
    dims[axis] += v->dims[axis];
  }
  Val *o = out_const(m, 0, a->dt, a->ndims, dims);
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < axis; d++)
    outer *= dims[d];
  for (int d = (int)axis + 1; d < a->ndims; d++)
    inner *= dims[d];
  int64_t pos = 0;
  for (int64_t i = 0; i < outer; i++)
    for (int k = 0; k < m->n->ninputs; k++) {
      Val *v = need_in(m, k);
      int64_t run = v->dims[axis] * inner;
      for (int64_t j = 0; j < run; j++)
        copy_elem(o, pos++, v, i * run + j);
    }
  bind(m, m->n->outputs[0], o);
}

static void fold_gather(Imp *m) {
  Val *a = need_in(m, 0), *idx = need_in(m, 1);
  int64_t axis = resolve(m, attr_i(m, "axis", 0), a->ndims, "axis");
  int64_t dims[MAX_DIMS];
  int n = 0;
  for (int d = 0; d < axis; d++)
    dims[n++] = a->dims[d];
  for (int d = 0; d < idx->ndims; d++)
    dims[n++] = idx->dims[d];
  for (int d = (int)axis + 1; d < a->ndims; d++)
    dims[n++] = a->dims[d];
  if (n > MAX_DIMS)
    FAIL("the result has a rank above %d", MAX_DIMS);
  Val *o = out_const(m, 0, a->dt, n, dims);
  int64_t outer = 1, inner = 1, ni = val_elems(idx), len = a->dims[axis];
  for (int d = 0; d < axis; d++)
    outer *= a->dims[d];
  for (int d = (int)axis + 1; d < a->ndims; d++)
    inner *= a->dims[d];
  int64_t pos = 0;
  for (int64_t i = 0; i < outer; i++)
    for (int64_t j = 0; j < ni; j++) {
      int64_t g = cget_i(idx, j);
      if (g < -len || g >= len)
        FAIL("index %lld is out of range for size %lld", (long long)g, (long long)len);
      g = g < 0 ? g + len : g;
      for (int64_t r = 0; r < inner; r++)
        copy_elem(o, pos++, a, (i * len + g) * inner + r);
    }
  bind(m, m->n->outputs[0], o);
}

/* Slice parameters, per dimension: start, step, count (ONNX clamping). */
typedef struct {
  int64_t start[MAX_DIMS], step[MAX_DIMS], count[MAX_DIMS];
} SliceP;

static void slice_params(Imp *m, const Val *a, SliceP *s) {
  Val *vs = need_const(m, 1, "starts"), *ve = need_const(m, 2, "ends");
  Val *va = in(m, 3), *vst = in(m, 4);
  int64_t st[MAX_DIMS], en[MAX_DIMS], ax[MAX_DIMS], sp[MAX_DIMS];
  int n = const_list(m, vs, st, MAX_DIMS, "starts");
  if (const_list(m, ve, en, MAX_DIMS, "ends") != n)
    FAIL("starts and ends differ in length");
  if (va) {
    if (!va->data)
      FAIL("axes must be constant");
    if (const_list(m, va, ax, MAX_DIMS, "axes") != n)
      FAIL("axes and starts differ in length");
  } else {
    for (int k = 0; k < n; k++)
      ax[k] = k;
  }
  if (vst) {
    if (!vst->data)
      FAIL("steps must be constant");
    if (const_list(m, vst, sp, MAX_DIMS, "steps") != n)
      FAIL("steps and starts differ in length");
  } else {
    for (int k = 0; k < n; k++)
      sp[k] = 1;
  }
  for (int d = 0; d < a->ndims; d++)
    s->start[d] = 0, s->step[d] = 1, s->count[d] = a->dims[d];
  bool seen[MAX_DIMS] = {false};
  for (int k = 0; k < n; k++) {
    int64_t d = resolve(m, ax[k], a->ndims, "axis");
    if (seen[d])
      FAIL("axis %lld given twice", (long long)d);
    seen[d] = true;
    int64_t dim = a->dims[d], step = sp[k], b = st[k], e = en[k];
    if (step == 0)
      FAIL("step 0");
    if (b < 0)
      b = b < -dim ? 0 : b + dim; /* saturating: b >= -2^63 */
    if (e < 0)
      e = e < -dim ? -1 : e + dim;
    if (step > 0) {
      b = b > dim ? dim : b;
      e = e > dim ? dim : e < 0 ? 0 : e;
      s->count[d] = e > b ? (e - b + step - 1) / step : 0;
    } else {
      b = b > dim - 1 ? dim - 1 : b;
      e = e > dim - 1 ? dim - 1 : e;
      if (b < 0)
        b = -1;
      s->count[d] = b > e ? (b - e + (-step) - 1) / (-step) : 0;
    }
    s->start[d] = b;
    s->step[d] = step;
  }
}

static void fold_slice(Imp *m) {
  Val *a = need_in(m, 0);
  SliceP s;
  slice_params(m, a, &s);
  Val *o = out_const(m, 0, a->dt, a->ndims, s.count);
  int64_t ast[MAX_DIMS];
  strides(a->dims, a->ndims, ast);
  int64_t ne = val_elems(o);
  for (int64_t k = 0; k < ne; k++) {
    int64_t r = k, src = 0;
    for (int d = a->ndims - 1; d >= 0; d--) {
      int64_t c = r % s.count[d];
      r /= s.count[d];
      src += (s.start[d] + c * s.step[d]) * ast[d];
    }
    copy_elem(o, k, a, src);
  }
  bind(m, m->n->outputs[0], o);
}

static void perm_of(Imp *m, int rank, int *perm) {
  int64_t p[MAX_DIMS];
  int n = attr_ints(m, "perm", p, MAX_DIMS);
  bool seen[MAX_DIMS] = {false};
  if (n < 0) {
    for (int d = 0; d < rank; d++)
      perm[d] = rank - 1 - d;
    return;
  }
  if (n != rank)
    FAIL("perm has %d entries for rank %d", n, rank);
  for (int d = 0; d < rank; d++) {
    if (p[d] < 0 || p[d] >= rank || seen[p[d]])
      FAIL("perm is not a permutation");
    seen[p[d]] = true;
    perm[d] = (int)p[d];
  }
}

static void fold_transpose(Imp *m) {
  Val *a = need_in(m, 0);
  int perm[MAX_DIMS];
  perm_of(m, a->ndims, perm);
  int64_t dims[MAX_DIMS], ast[MAX_DIMS];
  for (int d = 0; d < a->ndims; d++)
    dims[d] = a->dims[perm[d]];
  strides(a->dims, a->ndims, ast);
  Val *o = out_const(m, 0, a->dt, a->ndims, dims);
  for (int64_t k = 0; k < val_elems(o); k++) {
    int64_t r = k, src = 0;
    for (int d = a->ndims - 1; d >= 0; d--) {
      src += (r % dims[d]) * ast[perm[d]];
      r /= dims[d];
    }
    copy_elem(o, k, a, src);
  }
  bind(m, m->n->outputs[0], o);
}

static void fold_constant_of_shape(Imp *m) {
  Val *s = need_const(m, 0, "shape");
  int64_t dims[MAX_DIMS];
  int n = const_list(m, s, dims, MAX_DIMS, "the shape");
  const OAttr *a = attr(m, "value");
  Val *v = NULL;
  if (a) {
    if (!(a->has & 8))
      FAIL("value is not a tensor");
    v = onnx_tensor_val(m->x, a->t, "value");
    if (val_elems(v) != 1)
      FAIL("value must hold one element");
  }
  Val *o = out_const(m, 0, v ? v->dt : DT_FLOAT32, n, dims);
  for (int64_t k = 0; v && k < val_elems(o); k++)
    copy_elem(o, k, v, 0);
  bind(m, m->n->outputs[0], o);
}

static void fold_expand(Imp *m) {
  Val *a = need_in(m, 0), *s = need_const(m, 1, "shape");
  int64_t want[MAX_DIMS], dims[MAX_DIMS];
  int nw = const_list(m, s, want, MAX_DIMS, "the shape"), n;
  if (!bcast(a->dims, a->ndims, want, nw, dims, &n))
    FAIL("the shape does not broadcast");
  Val *o = out_const(m, 0, a->dt, n, dims);
  for (int64_t k = 0; k < val_elems(o); k++)
    copy_elem(o, k, a, bidx(a, dims, n, k));
  bind(m, m->n->outputs[0], o);
}

static void fold_range(Imp *m) {
  Val *a = need_in(m, 0), *b = need_in(m, 1), *c = need_in(m, 2);
  double s = cget_d(a, 0), l = cget_d(b, 0), d = cget_d(c, 0);
  if (d == 0)
    FAIL("delta 0");
  double cnt = ceil((l - s) / d);
  int64_t n = cnt > 0 ? (cnt > MAX_VAL_BYTES ? MAX_VAL_BYTES : (int64_t)cnt) : 0;
  Val *o = out_const(m, 0, a->dt, 1, &n);
  for (int64_t k = 0; k < n; k++)
    cset(o, k, s + (double)k * d, cget_i(a, 0) + k * cget_i(c, 0));
  bind(m, m->n->outputs[0], o);
}

/* Folds the node when it can; true when it did. */
static bool try_fold(Imp *m) {
  const char *op = m->n->op_type;
  if (!strcmp(op, "Constant")) {
    const OAttr *a = m->n->nattrs ? &m->n->attrs[0] : NULL;
    if (!a)
      FAIL("a Constant without a value");
    Val *v;
    if (a->has & 8) {
      v = onnx_tensor_val(m->x, a->t, m->n->outputs[0]);
    } else if (!strcmp(a->name, "value_float") || !strcmp(a->name, "value_floats")) {
      int64_t n = a->has & 32 ? a->nfloats : 1;
      v = new_const(m, m->n->outputs[0], DT_FLOAT32, a->has & 32 ? 1 : 0, &n);
      for (int64_t k = 0; k < n; k++)
        cset(v, k, a->has & 32 ? a->floats[k] : a->f, 0);
    } else if (!strcmp(a->name, "value_int") || !strcmp(a->name, "value_ints")) {
      int64_t n = a->has & 64 ? a->nints : 1;
      v = new_const(m, m->n->outputs[0], DT_INT64, a->has & 64 ? 1 : 0, &n);
      for (int64_t k = 0; k < n; k++)
        cset(v, k, 0, a->has & 64 ? a->ints[k] : a->i);
    } else {
      FAIL("Constant attribute %s is not supported", a->name);
    }
    v->name = m->n->outputs[0];
    bind(m, m->n->outputs[0], v);
    return true;
  }
  if (!strcmp(op, "Shape")) {
    fold_shape(m);
    return true;
  }
  if (!strcmp(op, "Size")) {
    Val *a = need_in(m, 0);
    int64_t n = val_elems(a);
    Val *o = out_const(m, 0, DT_INT64, 0, &n);
    cset(o, 0, 0, n);
    bind(m, m->n->outputs[0], o);
    return true;
  }
  for (int k = 0; k < m->n->ninputs; k++) {
    Val *v = in(m, k);
    if (v && !v->data)
      return false;
  }
  static const char *const elementwise[] = {
      "Add", "Sub", "Mul", "Div", "Pow", "Max", "Min", "Equal", "Less", "Greater",
      "LessOrEqual", "GreaterOrEqual", "And", "Or", "Not", "Neg", "Abs", "Sqrt",
      "Floor", "Ceil", "Reciprocal", "Relu", "Where"};
  for (size_t k = 0; k < sizeof elementwise / sizeof *elementwise; k++)
    if (!strcmp(op, elementwise[k])) {
      if (((!strcmp(op, "Max") || !strcmp(op, "Min")) && m->n->ninputs != 2))
        return false;
      fold_elementwise(m, op);
      return true;
    }
  int64_t dims[MAX_DIMS];
  if (!strcmp(op, "Identity") || (!strcmp(op, "Dropout") && m->n->noutputs == 1)) {
    Val *a = need_in(m, 0);
    fold_reshape_like(m, a->ndims, a->dims);
  } else if (!strcmp(op, "Cast") || !strcmp(op, "CastLike")) {
    if (onnx_small_type(need_in(m, 0)->dt) || onnx_small_type(cast_target(m)))
      return false; /* a CAST kernel converts these, as ONNX's reference does */
    fold_cast(m);
  } else if (!strcmp(op, "Reshape")) {
    fold_reshape_like(m, reshape_dims(m, need_in(m, 0), need_const(m, 1, "shape"), dims), dims);
  } else if (!strcmp(op, "Unsqueeze") || !strcmp(op, "Squeeze")) {
    fold_reshape_like(m, squeeze_dims(m, need_in(m, 0), dims, op[0] == 'U'), dims);
  } else if (!strcmp(op, "Flatten")) {
    fold_reshape_like(m, flatten_dims(m, need_in(m, 0), dims), dims);
  } else if (!strcmp(op, "Concat")) {
    fold_concat(m);
  } else if (!strcmp(op, "Gather")) {
    fold_gather(m);
  } else if (!strcmp(op, "Slice")) {
    fold_slice(m);
  } else if (!strcmp(op, "Transpose")) {
    fold_transpose(m);
  } else if (!strcmp(op, "ConstantOfShape")) {
    fold_constant_of_shape(m);
  } else if (!strcmp(op, "Expand")) {
    fold_expand(m);
  } else if (!strcmp(op, "Range")) {
    fold_range(m);
  } else {
    return false;
  }
  return true;
}

/* ------------------------------------------------- activations: helpers */

/* The node's output k as a new activation Val in layout; returns its IR
 * tensor. */
static int act_out(Imp *m, int k, DType dt, int ndims, const int64_t *dims, int layout,
                   Val **vo) {
  Val *v = new_val(m, m->n->outputs[k], dt, ndims, dims);
  int t = out_tensor(m, v, layout);
  bind(m, m->n->outputs[k], v);
  if (vo)
    *vo = v;
  return t;
}

/* Unsigned wide integers and float16/float64: only the element-wise
 * kernels of lower_wide_binary() take them; other ops refuse them when
 * lowered. */
static bool wide_dtype(DType dt) {
  return dt == DT_UINT16 || dt == DT_UINT32 || dt == DT_UINT64 || dt == DT_FLOAT16 ||
         dt == DT_FLOAT64;
}

static Val *act_in(Imp *m, int k) {
  Val *v = need_in(m, k);
  if (v->dt != DT_FLOAT32 && v->dt != DT_INT32 && v->dt != DT_INT8 && v->dt != DT_UINT8 &&
      v->dt != DT_INT16 && v->dt != DT_BOOL && v->dt != DT_INT64 && !wide_dtype(v->dt))
    FAIL("input %d ('%s') has type %s, which the kernels do not take", k, v->name,
         dtype_name(v->dt));
  return v;
}

static Val *act4(Imp *m, int k) {
  Val *v = act_in(m, k);
  if (v->ndims != 4)
    FAIL("input %d has rank %d; only 2-D images (rank 4, NCHW) are supported", k, v->ndims);
  return v;
}

static void need_f32(Imp *m, const Val *v) {
  if (v->dt != DT_FLOAT32)
    FAIL("'%s' is %s; this op is imported for float32 only", v->name, dtype_name(v->dt));
}

/* A float32 copy of a constant (any numeric type). */
static float *floats_of(Imp *m, const Val *v) {
  if (m->qdq && v->qsrc)
    v = v->qsrc; /* the integers of a QDQ-fused node's weights and bias */
  int64_t n = val_elems(v);
  float *f = arena_array((size_t)(n ? n : 1), sizeof(float));
  for (int64_t k = 0; k < n; k++)
    f[k] = (float)cget_d(v, k);
  return f;
}

static int f32_tensor(Imp *m, const char *name, int ndims, const int64_t *dims,
                      const float *data) {
  return const_tensor(m, name, DT_FLOAT32, ndims, dims, data);
}

/* Fusable: the op writes t with no activation yet, t is its only output,
 * and the ONNX value is read once (by the node being imported). */
static bool can_fuse(Imp *m, const Val *v, int t) {
  if (v->data || t < 0 || v->t[!pref(v)] >= 0 || T(m, t)->producer < 0 ||
      uses_of(m, v->name) != 1 || T(m, t)->is_output)
    return false;
  Op *p = OP(m, T(m, t)->producer);
  if (p->opt.activation != ACT_NONE || T(m, t)->dtype != DT_FLOAT32)
    return false;
  switch (p->kind) {
  case OP_CONV_2D: case OP_DEPTHWISE_CONV_2D: case OP_FULLY_CONNECTED: case OP_ADD:
  case OP_AVERAGE_POOL_2D: case OP_MAX_POOL_2D:
    return true;
  default:
    return false;
  }
}

/* Relu-like node: fuse into the producer, or emit kind. */
static void activation(Imp *m, OpKind kind, Activation act) {
  Val *x = act_in(m, 0);
  int l = pref(x);
  int t = ir(m, x, l);
  if (act != ACT_NONE && can_fuse(m, x, t)) {
    OP(m, T(m, t)->producer)->opt.activation = act;
    T(m, t)->name = m->n->outputs[0];
    Val *v = new_val(m, m->n->outputs[0], x->dt, x->ndims, x->dims);
    v->t[l] = t;
    bind(m, m->n->outputs[0], v);
    return;
  }
  int out = act_out(m, 0, x->dt, x->ndims, x->dims, l, NULL);
  add_op(m, kind, &t, 1, &out, 1);
}

/* A 4-D-capable layout for several inputs: NHWC when some 4-D activation
 * has it and every activation has rank `rank` == 4. */
static int common_layout(Imp *m, int rank, int first, int count) {
  if (rank != 4)
    return L_ONNX;
  bool nhwc = false;
  for (int k = first; k < first + count; k++) {
    Val *v = in(m, k);
    if (!v)
      continue;
    if (!v->data && v->ndims != 4)
      return L_ONNX;
    if (!v->data && v->t[L_NHWC] >= 0)
      nhwc = true;
  }
  return nhwc ? L_NHWC : L_ONNX;
}

/* Input v of an op in layout, as rank `rank` (constants get leading 1s). */
static int as_layout(Imp *m, Val *v, int layout, int rank) {
  if (layout == L_ONNX || v->ndims == 4)
    return ir(m, v, layout);
  if (!v->data)
    unreachable();
  int64_t dims[4];
  int pad = rank - v->ndims;
  for (int d = 0; d < 4; d++)
    dims[d] = d < pad ? 1 : v->dims[d - pad];
  Val *c = new_val(m, v->name, v->dt, 4, dims);
  c->data = v->data;
  return ir(m, c, L_NHWC);
}

/* ------------------------------------------------------ binary ops */

static int widen_i32(Imp *m, int t);

/* Add, Sub, Mul, Div of int8, uint8, int16 (whose kernels take quantized
 * values): in int32 and CAST back, which wraps around as ONNX's integer
 * arithmetic does (a - b as a + (-1) b; Div truncates toward zero). */
static void small_int_binary(Imp *m, OpKind kind, int ta, int tb, int out) {
  ta = widen_i32(m, ta), tb = widen_i32(m, tb);
  if (kind == OP_SUB) {
    int64_t one[MAX_DIMS], dims[MAX_DIMS];
    for (int d = 0; d < T(m, tb)->ndims; d++)
      one[d] = 1, dims[d] = T(m, tb)->dims[d];
    int32_t minus1 = -1;
    int ng = new_tensor(m, "", DT_INT32, T(m, tb)->ndims, dims);
    int nins[2] = {tb, const_tensor(m, "", DT_INT32, T(m, tb)->ndims, one, &minus1)};
    add_op(m, OP_MUL, nins, 2, &ng, 1);
    tb = ng, kind = OP_ADD;
  }
  int64_t dims[MAX_DIMS];
  for (int d = 0; d < T(m, out)->ndims; d++)
    dims[d] = T(m, out)->dims[d];
  int w = new_tensor(m, "", DT_INT32, T(m, out)->ndims, dims);
  int ins[2] = {ta, tb};
  add_op(m, kind, ins, 2, &w, 1);
  int o = add_op(m, OP_CAST, &w, 1, &out, 1);
  OP(m, o)->opt.fields = OPTF_CAST;
  OP(m, o)->opt.in_dtype = DT_INT32;
  OP(m, o)->opt.out_dtype = T(m, out)->dtype;
}

static void binary(Imp *m, OpKind kind) {
  Val *a = act_in(m, 0), *b = act_in(m, 1);
  int64_t dims[MAX_DIMS];
  int n;
  if (!bcast(a->dims, a->ndims, b->dims, b->ndims, dims, &n))
    FAIL("shapes of '%s' and '%s' do not broadcast", a->name, b->name);
  if (a->dt != b->dt)
    FAIL("inputs of types %s and %s", dtype_name(a->dt), dtype_name(b->dt));
  int l = common_layout(m, n, 0, 2);
  int ins[2] = {as_layout(m, a, l, n), as_layout(m, b, l, n)};
  int out = act_out(m, 0, a->dt, n, dims, l, NULL);
  if ((a->dt == DT_INT8 || a->dt == DT_UINT8 || a->dt == DT_INT16) &&
      (kind == OP_ADD || kind == OP_SUB || kind == OP_MUL || kind == OP_DIV)) {
    small_int_binary(m, kind, ins[0], ins[1], out);
    return;
  }
  add_op(m, kind, ins, 2, &out, 1);
}

static void general_pow(Imp *m, Val *a, Val *b);

/* Pow with a constant exponent: 1 (a copy), 2..4 (a chain of MUL),
 * 0.5 (SQRT), -1 (DIV); any other: general_pow. */
static void import_pow(Imp *m) {
  Val *a = act_in(m, 0), *b = need_in(m, 1);
  double e = b->data && val_elems(b) == 1 ? cget_d(b, 0) : NAN;
  int l = pref(a);
  int t = ir(m, a, l);
  if (e == 1.0) {
    bind(m, m->n->outputs[0], a);
    return;
  }
  if (e == 2.0 || e == 3.0 || e == 4.0) {
    /* x^2 = x x, x^3 = (x x) x, x^4 = (x x)(x x). */
    int64_t dims[MAX_DIMS];
    for (int d = 0; d < T(m, t)->ndims; d++)
      dims[d] = T(m, t)->dims[d];
    Val *v = new_val(m, m->n->outputs[0], a->dt, a->ndims, a->dims);
    int sq = e == 2.0 ? out_tensor(m, v, l) : new_tensor(m, "", a->dt, T(m, t)->ndims, dims);
    int ins[2] = {t, t};
    add_op(m, OP_MUL, ins, 2, &sq, 1);
    if (e != 2.0) {
      int ins2[2] = {sq, e == 3.0 ? t : sq};
      int out = out_tensor(m, v, l);
      add_op(m, OP_MUL, ins2, 2, &out, 1);
    }
    bind(m, m->n->outputs[0], v);
    return;
  }
  if (e == 0.5) {
    int out = act_out(m, 0, a->dt, a->ndims, a->dims, l, NULL);
    add_op(m, OP_SQRT, &t, 1, &out, 1);
    return;
  }
  if (e == -1.0 && a->dt == DT_FLOAT32) {
    int out = act_out(m, 0, a->dt, a->ndims, a->dims, l, NULL);
    int64_t one[MAX_DIMS];
    for (int d = 0; d < T(m, t)->ndims; d++)
      one[d] = 1;
    float f = 1.0f;
    int ins[2] = {f32_tensor(m, "", T(m, t)->ndims, one, &f), t};
    add_op(m, OP_DIV, ins, 2, &out, 1);
    return;
  }
  general_pow(m, a, b);
}

/* The constant v as a new constant of type dt (values checked by the
 * caller). */
static Val *retyped(Imp *m, const Val *v, DType dt) {
  Val *c = new_const(m, v->name, dt, v->ndims, v->dims);
  for (int64_t k = 0; k < val_elems(v); k++)
    cset(c, k, cget_d(v, k), cget_i(v, k));
  return c;
}

/* Pow of any other exponent: POW (numpy broadcasting).  A float32 base
 * takes a float32 exponent, or a constant one of any type (converted on
 * the host); an int32 (int64) base an exponent of its type, or a constant
 * one whose values are whole numbers >= 0 of any type (integer POW
 * multiplies, as ONNX's integer Pow). */
static void general_pow(Imp *m, Val *a, Val *b) {
  if (a->dt == DT_FLOAT32 && b->dt != DT_FLOAT32) {
    if (!b->data)
      FAIL("a float32 Pow with a %s exponent needs the exponent constant", dtype_name(b->dt));
    b = retyped(m, b, DT_FLOAT32);
  } else if ((a->dt == DT_INT32 || a->dt == DT_INT64) && (b->data || b->dt != a->dt)) {
    if (!b->data)
      FAIL("an %s Pow with a %s exponent needs the exponent constant", dtype_name(a->dt),
           dtype_name(b->dt));
    for (int64_t k = 0; k < val_elems(b); k++) {
      double e = cget_d(b, k);
      if (!(e >= 0 && e <= INT32_MAX && e == floor(e)))
        FAIL("an integer Pow needs whole exponents >= 0 (element %lld is %g)", (long long)k, e);
    }
    b = retyped(m, b, a->dt);
  } else if (a->dt != DT_FLOAT32 && a->dt != DT_INT32 && a->dt != DT_INT64) {
    FAIL("Pow of %s is not supported (float32, int32 and int64 only)", dtype_name(a->dt));
  }
  int64_t dims[MAX_DIMS];
  int n;
  if (!bcast(a->dims, a->ndims, b->dims, b->ndims, dims, &n))
    FAIL("shapes of '%s' and '%s' do not broadcast", a->name, b->name);
  int l = common_layout(m, n, 0, 2);
  int ins[2] = {as_layout(m, a, l, n), as_layout(m, b, l, n)};
  int out = act_out(m, 0, a->dt, n, dims, l, NULL);
  add_op(m, OP_POW, ins, 2, &out, 1);
}

static void import_reciprocal(Imp *m) {
  Val *a = act_in(m, 0);
  need_f32(m, a);
  int l = pref(a);
  int rank = a->ndims;
  int64_t one[MAX_DIMS];
  for (int d = 0; d < rank; d++)
    one[d] = 1;
  float f = 1.0f;
  int c = f32_tensor(m, "", l == L_NHWC ? 4 : rank, one, &f);
  int ins[2] = {c, ir(m, a, l)};
  int out = act_out(m, 0, a->dt, a->ndims, a->dims, l, NULL);
  add_op(m, OP_DIV, ins, 2, &out, 1);
}

/* x (IR tensor t, rank of the Val) op a scalar constant. */
static int scalar_op(Imp *m, OpKind kind, int t, float s, const char *name) {
  int64_t one[MAX_DIMS];
  for (int d = 0; d < T(m, t)->ndims; d++)
    one[d] = 1;
  int ins[2] = {t, f32_tensor(m, "", T(m, t)->ndims, one, &s)};
  int64_t dims[MAX_DIMS];
  for (int d = 0; d < T(m, t)->ndims; d++)
    dims[d] = T(m, t)->dims[d];
  int out = new_tensor(m, name, DT_FLOAT32, T(m, t)->ndims, dims);
  add_op(m, kind, ins, 2, &out, 1);
  return out;
}

/* Max, Min, Sum, Mean of any number of inputs: a chain of binary ops
 * (Mean then scales by 1/n). */
static void variadic(Imp *m, OpKind kind, bool mean) {
  int n = m->n->ninputs;
  if (n < 1)
    FAIL("no inputs");
  Val *acc = act_in(m, 0);
  if (n == 1 && !mean) {
    bind(m, m->n->outputs[0], acc);
    return;
  }
  for (int k = 1; k < n; k++) {
    Val *b = act_in(m, k);
    if (b->dt != acc->dt)
      FAIL("inputs of types %s and %s", dtype_name(acc->dt), dtype_name(b->dt));
    int64_t dims[MAX_DIMS];
    int nd;
    if (!bcast(acc->dims, acc->ndims, b->dims, b->ndims, dims, &nd))
      FAIL("shapes of '%s' and '%s' do not broadcast", acc->name, b->name);
    Val *vals[2] = {acc, b};
    int l = L_ONNX;
    if (nd == 4) {
      bool nhwc = false, ok = true;
      for (int i = 0; i < 2; i++) {
        if (!vals[i]->data && vals[i]->ndims != 4)
          ok = false;
        if (!vals[i]->data && vals[i]->t[L_NHWC] >= 0)
          nhwc = true;
      }
      l = ok && nhwc ? L_NHWC : L_ONNX;
    }
    int ins[2] = {as_layout(m, acc, l, nd), as_layout(m, b, l, nd)};
    bool last = k == n - 1 && !mean;
    Val *o = new_val(m, last ? m->n->outputs[0] : "", acc->dt, nd, dims);
    int out = out_tensor(m, o, l);
    add_op(m, kind, ins, 2, &out, 1);
    acc = o;
  }
  if (mean) {
    need_f32(m, acc);
    int l = pref(acc);
    int t = scalar_op(m, OP_MUL, ir(m, acc, l), 1.0f / (float)n, m->n->outputs[0]);
    acc = new_val(m, m->n->outputs[0], acc->dt, acc->ndims, acc->dims);
    acc->t[l] = t;
  }
  bind(m, m->n->outputs[0], acc);
}

/* Clip of int8, uint8, int16, int32: MAXIMUM then MINIMUM with constants
 * of the input's type (min > max gives max, as ONNX's). */
static void import_clip_int(Imp *m, Val *x) {
  if (x->dt != DT_INT8 && x->dt != DT_UINT8 && x->dt != DT_INT16 && x->dt != DT_INT32)
    FAIL("'%s' is %s; Clip is imported for float32, int8, uint8, int16 and int32",
         x->name, dtype_name(x->dt));
  Val *bound[2] = {in(m, 1), in(m, 2)};
  int l = pref(x);
  int t = ir(m, x, l);
  int last = bound[1] ? 1 : bound[0] ? 0 : -1;
  if (last < 0) {
    bind(m, m->n->outputs[0], x);
    return;
  }
  for (int k = 0; k < 2; k++) {
    Val *b = bound[k];
    if (!b)
      continue;
    if (!b->data || val_elems(b) != 1 || b->dt != x->dt)
      FAIL("min and max must be constant scalars of the input's type");
    int64_t one[MAX_DIMS], dims[MAX_DIMS];
    for (int d = 0; d < T(m, t)->ndims; d++)
      one[d] = 1, dims[d] = T(m, t)->dims[d];
    int out = new_tensor(m, k == last ? m->n->outputs[0] : "", x->dt, T(m, t)->ndims, dims);
    int ins[2] = {t, const_tensor(m, "", x->dt, T(m, t)->ndims, one, b->data)};
    add_op(m, k == 0 ? OP_MAXIMUM : OP_MINIMUM, ins, 2, &out, 1);
    t = out;
  }
  Val *v = new_val(m, m->n->outputs[0], x->dt, x->ndims, x->dims);
  v->t[l] = t;
  bind(m, m->n->outputs[0], v);
}

static void import_clip(Imp *m) {
  Val *x = act_in(m, 0);
  if (x->dt != DT_FLOAT32 && m->x->opset >= 11) {
    import_clip_int(m, x);
    return;
  }
  need_f32(m, x);
  float lo = -FLT_MAX, hi = FLT_MAX;
  if (m->x->opset < 11) {
    lo = attr_f(m, "min", -FLT_MAX);
    hi = attr_f(m, "max", FLT_MAX);
  } else {
    Val *a = in(m, 1), *b = in(m, 2);
    if ((a && !a->data) || (b && !b->data))
      FAIL("min and max must be constants");
    if (a)
      lo = (float)cget_d(a, 0);
    if (b)
      hi = (float)cget_d(b, 0);
  }
  if (lo == 0.0f && hi == 6.0f)
    return activation(m, OP_RELU6, ACT_RELU6);
  if (lo == 0.0f && hi == FLT_MAX)
    return activation(m, OP_RELU, ACT_RELU);
  if (lo == -1.0f && hi == 1.0f)
    return activation(m, OP_RELU_N1_TO_1, ACT_RELU_N1_TO_1);
  int l = pref(x);
  int t = ir(m, x, l);
  if (lo != -FLT_MAX)
    t = scalar_op(m, OP_MAXIMUM, t, lo, hi != FLT_MAX ? "" : m->n->outputs[0]);
  Val *v = new_val(m, m->n->outputs[0], x->dt, x->ndims, x->dims);
  if (hi != FLT_MAX)
    t = scalar_op(m, OP_MINIMUM, t, hi, m->n->outputs[0]);
  if (lo == -FLT_MAX && hi == FLT_MAX)
    t = scalar_op(m, OP_MAXIMUM, t, -FLT_MAX, m->n->outputs[0]);
  v->t[l] = t;
  bind(m, m->n->outputs[0], v);
}

/* HardSigmoid: max(0, min(1, alpha x + beta)) = relu6(6 alpha x + 6 beta) / 6. */
static void import_hard_sigmoid(Imp *m) {
  Val *x = act_in(m, 0);
  need_f32(m, x);
  float alpha = attr_f(m, "alpha", 0.2f), beta = attr_f(m, "beta", 0.5f);
  int l = pref(x);
  int t = scalar_op(m, OP_MUL, ir(m, x, l), 6.0f * alpha, "");
  t = scalar_op(m, OP_ADD, t, 6.0f * beta, "");
  OP(m, T(m, t)->producer)->opt.activation = ACT_RELU6;
  t = scalar_op(m, OP_MUL, t, 1.0f / 6.0f, m->n->outputs[0]);
  Val *v = new_val(m, m->n->outputs[0], x->dt, x->ndims, x->dims);
  v->t[l] = t;
  bind(m, m->n->outputs[0], v);
}

static void import_leaky_relu(Imp *m) {
  Val *x = act_in(m, 0);
  int l = pref(x);
  int t = ir(m, x, l);
  int out = act_out(m, 0, x->dt, x->ndims, x->dims, l, NULL);
  int o = add_op(m, OP_LEAKY_RELU, &t, 1, &out, 1);
  OP(m, o)->opt.fields = OPTF_ALPHA;
  OP(m, o)->opt.alpha = attr_f(m, "alpha", 0.01f);
}

/* ------------------------------------------------------ convolutions */

typedef struct {
  Padding pad;
  int64_t before[2], after[2]; /* explicit padding to apply first (PAD) */
  bool explicit_pad;
  int64_t out[2];
} PadPlan;

/* Spatial padding: TFLite SAME/VALID when they give ONNX's windows, else
 * explicit pads (before, after) with VALID.  k: kernel sizes, dil: their
 * dilations.  pads_ignored_ok: SAME's treatment of padded cells matches
 * the op's (false only for an average pool with count_include_pad). */
static void plan_padding(Imp *m, const int64_t *in, const int64_t *k, const int64_t *s,
                         const int64_t *dil, bool ceil_mode, bool pads_ignored_ok,
                         PadPlan *pp) {
  int64_t pads[4] = {0, 0, 0, 0};
  int np = attr_ints(m, "pads", pads, 4);
  if (np >= 0 && np != 4)
    FAIL("pads has %d entries, expected 4", np);
  const char *ap = attr_s(m, "auto_pad", "NOTSET");
  memset(pp, 0, sizeof *pp);
  for (int a = 0; a < 2; a++) {
    int64_t eff = (k[a] - 1) * dil[a] + 1;
    if (!strcmp(ap, "SAME_UPPER") || !strcmp(ap, "SAME_LOWER")) {
      int64_t o = (in[a] + s[a] - 1) / s[a];
      int64_t tot = (o - 1) * s[a] + eff - in[a];
      tot = tot < 0 ? 0 : tot;
      pads[a] = !strcmp(ap, "SAME_UPPER") ? tot / 2 : tot - tot / 2;
      pads[a + 2] = tot - pads[a];
    } else if (!strcmp(ap, "VALID")) {
      pads[a] = pads[a + 2] = 0;
    } else if (strcmp(ap, "NOTSET")) {
      FAIL("auto_pad %s is not supported", ap);
    }
    if (pads[a] < 0 || pads[a + 2] < 0)
      FAIL("negative pads");
    int64_t span = in[a] + pads[a] + pads[a + 2] - eff;
    if (span < 0)
      FAIL("the kernel is larger than the padded input");
    int64_t o = ceil_mode ? (span + s[a] - 1) / s[a] + 1 : span / s[a] + 1;
    /* ceil_mode: the last window must start inside the input or the
     * leading padding. */
    if (ceil_mode && (o - 1) * s[a] >= in[a] + pads[a])
      o--;
    pp->out[a] = o;
  }
  bool zero = !pads[0] && !pads[1] && !pads[2] && !pads[3];
  bool valid = zero, same = true;
  for (int a = 0; a < 2; a++) {
    int64_t eff = (k[a] - 1) * dil[a] + 1;
    if ((in[a] - eff) / s[a] + 1 != pp->out[a] || in[a] < eff)
      valid = false;
    int32_t o, before;
    compute_padding(PAD_SAME, (int32_t)in[a], (int32_t)eff, (int32_t)s[a], 1, &o, &before);
    /* The kernels take the dilated extent through the dilation option:
     * compute SAME's padding from the effective size, as TFLite does. */
    if (o != pp->out[a] || before != pads[a])
      same = false;
    /* The same windows, then: cells outside the input are zeros in a
     * convolution either way, and ignored by max pools and by average
     * pools without count_include_pad, as by TFLite's SAME.  An average
     * pool that counts padded cells cannot use SAME (it divides by the
     * cells inside the input) unless SAME pads nothing. */
    int64_t total = (o - 1) * s[a] + eff - in[a];
    if (!pads_ignored_ok && total > 0)
      same = false;
  }
  if (valid) {
    pp->pad = PAD_VALID;
  } else if (same) {
    pp->pad = PAD_SAME;
  } else {
    pp->pad = PAD_VALID;
    pp->explicit_pad = true;
    for (int a = 0; a < 2; a++) {
      int64_t eff = (k[a] - 1) * dil[a] + 1;
      pp->before[a] = pads[a];
      int64_t need = (pp->out[a] - 1) * s[a] + eff - in[a] - pads[a];
      pp->after[a] = need < 0 ? 0 : need;
      if ((in[a] + pp->before[a] + pp->after[a] - eff) / s[a] + 1 != pp->out[a])
        FAIL("these pads cannot be expressed (axis %d)", a);
    }
  }
}

/* PAD (value 0) or PADV2 (value) of an NHWC tensor's H and W. */
static int pad_nhwc(Imp *m, int t, const PadPlan *pp, bool has_value, float value) {
  Tensor *x = T(m, t);
  int32_t p[8] = {0, 0, (int32_t)pp->before[0], (int32_t)pp->after[0],
                  (int32_t)pp->before[1], (int32_t)pp->after[1], 0, 0};
  int64_t pd[2] = {4, 2};
  int ins[3] = {t, const_tensor(m, "", DT_INT32, 2, pd, p), -1};
  int64_t dims[4] = {x->dims[0], x->dims[1] + p[2] + p[3], x->dims[2] + p[4] + p[5],
                     x->dims[3]};
  if (has_value)
    ins[2] = f32_tensor(m, "", 1, (int64_t[]){1}, &value);
  int out = new_tensor(m, arena_printf("%s:pad", x->name), x->dtype, 4, dims);
  add_op(m, has_value ? OP_PADV2 : OP_PAD, ins, has_value ? 3 : 2, &out, 1);
  return out;
}

static void spatial_attrs(Imp *m, const char *name, int64_t *v, int64_t def) {
  v[0] = v[1] = def;
  int n = attr_ints(m, name, v, 2);
  if (n >= 0 && n != 2)
    FAIL("%s has %d entries, expected 2", name, n);
  if (v[0] < 1 || v[1] < 1 || v[0] > INT32_MAX || v[1] > INT32_MAX)
    FAIL("%s must be positive", name);
}

/* ------------------------------- N-D windows and grouped convolution */

/* What TFLite's 2-D NHWC window kernels cannot express - 1-D and 3-D
 * pools and transposed convolutions, dilated pools, pads that SAME
 * cannot give, MaxPool's Indices, grouped or dilated ConvTranspose -
 * becomes MAX_POOL_ND, AVERAGE_POOL_ND or CONV_TRANSPOSE_ND in the ONNX
 * layout, with a window table [5][axes] (kernel, stride, dilation, pads
 * before, pads after; passes/lower_nd.c).  A grouped Conv (neither plain
 * nor depthwise) is split by channels into one CONV_2D per group and
 * concatenated back, which gives the same sums as one grouped kernel. */

typedef struct {
  int nsp;
  int64_t k[3], s[3], d[3], pb[3], pe[3], out[3];
} NdWin;

/* An attribute of nsp positive entries (def when absent). */
static void nd_list(Imp *m, const char *name, int64_t *v, int nsp, int64_t def) {
  for (int a = 0; a < nsp; a++)
    v[a] = def;
  int n = attr_ints(m, name, v, 3);
  if (n >= 0 && n != nsp)
    FAIL("%s has %d entries, expected %d", name, n, nsp);
  for (int a = 0; a < nsp; a++)
    if (v[a] < 1 || v[a] > INT32_MAX / 4)
      FAIL("%s must be positive", name);
}

static int nd_spatial(Imp *m, const Val *x) {
  if (x->ndims < 3 || x->ndims > 5)
    FAIL("input 0 has rank %d; 1 to 3 spatial axes (rank 3 to 5) are supported", x->ndims);
  return x->ndims - 2;
}

/* The window table as a constant int32 tensor [5][nsp]. */
static int nd_table(Imp *m, const NdWin *w) {
  int32_t v[15];
  for (int a = 0; a < w->nsp; a++) {
    const int64_t row[5] = {w->k[a], w->s[a], w->d[a], w->pb[a], w->pe[a]};
    for (int r = 0; r < 5; r++) {
      if (row[r] < -INT32_MAX / 4 || row[r] > INT32_MAX / 4)
        FAIL("window out of range");
      v[r * w->nsp + a] = (int32_t)row[r];
    }
  }
  int64_t d[2] = {5, w->nsp};
  return const_tensor(m, "", DT_INT32, 2, d, v);
}

/* A pool's pads and output extents (ONNX's formulas: auto_pad SAME_UPPER
 * puts the odd cell after, SAME_LOWER before; ceil_mode drops a last
 * window that would start in the trailing padding). */
static void nd_pool_window(Imp *m, const Val *x, NdWin *w) {
  int nsp = w->nsp;
  int64_t pads[6] = {0, 0, 0, 0, 0, 0};
  int np = attr_ints(m, "pads", pads, 6);
  if (np >= 0 && np != 2 * nsp)
    FAIL("pads has %d entries, expected %d", np, 2 * nsp);
  const char *ap = attr_s(m, "auto_pad", "NOTSET");
  bool ceil_mode = attr_i(m, "ceil_mode", 0) != 0;
  for (int a = 0; a < nsp; a++) {
    int64_t in = x->dims[2 + a], eff = (w->k[a] - 1) * w->d[a] + 1;
    w->pb[a] = pads[a], w->pe[a] = pads[a + nsp];
    if (!strcmp(ap, "SAME_UPPER") || !strcmp(ap, "SAME_LOWER")) {
      int64_t o = (in + w->s[a] - 1) / w->s[a];
      int64_t tot = (o - 1) * w->s[a] + eff - in;
      tot = tot < 0 ? 0 : tot;
      w->pb[a] = !strcmp(ap, "SAME_UPPER") ? tot / 2 : tot - tot / 2;
      w->pe[a] = tot - w->pb[a];
    } else if (!strcmp(ap, "VALID")) {
      w->pb[a] = w->pe[a] = 0;
    } else if (strcmp(ap, "NOTSET")) {
      FAIL("auto_pad %s is not supported", ap);
    }
    if (w->pb[a] < 0 || w->pe[a] < 0 || w->pb[a] > INT32_MAX / 4 || w->pe[a] > INT32_MAX / 4)
      FAIL("pads out of range");
    int64_t span = in + w->pb[a] + w->pe[a] - eff;
    if (span < 0)
      FAIL("the kernel is larger than the padded input (axis %d)", a);
    int64_t o = ceil_mode ? (span + w->s[a] - 1) / w->s[a] + 1 : span / w->s[a] + 1;
    if (ceil_mode && (o - 1) * w->s[a] >= in + w->pb[a])
      o--;
    w->out[a] = o;
  }
}

static void set_attr_int(Imp *m, int o, const char *key, int64_t v) {
  Attr *e = arena_array(1, sizeof(Attr));
  e->key = key;
  e->kind = ATTR_INT;
  e->i = v;
  e->f = (double)v;
  OP(m, o)->attrs = e;
  OP(m, o)->nattrs = 1;
}

/* MaxPool / AveragePool as MAX_POOL_ND / AVERAGE_POOL_ND. */
static void import_pool_nd(Imp *m, bool max) {
  Val *x = act_in(m, 0);
  need_f32(m, x);
  NdWin w;
  w.nsp = nd_spatial(m, x);
  if (attr_ints(m, "kernel_shape", w.k, 3) != w.nsp)
    FAIL("kernel_shape must have %d entries", w.nsp);
  for (int a = 0; a < w.nsp; a++)
    if (w.k[a] < 1 || w.k[a] > INT32_MAX / 4)
      FAIL("kernel_shape must be positive");
  nd_list(m, "strides", w.s, w.nsp, 1);
  nd_list(m, "dilations", w.d, w.nsp, 1);
  nd_pool_window(m, x, &w);
  int64_t od[5] = {x->dims[0], x->dims[1], w.out[0], w.out[1], w.out[2]};
  int ins[2] = {ir(m, x, L_ONNX), nd_table(m, &w)};
  int outs[2] = {act_out(m, 0, DT_FLOAT32, x->ndims, od, L_ONNX, NULL), -1};
  bool indices = max && m->n->noutputs > 1 && m->n->outputs[1][0];
  if (indices)
    outs[1] = act_out(m, 1, DT_INT64, x->ndims, od, L_ONNX, NULL);
  int o = add_op(m, max ? OP_MAX_POOL_ND : OP_AVERAGE_POOL_ND, ins, 2, outs, indices ? 2 : 1);
  if (max) {
    int64_t so = attr_i(m, "storage_order", 0);
    if (so != 0 && so != 1)
      FAIL("storage_order must be 0 or 1");
    set_attr_int(m, o, "column_major", so);
  } else {
    set_attr_int(m, o, "count_include_pad", attr_i(m, "count_include_pad", 0) != 0);
  }
}

static int64_t floor_half(int64_t v) { return v >= 0 ? v / 2 : -((-v + 1) / 2); }

/* ConvTranspose as CONV_TRANSPOSE_ND: the full result is
 * stride * (in - 1) + output_padding + (k - 1) * dilation + 1 long; pads
 * cut it, or output_shape (and auto_pad SAME_*: in * stride) picks a
 * window of it, the odd cell cut before unless SAME_UPPER (ONNX's
 * formula, halves rounded down as its reference does, so that a
 * negative total padding extends the result at the end). */
static void import_conv_transpose_nd(Imp *m) {
  Val *x = act_in(m, 0), *w = need_const(m, 1, "weights"), *b = in(m, 2);
  need_f32(m, x);
  NdWin win;
  int nsp = win.nsp = nd_spatial(m, x);
  int64_t group = attr_i(m, "group", 1), cin = x->dims[1];
  if (group < 1 || cin % group)
    FAIL("group %lld does not divide %lld input channels", (long long)group, (long long)cin);
  if (w->ndims != x->ndims || w->dims[0] != cin)
    FAIL("the weights must be [C_in, C_out / group, kernel...]");
  int64_t cout = w->dims[1] * group;
  if (b && (!b->data || val_elems(b) != cout))
    FAIL("the bias must be a constant of %lld values", (long long)cout);
  int64_t ks[3], op[3] = {0, 0, 0}, os[5], pads[6] = {0, 0, 0, 0, 0, 0};
  int nk = attr_ints(m, "kernel_shape", ks, 3);
  for (int a = 0; a < nsp; a++) {
    win.k[a] = w->dims[2 + a];
    if (nk >= 0 && (nk != nsp || ks[a] != win.k[a]))
      FAIL("kernel_shape disagrees with the weights");
  }
  nd_list(m, "strides", win.s, nsp, 1);
  nd_list(m, "dilations", win.d, nsp, 1);
  int nop = attr_ints(m, "output_padding", op, 3);
  if (nop >= 0 && nop != nsp)
    FAIL("output_padding has %d entries, expected %d", nop, nsp);
  int np = attr_ints(m, "pads", pads, 6);
  if (np >= 0 && np != 2 * nsp)
    FAIL("pads has %d entries, expected %d", np, 2 * nsp);
  int nos = attr_ints(m, "output_shape", os, 5);
  if (nos == nsp + 2)
    memmove(os, os + 2, (size_t)nsp * sizeof *os);
  else if (nos >= 0 && nos != nsp)
    FAIL("output_shape has %d entries, expected %d", nos, nsp);
  const char *ap = attr_s(m, "auto_pad", "NOTSET");
  bool same = !strcmp(ap, "SAME_UPPER") || !strcmp(ap, "SAME_LOWER");
  if (!same && strcmp(ap, "NOTSET") && strcmp(ap, "VALID"))
    FAIL("auto_pad %s is not supported", ap);
  for (int a = 0; a < nsp; a++) {
    int64_t in = x->dims[2 + a];
    if (op[a] < 0 || (op[a] >= win.s[a] && op[a] >= win.d[a]))
      FAIL("output_padding must be below the stride or the dilation");
    int64_t full = win.s[a] * (in - 1) + op[a] + (win.k[a] - 1) * win.d[a] + 1;
    if (nos >= 0 || same) {
      int64_t o = nos >= 0 ? os[a] : in * win.s[a];
      int64_t tot = full - o;
      win.pe[a] = !strcmp(ap, "SAME_UPPER") ? tot - floor_half(tot) : floor_half(tot);
      win.pb[a] = tot - win.pe[a];
    } else if (!strcmp(ap, "VALID")) {
      win.pb[a] = win.pe[a] = 0;
    } else {
      win.pb[a] = pads[a], win.pe[a] = pads[a + nsp];
      if (win.pb[a] < 0 || win.pe[a] < 0)
        FAIL("negative pads");
    }
    win.out[a] = full - win.pb[a] - win.pe[a];
    if (win.out[a] < 1 || win.out[a] > INT32_MAX / 4)
      FAIL("the output extent %lld (axis %d) is out of range", (long long)win.out[a], a);
  }
  float *bias = b ? floats_of(m, b) : NULL;
  int ins[4] = {ir(m, x, L_ONNX),
                f32_tensor(m, arena_printf("%s:filter", m->n->outputs[0]), w->ndims, w->dims,
                           floats_of(m, w)),
                bias ? f32_tensor(m, arena_printf("%s:bias", m->n->outputs[0]), 1, &cout, bias)
                     : -1,
                nd_table(m, &win)};
  int64_t od[5] = {x->dims[0], cout, win.out[0], win.out[1], win.out[2]};
  int t = act_out(m, 0, DT_FLOAT32, x->ndims, od, L_ONNX, NULL);
  int o = add_op(m, OP_CONV_TRANSPOSE_ND, ins, 4, &t, 1);
  set_attr_int(m, o, "group", group);
}

/* A grouped Conv of NHWC t (already padded): SPLIT_V of the channels,
 * CONV_2D per group with filters [cout / group, kh, kw, cin / group]
 * cut from the OIHW weights wf, CONCATENATION of the results into out. */
static void grouped_conv(Imp *m, int t, const float *wf, const float *bias, int64_t group,
                         int64_t cin, int64_t cout, int64_t kh, int64_t kw, const int64_t *s,
                         const int64_t *d, Padding pad, int out) {
  int64_t gi = cin / group, go = cout / group;
  int32_t *sz = arena_array((size_t)group, sizeof(int32_t));
  int32_t ax = 3;
  for (int64_t g = 0; g < group; g++)
    sz[g] = (int32_t)gi;
  int *parts = arena_array((size_t)group, sizeof(int));
  int *outs = arena_array((size_t)group, sizeof(int));
  Tensor *x = T(m, t), *y = T(m, out);
  for (int64_t g = 0; g < group; g++) {
    int64_t pd[4] = {x->dims[0], x->dims[1], x->dims[2], gi};
    int64_t yd[4] = {y->dims[0], y->dims[1], y->dims[2], go};
    parts[g] = new_tensor(m, arena_printf("%s:group%lld", x->name, (long long)g), DT_FLOAT32,
                          4, pd);
    outs[g] = new_tensor(m, arena_printf("%s:group%lld", y->name, (long long)g), DT_FLOAT32,
                         4, yd);
  }
  int sins[3] = {t, const_i32(m, sz, (int)group), const_i32(m, &ax, 1)};
  int so = add_op(m, OP_SPLIT_V, sins, 3, parts, (int)group);
  OP(m, so)->opt.fields = OPTF_NUM;
  OP(m, so)->opt.num = (int)group;
  for (int64_t g = 0; g < group; g++) {
    float *filt = arena_array((size_t)(go * kh * kw * gi), sizeof(float));
    for (int64_t o = 0; o < go; o++)
      for (int64_t c = 0; c < gi; c++)
        for (int64_t yy = 0; yy < kh; yy++)
          for (int64_t xx = 0; xx < kw; xx++)
            filt[((o * kh + yy) * kw + xx) * gi + c] =
                wf[(((g * go + o) * gi + c) * kh + yy) * kw + xx];
    int64_t fd[4] = {go, kh, kw, gi};
    int ins[3] = {parts[g],
                  f32_tensor(m, arena_printf("%s:filter%lld", m->n->outputs[0], (long long)g),
                             4, fd, filt),
                  f32_tensor(m, arena_printf("%s:bias%lld", m->n->outputs[0], (long long)g), 1,
                             &go, bias + g * go)};
    int o = add_op(m, OP_CONV_2D, ins, 3, &outs[g], 1);
    Options *opt = &OP(m, o)->opt;
    opt->fields = OPTF_PADDING | OPTF_STRIDE | OPTF_ACTIVATION | OPTF_DILATION;
    opt->padding = pad;
    opt->stride_h = (int)s[0], opt->stride_w = (int)s[1];
    opt->dilation_h = (int)d[0], opt->dilation_w = (int)d[1];
  }
  int co = add_op(m, OP_CONCATENATION, outs, (int)group, &out, 1);
  OP(m, co)->opt.fields = OPTF_AXIS | OPTF_ACTIVATION;
  OP(m, co)->opt.axis = 3;
}

static void import_conv(Imp *m) {
  Val *x = act4(m, 0), *w = need_const(m, 1, "weights"), *b = in(m, 2);
  need_f32(m, x);
  if (w->ndims != 4)
    FAIL("the weights have rank %d, expected 4", w->ndims);
  if (b && (!b->data || val_elems(b) != w->dims[0]))
    FAIL("the bias must be a constant of %lld values", (long long)w->dims[0]);
  int64_t group = attr_i(m, "group", 1);
  int64_t cin = x->dims[1], cout = w->dims[0], kh = w->dims[2], kw = w->dims[3];
  bool depthwise = group > 1 && group == cin && w->dims[1] == 1 && cout % cin == 0;
  bool grouped = !depthwise && group > 1 && cin % group == 0 && w->dims[1] == cin / group &&
                 cout % group == 0;
  if (!depthwise && !grouped && (group != 1 || w->dims[1] != cin))
    FAIL("grouped convolution (group %lld, %lld input channels) is not supported", (long long)group,
         (long long)cin);
  int64_t k[2] = {kh, kw}, s[2], d[2];
  int64_t ks[2];
  if (attr_ints(m, "kernel_shape", ks, 2) == 2 && (ks[0] != kh || ks[1] != kw))
    FAIL("kernel_shape disagrees with the weights");
  spatial_attrs(m, "strides", s, 1);
  spatial_attrs(m, "dilations", d, 1);
  PadPlan pp;
  plan_padding(m, x->dims + 2, k, s, d, false, true, &pp);

  const float *wf = floats_of(m, w);
  float *filt = arena_array((size_t)(cout * kh * kw * (depthwise ? 1 : cin)), sizeof(float));
  int64_t fdims[4];
  if (depthwise) {
    fdims[0] = 1, fdims[1] = kh, fdims[2] = kw, fdims[3] = cout;
    for (int64_t o = 0; o < cout; o++)
      for (int64_t y = 0; y < kh; y++)
        for (int64_t xx = 0; xx < kw; xx++)
          filt[(y * kw + xx) * cout + o] = wf[(o * kh + y) * kw + xx];
  } else {
    fdims[0] = cout, fdims[1] = kh, fdims[2] = kw, fdims[3] = cin;
    for (int64_t o = 0; o < cout; o++)
      for (int64_t c = 0; c < cin; c++)
        for (int64_t y = 0; y < kh; y++)
          for (int64_t xx = 0; xx < kw; xx++)
            filt[((o * kh + y) * kw + xx) * cin + c] = wf[((o * cin + c) * kh + y) * kw + xx];
  }
  float *bias = b ? floats_of(m, b) : arena_array((size_t)cout, sizeof(float));
  int t = ir(m, x, L_NHWC);
  if (pp.explicit_pad)
    t = pad_nhwc(m, t, &pp, false, 0);
  if (grouped) {
    int64_t od[4] = {x->dims[0], cout, pp.out[0], pp.out[1]};
    grouped_conv(m, t, wf, bias, group, cin, cout, kh, kw, s, d, pp.pad,
                 act_out(m, 0, DT_FLOAT32, 4, od, L_NHWC, NULL));
    return;
  }
  int ins[3] = {t, f32_tensor(m, arena_printf("%s:filter", m->n->outputs[0]), 4, fdims, filt),
                f32_tensor(m, arena_printf("%s:bias", m->n->outputs[0]), 1, &cout, bias)};
  int64_t od[4] = {x->dims[0], cout, pp.out[0], pp.out[1]};
  int out = act_out(m, 0, DT_FLOAT32, 4, od, L_NHWC, NULL);
  int o = add_op(m, depthwise ? OP_DEPTHWISE_CONV_2D : OP_CONV_2D, ins, 3, &out, 1);
  Options *opt = &OP(m, o)->opt;
  opt->fields = OPTF_PADDING | OPTF_STRIDE | OPTF_ACTIVATION | OPTF_DILATION |
                (depthwise ? OPTF_DEPTH_MULT : 0);
  opt->padding = pp.pad;
  opt->stride_h = (int)s[0], opt->stride_w = (int)s[1];
  opt->dilation_h = (int)d[0], opt->dilation_w = (int)d[1];
  opt->depth_multiplier = depthwise ? (int)(cout / cin) : 0;
}

static void import_conv_transpose(Imp *m) {
  Val *x = act_in(m, 0), *w = need_const(m, 1, "weights"), *b = in(m, 2);
  if (x->ndims != 4 || attr_i(m, "group", 1) != 1)
    return import_conv_transpose_nd(m);
  need_f32(m, x);
  if (w->ndims != 4 || w->dims[0] != x->dims[1])
    FAIL("the weights must be [C_in, C_out, kh, kw]");
  int64_t cin = w->dims[0], cout = w->dims[1], kh = w->dims[2], kw = w->dims[3];
  if (b && (!b->data || val_elems(b) != cout))
    FAIL("the bias must be a constant of %lld values", (long long)cout);
  int64_t s[2], d[2], pads[4] = {0, 0, 0, 0}, op[2] = {0, 0}, os[2];
  spatial_attrs(m, "strides", s, 1);
  spatial_attrs(m, "dilations", d, 1);
  if (d[0] != 1 || d[1] != 1)
    return import_conv_transpose_nd(m);
  int np = attr_ints(m, "pads", pads, 4);
  attr_ints(m, "output_padding", op, 2);
  if (np >= 0 && np != 4)
    FAIL("pads has %d entries, expected 4", np);
  const char *ap = attr_s(m, "auto_pad", "NOTSET");
  int64_t k[2] = {kh, kw}, out[2];
  for (int a = 0; a < 2; a++)
    out[a] = s[a] * (x->dims[2 + a] - 1) + op[a] + k[a] - pads[a] - pads[a + 2];
  if (attr_ints(m, "output_shape", os, 2) == 2 || strcmp(ap, "NOTSET")) {
    bool given = attr(m, "output_shape") != NULL;
    for (int a = 0; a < 2; a++) {
      int64_t o = given ? os[a] : x->dims[2 + a] * s[a];
      int64_t tot = s[a] * (x->dims[2 + a] - 1) + op[a] + k[a] - o;
      if (tot < 0)
        return import_conv_transpose_nd(m);
      pads[a] = !strcmp(ap, "SAME_LOWER") ? tot - tot / 2 : tot / 2;
      pads[a + 2] = tot - pads[a];
      out[a] = o;
    }
  }
  Padding pad = PAD_VALID;
  for (int a = 0; a < 2; a++) {
    if (out[a] < 1)
      FAIL("the output would be empty");
    int32_t o, before;
    compute_padding(PAD_SAME, (int32_t)out[a], (int32_t)k[a], (int32_t)s[a], 1, &o, &before);
    if (pads[a] == 0 && pad == PAD_VALID)
      continue;
    if (before == pads[a] && o == x->dims[2 + a] && (a == 0 || pad == PAD_SAME))
      pad = PAD_SAME;
    else
      return import_conv_transpose_nd(m);
  }
  if (pad == PAD_SAME && pads[0] == 0 && pads[1] == 0)
    pad = PAD_VALID;
  const float *wf = floats_of(m, w);
  float *filt = arena_array((size_t)(cout * kh * kw * cin), sizeof(float));
  for (int64_t c = 0; c < cin; c++)
    for (int64_t o = 0; o < cout; o++)
      for (int64_t y = 0; y < kh; y++)
        for (int64_t xx = 0; xx < kw; xx++)
          filt[((o * kh + y) * kw + xx) * cin + c] = wf[((c * cout + o) * kh + y) * kw + xx];
  int64_t fd[4] = {cout, kh, kw, cin};
  int32_t shape[4] = {(int32_t)x->dims[0], (int32_t)out[0], (int32_t)out[1], (int32_t)cout};
  float *bias = b ? floats_of(m, b) : arena_array((size_t)cout, sizeof(float));
  int ins[4] = {const_i32(m, shape, 4), f32_tensor(m, "", 4, fd, filt), ir(m, x, L_NHWC),
                f32_tensor(m, "", 1, &cout, bias)};
  int64_t od[4] = {x->dims[0], cout, out[0], out[1]};
  int t = act_out(m, 0, DT_FLOAT32, 4, od, L_NHWC, NULL);
  int o = add_op(m, OP_TRANSPOSE_CONV, ins, 4, &t, 1);
  Options *opt = &OP(m, o)->opt;
  opt->fields = OPTF_PADDING | OPTF_STRIDE | OPTF_ACTIVATION;
  opt->padding = pad;
  opt->stride_h = (int)s[0], opt->stride_w = (int)s[1];
}

static void import_pool(Imp *m, bool max) {
  Val *x = act_in(m, 0);
  if (x->ndims != 4 || (m->n->noutputs > 1 && m->n->outputs[1][0]))
    return import_pool_nd(m, max);
  need_f32(m, x);
  int64_t k[2], s[2], d[2];
  if (attr_ints(m, "kernel_shape", k, 2) != 2)
    FAIL("kernel_shape must have 2 entries");
  if (k[0] < 1 || k[1] < 1 || k[0] > INT32_MAX || k[1] > INT32_MAX)
    FAIL("kernel_shape must be positive");
  spatial_attrs(m, "strides", s, 1);
  spatial_attrs(m, "dilations", d, 1);
  if (d[0] != 1 || d[1] != 1)
    return import_pool_nd(m, max);
  bool ceil_mode = attr_i(m, "ceil_mode", 0) != 0;
  bool include = attr_i(m, "count_include_pad", 0) != 0;
  PadPlan pp;
  /* Max pools and average pools without count_include_pad ignore padded
   * cells, as TFLite's SAME does. */
  plan_padding(m, x->dims + 2, k, s, d, ceil_mode, max || !include, &pp);
  if (pp.explicit_pad && !max && !include)
    return import_pool_nd(m, max);
  int t = ir(m, x, L_NHWC);
  if (pp.explicit_pad) {
    t = pad_nhwc(m, t, &pp, max, -FLT_MAX);
  }
  int64_t od[4] = {x->dims[0], x->dims[1], pp.out[0], pp.out[1]};
  int out = act_out(m, 0, DT_FLOAT32, 4, od, L_NHWC, NULL);
  int o = add_op(m, max ? OP_MAX_POOL_2D : OP_AVERAGE_POOL_2D, &t, 1, &out, 1);
  Options *opt = &OP(m, o)->opt;
  opt->fields = OPTF_PADDING | OPTF_STRIDE | OPTF_FILTER | OPTF_ACTIVATION;
  opt->padding = pp.pad;
  opt->stride_h = (int)s[0], opt->stride_w = (int)s[1];
  opt->filter_h = (int)k[0], opt->filter_w = (int)k[1];
}

static void import_global_pool(Imp *m, bool max) {
  Val *x = act4(m, 0);
  need_f32(m, x);
  int t = ir(m, x, L_NHWC);
  int64_t od[4] = {x->dims[0], x->dims[1], 1, 1};
  int out = act_out(m, 0, DT_FLOAT32, 4, od, L_NHWC, NULL);
  if (max) {
    int o = add_op(m, OP_MAX_POOL_2D, &t, 1, &out, 1);
    Options *opt = &OP(m, o)->opt;
    opt->fields = OPTF_PADDING | OPTF_STRIDE | OPTF_FILTER | OPTF_ACTIVATION;
    opt->padding = PAD_VALID;
    opt->stride_h = opt->stride_w = 1;
    opt->filter_h = dim32(m, x->dims[2]), opt->filter_w = dim32(m, x->dims[3]);
    return;
  }
  int32_t axes[2] = {1, 2};
  int ins[2] = {t, const_i32(m, axes, 2)};
  int o = add_op(m, OP_MEAN, ins, 2, &out, 1);
  OP(m, o)->opt.fields = OPTF_KEEP_DIMS;
  OP(m, o)->opt.keep_dims = true;
}

/* ------------------------------------------------ Gemm, MatMul, BN */

static int fully_connected(Imp *m, int t, const float *w, int64_t nout, int64_t nin,
                           const float *bias, int ndims, const int64_t *od, bool keep) {
  int64_t wd[2] = {nout, nin};
  float *zero = NULL;
  if (!bias)
    bias = zero = arena_array((size_t)nout, sizeof(float));
  int ins[3] = {t, f32_tensor(m, arena_printf("%s:weights", m->n->outputs[0]), 2, wd, w),
                f32_tensor(m, arena_printf("%s:bias", m->n->outputs[0]), 1, &nout, bias)};
  int out = act_out(m, 0, DT_FLOAT32, ndims, od, L_ONNX, NULL);
  int o = add_op(m, OP_FULLY_CONNECTED, ins, 3, &out, 1);
  OP(m, o)->opt.fields = OPTF_ACTIVATION | OPTF_FC;
  OP(m, o)->opt.keep_num_dims = keep;
  return out;
}

static void import_gemm(Imp *m) {
  Val *a = act_in(m, 0), *b = need_in(m, 1), *c = in(m, 2);
  need_f32(m, a);
  if (a->ndims != 2 || b->ndims != 2)
    FAIL("Gemm needs 2-D inputs");
  bool ta = attr_i(m, "transA", 0) != 0;
  if (!b->data)
    FAIL("B must be a constant (an activation B would need BATCH_MATMUL)");
  bool tb = attr_i(m, "transB", 0) != 0;
  float alpha = attr_f(m, "alpha", 1.0f), beta = attr_f(m, "beta", 1.0f);
  int64_t M = ta ? a->dims[1] : a->dims[0], K = ta ? a->dims[0] : a->dims[1];
  int64_t N = tb ? b->dims[0] : b->dims[1];
  if ((tb ? b->dims[1] : b->dims[0]) != K)
    FAIL("A is [%lld, %lld] but B does not have %lld rows", (long long)M, (long long)K,
         (long long)K);
  const float *bf = floats_of(m, b);
  float *w = arena_array((size_t)(N * K), sizeof(float));
  for (int64_t n = 0; n < N; n++)
    for (int64_t k = 0; k < K; k++)
      w[n * K + k] = alpha * (tb ? bf[n * K + k] : bf[k * N + n]);
  float *bias = NULL;
  bool add_c = false;
  if (c) {
    if (!c->data)
      FAIL("C must be a constant");
    int64_t cd[MAX_DIMS], mn[2] = {M, N};
    int ncd;
    if (c->ndims > 2 || !bcast(c->dims, c->ndims, mn, 2, cd, &ncd) || cd[0] != M ||
        cd[1] != N)
      FAIL("C does not broadcast to [%lld, %lld]", (long long)M, (long long)N);
    int64_t ne = val_elems(c);
    add_c = !(ne == 1 || (c->dims[c->ndims - 1] == N && ne == N));
    if (!add_c) {
      bias = arena_array((size_t)N, sizeof(float));
      for (int64_t n = 0; n < N; n++)
        bias[n] = beta * (float)cget_d(c, ne == 1 ? 0 : n);
    }
  }
  int in = ir(m, a, L_ONNX);
  if (ta)
    in = transpose_to(m, in, "", (const int[]){1, 0});
  int64_t od[2] = {M, N};
  int t = fully_connected(m, in, w, N, K, bias, 2, od, false);
  if (add_c) {
    /* A C with rows: beta * C added after the product. */
    float *cf = arena_array((size_t)val_elems(c), sizeof(float));
    for (int64_t k = 0; k < val_elems(c); k++)
      cf[k] = beta * (float)cget_d(c, k);
    Val *v = lookup(m, m->n->outputs[0]);
    T(m, t)->name = "";
    int ins[2] = {t, f32_tensor(m, "", c->ndims, c->dims, cf)};
    int out = new_tensor(m, v->name, DT_FLOAT32, 2, od);
    add_op(m, OP_ADD, ins, 2, &out, 1);
    v->t[L_ONNX] = out;
  }
}

/* MatMul with a 1-D operand (numpy's rule: a 1-D A is [1, K], a 1-D B
 * [K, 1], the added dimension dropped from the result) and a constant
 * B: FULLY_CONNECTED between RESHAPEs. */
static void matmul_1d(Imp *m, Val *a, Val *b) {
  int64_t K = b->dims[0], N = b->ndims == 2 ? b->dims[1] : 1;
  if (a->dims[a->ndims - 1] != K)
    FAIL("inner dimensions differ");
  int t = ir(m, a, L_ONNX);
  int r = a->ndims == 1 ? 2 : a->ndims;
  if (a->ndims == 1)
    t = reshape_to(m, t, "", 2, (int64_t[]){1, K});
  int64_t fd[MAX_DIMS];
  for (int d = 0; d < r; d++)
    fd[d] = T(m, t)->dims[d];
  fd[r - 1] = N;
  const float *bf = floats_of(m, b);
  float *w = arena_array((size_t)(N * K), sizeof(float));
  for (int64_t n = 0; n < N; n++)
    for (int64_t k = 0; k < K; k++)
      w[n * K + k] = bf[k * N + n];
  int64_t wd[2] = {N, K};
  float *zero = arena_array((size_t)N, sizeof(float));
  int ins[3] = {t, f32_tensor(m, "", 2, wd, w), f32_tensor(m, "", 1, &N, zero)};
  int fo = new_tensor(m, "", DT_FLOAT32, r, fd);
  int o = add_op(m, OP_FULLY_CONNECTED, ins, 3, &fo, 1);
  OP(m, o)->opt.fields = OPTF_ACTIVATION | OPTF_FC;
  OP(m, o)->opt.keep_num_dims = r > 2;
  /* The result: A's leading dims (without its M when A is 1-D), then N
   * (without it when B is 1-D). */
  int64_t od[MAX_DIMS];
  int no = 0;
  for (int d = 0; d < a->ndims - 1; d++)
    od[no++] = a->dims[d];
  if (b->ndims == 2)
    od[no++] = N;
  Val *v = new_val(m, m->n->outputs[0], DT_FLOAT32, no, od);
  v->t[L_ONNX] = reshape_to(m, fo, v->name, no, od);
  bind(m, m->n->outputs[0], v);
}

static void import_matmul(Imp *m) {
  Val *a = act_in(m, 0), *b = need_in(m, 1);
  need_f32(m, a);
  if (!b->data)
    need_f32(m, b);
  if (b->data && b->ndims <= 2 && a->ndims >= 1 && b->ndims >= 1 &&
      (a->ndims == 1 || b->ndims == 1)) {
    matmul_1d(m, a, b);
    return;
  }
  if (b->data && b->ndims == 2 && a->ndims >= 2) {
    int64_t K = b->dims[0], N = b->dims[1];
    if (a->dims[a->ndims - 1] != K)
      FAIL("inner dimensions differ");
    const float *bf = floats_of(m, b);
    float *w = arena_array((size_t)(N * K), sizeof(float));
    for (int64_t n = 0; n < N; n++)
      for (int64_t k = 0; k < K; k++)
        w[n * K + k] = bf[k * N + n];
    int64_t od[MAX_DIMS];
    memcpy(od, a->dims, sizeof od);
    od[a->ndims - 1] = N;
    fully_connected(m, ir(m, a, L_ONNX), w, N, K, NULL, a->ndims, od, a->ndims > 2);
    return;
  }
  /* Between activations: BATCH_MATMUL, whose batch dimensions broadcast
   * right-aligned as numpy's matmul does.  A 1-D A is a [1, K] row and a
   * 1-D B a [K, 1] column, whose added dimension the result drops. */
  int64_t ad[MAX_DIMS], bd[MAX_DIMS];
  int ra = a->ndims < 2 ? 2 : a->ndims, rb = b->ndims < 2 ? 2 : b->ndims;
  if (a->ndims < 1 || b->ndims < 1)
    FAIL("MatMul operands need rank 1 or more");
  if (ra > 5 || rb > 5)
    FAIL("MatMul operands of rank over 5 are not supported");
  if (a->ndims == 1) {
    ad[0] = 1;
    ad[1] = a->dims[0];
  } else {
    memcpy(ad, a->dims, sizeof ad);
  }
  if (b->ndims == 1) {
    bd[0] = b->dims[0];
    bd[1] = 1;
  } else {
    memcpy(bd, b->dims, sizeof bd);
  }
  if (ad[ra - 1] != bd[rb - 2])
    FAIL("inner dimensions differ");
  int n = ra > rb ? ra : rb;
  int64_t od[MAX_DIMS];
  for (int d = 0; d < n - 2; d++) {
    int ka = d - (n - ra), kb = d - (n - rb);
    int64_t da = ka >= 0 ? ad[ka] : 1, db = kb >= 0 ? bd[kb] : 1;
    if (da != db && da != 1 && db != 1)
      FAIL("batch dimension %d does not broadcast (%lld and %lld)", d, (long long)da,
           (long long)db);
    od[d] = da > db ? da : db;
  }
  od[n - 2] = ad[ra - 2];
  od[n - 1] = bd[rb - 1];
  int ta = ir(m, a, L_ONNX), tb = ir(m, b, L_ONNX);
  if (a->ndims == 1)
    ta = reshape_to(m, ta, "", 2, ad);
  if (b->ndims == 1)
    tb = reshape_to(m, tb, "", 2, bd);
  int ins[2] = {ta, tb};
  if (a->ndims >= 2 && b->ndims >= 2) {
    int out = act_out(m, 0, DT_FLOAT32, n, od, L_ONNX, NULL);
    int o = add_op(m, OP_BATCH_MATMUL, ins, 2, &out, 1);
    OP(m, o)->opt.fields = OPTF_ADJ;
    return;
  }
  int full = new_tensor(m, "", DT_FLOAT32, n, od);
  int o = add_op(m, OP_BATCH_MATMUL, ins, 2, &full, 1);
  OP(m, o)->opt.fields = OPTF_ADJ;
  int64_t rd[MAX_DIMS];
  int nr = 0;
  for (int d = 0; d < n - 2; d++)
    rd[nr++] = od[d];
  if (a->ndims >= 2)
    rd[nr++] = od[n - 2];
  if (b->ndims >= 2)
    rd[nr++] = od[n - 1];
  Val *v = new_val(m, m->n->outputs[0], DT_FLOAT32, nr, rd);
  v->t[L_ONNX] = reshape_to(m, full, v->name, nr, rd);
  bind(m, m->n->outputs[0], v);
}

static void batch_norm_training(Imp *m, Val *x, Val *sc, Val *bb, Val *mean, Val *var,
                                float eps);

static void import_batch_norm(Imp *m) {
  Val *x = act_in(m, 0);
  need_f32(m, x);
  Val *sc = need_const(m, 1, "scale"), *bb = need_const(m, 2, "B");
  Val *mean = need_const(m, 3, "mean"), *var = need_const(m, 4, "var");
  bool training = m->x->opset >= 14 && attr_i(m, "training_mode", 0) != 0;
  if (m->n->noutputs > 1 && !training)
    for (int k = 1; k < m->n->noutputs; k++)
      if (m->n->outputs[k][0] && uses_of(m, m->n->outputs[k]))
        FAIL("running statistics outputs without training_mode 1 (opset 14 on) are not "
             "supported");
  if (x->ndims < 2)
    FAIL("the input needs a channel dimension");
  int64_t C = x->dims[1];
  if (val_elems(sc) != C || val_elems(bb) != C || val_elems(mean) != C || val_elems(var) != C)
    FAIL("scale, B, mean and var must have %lld values", (long long)C);
  float eps = attr_f(m, "epsilon", 1e-5f);
  if (training) {
    batch_norm_training(m, x, sc, bb, mean, var, eps);
    return;
  }
  float *s = arena_array((size_t)C, sizeof(float)), *sh = arena_array((size_t)C, sizeof(float));
  for (int64_t c = 0; c < C; c++) {
    double k = cget_d(sc, c) / sqrt(cget_d(var, c) + (double)eps);
    s[c] = (float)k;
    sh[c] = (float)(cget_d(bb, c) - cget_d(mean, c) * k);
  }
  int l = pref(x);
  int t = ir(m, x, l);
  /* Fold into the producer: the channel is the FC's output, or the
   * convolution's output channel (NHWC: last). */
  if (can_fuse(m, x, t)) {
    Op *p = OP(m, T(m, t)->producer);
    bool fc = p->kind == OP_FULLY_CONNECTED && x->ndims == 2;
    bool conv = (p->kind == OP_CONV_2D || p->kind == OP_DEPTHWISE_CONV_2D) && l == L_NHWC;
    if (fc || conv) {
      Tensor *w = T(m, p->inputs[1]), *b = T(m, p->inputs[2]);
      float *wd = (float *)w->data, *bd = (float *)b->data;
      int64_t n = tensor_elems(w);
      for (int64_t k = 0; k < n; k++) {
        int64_t c = p->kind == OP_DEPTHWISE_CONV_2D ? k % C : k / (n / C);
        wd[k] *= s[c];
      }
      for (int64_t c = 0; c < C; c++)
        bd[c] = bd[c] * s[c] + sh[c];
      Val *v = new_val(m, m->n->outputs[0], x->dt, x->ndims, x->dims);
      v->t[l] = t;
      bind(m, m->n->outputs[0], v);
      return;
    }
  }
  int64_t cd[MAX_DIMS];
  int rank = l == L_NHWC ? 1 : x->ndims - 1;
  cd[0] = C;
  for (int d = 1; d < rank; d++)
    cd[d] = 1;
  int ins[2] = {t, f32_tensor(m, "", rank, cd, s)};
  int64_t dims[MAX_DIMS];
  for (int d = 0; d < T(m, t)->ndims; d++)
    dims[d] = T(m, t)->dims[d];
  int mid = new_tensor(m, "", DT_FLOAT32, T(m, t)->ndims, dims);
  add_op(m, OP_MUL, ins, 2, &mid, 1);
  int ins2[2] = {mid, f32_tensor(m, "", rank, cd, sh)};
  int out = act_out(m, 0, DT_FLOAT32, x->ndims, x->dims, l, NULL);
  add_op(m, OP_ADD, ins2, 2, &out, 1);
}

/* A new float32 IR tensor of t's shape (or of dims). */
static int f32_like(Imp *m, int t) {
  int64_t dims[MAX_DIMS];
  for (int d = 0; d < T(m, t)->ndims; d++)
    dims[d] = T(m, t)->dims[d];
  return new_tensor(m, "", DT_FLOAT32, T(m, t)->ndims, dims);
}

static int binary_to(Imp *m, OpKind kind, int a, int b, int out) {
  int ins[2] = {a, b};
  add_op(m, kind, ins, 2, &out, 1);
  return out;
}

/* The output k of the node as an activation when the graph names it,
 * else an unnamed tensor. */
static int maybe_out(Imp *m, int k, int ndims, const int64_t *dims, int layout) {
  if (k < m->n->noutputs && m->n->outputs[k][0]) {
    if (layout == L_NHWC) {
      int64_t od[4];
      for (int d = 0; d < 4; d++)
        od[d] = dims[TO_NCHW[d]];
      return act_out(m, k, DT_FLOAT32, 4, od, layout, NULL);
    }
    return act_out(m, k, DT_FLOAT32, ndims, dims, layout, NULL);
  }
  return new_tensor(m, "", DT_FLOAT32, ndims, dims);
}

/*
 * Normalization over the IR axes red[] of IR tensor t, as ONNX's
 * reference computes it (LayerNormalization's function body):
 *   mean = ReduceMean(x), d = x - mean, var = ReduceMean(d * d),
 *   inv = 1 / sqrt(var + epsilon), returns d * inv.
 * mean and inv (reduced dims kept as 1) are written to node outputs
 * mean_k and inv_k when those are named (-1: never).
 */
static int normalize(Imp *m, int t, const bool *red, float eps, int mean_k, int inv_k,
                     int layout) {
  int r = T(m, t)->ndims;
  int32_t ax[MAX_DIMS];
  int nax = 0;
  int64_t kd[MAX_DIMS];
  for (int d = 0; d < r; d++) {
    if (red[d])
      ax[nax++] = d;
    kd[d] = red[d] ? 1 : T(m, t)->dims[d];
  }
  int mean = mean_k >= 0 ? maybe_out(m, mean_k, r, kd, layout)
                         : new_tensor(m, "", DT_FLOAT32, r, kd);
  int ins[2] = {t, const_i32(m, ax, nax)};
  int o = add_op(m, OP_MEAN, ins, 2, &mean, 1);
  OP(m, o)->opt.fields = OPTF_KEEP_DIMS;
  OP(m, o)->opt.keep_dims = true;
  int d = binary_to(m, OP_SUB, t, mean, f32_like(m, t));
  int sq = binary_to(m, OP_MUL, d, d, f32_like(m, t));
  int var = new_tensor(m, "", DT_FLOAT32, r, kd);
  int vins[2] = {sq, const_i32(m, ax, nax)};
  o = add_op(m, OP_MEAN, vins, 2, &var, 1);
  OP(m, o)->opt.fields = OPTF_KEEP_DIMS;
  OP(m, o)->opt.keep_dims = true;
  int ve = scalar_op(m, OP_ADD, var, eps, "");
  int inv = inv_k >= 0 ? maybe_out(m, inv_k, r, kd, layout)
                       : new_tensor(m, "", DT_FLOAT32, r, kd);
  add_op(m, OP_RSQRT, &ve, 1, &inv, 1);
  return binary_to(m, OP_MUL, d, inv, f32_like(m, t));
}

/* LayerNormalization (opset 17): normalized over axes axis .. r-1, times
 * Scale, plus B; outputs Mean and InvStdDev when named.  In the ONNX
 * layout (Scale and B broadcast from the right). */
static void import_layer_norm(Imp *m) {
  Val *x = act_in(m, 0), *sc = act_in(m, 1), *bb = in(m, 2);
  need_f32(m, x);
  need_f32(m, sc);
  if (bb)
    need_f32(m, bb);
  int r = x->ndims;
  int64_t axis = resolve(m, attr_i(m, "axis", -1), r, "axis");
  float eps = attr_f(m, "epsilon", 1e-5f);
  bool red[MAX_DIMS] = {false};
  for (int d = (int)axis; d < r; d++)
    red[d] = true;
  int t = ir(m, x, L_ONNX);
  int y = normalize(m, t, red, eps, 1, 2, L_ONNX);
  int64_t dims[MAX_DIMS];
  memcpy(dims, x->dims, sizeof dims);
  if (!bb) {
    binary_to(m, OP_MUL, y, ir(m, sc, L_ONNX), act_out(m, 0, DT_FLOAT32, r, dims, L_ONNX, NULL));
    return;
  }
  int s = binary_to(m, OP_MUL, y, ir(m, sc, L_ONNX), f32_like(m, t));
  binary_to(m, OP_ADD, s, ir(m, bb, L_ONNX), act_out(m, 0, DT_FLOAT32, r, dims, L_ONNX, NULL));
}

/* InstanceNormalization: normalized over the spatial axes 2 .. r-1 of
 * each sample and channel, times scale[c], plus B[c] (both constant). */
static void import_instance_norm(Imp *m) {
  Val *x = act_in(m, 0);
  need_f32(m, x);
  Val *sc = need_const(m, 1, "scale"), *bb = need_const(m, 2, "B");
  int r = x->ndims;
  if (r < 3)
    FAIL("the input needs a channel and a spatial dimension");
  int64_t C = x->dims[1];
  if (val_elems(sc) != C || val_elems(bb) != C)
    FAIL("scale and B must have %lld values", (long long)C);
  float eps = attr_f(m, "epsilon", 1e-5f);
  int l = pref(x);
  int t = ir(m, x, l);
  bool red[MAX_DIMS] = {false};
  for (int d = 2; d < r; d++)
    red[l == L_NHWC ? nhwc_axis(d) : d] = true;
  int y = normalize(m, t, red, eps, -1, -1, l);
  int64_t cd[MAX_DIMS];
  int rank = l == L_NHWC ? 1 : r - 1;
  cd[0] = C;
  for (int d = 1; d < rank; d++)
    cd[d] = 1;
  int s = binary_to(m, OP_MUL, y, f32_tensor(m, "", rank, cd, floats_of(m, sc)), f32_like(m, t));
  int out = act_out(m, 0, DT_FLOAT32, r, x->dims, l, NULL);
  binary_to(m, OP_ADD, s, f32_tensor(m, "", rank, cd, floats_of(m, bb)), out);
}

/* Gelu (opset 20) as ONNX's function body: approximate "none"
 *   y = x (erf(x / sqrt(2)) + 1) / 2      (MUL, ERF, ADD, MUL, MUL)
 * "tanh"
 *   y = x (tanh(sqrt(2 / pi) (x + 0.044715 x^3)) + 1) / 2. */
static void import_gelu(Imp *m) {
  Val *x = act_in(m, 0);
  need_f32(m, x);
  const char *ap = attr_s(m, "approximate", "none");
  bool tanh_form = !strcmp(ap, "tanh");
  if (!tanh_form && strcmp(ap, "none"))
    FAIL("approximate '%s' is neither none nor tanh", ap);
  int l = pref(x);
  int t = ir(m, x, l);
  int inner;
  if (tanh_form) {
    int x2 = binary_to(m, OP_MUL, t, t, f32_like(m, t));
    int x3 = binary_to(m, OP_MUL, x2, t, f32_like(m, t));
    int c = scalar_op(m, OP_MUL, x3, 0.044715f, "");
    int s = binary_to(m, OP_ADD, t, c, f32_like(m, t));
    int w = scalar_op(m, OP_MUL, s, (float)sqrt(2.0 / 3.14159265358979323846), "");
    inner = f32_like(m, t);
    add_op(m, OP_TANH, &w, 1, &inner, 1);
  } else {
    int w = scalar_op(m, OP_MUL, t, (float)(1.0 / sqrt(2.0)), "");
    inner = f32_like(m, t);
    add_op(m, OP_ERF, &w, 1, &inner, 1);
  }
  int p = scalar_op(m, OP_ADD, inner, 1.0f, "");
  int q = binary_to(m, OP_MUL, t, p, f32_like(m, t));
  int out = act_out(m, 0, DT_FLOAT32, x->ndims, x->dims, l, NULL);
  int64_t one[MAX_DIMS];
  for (int d = 0; d < T(m, q)->ndims; d++)
    one[d] = 1;
  float half = 0.5f;
  binary_to(m, OP_MUL, q, f32_tensor(m, "", T(m, q)->ndims, one, &half), out);
}

/* A FULLY_CONNECTED of IR tensor t [rows, K] to a new [rows, N] tensor. */
static int fc_to(Imp *m, int t, const float *w, int64_t N, int64_t K, const float *bias) {
  int64_t wd[2] = {N, K}, od[2] = {T(m, t)->dims[0], N};
  float *zero = NULL;
  if (!bias)
    bias = zero = arena_array((size_t)N, sizeof(float));
  int ins[3] = {t, f32_tensor(m, "", 2, wd, w), f32_tensor(m, "", 1, &N, bias)};
  int out = new_tensor(m, "", DT_FLOAT32, 2, od);
  int o = add_op(m, OP_FULLY_CONNECTED, ins, 3, &out, 1);
  OP(m, o)->opt.fields = OPTF_ACTIVATION | OPTF_FC;
  return out;
}

static int unary_to(Imp *m, OpKind kind, int t) {
  int out = f32_like(m, t);
  add_op(m, kind, &t, 1, &out, 1);
  return out;
}

/*
 * BatchNormalization with training_mode 1 (opset 14 on), as ONNX's
 * reference computes it: the batch's own mean and population variance
 * over every axis but the channel,
 *   Y = (x - mean_b) / sqrt(var_b + epsilon) * scale + B,
 *   running_mean = mean * momentum + mean_b * (1 - momentum),
 *   running_var  = var * momentum + var_b * (1 - momentum),
 * in the ONNX layout (MEAN, SUB, MUL, ADD, RSQRT).
 */
static void batch_norm_training(Imp *m, Val *x, Val *sc, Val *bb, Val *mean, Val *var,
                                float eps) {
  float mom = attr_f(m, "momentum", 0.9f);
  int r = x->ndims;
  int64_t C = x->dims[1], kd[MAX_DIMS];
  int32_t ax[MAX_DIMS];
  int nax = 0;
  for (int d = 0; d < r; d++) {
    kd[d] = d == 1 ? C : 1;
    if (d != 1)
      ax[nax++] = d;
  }
  int t = ir(m, x, L_ONNX);
  int bm = new_tensor(m, "", DT_FLOAT32, r, kd);
  int ins[2] = {t, const_i32(m, ax, nax)};
  int o = add_op(m, OP_MEAN, ins, 2, &bm, 1);
  OP(m, o)->opt.fields = OPTF_KEEP_DIMS;
  OP(m, o)->opt.keep_dims = true;
  int d = binary_to(m, OP_SUB, t, bm, f32_like(m, t));
  int sq = binary_to(m, OP_MUL, d, d, f32_like(m, t));
  int bv = new_tensor(m, "", DT_FLOAT32, r, kd);
  int vins[2] = {sq, const_i32(m, ax, nax)};
  o = add_op(m, OP_MEAN, vins, 2, &bv, 1);
  OP(m, o)->opt.fields = OPTF_KEEP_DIMS;
  OP(m, o)->opt.keep_dims = true;
  int inv = unary_to(m, OP_RSQRT, scalar_op(m, OP_ADD, bv, eps, ""));
  int y = binary_to(m, OP_MUL, d, inv, f32_like(m, t));
  y = binary_to(m, OP_MUL, y, f32_tensor(m, "", r, kd, floats_of(m, sc)), f32_like(m, t));
  binary_to(m, OP_ADD, y, f32_tensor(m, "", r, kd, floats_of(m, bb)),
            act_out(m, 0, DT_FLOAT32, r, x->dims, L_ONNX, NULL));
  /* The running statistics, [C], when the graph names them. */
  const int batch[2] = {bm, bv};
  Val *const given[2] = {mean, var};
  for (int k = 0; k < 2; k++) {
    if (k + 1 >= m->n->noutputs || !m->n->outputs[k + 1][0])
      continue;
    int flat = reshape_to(m, batch[k], "", 1, &C);
    int part = scalar_op(m, OP_MUL, flat, 1.0f - mom, "");
    float *g = arena_array((size_t)C, sizeof(float));
    for (int64_t c = 0; c < C; c++)
      g[c] = (float)(cget_d(given[k], c) * (double)mom);
    binary_to(m, OP_ADD, part, f32_tensor(m, "", 1, &C, g),
              act_out(m, k + 1, DT_FLOAT32, 1, &C, L_ONNX, NULL));
  }
}

/*
 * GRU (forward, default activations) unrolled over the sequence into
 * FULLY_CONNECTED, ADD, MUL, SUB, LOGISTIC and TANH, ONNX's equations
 * with its gate order z, r, h (W, R, B blocks):
 *   z = sigmoid(x Wz' + h Rz' + Wbz + Rbz), r likewise,
 *   linear_before_reset 0: c = tanh(x Wh' + (r h) Rh' + Rbh + Wbh)
 *   linear_before_reset 1: c = tanh(x Wh' + r (h Rh' + Rbh) + Wbh)
 *     (written out below but refused for now)
 *   h' = (1 - z) c + z h  (as c + z (h - c)).
 * W, R, B and initial_h constant; Y and Y_h in either layout.
 */
static void import_gru(Imp *m) {
  Val *x = act_in(m, 0);
  need_f32(m, x);
  Val *W = need_const(m, 1, "W"), *R = need_const(m, 2, "R"), *B = in(m, 3);
  Val *lens = in(m, 4), *h0 = in(m, 5);
  if (strcmp(attr_s(m, "direction", "forward"), "forward"))
    FAIL("direction %s is not supported (forward only)", attr_s(m, "direction", ""));
  if (attr(m, "clip"))
    FAIL("clip is not supported");
  if (attr(m, "activations"))
    FAIL("activations other than the defaults are not supported");
  int layout = (int)attr_i(m, "layout", 0);
  bool lbr = attr_i(m, "linear_before_reset", 0) != 0;
  if (lbr) /* no test model yet checks the unrolled form against a reference */
    FAIL("linear_before_reset 1 is not supported");
  if (x->ndims != 3)
    FAIL("X must have rank 3");
  int64_t seq = layout ? x->dims[1] : x->dims[0], batch = layout ? x->dims[0] : x->dims[1];
  int64_t I = x->dims[2], H = attr_i(m, "hidden_size", W->ndims == 3 ? W->dims[1] / 3 : 0);
  if (H < 1 || W->ndims != 3 || W->dims[0] != 1 || W->dims[1] != 3 * H || W->dims[2] != I)
    FAIL("W must be [1, %lld, %lld]", (long long)(3 * H), (long long)I);
  if (R->ndims != 3 || R->dims[0] != 1 || R->dims[1] != 3 * H || R->dims[2] != H)
    FAIL("R must be [1, %lld, %lld]", (long long)(3 * H), (long long)H);
  if (B && (!B->data || val_elems(B) != 6 * H))
    FAIL("B must be a constant of %lld values", (long long)(6 * H));
  if (lens) {
    if (!lens->data)
      FAIL("sequence_lens must be constant");
    for (int64_t k = 0; k < val_elems(lens); k++)
      if (cget_i(lens, k) != seq)
        FAIL("sequence_lens shorter than the sequence are not supported");
  }
  if (h0 && (!h0->data || val_elems(h0) != batch * H))
    FAIL("initial_h must be absent or a constant of %lld values", (long long)(batch * H));
  if (seq < 1 || seq > 4096)
    FAIL("a sequence of %lld steps is not supported (1 to 4096)", (long long)seq);
  const float *w = floats_of(m, W), *r = floats_of(m, R);
  const float *b = B ? floats_of(m, B) : arena_array((size_t)(6 * H), sizeof(float));
  /* Gate g's blocks: W rows g H .. (g + 1) H, bias Wb + g H, Rb + 3 H + g H. */
  float *bzr[2], *bxh = arena_array((size_t)H, sizeof(float)), *brh = arena_array((size_t)H, 4);
  for (int g = 0; g < 2; g++) {
    bzr[g] = arena_array((size_t)H, sizeof(float));
    for (int64_t k = 0; k < H; k++)
      bzr[g][k] = b[g * H + k] + b[(3 + g) * H + k];
  }
  for (int64_t k = 0; k < H; k++) {
    bxh[k] = b[2 * H + k] + (lbr ? 0 : b[5 * H + k]);
    brh[k] = b[5 * H + k];
  }
  /* x_t: SPLIT_V along the sequence axis, each [batch, I]. */
  int xs = ir(m, x, L_ONNX);
  int *steps = arena_array((size_t)seq, sizeof(int));
  int32_t *sz = arena_array((size_t)seq, sizeof(int32_t)), ax = layout ? 1 : 0;
  for (int64_t t = 0; t < seq; t++) {
    int64_t sd[3] = {layout ? batch : 1, layout ? 1 : batch, I};
    sz[t] = 1;
    steps[t] = new_tensor(m, "", DT_FLOAT32, 3, sd);
  }
  if (seq > 1) {
    int sins[3] = {xs, const_i32(m, sz, (int)seq), const_i32(m, &ax, 1)};
    int o = add_op(m, OP_SPLIT_V, sins, 3, steps, (int)seq);
    OP(m, o)->opt.fields = OPTF_NUM;
    OP(m, o)->opt.num = (int)seq;
  } else {
    steps[0] = xs;
  }
  int64_t hd[2] = {batch, H};
  float *hinit = h0 ? floats_of(m, h0) : arena_array((size_t)(batch * H), sizeof(float));
  int h = f32_tensor(m, "", 2, hd, hinit);
  bool want_y = m->n->noutputs > 0 && m->n->outputs[0][0];
  int *ys = arena_array((size_t)seq, sizeof(int));
  for (int64_t t = 0; t < seq; t++) {
    int64_t xd[2] = {batch, I};
    int xt = reshape_to(m, steps[t], "", 2, xd);
    int gate[2];
    for (int g = 0; g < 2; g++) {
      int a = fc_to(m, xt, w + g * H * I, H, I, bzr[g]);
      int c = fc_to(m, h, r + g * H * H, H, H, NULL);
      gate[g] = unary_to(m, OP_LOGISTIC, binary_to(m, OP_ADD, a, c, f32_like(m, a)));
    }
    int xh = fc_to(m, xt, w + 2 * H * I, H, I, bxh), hh;
    if (lbr) {
      int hr = fc_to(m, h, r + 2 * H * H, H, H, brh);
      hh = binary_to(m, OP_MUL, gate[1], hr, f32_like(m, hr));
    } else {
      int rh = binary_to(m, OP_MUL, gate[1], h, f32_like(m, h));
      hh = fc_to(m, rh, r + 2 * H * H, H, H, NULL);
    }
    int c = unary_to(m, OP_TANH, binary_to(m, OP_ADD, xh, hh, f32_like(m, xh)));
    int d = binary_to(m, OP_SUB, h, c, f32_like(m, c));
    int zd = binary_to(m, OP_MUL, gate[0], d, f32_like(m, d));
    h = binary_to(m, OP_ADD, c, zd, f32_like(m, c));
    ys[t] = h;
  }
  if (want_y) {
    /* Y: [seq, 1, batch, H] (layout 0) or [batch, seq, 1, H]. */
    int64_t one[4] = {1, 1, batch, H}, onel[4] = {batch, 1, 1, H};
    int *parts = arena_array((size_t)seq, sizeof(int));
    for (int64_t t = 0; t < seq; t++)
      parts[t] = reshape_to(m, ys[t], "", 4, layout ? onel : one);
    int64_t yd[4] = {seq, 1, batch, H}, ydl[4] = {batch, seq, 1, H};
    int y = act_out(m, 0, DT_FLOAT32, 4, layout ? ydl : yd, L_ONNX, NULL);
    if (seq == 1) {
      /* one step: Y is that step's h, reshaped */
      int ins[2] = {ys[0], const_i32(m, (int32_t[]){(int32_t)(layout ? batch : 1), 1,
                                                     (int32_t)(layout ? 1 : batch),
                                                     (int32_t)H}, 4)};
      int o = add_op(m, OP_RESHAPE, ins, 2, &y, 1);
      OP(m, o)->opt.fields = OPTF_NEW_SHAPE;
      OP(m, o)->opt.nnew_shape = 4;
      for (int k = 0; k < 4; k++)
        OP(m, o)->opt.new_shape[k] = (int32_t)T(m, y)->dims[k];
    } else {
      int o = add_op(m, OP_CONCATENATION, parts, (int)seq, &y, 1);
      OP(m, o)->opt.fields = OPTF_AXIS | OPTF_ACTIVATION;
      OP(m, o)->opt.axis = layout ? 1 : 0;
    }
  }
  if (m->n->noutputs > 1 && m->n->outputs[1][0]) {
    int64_t od[3] = {1, batch, H}, odl[3] = {batch, 1, H};
    Val *v = new_val(m, m->n->outputs[1], DT_FLOAT32, 3, layout ? odl : od);
    v->t[L_ONNX] = reshape_to(m, h, v->name, 3, layout ? odl : od);
    bind(m, m->n->outputs[1], v);
  }
}

/* ------------------------------------------------ shape ops on activations */

/* Reshape-like: the ONNX element order is kept.  A 4-D NHWC-only value
 * whose two orders coincide reshapes without a TRANSPOSE. */
static void reshape_act(Imp *m, int ndims, const int64_t *dims) {
  Val *x = act_in(m, 0);
  int t;
  if (x->t[L_ONNX] < 0 && x->t[L_NHWC] >= 0 && x->ndims == 4 &&
      (x->dims[1] == 1 || x->dims[2] * x->dims[3] == 1))
    t = x->t[L_NHWC];
  else
    t = ir(m, x, L_ONNX);
  Val *v = new_val(m, m->n->outputs[0], x->dt, ndims, dims);
  bool same = ndims == T(m, t)->ndims;
  for (int d = 0; same && d < ndims; d++)
    same = T(m, t)->dims[d] == dims[d];
  v->t[L_ONNX] = same ? t : reshape_to(m, t, v->name, ndims, dims);
  bind(m, m->n->outputs[0], v);
}

static void import_transpose(Imp *m) {
  Val *x = act_in(m, 0);
  int perm[MAX_DIMS];
  perm_of(m, x->ndims, perm);
  int64_t dims[MAX_DIMS];
  for (int d = 0; d < x->ndims; d++)
    dims[d] = x->dims[perm[d]];
  Val *v = new_val(m, m->n->outputs[0], x->dt, x->ndims, dims);
  bind(m, m->n->outputs[0], v);
  if (x->ndims == 4 && x->t[L_NHWC] >= 0 && !memcmp(perm, TO_NHWC, sizeof TO_NHWC)) {
    v->t[L_ONNX] = x->t[L_NHWC]; /* NCHW -> NHWC is the NHWC tensor itself */
    return;
  }
  v->t[L_ONNX] = transpose_to(m, ir(m, x, L_ONNX), v->name, perm);
}

static void import_concat(Imp *m) {
  Val *a = act_in(m, 0);
  int n = m->n->ninputs;
  int64_t axis = resolve(m, attr_i(m, "axis", 0), a->ndims, "axis");
  int l = common_layout(m, a->ndims, 0, n);
  int64_t dims[MAX_DIMS];
  memcpy(dims, a->dims, sizeof dims);
  dims[axis] = 0;
  int *ins = arena_array((size_t)n, sizeof(int));
  for (int k = 0; k < n; k++) {
    Val *v = need_in(m, k);
    if (v->ndims != a->ndims || v->dt != a->dt)
      FAIL("inputs of different ranks or types");
    for (int d = 0; d < a->ndims; d++)
      if (d != axis && v->dims[d] != a->dims[d])
        FAIL("input %d's shape does not fit", k);
    dims[axis] += v->dims[axis];
    ins[k] = ir(m, v, l);
  }
  int out = act_out(m, 0, a->dt, a->ndims, dims, l, NULL);
  int o = add_op(m, OP_CONCATENATION, ins, n, &out, 1);
  OP(m, o)->opt.fields = OPTF_AXIS | OPTF_ACTIVATION;
  OP(m, o)->opt.axis = l == L_NHWC ? nhwc_axis((int)axis) : (int)axis;
}

static void import_softmax(Imp *m, bool log) {
  Val *x = act_in(m, 0);
  need_f32(m, x);
  int r = x->ndims;
  int64_t axis = resolve(m, attr_i(m, "axis", m->x->opset < 13 ? 1 : -1), r, "axis");
  OpKind kind = log ? OP_LOG_SOFTMAX : OP_SOFTMAX;
  if (m->x->opset < 13 && axis != r - 1) {
    /* Softmax over the flattened dims [axis, r): a 2-D softmax. */
    int64_t two[2] = {1, 1};
    for (int d = 0; d < r; d++)
      two[d >= axis] *= x->dims[d];
    int t = reshape_to(m, ir(m, x, L_ONNX), "", 2, two);
    int s = new_tensor(m, "", DT_FLOAT32, 2, two);
    int o = add_op(m, kind, &t, 1, &s, 1);
    OP(m, o)->opt.fields = OPTF_BETA;
    Val *v = new_val(m, m->n->outputs[0], x->dt, r, x->dims);
    v->t[L_ONNX] = reshape_to(m, s, v->name, r, x->dims);
    bind(m, m->n->outputs[0], v);
    return;
  }
  int l = r == 4 && axis == 1 && x->t[L_NHWC] >= 0 ? L_NHWC : L_ONNX;
  if (l == L_ONNX && axis != r - 1) {
    int perm[MAX_DIMS], inv[MAX_DIMS], k = 0;
    for (int d = 0; d < r; d++)
      if (d != axis)
        perm[k++] = d;
    perm[k] = (int)axis;
    for (int d = 0; d < r; d++)
      inv[perm[d]] = d;
    int t = transpose_to(m, ir(m, x, L_ONNX), "", perm);
    int64_t td[MAX_DIMS];
    for (int d = 0; d < r; d++)
      td[d] = T(m, t)->dims[d];
    int s = new_tensor(m, "", DT_FLOAT32, r, td);
    int o = add_op(m, kind, &t, 1, &s, 1);
    OP(m, o)->opt.fields = OPTF_BETA;
    Val *v = new_val(m, m->n->outputs[0], x->dt, r, x->dims);
    v->t[L_ONNX] = transpose_to(m, s, v->name, inv);
    bind(m, m->n->outputs[0], v);
    return;
  }
  int t = ir(m, x, l);
  int out = act_out(m, 0, x->dt, r, x->dims, l, NULL);
  int o = add_op(m, kind, &t, 1, &out, 1);
  OP(m, o)->opt.fields = OPTF_BETA;
}

static void import_pad(Imp *m) {
  Val *x = act_in(m, 0);
  const char *mode = attr_s(m, "mode", "constant");
  /* reflect, edge, wrap: MIRROR_PAD modes REFLECT, EDGE (2), WRAP (3). */
  int mirror = !strcmp(mode, "reflect") ? 0 : !strcmp(mode, "edge") ? 2
             : !strcmp(mode, "wrap") ? 3 : -1;
  if (mirror < 0 && strcmp(mode, "constant"))
    FAIL("Pad mode '%s' is not supported", mode);
  int r = x->ndims;
  int64_t pads[2 * MAX_DIMS];
  int np;
  if (m->x->opset < 11) {
    np = attr_ints(m, "pads", pads, 2 * MAX_DIMS);
  } else {
    Val *p = need_const(m, 1, "pads");
    np = const_list(m, p, pads, 2 * MAX_DIMS, "pads");
  }
  Val *axes = in(m, 3);
  if (axes) {
    /* pads lists begins then ends of these axes only; the rest get 0. */
    if (!axes->data)
      FAIL("the axes of Pad must be constant");
    int64_t ax[MAX_DIMS], full[2 * MAX_DIMS] = {0};
    int na = const_list(m, axes, ax, MAX_DIMS, "axes");
    if (np != 2 * na)
      FAIL("pads has %d entries for %d axes", np, na);
    for (int k = 0; k < na; k++) {
      int64_t d = resolve(m, ax[k], r, "axis");
      full[d] = pads[k];
      full[d + r] = pads[k + na];
    }
    memcpy(pads, full, sizeof full);
    np = 2 * r;
  }
  if (np != 2 * r)
    FAIL("pads has %d entries for rank %d", np, r);
  float value = 0;
  Val *cv = in(m, 2);
  if (cv) {
    if (!cv->data)
      FAIL("constant_value must be a constant");
    value = (float)cget_d(cv, 0);
  }
  int l = pref(x);
  int64_t dims[MAX_DIMS];
  int32_t p[2 * MAX_DIMS];
  for (int d = 0; d < r; d++) {
    if (pads[d] < 0 || pads[d + r] < 0 || pads[d] > INT32_MAX || pads[d + r] > INT32_MAX)
      FAIL("negative pads (cropping) are not supported");
    dims[d] = x->dims[d] + pads[d] + pads[d + r];
  }
  for (int d = 0; d < r; d++) {
    int src = l == L_NHWC ? TO_NHWC[d] : d;
    p[2 * d] = (int32_t)pads[src];
    p[2 * d + 1] = (int32_t)pads[src + r];
  }
  int64_t pd[2] = {r, 2};
  int ins[3] = {ir(m, x, l), const_tensor(m, "", DT_INT32, 2, pd, p), -1};
  if (mirror >= 0) {
    int out = act_out(m, 0, x->dt, r, dims, l, NULL);
    int o = add_op(m, OP_MIRROR_PAD, ins, 2, &out, 1);
    OP(m, o)->opt.fields = OPTF_MIRROR;
    OP(m, o)->opt.mirror_mode = mirror;
    return;
  }
  bool v2 = value != 0;
  if (v2) {
    if (x->dt != DT_FLOAT32)
      FAIL("a non-zero constant_value is supported for float32 only");
    ins[2] = f32_tensor(m, "", 1, (int64_t[]){1}, &value);
  }
  int out = act_out(m, 0, x->dt, r, dims, l, NULL);
  add_op(m, v2 ? OP_PADV2 : OP_PAD, ins, v2 ? 3 : 2, &out, 1);
}

static void import_slice(Imp *m) {
  Val *x = act_in(m, 0);
  SliceP s;
  slice_params(m, x, &s);
  int r = x->ndims;
  int32_t b[MAX_DIMS], e[MAX_DIMS], st[MAX_DIMS];
  int end_mask = 0;
  for (int d = 0; d < r; d++) {
    b[d] = (int32_t)s.start[d];
    st[d] = (int32_t)(s.step[d] > INT32_MAX ? INT32_MAX : s.step[d] < -INT32_MAX ? -INT32_MAX
                                                                                 : s.step[d]);
    int64_t stop = s.start[d] + s.count[d] * s.step[d];
    if (s.count[d] == 0)
      stop = s.start[d];
    if (stop < 0) {
      end_mask |= 1 << d; /* run to the beginning */
      stop = 0;
    }
    e[d] = (int32_t)(stop > INT32_MAX ? INT32_MAX : stop);
    if (s.step[d] > 0 && b[d] >= x->dims[d] && s.count[d] == 0)
      b[d] = e[d] = (int32_t)x->dims[d];
  }
  int ins[4] = {ir(m, x, L_ONNX), const_i32(m, b, r), const_i32(m, e, r), const_i32(m, st, r)};
  int out = act_out(m, 0, x->dt, r, s.count, L_ONNX, NULL);
  int o = add_op(m, OP_STRIDED_SLICE, ins, 4, &out, 1);
  OP(m, o)->opt.fields = OPTF_SLICE_MASKS;
  OP(m, o)->opt.end_mask = end_mask;
}

static void import_gather(Imp *m) {
  Val *x = act_in(m, 0), *idx = need_in(m, 1);
  int r = x->ndims;
  int64_t axis = resolve(m, attr_i(m, "axis", 0), r, "axis");
  if (!idx->data)
    FAIL("indices that are not constant are not supported");
  int64_t len = x->dims[axis];
  if (idx->ndims == 0) {
    /* A scalar index: a STRIDED_SLICE that drops the axis. */
    int64_t g = cget_i(idx, 0);
    if (g < -len || g >= len)
      FAIL("index %lld is out of range for size %lld", (long long)g, (long long)len);
    g = g < 0 ? g + len : g;
    int32_t b[MAX_DIMS], e[MAX_DIMS], st[MAX_DIMS];
    int64_t od[MAX_DIMS];
    int no = 0;
    for (int d = 0; d < r; d++) {
      b[d] = d == axis ? (int32_t)g : 0;
      e[d] = d == axis ? (int32_t)g + 1 : (int32_t)x->dims[d];
      st[d] = 1;
      if (d != axis)
        od[no++] = x->dims[d];
    }
    int ins[4] = {ir(m, x, L_ONNX), const_i32(m, b, r), const_i32(m, e, r),
                  const_i32(m, st, r)};
    int out = act_out(m, 0, x->dt, no, od, L_ONNX, NULL);
    int o = add_op(m, OP_STRIDED_SLICE, ins, 4, &out, 1);
    OP(m, o)->opt.fields = OPTF_SLICE_MASKS;
    OP(m, o)->opt.shrink_axis_mask = 1 << axis;
    return;
  }
  int64_t ni = val_elems(idx);
  int32_t *iv = arena_array((size_t)(ni ? ni : 1), sizeof(int32_t));
  for (int64_t k = 0; k < ni; k++) {
    int64_t g = cget_i(idx, k);
    if (g < -len || g >= len)
      FAIL("index %lld is out of range for size %lld", (long long)g, (long long)len);
    iv[k] = (int32_t)(g < 0 ? g + len : g);
  }
  int64_t od[MAX_DIMS];
  int no = 0;
  for (int d = 0; d < axis; d++)
    od[no++] = x->dims[d];
  for (int d = 0; d < idx->ndims; d++)
    od[no++] = idx->dims[d];
  for (int d = (int)axis + 1; d < r; d++)
    od[no++] = x->dims[d];
  if (no > MAX_DIMS)
    FAIL("the result has a rank above %d", MAX_DIMS);
  int ins[2] = {ir(m, x, L_ONNX), const_tensor(m, "", DT_INT32, idx->ndims, idx->dims, iv)};
  int out = act_out(m, 0, x->dt, no, od, L_ONNX, NULL);
  int o = add_op(m, OP_GATHER, ins, 2, &out, 1);
  OP(m, o)->opt.fields = OPTF_AXIS | OPTF_BATCH_DIMS;
  OP(m, o)->opt.axis = (int)axis;
}

static void import_split(Imp *m) {
  Val *x = act_in(m, 0);
  int r = x->ndims, n = m->n->noutputs;
  int64_t axis = resolve(m, attr_i(m, "axis", 0), r, "axis");
  int64_t sizes[64];
  int ns = -1;
  if (n > 64)
    FAIL("more than 64 outputs");
  if (m->x->opset < 13) {
    ns = attr_ints(m, "split", sizes, 64);
  } else if (in(m, 1)) {
    Val *s = need_const(m, 1, "split");
    ns = const_list(m, s, sizes, 64, "split");
  }
  int64_t len = x->dims[axis];
  if (ns < 0) {
    int64_t chunk = (len + n - 1) / n;
    for (int k = 0; k < n; k++) {
      int64_t left = len - chunk * k;
      sizes[k] = left < chunk ? (left < 0 ? 0 : left) : chunk;
    }
    ns = n;
  }
  if (ns != n)
    FAIL("split has %d sizes for %d outputs", ns, n);
  int64_t sum = 0;
  for (int k = 0; k < n; k++) {
    if (sizes[k] < 0)
      FAIL("negative split size");
    sum += sizes[k];
  }
  if (sum != len)
    FAIL("split sizes add up to %lld, the axis has %lld", (long long)sum, (long long)len);
  int l = pref(x);
  int32_t sz[64];
  for (int k = 0; k < n; k++)
    sz[k] = (int32_t)sizes[k];
  int32_t ax = l == L_NHWC ? nhwc_axis((int)axis) : (int32_t)axis;
  int ins[3] = {ir(m, x, l), const_i32(m, sz, n), const_i32(m, &ax, 1)};
  int *outs = arena_array((size_t)n, sizeof(int));
  for (int k = 0; k < n; k++) {
    int64_t dims[MAX_DIMS];
    memcpy(dims, x->dims, sizeof dims);
    dims[axis] = sizes[k];
    if (!m->n->outputs[k][0])
      FAIL("an unnamed Split output is not supported");
    outs[k] = act_out(m, k, x->dt, r, dims, l, NULL);
  }
  int o = add_op(m, OP_SPLIT_V, ins, 3, outs, n);
  OP(m, o)->opt.fields = OPTF_NUM;
  OP(m, o)->opt.num = n;
}

static void import_reduce(Imp *m, OpKind kind) {
  Val *x = act_in(m, 0);
  int r = x->ndims;
  int64_t axes[MAX_DIMS];
  int na = -1;
  bool from_input = !strcmp(m->n->op_type, "ReduceSum") ? m->x->opset >= 13 : m->x->opset >= 18;
  if (from_input) {
    Val *a = in(m, 1);
    if (a) {
      if (!a->data)
        FAIL("the axes must be constant");
      na = const_list(m, a, axes, MAX_DIMS, "axes");
    }
  } else {
    na = attr_ints(m, "axes", axes, MAX_DIMS);
  }
  if (na <= 0) {
    if (na == 0 && attr_i(m, "noop_with_empty_axes", 0)) {
      reshape_act(m, r, x->dims);
      return;
    }
    na = r;
    for (int d = 0; d < r; d++)
      axes[d] = d;
  }
  bool keep = attr_i(m, "keepdims", 1) != 0;
  bool red[MAX_DIMS] = {false};
  for (int k = 0; k < na; k++)
    red[resolve(m, axes[k], r, "axis")] = true;
  int l = keep ? pref(x) : L_ONNX;
  int32_t ax[MAX_DIMS];
  int nax = 0;
  int64_t od[MAX_DIMS];
  int no = 0;
  for (int d = 0; d < r; d++) {
    if (red[d])
      ax[nax++] = l == L_NHWC ? nhwc_axis(d) : d;
    if (!red[d] || keep)
      od[no++] = red[d] ? 1 : x->dims[d];
  }
  int ins[2] = {ir(m, x, l), const_i32(m, ax, nax)};
  int out = act_out(m, 0, x->dt, no, od, l, NULL);
  int o = add_op(m, kind, ins, 2, &out, 1);
  OP(m, o)->opt.fields = OPTF_KEEP_DIMS;
  OP(m, o)->opt.keep_dims = keep;
}

/* ArgMax, ArgMin: ARG_MAX / ARG_MIN (the first extreme index, int64).
 * select_last_index = 1: the last one is n - 1 minus the first one of x
 * reversed along the axis - REVERSE_V2 first, then a GATHER from the
 * table {n - 1, ..., 0}. */
static void import_arg(Imp *m, OpKind kind) {
  Val *x = act_in(m, 0);
  int r = x->ndims;
  int64_t axis = resolve(m, attr_i(m, "axis", 0), r, "axis");
  bool keep = attr_i(m, "keepdims", 1) != 0;
  bool last = attr_i(m, "select_last_index", 0) != 0;
  int32_t ax = (int32_t)axis;
  int64_t od[MAX_DIMS], kd[MAX_DIMS];
  int no = 0;
  for (int d = 0; d < r; d++) {
    if (d != axis)
      od[no++] = x->dims[d];
    kd[d] = d == axis ? 1 : x->dims[d];
  }
  int src = ir(m, x, L_ONNX);
  if (last) {
    int rv = new_tensor(m, "", x->dt, r, x->dims);
    int rins[2] = {src, const_i32(m, &ax, 1)};
    add_op(m, OP_REVERSE_V2, rins, 2, &rv, 1);
    src = rv;
  }
  int ins[2] = {src, const_i32(m, &ax, 1)};
  int t;
  if (keep || last) {
    t = new_tensor(m, "", DT_INT64, no, od);
  } else {
    t = act_out(m, 0, DT_INT64, no, od, L_ONNX, NULL);
  }
  int o = add_op(m, kind, ins, 2, &t, 1);
  OP(m, o)->opt.fields = OPTF_OUT_TYPE;
  OP(m, o)->opt.out_type = DT_INT64;
  if (last) {
    int64_t n = x->dims[axis];
    int64_t *tab = arena_array((size_t)n, sizeof(int64_t));
    for (int64_t k = 0; k < n; k++)
      tab[k] = n - 1 - k;
    int g = keep ? new_tensor(m, "", DT_INT64, no, od)
                 : act_out(m, 0, DT_INT64, no, od, L_ONNX, NULL);
    int gins[2] = {const_tensor(m, "", DT_INT64, 1, &n, tab), t};
    int k = add_op(m, OP_GATHER, gins, 2, &g, 1);
    OP(m, k)->opt.fields = OPTF_AXIS | OPTF_BATCH_DIMS;
    OP(m, k)->opt.axis = 0;
    t = g;
  }
  if (keep) {
    Val *v = new_val(m, m->n->outputs[0], DT_INT64, r, kd);
    v->t[L_ONNX] = reshape_to(m, t, v->name, r, kd);
    bind(m, m->n->outputs[0], v);
  }
}

/* TFLite's RESIZE_NEAREST_NEIGHBOR source index of output i. */
static int64_t tflite_nearest(int64_t i, int64_t in, int64_t out, bool align, bool half) {
  float scale = align && out > 1 ? (float)(in - 1) / (float)(out - 1) : (float)in / (float)out;
  float v = ((float)i + (half ? 0.5f : 0.0f)) * scale;
  int64_t r = align ? (int64_t)roundf(v) : (int64_t)floorf(v);
  r = r < in - 1 ? r : in - 1;
  return half && r < 0 ? 0 : r;
}

/* ONNX Resize (nearest) source index of output i: the coordinate
 * transformation, then nearest_mode, clamped to the input. */
static int64_t onnx_nearest(Imp *m, int64_t i, int64_t in, int64_t out, double scale,
                            const char *ctm, const char *nm) {
  double x;
  if (!strcmp(ctm, "half_pixel"))
    x = ((double)i + 0.5) / scale - 0.5;
  else if (!strcmp(ctm, "pytorch_half_pixel"))
    x = out > 1 ? ((double)i + 0.5) / scale - 0.5 : 0;
  else if (!strcmp(ctm, "align_corners"))
    x = out > 1 ? (double)i * (double)(in - 1) / (double)(out - 1) : 0;
  else if (!strcmp(ctm, "asymmetric"))
    x = (double)i / scale;
  else if (!strcmp(ctm, "tf_half_pixel_for_nn"))
    x = ((double)i + 0.5) / scale;
  else
    FAIL("nearest resize with coordinate_transformation_mode %s is not supported", ctm);
  double f = floor(x), r;
  if (!strcmp(nm, "floor"))
    r = f;
  else if (!strcmp(nm, "ceil"))
    r = ceil(x);
  else if (!strcmp(nm, "round_prefer_floor"))
    r = x - f == 0.5 ? f : floor(x + 0.5);
  else if (!strcmp(nm, "round_prefer_ceil"))
    r = x - f == 0.5 ? f + 1 : floor(x + 0.5);
  else
    FAIL("nearest_mode %s is not supported", nm);
  return r < 0 ? 0 : r > (double)(in - 1) ? in - 1 : (int64_t)r;
}

/* ------------------------------------------------ Resize by tap tables */

#define MAX_TAPS 64

/* Source coordinate of output index x along an axis of `in` pixels
 * resized to out (output_width = scale * in, as ONNX's reference). */
static double resize_coord(Imp *m, int64_t x, int64_t in, int64_t out, double scale,
                           const char *ctm, const double *roi) {
  double ow = scale * (double)in, xd = (double)x;
  if (!strcmp(ctm, "tf_crop_and_resize"))
    return out > 1 ? roi[0] * (double)(in - 1) +
                         xd * (roi[1] - roi[0]) * (double)(in - 1) / (double)(out - 1)
                   : 0.5 * (roi[0] + roi[1]) * (double)(in - 1);
  if (!strcmp(ctm, "align_corners"))
    return ow == 1 ? 0 : xd * (double)(in - 1) / (ow - 1);
  if (!strcmp(ctm, "asymmetric"))
    return xd / scale;
  if (!strcmp(ctm, "pytorch_half_pixel"))
    return ow == 1 ? -0.5 : (xd + 0.5) / scale - 0.5;
  if (!strcmp(ctm, "half_pixel"))
    return (xd + 0.5) / scale - 0.5;
  if (!strcmp(ctm, "half_pixel_symmetric")) {
    double adjustment = (double)out / ow, center = (double)in / 2;
    return center * (1 - adjustment) + (xd + 0.5) / scale - 0.5;
  }
  FAIL("resize with coordinate_transformation_mode %s is not supported", ctm);
}

static double cubic_weight(double x, double a) {
  x = fabs(x);
  if (x <= 1)
    return ((a + 2) * x - (a + 3)) * x * x + 1;
  if (x < 2)
    return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a;
  return 0;
}

/* ONNX's coefficients for the fraction `ratio` in (0, 1] of a source
 * coordinate; returns their count. */
static int resize_coeffs(Imp *m, double ratio, bool whole, double scale, const char *mode,
                         const char *nm, double a, bool antialias, double *c) {
  if (!strcmp(mode, "nearest")) {
    bool hi = whole ? true
            : !strcmp(nm, "round_prefer_floor") ? ratio > 0.5
            : !strcmp(nm, "round_prefer_ceil") ? ratio >= 0.5
            : !strcmp(nm, "ceil") ? true
            : !strcmp(nm, "floor") ? false
            : (FAIL("nearest_mode %s is not supported", nm), false);
    c[0] = hi ? 0 : 1, c[1] = hi ? 1 : 0;
    return 2;
  }
  bool cubic = !strcmp(mode, "cubic");
  if (!antialias) {
    if (!cubic) {
      c[0] = 1 - ratio, c[1] = ratio;
      return 2;
    }
    c[0] = cubic_weight(ratio + 1, a), c[1] = cubic_weight(ratio, a);
    c[2] = cubic_weight(1 - ratio, a), c[3] = cubic_weight(2 - ratio, a);
    return 4;
  }
  /* Antialias (downsampling): the kernel stretched by 1 / scale. */
  double s = scale < 1 ? scale : 1, sum = 0;
  int start = (int)floor((cubic ? -2 : -1) / s) + 1, n = 2 - 2 * start;
  if (n > MAX_TAPS)
    FAIL("antialias at scale %g needs %d taps (at most %d)", scale, n, MAX_TAPS);
  for (int i = 0; i < n; i++) {
    double arg = s * ((double)(start + i) - ratio);
    c[i] = cubic ? cubic_weight(arg, a) : (fabs(arg) < 1 ? 1 - fabs(arg) : 0);
    sum += c[i];
  }
  for (int i = 0; i < n; i++)
    c[i] /= sum;
  return n;
}

/* One axis's tables: per output index the n source indices ONNX's
 * reference reads (the n nearest to the coordinate within the input
 * padded by ceil(n / 2) edge pixels, ties to the smaller index), clamped,
 * and their weights (exclude_outside: those outside set to 0, the rest
 * renormalized).  tf_crop_and_resize: an output index whose coordinate
 * falls outside the input (roi = its start and end) gets indices -1, the
 * kernel's mark for the extrapolation value.  Returns the tap count. */
static int resize_axis(Imp *m, int64_t in, int64_t out, double scale, const char *mode,
                       const char *ctm, const char *nm, double a, bool exclude,
                       bool antialias, const double *roi, int32_t **idx, float **w) {
  int n = 0;
  bool crop = !strcmp(ctm, "tf_crop_and_resize");
  for (int64_t o = 0; o < out; o++) {
    double x = resize_coord(m, o, in, out, scale, ctm, roi), c[MAX_TAPS];
    double f = floor(x);
    bool whole = x == f;
    int k = resize_coeffs(m, whole ? 1 : x - f, whole, scale, mode, nm, a, antialias, c);
    if (o == 0) {
      n = k;
      *idx = arena_array((size_t)(out * n), sizeof(int32_t));
      *w = arena_array((size_t)(out * n), sizeof(float));
    }
    int64_t pad = (n + 1) / 2, pick[MAX_TAPS];
    int got = 0;
    for (int64_t j = -pad; j < in + pad; j++) {
      /* Insert j among the n nearest so far, ordered by (distance, index). */
      double dj = fabs(x - (double)j);
      int at = got;
      while (at > 0 && fabs(x - (double)pick[at - 1]) > dj)
        at--;
      if (at >= n)
        continue;
      for (int q = (got < n ? got : n - 1); q > at; q--)
        pick[q] = pick[q - 1];
      pick[at] = j;
      if (got < n)
        got++;
    }
    for (int i = 1; i < n; i++) /* ascending index order */
      for (int q = i; q > 0 && pick[q - 1] > pick[q]; q--) {
        int64_t t = pick[q];
        pick[q] = pick[q - 1], pick[q - 1] = t;
      }
    if (exclude) {
      double sum = 0;
      for (int i = 0; i < n; i++) {
        if (pick[i] < 0 || pick[i] >= in)
          c[i] = 0;
        sum += c[i];
      }
      for (int i = 0; i < n; i++)
        c[i] /= sum;
    }
    bool outside = crop && (x < 0 || x > (double)(in - 1));
    for (int i = 0; i < n; i++) {
      int64_t j = pick[i] < 0 ? 0 : pick[i] >= in ? in - 1 : pick[i];
      (*idx)[o * n + i] = outside ? -1 : (int32_t)j;
      (*w)[o * n + i] = outside ? 0.0f : (float)c[i];
    }
  }
  return n;
}

/* Resize of H and W by RESIZE_TAPS (what TFLite's resizes cannot
 * express): scales sc[2], sc[3] as the reference's scale_factors. */
static void resize_taps(Imp *m, Val *x, const int64_t *out, const double *sc, const char *mode,
                        const char *ctm, const char *nm, bool antialias, const double *roi) {
  double a = attr_f(m, "cubic_coeff_a", -0.75f);
  bool exclude = attr_i(m, "exclude_outside", 0) != 0;
  int32_t *yi, *xi;
  float *yw, *xw;
  int th = resize_axis(m, x->dims[2], out[2], sc[2], mode, ctm, nm, a, exclude, antialias,
                       roi + 4, &yi, &yw);
  int tw = resize_axis(m, x->dims[3], out[3], sc[3], mode, ctm, nm, a, exclude, antialias,
                       roi + 6, &xi, &xw);
  int64_t yd[2] = {out[2], th}, xd[2] = {out[3], tw};
  int ins[5] = {ir(m, x, L_NHWC), const_tensor(m, "", DT_INT32, 2, yd, yi),
                f32_tensor(m, "", 2, yd, yw), const_tensor(m, "", DT_INT32, 2, xd, xi),
                f32_tensor(m, "", 2, xd, xw)};
  int64_t od[4] = {out[0], out[1], out[2], out[3]};
  int t = act_out(m, 0, DT_FLOAT32, 4, od, L_NHWC, NULL);
  int o = add_op(m, OP_RESIZE_TAPS, ins, 5, &t, 1);
  if (!strcmp(ctm, "tf_crop_and_resize")) {
    Attr *e = arena_array(1, sizeof(Attr));
    e->key = "extrapolation_value";
    e->kind = ATTR_FLOAT;
    e->f = attr_f(m, "extrapolation_value", 0.0f);
    OP(m, o)->attrs = e;
    OP(m, o)->nattrs = 1;
  }
}

static void import_resize(Imp *m) {
  Val *x = act4(m, 0);
  need_f32(m, x);
  const char *mode = attr_s(m, "mode", "nearest");
  const char *ctm = attr_s(m, "coordinate_transformation_mode", "half_pixel");
  const char *nm = attr_s(m, "nearest_mode", "round_prefer_floor");
  bool upsample = !strcmp(m->n->op_type, "Upsample");
  if (upsample)
    ctm = "asymmetric", nm = "floor";
  bool antialias = attr_i(m, "antialias", 0) != 0;
  if (antialias && !strcmp(mode, "nearest"))
    FAIL("antialias is not supported in nearest mode");
  const char *policy = attr_s(m, "keep_aspect_ratio_policy", "stretch");
  bool keep_aspect = strcmp(policy, "stretch") != 0;
  if (keep_aspect && strcmp(policy, "not_larger") && strcmp(policy, "not_smaller"))
    FAIL("keep_aspect_ratio_policy %s is not supported", policy);
  /* Whatever TFLite's resizes cannot express goes to RESIZE_TAPS. */
  bool taps = antialias || keep_aspect || !strcmp(mode, "cubic");
  /* axes (opset 18): scales/sizes for these axes only; the rest keep. */
  int64_t axes[4] = {0, 1, 2, 3};
  int naxes = attr_ints(m, "axes", axes, 4);
  if (naxes < 0)
    naxes = 4;
  for (int k = 0; k < naxes; k++)
    axes[k] = resolve(m, axes[k], 4, "axis");
  Val *scales = upsample ? in(m, 1) : in(m, 2), *sizes = upsample ? NULL : in(m, 3);
  if (m->x->opset < 11 && !upsample)
    scales = in(m, 1);
  int64_t out[4];
  double sc[4] = {1, 1, 1, 1};
  for (int d = 0; d < 4; d++)
    out[d] = x->dims[d];
  if (sizes && val_elems(sizes) > 0) {
    if (!sizes->data)
      FAIL("sizes must be constant");
    int64_t v[4];
    if (const_list(m, sizes, v, 4, "sizes") != naxes)
      FAIL("sizes must have %d entries", naxes);
    for (int k = 0; k < naxes; k++)
      out[axes[k]] = v[k];
    for (int d = 0; d < 4; d++)
      sc[d] = (double)out[d] / (double)x->dims[d];
    if (keep_aspect) {
      /* One scale for the axes (the smallest or largest), sizes rounded
       * half up, as ONNX's reference. */
      double s = sc[axes[0]];
      for (int k = 1; k < naxes; k++)
        s = !strcmp(policy, "not_larger") ? fmin(s, sc[axes[k]]) : fmax(s, sc[axes[k]]);
      for (int k = 0; k < naxes; k++) {
        sc[axes[k]] = s;
        out[axes[k]] = (int64_t)(s * (double)x->dims[axes[k]] + 0.5);
      }
    }
  } else if (scales && val_elems(scales) > 0) {
    if (!scales->data)
      FAIL("scales must be constant");
    if (val_elems(scales) != naxes)
      FAIL("scales must have %d entries", naxes);
    for (int k = 0; k < naxes; k++) {
      int64_t d = axes[k];
      sc[d] = (float)cget_d(scales, k);
      double o = floor((double)x->dims[d] * sc[d]);
      if (!(o >= 1 && o <= INT32_MAX))
        FAIL("scale %g gives an empty or huge output", sc[d]);
      out[d] = (int64_t)o;
    }
  } else {
    FAIL("neither scales nor sizes given");
  }
  if (out[0] != x->dims[0] || out[1] != x->dims[1])
    FAIL("resizing the batch or channel dimension is not supported");
  for (int d = 2; d < 4; d++)
    if (out[d] < 1 || out[d] > INT32_MAX)
      FAIL("output size %lld is not supported", (long long)out[d]);
  /* tf_crop_and_resize: per axis the crop's start and end as fractions
   * of the input (roi: the starts, then the ends, of every axis or of
   * `axes`), 4 pairs from roi[0]. */
  double roi[8] = {0, 1, 0, 1, 0, 1, 0, 1};
  if (!strcmp(ctm, "tf_crop_and_resize")) {
    Val *r = in(m, 1);
    if (!r || !r->data)
      FAIL("tf_crop_and_resize needs a constant roi (input 1)");
    if (val_elems(r) != 2 * naxes)
      FAIL("roi must have %d entries", 2 * naxes);
    for (int k = 0; k < naxes; k++) {
      roi[2 * axes[k]] = cget_d(r, k);
      roi[2 * axes[k] + 1] = cget_d(r, naxes + k);
    }
    if (roi[0] != 0 || roi[1] != 1 || roi[2] != 0 || roi[3] != 1)
      FAIL("cropping the batch or channel dimension is not supported");
    if (!strcmp(mode, "linear") || !strcmp(mode, "bilinear"))
      taps = true;
  }
  if (!strcmp(mode, "cubic") || (taps && (!strcmp(mode, "linear") || !strcmp(mode, "bilinear")))) {
    resize_taps(m, x, out, sc, !strcmp(mode, "cubic") ? "cubic" : "linear", ctm, nm, antialias,
                roi);
    return;
  }
  bool align = false, half = false;
  OpKind kind;
  if (!strcmp(mode, "nearest")) {
    /* Whichever TFLite flags give exactly ONNX's source indices. */
    kind = OP_RESIZE_NEAREST_NEIGHBOR;
    static const bool flags[3][2] = {{false, false}, {false, true}, {true, false}};
    int found = -1;
    for (int f = 0; f < 3 && found < 0; f++) {
      bool same = true;
      for (int d = 2; d < 4 && same; d++)
        for (int64_t i = 0; i < out[d] && same; i++)
          same = tflite_nearest(i, x->dims[d], out[d], flags[f][0], flags[f][1]) ==
                 onnx_nearest(m, i, x->dims[d], out[d], sc[d], ctm, nm);
      if (same)
        found = f;
    }
    if (found < 0 || keep_aspect) {
      if (!strcmp(ctm, "tf_half_pixel_for_nn") || !strcmp(ctm, "tf_crop_and_resize"))
        FAIL("nearest resize with coordinate_transformation_mode %s and nearest_mode %s picks "
             "source pixels no TFLite RESIZE_NEAREST_NEIGHBOR mode picks", ctm, nm);
      resize_taps(m, x, out, sc, "nearest", ctm, nm, false, roi);
      return;
    }
    align = flags[found][0];
    half = flags[found][1];
  } else if (!strcmp(mode, "linear") || !strcmp(mode, "bilinear")) {
    kind = OP_RESIZE_BILINEAR;
    if (!strcmp(ctm, "half_pixel") ||
        (!strcmp(ctm, "pytorch_half_pixel") && out[2] > 1 && out[3] > 1))
      half = true;
    else if (!strcmp(ctm, "align_corners"))
      align = true;
    else if (strcmp(ctm, "asymmetric"))
      taps = true;
    for (int d = 2; d < 4 && !sizes; d++)
      if (fabs(sc[d] - (double)out[d] / (double)x->dims[d]) > 1e-6 * sc[d])
        taps = true;
    if (taps) {
      resize_taps(m, x, out, sc, "linear", ctm, nm, false, roi);
      return;
    }
  } else {
    FAIL("resize mode %s is not supported", mode);
  }
  int32_t hw[2] = {(int32_t)out[2], (int32_t)out[3]};
  int ins[2] = {ir(m, x, L_NHWC), const_i32(m, hw, 2)};
  int64_t od[4] = {out[0], out[1], out[2], out[3]};
  int t = act_out(m, 0, DT_FLOAT32, 4, od, L_NHWC, NULL);
  int o = add_op(m, kind, ins, 2, &t, 1);
  OP(m, o)->opt.fields = OPTF_RESIZE;
  OP(m, o)->opt.align_corners = align;
  OP(m, o)->opt.half_pixel_centers = half;
}

/* LSTM (forward, one direction) -> UNIDIRECTIONAL_SEQUENCE_LSTM.  ONNX
 * gate blocks are i, o, f, c; TFLite's inputs are i, f, c, o.  The
 * states are variable tensors starting at 0: ONNX's semantics (every run
 * starts from initial_h = 0) hold for a runner reset before each run
 * (<prefix>_reset()). */
static void import_lstm(Imp *m) {
  Val *x = act_in(m, 0);
  need_f32(m, x);
  Val *W = need_const(m, 1, "W"), *R = need_const(m, 2, "R"), *B = in(m, 3);
  if (in(m, 4) && !in(m, 4)->data)
    FAIL("sequence_lens must be constant");
  for (int k = 5; k <= 6; k++) {
    Val *s = in(m, k);
    if (!s)
      continue;
    if (!s->data)
      FAIL("initial_h/initial_c must be absent or constant zeros");
    for (int64_t e = 0; e < val_elems(s); e++)
      if (cget_d(s, e) != 0)
        FAIL("initial_h/initial_c must be zeros");
  }
  Val *P = in(m, 7);
  if (P && !P->data)
    FAIL("peepholes (input P) must be constant");
  if (strcmp(attr_s(m, "direction", "forward"), "forward"))
    FAIL("direction %s is not supported (forward only)", attr_s(m, "direction", ""));
  if (attr(m, "clip"))
    FAIL("clip is not supported");
  if (attr_i(m, "input_forget", 0))
    FAIL("input_forget is not supported");
  const OAttr *acts = attr(m, "activations");
  if (acts)
    FAIL("activations other than the defaults are not supported");
  int layout = (int)attr_i(m, "layout", 0);
  if (x->ndims != 3)
    FAIL("X must have rank 3");
  int64_t H = attr_i(m, "hidden_size", W->dims[1] / 4);
  int64_t I = x->dims[2];
  int64_t seq = layout ? x->dims[1] : x->dims[0], batch = layout ? x->dims[0] : x->dims[1];
  if (W->ndims != 3 || W->dims[0] != 1 || W->dims[1] != 4 * H || W->dims[2] != I)
    FAIL("W must be [1, %lld, %lld]", (long long)(4 * H), (long long)I);
  if (R->ndims != 3 || R->dims[0] != 1 || R->dims[1] != 4 * H || R->dims[2] != H)
    FAIL("R must be [1, %lld, %lld]", (long long)(4 * H), (long long)H);
  if (B && (!B->data || val_elems(B) != 8 * H))
    FAIL("B must be a constant of %lld values", (long long)(8 * H));
  if (m->n->noutputs > 2 && m->n->outputs[2][0] && uses_of(m, m->n->outputs[2]))
    FAIL("the Y_c output is not supported");
  static const int gate[4] = {0, 2, 3, 1}; /* TFLite gate g <- ONNX block */
  int ins[24];
  for (int k = 0; k < 24; k++)
    ins[k] = -1;
  ins[0] = ir(m, x, L_ONNX);
  const float *wf = floats_of(m, W), *rf = floats_of(m, R), *bf = B ? floats_of(m, B) : NULL;
  for (int g = 0; g < 4; g++) {
    int64_t blk = gate[g];
    int64_t wd[2] = {H, I}, rd[2] = {H, H};
    ins[1 + g] = f32_tensor(m, "", 2, wd, wf + blk * H * I);
    ins[5 + g] = f32_tensor(m, "", 2, rd, rf + blk * H * H);
    float *bias = arena_array((size_t)H, sizeof(float));
    for (int64_t h = 0; bf && h < H; h++)
      bias[h] = bf[blk * H + h] + bf[4 * H + blk * H + h];
    ins[12 + g] = f32_tensor(m, "", 1, &H, bias);
  }
  /* P: [1, 3H] in ONNX's order input, output, forget; TFLite's inputs
   * 9..11 are cell_to_input, cell_to_forget, cell_to_output. */
  if (P) {
    if (val_elems(P) != 3 * H)
      FAIL("P must have %lld values", (long long)(3 * H));
    const float *pf = floats_of(m, P);
    static const int peep[3] = {0, 2, 1}; /* TFLite peephole k <- ONNX block */
    for (int k = 0; k < 3; k++)
      ins[9 + k] = f32_tensor(m, "", 1, &H, pf + peep[k] * H);
  }
  int64_t sd[2] = {batch, H};
  for (int k = 0; k < 2; k++) {
    int t = new_tensor(m, arena_printf("%s:%s", m->n->outputs[0][0] ? m->n->outputs[0] : "lstm",
                                       k ? "cell" : "hidden"), DT_FLOAT32, 2, sd);
    T(m, t)->is_variable = true;
    ins[18 + k] = t;
  }
  int64_t yd[3] = {x->dims[0], x->dims[1], H};
  int y = new_tensor(m, "", DT_FLOAT32, 3, yd);
  int o = add_op(m, OP_UNIDIRECTIONAL_SEQUENCE_LSTM, ins, 24, &y, 1);
  Options *opt = &OP(m, o)->opt;
  opt->fields = OPTF_LSTM | OPTF_ACTIVATION;
  opt->activation = ACT_TANH;
  opt->time_major = layout == 0;
  /* Y: [seq, 1, batch, H] (layout 0) or [batch, seq, 1, H]. */
  if (m->n->noutputs > 0 && m->n->outputs[0][0]) {
    int64_t Y[4] = {seq, 1, batch, H};
    if (layout)
      Y[0] = batch, Y[1] = seq, Y[2] = 1;
    Val *v = new_val(m, m->n->outputs[0], DT_FLOAT32, 4, Y);
    v->t[L_ONNX] = reshape_to(m, y, v->name, 4, Y);
    bind(m, m->n->outputs[0], v);
  }
  /* Y_h: the last step, [1, batch, H] (layout 1: [batch, 1, H]). */
  if (m->n->noutputs > 1 && m->n->outputs[1][0]) {
    int32_t b[3] = {0, 0, 0}, e[3] = {(int32_t)yd[0], (int32_t)yd[1], (int32_t)H},
            st[3] = {1, 1, 1};
    b[layout ? 1 : 0] = (int32_t)seq - 1;
    int sl[4] = {y, const_i32(m, b, 3), const_i32(m, e, 3), const_i32(m, st, 3)};
    int64_t hd[3] = {layout ? batch : 1, layout ? 1 : batch, H};
    int t = act_out(m, 1, DT_FLOAT32, 3, hd, L_ONNX, NULL);
    int so = add_op(m, OP_STRIDED_SLICE, sl, 4, &t, 1);
    OP(m, so)->opt.fields = OPTF_SLICE_MASKS;
  }
}

/* -------------------------------------------------------- the table */

/* ------------------------------------------------- more element-wise ops */

/* A float32-only unary node onto kind (Log, Ceil, Round: ONNX defines
 * them for floating-point types only). */
static void unary_f32(Imp *m, OpKind kind) {
  need_f32(m, act_in(m, 0));
  activation(m, kind, ACT_NONE);
}

/* IR tensor t widened to int32 by a CAST when it is int8, uint8 or int16
 * (whose comparison kernels compare quantized values); others as they
 * are. */
static int widen_i32(Imp *m, int t) {
  DType dt = T(m, t)->dtype;
  if (dt != DT_INT8 && dt != DT_UINT8 && dt != DT_INT16)
    return t;
  int64_t dims[MAX_DIMS];
  for (int d = 0; d < T(m, t)->ndims; d++)
    dims[d] = T(m, t)->dims[d];
  int o = new_tensor(m, "", DT_INT32, T(m, t)->ndims, dims);
  int k = add_op(m, OP_CAST, &t, 1, &o, 1);
  OP(m, k)->opt.fields = OPTF_CAST;
  OP(m, k)->opt.in_dtype = dt;
  OP(m, k)->opt.out_dtype = DT_INT32;
  return o;
}

/* Equal, Less, Greater, LessOrEqual, GreaterOrEqual (bool output), And,
 * Or (bool inputs): broadcasting binary ops; 8- and 16-bit integers are
 * compared as int32, which is exact. */
static void compare_op(Imp *m, OpKind kind) {
  Val *a = act_in(m, 0), *b = act_in(m, 1);
  int64_t dims[MAX_DIMS];
  int n;
  if (!bcast(a->dims, a->ndims, b->dims, b->ndims, dims, &n))
    FAIL("shapes of '%s' and '%s' do not broadcast", a->name, b->name);
  if (a->dt != b->dt)
    FAIL("inputs of types %s and %s", dtype_name(a->dt), dtype_name(b->dt));
  bool logical = kind == OP_LOGICAL_AND || kind == OP_LOGICAL_OR;
  if (logical != (a->dt == DT_BOOL) && !(kind == OP_EQUAL && a->dt == DT_BOOL))
    FAIL("inputs of type %s are not supported", dtype_name(a->dt));
  int l = common_layout(m, n, 0, 2);
  int ins[2] = {widen_i32(m, as_layout(m, a, l, n)), widen_i32(m, as_layout(m, b, l, n))};
  int out = act_out(m, 0, DT_BOOL, n, dims, l, NULL);
  add_op(m, kind, ins, 2, &out, 1);
}

static void import_not(Imp *m) {
  Val *x = act_in(m, 0);
  if (x->dt != DT_BOOL)
    FAIL("input of type %s; Not takes bool", dtype_name(x->dt));
  activation(m, OP_LOGICAL_NOT, ACT_NONE);
}

/* Where(condition, X, Y): SELECT_V2, broadcasting all three (8-, 16-,
 * 32- and 64-bit values). */
static void import_where(Imp *m) {
  Val *c = act_in(m, 0), *x = act_in(m, 1), *y = act_in(m, 2);
  if (c->dt != DT_BOOL)
    FAIL("the condition has type %s, not bool", dtype_name(c->dt));
  if (x->dt != y->dt)
    FAIL("inputs of types %s and %s", dtype_name(x->dt), dtype_name(y->dt));
  if (dtype_bits(x->dt) != 8 && dtype_bits(x->dt) != 16 && dtype_bits(x->dt) != 32 &&
      dtype_bits(x->dt) != 64)
    FAIL("values of type %s are not supported (8-, 16-, 32- and 64-bit types only)",
         dtype_name(x->dt));
  int64_t d1[MAX_DIMS], dims[MAX_DIMS];
  int n1, n;
  if (!bcast(c->dims, c->ndims, x->dims, x->ndims, d1, &n1) ||
      !bcast(d1, n1, y->dims, y->ndims, dims, &n))
    FAIL("shapes of '%s', '%s' and '%s' do not broadcast", c->name, x->name, y->name);
  int l = common_layout(m, n, 0, 3);
  int ins[3] = {as_layout(m, c, l, n), as_layout(m, x, l, n), as_layout(m, y, l, n)};
  int out = act_out(m, 0, x->dt, n, dims, l, NULL);
  add_op(m, OP_SELECT_V2, ins, 3, &out, 1);
}

/* Elu (alpha), Selu (alpha, gamma) as
 *   gamma relu(x) + gamma alpha min(elu(x), 0)
 * where elu is the kernel's expm1(x) below 0, x above; a single ELU when
 * alpha = gamma = 1. */
static void import_elu(Imp *m, bool selu) {
  Val *x = act_in(m, 0);
  need_f32(m, x);
  float alpha = attr_f(m, "alpha", selu ? 1.67326319217681884765625f : 1.0f);
  float gamma = selu ? attr_f(m, "gamma", 1.05070102214813232421875f) : 1.0f;
  if (alpha == 1.0f && gamma == 1.0f) {
    activation(m, OP_ELU, ACT_NONE);
    return;
  }
  int l = pref(x);
  int t = ir(m, x, l);
  int64_t dims[MAX_DIMS];
  for (int d = 0; d < T(m, t)->ndims; d++)
    dims[d] = T(m, t)->dims[d];
  int e = new_tensor(m, "", DT_FLOAT32, T(m, t)->ndims, dims);
  add_op(m, OP_ELU, &t, 1, &e, 1);
  int neg = scalar_op(m, OP_MINIMUM, e, 0.0f, "");
  int negs = scalar_op(m, OP_MUL, neg, gamma * alpha, "");
  int pos = new_tensor(m, "", DT_FLOAT32, T(m, t)->ndims, dims);
  add_op(m, OP_RELU, &t, 1, &pos, 1);
  if (gamma != 1.0f)
    pos = scalar_op(m, OP_MUL, pos, gamma, "");
  int out = act_out(m, 0, DT_FLOAT32, x->ndims, x->dims, l, NULL);
  int ins[2] = {pos, negs};
  add_op(m, OP_ADD, ins, 2, &out, 1);
}

/* Softplus: log(exp(x) + 1), as ONNX's reference computes it. */
static void import_softplus(Imp *m) {
  Val *x = act_in(m, 0);
  need_f32(m, x);
  int l = pref(x);
  int t = ir(m, x, l);
  int64_t dims[MAX_DIMS];
  for (int d = 0; d < T(m, t)->ndims; d++)
    dims[d] = T(m, t)->dims[d];
  int e = new_tensor(m, "", DT_FLOAT32, T(m, t)->ndims, dims);
  add_op(m, OP_EXP, &t, 1, &e, 1);
  int e1 = scalar_op(m, OP_ADD, e, 1.0f, "");
  int out = act_out(m, 0, DT_FLOAT32, x->ndims, x->dims, l, NULL);
  add_op(m, OP_LOG, &e1, 1, &out, 1);
}

/* ------------------------------------------------- data movement */

/* Tile with constant repeats: TILE in the model's layout. */
static void import_tile(Imp *m) {
  Val *x = act_in(m, 0), *rp = need_const(m, 1, "repeats");
  int r = x->ndims;
  int64_t rep[MAX_DIMS], od[MAX_DIMS];
  if (const_list(m, rp, rep, MAX_DIMS, "repeats") != r)
    FAIL("repeats has %lld values for an input of rank %d", (long long)val_elems(rp), r);
  int32_t mult[MAX_DIMS];
  for (int d = 0; d < r; d++) {
    if (rep[d] < 1 || rep[d] > INT32_MAX / (x->dims[d] ? x->dims[d] : 1))
      FAIL("repeats[%d] = %lld is not supported (1 or more)", d, (long long)rep[d]);
    mult[d] = (int32_t)rep[d];
    od[d] = x->dims[d] * rep[d];
  }
  int ins[2] = {ir(m, x, L_ONNX), const_i32(m, mult, r)};
  int out = act_out(m, 0, x->dt, r, od, L_ONNX, NULL);
  add_op(m, OP_TILE, ins, 2, &out, 1);
}

/* Expand of an activation: BROADCAST_TO in the model's layout. */
static void import_expand(Imp *m) {
  Val *x = act_in(m, 0), *s = need_const(m, 1, "shape");
  int64_t want[MAX_DIMS], dims[MAX_DIMS];
  int nw = const_list(m, s, want, MAX_DIMS, "the shape"), n;
  if (!bcast(x->dims, x->ndims, want, nw, dims, &n))
    FAIL("the shape does not broadcast");
  if (n == x->ndims && !memcmp(dims, x->dims, (size_t)n * sizeof(int64_t))) {
    bind(m, m->n->outputs[0], x);
    return;
  }
  int32_t d32[MAX_DIMS];
  for (int d = 0; d < n; d++)
    d32[d] = dim32(m, dims[d]);
  int ins[2] = {ir(m, x, L_ONNX), const_i32(m, d32, n)};
  int out = act_out(m, 0, x->dt, n, dims, L_ONNX, NULL);
  add_op(m, OP_BROADCAST_TO, ins, 2, &out, 1);
}

/* DepthToSpace (DCR: TFLite's DEPTH_TO_SPACE in NHWC; CRD: the channels
 * first gathered into DCR order) and SpaceToDepth (TFLite's
 * SPACE_TO_DEPTH). */
static void import_block_shuffle(Imp *m, bool to_space) {
  Val *x = act4(m, 0);
  int64_t b = attr_i(m, "blocksize", 0);
  const int64_t *xd = x->dims;
  if (b < 1 || b > 4096)
    FAIL("blocksize %lld is not supported", (long long)b);
  int64_t od[4] = {xd[0], 0, 0, 0};
  if (to_space) {
    if (xd[1] % (b * b))
      FAIL("%lld channels are not a multiple of blocksize^2", (long long)xd[1]);
    od[1] = xd[1] / (b * b), od[2] = xd[2] * b, od[3] = xd[3] * b;
  } else {
    if (xd[2] % b || xd[3] % b)
      FAIL("height and width must be multiples of blocksize %lld", (long long)b);
    od[1] = xd[1] * b * b, od[2] = xd[2] / b, od[3] = xd[3] / b;
  }
  int t = ir(m, x, L_NHWC);
  const char *mode = to_space ? attr_s(m, "mode", "DCR") : "DCR";
  if (strcmp(mode, "DCR") && strcmp(mode, "CRD"))
    FAIL("mode '%s' is not supported", mode);
  if (!strcmp(mode, "CRD")) {
    /* CRD holds (c, i, j) at channel c b^2 + i b + j; DCR at (i b + j) C' + c. */
    int64_t c2 = od[1], nc = xd[1];
    int32_t *iv = arena_array((size_t)nc, sizeof(int32_t));
    for (int64_t c = 0; c < c2; c++)
      for (int64_t ij = 0; ij < b * b; ij++)
        iv[ij * c2 + c] = (int32_t)(c * b * b + ij);
    int64_t nhwc[4] = {xd[0], xd[2], xd[3], xd[1]};
    int g = new_tensor(m, "", x->dt, 4, nhwc);
    int ins[2] = {t, const_tensor(m, "", DT_INT32, 1, &nc, iv)};
    int o = add_op(m, OP_GATHER, ins, 2, &g, 1);
    OP(m, o)->opt.fields = OPTF_AXIS | OPTF_BATCH_DIMS;
    OP(m, o)->opt.axis = 3;
    t = g;
  }
  int out = act_out(m, 0, x->dt, 4, od, L_NHWC, NULL);
  int o = add_op(m, to_space ? OP_DEPTH_TO_SPACE : OP_SPACE_TO_DEPTH, &t, 1, &out, 1);
  OP(m, o)->opt.fields = OPTF_BLOCK_SIZE;
  OP(m, o)->opt.block_size = (int)b;
}

/* ------------------------------------------------- QuantizeLinear, DequantizeLinear */

/* A float32 constant of rank `rank` for a per-tensor (n == 1) or
 * per-axis (n values along `axis`, the model's layout) parameter. */
static int qparam_const(Imp *m, const float *v, int64_t n, int64_t axis, int rank) {
  int64_t dims[MAX_DIMS];
  for (int d = 0; d < rank; d++)
    dims[d] = 1;
  if (n > 1)
    dims[axis] = n;
  return f32_tensor(m, "", rank, dims, v);
}

/* IR tensor t (float32) op constant c, into a new float32 tensor. */
static int f32_binary(Imp *m, OpKind kind, int t, int c) {
  int64_t dims[MAX_DIMS];
  for (int d = 0; d < T(m, t)->ndims; d++)
    dims[d] = T(m, t)->dims[d];
  int out = new_tensor(m, "", DT_FLOAT32, T(m, t)->ndims, dims);
  int ins[2] = {t, c};
  add_op(m, kind, ins, 2, &out, 1);
  return out;
}

/* The scale (input 1) and zero point (input 2) of a Quantize- or
 * DequantizeLinear node as floats: one value, or one per index of the
 * axis (the axis attribute); *dt is the zero point's type (or *dt as
 * given when there is none). */
static int64_t qparams(Imp *m, const Val *x, float **scale, float **zp, DType *dt,
                       int64_t *axis) {
  Val *s = need_const(m, 1, "the scale"), *z = in(m, 2);
  if (s->dt != DT_FLOAT32)
    FAIL("the scale has type %s; only float32 is supported", dtype_name(s->dt));
  if (attr_i(m, "block_size", 0))
    FAIL("blocked quantization (block_size) is not supported");
  if (z && !z->data)
    FAIL("the zero point must be constant");
  int64_t n = val_elems(s);
  if (s->ndims > 1 || n < 1 || (z && val_elems(z) != n))
    FAIL("the scale and zero point must be one value, or one per index of the axis");
  *axis = 0;
  if (n > 1 || s->ndims == 1) {
    *axis = resolve(m, attr_i(m, "axis", 1), x->ndims, "axis");
    if (n > 1 && x->dims[*axis] != n)
      FAIL("%lld scales for an axis of size %lld", (long long)n, (long long)x->dims[*axis]);
  }
  if (z)
    *dt = z->dt;
  *scale = floats_of(m, s);
  *zp = arena_array((size_t)n, sizeof(float));
  for (int64_t k = 0; k < n; k++)
    (*zp)[k] = z ? (float)cget_i(z, k) : 0.0f;
  for (int64_t k = 0; k < n; k++)
    if (!((*scale)[k] > 0.0f) && strcmp(m->n->op_type, "DequantizeLinear"))
      FAIL("scale %g is not positive", (double)(*scale)[k]);
  return n;
}

static Quant quant1(float scale, int64_t zp);

/* QuantizeLinear (int8, uint8, int16, int4, uint4, int2, uint2 outputs): ONNX's
 *   saturate(rint(x / scale) + zero_point)
 * with the division in float32 and halves rounded to even, as
 *   DIV scale, ROUND, ADD zero point, MAXIMUM lo, MINIMUM hi, CAST
 * (each step exact: the rounded value is an integer, adding the zero
 * point to it is exact below 2^24, and anything larger saturates). */
static void import_quantize_linear(Imp *m) {
  Val *x = act_in(m, 0);
  need_f32(m, x);
  DType dt = DT_UINT8;
  int64_t od = attr_i(m, "output_dtype", 0);
  if (od && !onnx_dtype((int)od, &dt))
    FAIL("output_dtype %lld is not supported", (long long)od);
  if (attr_i(m, "saturate", 1) != 1)
    FAIL("saturate = 0 is not supported");
  float *scale, *zp;
  int64_t axis;
  int64_t n = qparams(m, x, &scale, &zp, &dt, &axis);
  float lo, hi;
  if (dt == DT_INT8) lo = -128.0f, hi = 127.0f;
  else if (dt == DT_UINT8) lo = 0.0f, hi = 255.0f;
  else if (dt == DT_INT16) lo = -32768.0f, hi = 32767.0f;
  else if (dt == DT_INT4) lo = -8.0f, hi = 7.0f;
  else if (dt == DT_UINT4) lo = 0.0f, hi = 15.0f;
  else if (dt == DT_INT2) lo = -2.0f, hi = 1.0f;
  else if (dt == DT_UINT2) lo = 0.0f, hi = 3.0f;
  else FAIL("quantizing to %s is not supported (int8, uint8, int16, int4, uint4, int2, uint2)",
            dtype_name(dt));
  int l = n > 1 ? L_ONNX : pref(x);
  int t = ir(m, x, l);
  int r = T(m, t)->ndims;
  t = f32_binary(m, OP_DIV, t, qparam_const(m, scale, n, axis, r));
  int64_t dims[MAX_DIMS];
  for (int d = 0; d < r; d++)
    dims[d] = T(m, t)->dims[d];
  int rd = new_tensor(m, "", DT_FLOAT32, r, dims);
  add_op(m, OP_ROUND, &t, 1, &rd, 1);
  t = f32_binary(m, OP_ADD, rd, qparam_const(m, zp, n, axis, r));
  t = scalar_op(m, OP_MAXIMUM, t, lo, "");
  t = scalar_op(m, OP_MINIMUM, t, hi, "");
  int out = act_out(m, 0, dt, x->ndims, x->dims, l, NULL);
  int o = add_op(m, OP_CAST, &t, 1, &out, 1);
  OP(m, o)->opt.fields = OPTF_CAST;
  OP(m, o)->opt.in_dtype = DT_FLOAT32;
  OP(m, o)->opt.out_dtype = dt;
  if (n == 1 && (dt == DT_INT8 || dt == DT_UINT8))
    T(m, out)->q = quant1(scale[0], (int64_t)zp[0]); /* read by QDQ-fused ops */
}

/* IR tensor t (an integer value in layout l, ONNX order when per axis)
 * dequantized to float32 as (x - zero point) * scale; returns the output
 * tensor, which out (when >= 0) is. */
static int dq_ops(Imp *m, int t, DType dt, const float *scale, const float *zp, int64_t n,
                  int64_t axis, int out) {
  int r = T(m, t)->ndims;
  int f = f32_like(m, t);
  int o = add_op(m, OP_CAST, &t, 1, &f, 1);
  OP(m, o)->opt.fields = OPTF_CAST;
  OP(m, o)->opt.in_dtype = dt;
  OP(m, o)->opt.out_dtype = DT_FLOAT32;
  bool any_zp = false;
  for (int64_t k = 0; k < n; k++)
    any_zp |= zp[k] != 0.0f;
  if (any_zp)
    f = f32_binary(m, OP_SUB, f, qparam_const(m, zp, n, axis, r));
  if (out < 0 && n == 1 && scale[0] == 1.0f)
    return f; /* x - zero point: no scale */
  if (out < 0)
    out = f32_like(m, t);
  int ins[2] = {f, qparam_const(m, scale, n, axis, r)};
  add_op(m, OP_MUL, ins, 2, &out, 1);
  return out;
}

/* DequantizeLinear (int8, uint8, int16, int32, int4, uint4, int2, uint2 inputs, float32 output):
 * ONNX's (float(x) - float(zero_point)) * scale as CAST, SUB, MUL (the
 * subtraction of small integers is exact; the product is rounded once,
 * as ONNX's reference rounds it). */
static void import_dequantize_linear(Imp *m) {
  Val *x = need_in(m, 0); /* the packed 4- and 2-bit types too: checked below */
  DType xt = x->dt;
  if (xt != DT_INT8 && xt != DT_UINT8 && xt != DT_INT16 && xt != DT_INT32 && xt != DT_INT4 &&
      xt != DT_UINT4 && xt != DT_INT2 && xt != DT_UINT2)
    FAIL("dequantizing %s is not supported (int8, uint8, int16, int32, int4, uint4, int2, uint2)",
         dtype_name(xt));
  int64_t od = attr_i(m, "output_dtype", 0);
  if (od && od != 1)
    FAIL("output_dtype %lld is not supported (float32 only)", (long long)od);
  float *scale, *zp;
  int64_t axis;
  DType zdt = x->dt;
  int64_t n = qparams(m, x, &scale, &zp, &zdt, &axis);
  if (zdt != x->dt)
    FAIL("the zero point has type %s, the input %s", dtype_name(zdt), dtype_name(x->dt));
  int l = n > 1 ? L_ONNX : pref(x);
  int t = ir(m, x, l);
  dq_ops(m, t, x->dt, scale, zp, n, axis, act_out(m, 0, DT_FLOAT32, x->ndims, x->dims, l, NULL));
}

/* ------------------------------------------------------------ QDQ */

/*
 * QDQ models (ONNX Runtime's static quantization, PyTorch's exporter)
 * write each integer op as float ops between DequantizeLinear and
 * QuantizeLinear nodes:
 *
 *   x:int8 -> DQ -> Conv <- DQ <- w:int8, DQ <- b:int32 -> [Relu] -> Q -> y:int8
 *
 * ONNX Runtime fuses such a group into its integer kernel (QLinearConv,
 * QLinearMatMul, QGemm); so does the import here, into the IR's integer
 * op (CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED with int8 or uint8
 * tensors and their Quant), which the integer kernels run.
 *
 * A DequantizeLinear of an integer value becomes a Val with `qsrc` (the
 * integer value) and `q`.  A node whose inputs are such Vals and whose
 * only consumer is a QuantizeLinear (through at most one Relu or
 * Clip(0, 6), folded into the activation range) is imported as the
 * integer op: the float import runs with m->qdq set, so that ir() hands
 * out the integer tensors and floats_of() the integer weights (exact in
 * float: int8 values, and biases below 2^24), and its float constants and
 * outputs are then given their integer types and quantization.  The
 * QuantizeLinear (and the Relu) are marked fused and skipped.  Anything
 * else reads the DequantizeLinear's float value, made on first use
 * (settle_dq()): CAST, SUB zero point, MUL scale, as
 * import_dequantize_linear.
 */

/* The float value of a DequantizeLinear output, made when a float op
 * first reads it. */
static void settle_dq(Imp *m, Val *v) {
  if (v->t[0] >= 0 || v->t[1] >= 0)
    return;
  Val *x = v->qsrc;
  int l = v->q.nscale > 1 ? L_ONNX : pref(x);
  int t = ir(m, x, l);
  int n = v->q.nscale;
  float *zp = arena_array((size_t)n, sizeof(float));
  for (int k = 0; k < n; k++)
    zp[k] = (float)v->q.zero_point[k];
  int out = out_tensor(m, v, l);
  dq_ops(m, t, x->dt, v->q.scale, zp, n, v->q.axis, out);
}

/* DequantizeLinear of int8, uint8 or int32: the Val above (false: leave
 * it to import_dequantize_linear). */
static bool qdq_dequantize(Imp *m) {
  Val *x = in(m, 0);
  if (!x || (x->dt != DT_INT8 && x->dt != DT_UINT8 && x->dt != DT_INT32) ||
      attr_i(m, "output_dtype", 0) > 1)
    return false;
  float *scale, *zp;
  int64_t axis;
  DType zdt = x->dt;
  int64_t n = qparams(m, x, &scale, &zp, &zdt, &axis);
  if (zdt != x->dt)
    FAIL("the zero point has type %s, the input %s", dtype_name(zdt), dtype_name(x->dt));
  for (int64_t k = 0; k < n; k++)
    if (!(scale[k] > FLT_MIN) || !(scale[k] < FLT_MAX))
      return false;
  Val *v;
  if (x->data) {
    v = new_const(m, m->n->outputs[0], DT_FLOAT32, x->ndims, x->dims);
    int64_t inner = 1;
    for (int d = (int)axis + 1; d < x->ndims; d++)
      inner *= x->dims[d];
    float *f = (float *)v->data;
    for (int64_t k = 0; k < val_elems(x); k++) {
      int64_t c = n > 1 ? (k / inner) % n : 0;
      f[k] = (float)(cget_i(x, k) - (int64_t)zp[c]) * scale[c];
    }
  } else {
    v = new_val(m, m->n->outputs[0], DT_FLOAT32, x->ndims, x->dims);
  }
  v->qsrc = x;
  v->q.nscale = (int)n;
  v->q.scale = scale;
  v->q.zero_point = arena_array((size_t)n, sizeof(int64_t));
  for (int64_t k = 0; k < n; k++)
    v->q.zero_point[k] = (int64_t)zp[k];
  v->q.axis = (int)axis;
  bind(m, m->n->outputs[0], v);
  return true;
}

/* The one node reading value `name` (read once, by a later node), or
 * NULL. */
static const ONode *sole_reader(Imp *m, const ONode *after, const char *name) {
  if (!name[0] || uses_of(m, name) != 1)
    return NULL;
  for (int i = (int)(after - m->x->nodes) + 1; i < m->x->nnodes; i++) {
    const ONode *c = &m->x->nodes[i];
    for (int k = 0; k < c->ninputs; k++)
      if (!strcmp(c->inputs[k], name))
        return c->domain[0] && strcmp(c->domain, "ai.onnx") ? NULL : c;
  }
  return NULL;
}

/* A constant scalar input k of node c as a double; false when absent or
 * not a constant.  A Constant node not imported yet counts: exporters
 * put a Clip's bounds right before the Clip, after the Conv whose QDQ
 * group is decided now. */
static bool node_scalar(Imp *m, const ONode *c, int k, double *v) {
  if (k >= c->ninputs || !c->inputs[k][0])
    return false;
  Val *x = lookup(m, c->inputs[k]);
  for (int i = 0; !x && i < m->x->nnodes; i++) {
    const ONode *p = &m->x->nodes[i];
    if (p->noutputs == 1 && !strcmp(p->outputs[0], c->inputs[k]) &&
        !strcmp(p->op_type, "Constant") && (!p->domain[0] || !strcmp(p->domain, "ai.onnx")) &&
        p->nattrs == 1 && !strcmp(p->attrs[0].name, "value") && (p->attrs[0].has & 8))
      x = onnx_tensor_val(m->x, p->attrs[0].t, p->outputs[0]);
  }
  if (!x || !x->data || val_elems(x) != 1)
    return false;
  *v = cget_d(x, 0);
  return true;
}

typedef struct {
  const ONode *act, *q; /* the Relu/Clip (or NULL) and the QuantizeLinear */
  Activation activation;
  DType dt;
  float scale;
  int64_t zp;
} QOut;

/* The QuantizeLinear taking the node's output 0, through at most one
 * Relu or Clip(0, 6) / Clip(0, inf): per tensor, int8 or uint8. */
static bool qdq_output(Imp *m, QOut *o) {
  memset(o, 0, sizeof *o);
  const ONode *c = sole_reader(m, m->n, m->n->outputs[0]);
  if (c && (!strcmp(c->op_type, "Relu") || !strcmp(c->op_type, "Clip"))) {
    o->activation = ACT_RELU;
    if (!strcmp(c->op_type, "Clip")) {
      double lo = -INFINITY, hi = INFINITY;
      bool has_lo = node_scalar(m, c, 1, &lo), has_hi = node_scalar(m, c, 2, &hi);
      if ((c->ninputs > 1 && c->inputs[1][0] && !has_lo) ||
          (c->ninputs > 2 && c->inputs[2][0] && !has_hi) || c->nattrs)
        return false;
      if (lo == 0.0 && hi == 6.0)
        o->activation = ACT_RELU6;
      else if (lo != 0.0 || hi != INFINITY)
        return false;
    }
    o->act = c;
    c = sole_reader(m, c, c->outputs[0]);
  }
  if (!c || strcmp(c->op_type, "QuantizeLinear") || c->noutputs != 1)
    return false;
  for (int k = 0; k < c->nattrs; k++) {
    const OAttr *a = &c->attrs[k];
    if (!strcmp(a->name, "axis"))
      continue;
    if (!strcmp(a->name, "saturate") && a->i == 1)
      continue;
    return false;
  }
  Val *s = c->ninputs > 1 && c->inputs[1][0] ? lookup(m, c->inputs[1]) : NULL;
  Val *z = c->ninputs > 2 && c->inputs[2][0] ? lookup(m, c->inputs[2]) : NULL;
  if (!s || !s->data || s->dt != DT_FLOAT32 || val_elems(s) != 1 || s->ndims > 1 ||
      (z && (!z->data || val_elems(z) != 1 || z->ndims > 1)))
    return false;
  o->dt = z ? z->dt : DT_UINT8;
  o->scale = (float)cget_d(s, 0);
  o->zp = z ? cget_i(z, 0) : 0;
  if ((o->dt != DT_INT8 && o->dt != DT_UINT8) || !(o->scale > FLT_MIN) ||
      !(o->scale < FLT_MAX))
    return false;
  o->q = c;
  return true;
}

/* Input k read through a per-tensor DequantizeLinear of an int8 or uint8
 * activation whose IR tensors carry that quantization (or none yet). */
static Val *qdq_act(Imp *m, int k) {
  if (k >= m->n->ninputs || !m->n->inputs[k][0])
    return NULL;
  Val *v = lookup(m, m->n->inputs[k]);
  if (!v || !v->qsrc || v->data || v->q.nscale != 1)
    return NULL;
  Val *x = v->qsrc;
  if (x->dt != DT_INT8 && x->dt != DT_UINT8)
    return NULL;
  for (int l = 0; l < 2; l++) {
    const Quant *q = x->t[l] >= 0 ? &T(m, x->t[l])->q : NULL;
    if (q && q->nscale && (q->nscale != 1 || q->scale[0] != v->q.scale[0] ||
                           q->zero_point[0] != v->q.zero_point[0]))
      return NULL;
  }
  return v;
}

/* Weights read through a DequantizeLinear of an int8 constant with zero
 * points 0, per tensor or per `axis`. */
static Val *qdq_weights(Imp *m, int k, int axis) {
  Val *v = k < m->n->ninputs && m->n->inputs[k][0] ? lookup(m, m->n->inputs[k]) : NULL;
  if (!v || !v->qsrc || !v->data || v->qsrc->dt != DT_INT8)
    return NULL;
  if (v->q.nscale > 1 && v->q.axis != axis)
    return NULL;
  for (int c = 0; c < v->q.nscale; c++)
    if (v->q.zero_point[c] != 0)
      return NULL;
  return v;
}

/* A bias read through a DequantizeLinear of an int32 constant (zero
 * point 0, every value exact in float), or absent (*ok stays true). */
static Val *qdq_bias(Imp *m, int k, bool *ok) {
  *ok = true;
  if (k >= m->n->ninputs || !m->n->inputs[k][0])
    return NULL;
  Val *v = lookup(m, m->n->inputs[k]);
  *ok = false;
  if (!v || !v->qsrc || !v->data || v->qsrc->dt != DT_INT32)
    return NULL;
  for (int c = 0; c < v->q.nscale; c++)
    if (v->q.zero_point[c] != 0)
      return NULL;
  for (int64_t e = 0; e < val_elems(v->qsrc); e++) {
    int64_t b = cget_i(v->qsrc, e);
    if (b <= -(1 << 24) || b >= (1 << 24))
      return NULL;
  }
  *ok = true;
  return v;
}

static Quant quant1(float scale, int64_t zp) {
  Quant q = {.nscale = 1, .axis = 0};
  q.scale = arena_array(1, sizeof(float));
  q.zero_point = arena_array(1, sizeof(int64_t));
  q.scale[0] = scale;
  q.zero_point[0] = zp;
  return q;
}

/* Gives the integer source of x's IR tensors x's quantization. */
static void mark_act(Imp *m, const Val *v) {
  Val *x = v->qsrc;
  for (int l = 0; l < 2; l++)
    if (x->t[l] >= 0 && !T(m, x->t[l])->q.nscale)
      T(m, x->t[l])->q = quant1(v->q.scale[0], v->q.zero_point[0]);
}

/* A float constant IR tensor holding integers, retyped to dt: int8,
 * int32, or uint8 (int8 weights + 128, for the uint8 kernels). */
static void retype_const(Imp *m, int t, DType dt) {
  Tensor *c = T(m, t);
  int64_t n = tensor_elems(c);
  const float *f = (const float *)c->data;
  int w = (dtype_bits(dt) + 7) / 8;
  uint8_t *p = arena_alloc((size_t)(n * w) + 1);
  for (int64_t k = 0; k < n; k++) {
    if (dt == DT_INT8)
      ((int8_t *)p)[k] = (int8_t)f[k];
    else if (dt == DT_UINT8)
      p[k] = (uint8_t)((int32_t)f[k] + 128);
    else {
      int32_t v = (int32_t)f[k];
      memcpy(p + 4 * k, &v, 4);
    }
  }
  c->data = p;
  c->ndata = (size_t)(n * w);
  c->dtype = dt;
}

/* The filter's and bias's quantization: per channel along `axis` of the
 * IR filter when the weights have several scales. */
static void quant_weights(Imp *m, int filter, int bias, const Val *x, const Val *w,
                          DType act_dt, int axis) {
  int n = w->q.nscale;
  retype_const(m, filter, act_dt == DT_UINT8 ? DT_UINT8 : DT_INT8);
  Quant *fq = &T(m, filter)->q;
  fq->nscale = n;
  fq->axis = n > 1 ? axis : 0;
  fq->scale = w->q.scale;
  fq->zero_point = arena_array((size_t)n, sizeof(int64_t));
  for (int c = 0; c < n; c++)
    fq->zero_point[c] = act_dt == DT_UINT8 ? 128 : 0;
  if (bias < 0)
    return;
  retype_const(m, bias, DT_INT32);
  Quant *bq = &T(m, bias)->q;
  bq->nscale = n;
  bq->axis = 0;
  bq->scale = arena_array((size_t)n, sizeof(float));
  bq->zero_point = arena_array((size_t)n, sizeof(int64_t));
  for (int c = 0; c < n; c++)
    bq->scale[c] = x->q.scale[0] * w->q.scale[c];
}

/* After a fused import: ops op0.. wrote float tensors; op `main` is the
 * integer op.  Its output gets the QuantizeLinear's type and scale, the
 * other new ops (PAD, TRANSPOSE, RESHAPE of the input) their input's. */
static void finish_qdq(Imp *m, int op0, int main, const QOut *o) {
  for (int i = op0; i < m->nops; i++) {
    Op *op = OP(m, i);
    for (int k = 0; k < op->noutputs; k++) {
      Tensor *t = T(m, op->outputs[k]);
      if (i == main) {
        t->dtype = o->dt;
        t->q = quant1(o->scale, o->zp);
      } else if (!t->q.nscale && op->ninputs > 0 && op->inputs[0] >= 0) {
        t->dtype = T(m, op->inputs[0])->dtype;
        t->q = T(m, op->inputs[0])->q;
      }
    }
  }
  if (main >= 0)
    OP(m, main)->opt.activation = o->activation;
  Val *v = lookup(m, m->n->outputs[0]);
  v->dt = o->dt;
  bind(m, o->q->outputs[0], v);
  m->fused[o->q - m->x->nodes] = true;
  if (o->act)
    m->fused[o->act - m->x->nodes] = true;
}

/* Conv (depthwise through group) as CONV_2D / DEPTHWISE_CONV_2D. */
static bool qdq_conv(Imp *m) {
  QOut o;
  Val *x = qdq_act(m, 0), *w = qdq_weights(m, 1, 0);
  bool bias_ok;
  Val *b = qdq_bias(m, 2, &bias_ok);
  if (!x || !w || !bias_ok || w->ndims != 4 || !qdq_output(m, &o) || o.dt != x->qsrc->dt)
    return false;
  if (x->qsrc->dt == DT_UINT8 && w->q.nscale > 1)
    return false; /* the uint8 kernels are per tensor */
  mark_act(m, x);
  int op0 = m->nops;
  m->qdq = true;
  import_conv(m);
  m->qdq = false;
  int main = m->nops - 1;
  Op *op = OP(m, main);
  bool dw = op->kind == OP_DEPTHWISE_CONV_2D;
  quant_weights(m, op->inputs[1], op->inputs[2], x, w, o.dt, dw ? 3 : 0);
  if (!b)
    memset((void *)T(m, op->inputs[2])->data, 0, T(m, op->inputs[2])->ndata);
  finish_qdq(m, op0, main, &o);
  return true;
}

/* Gemm (A not transposed, alpha = beta = 1, C a vector) and MatMul with
 * constant 2-D weights, as FULLY_CONNECTED. */
static bool qdq_fc(Imp *m, bool gemm) {
  QOut o;
  Val *a = qdq_act(m, 0);
  bool tb = gemm && attr_i(m, "transB", 0) != 0;
  Val *w = qdq_weights(m, 1, tb ? 0 : 1);
  bool bias_ok = true;
  Val *b = gemm ? qdq_bias(m, 2, &bias_ok) : NULL;
  if (!a || !w || !bias_ok || w->ndims != 2 || !qdq_output(m, &o) || o.dt != a->qsrc->dt)
    return false;
  if (a->qsrc->dt == DT_UINT8 && w->q.nscale > 1)
    return false;
  int64_t N = tb ? w->dims[0] : w->dims[1], K = tb ? w->dims[1] : w->dims[0];
  if (gemm && (a->ndims != 2 || attr_i(m, "transA", 0) || attr_f(m, "alpha", 1.0f) != 1.0f ||
               attr_f(m, "beta", 1.0f) != 1.0f))
    return false;
  if (b && (b->ndims != 1 || b->dims[0] != N))
    return false;
  if (a->ndims < 2 || a->dims[a->ndims - 1] != K)
    return false;
  mark_act(m, a);
  int op0 = m->nops;
  const float *wf = floats_of(m, w->qsrc);
  float *wt = arena_array((size_t)(N * K), sizeof(float));
  for (int64_t n = 0; n < N; n++)
    for (int64_t k = 0; k < K; k++)
      wt[n * K + k] = tb ? wf[n * K + k] : wf[k * N + n];
  float *bias = b ? floats_of(m, b->qsrc) : NULL;
  int64_t od[MAX_DIMS];
  memcpy(od, a->dims, sizeof od);
  od[a->ndims - 1] = N;
  m->qdq = true;
  fully_connected(m, ir(m, a, L_ONNX), wt, N, K, bias, a->ndims, od, a->ndims > 2);
  m->qdq = false;
  int main = m->nops - 1;
  Op *op = OP(m, main);
  quant_weights(m, op->inputs[1], op->inputs[2], a, w, o.dt, 0);
  finish_qdq(m, op0, main, &o);
  return true;
}

/* Add or Mul of two activations of the same shape and type as ADD or
 * MUL (ONNX Runtime's QLinearAdd, QLinearMul; broadcasts are left to the
 * float import). */
static bool qdq_binary(Imp *m, OpKind kind) {
  QOut o;
  Val *a = qdq_act(m, 0), *b = qdq_act(m, 1);
  if (!a || !b || a->qsrc->dt != b->qsrc->dt || a->ndims != b->ndims || !qdq_output(m, &o) ||
      o.dt != a->qsrc->dt)
    return false;
  for (int d = 0; d < a->ndims; d++)
    if (a->dims[d] != b->dims[d])
      return false;
  mark_act(m, a);
  mark_act(m, b);
  int op0 = m->nops;
  int l = a->ndims == 4 && (a->qsrc->t[L_NHWC] >= 0 || b->qsrc->t[L_NHWC] >= 0) ? L_NHWC
                                                                               : L_ONNX;
  int ins[2] = {ir(m, a->qsrc, l), ir(m, b->qsrc, l)};
  int out = act_out(m, 0, o.dt, a->ndims, a->dims, l, NULL);
  int main = add_op(m, kind, ins, 2, &out, 1);
  OP(m, main)->opt.fields = OPTF_ACTIVATION;
  finish_qdq(m, op0, main, &o);
  return true;
}

/*
 * Ops that move or pick integer values without arithmetic, between a
 * DequantizeLinear and a QuantizeLinear of the same scale and zero
 * point (what ONNX Runtime drops the pair around): MaxPool,
 * GlobalMaxPool, Reshape, Flatten, Squeeze, Unsqueeze, Transpose, and
 * Concat whose inputs all have that quantization.  The float import runs
 * on the integer tensors; every new tensor takes its input's type and
 * quantization, a MaxPool's padding value becomes the type's minimum.
 */
static bool qdq_passthrough(Imp *m) {
  const char *op = m->n->op_type;
  QOut o;
  Val *x = qdq_act(m, 0);
  if (!x || !qdq_output(m, &o) || o.act || o.dt != x->qsrc->dt ||
      o.scale != x->q.scale[0] || o.zp != x->q.zero_point[0])
    return false;
  bool concat = !strcmp(op, "Concat");
  for (int k = 1; concat && k < m->n->ninputs; k++) {
    Val *v = qdq_act(m, k);
    if (!v || v->qsrc->dt != o.dt || v->q.scale[0] != o.scale || v->q.zero_point[0] != o.zp)
      return false;
  }
  for (int k = 0; k < (concat ? m->n->ninputs : 1); k++)
    mark_act(m, lookup(m, m->n->inputs[k]));
  int op0 = m->nops;
  m->qdq = true;
  if (!strcmp(op, "MaxPool"))
    import_pool(m, true);
  else if (!strcmp(op, "GlobalMaxPool"))
    import_global_pool(m, true);
  else if (!strcmp(op, "Transpose"))
    import_transpose(m);
  else if (concat)
    import_concat(m);
  else {
    int64_t dims[MAX_DIMS];
    int n = !strcmp(op, "Reshape") ? reshape_dims(m, x, need_const(m, 1, "shape"), dims)
          : !strcmp(op, "Flatten") ? flatten_dims(m, x, dims)
                                   : squeeze_dims(m, x, dims, !strcmp(op, "Unsqueeze"));
    reshape_act(m, n, dims);
  }
  m->qdq = false;
  for (int i = op0; i < m->nops; i++) {
    Op *p = OP(m, i);
    if (p->kind != OP_PADV2)
      continue;
    Tensor *c = T(m, p->inputs[2]);
    uint8_t *lo = arena_alloc(1);
    lo[0] = o.dt == DT_INT8 ? 0x80 : 0;
    c->data = lo;
    c->ndata = 1;
    c->dtype = o.dt;
    c->q = quant1(o.scale, o.zp);
  }
  finish_qdq(m, op0, -1, &o);
  return true;
}

/* GlobalAveragePool of int8 as MEAN over H and W (ONNX Runtime's
 * QLinearGlobalAveragePool). */
static bool qdq_global_average(Imp *m) {
  QOut o;
  Val *x = qdq_act(m, 0);
  if (!x || x->ndims != 4 || x->qsrc->dt != DT_INT8 || !qdq_output(m, &o) || o.act ||
      o.dt != DT_INT8)
    return false;
  mark_act(m, x);
  int op0 = m->nops;
  m->qdq = true;
  import_global_pool(m, false);
  m->qdq = false;
  finish_qdq(m, op0, m->nops - 1, &o);
  return true;
}

/* The QDQ forms this file fuses; false: import the node as it is. */
static bool import_qdq(Imp *m) {
  const char *op = m->n->op_type;
  if (!strcmp(op, "DequantizeLinear"))
    return qdq_dequantize(m);
  if (!strcmp(op, "Conv"))
    return qdq_conv(m);
  if (!strcmp(op, "Gemm"))
    return qdq_fc(m, true);
  if (!strcmp(op, "MatMul"))
    return qdq_fc(m, false);
  if (!strcmp(op, "Add"))
    return qdq_binary(m, OP_ADD);
  if (!strcmp(op, "Mul"))
    return qdq_binary(m, OP_MUL);
  if (!strcmp(op, "GlobalAveragePool"))
    return qdq_global_average(m);
  if (!strcmp(op, "MaxPool") || !strcmp(op, "GlobalMaxPool") || !strcmp(op, "Reshape") ||
      !strcmp(op, "Flatten") || !strcmp(op, "Squeeze") || !strcmp(op, "Unsqueeze") ||
      !strcmp(op, "Transpose") || !strcmp(op, "Concat"))
    return qdq_passthrough(m);
  return false;
}

/* ------------------------------------------------------------ QOperator */

/*
 * ONNX's QOperator form writes the integer op as one node: QLinearConv
 * and QLinearMatMul (integer inputs, their scales and zero points, the
 * output's scale and zero point), ConvInteger and MatMulInteger (int32
 * output, no requantization).  They are composed exactly in float32:
 *   - x - x_zero_point and w - w_zero_point are integers of at most 9
 *     bits (CAST, SUB; the weights on the host);
 *   - the float Conv / MatMul then sums integer products, and with every
 *     partial sum's magnitude bounded below 2^24 (checked here from the
 *     types and the constant weights) each addition is exact, in any
 *     order;
 *   - ConvInteger, MatMulInteger: CAST to int32;
 *   - QLinearConv, QLinearMatMul: the int32 bias added (exact as well),
 *     then ONNX Runtime's requantization: times the float32 multiplier
 *     x_scale * w_scale / y_scale (per output channel when w has several
 *     scales), rounded half to even, plus y_zero_point, saturated - as
 *     QuantizeLinear's ROUND, ADD, MAXIMUM, MINIMUM, CAST.
 * Scales may be float32 or float16 (QLinearMatMul from opset 21).
 */

/* Scales (input k, float32 or float16 constant, positive) as floats. */
static int64_t qop_scales(Imp *m, int k, float **s) {
  Val *v = need_const(m, k, "a scale");
  if (v->dt != DT_FLOAT32 && v->dt != DT_FLOAT16)
    FAIL("the scale (input %d) has type %s; float32 or float16 expected", k, dtype_name(v->dt));
  int64_t n = val_elems(v);
  *s = arena_array((size_t)(n ? n : 1), sizeof(float));
  for (int64_t c = 0; c < n; c++) {
    (*s)[c] = (float)cget_d(v, c);
    if (!((*s)[c] > FLT_MIN) || !((*s)[c] < FLT_MAX))
      FAIL("scale %g (input %d) is not a positive normal float", (double)(*s)[c], k);
  }
  return n;
}

/* Zero points (input k, a constant of type dt, or absent: 0); n of them
 * (1 or as many as the scales), as floats. */
static int64_t qop_zero_points(Imp *m, int k, DType dt, int64_t n, float **z) {
  Val *v = in(m, k);
  *z = arena_array((size_t)(n ? n : 1), sizeof(float));
  if (!v)
    return n;
  if (!v->data)
    FAIL("the zero point (input %d) must be constant", k);
  if (v->dt != dt)
    FAIL("the zero point (input %d) has type %s, its tensor %s", k, dtype_name(v->dt),
         dtype_name(dt));
  int64_t nz = val_elems(v);
  if (nz != 1 && nz != n)
    FAIL("%lld zero points (input %d) for %lld scales", (long long)nz, k, (long long)n);
  for (int64_t c = 0; c < n; c++)
    (*z)[c] = (float)cget_i(v, nz == 1 ? 0 : c);
  return n;
}

static void need_x8(Imp *m, const Val *v, int k) {
  if (v->dt != DT_INT8 && v->dt != DT_UINT8)
    FAIL("input %d ('%s') has type %s; int8 or uint8 expected", k, v->name, dtype_name(v->dt));
}

/* The largest |v - zero point| an int8 or uint8 value can have. */
static double x8_reach(DType dt, float zp) {
  double lo = dt == DT_INT8 ? -128 : 0, hi = dt == DT_INT8 ? 127 : 255;
  return fmax(fabs(lo - zp), fabs(hi - zp));
}

/* An integer activation minus its zero point as a float32 Val bound to
 * a name of its own (layout l). */
static const char *qop_float_act(Imp *m, Val *x, float zp, int l, const char *tag) {
  float one = 1.0f;
  int t = dq_ops(m, ir(m, x, l), x->dt, &one, &zp, 1, 0, -1);
  const char *name = arena_printf("%s:%s", m->n->outputs[0], tag);
  Val *v = new_val(m, name, DT_FLOAT32, x->ndims, x->dims);
  v->t[l] = t;
  bind(m, name, v);
  return name;
}

/* Constant integer weights minus their zero points (n of them along
 * axis) as a float32 constant bound to a name of its own; *wf its data. */
static const char *qop_float_weights(Imp *m, Val *w, const float *zp, int64_t n, int axis,
                                     const float **wf) {
  const char *name = arena_printf("%s:w", m->n->outputs[0]);
  Val *v = new_const(m, name, DT_FLOAT32, w->ndims, w->dims);
  int64_t inner = 1;
  for (int d = axis + 1; d < w->ndims; d++)
    inner *= w->dims[d];
  float *f = (float *)v->data;
  for (int64_t e = 0; e < val_elems(w); e++)
    f[e] = (float)cget_i(w, e) - zp[n > 1 ? (e / inner) % n : 0];
  bind(m, name, v);
  *wf = f;
  return name;
}

/* Runs the float importer `import` on a stand-in node of op_type `op`
 * with inputs `ins` and the attributes of the node being imported;
 * returns the Val of its output. */
static Val *qop_float_op(Imp *m, const char *op, const char **ins, int nins,
                         void (*import)(Imp *)) {
  const ONode *node = m->n;
  ONode s = *node;
  const char *out = arena_printf("%s:acc", node->outputs[0]);
  s.op_type = op;
  s.inputs = ins;
  s.ninputs = nins;
  s.outputs = &out;
  s.noutputs = 1;
  m->n = &s;
  import(m);
  m->n = node;
  return lookup(m, out);
}

static void bound_check(Imp *m, double reach) {
  if (!(reach < 16777216.0))
    FAIL("the integer sums may reach %.0f, beyond float32's exact 2^24", reach);
}

/* acc (float32 integers, ONNX order when per channel along axis) into
 * output 0: CAST to int32 (mult == NULL), or requantized to dt. */
static void qop_finish(Imp *m, Val *acc, const float *mult, int64_t n, int axis, DType dt,
                       float zp) {
  int l = n > 1 ? L_ONNX : pref(acc);
  int t = ir(m, acc, l);
  int r = T(m, t)->ndims;
  if (mult) {
    t = f32_binary(m, OP_MUL, t, qparam_const(m, mult, n, axis, r));
    int rd = f32_like(m, t);
    add_op(m, OP_ROUND, &t, 1, &rd, 1);
    t = rd;
    t = f32_binary(m, OP_ADD, t, qparam_const(m, &zp, 1, 0, r));
    t = scalar_op(m, OP_MAXIMUM, t, dt == DT_INT8 ? -128.0f : 0.0f, "");
    t = scalar_op(m, OP_MINIMUM, t, dt == DT_INT8 ? 127.0f : 255.0f, "");
  } else {
    dt = DT_INT32;
  }
  int out = act_out(m, 0, dt, acc->ndims, acc->dims, l, NULL);
  int o = add_op(m, OP_CAST, &t, 1, &out, 1);
  OP(m, o)->opt.fields = OPTF_CAST;
  OP(m, o)->opt.in_dtype = DT_FLOAT32;
  OP(m, o)->opt.out_dtype = dt;
}

/* QLinearConv (integer: false) or ConvInteger. */
static void import_qop_conv(Imp *m, bool qlinear) {
  int kw = qlinear ? 3 : 1;
  Val *x = act4(m, 0), *w = need_const(m, kw, "weights");
  need_x8(m, x, 0);
  need_x8(m, w, kw);
  if (w->ndims != 4)
    FAIL("the weights have rank %d, expected 4", w->ndims);
  float *xs = NULL, *ws = NULL, *ys = NULL, *xz, *wz, *yz = NULL;
  int64_t nw = w->dims[0];
  if (qlinear) {
    if (qop_scales(m, 1, &xs) != 1 || qop_scales(m, 6, &ys) != 1)
      FAIL("x_scale and y_scale must be one value each");
    int64_t n = qop_scales(m, 4, &ws);
    if (n != 1 && n != w->dims[0])
      FAIL("%lld weight scales for %lld output channels", (long long)n, (long long)w->dims[0]);
    nw = n;
  }
  qop_zero_points(m, qlinear ? 2 : 2, x->dt, 1, &xz);
  Val *wzv = in(m, qlinear ? 5 : 3);
  if (!qlinear && wzv && val_elems(wzv) != 1 && val_elems(wzv) != w->dims[0])
    FAIL("the weight zero point must be one value or one per output channel");
  if (!qlinear && wzv)
    nw = val_elems(wzv) == 1 ? 1 : w->dims[0];
  if (!qlinear && !wzv)
    nw = 1;
  qop_zero_points(m, qlinear ? 5 : 3, w->dt, nw, &wz);
  Val *y = NULL;
  Val *b = qlinear ? in(m, 8) : NULL;
  if (qlinear) {
    y = in(m, 7);
    if (y && !y->data)
      FAIL("y_zero_point must be constant");
    qop_zero_points(m, 7, y ? y->dt : DT_UINT8, 1, &yz);
    if (y && y->dt != DT_INT8 && y->dt != DT_UINT8)
      FAIL("y_zero_point has type %s; int8 or uint8 expected", dtype_name(y->dt));
  }
  if (b && (!b->data || b->dt != DT_INT32 || val_elems(b) != w->dims[0]))
    FAIL("the bias must be an int32 constant of %lld values", (long long)w->dims[0]);
  const float *wf;
  const char *ins[3] = {qop_float_act(m, x, xz[0], L_NHWC, "x"),
                        qop_float_weights(m, w, wz, nw, 0, &wf), ""};
  int64_t per = val_elems(w) / w->dims[0];
  double reach = 0;
  for (int64_t o = 0; o < w->dims[0]; o++) {
    double s = b ? fabs(cget_d(b, o)) : 0;
    for (int64_t e = 0; e < per; e++)
      s += fabs(wf[o * per + e]) * x8_reach(x->dt, xz[0]);
    reach = fmax(reach, s);
  }
  bound_check(m, reach);
  if (b) {
    const char *bn = arena_printf("%s:b", m->n->outputs[0]);
    Val *bv = new_const(m, bn, DT_FLOAT32, 1, b->dims);
    for (int64_t o = 0; o < w->dims[0]; o++)
      ((float *)bv->data)[o] = (float)cget_i(b, o);
    bind(m, bn, bv);
    ins[2] = bn;
  }
  Val *acc = qop_float_op(m, "Conv", ins, b ? 3 : 2, import_conv);
  float *mult = NULL;
  if (qlinear) {
    mult = arena_array((size_t)nw, sizeof(float));
    for (int64_t c = 0; c < nw; c++) {
      float p = xs[0] * ws[c];
      mult[c] = p / ys[0];
    }
  }
  qop_finish(m, acc, mult, nw, 1, y ? y->dt : DT_UINT8, qlinear ? yz[0] : 0);
}

/* QLinearMatMul (integer: false) or MatMulInteger: b a constant (per
 * tensor, or per column: zero points and scales along its last axis) or
 * an activation (per tensor). */
static void import_qop_matmul(Imp *m, bool qlinear) {
  int kb = qlinear ? 3 : 1;
  Val *a = act_in(m, 0), *b = act_in(m, kb);
  need_x8(m, a, 0);
  need_x8(m, b, kb);
  if (a->ndims < 1 || b->ndims < 1)
    FAIL("the operands must have rank 1 or more");
  int64_t N = b->ndims > 1 ? b->dims[b->ndims - 1] : 1, K = a->dims[a->ndims - 1];
  float *as = NULL, *bs = NULL, *ys = NULL, *az, *bz, *yz = NULL;
  int64_t nb = 1;
  if (qlinear) {
    if (qop_scales(m, 1, &as) != 1 || qop_scales(m, 6, &ys) != 1)
      FAIL("a_scale and y_scale must be one value each");
    nb = qop_scales(m, 4, &bs);
  } else if (in(m, 3)) {
    nb = val_elems(in(m, 3));
  }
  if (nb != 1 && (nb != N || !b->data || b->ndims != 2))
    FAIL("b's quantization must be per tensor, or per column of a constant 2-D b");
  qop_zero_points(m, 2, a->dt, 1, &az);
  qop_zero_points(m, qlinear ? 5 : 3, b->dt, nb, &bz);
  Val *y = qlinear ? in(m, 7) : NULL;
  if (qlinear) {
    if (y && (!y->data || (y->dt != DT_INT8 && y->dt != DT_UINT8)))
      FAIL("y_zero_point must be an int8 or uint8 constant");
    qop_zero_points(m, 7, y ? y->dt : DT_UINT8, 1, &yz);
  }
  const char *ins[2];
  ins[0] = qop_float_act(m, a, az[0], pref(a), "a");
  double reach = 0;
  if (b->data) {
    const float *bf;
    ins[1] = qop_float_weights(m, b, bz, nb, b->ndims - 1, &bf);
    int64_t batch = val_elems(b) / (K * N > 0 ? K * N : 1);
    for (int64_t i = 0; i < batch; i++)
      for (int64_t n = 0; n < N; n++) {
        double s = 0;
        for (int64_t k = 0; k < K; k++)
          s += fabs(bf[(i * K + k) * N + n]) * x8_reach(a->dt, az[0]);
        reach = fmax(reach, s);
      }
  } else {
    ins[1] = qop_float_act(m, b, bz[0], pref(b), "b");
    reach = (double)K * x8_reach(a->dt, az[0]) * x8_reach(b->dt, bz[0]);
  }
  bound_check(m, reach);
  Val *acc = qop_float_op(m, "MatMul", ins, 2, import_matmul);
  float *mult = NULL;
  if (qlinear) {
    mult = arena_array((size_t)nb, sizeof(float));
    for (int64_t c = 0; c < nb; c++) {
      float p = as[0] * bs[c];
      mult[c] = p / ys[0];
    }
  }
  qop_finish(m, acc, mult, nb, acc->ndims - 1, y ? y->dt : DT_UINT8, qlinear ? yz[0] : 0);
}

/* The QOperator nodes; false: not one of them. */
static bool import_qop(Imp *m) {
  const char *op = m->n->op_type;
  if (m->n->domain[0] && strcmp(m->n->domain, "ai.onnx"))
    return false;
  if (!strcmp(op, "QLinearConv")) import_qop_conv(m, true);
  else if (!strcmp(op, "ConvInteger")) import_qop_conv(m, false);
  else if (!strcmp(op, "QLinearMatMul")) import_qop_matmul(m, true);
  else if (!strcmp(op, "MatMulInteger")) import_qop_matmul(m, false);
  else return false;
  return true;
}

/* Ops whose meaning changed before opset 11, refused in older models
 * (what did not change is imported as at opset 11). */
static void old_opset(Imp *m) {
  const char *op = m->n->op_type;
  if (m->x->opset < 10 && !strcmp(op, "Slice"))
    FAIL("Slice before opset 10 (starts and ends as attributes) is not supported");
  if (m->x->opset < 11 && (!strcmp(op, "Resize") || !strcmp(op, "ConvTranspose")))
    FAIL("%s before opset 11 is not supported", op);
}

static void import_node(Imp *m) {
  const char *op = m->n->op_type;
  if (m->n->domain[0] && strcmp(m->n->domain, "ai.onnx"))
    FAIL("the domain '%s' is not supported (default domain only)", m->n->domain);
  for (int k = 0; k < m->n->nattrs; k++)
    if (m->n->attrs[k].has & 16)
      FAIL("subgraph attributes (control flow) are not supported");
  if (m->n->noutputs < 1)
    FAIL("the node has no outputs");
  old_opset(m);
  if (import_qop(m))
    return;
  if (import_qdq(m))
    return;
  if (try_fold(m))
    return;
#define IS(s) (!strcmp(op, s))
  if (IS("Conv")) import_conv(m);
  else if (IS("ConvTranspose")) import_conv_transpose(m);
  else if (IS("Gemm")) import_gemm(m);
  else if (IS("MatMul")) import_matmul(m);
  else if (IS("Add")) binary(m, OP_ADD);
  else if (IS("Sub")) binary(m, OP_SUB);
  else if (IS("Mul")) binary(m, OP_MUL);
  else if (IS("Div")) binary(m, OP_DIV);
  else if (IS("Max")) variadic(m, OP_MAXIMUM, false);
  else if (IS("Min")) variadic(m, OP_MINIMUM, false);
  else if (IS("Sum")) variadic(m, OP_ADD, false);
  else if (IS("Mean")) variadic(m, OP_ADD, true);
  else if (IS("PRelu")) binary(m, OP_PRELU);
  else if (IS("Pow")) import_pow(m);
  else if (IS("Reciprocal")) import_reciprocal(m);
  else if (IS("Relu")) activation(m, OP_RELU, ACT_RELU);
  else if (IS("Clip")) import_clip(m);
  else if (IS("Sigmoid")) activation(m, OP_LOGISTIC, ACT_NONE);
  else if (IS("Tanh")) activation(m, OP_TANH, ACT_NONE);
  else if (IS("HardSwish")) activation(m, OP_HARD_SWISH, ACT_NONE);
  else if (IS("HardSigmoid")) import_hard_sigmoid(m);
  else if (IS("LeakyRelu")) import_leaky_relu(m);
  else if (IS("Exp")) activation(m, OP_EXP, ACT_NONE);
  else if (IS("Neg")) activation(m, OP_NEG, ACT_NONE);
  else if (IS("Abs")) activation(m, OP_ABS, ACT_NONE);
  else if (IS("Sqrt")) activation(m, OP_SQRT, ACT_NONE);
  else if (IS("Floor")) activation(m, OP_FLOOR, ACT_NONE);
  else if (IS("Ceil")) unary_f32(m, OP_CEIL);
  else if (IS("Round")) unary_f32(m, OP_ROUND);
  else if (IS("Log")) unary_f32(m, OP_LOG);
  else if (IS("Erf")) unary_f32(m, OP_ERF);
  else if (IS("Gelu")) import_gelu(m);
  else if (IS("Elu")) import_elu(m, false);
  else if (IS("Selu")) import_elu(m, true);
  else if (IS("Softplus")) import_softplus(m);
  else if (IS("Equal")) compare_op(m, OP_EQUAL);
  else if (IS("Less")) compare_op(m, OP_LESS);
  else if (IS("Greater")) compare_op(m, OP_GREATER);
  else if (IS("LessOrEqual")) compare_op(m, OP_LESS_EQUAL);
  else if (IS("GreaterOrEqual")) compare_op(m, OP_GREATER_EQUAL);
  else if (IS("And")) compare_op(m, OP_LOGICAL_AND);
  else if (IS("Or")) compare_op(m, OP_LOGICAL_OR);
  else if (IS("Not")) import_not(m);
  else if (IS("Where")) import_where(m);
  else if (IS("Tile")) import_tile(m);
  else if (IS("QuantizeLinear")) import_quantize_linear(m);
  else if (IS("DequantizeLinear")) import_dequantize_linear(m);
  else if (IS("DepthToSpace")) import_block_shuffle(m, true);
  else if (IS("SpaceToDepth")) import_block_shuffle(m, false);
  else if (IS("Softmax")) import_softmax(m, false);
  else if (IS("LogSoftmax")) import_softmax(m, true);
  else if (IS("MaxPool")) import_pool(m, true);
  else if (IS("AveragePool")) import_pool(m, false);
  else if (IS("GlobalAveragePool")) import_global_pool(m, false);
  else if (IS("GlobalMaxPool")) import_global_pool(m, true);
  else if (IS("BatchNormalization")) import_batch_norm(m);
  else if (IS("LayerNormalization")) import_layer_norm(m);
  else if (IS("InstanceNormalization")) import_instance_norm(m);
  else if (IS("Concat")) import_concat(m);
  else if (IS("Split")) import_split(m);
  else if (IS("Slice")) import_slice(m);
  else if (IS("Gather")) import_gather(m);
  else if (IS("Transpose")) import_transpose(m);
  else if (IS("Pad")) import_pad(m);
  else if (IS("Resize") || IS("Upsample")) import_resize(m);
  else if (IS("ReduceMean")) import_reduce(m, OP_MEAN);
  else if (IS("ReduceSum")) import_reduce(m, OP_SUM);
  else if (IS("ReduceMax")) import_reduce(m, OP_REDUCE_MAX);
  else if (IS("ReduceMin")) import_reduce(m, OP_REDUCE_MIN);
  else if (IS("ArgMax")) import_arg(m, OP_ARG_MAX);
  else if (IS("ArgMin")) import_arg(m, OP_ARG_MIN);
  else if (IS("LSTM")) import_lstm(m);
  else if (IS("GRU")) import_gru(m);
  else if (IS("Identity") || (IS("Dropout"))) {
    if (IS("Dropout") && m->n->noutputs > 1 && m->n->outputs[1][0] && uses_of(m, m->n->outputs[1]))
      FAIL("the mask output of Dropout is not supported");
    Val *x = need_in(m, 0);
    bind(m, m->n->outputs[0], x);
    return;
  } else if (IS("Reshape") || IS("Flatten") || IS("Squeeze") || IS("Unsqueeze")) {
    Val *x = act_in(m, 0);
    int64_t dims[MAX_DIMS];
    int n = IS("Reshape") ? reshape_dims(m, x, need_const(m, 1, "shape"), dims)
          : IS("Flatten") ? flatten_dims(m, x, dims)
                          : squeeze_dims(m, x, dims, IS("Unsqueeze"));
    reshape_act(m, n, dims);
  } else if (IS("Cast") || IS("CastLike")) {
    /* float16, float64 and ONNX's small types (bfloat16, the float8s,
     * float4, the sub-byte integers) as activations only into and out of
     * a Cast. */
    Val *x = need_in(m, 0);
    if (x->dt != DT_FLOAT16 && x->dt != DT_FLOAT64 && !onnx_small_type(x->dt))
      x = act_in(m, 0);
    DType dt = cast_target(m);
    int l = pref(x);
    int t = ir(m, x, l);
    if (dt == x->dt) {
      bind(m, m->n->outputs[0], x);
      return;
    }
    int out = act_out(m, 0, dt, x->ndims, x->dims, l, NULL);
    int o = add_op(m, OP_CAST, &t, 1, &out, 1);
    OP(m, o)->opt.fields = OPTF_CAST;
    OP(m, o)->opt.in_dtype = x->dt;
    OP(m, o)->opt.out_dtype = dt;
    onnx_cast_attrs(m, OP(m, o), dt);
  } else if (IS("Expand")) {
    import_expand(m);
  } else if (IS("ConstantOfShape")) {
    FAIL("the shape (input 0) is not constant");
  } else {
    FAIL("op_type %s is not supported", op);
  }
#undef IS
}

/* ------------------------------------------------------ graph I/O */

static const InputShape *bound_shape(Imp *m, const char *name) {
  for (int k = 0; k < m->x->opt->nshapes; k++)
    if (!strcmp(m->x->opt->shapes[k].name, name))
      return &m->x->opt->shapes[k];
  return NULL;
}

static const ConstantInput *bound_const(Imp *m, const char *name) {
  for (int k = 0; k < m->x->opt->nconstants; k++)
    if (!strcmp(m->x->opt->constants[k].name, name))
      return &m->x->opt->constants[k];
  return NULL;
}

/* A graph input: its Val (an IR input tensor, or a --constant-input). */
static Val *graph_input(Imp *m, const VInfo *vi, int *ins, int *nins) {
  DType dt;
  if (!vi->has_type || !onnx_dtype(vi->elem_type, &dt))
    FAIL("graph input '%s' has no supported tensor type (elem_type %d)", vi->name,
         vi->elem_type);
  int64_t dims[MAX_DIMS];
  int nd = vi->ndims;
  const InputShape *bs = bound_shape(m, vi->name);
  if (bs) {
    if (vi->has_shape && bs->ndims != vi->ndims)
      FAIL("--input-shape %s has rank %d; the model's input has rank %d", vi->name, bs->ndims,
           vi->ndims);
    nd = bs->ndims;
    for (int d = 0; d < nd; d++) {
      if (vi->has_shape && vi->dims[d] >= 0 && vi->dims[d] != bs->dims[d])
        FAIL("--input-shape %s: dimension %d is %lld in the model", vi->name, d,
             (long long)vi->dims[d]);
      dims[d] = bs->dims[d];
    }
  } else {
    if (!vi->has_shape)
      FAIL("graph input '%s' has no shape: give --input-shape %s=D0xD1x...", vi->name,
           vi->name);
    for (int d = 0; d < nd; d++) {
      if (vi->dims[d] < 0)
        FAIL("graph input '%s' has a symbolic dimension %d ('%s'): bind it with "
             "--input-shape %s=D0xD1x...", vi->name, d,
             vi->dim_param[d] ? vi->dim_param[d] : "?", vi->name);
      dims[d] = vi->dims[d];
    }
  }
  const ConstantInput *ci = bound_const(m, vi->name);
  if (ci) {
    size_t size;
    const uint8_t *buf = read_file(ci->file, &size);
    Val *v = new_const(m, vi->name, dt, nd, dims);
    if (size == val_bytes(v)) {
      memcpy((void *)v->data, buf, size);
      return v;
    }
    DType pdt;
    int pnd;
    int64_t pdims[MAX_DIMS];
    const uint8_t *pdata;
    size_t npd;
    const char *pname;
    read_tensor_pb(ci->file, &pname, &pdt, &pnd, pdims, &pdata, &npd);
    if (pdt != dt || npd != val_bytes(v))
      error_file(ci->file, "holds neither %zu raw bytes nor a TensorProto of %s[%lld "
                 "elements] for input '%s'", val_bytes(v), dtype_name(dt),
                 (long long)val_elems(v), vi->name);
    memcpy((void *)v->data, pdata, npd);
    return v;
  }
  Val *v = new_val(m, vi->name, dt, nd, dims);
  int l = nd == 4 && m->x->opt->nhwc_io ? L_NHWC : L_ONNX;
  int t = out_tensor(m, v, l);
  T(m, t)->is_input = true;
  ins[(*nins)++] = t;
  return v;
}

/* ------------------------------------------------------------ import */

Graph *onnx_import(Onnx *x) {
  Imp mm = {.x = x, .budget = (size_t)64 << 20}, *m = &mm;
  Graph *g = arena_alloc(sizeof *g);
  g->path = x->path;
  g->description = x->producer ? x->producer : "";
  g->nsubgraphs = 1;
  m->g = g;
  /* Every name once in the table; reads counted for the fusions. */
  size_t names = (size_t)x->ninits + (size_t)x->nins;
  for (int i = 0; i < x->nnodes; i++)
    names += (size_t)x->nodes[i].noutputs + (size_t)x->nodes[i].ninputs;
  grow_slots(m, names + 16);
  for (int i = 0; i < x->nnodes; i++)
    for (int k = 0; k < x->nodes[i].ninputs; k++)
      if (x->nodes[i].inputs[k][0])
        slot(m, x->nodes[i].inputs[k], true)->uses++;
  for (int i = 0; i < x->nouts; i++)
    slot(m, x->outs[i].name, true)->uses += 2; /* never fused away */

  for (int i = 0; i < x->ninits; i++) {
    Val *v = x->inits[i];
    Slot *s = slot(m, v->name, true);
    s->v = v; /* a later initializer of the same name wins, as in ONNX Runtime */
  }
  int *ins = arena_array((size_t)x->nins + 1, sizeof(int));
  int nins = 0;
  for (int i = 0; i < x->nins; i++) {
    const VInfo *vi = &x->ins[i];
    Slot *s = slot(m, vi->name, true);
    if (s->v && s->v->data && !bound_const(m, vi->name))
      continue; /* an initializer: a constant (its default value) */
    s->v = graph_input(m, vi, ins, &nins);
  }
  for (int k = 0; k < x->opt->nconstants; k++) {
    const char *name = x->opt->constants[k].name;
    bool found = false;
    for (int i = 0; i < x->nins; i++)
      found = found || !strcmp(x->ins[i].name, name);
    if (!found)
      FAIL("--constant-input %s: the model has no input of that name", name);
  }
  for (int k = 0; k < x->opt->nshapes; k++) {
    const char *name = x->opt->shapes[k].name;
    bool found = false;
    for (int i = 0; i < x->nins; i++)
      found = found || !strcmp(x->ins[i].name, name);
    if (!found)
      FAIL("--input-shape %s: the model has no input of that name", name);
  }
  m->fused = arena_array((size_t)x->nnodes + 1, sizeof(bool));
  for (int i = 0; i < x->nnodes; i++) {
    if (m->fused[i])
      continue;
    m->n = x->node = &x->nodes[i];
    for (int k = 0; k < m->n->noutputs; k++)
      if (m->n->outputs[k][0] && lookup(m, m->n->outputs[k]))
        FAIL("output '%s' is produced twice", m->n->outputs[k]);
    import_node(m);
  }
  m->n = x->node = NULL;

  int *outs = arena_array((size_t)x->nouts + 1, sizeof(int));
  for (int i = 0; i < x->nouts; i++) {
    Val *v = lookup(m, x->outs[i].name);
    if (!v)
      FAIL("graph output '%s' is produced by no node", x->outs[i].name);
    int l = v->ndims == 4 && x->opt->nhwc_io ? L_NHWC : L_ONNX;
    int t = ir(m, v, l);
    Tensor *tt = T(m, t);
    if (!(tt->is_input || tt->is_output || tt->data || tt->producer < 0))
      tt->name = v->name; /* the generated struct member takes the ONNX name */
    else {
      /* A copy gives the output its own tensor (and the ONNX name). */
      int64_t dims[MAX_DIMS];
      for (int d = 0; d < tt->ndims; d++)
        dims[d] = tt->dims[d];
      int c = new_tensor(m, v->name, tt->dtype, tt->ndims, dims);
      int32_t s[MAX_DIMS];
      for (int d = 0; d < tt->ndims; d++)
        s[d] = tt->dims[d];
      int rin[2] = {t, const_i32(m, s, tt->ndims)};
      int o = add_op(m, OP_RESHAPE, rin, 2, &c, 1);
      OP(m, o)->opt.fields = OPTF_NEW_SHAPE;
      OP(m, o)->opt.nnew_shape = tt->ndims;
      memcpy(OP(m, o)->opt.new_shape, s, sizeof s);
      t = c;
    }
    T(m, t)->is_output = true;
    outs[i] = t;
  }
  g->tensors = m->tensors;
  g->ntensors = m->ntensors;
  g->ops = m->ops;
  g->nops = m->nops;
  g->inputs = ins;
  g->ninputs = nins;
  g->outputs = outs;
  g->noutputs = x->nouts;
  g->metadata = arena_alloc(sizeof(Metadata));
  return g;
}
