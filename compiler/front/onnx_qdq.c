/* SPDX-License-Identifier: Apache-2.0 */
/*
 * onnx_qdq.c - QuantizeLinear, DequantizeLinear and QDQ fusion:
 * a float node between DequantizeLinear and QuantizeLinear nodes
 * imported as the IR's integer op (comment "QDQ" below).
 */
#include "onnx_import.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* ------------------------------------------------- QuantizeLinear, DequantizeLinear */

/* A float32 constant of rank `rank` for a per-tensor (n == 1) or
 * per-axis (n values along `axis`, the model's layout) parameter. */
int qparam_const(Imp *m, const float *v, int64_t n, int64_t axis, int rank) {
  int64_t dims[MAX_DIMS];
  for (int d = 0; d < rank; d++)
    dims[d] = 1;
  if (n > 1)
    dims[axis] = n;
  return f32_tensor(m, "", rank, dims, v);
}

/* IR tensor t (float32) op constant c, into a new float32 tensor. */
int f32_binary(Imp *m, OpKind kind, int t, int c) {
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
/* The scales (input ks) and zero points (input kz) of a quantized
 * operand: QuantizeLinear's, DequantizeLinear's and the QOperator
 * nodes'.  ks < 0: no scales (ConvInteger, MatMulInteger).  The scales
 * are a constant of float32 (or float16 as well when `half`:
 * QLinearMatMul from opset 21), one value or a 1-D list of n.  The zero
 * points are a constant of n values or of one standing for all n
 * (without scales: of any count, which is then n), or absent: 0.
 * Returns n; *scale (NULL without scales) and *zp get n floats, *zv the
 * zero point's Val (NULL when absent).  Whether the values fit the
 * node (their sign, the zero point's type) is the caller's to check. */
int64_t quant_params(Imp *m, int ks, int kz, bool half, float **scale, float **zp,
                     const Val **zv) {
  Val *s = ks >= 0 ? need_const_input(m, ks, "the scale") : NULL, *z = in(m, kz);
  if (s && s->dt != DT_FLOAT32 && !(half && s->dt == DT_FLOAT16))
    FAIL("the scale (input %d) has type %s; float32%s expected", ks, dtype_name(s->dt),
         half ? " or float16" : "");
  if (z && !z->data)
    FAIL("the zero point (input %d) must be constant", kz);
  int64_t nz = z ? val_elems(z) : 1;
  int64_t n = s ? val_elems(s) : nz;
  if ((s && (s->ndims > 1 || n < 1)) || (nz != 1 && nz != n))
    FAIL("the scale and zero point must be one value, or one per index of the axis");
  *scale = NULL;
  if (s) {
    *scale = arena_array((size_t)n, sizeof(float));
    for (int64_t k = 0; k < n; k++)
      (*scale)[k] = (float)cget_d(s, k);
  }
  *zp = arena_array((size_t)n, sizeof(float));
  for (int64_t k = 0; k < n; k++)
    (*zp)[k] = z ? (float)cget_i(z, nz == 1 ? 0 : k) : 0.0f;
  *zv = z;
  return n;
}

/* Blocked quantization (opset 21): the scale (input 1) and zero point
 * (input 2) have x's shape but for `axis`, where each covers block_size
 * elements (the last block may be shorter).  *scale and *zp get one
 * value per element of x; returns their count.  0: not blocked. */
static int64_t blocked_qparams(Imp *m, const Val *x, float **scale, float **zp, DType *dt) {
  int64_t bs = attr_i(m, "block_size", 0);
  if (!bs)
    return 0;
  if (bs < 0)
    FAIL("block_size %lld is negative", (long long)bs);
  Val *s = need_const_input(m, 1, "the scale"), *z = in(m, 2);
  if (z && !z->data)
    FAIL("the zero point (input 2) must be constant");
  int64_t axis = resolve(m, attr_i(m, "axis", 1), x->ndims, "axis");
  if (s->dt != DT_FLOAT32 || s->ndims != x->ndims ||
      (z && (z->ndims != s->ndims || memcmp(z->dims, s->dims, sizeof(int64_t) * (size_t)s->ndims))))
    FAIL("blocked quantization needs a float32 scale (and a zero point) of the input's rank");
  for (int d = 0; d < x->ndims; d++)
    if (s->dims[d] != (d == axis ? (x->dims[d] + bs - 1) / bs : x->dims[d]))
      FAIL("the scale's dimension %d is %lld; blocks of %lld along axis %lld need %lld", d,
           (long long)s->dims[d], (long long)bs, (long long)axis,
           (long long)(d == axis ? (x->dims[d] + bs - 1) / bs : x->dims[d]));
  int64_t n = val_elems(x), inner = 1;
  for (int d = (int)axis + 1; d < x->ndims; d++)
    inner *= x->dims[d];
  *scale = arena_array((size_t)(n ? n : 1), sizeof(float));
  *zp = arena_array((size_t)(n ? n : 1), sizeof(float));
  for (int64_t k = 0; k < n; k++) {
    int64_t a = k / inner % x->dims[axis], outer = k / inner / x->dims[axis];
    int64_t j = (outer * s->dims[axis] + a / bs) * inner + k % inner;
    (*scale)[k] = (float)cget_d(s, j);
    (*zp)[k] = z ? (float)cget_i(z, j) : 0.0f;
    if (!((*scale)[k] > 0.0f) && strcmp(m->n->op_type, "DequantizeLinear"))
      FAIL("scale %g is not positive", (double)(*scale)[k]);
  }
  if (z)
    *dt = z->dt;
  return n;
}

/* The axis of a blocked parameter: one value per element of the
 * tensor it applies to. */
#define QP_FULL (-1)

/* The constant of a Quantize/DequantizeLinear parameter for IR tensor t:
 * qparam_const()'s per-tensor or per-axis shape, or t's own shape for
 * axis QP_FULL (blocked quantization, n = t's elements). */
static int qp_tensor(Imp *m, const float *v, int64_t n, int64_t axis, int t) {
  const Tensor *x = T(m, t);
  if (axis != QP_FULL)
    return qparam_const(m, v, n, axis, x->ndims);
  int64_t dims[MAX_DIMS];
  for (int d = 0; d < x->ndims; d++)
    dims[d] = x->dims[d];
  return f32_tensor(m, "", x->ndims, dims, v);
}

/* QuantizeLinear's and DequantizeLinear's scale and zero point (inputs 1
 * and 2, as many of each) for input x: n of each and their axis; *dt
 * becomes the zero point's type when it is given.  (Blocked ones:
 * blocked_qparams().) */
static int64_t qparams(Imp *m, const Val *x, float **scale, float **zp, DType *dt,
                       int64_t *axis, bool half) {
  if (attr_i(m, "block_size", 0))
    FAIL("blocked quantization (block_size) is not supported here");
  const Val *z;
  int64_t n = quant_params(m, 1, 2, half, scale, zp, &z);
  if (z && val_elems(z) != n)
    FAIL("the scale and zero point must be one value, or one per index of the axis");
  *axis = 0;
  if (n > 1 || in(m, 1)->ndims == 1) {
    *axis = resolve(m, attr_i(m, "axis", 1), x->ndims, "axis");
    if (n > 1 && x->dims[*axis] != n)
      FAIL("%lld scales for an axis of size %lld", (long long)n, (long long)x->dims[*axis]);
  }
  if (z)
    *dt = z->dt;
  for (int64_t k = 0; k < n; k++)
    if (!((*scale)[k] > 0.0f) && strcmp(m->n->op_type, "DequantizeLinear"))
      FAIL("scale %g is not positive", (double)(*scale)[k]);
  return n;
}


static bool float8(DType t) {
  return t == DT_FLOAT8E4M3FN || t == DT_FLOAT8E4M3FNUZ || t == DT_FLOAT8E5M2 ||
         t == DT_FLOAT8E5M2FNUZ;
}

/* The value of a float4 e2m1 nibble: sign, 2 exponent bits (bias 1),
 * 1 mantissa bit; no infinity or NaN. */
static float e2m1_value(unsigned b) {
  static const float mag[8] = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f};
  return b & 8 ? -mag[b & 7] : mag[b & 7];
}

