/* SPDX-License-Identifier: Apache-2.0 */
/*
 * onnx_qop.c - the QOperator nodes: QLinearConv and QLinearMatMul on
 * the integer kernels where their types allow, else (and ConvInteger,
 * MatMulInteger) composed exactly in float32 (comment "QOperator"
 * below); ONNX Runtime's com.microsoft QLinearAdd, QLinearMul,
 * QLinearGlobalAveragePool, QLinearLeakyRelu and QLinearConcat on ADD,
 * MUL, MEAN, LEAKY_RELU and CONCATENATION.
 */
#include "onnx_import.h"

#include <float.h>
#include <math.h>
#include <string.h>

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

/* quant_params() for a QOperator node: the scales (input ks; none when
 * ks < 0) positive normal floats, the zero points (input kz) of type dt
 * when given. */
static int64_t qop_params(Imp *m, int ks, int kz, DType dt, float **s, float **z) {
  const Val *zv;
  int64_t n = quant_params(m, ks, kz, true, s, z, &zv);
  if (zv && zv->dt != dt)
    FAIL("the zero point (input %d) has type %s, its tensor %s", kz, dtype_name(zv->dt),
         dtype_name(dt));
  for (int64_t c = 0; ks >= 0 && c < n; c++)
    if (!((*s)[c] > FLT_MIN) || !((*s)[c] < FLT_MAX))
      FAIL("scale %g (input %d) is not a positive normal float", (double)(*s)[c], ks);
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
  cast_op(m, t, out, DT_FLOAT32, dt);
}

/* ---------------------------------------------- on the integer kernels */

/*
 * QLinearConv and QLinearMatMul whose types the IR's integer kernels
 * take run on them, as the QDQ forms do (onnx_qdq.c's fused_conv() and
 * fused_fc()): the node's operands become DequantizeLinear Vals
 * (qop_dq_*) read by a stand-in Conv node.  The int8 kernels take int8
 * weights of zero point 0, per tensor or per output channel; the uint8
 * kernels int8 or uint8 weights of any zero point, per tensor.  The
 * output has the input's type, the bias values below 2^24 (exact in the
 * float weights the Conv import reads).  Anything else keeps the exact
 * float32 composition above.
 */

/* Integer activation x with one scale and zero point as a
 * DequantizeLinear Val bound to a name of its own (*name). */
static Val *qop_dq_act(Imp *m, Val *x, float s, float zp, const char *tag, const char **name) {
  *name = arena_printf("%s:%s", m->n->outputs[0], tag);
  Val *v = new_val(m, *name, DT_FLOAT32, x->ndims, x->dims);
  v->qsrc = x;
  v->q = quant1(s, (int64_t)zp);
  bind(m, *name, v);
  return v;
}

/* Constant integer weights w (n scales and zero points along axis) as a
 * DequantizeLinear Val of int8 values: uint8 weights less 128, their
 * zero points likewise (quant_weights() adds the 128 back). */
static Val *qop_dq_weights(Imp *m, Val *w, const float *s, const float *zp, int64_t n,
                           int axis, const char **name) {
  int off = w->dt == DT_UINT8 ? 128 : 0;
  Val *q = new_const(m, arena_printf("%s:wq", m->n->outputs[0]), DT_INT8, w->ndims, w->dims);
  *name = arena_printf("%s:w", m->n->outputs[0]);
  Val *v = new_const(m, *name, DT_FLOAT32, w->ndims, w->dims);
  int64_t inner = 1;
  for (int d = axis + 1; d < w->ndims; d++)
    inner *= w->dims[d];
  for (int64_t e = 0; e < val_elems(w); e++) {
    int64_t c = n > 1 ? (e / inner) % n : 0;
    int64_t i = cget_i(w, e) - off;
    ((int8_t *)q->data)[e] = (int8_t)i;
    ((float *)v->data)[e] = (float)(i - ((int64_t)zp[c] - off)) * s[c];
  }
  v->qsrc = q;
  v->q.nscale = (int)n;
  v->q.axis = n > 1 ? axis : 0;
  v->q.scale = arena_array((size_t)n, sizeof(float));
  v->q.zero_point = arena_array((size_t)n, sizeof(int64_t));
  for (int64_t c = 0; c < n; c++) {
    v->q.scale[c] = s[c];
    v->q.zero_point[c] = (int64_t)zp[c] - off;
  }
  bind(m, *name, v);
  return v;
}

