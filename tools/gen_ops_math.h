/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_ops_math.h - the generators of gen_ops.c's element-wise math,
 * comparison and logic rows (ABS ... ADD_N), and their rows
 * (MATH_ROWS).  A part of gen_ops.c: it is included there, after the
 * case helpers and before the table, and uses them.
 *
 * Row variant = the TFLite tensor type of the data (TFW_FLOAT32,
 * TFW_INT8, TFW_INT16, TFW_INT32, TFW_BOOL); the kind is K_I8 / K_I16
 * for the quantized rows (act_out() reads it), K_F32 otherwise.  Bool
 * outputs go to the manifest as uint8 (one byte, 0 or 1, compared
 * bit-exactly).  Inputs are drawn where the op is defined: positive for
 * SQRT, RSQRT and LOG, divisors away from zero for FLOOR_DIV and
 * FLOOR_MOD, small integers for int32 comparisons so that equal values
 * occur.  TFLite has no int16 SQUARED_DIFFERENCE or GREATER and no int8
 * DIV or ADD_N (TFLM has them): tests/ops/test_ops_tflm.c checks those
 * (tflm_math.h), and the int64 comparisons, whose int64 inputs the
 * oracle's runner does not take.
 */

/* Float tolerance of the math functions: libm's float functions in the
 * oracle and on the host agree to an ulp or two. */
static void tol_math(Case *c) {
  c->atol = 1e-5;
  c->rtol = 1e-5;
}

/* A random input of dtype dt (float range [lo, hi]; int32 integers in
 * [lo, hi]; bool 0/1; int8/int16 a random quantization). */
static Q math_q(Case *c, int dt, float lo, float hi) {
  if (dt == TFW_FLOAT32 || dt == TFW_INT32 || dt == TFW_BOOL)
    return (Q){dt, 0, 0, lo, hi};
  return q_random(c->r, dt);
}

/* Input k's bytes made valid for the op: bools to 0/1, divisors
 * nonzero (|x| >= 0.25 for floats). */
static void fix_bool(Case *c, int k) {
  for (size_t i = 0; i < c->in_bytes[k]; i++)
    c->in_data[k][i] &= 1;
}

static void fix_divisor(Case *c, int k, int dt) {
  size_t n = c->in_bytes[k] / 4;
  for (size_t i = 0; i < n; i++) {
    uint8_t *p = c->in_data[k] + 4 * i;
    if (dt == TFW_INT32) {
      int32_t v;
      memcpy(&v, p, 4);
      if (v == 0)
        v = 1;
      memcpy(p, &v, 4);
    } else {
      float v;
      memcpy(&v, p, 4);
      if (fabsf(v) < 0.25f)
        v = v < 0 ? -0.25f - v : 0.25f + v;
      memcpy(p, &v, 4);
    }
  }
}

static int math_output(Case *c, int nd, const int32_t *d, const Q *q) {
  int t = output_q(c, "output", nd, d, q);
  if (q->dtype == TFW_BOOL)
    c->out_dtype[c->nout - 1] = TFW_UINT8; /* compared as bytes */
  return t;
}

/* ------------------------------------------------------- one input */

enum {
  OPC_LESS = 58, OPC_NEG = 59, OPC_GREATER = 61, OPC_GREATER_EQUAL = 62, OPC_LESS_EQUAL = 63,
  OPC_SELECT = 64, OPC_SIN = 66, OPC_EQUAL = 71, OPC_NOT_EQUAL = 72, OPC_LOG = 73,
  OPC_SQRT = 75, OPC_RSQRT = 76, OPC_LOGICAL_OR = 84, OPC_LOGICAL_AND = 86,
  OPC_LOGICAL_NOT = 87, OPC_FLOOR_DIV = 90, OPC_SQUARE = 92, OPC_ZEROS_LIKE = 93,
  OPC_FLOOR_MOD = 95, OPC_SQUARED_DIFFERENCE = 99, OPC_POW = 78, OPC_ABS = 101, OPC_CEIL = 104,
  OPC_ADD_N = 106, OPC_COS = 108, OPC_ELU = 111, OPC_ROUND = 116, OPC_SELECT_V2 = 123,
  OPC_EXP = 47, OPC_LOG_SOFTMAX = 50, OPC_PRELU = 54, OPC_FLOOR = 8, OPC_DIV = 42,
};