/* A float8 zero point must be 0 (ONNX's reference refuses others); a
 * float4 one is read as its value (QuantizeLinear adds it; the
 * reference's DequantizeLinear ignores it). */
static void minifloat_zero_points(Imp *m, DType t, float *zp, int64_t n, bool add) {
  const Val *z = in(m, 2);
  for (int64_t k = 0; k < n; k++) {
    int64_t i = z && val_elems(z) > 1 ? k : 0;
    unsigned b = !z ? 0 : t == DT_FLOAT4E2M1 ? (z->data[i / 2] >> (4 * (i % 2))) & 15 : z->data[i];
    if (float8(t) && b)
      FAIL("a %s zero point must be 0", dtype_name(t));
    zp[k] = add && t == DT_FLOAT4E2M1 ? e2m1_value(b) : 0.0f;
  }
}

/* QuantizeLinear to float8 or float4 e2m1, as ONNX's reference: float8
 * casts x / scale (saturating, or not with saturate = 0; the zero point
 * is 0), float4 casts x / scale + zero point; each cast to nearest, ties
 * to even (the Cast kernels). */
static void quantize_minifloat(Imp *m, Val *x, DType dt, const float *scale, const float *zp,
                               int64_t n, int64_t axis) {
  int64_t sat = attr_i(m, "saturate", 1);
  if (sat != 0 && sat != 1)
    FAIL("saturate is %lld (0 or 1)", (long long)sat);
  int l = n > 1 ? L_ONNX : pref(x);
  int t = ir(m, x, l);
  t = f32_binary(m, OP_DIV, t, qp_tensor(m, scale, n, axis, t));
  bool any_zp = false;
  for (int64_t k = 0; k < n; k++)
    any_zp |= zp[k] != 0.0f;
  if (any_zp || dt == DT_FLOAT4E2M1) /* the reference adds even 0: -0 + 0 is +0 */
    t = f32_binary(m, OP_ADD, t, qp_tensor(m, zp, n, axis, t));
  int out = act_out(m, 0, dt, x->ndims, x->dims, l, NULL);
  int o = cast_op(m, t, out, DT_FLOAT32, dt);
  OP(m, o)->opt.cast_no_saturate = float8(dt) && sat == 0;
}