/* The int32 bias b as a DequantizeLinear Val (scale x_scale * w_scale). */
static Val *qop_dq_bias(Imp *m, Val *b, float xs, const float *ws, int64_t nw,
                        const char **name) {
  *name = arena_printf("%s:b", m->n->outputs[0]);
  Val *v = new_const(m, *name, DT_FLOAT32, b->ndims, b->dims);
  for (int64_t e = 0; e < val_elems(b); e++)
    ((float *)v->data)[e] = (float)cget_i(b, e) * (xs * ws[nw > 1 ? e : 0]);
  v->qsrc = b;
  v->q = quant1(xs * ws[0], 0);
  bind(m, *name, v);
  return v;
}

/* Whether weights of type wt with n zero points wz suit the kernels of
 * activations of type xt. */
static bool qop_int_weights(DType xt, DType wt, const float *wz, int64_t n) {
  if (xt == DT_UINT8)
    return n == 1;
  for (int64_t c = 0; c < n; c++)
    if (wz[c] != 0.0f)
      return false;
  return wt == DT_INT8;
}

/* QLinearConv on CONV_2D / DEPTHWISE_CONV_2D; false: not for the integer
 * kernels. */
static bool qop_conv_int(Imp *m, Val *x, Val *w, Val *b, const float *xs, const float *xz,
                         const float *ws, const float *wz, int64_t nw, QOut *o) {
  if (o->dt != x->dt || !quant_fits(m, x, xs[0], (int64_t)xz[0]) ||
      !qop_int_weights(x->dt, w->dt, wz, nw))
    return false;
  for (int64_t e = 0; b && e < val_elems(b); e++)
    if (cget_i(b, e) <= -(1 << 24) || cget_i(b, e) >= (1 << 24))
      return false;
  const char *ins[3];
  Val *xd = qop_dq_act(m, x, xs[0], xz[0], "x", &ins[0]);
  Val *wd = qop_dq_weights(m, w, ws, wz, nw, 0, &ins[1]);
  Val *bd = b ? qop_dq_bias(m, b, xs[0], ws, nw, &ins[2]) : NULL;
  const ONode *node = m->n;
  ONode s = *node;
  s.op_type = "Conv";
  s.inputs = ins;
  s.ninputs = b ? 3 : 2;
  m->n = &s;
  fused_conv(m, xd, wd, bd, o);
  m->n = node;
  return true;
}

/* QLinearMatMul of a constant 2-D b on FULLY_CONNECTED; false: not for
 * the integer kernels. */
static bool qop_matmul_int(Imp *m, Val *a, Val *b, const float *as, const float *az,
                           const float *bs, const float *bz, int64_t nb, QOut *o) {
  if (!b->data || b->ndims != 2 || a->ndims < 2 || a->dims[a->ndims - 1] != b->dims[0] ||
      o->dt != a->dt || !quant_fits(m, a, as[0], (int64_t)az[0]) ||
      !qop_int_weights(a->dt, b->dt, bz, nb))
    return false;
  const char *an, *bn;
  Val *ad = qop_dq_act(m, a, as[0], az[0], "a", &an);
  Val *wd = qop_dq_weights(m, b, bs, bz, nb, 1, &bn);
  fused_fc(m, ad, wd, NULL, false, o);
  return true;
}