/* ABS ... ELU, LOGICAL_NOT, ZEROS_LIKE: one input, output of its shape. */
static void gen_math_unary(Case *c, int code, int dt) {
  Rng *r = c->r;
  int32_t d[4];
  int nd = random_shape(r, 1, 4, 8, d);
  float lo = -rlog(r, 0.5, 6), hi = rlog(r, 0.5, 6);
  if (code == OPC_SQRT || code == OPC_RSQRT || code == OPC_LOG)
    lo = (float)rlog(r, 0.01, 0.5);
  if (code == OPC_EXP)
    hi = hi > 3 ? 3 : hi;
  if (code == OPC_ROUND) { /* halves occur: x.5 is exact in float */
    lo = -8;
    hi = 8;
  }
  if (dt == TFW_INT32)
    lo = -100, hi = 100;
  Q in = math_q(c, dt, lo, hi);
  if (code == OPC_RSQRT && dt == TFW_INT8) /* defined for x >= 0 only */
    in = q_cover(dt, 0, rlog(r, 0.5, 8));
  int ti = input_q(c, "input", nd, d, &in);
  if (code == OPC_ROUND) { /* a quarter of the values on a half */
    float *v = (float *)(void *)c->in_data[c->nin - 1];
    size_t n = c->in_bytes[c->nin - 1] / 4;
    for (size_t i = 0; i < n; i += 4)
      v[i] = (float)rint_in(r, -8, 8) + 0.5f;
  }
  if (dt == TFW_BOOL)
    fix_bool(c, c->nin - 1);
  Q out = in;
  if (dt == TFW_INT8 || dt == TFW_INT16) {
    float m = fabsf(in.lo) > fabsf(in.hi) ? fabsf(in.lo) : fabsf(in.hi);
    switch (code) {
    case OPC_ABS: out = rchance(r, 0.2) ? in : act_out(c, 0, m); break;
    case OPC_ELU: out = act_out(c, -1, in.hi > 0.1f ? in.hi : 0.1f); break;
    case OPC_RSQRT: out = act_out(c, 0, 1.0f / sqrtf(in.hi > 0.01f ? in.hi / 8 : 0.01f)); break;
    }
  }
  int to = math_output(c, nd, d, &out);
  tfw_op(c->m, code, 1, &ti, 1, &to);
  tol_math(c);
}

#define UNARY_GEN(NAME, CODE) \
  static void gen_##NAME(Case *c, int v) { gen_math_unary(c, CODE, v); }
UNARY_GEN(abs, OPC_ABS)
UNARY_GEN(neg, OPC_NEG)
UNARY_GEN(sqrt, OPC_SQRT)
UNARY_GEN(rsqrt, OPC_RSQRT)
UNARY_GEN(square, OPC_SQUARE)
UNARY_GEN(exp, OPC_EXP)
UNARY_GEN(log, OPC_LOG)
UNARY_GEN(sin, OPC_SIN)
UNARY_GEN(cos, OPC_COS)
UNARY_GEN(ceil, OPC_CEIL)
UNARY_GEN(floor, OPC_FLOOR)
UNARY_GEN(round, OPC_ROUND)
UNARY_GEN(elu, OPC_ELU)
UNARY_GEN(logical_not, OPC_LOGICAL_NOT)
UNARY_GEN(zeros_like, OPC_ZEROS_LIKE)

/* ------------------------------------------------------- two inputs */

static int is_compare(int code) {
  return code == OPC_EQUAL || code == OPC_NOT_EQUAL || code == OPC_GREATER ||
         code == OPC_GREATER_EQUAL || code == OPC_LESS || code == OPC_LESS_EQUAL;
}

/* Comparisons, logic, SQUARED_DIFFERENCE, FLOOR_DIV, FLOOR_MOD, PRELU:
 * two broadcasting inputs (the second sometimes a constant). */