/* QuantizeLinear (int8, uint8, int16, uint16, int4, uint4, int2, uint2 outputs): ONNX's
 *   saturate(rint(x / scale) + zero_point)
 * with the division in float32 and halves rounded to even, as
 *   DIV scale, ROUND, ADD zero point, MAXIMUM lo, MINIMUM hi, CAST
 * (each step exact: the rounded value is an integer, adding the zero
 * point to it is exact below 2^24, and anything larger saturates).
 * float8 and float4 outputs: quantize_minifloat(). */
void import_quantize_linear(Imp *m) {
  Val *x = act_in(m, 0);
  need_f32(m, x);
  DType dt = DT_UINT8;
  int64_t od = attr_i(m, "output_dtype", 0);
  if (od && !onnx_dtype((int)od, &dt))
    FAIL("output_dtype %lld is not supported", (long long)od);
  float *scale, *zp;
  int64_t axis = 0;
  int64_t n = blocked_qparams(m, x, &scale, &zp, &dt);
  bool blocked = n > 0;
  if (blocked)
    axis = QP_FULL;
  else
    n = qparams(m, x, &scale, &zp, &dt, &axis, false);
  if (float8(dt) || dt == DT_FLOAT4E2M1) {
    if (blocked)
      FAIL("blocked quantization to %s is not supported", dtype_name(dt));
    minifloat_zero_points(m, dt, zp, n, true);
    return quantize_minifloat(m, x, dt, scale, zp, n, axis);
  }
  if (attr_i(m, "saturate", 1) != 1)
    FAIL("saturate = 0 is not supported");
  float lo, hi;
  if (dt == DT_INT8) lo = -128.0f, hi = 127.0f;
  else if (dt == DT_UINT8) lo = 0.0f, hi = 255.0f;
  else if (dt == DT_INT16) lo = -32768.0f, hi = 32767.0f;
  else if (dt == DT_UINT16) lo = 0.0f, hi = 65535.0f;
  else if (dt == DT_INT4) lo = -8.0f, hi = 7.0f;
  else if (dt == DT_UINT4) lo = 0.0f, hi = 15.0f;
  else if (dt == DT_INT2) lo = -2.0f, hi = 1.0f;
  else if (dt == DT_UINT2) lo = 0.0f, hi = 3.0f;
  else FAIL("quantizing to %s is not supported (int8, uint8, int16, uint16, int4, uint4, int2, "
            "uint2, float8, float4e2m1)", dtype_name(dt));
  int l = n > 1 || blocked ? L_ONNX : pref(x);
  int t = ir(m, x, l);
  t = f32_binary(m, OP_DIV, t, qp_tensor(m, scale, n, axis, t));
  int rd = f32_like(m, t);
  add_op(m, OP_ROUND, &t, 1, &rd, 1);
  t = f32_binary(m, OP_ADD, rd, qp_tensor(m, zp, n, axis, rd));
  t = scalar_op(m, OP_MAXIMUM, t, lo, "");
  t = scalar_op(m, OP_MINIMUM, t, hi, "");
  int out = act_out(m, 0, dt, x->ndims, x->dims, l, NULL);
  cast_op(m, t, out, DT_FLOAT32, dt);
  if (n == 1 && !blocked && (dt == DT_INT8 || dt == DT_UINT8))
    T(m, out)->q = quant1(scale[0], (int64_t)zp[0]); /* read by QDQ-fused ops */
}

