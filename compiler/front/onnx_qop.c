/* SPDX-License-Identifier: Apache-2.0 */
/*
 * onnx_qop.c - the QOperator nodes (QLinearConv, QLinearMatMul,
 * ConvInteger, MatMulInteger), composed exactly in float32 (comment
 * "QOperator" below).
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
  int o = add_op(m, OP_CAST, &t, 1, &out, 1);
  OP(m, o)->opt.fields = OPTF_CAST;
  OP(m, o)->opt.in_dtype = DT_FLOAT32;
  OP(m, o)->opt.out_dtype = dt;
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
bool import_qop(Imp *m) {
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