static void gen_math_binary(Case *c, int code, int dt) {
  Rng *r = c->r;
  int32_t a[4], b[4], o[4];
  int na, nb;
  int no = broadcast_shapes(r, a, &na, b, &nb, o);
  int divides = code == OPC_FLOOR_DIV || code == OPC_FLOOR_MOD;
  if (code == OPC_PRELU) { /* alpha broadcasts to the input's shape */
    memcpy(a, o, sizeof a);
    na = no;
  } else if (rchance(r, 0.3)) { /* the broadcast operand first */
    int32_t t[4];
    memcpy(t, a, sizeof t);
    memcpy(a, b, sizeof t);
    memcpy(b, t, sizeof t);
    int tn = na;
    na = nb;
    nb = tn;
  }
  float lo = -rlog(r, 0.5, 6), hi = rlog(r, 0.5, 6);
  if (dt == TFW_INT32)
    lo = is_compare(code) ? -4 : -1000, hi = is_compare(code) ? 4 : 1000;
  Q qa = math_q(c, dt, lo, hi), qb = math_q(c, dt, lo, hi);
  if (code == OPC_PRELU && dt == TFW_INT8)
    qb = q_cover(dt, -rlog(r, 0.05, 1), rlog(r, 0.05, 1));
  if (is_compare(code) && dt == TFW_INT8 && rchance(r, 0.3))
    qb = qa; /* one quantization: equal values compare equal */
  int ta = input_q(c, "input1", na, a, &qa);
  int tb;
  if (!divides && dt != TFW_BOOL && rchance(r, 0.25)) {
    tb = const_q(c, "input2", nb, b, &qb);
  } else {
    tb = input_q(c, "input2", nb, b, &qb);
    if (divides)
      fix_divisor(c, c->nin - 1, dt);
  }
  if (dt == TFW_BOOL) {
    fix_bool(c, 0);
    fix_bool(c, 1);
  }
  Q qo;
  if (is_compare(code) || code == OPC_LOGICAL_AND || code == OPC_LOGICAL_OR) {
    qo = (Q){TFW_BOOL, 0, 0, 0, 0};
  } else if (dt == TFW_INT8 || dt == TFW_INT16) {
    if (code == OPC_SQUARED_DIFFERENCE) {
      float m = (qa.hi - qa.lo > qb.hi - qb.lo ? qa.hi - qa.lo : qb.hi - qb.lo);
      qo = act_out(c, 0, 0.3f * m * m);
    } else { /* PRELU */
      qo = act_out(c, qa.lo * (qb.lo < 0 ? -qb.lo : qb.hi), qa.hi);
      if (qo.lo > qa.lo * qb.hi)
        qo = act_out(c, qa.lo * qb.hi, qa.hi);
    }
  } else {
    qo = (Q){dt, 0, 0, 0, 0};
  }
  int to = math_output(c, no, o, &qo);
  int ins[2] = {ta, tb};
  tfw_op(c->m, code, 2, ins, 1, &to);
  tol_math(c);
}

/* POW: a broadcasting base and exponent (the second sometimes a
 * constant).  float32: bases in [0.1, 4], exponents in [-3, 3], so powf
 * is defined and finite; int32: bases in [-6, 6], exponents in [0, 8]
 * (TFLite's IntegerPow takes no negative exponent; 6^8 fits). */
static void gen_pow(Case *c, int dt) {
  Rng *r = c->r;
  int32_t a[4], b[4], o[4];
  int na, nb;
  int no = broadcast_shapes(r, a, &na, b, &nb, o);
  int i32 = dt == TFW_INT32;
  Q qa = math_q(c, dt, i32 ? -6 : 0.1f, i32 ? 6 : 4), qb = math_q(c, dt, i32 ? 0 : -3, i32 ? 8 : 3);
  int ta = input_q(c, "input1", na, a, &qa);
  int tb = rchance(r, 0.25) ? const_q(c, "input2", nb, b, &qb) : input_q(c, "input2", nb, b, &qb);
  Q qo = {dt, 0, 0, 0, 0};
  int to = math_output(c, no, o, &qo);
  int ins[2] = {ta, tb};
  tfw_op(c->m, OPC_POW, 2, ins, 1, &to);
  tol_math(c);
}

#define BINARY_GEN(NAME, CODE) \
  static void gen_##NAME(Case *c, int v) { gen_math_binary(c, CODE, v); }
BINARY_GEN(equal, OPC_EQUAL)
BINARY_GEN(not_equal, OPC_NOT_EQUAL)
BINARY_GEN(greater, OPC_GREATER)
BINARY_GEN(greater_equal, OPC_GREATER_EQUAL)
BINARY_GEN(less, OPC_LESS)
BINARY_GEN(less_equal, OPC_LESS_EQUAL)
BINARY_GEN(logical_and, OPC_LOGICAL_AND)
BINARY_GEN(logical_or, OPC_LOGICAL_OR)
BINARY_GEN(squared_difference, OPC_SQUARED_DIFFERENCE)
BINARY_GEN(floor_div, OPC_FLOOR_DIV)
BINARY_GEN(floor_mod, OPC_FLOOR_MOD)
BINARY_GEN(prelu, OPC_PRELU)