/* IR tensor t (an integer value in layout l, ONNX order when per axis)
 * dequantized to float32 as (x - zero point) * scale; returns the output
 * tensor, which out (when >= 0) is. */
int dq_ops(Imp *m, int t, DType dt, const float *scale, const float *zp, int64_t n,
           int64_t axis, int out) {
  int f = f32_like(m, t);
  cast_op(m, t, f, dt, DT_FLOAT32);
  bool any_zp = false;
  for (int64_t k = 0; k < n; k++)
    any_zp |= zp[k] != 0.0f;
  if (any_zp)
    f = f32_binary(m, OP_SUB, f, qp_tensor(m, zp, n, axis, t));
  if (out < 0 && n == 1 && scale[0] == 1.0f)
    return f; /* x - zero point: no scale */
  if (out < 0)
    out = f32_like(m, t);
  int ins[2] = {f, qp_tensor(m, scale, n, axis, t)};
  add_op(m, OP_MUL, ins, 2, &out, 1);
  return out;
}

/* DequantizeLinear (int8, uint8, int16, int32, int4, uint4, int2, uint2,
 * float8 and float4 e2m1 inputs; float32 output, or float16 with a
 * float16 scale or output_dtype): ONNX's (float(x) - float(zero_point)) *
 * scale as CAST, SUB, MUL (the subtraction of small integers is exact;
 * the product is rounded once, as ONNX's reference rounds it), then CAST
 * to float16 (the reference multiplies in float32 too).  A float8's zero
 * point must be 0; a float4's is ignored, as the reference does. */
