/* SPDX-License-Identifier: Apache-2.0 */
/*
 * onnx_fold.c - constant folding: a node whose inputs are all
 * constant and whose op can be evaluated on the host (arithmetic, Cast,
 * Shape, Reshape, Squeeze, Concat, Gather, Slice, Transpose, Expand,
 * Range, ConstantOfShape) gets a constant output and no IR op (try_fold).
 * The shape arithmetic of Reshape, Squeeze, Flatten, Slice and Transpose
 * is here too: the activation imports (onnx_ops.c) share it.
 */
#include "onnx_import.h"

#include <float.h>
#include <math.h>
#include <string.h>

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
int reshape_dims(Imp *m, const Val *a, const Val *shape, int64_t *out) {
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

int squeeze_dims(Imp *m, const Val *a, int64_t *out, bool unsqueeze) {
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

int flatten_dims(Imp *m, const Val *a, int64_t *out) {
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
void slice_params(Imp *m, const Val *a, SliceP *s) {
  Val *vs = need_const_input(m, 1, "starts"), *ve = need_const_input(m, 2, "ends");
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

void perm_of(Imp *m, int rank, int *perm) {
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
  Val *s = need_const_input(m, 0, "shape");
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
  Val *a = need_in(m, 0), *s = need_const_input(m, 1, "shape");
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
bool try_fold(Imp *m) {
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
    fold_reshape_like(m, reshape_dims(m, need_in(m, 0), need_const_input(m, 1, "shape"), dims),
                      dims);
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