/* QLinearConv (integer: false) or ConvInteger. */
static void import_qop_conv(Imp *m, bool qlinear) {
  int kw = qlinear ? 3 : 1;
  Val *x = act4(m, 0), *w = need_const_input(m, kw, "weights");
  need_x8(m, x, 0);
  need_x8(m, w, kw);
  if (w->ndims != 4)
    FAIL("the weights have rank %d, expected 4", w->ndims);
  float *xs, *ws, *ys = NULL, *xz, *wz, *yz = NULL;
  if (qop_params(m, qlinear ? 1 : -1, 2, x->dt, &xs, &xz) != 1)
    FAIL("x_scale and x_zero_point must be one value each");
  int64_t nw = qop_params(m, qlinear ? 4 : -1, qlinear ? 5 : 3, w->dt, &ws, &wz);
  if (nw != 1 && nw != w->dims[0])
    FAIL("%lld weight scales or zero points for %lld output channels", (long long)nw,
         (long long)w->dims[0]);
  Val *y = NULL;
  Val *b = qlinear ? in(m, 8) : NULL;
  if (qlinear) {
    y = in(m, 7);
    if (y && y->dt != DT_INT8 && y->dt != DT_UINT8)
      FAIL("y_zero_point has type %s; int8 or uint8 expected", dtype_name(y->dt));
    if (qop_params(m, 6, 7, y ? y->dt : DT_UINT8, &ys, &yz) != 1)
      FAIL("y_scale and y_zero_point must be one value each");
  }
  if (b && (!b->data || b->dt != DT_INT32 || val_elems(b) != w->dims[0]))
    FAIL("the bias must be an int32 constant of %lld values", (long long)w->dims[0]);
  QOut o = {.dt = y ? y->dt : DT_UINT8, .scale = ys ? ys[0] : 0, .zp = yz ? (int64_t)yz[0] : 0};
  if (qlinear && qop_conv_int(m, x, w, b, xs, xz, ws, wz, nw, &o))
    return;
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
  float *as, *bs, *ys = NULL, *az, *bz, *yz = NULL;
  if (qop_params(m, qlinear ? 1 : -1, 2, a->dt, &as, &az) != 1)
    FAIL("a_scale and a_zero_point must be one value each");
  int64_t nb = qop_params(m, qlinear ? 4 : -1, qlinear ? 5 : 3, b->dt, &bs, &bz);
  if (nb != 1 && (nb != N || !b->data || b->ndims != 2))
    FAIL("b's quantization must be per tensor, or per column of a constant 2-D b");
  Val *y = qlinear ? in(m, 7) : NULL;
  if (qlinear) {
    if (y && (y->dt != DT_INT8 && y->dt != DT_UINT8))
      FAIL("y_zero_point must be an int8 or uint8 constant");
    if (qop_params(m, 6, 7, y ? y->dt : DT_UINT8, &ys, &yz) != 1)
      FAIL("y_scale and y_zero_point must be one value each");
  }
  QOut o = {.dt = y ? y->dt : DT_UINT8, .scale = ys ? ys[0] : 0, .zp = yz ? (int64_t)yz[0] : 0};
  if (qlinear && qop_matmul_int(m, a, b, as, az, bs, bz, nb, &o))
    return;
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

/* ------------------------------------- ONNX Runtime's contrib QOperator */

/*
 * The com.microsoft nodes ONNX Runtime's quantizer writes in the
 * QOperator form, on the IR's integer ops:
 *   QLinearAdd, QLinearMul (A, A_scale, A_zero_point, B, B_scale,
 *     B_zero_point, C_scale, C_zero_point; zero points optional, 0;
 *     multidirectional broadcasting) -> ADD, MUL;
 *   QLinearGlobalAveragePool (X, x_scale, x_zero_point, y_scale,
 *     y_zero_point; channels_last) -> MEAN over H and W;
 *   QLinearLeakyRelu (X, X_scale, X_zero_point, Y_scale, Y_zero_point;
 *     alpha) -> LEAKY_RELU (a 256-entry table either way);
 *   QLinearConcat (Y_scale, Y_zero_point, (X, X_scale, X_zero_point)...;
 *     axis) -> CONCATENATION, with a QUANTIZE before each input of
 *     another quantization.
 * All per tensor, int8 or uint8, one type throughout.  --rounding
 * onnxruntime lowers them to MLAS's float arithmetic (lower.c's
 * op_rounding()); the default rounding to TFLite's fixed point.
 */

/* The IR tensor of operand v (layout l) carrying quantization (s, zp): an
 * activation's own tensor (refused when it already carries another),
 * a constant's fresh copy. */
static int qop_operand(Imp *m, Val *v, int l, float s, int64_t zp) {
  if (v->data) {
    Val *c = new_const(m, arena_printf("%s:%s", m->n->outputs[0], v->name), v->dt, v->ndims,
                       v->dims);
    memcpy((void *)c->data, v->data, val_bytes(v));
    v = c;
  } else if (!quant_fits(m, v, s, zp)) {
    FAIL("'%s' is read with another scale or zero point than it was written with", v->name);
  }
  int t = ir(m, v, l);
  if (!T(m, t)->q.nscale)
    T(m, t)->q = quant1(s, zp);
  if (!v->data)
    for (int k = 0; k < 2; k++)
      if (v->t[k] >= 0 && !T(m, v->t[k])->q.nscale)
        T(m, v->t[k])->q = quant1(s, zp);
  return t;
}

/* One scale and zero point (inputs ks, kz) of type dt. */
static void qop_scalar_params(Imp *m, int ks, int kz, DType dt, float *s, int64_t *zp) {
  float *sv, *zv;
  if (qop_params(m, ks, kz, dt, &sv, &zv) != 1)
    FAIL("the scale (input %d) and zero point (input %d) must be one value each", ks, kz);
  *s = sv[0];
  *zp = (int64_t)zv[0];
}

/* QLinearAdd (ADD) or QLinearMul (MUL). */
static void import_qop_binary(Imp *m, OpKind kind) {
  Val *a = act_in(m, 0), *b = act_in(m, 3);
  need_x8(m, a, 0);
  need_x8(m, b, 3);
  if (a->dt != b->dt)
    FAIL("A is %s and B %s; one type expected", dtype_name(a->dt), dtype_name(b->dt));
  float as, bs, cs;
  int64_t az, bz, cz;
  qop_scalar_params(m, 1, 2, a->dt, &as, &az);
  qop_scalar_params(m, 4, 5, a->dt, &bs, &bz);
  qop_scalar_params(m, 6, 7, a->dt, &cs, &cz);
  int64_t od[MAX_DIMS];
  int nd;
  if (!bcast(a->dims, a->ndims, b->dims, b->ndims, od, &nd))
    FAIL("the shapes of A and B do not broadcast");
  int l = nd == 4 && a->ndims == 4 && b->ndims == 4 &&
                  (pref(a) == L_NHWC || pref(b) == L_NHWC)
              ? L_NHWC
              : L_ONNX;
  int ins[2] = {qop_operand(m, a, l, as, az), qop_operand(m, b, l, bs, bz)};
  int out = act_out(m, 0, a->dt, nd, od, l, NULL);
  T(m, out)->q = quant1(cs, cz);
  int o = add_op(m, kind, ins, 2, &out, 1);
  OP(m, o)->opt.fields = OPTF_ACTIVATION;
}

/* QLinearGlobalAveragePool (rank 4): MEAN over the NHWC tensor's axes 1
 * and 2, which is the input itself when channels_last. */
static void import_qop_global_average(Imp *m) {
  Val *x = act4(m, 0);
  need_x8(m, x, 0);
  bool last = attr_i(m, "channels_last", 0) != 0;
  float xs, ys;
  int64_t xz, yz;
  qop_scalar_params(m, 1, 2, x->dt, &xs, &xz);
  qop_scalar_params(m, 3, 4, x->dt, &ys, &yz);
  int l = last ? L_ONNX : L_NHWC;
  int t = qop_operand(m, x, l, xs, xz);
  int64_t od[4] = {x->dims[0], last ? 1 : x->dims[1], 1, last ? x->dims[3] : 1};
  int out = act_out(m, 0, x->dt, 4, od, l, NULL);
  T(m, out)->q = quant1(ys, yz);
  int32_t axes[2] = {1, 2};
  int ins[2] = {t, const_i32_tensor(m, axes, 2)};
  int o = add_op(m, OP_MEAN, ins, 2, &out, 1);
  OP(m, o)->opt.fields = OPTF_KEEP_DIMS;
  OP(m, o)->opt.keep_dims = true;
}

/* QLinearLeakyRelu (X, X_scale, X_zero_point, Y_scale, Y_zero_point;
 * alpha): LEAKY_RELU of the integer tensor. */
static void import_qop_leaky_relu(Imp *m) {
  Val *x = act_in(m, 0);
  need_x8(m, x, 0);
  float xs, ys;
  int64_t xz, yz;
  qop_scalar_params(m, 1, 2, x->dt, &xs, &xz);
  qop_scalar_params(m, 3, 4, x->dt, &ys, &yz);
  int l = pref(x);
  int t = qop_operand(m, x, l, xs, xz);
  int out = act_out(m, 0, x->dt, x->ndims, x->dims, l, NULL);
  T(m, out)->q = quant1(ys, yz);
  int o = add_op(m, OP_LEAKY_RELU, &t, 1, &out, 1);
  OP(m, o)->opt.fields = OPTF_ALPHA;
  OP(m, o)->opt.alpha = attr_f(m, "alpha", 0.01f);
}

/* QLinearConcat (Y_scale, Y_zero_point, then X, X_scale, X_zero_point
 * per input; axis): CONCATENATION, each input whose scale or zero point
 * is not the output's first requantized by a QUANTIZE (ONNX Runtime's
 * identity table: dequantize in float, MlasQuantizeLinear). */
static void import_qop_concat(Imp *m) {
  int nin = m->n->ninputs;
  if (nin < 5 || (nin - 2) % 3)
    FAIL("QLinearConcat takes Y_scale, Y_zero_point and (X, X_scale, X_zero_point) triples");
  int n = (nin - 2) / 3;
  Val *a = act_in(m, 2);
  need_x8(m, a, 2);
  float ys;
  int64_t yz;
  qop_scalar_params(m, 0, 1, a->dt, &ys, &yz);
  int64_t axis = resolve(m, attr_i(m, "axis", 0), a->ndims, "axis");
  int l = L_ONNX;
  for (int k = 0; k < n; k++) {
    Val *v = act_in(m, 2 + 3 * k);
    if (a->ndims == 4 && !v->data && pref(v) == L_NHWC)
      l = L_NHWC;
  }
  int64_t dims[MAX_DIMS];
  memcpy(dims, a->dims, sizeof dims);
  dims[axis] = 0;
  int *ins = arena_array((size_t)n, sizeof(int));
  for (int k = 0; k < n; k++) {
    int kx = 2 + 3 * k;
    Val *v = act_in(m, kx);
    if (v->ndims != a->ndims || v->dt != a->dt)
      FAIL("input %d has another rank or type than input 2", kx);
    for (int d = 0; d < a->ndims; d++)
      if (d != axis && v->dims[d] != a->dims[d])
        FAIL("input %d's shape does not fit", kx);
    dims[axis] += v->dims[axis];
    float xs;
    int64_t xz;
    qop_scalar_params(m, kx + 1, kx + 2, a->dt, &xs, &xz);
    int t = qop_operand(m, v, l, xs, xz);
    if (xs != ys || xz != yz) {
      Tensor *src = T(m, t);
      int64_t d[MAX_DIMS];
      for (int i = 0; i < src->ndims; i++)
        d[i] = src->dims[i];
      int r = new_tensor(m, "", a->dt, src->ndims, d);
      T(m, r)->q = quant1(ys, yz);
      add_op(m, OP_QUANTIZE, &t, 1, &r, 1);
      t = r;
    }
    ins[k] = t;
  }
  int out = act_out(m, 0, a->dt, a->ndims, dims, l, NULL);
  T(m, out)->q = quant1(ys, yz);
  int o = add_op(m, OP_CONCATENATION, ins, n, &out, 1);
  OP(m, o)->opt.fields = OPTF_AXIS | OPTF_ACTIVATION;
  OP(m, o)->opt.axis = l == L_NHWC ? nhwc_axis((int)axis) : (int)axis;
}

/* The QOperator nodes; false: not one of them. */
bool import_qop(Imp *m) {
  const char *op = m->n->op_type;
  if (!strcmp(m->n->domain, "com.microsoft")) {
    if (!strcmp(op, "QLinearAdd")) import_qop_binary(m, OP_ADD);
    else if (!strcmp(op, "QLinearMul")) import_qop_binary(m, OP_MUL);
    else if (!strcmp(op, "QLinearGlobalAveragePool")) import_qop_global_average(m);
    else if (!strcmp(op, "QLinearLeakyRelu")) import_qop_leaky_relu(m);
    else if (!strcmp(op, "QLinearConcat")) import_qop_concat(m);
    else return false;
    return true;
  }
  if (m->n->domain[0] && strcmp(m->n->domain, "ai.onnx"))
    return false;
  if (!strcmp(op, "QLinearConv")) import_qop_conv(m, true);
  else if (!strcmp(op, "ConvInteger")) import_qop_conv(m, false);
  else if (!strcmp(op, "QLinearMatMul")) import_qop_matmul(m, true);
  else if (!strcmp(op, "MatMulInteger")) import_qop_matmul(m, false);
  else return false;
  return true;
}
