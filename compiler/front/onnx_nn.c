/* SPDX-License-Identifier: Apache-2.0 */
/*
 * onnx_nn.c - Gemm, MatMul, BatchNormalization, LayerNormalization,
 * InstanceNormalization, Gelu and the recurrent nodes (GRU composed of
 * its gates, LSTM onto UNIDIRECTIONAL_SEQUENCE_LSTM).
 */
#include "onnx_import.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* ------------------------------------------------ Gemm, MatMul, BN */

int fully_connected(Imp *m, int t, const float *w, int64_t nout, int64_t nin,
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

void import_gemm(Imp *m) {
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

void import_matmul(Imp *m) {
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

void import_batch_norm(Imp *m) {
  Val *x = act_in(m, 0);
  need_f32(m, x);
  Val *sc = need_const_input(m, 1, "scale"), *bb = need_const_input(m, 2, "B");
  Val *mean = need_const_input(m, 3, "mean"), *var = need_const_input(m, 4, "var");
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
int f32_like(Imp *m, int t) {
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
  int ins[2] = {t, const_i32_tensor(m, ax, nax)};
  int o = add_op(m, OP_MEAN, ins, 2, &mean, 1);
  OP(m, o)->opt.fields = OPTF_KEEP_DIMS;
  OP(m, o)->opt.keep_dims = true;
  int d = binary_to(m, OP_SUB, t, mean, f32_like(m, t));
  int sq = binary_to(m, OP_MUL, d, d, f32_like(m, t));
  int var = new_tensor(m, "", DT_FLOAT32, r, kd);
  int vins[2] = {sq, const_i32_tensor(m, ax, nax)};
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
void import_layer_norm(Imp *m) {
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
void import_instance_norm(Imp *m) {
  Val *x = act_in(m, 0);
  need_f32(m, x);
  Val *sc = need_const_input(m, 1, "scale"), *bb = need_const_input(m, 2, "B");
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
void import_gelu(Imp *m) {
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
  int ins[2] = {t, const_i32_tensor(m, ax, nax)};
  int o = add_op(m, OP_MEAN, ins, 2, &bm, 1);
  OP(m, o)->opt.fields = OPTF_KEEP_DIMS;
  OP(m, o)->opt.keep_dims = true;
  int d = binary_to(m, OP_SUB, t, bm, f32_like(m, t));
  int sq = binary_to(m, OP_MUL, d, d, f32_like(m, t));
  int bv = new_tensor(m, "", DT_FLOAT32, r, kd);
  int vins[2] = {sq, const_i32_tensor(m, ax, nax)};
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
void import_gru(Imp *m) {
  Val *x = act_in(m, 0);
  need_f32(m, x);
  Val *W = need_const_input(m, 1, "W"), *R = need_const_input(m, 2, "R"), *B = in(m, 3);
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
    int sins[3] = {xs, const_i32_tensor(m, sz, (int)seq), const_i32_tensor(m, &ax, 1)};
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
      int ins[2] = {ys[0], const_i32_tensor(m, (int32_t[]){(int32_t)(layout ? batch : 1), 1,
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

/* LSTM (forward, one direction) -> UNIDIRECTIONAL_SEQUENCE_LSTM.  ONNX
 * gate blocks are i, o, f, c; TFLite's inputs are i, f, c, o.  The
 * states are variable tensors starting at 0: ONNX's semantics (every run
 * starts from initial_h = 0) hold for a runner reset before each run
 * (<prefix>_reset()). */
void import_lstm(Imp *m) {
  Val *x = act_in(m, 0);
  need_f32(m, x);
  Val *W = need_const_input(m, 1, "W"), *R = need_const_input(m, 2, "R"), *B = in(m, 3);
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
    int sl[4] = {y, const_i32_tensor(m, b, 3), const_i32_tensor(m, e, 3),
                 const_i32_tensor(m, st, 3)};
    int64_t hd[3] = {layout ? batch : 1, layout ? 1 : batch, H};
    int t = act_out(m, 1, DT_FLOAT32, 3, hd, L_ONNX, NULL);
    int so = add_op(m, OP_STRIDED_SLICE, sl, 4, &t, 1);
    OP(m, so)->opt.fields = OPTF_SLICE_MASKS;
  }
}