void import_dequantize_linear(Imp *m) {
  Val *x = need_in(m, 0); /* the packed 4- and 2-bit types too: checked below */
  DType xt = x->dt;
  bool mini = float8(xt) || xt == DT_FLOAT4E2M1;
  if (xt != DT_INT8 && xt != DT_UINT8 && xt != DT_INT16 && xt != DT_UINT16 && xt != DT_INT32 &&
      xt != DT_INT4 && xt != DT_UINT4 && xt != DT_INT2 && xt != DT_UINT2 && !mini)
    FAIL("dequantizing %s is not supported (int8, uint8, int16, uint16, int32, int4, uint4, int2, "
         "uint2, float8, float4e2m1)", dtype_name(xt));
  Val *s = need_const_input(m, 1, "the scale");
  DType yt = s->dt == DT_FLOAT16 ? DT_FLOAT16 : DT_FLOAT32;
  int64_t od = attr_i(m, "output_dtype", 0);
  if (od == 1 || od == 10)
    yt = od == 1 ? DT_FLOAT32 : DT_FLOAT16;
  else if (od)
    FAIL("output_dtype %lld is not supported (float32 or float16)", (long long)od);
  float *scale, *zp;
  int64_t axis = 0;
  DType zdt = x->dt;
  int64_t n = blocked_qparams(m, x, &scale, &zp, &zdt);
  bool blocked = n > 0;
  if (blocked && mini)
    FAIL("blocked quantization of %s is not supported", dtype_name(xt));
  if (blocked)
    axis = QP_FULL;
  else
    n = qparams(m, x, &scale, &zp, &zdt, &axis, true);
  if (zdt != x->dt)
    FAIL("the zero point has type %s, the input %s", dtype_name(zdt), dtype_name(x->dt));
  if (mini)
    minifloat_zero_points(m, xt, zp, n, false);
  int l = n > 1 || blocked ? L_ONNX : pref(x);
  int t = ir(m, x, l);
  if (yt == DT_FLOAT32) {
    dq_ops(m, t, x->dt, scale, zp, n, axis, act_out(m, 0, DT_FLOAT32, x->ndims, x->dims, l, NULL));
    return;
  }
  int f = dq_ops(m, t, x->dt, scale, zp, n, axis, -1);
  int out = act_out(m, 0, DT_FLOAT16, x->ndims, x->dims, l, NULL);
  cast_op(m, f, out, DT_FLOAT32, DT_FLOAT16);
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
void settle_dq(Imp *m, Val *v) {
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
  Val *s = in(m, 1);
  if (!x || (x->dt != DT_INT8 && x->dt != DT_UINT8 && x->dt != DT_INT32) ||
      attr_i(m, "output_dtype", 0) > 1 || (s && s->dt == DT_FLOAT16) || attr_i(m, "block_size", 0))
    return false;
  float *scale, *zp;
  int64_t axis;
  DType zdt = x->dt;
  int64_t n = qparams(m, x, &scale, &zp, &zdt, &axis, false);
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

/* The first node after `after` reading value `name`, or NULL. */
static const ONode *reader_after(Imp *m, const ONode *after, const char *name) {
  for (int i = (int)(after - m->x->nodes) + 1; i < m->x->nnodes; i++) {
    const ONode *c = &m->x->nodes[i];
    for (int k = 0; k < c->ninputs; k++)
      if (!strcmp(c->inputs[k], name))
        return c->domain[0] && strcmp(c->domain, "ai.onnx") ? NULL : c;
  }
  return NULL;
}

/* The one node reading value `name` (read once, by a later node), or
 * NULL. */
static const ONode *sole_reader(Imp *m, const ONode *after, const char *name) {
  return name[0] && uses_of(m, name) == 1 ? reader_after(m, after, name) : NULL;
}

/* The readers of value `name` as ONNX Runtime counts them (Slot.ort_reads). */
static int ort_readers(Imp *m, const char *name) {
  Slot *s = slot(m, name, false);
  return s ? s->ort_reads : 0;
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
  return quant_fits(m, x, v->q.scale[0], v->q.zero_point[0]) ? v : NULL;
}

/* Whether the IR tensors of integer activation x carry quantization
 * (scale, zp), or none yet. */
bool quant_fits(Imp *m, const Val *x, float scale, int64_t zp) {
  for (int l = 0; l < 2; l++) {
    const Quant *q = x->t[l] >= 0 ? &T(m, x->t[l])->q : NULL;
    if (q && q->nscale && (q->nscale != 1 || q->scale[0] != scale || q->zero_point[0] != zp))
      return false;
  }
  return true;
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

/* Gives the integer source of x's IR tensors x's quantization. */
void mark_act(Imp *m, const Val *v) {
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
 * IR filter when the weights have several scales.  w->qsrc holds int8
 * values with zero points w->q.zero_point (0 for the int8 kernels); the
 * uint8 kernels get them plus 128. */
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
    fq->zero_point[c] = (act_dt == DT_UINT8 ? 128 : 0) + w->q.zero_point[c];
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
  if (!o->q)
    return; /* a QOperator node: its own output */
  bind(m, o->q->outputs[0], v);
  m->fused[o->q - m->x->nodes] = true;
  if (o->act)
    m->fused[o->act - m->x->nodes] = true;
}

/* The node writing value `name`, or NULL. */
static const ONode *writer_of(Imp *m, const char *name) {
  Slot *s = slot(m, name, false);
  return s ? s->writer : NULL;
}

/* Input k of node c as a constant int8 scalar in *v; false otherwise. */
static bool int8_scalar(Imp *m, const ONode *c, int k, int64_t *v) {
  Val *z = k < c->ninputs && c->inputs[k][0] ? lookup(m, c->inputs[k]) : NULL;
  if (!z || !z->data || z->dt != DT_INT8 || val_elems(z) != 1)
    return false;
  *v = cget_i(z, 0);
  return true;
}

/*
 * Whether ONNX Runtime's x86 build turns int8 value `name` into uint8
 * (its QDQS8ToU8Transformer): only the output of a QuantizeLinear with
 * a constant int8 scalar zero point, that is no graph output and is read
 * by exactly one DequantizeLinear, with the same zero point, whose output
 * has one reader, a node or a graph output (ort_readers(); a shared
 * DequantizeLinear is first copied per reader, which leaves the
 * QuantizeLinear with several).
 */
static bool ort_converts_to_u8(Imp *m, const char *name) {
  const ONode *q = writer_of(m, name);
  int64_t zq, zd;
  if (!q || strcmp(q->op_type, "QuantizeLinear") || !int8_scalar(m, q, 2, &zq))
    return false;
  /* A graph output is a reader that is no DequantizeLinear node. */
  const ONode *d = ort_readers(m, name) == 1 ? reader_after(m, q, name) : NULL;
  return d && !strcmp(d->op_type, "DequantizeLinear") && d->noutputs == 1 &&
         int8_scalar(m, d, 2, &zd) && zd == zq && ort_readers(m, d->outputs[0]) == 1;
}

/*
 * Whether ONNX Runtime (x86) computes the QDQ Conv, MatMul or Gemm group
 * of node m->n in float32: it fuses an int8 one into QLinearConv,
 * QLinearMatMul or QGemm only when both its input and its output became
 * uint8 (ort_converts_to_u8(); its x86 kernels take uint8 activations
 * with int8 weights), else it runs the DequantizeLinear, the float op and
 * the QuantizeLinear as they are.  Checked against the graphs ONNX
 * Runtime 1.30 makes of the eight shared models' QDQ versions
 * (tools/bisect_quant_onnx.py lists its float groups): the same Conv,
 * MatMul and Gemm groups, none on three of them.
 */
static bool ort_float_gemm(Imp *m, const Val *x, const QOut *o) {
  const ONode *d = writer_of(m, m->n->inputs[0]);
  if (x->qsrc->dt != DT_INT8 || !d || strcmp(d->op_type, "DequantizeLinear"))
    return false;
  return !ort_converts_to_u8(m, d->inputs[0]) || !ort_converts_to_u8(m, o->q->outputs[0]);
}

/* Whether ONNX Runtime (x86) computes the QDQ Add or Mul group of node
 * m->n in float32: it fuses one into QLinearAdd / QLinearMul only when
 * both inputs and the output have one type after its int8 -> uint8
 * conversion (ort_converts_to_u8()).  Checked like ort_float_gemm(): the
 * same Add and Mul groups on the shared models' QDQ versions. */
static bool ort_float_binary(Imp *m, const QOut *o) {
  const ONode *d0 = writer_of(m, m->n->inputs[0]), *d1 = writer_of(m, m->n->inputs[1]);
  if (!d0 || !d1 || strcmp(d0->op_type, "DequantizeLinear") ||
      strcmp(d1->op_type, "DequantizeLinear"))
    return false;
  const bool u = ort_converts_to_u8(m, o->q->outputs[0]);
  return ort_converts_to_u8(m, d0->inputs[0]) != u || ort_converts_to_u8(m, d1->inputs[0]) != u;
}

/* Marks the integer op `op` as one the reference runtime computes in
 * float32, with bias b's own scales (b: its DequantizeLinear, or NULL). */
static void mark_ref_float(Op *op, const Val *b, int64_t nout) {
  op->ref_float = true;
  if (!b)
    return;
  float *s = arena_array((size_t)nout, sizeof(float));
  for (int64_t c = 0; c < nout; c++)
    s[c] = b->q.scale[b->q.nscale > 1 ? c : 0];
  op->ref_bias_scale = s;
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
  bool ref_float = ort_float_gemm(m, x, &o);
  fused_conv(m, x, w, b, &o);
  if (ref_float)
    mark_ref_float(OP(m, m->nops - 1), b, w->dims[0]);
  return true;
}

/* The integer CONV_2D / DEPTHWISE_CONV_2D of node m->n, whose inputs 0,
 * 1 and 2 (when b) are the DequantizeLinear Vals x, w and b; o its
 * output.  The caller has checked the types (qdq_conv()). */
void fused_conv(Imp *m, const Val *x, const Val *w, const Val *b, const QOut *o) {
  mark_act(m, x);
  int op0 = m->nops;
  m->qdq = true;
  import_conv(m);
  m->qdq = false;
  int main = m->nops - 1;
  Op *op = OP(m, main);
  bool dw = op->kind == OP_DEPTHWISE_CONV_2D;
  quant_weights(m, op->inputs[1], op->inputs[2], x, w, o->dt, dw ? 3 : 0);
  if (!b)
    memset((void *)T(m, op->inputs[2])->data, 0, T(m, op->inputs[2])->ndata);
  finish_qdq(m, op0, main, o);
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
  bool ref_float = ort_float_gemm(m, a, &o);
  fused_fc(m, a, w, b, tb, &o);
  if (ref_float) {
    mark_ref_float(OP(m, m->nops - 1), b, N);
    OP(m, m->nops - 1)->ref_trans_b = tb;
  }
  return true;
}

/* The integer FULLY_CONNECTED of the DequantizeLinear Vals a (rank 2 or
 * more, last dim K) times w (2-D, [K, N], or [N, K] when tb) plus b (or
 * none); o its output.  The caller has checked the types (qdq_fc()). */
void fused_fc(Imp *m, Val *a, const Val *w, const Val *b, bool tb, const QOut *o) {
  int64_t N = tb ? w->dims[0] : w->dims[1], K = tb ? w->dims[1] : w->dims[0];
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
  quant_weights(m, op->inputs[1], op->inputs[2], a, w, o->dt, 0);
  finish_qdq(m, op0, main, o);
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
  bool ref_float = a->qsrc->dt == DT_INT8 && ort_float_binary(m, &o);
  mark_act(m, a);
  mark_act(m, b);
  int op0 = m->nops;
  int l = a->ndims == 4 && (a->qsrc->t[L_NHWC] >= 0 || b->qsrc->t[L_NHWC] >= 0) ? L_NHWC
                                                                               : L_ONNX;
  int ins[2] = {ir(m, a->qsrc, l), ir(m, b->qsrc, l)};
  int out = act_out(m, 0, o.dt, a->ndims, a->dims, l, NULL);
  int main = add_op(m, kind, ins, 2, &out, 1);
  OP(m, main)->opt.fields = OPTF_ACTIVATION;
  OP(m, main)->ref_float = ref_float;
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
    int n = !strcmp(op, "Reshape") ? reshape_dims(m, x, need_const_input(m, 1, "shape"), dims)
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
bool import_qdq(Imp *m) {
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
