/* SPDX-License-Identifier: Apache-2.0 */
/*
 * onnx_values.c - the importer's building blocks: the table of ONNX
 * values by name, the IR builder (tensors, constants, ops, the layout
 * transposes of ir()), a node's inputs and attributes, element access to
 * constant values, shape broadcasting, and the helpers every activation
 * import uses (act_in, act_out, floats_of, activation, common_layout).
 * It calls no node import; ir() reaches onnx_qdq.c's settle_dq() for a
 * DequantizeLinear's float value, made on first use.
 */
#include "onnx_import.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* ------------------------------------------------- the value table */

static uint64_t hash_str(const char *s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

Slot *slot(Imp *m, const char *name, bool add) {
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

void grow_slots(Imp *m, size_t want) {
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

void bind(Imp *m, const char *name, Val *v) {
  if (!name[0])
    return; /* an output nobody may read */
  Slot *s = slot(m, name, true);
  if (s->v)
    FAIL("value '%s' is produced twice", name);
  s->v = v;
}

Val *lookup(Imp *m, const char *name) {
  Slot *s = slot(m, name, false);
  return s ? s->v : NULL;
}

int uses_of(Imp *m, const char *name) {
  Slot *s = slot(m, name, false);
  return s ? s->uses : 0;
}

/* ------------------------------------------------------ IR builder */

int32_t dim32(Imp *m, int64_t d) {
  if (d < 0 || d > INT32_MAX)
    FAIL("dimension %lld out of range", (long long)d);
  return (int32_t)d;
}

int new_tensor(Imp *m, const char *name, DType dt, int ndims, const int64_t *dims) {
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

Tensor *T(Imp *m, int t) { return &m->tensors[t]; }

int const_tensor(Imp *m, const char *name, DType dt, int ndims, const int64_t *dims,
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

int const_i32_tensor(Imp *m, const int32_t *v, int n) {
  int64_t d = n;
  return const_tensor(m, "", DT_INT32, 1, &d, v);
}

/* Appends an op reading ins and writing outs; returns its index. */
int add_op(Imp *m, OpKind kind, const int *ins, int nins, const int *outs,
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

Op *OP(Imp *m, int i) { return &m->ops[i]; }

int reshape_to(Imp *m, int in, const char *name, int ndims, const int64_t *dims) {
  int32_t s[MAX_DIMS];
  for (int d = 0; d < ndims; d++)
    s[d] = dim32(m, dims[d]);
  int ins[2] = {in, const_i32_tensor(m, s, ndims)};
  int out = new_tensor(m, name, T(m, in)->dtype, ndims, dims);
  T(m, out)->q = T(m, in)->q;
  int o = add_op(m, OP_RESHAPE, ins, 2, &out, 1);
  OP(m, o)->opt.fields = OPTF_NEW_SHAPE;
  OP(m, o)->opt.nnew_shape = ndims;
  memcpy(OP(m, o)->opt.new_shape, s, sizeof s);
  return out;
}

int transpose_to(Imp *m, int in, const char *name, const int *perm) {
  Tensor *t = T(m, in);
  int n = t->ndims;
  int32_t p[MAX_DIMS];
  int64_t dims[MAX_DIMS];
  for (int d = 0; d < n; d++)
    p[d] = perm[d], dims[d] = t->dims[perm[d]];
  int ins[2] = {in, const_i32_tensor(m, p, n)};
  int out = new_tensor(m, name, t->dtype, n, dims);
  T(m, out)->q = T(m, in)->q;
  add_op(m, OP_TRANSPOSE, ins, 2, &out, 1);
  return out;
}

/* ------------------------------------------------------------ Vals */

const int TO_NHWC[4] = {0, 2, 3, 1}; /* NHWC dim d = ONNX dim TO_NHWC[d] */
const int TO_NCHW[4] = {0, 3, 1, 2};
/* The NHWC position of ONNX axis a of a 4-D value. */
int nhwc_axis(int a) { return a == 0 ? 0 : a == 1 ? 3 : a - 1; }

Val *new_val(Imp *m, const char *name, DType dt, int ndims, const int64_t *dims) {
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
Val *new_const(Imp *m, const char *name, DType dt, int ndims, const int64_t *dims) {
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
int out_tensor(Imp *m, Val *v, int layout) {
  if (layout == L_NHWC) {
    int64_t d[4];
    nhwc_dims(v, d);
    v->t[L_NHWC] = new_tensor(m, v->name, v->dt, 4, d);
  } else {
    v->t[L_ONNX] = new_tensor(m, v->name, v->dt, v->ndims, v->dims);
  }
  return v->t[layout];
}

int ir(Imp *m, Val *v, int layout) {
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
int pref(const Val *v) { return v->ndims == 4 && v->t[L_NHWC] >= 0 ? L_NHWC : L_ONNX; }

/* ------------------------------------------- node inputs, attributes */

Val *in(Imp *m, int k) {
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

Val *need_in(Imp *m, int k) {
  Val *v = in(m, k);
  if (!v)
    FAIL("input %d is missing", k);
  return v;
}

Val *need_const_input(Imp *m, int k, const char *what) {
  Val *v = need_in(m, k);
  if (!v->data)
    FAIL("input %d (%s, '%s') must be a constant (an initializer, or --constant-input)", k,
         what, v->name);
  return v;
}

const OAttr *attr(Imp *m, const char *name) {
  for (int k = 0; k < m->n->nattrs; k++)
    if (!strcmp(m->n->attrs[k].name, name))
      return &m->n->attrs[k];
  return NULL;
}

int64_t attr_i(Imp *m, const char *name, int64_t def) {
  const OAttr *a = attr(m, name);
  if (!a)
    return def;
  if (!(a->has & 2))
    FAIL("attribute %s is not an integer", name);
  return a->i;
}

float attr_f(Imp *m, const char *name, float def) {
  const OAttr *a = attr(m, name);
  if (!a)
    return def;
  if (a->has & 1)
    return a->f;
  if (a->has & 2)
    return (float)a->i;
  FAIL("attribute %s is not a float", name);
}

const char *attr_s(Imp *m, const char *name, const char *def) {
  const OAttr *a = attr(m, name);
  if (!a)
    return def;
  if (!(a->has & 4))
    FAIL("attribute %s is not a string", name);
  return a->s;
}

/* Integer list attribute: count (or -1 when absent). */
int attr_ints(Imp *m, const char *name, int64_t *out, int max) {
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

bool is_float(DType dt) {
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

double cget_d(const Val *v, int64_t k) {
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

int64_t cget_i(const Val *v, int64_t k) {
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
void cset(Val *v, int64_t k, double d, int64_t i) {
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

void copy_elem(Val *dst, int64_t kd, const Val *src, int64_t ks) {
  size_t w = (size_t)(dtype_bits(src->dt) + 7) / 8;
  memcpy((uint8_t *)dst->data + (size_t)kd * w, src->data + (size_t)ks * w, w);
}

int64_t resolve(Imp *m, int64_t axis, int rank, const char *what) {
  if (axis < -rank || axis >= (rank ? rank : 1))
    FAIL("%s %lld is out of range for rank %d", what, (long long)axis, rank);
  return axis < 0 ? axis + rank : axis;
}

/* Row-major strides of dims. */
void strides(const int64_t *dims, int n, int64_t *st) {
  int64_t s = 1;
  for (int d = n - 1; d >= 0; d--)
    st[d] = s, s *= dims[d];
}

/* numpy broadcasting of two shapes; false when they do not broadcast. */
bool bcast(const int64_t *a, int na, const int64_t *b, int nb, int64_t *out, int *n) {
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
int64_t bidx(const Val *v, const int64_t *out, int n, int64_t k) {
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
int const_list(Imp *m, const Val *v, int64_t *out, int max, const char *what) {
  int64_t n = val_elems(v);
  if (n > max)
    FAIL("%s has %lld values (at most %d)", what, (long long)n, max);
  if (is_float(v->dt))
    FAIL("%s must be integers", what);
  for (int64_t k = 0; k < n; k++)
    out[k] = cget_i(v, k);
  return (int)n;
}

/* ------------------------------------------------- activations: helpers */

/* The node's output k as a new activation Val in layout; returns its IR
 * tensor. */
int act_out(Imp *m, int k, DType dt, int ndims, const int64_t *dims, int layout,
            Val **vo) {
  Val *v = new_val(m, m->n->outputs[k], dt, ndims, dims);
  int t = out_tensor(m, v, layout);
  bind(m, m->n->outputs[k], v);
  if (vo)
    *vo = v;
  return t;
}

Val *act_in(Imp *m, int k) {
  Val *v = need_in(m, k);
  if (v->dt != DT_FLOAT32 && v->dt != DT_INT32 && v->dt != DT_INT8 && v->dt != DT_UINT8 &&
      v->dt != DT_INT16 && v->dt != DT_BOOL && v->dt != DT_INT64 && !wide_dtype(v->dt))
    FAIL("input %d ('%s') has type %s, which the kernels do not take", k, v->name,
         dtype_name(v->dt));
  return v;
}

Val *act4(Imp *m, int k) {
  Val *v = act_in(m, k);
  if (v->ndims != 4)
    FAIL("input %d has rank %d; only 2-D images (rank 4, NCHW) are supported", k, v->ndims);
  return v;
}

/* CAST of IR tensor in (of type from) into out (of type to); returns the op. */
int cast_op(Imp *m, int in, int out, DType from, DType to) {
  int o = add_op(m, OP_CAST, &in, 1, &out, 1);
  OP(m, o)->opt.fields = OPTF_CAST;
  OP(m, o)->opt.in_dtype = from;
  OP(m, o)->opt.out_dtype = to;
  return o;
}

/* One scale and zero point. */
Quant quant1(float scale, int64_t zp) {
  Quant q = {.nscale = 1, .axis = 0};
  q.scale = arena_array(1, sizeof(float));
  q.zero_point = arena_array(1, sizeof(int64_t));
  q.scale[0] = scale;
  q.zero_point[0] = zp;
  return q;
}

void need_f32(Imp *m, const Val *v) {
  if (v->dt != DT_FLOAT32)
    FAIL("'%s' is %s; this op is imported for float32 only", v->name, dtype_name(v->dt));
}

/* A float32 copy of a constant (any numeric type). */
float *floats_of(Imp *m, const Val *v) {
  if (m->qdq && v->qsrc)
    v = v->qsrc; /* the integers of a QDQ-fused node's weights and bias */
  int64_t n = val_elems(v);
  float *f = arena_array((size_t)(n ? n : 1), sizeof(float));
  for (int64_t k = 0; k < n; k++)
    f[k] = (float)cget_d(v, k);
  return f;
}

int f32_tensor(Imp *m, const char *name, int ndims, const int64_t *dims,
               const float *data) {
  return const_tensor(m, name, DT_FLOAT32, ndims, dims, data);
}

/* Fusable: the op writes t with no activation yet, t is its only output,
 * and the ONNX value is read once (by the node being imported). */
bool can_fuse(Imp *m, const Val *v, int t) {
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
void activation(Imp *m, OpKind kind, Activation act) {
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
int common_layout(Imp *m, int rank, int first, int count) {
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
int as_layout(Imp *m, Val *v, int layout, int rank) {
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
