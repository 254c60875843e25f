/* SPDX-License-Identifier: Apache-2.0 */
/*
 * onnx_ops.c - the element-wise, reduction and data-movement
 * nodes on activations: binary and variadic arithmetic, Pow, Clip, the
 * activations with parameters, comparisons and Where, Transpose, Concat,
 * Softmax, Pad, Slice, Gather, Split, the reductions, ArgMax/ArgMin,
 * Resize (TFLite's resize ops or tap tables), Tile, Expand,
 * DepthToSpace/SpaceToDepth.
 */
#include "onnx_import.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* ------------------------------------------------------ binary ops */

void binary(Imp *m, OpKind kind) {
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
void import_pow(Imp *m) {
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

void import_reciprocal(Imp *m) {
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
int scalar_op(Imp *m, OpKind kind, int t, float s, const char *name) {
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
void variadic(Imp *m, OpKind kind, bool mean) {
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

void import_clip(Imp *m) {
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
void import_hard_sigmoid(Imp *m) {
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

void import_leaky_relu(Imp *m) {
  Val *x = act_in(m, 0);
  int l = pref(x);
  int t = ir(m, x, l);
  int out = act_out(m, 0, x->dt, x->ndims, x->dims, l, NULL);
  int o = add_op(m, OP_LEAKY_RELU, &t, 1, &out, 1);
  OP(m, o)->opt.fields = OPTF_ALPHA;
  OP(m, o)->opt.alpha = attr_f(m, "alpha", 0.01f);
}

/* ------------------------------------------------ shape ops on activations */

/* Reshape-like: the ONNX element order is kept.  A 4-D NHWC-only value
 * whose two orders coincide reshapes without a TRANSPOSE. */
void reshape_act(Imp *m, int ndims, const int64_t *dims) {
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

void import_transpose(Imp *m) {
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

void import_concat(Imp *m) {
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

void import_softmax(Imp *m, bool log) {
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

void import_pad(Imp *m) {
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
    Val *p = need_const_input(m, 1, "pads");
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

void import_slice(Imp *m) {
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
  int ins[4] = {ir(m, x, L_ONNX), const_i32_tensor(m, b, r), const_i32_tensor(m, e, r),
                const_i32_tensor(m, st, r)};
  int out = act_out(m, 0, x->dt, r, s.count, L_ONNX, NULL);
  int o = add_op(m, OP_STRIDED_SLICE, ins, 4, &out, 1);
  OP(m, o)->opt.fields = OPTF_SLICE_MASKS;
  OP(m, o)->opt.end_mask = end_mask;
}

void import_gather(Imp *m) {
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
    int ins[4] = {ir(m, x, L_ONNX), const_i32_tensor(m, b, r), const_i32_tensor(m, e, r),
                  const_i32_tensor(m, st, r)};
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

void import_split(Imp *m) {
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
    Val *s = need_const_input(m, 1, "split");
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
  int ins[3] = {ir(m, x, l), const_i32_tensor(m, sz, n), const_i32_tensor(m, &ax, 1)};
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

void import_reduce(Imp *m, OpKind kind) {
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
  int ins[2] = {ir(m, x, l), const_i32_tensor(m, ax, nax)};
  int out = act_out(m, 0, x->dt, no, od, l, NULL);
  int o = add_op(m, kind, ins, 2, &out, 1);
  OP(m, o)->opt.fields = OPTF_KEEP_DIMS;
  OP(m, o)->opt.keep_dims = keep;
}

/* ArgMax, ArgMin: ARG_MAX / ARG_MIN (the first extreme index, int64).
 * select_last_index = 1: the last one is n - 1 minus the first one of x
 * reversed along the axis - REVERSE_V2 first, then a GATHER from the
 * table {n - 1, ..., 0}. */
void import_arg(Imp *m, OpKind kind) {
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
    int rins[2] = {src, const_i32_tensor(m, &ax, 1)};
    add_op(m, OP_REVERSE_V2, rins, 2, &rv, 1);
    src = rv;
  }
  int ins[2] = {src, const_i32_tensor(m, &ax, 1)};
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

void import_resize(Imp *m) {
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
  int ins[2] = {ir(m, x, L_NHWC), const_i32_tensor(m, hw, 2)};
  int64_t od[4] = {out[0], out[1], out[2], out[3]};
  int t = act_out(m, 0, DT_FLOAT32, 4, od, L_NHWC, NULL);
  int o = add_op(m, kind, ins, 2, &t, 1);
  OP(m, o)->opt.fields = OPTF_RESIZE;
  OP(m, o)->opt.align_corners = align;
  OP(m, o)->opt.half_pixel_centers = half;
}

/* ------------------------------------------------- more element-wise ops */

/* A float32-only unary node onto kind (Log, Ceil, Round: ONNX defines
 * them for floating-point types only). */
void unary_f32(Imp *m, OpKind kind) {
  need_f32(m, act_in(m, 0));
  activation(m, kind, ACT_NONE);
}

/* Equal, Less, Greater, LessOrEqual, GreaterOrEqual (bool output), And,
 * Or (bool inputs): broadcasting binary ops; 8- and 16-bit integers are
 * compared as int32, which is exact. */
void compare_op(Imp *m, OpKind kind) {
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

void import_not(Imp *m) {
  Val *x = act_in(m, 0);
  if (x->dt != DT_BOOL)
    FAIL("input of type %s; Not takes bool", dtype_name(x->dt));
  activation(m, OP_LOGICAL_NOT, ACT_NONE);
}

/* Where(condition, X, Y): SELECT_V2, broadcasting all three (8-, 16-,
 * 32- and 64-bit values). */
void import_where(Imp *m) {
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
void import_elu(Imp *m, bool selu) {
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
void import_softplus(Imp *m) {
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
void import_tile(Imp *m) {
  Val *x = act_in(m, 0), *rp = need_const_input(m, 1, "repeats");
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
  int ins[2] = {ir(m, x, L_ONNX), const_i32_tensor(m, mult, r)};
  int out = act_out(m, 0, x->dt, r, od, L_ONNX, NULL);
  add_op(m, OP_TILE, ins, 2, &out, 1);
}

/* Expand of an activation: BROADCAST_TO in the model's layout. */
void import_expand(Imp *m) {
  Val *x = act_in(m, 0), *s = need_const_input(m, 1, "shape");
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
  int ins[2] = {ir(m, x, L_ONNX), const_i32_tensor(m, d32, n)};
  int out = act_out(m, 0, x->dt, n, dims, L_ONNX, NULL);
  add_op(m, OP_BROADCAST_TO, ins, 2, &out, 1);
}

/* DepthToSpace (DCR: TFLite's DEPTH_TO_SPACE in NHWC; CRD: the channels
 * first gathered into DCR order) and SpaceToDepth (TFLite's
 * SPACE_TO_DEPTH). */
void import_block_shuffle(Imp *m, bool to_space) {
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