/* ADD, SUB and MUL of int32 (TFLM add.cc, sub.cc, mul.cc: raw sums,
 * differences and products, then the fused activation's int32 range):
 * values in [-1000, 1000], so that every product fits. */
static void gen_arith_s32(Case *c, int code) {
  Rng *r = c->r;
  int32_t a[4], b[4], o[4];
  int na, nb;
  int no = broadcast_shapes(r, a, &na, b, &nb, o);
  Q q = math_q(c, TFW_INT32, -1000, 1000);
  int ta = input_q(c, "input1", na, a, &q);
  int tb = rchance(r, 0.25) ? const_q(c, "input2", nb, b, &q) : input_q(c, "input2", nb, b, &q);
  Q qo = {TFW_INT32, 0, 0, 0, 0};
  int to = math_output(c, no, o, &qo);
  int ins[2] = {ta, tb};
  int op = tfw_op(c->m, code, 2, ins, 1, &to);
  static const int acts[4] = {TFW_ACT_NONE, TFW_ACT_RELU, TFW_ACT_RELU_N1_TO_1, TFW_ACT_RELU6};
  int act = acts[rint_in(r, 0, 3)];
  if (code == TFW_OP_MUL)
    tfw_mul_options(c->m, op, act);
  else if (code == TFW_OP_SUB)
    tfw_sub_options(c->m, op, act, -1);
  else
    tfw_add_options(c->m, op, act, -1);
  tol_math(c);
}
static void gen_add_s32(Case *c, int v) { (void)v; gen_arith_s32(c, TFW_OP_ADD); }
static void gen_sub_s32(Case *c, int v) { (void)v; gen_arith_s32(c, TFW_OP_SUB); }
static void gen_mul_s32(Case *c, int v) { (void)v; gen_arith_s32(c, TFW_OP_MUL); }

/* ------------------------------------------------------------ others */

/* SELECT_V2: condition, x and y broadcast to the output; SELECT (v1):
 * a condition of x's shape or of its first dimension, x and y of the
 * output's. */
static void gen_select_any(Case *c, int code, int dt) {
  Rng *r = c->r;
  int32_t a[4], b[4], o[4];
  int na, nb;
  int no = broadcast_shapes(r, a, &na, b, &nb, o);
  if (code == OPC_SELECT) {
    memcpy(a, o, sizeof a);
    memcpy(b, o, sizeof b);
    na = nb = no;
  }
  Q qc = {TFW_BOOL, 0, 0, 0, 1};
  Q qx = math_q(c, dt, -4, 4);
  if (dt == TFW_BOOL)
    qx = (Q){TFW_BOOL, 0, 0, 0, 1};
  /* SELECT (v1) also takes a rank-1 condition, one value per row. */
  int rows = code == OPC_SELECT && no > 1 && rchance(r, 0.3);
  int tc = input_q(c, "condition", code == OPC_SELECT ? (rows ? 1 : no) : nb,
                   code == OPC_SELECT ? o : b, &qc);
  fix_bool(c, 0);
  int tx = input_q(c, "x", na, a, &qx);
  int yfull = code == OPC_SELECT || rchance(r, 0.5);
  int ty = input_q(c, "y", yfull ? no : nb, yfull ? o : b, &qx);
  if (dt == TFW_BOOL) {
    fix_bool(c, 1);
    fix_bool(c, 2);
  }
  int to = math_output(c, no, o, &qx);
  int ins[3] = {tc, tx, ty};
  tfw_op(c->m, code, 3, ins, 1, &to);
}

static void gen_select(Case *c, int v) { gen_select_any(c, OPC_SELECT, v); }
static void gen_select_v2(Case *c, int v) { gen_select_any(c, OPC_SELECT_V2, v); }

/* LOG_SOFTMAX over the last dimension: float32, and int8 with the
 * output quantization TFLite and TFLM require (16/256, 127); rows up to
 * 40 long so that many exps fall below diff_min or the output's range. */
static void gen_log_softmax(Case *c, int dt) {
  Rng *r = c->r;
  int32_t d[4];
  int nd = random_shape(r, 1, 4, 8, d);
  if (dt == TFW_INT8)
    d[nd - 1] = rint_in(r, 1, 40);
  Q in = math_q(c, dt, -rlog(r, 0.5, 8), rlog(r, 0.5, 8));
  if (dt == TFW_INT8)
    in = q_fixed(TFW_INT8, (float)rlog(r, 0.005, 0.5), rint_in(r, -128, 127));
  int ti = input_q(c, "input", nd, d, &in);
  Q oq = dt == TFW_INT8 ? q_fixed(TFW_INT8, 16.0f / 256, 127) : in;
  int to = math_output(c, nd, d, &oq);
  tfw_op(c->m, OPC_LOG_SOFTMAX, 1, &ti, 1, &to);
  c->atol = 1e-4;
  c->rtol = 1e-5;
}

/* ADD_N float: 2 to 4 inputs of one shape (TFLite and TFLM need two). */
static void gen_add_n(Case *c, int dt) {
  Rng *r = c->r;
  int32_t d[4];
  int nd = random_shape(r, 1, 4, 8, d);
  int n = rint_in(r, 2, 4), ins[4];
  Q in = math_q(c, dt, -4, 4);
  for (int k = 0; k < n; k++)
    ins[k] = input_q(c, "input", nd, d, &in);
  int to = math_output(c, nd, d, &in);
  tfw_op(c->m, OPC_ADD_N, n, ins, 1, &to);
  tol_sum(c);
}

/* ------------------------------------------------------------ signal */

/* A power of two from 2^lo to 2^hi. */
static int32_t pow2_in(Rng *r, int lo, int hi) { return (int32_t)1 << rint_in(r, lo, hi); }

/* RFFT2D float32 -> complex64: rank 2-4, the last two dimensions cropped
 * or zero-padded to fft_length (powers of two, a constant); sometimes
 * YAMNet's shape, frames of [1, 400] through fft_length [1, 512].  The
 * tolerance is absolute, relative to the largest magnitude an output can
 * have: 1e-5 times the sum of |x| over a slice (an FFT's rounding error
 * grows with the signal, not with each bin). */
static void gen_rfft2d_core(Case *c, int with_abs) {
  Rng *r = c->r;
  int32_t d[4], fl[2];
  int nd;
  if (rchance(r, 0.2)) {
    nd = 3;
    d[0] = rint_in(r, 1, 3);
    d[1] = 1;
    d[2] = 400;
    fl[0] = 1;
    fl[1] = 512;
  } else {
    nd = rint_in(r, 2, 4);
    for (int i = 0; i < nd - 2; i++)
      d[i] = rint_in(r, 1, 3);
    d[nd - 2] = rint_in(r, 1, 12);
    d[nd - 1] = rint_in(r, 1, 40);
    fl[0] = pow2_in(r, 0, 4);
    fl[1] = pow2_in(r, 1, 6);
  }
  float m = (float)rlog(r, 0.5, 8);
  Q in = {TFW_FLOAT32, 0, 0, -m, m};
  int ti = input_q(c, "input", nd, d, &in);
  int tl = const_vec(c, "fft_length", 2, fl);
  int32_t od[4];
  memcpy(od, d, sizeof od);
  od[nd - 2] = fl[0];
  od[nd - 1] = fl[1] / 2 + 1;
  Q cq = {TFW_COMPLEX64, 0, 0, 0, 0};
  Q fq = {TFW_FLOAT32, 0, 0, 0, 0};
  int ins[2] = {ti, tl};
  int tc;
  if (with_abs) {
    tc = tensor_q(c, "spectrum", nd, od, &cq);
    int to = output_q(c, "output", nd, od, &fq);
    tfw_op(c->m, TFW_OP_RFFT2D, 2, ins, 1, &tc);
    tfw_op(c->m, TFW_OP_COMPLEX_ABS, 1, &tc, 1, &to);
  } else {
    tc = output_q(c, "output", nd, od, &cq);
    tfw_op(c->m, TFW_OP_RFFT2D, 2, ins, 1, &tc);
    c->mode = "litert"; /* tfjs-tflite returns no bytes for complex64 outputs */
  }
  /* The largest sum of |x| over the used window of a slice. */
  const float *x = (const float *)(const void *)c->in_data[0];
  int64_t slices = count_of(nd - 2, d), h = d[nd - 2], w = d[nd - 1];
  double worst = 0;
  for (int64_t s = 0; s < slices; s++) {
    double sum = 0;
    for (int64_t i = 0; i < h && i < fl[0]; i++)
      for (int64_t j = 0; j < w && j < fl[1]; j++)
        sum += fabs((double)x[(s * h + i) * w + j]);
    worst = sum > worst ? sum : worst;
  }
  c->atol = 1e-5 * (worst > 1 ? worst : 1);
  c->rtol = 1e-5;
}

static void gen_rfft2d(Case *c, int v) {
  (void)v;
  gen_rfft2d_core(c, 0);
}

/* COMPLEX_ABS: its complex64 input made by an RFFT2D in front (a complex
 * model input is not something the oracle's runner takes). */
static void gen_complex_abs(Case *c, int v) {
  (void)v;
  gen_rfft2d_core(c, 1);
}

/* The rows: OP, dtype label, generator, kind, variant (the data type). */
#define MROW(OP, FN, LABEL, KIND, DT) {OP, LABEL, FN, KIND, DT}
#define MF32(OP, FN) MROW(OP, FN, "float32", K_F32, TFW_FLOAT32)
#define MI8(OP, FN) MROW(OP, FN, "int8", K_I8, TFW_INT8)
#define MI16(OP, FN) MROW(OP, FN, "int16", K_I16, TFW_INT16)
#define MI32(OP, FN) MROW(OP, FN, "int32", K_F32, TFW_INT32)
#define MBOOL(OP, FN) MROW(OP, FN, "bool", K_F32, TFW_BOOL)
#define MCMP(OP, FN) MF32(OP, FN), MI8(OP, FN), MI32(OP, FN)

#define MATH_ROWS                                                                       \
  MF32("ABS", gen_abs), MI8("ABS", gen_abs), MI16("ABS", gen_abs), MF32("NEG", gen_neg),  \
  MF32("SQRT", gen_sqrt), MF32("RSQRT", gen_rsqrt), MI8("RSQRT", gen_rsqrt),            \
  MF32("SQUARE", gen_square), MF32("EXP", gen_exp), MF32("LOG", gen_log),               \
  MF32("SIN", gen_sin), MF32("COS", gen_cos), MF32("CEIL", gen_ceil),                   \
  MF32("FLOOR", gen_floor), MF32("ROUND", gen_round), MF32("ELU", gen_elu),             \
  MI8("ELU", gen_elu), MBOOL("LOGICAL_NOT", gen_logical_not),                           \
  MF32("ZEROS_LIKE", gen_zeros_like), MI32("ZEROS_LIKE", gen_zeros_like),               \
  MCMP("EQUAL", gen_equal), MBOOL("EQUAL", gen_equal), MCMP("NOT_EQUAL", gen_not_equal), \
  MBOOL("NOT_EQUAL", gen_not_equal), MCMP("GREATER", gen_greater),                      \
  MCMP("GREATER_EQUAL", gen_greater_equal), MCMP("LESS", gen_less),                     \
  MCMP("LESS_EQUAL", gen_less_equal), MBOOL("LOGICAL_AND", gen_logical_and),            \
  MBOOL("LOGICAL_OR", gen_logical_or),                                                  \
  MF32("SQUARED_DIFFERENCE", gen_squared_difference),                                   \
  MI32("SQUARED_DIFFERENCE", gen_squared_difference),                                   \
  MI8("SQUARED_DIFFERENCE", gen_squared_difference),                                    \
  MF32("FLOOR_DIV", gen_floor_div), MI32("FLOOR_DIV", gen_floor_div),                   \
  MF32("FLOOR_MOD", gen_floor_mod), MI32("FLOOR_MOD", gen_floor_mod),                   \
  MF32("PRELU", gen_prelu), MI8("PRELU", gen_prelu),                                    \
  MF32("POW", gen_pow), MI32("POW", gen_pow),                                            \
  MF32("SELECT", gen_select), MI8("SELECT", gen_select), MI32("SELECT", gen_select),    \
  MF32("SELECT_V2", gen_select_v2), MI8("SELECT_V2", gen_select_v2),                    \
  MI32("SELECT_V2", gen_select_v2), MI16("SELECT_V2", gen_select_v2),                  \
  MBOOL("SELECT_V2", gen_select_v2), MF32("LOG_SOFTMAX", gen_log_softmax), MI8("LOG_SOFTMAX", gen_log_softmax),               \
  MF32("ADD_N", gen_add_n), MROW("RFFT2D", gen_rfft2d, "float32", K_F32, TFW_FLOAT32),      \
  MROW("COMPLEX_ABS", gen_complex_abs, "complex64", K_F32, TFW_COMPLEX64),             \
  MI32("ADD", gen_add_s32), MI32("SUB", gen_sub_s32), MI32("MUL", gen_mul_s32)
