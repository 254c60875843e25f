/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The ONNX importer on hand-made models (a small protobuf writer below
 * builds each ModelProto): what it accepts and how it refuses.
 *   - a Conv + Relu model imports as TRANSPOSE (NCHW input) -> CONV_2D
 *     with the Relu fused -> TRANSPOSE back, with the filter re-laid out
 *     OIHW -> OHWI; --layout nhwc drops both transposes;
 *   - a QDQ Conv + Clip(0, 6) whose bounds are Constant nodes after the
 *     Conv (PyTorch's ReLU6) is one int8 CONV_2D with the ReLU6 folded;
 *   - a symbolic input dimension is refused naming the input and the
 *     dimension; --input-shape binds it;
 *   - --constant-input turns a graph input into a constant;
 *   - opsets outside 11..21, other domains (and com.microsoft nodes other
 *     than QLinearAdd, QLinearMul, QLinearGlobalAveragePool,
 *     QLinearLeakyRelu, QLinearConcat) and unknown
 *     ops are refused with a message naming the node index, name,
 *     op_type, domain and opset;
 *   - external data: read relative to the model; absolute paths and '..'
 *     are refused;
 *   - comparisons, Where, Elu/Selu, Softplus, Round, ReduceMin become
 *     their IR ops (8- and 16-bit comparisons, Add, Sub, Mul through
 *     CAST to int32; int64 Where);
 *     bool Less, Where of an int32 condition, int64 Log, float Not, ConstantOfShape of
 *     a graph input and an unknown DepthToSpace mode are refused naming
 *     the node.
 */
#define _POSIX_C_SOURCE 200809L
#include "model_test.h"

#include <setjmp.h>

/* ---------------------------------------------- a protobuf writer */

typedef struct {
  uint8_t *b;
  size_t n, cap;
} Buf;

static void put(Buf *o, const void *p, size_t n) {
  if (n == 0)
    return;
  if (o->n + n > o->cap) {
    o->cap = (o->n + n) * 2 + 64;
    o->b = realloc(o->b, o->cap);
  }
  memcpy(o->b + o->n, p, n);
  o->n += n;
}
static void varint(Buf *o, uint64_t v) {
  do {
    uint8_t c = (uint8_t)(v & 0x7f);
    v >>= 7;
    if (v)
      c |= 0x80;
    put(o, &c, 1);
  } while (v);
}
static void f_int(Buf *o, int num, int64_t v) { varint(o, (uint64_t)num << 3), varint(o, (uint64_t)v); }
static void f_bytes(Buf *o, int num, const void *p, size_t n) {
  varint(o, (uint64_t)num << 3 | 2);
  varint(o, n);
  put(o, p, n);
}
static void f_str(Buf *o, int num, const char *s) { f_bytes(o, num, s, strlen(s)); }
static void f_msg(Buf *o, int num, Buf *m) { f_bytes(o, num, m->b, m->n), free(m->b), *m = (Buf){0}; }

/* ValueInfoProto NAME: a tensor of ONNX elem_type et and dims (-1 =
 * symbolic "N"). */
static void value_info_t(Buf *g, int field, const char *name, int et, int nd,
                         const int64_t *dims) {
  Buf vi = {0}, tp = {0}, tt = {0}, sh = {0};
  for (int d = 0; d < nd; d++) {
    Buf dim = {0};
    if (dims[d] < 0)
      f_str(&dim, 2, "N");
    else
      f_int(&dim, 1, dims[d]);
    f_msg(&sh, 1, &dim);
  }
  f_int(&tt, 1, et);
  f_msg(&tt, 2, &sh);
  f_msg(&tp, 1, &tt);
  f_str(&vi, 1, name);
  f_msg(&vi, 2, &tp);
  f_msg(g, field, &vi);
}

static void value_info(Buf *g, int field, const char *name, int nd, const int64_t *dims) {
  value_info_t(g, field, name, 1, nd, dims);
}

/* TensorProto of floats in raw_data (or external: location). */
static void tensor(Buf *o, int field, const char *name, int nd, const int64_t *dims,
                   const float *v, const char *external) {
  Buf t = {0};
  size_t n = 1;
  for (int d = 0; d < nd; d++)
    f_int(&t, 1, dims[d]), n *= (size_t)dims[d];
  f_int(&t, 2, 1);
  f_str(&t, 8, name);
  if (external) {
    Buf e = {0};
    f_str(&e, 1, "location");
    f_str(&e, 2, external);
    f_msg(&t, 13, &e);
    f_int(&t, 14, 1);
  } else {
    f_bytes(&t, 9, v, n * 4);
  }
  f_msg(o, field, &t);
}

static void node(Buf *g, const char *op, const char *name, const char *domain,
                 const char *const *ins, int nin, const char *out, Buf *attrs) {
  Buf n = {0};
  for (int k = 0; k < nin; k++)
    f_str(&n, 1, ins[k]);
  f_str(&n, 2, out);
  f_str(&n, 3, name);
  f_str(&n, 4, op);
  if (attrs && attrs->n)
    put(&n, attrs->b, attrs->n), free(attrs->b), *attrs = (Buf){0};
  if (domain)
    f_str(&n, 7, domain);
  f_msg(g, 1, &n);
}

static void attr_ints(Buf *a, const char *name, const int64_t *v, int n) {
  Buf m = {0};
  f_str(&m, 1, name);
  for (int k = 0; k < n; k++)
    f_int(&m, 8, v[k]);
  f_int(&m, 20, 7);
  f_msg(a, 5, &m);
}

static Buf model(Buf *graph, int opset) {
  Buf m = {0}, os = {0};
  f_int(&m, 1, 8);
  f_str(&m, 2, "test");
  f_msg(&m, 7, graph);
  f_str(&os, 1, "");
  f_int(&os, 2, opset);
  f_msg(&m, 8, &os);
  return m;
}

/* Conv 3x3 (2 -> 4 channels, pads 1) + Relu on input [N?,2,5,5]. */
static Buf conv_model(int64_t batch, int opset, const char *op2, const char *domain2,
                      const char *external) {
  Buf g = {0}, a = {0};
  static float w[4 * 2 * 3 * 3];
  for (int k = 0; k < 72; k++)
    w[k] = (float)k;
  int64_t wd[4] = {4, 2, 3, 3}, xd[4] = {batch, 2, 5, 5}, yd[4] = {batch, 4, 5, 5};
  tensor(&g, 5, "w", 4, wd, w, external);
  int64_t pads[4] = {1, 1, 1, 1}, k[2] = {3, 3};
  attr_ints(&a, "pads", pads, 4);
  attr_ints(&a, "kernel_shape", k, 2);
  const char *cin[2] = {"x", "w"}, *rin[1] = {"c"};
  node(&g, "Conv", "conv0", NULL, cin, 2, "c", &a);
  node(&g, op2, "act1", domain2, rin, 1, "y", NULL);
  value_info(&g, 11, "x", 4, xd);
  value_info(&g, 12, "y", 4, yd);
  return model(&g, opset);
}

/* TensorProto of ONNX elem_type et, the values' bytes in raw_data. */
static void tensor_raw(Buf *o, int field, const char *name, int et, int nd, const int64_t *dims,
                       const void *v, size_t bytes) {
  Buf t = {0};
  for (int d = 0; d < nd; d++)
    f_int(&t, 1, dims[d]);
  f_int(&t, 2, et);
  f_str(&t, 8, name);
  f_bytes(&t, 9, v, bytes);
  f_msg(o, field, &t);
}

/* QDQ int8: DQ(x) -> Conv 3x3 (2 -> 4, pads 1; DQ weights, DQ bias) ->
 * Clip(lo, hi) -> Q -> y, with the Clip's bounds lo and hi in Constant
 * nodes written after the Conv, as PyTorch exports ReLU6. */
static Buf qdq_relu6_model(float hi) {
  Buf g = {0}, a = {0};
  static int8_t w[4 * 2 * 3 * 3];
  for (int k = 0; k < 72; k++)
    w[k] = (int8_t)(k % 7 - 3);
  static const int32_t bias[4] = {10, -20, 30, -40};
  static const float sx = 0.05f, sw = 0.01f, sb = 0.0005f, sy = 6.0f / 255;
  static const int8_t zx = 3, zw = 0, zy = -128;
  static const int32_t zb = 0;
  int64_t wd[4] = {4, 2, 3, 3}, bd[1] = {4}, xd[4] = {1, 2, 5, 5};
  tensor_raw(&g, 5, "w", 3, 4, wd, w, sizeof w);
  tensor_raw(&g, 5, "b", 6, 1, bd, bias, sizeof bias);
  tensor_raw(&g, 5, "sx", 1, 0, NULL, &sx, 4);
  tensor_raw(&g, 5, "sw", 1, 0, NULL, &sw, 4);
  tensor_raw(&g, 5, "sb", 1, 0, NULL, &sb, 4);
  tensor_raw(&g, 5, "sy", 1, 0, NULL, &sy, 4);
  tensor_raw(&g, 5, "zx", 3, 0, NULL, &zx, 1);
  tensor_raw(&g, 5, "zw", 3, 0, NULL, &zw, 1);
  tensor_raw(&g, 5, "zb", 6, 0, NULL, &zb, 4);
  tensor_raw(&g, 5, "zy", 3, 0, NULL, &zy, 1);
  const char *dx[3] = {"x", "sx", "zx"}, *dw[3] = {"w", "sw", "zw"}, *db[3] = {"b", "sb", "zb"};
  node(&g, "DequantizeLinear", "dqx", NULL, dx, 3, "xd", NULL);
  node(&g, "DequantizeLinear", "dqw", NULL, dw, 3, "wd", NULL);
  node(&g, "DequantizeLinear", "dqb", NULL, db, 3, "bdq", NULL);
  int64_t pads[4] = {1, 1, 1, 1}, k[2] = {3, 3};
  attr_ints(&a, "pads", pads, 4);
  attr_ints(&a, "kernel_shape", k, 2);
  const char *cin[3] = {"xd", "wd", "bdq"};
  node(&g, "Conv", "conv", NULL, cin, 3, "c", &a);
  const float bound[2] = {0.0f, hi};
  const char *const bname[2] = {"lo", "hi"};
  for (int i = 0; i < 2; i++) {
    Buf at = {0};
    f_str(&at, 1, "value");
    tensor_raw(&at, 5, bname[i], 1, 0, NULL, &bound[i], 4);
    f_int(&at, 20, 4);
    f_msg(&a, 5, &at);
    node(&g, "Constant", bname[i], NULL, NULL, 0, bname[i], &a);
  }
  const char *clip[3] = {"c", "lo", "hi"}, *q[3] = {"r", "sy", "zy"};
  node(&g, "Clip", "clip", NULL, clip, 3, "r", NULL);
  node(&g, "QuantizeLinear", "q", NULL, q, 3, "y", NULL);
  value_info_t(&g, 11, "x", 3, 4, xd);
  int64_t yd[4] = {1, 4, 5, 5};
  value_info_t(&g, 12, "y", 3, 4, yd);
  return model(&g, 13);
}

/* An attribute NAME of type STRING (s) or INT (s NULL: i). */
static void attr_si(Buf *a, const char *name, const char *sv, int64_t iv) {
  Buf at = {0};
  f_str(&at, 1, name);
  if (sv)
    f_str(&at, 4, sv), f_int(&at, 20, 3);
  else
    f_int(&at, 3, iv), f_int(&at, 20, 2);
  f_msg(a, 5, &at);
}

/* One node op_type `op` (attributes `a`, or none) on inputs a, b, c of
 * ONNX elem_types et[0..nin-1], all of shape [2,3], with output y of
 * elem_type yt. */
static Buf one_node(const char *op, int nin, const int *et, int yt, Buf *a) {
  Buf g = {0};
  int64_t d[2] = {2, 3};
  static const char *const names[3] = {"a", "b", "c"};
  node(&g, op, "n0", NULL, names, nin, "y", a);
  for (int k = 0; k < nin; k++)
    value_info_t(&g, 11, names[k], et[k], 2, d);
  value_info_t(&g, 12, "y", yt, 2, d);
  return model(&g, 13);
}

/* --------------------------------------------------------- checks */

static Graph *import(const char *path, Buf *m, const ImportOptions *o) {
  jmp_buf jb;
  error_jmp = &jb;
  error_message[0] = 0;
  Graph *g = NULL;
  if (!setjmp(jb)) {
    g = read_onnx(path, m->b, m->n, o);
    verify(g);
  } else {
    g = NULL;
  }
  error_jmp = NULL;
  return g;
}

static const char *kinds(const Graph *g) {
  const char *s = "";
  for (int i = 0; i < g->nops; i++)
    s = arena_printf("%s%s%s", s, i ? " " : "", op_name(g->ops[i].kind));
  return s;
}

static void refused(Buf m, const ImportOptions *o, const char *words, const char *what) {
  Graph *g = import("m.onnx", &m, o);
  CHECK(!g && strstr(error_message, words) && !strncmp(error_message, "m.onnx: ", 8),
        "%s is refused with a message naming the file and \"%s\" (%s)", what, words,
        g ? "accepted" : error_message);
  free(m.b);
}

int main(void) {
  static const ImportOptions none;
  Buf m = conv_model(1, 13, "Relu", NULL, NULL);
  Graph *g = import("m.onnx", &m, &none);
  if (CHECK(g != NULL, "a Conv + Relu model imports (%s)", error_message)) {
    CHECK(!strcmp(kinds(g), "TRANSPOSE CONV_2D TRANSPOSE"),
          "it becomes TRANSPOSE CONV_2D TRANSPOSE (got %s)", kinds(g));
    const Op *c = &g->ops[1];
    const Tensor *f = &g->tensors[c->inputs[1]];
    float w1;
    memcpy(&w1, f->data + 4, 4);
    CHECK(c->opt.activation == ACT_RELU && c->opt.padding == PAD_SAME,
          "the Relu is fused and pads 1 of a 3x3 stride-1 convolution are SAME");
    CHECK(f->ndims == 4 && f->dims[0] == 4 && f->dims[1] == 3 && f->dims[2] == 3 &&
              f->dims[3] == 2 && w1 == 9.0f,
          "the filter is re-laid out OIHW -> OHWI ([4,3,3,2]; element 1 is w[0][1][0][0] = 9, "
          "got %g)", (double)w1);
  }
  free(m.b);

  ImportOptions nhwc = {.nhwc_io = true};
  m = conv_model(1, 13, "Relu", NULL, NULL);
  g = import("m.onnx", &m, &nhwc);
  if (CHECK(g != NULL, "the model imports with --layout nhwc (%s)", error_message))
    CHECK(!strcmp(kinds(g), "CONV_2D") && g->tensors[g->inputs[0]].dims[3] == 2,
          "--layout nhwc takes an NHWC input and leaves no transpose (got %s)", kinds(g));
  free(m.b);

  /* A QDQ Conv + ReLU6 whose Clip bounds are Constant nodes after the
   * Conv: one int8 CONV_2D with the ReLU6 folded; Clip(0, 5) is no
   * activation range, and leaves the group in float. */
  m = qdq_relu6_model(6.0f);
  g = import("m.onnx", &m, &nhwc);
  if (CHECK(g != NULL, "a QDQ Conv + Clip(0, 6) with Constant bounds imports (%s)",
            error_message))
    CHECK(!strcmp(kinds(g), "CONV_2D") && g->ops[0].opt.activation == ACT_RELU6 &&
              g->tensors[g->ops[0].outputs[0]].dtype == DT_INT8,
          "it is one int8 CONV_2D with the ReLU6 folded (got %s)", kinds(g));
  free(m.b);
  m = qdq_relu6_model(5.0f);
  g = import("m.onnx", &m, &nhwc);
  CHECK(g && strcmp(kinds(g), "CONV_2D") && strstr(kinds(g), "MINIMUM"),
        "with Clip(0, 5) the group stays in float (got %s)", g ? kinds(g) : error_message);
  free(m.b);

  refused(conv_model(-1, 13, "Relu", NULL, NULL), &none,
          "graph input 'x' has a symbolic dimension 0 ('N'): bind it with --input-shape",
          "a symbolic batch dimension");
  InputShape s = {.name = "x", .ndims = 4, .dims = {1, 2, 5, 5}};
  ImportOptions bound = {.shapes = &s, .nshapes = 1};
  m = conv_model(-1, 13, "Relu", NULL, NULL);
  g = import("m.onnx", &m, &bound);
  CHECK(g && g->tensors[g->inputs[0]].dims[0] == 1,
        "--input-shape x=1x2x5x5 binds the symbolic dimension (%s)", g ? "" : error_message);
  free(m.b);

  refused(conv_model(1, 8, "Relu", NULL, NULL), &none,
          "opset 8 of the default domain is not supported (9 to 25)", "opset 8");
  refused(conv_model(1, 26, "Relu", NULL, NULL), &none,
          "opset 26 of the default domain is not supported (9 to 25)", "opset 26");
  refused(conv_model(1, 13, "Frobnicate", NULL, NULL), &none,
          "node 1 (act1, op_type Frobnicate, domain '', opset 13): op_type Frobnicate is not "
          "supported", "an unknown op_type");
  refused(conv_model(1, 13, "Relu", "com.example", NULL), &none,
          "node 1 (act1, op_type Relu, domain 'com.example', opset 13): the domain", "another domain");
  refused(conv_model(1, 13, "QLinearSigmoid", "com.microsoft", NULL), &none,
          "node 1 (act1, op_type QLinearSigmoid, domain 'com.microsoft', opset 13): "
          "QLinearSigmoid of domain com.microsoft is not supported (QLinearAdd, QLinearMul, "
          "QLinearGlobalAveragePool, QLinearLeakyRelu, QLinearConcat only)",
          "a com.microsoft node other than the five QOperator ones");

  /* Comparisons, Where, unary float ops: what they become, what they refuse
   * (elem_types: 1 float, 3 int8, 7 int64, 9 bool). */
  static const struct {
    const char *op;
    int nin, et[3], yt;
    const char *kinds;
  } maps[] = {
      {"Less", 2, {1, 1}, 9, "LESS"},
      {"Equal", 2, {9, 9}, 9, "EQUAL"},
      {"Greater", 2, {3, 3}, 9, "CAST CAST GREATER"},
      {"Sub", 2, {3, 3}, 3, "CAST CAST MUL ADD CAST"},
      {"Mul", 2, {2, 2}, 2, "CAST CAST MUL CAST"},
      {"Where", 3, {9, 1, 1}, 1, "SELECT_V2"},
      {"Elu", 1, {1}, 1, "ELU"},
      {"Selu", 1, {1}, 1, "ELU MINIMUM MUL RELU MUL ADD"},
      {"Softplus", 1, {1}, 1, "EXP ADD LOG"},
      {"Round", 1, {1}, 1, "ROUND"},
      {"ReduceMin", 1, {1}, 1, "REDUCE_MIN"},
  };
  for (size_t i = 0; i < sizeof maps / sizeof *maps; i++) {
    m = one_node(maps[i].op, maps[i].nin, maps[i].et, maps[i].yt, NULL);
    g = import("m.onnx", &m, &none);
    CHECK(g && !strcmp(kinds(g), maps[i].kinds), "%s becomes %s (got %s)", maps[i].op,
          maps[i].kinds, g ? kinds(g) : error_message);
    free(m.b);
  }
  {
    Buf a = {0};
    static const int f[1] = {1};
    attr_si(&a, "select_last_index", NULL, 1);
    m = one_node("ArgMax", 1, f, 7, &a);
    g = import("m.onnx", &m, &none);
    CHECK(g && !strcmp(kinds(g), "REVERSE_V2 ARG_MAX GATHER RESHAPE"),
          "ArgMax select_last_index=1 becomes REVERSE_V2 ARG_MAX GATHER RESHAPE (got %s)",
          g ? kinds(g) : error_message);
    if (g) {
      const Tensor *tab = &g->tensors[g->ops[2].inputs[0]];
      int64_t t0 = -1, t1 = -1;
      if (tab->data && tab->ndims == 1 && tab->dims[0] == 2)
        memcpy(&t0, tab->data, 8), memcpy(&t1, tab->data + 8, 8);
      CHECK(t0 == 1 && t1 == 0, "the GATHER maps the reversed index k to 1 - k (got %lld %lld)",
            (long long)t0, (long long)t1);
    }
    free(m.b);
  }
  static const int bools[2] = {9, 9}, where64[3] = {9, 7, 7}, i64[1] = {7}, f1[1] = {1};
  refused(one_node("Less", 2, bools, 9, NULL), &none,
          "node 0 (n0, op_type Less, domain '', opset 13): inputs of type bool are not "
          "supported", "Less of bool inputs");
  {
    Buf w = one_node("Where", 3, where64, 7, NULL);
    Graph *g = import("m.onnx", &w, &none);
    CHECK(g && !strcmp(kinds(g), "SELECT_V2"), "Where of int64 values becomes SELECT_V2 (got %s)",
          g ? kinds(g) : error_message);
    free(w.b);
  }
  static const int where_i32[3] = {6, 1, 1};
  refused(one_node("Where", 3, where_i32, 1, NULL), &none,
          "node 0 (n0, op_type Where, domain '', opset 13): the condition has type int32, not "
          "bool", "Where with an int32 condition");
  refused(one_node("Log", 1, i64, 7, NULL), &none,
          "node 0 (n0, op_type Log, domain '', opset 13): 'a' is int64; this op is imported "
          "for float32 only", "Log of int64");
  refused(one_node("Clip", 1, i64, 7, NULL), &none,
          "node 0 (n0, op_type Clip, domain '', opset 13): 'a' is int64; Clip is imported for "
          "float32, int8, uint8, int16 and int32", "Clip of int64");
  refused(one_node("Not", 1, f1, 1, NULL), &none,
          "node 0 (n0, op_type Not, domain '', opset 13): input of type float32; Not takes bool",
          "Not of float32");
  refused(one_node("ConstantOfShape", 1, i64, 1, NULL), &none,
          "node 0 (n0, op_type ConstantOfShape, domain '', opset 13): the shape (input 0) is "
          "not constant", "ConstantOfShape of a graph input");
  {
    Buf gr = {0}, a = {0};
    int64_t xd[4] = {1, 8, 2, 2}, yd[4] = {1, 2, 4, 4};
    attr_si(&a, "mode", "XYZ", 0);
    attr_si(&a, "blocksize", NULL, 2);
    const char *din[1] = {"x"};
    node(&gr, "DepthToSpace", "d2s", NULL, din, 1, "y", &a);
    value_info(&gr, 11, "x", 4, xd);
    value_info(&gr, 12, "y", 4, yd);
    refused(model(&gr, 13), &none,
            "node 0 (d2s, op_type DepthToSpace, domain '', opset 13): mode 'XYZ' is not "
            "supported", "DepthToSpace in an unknown mode");
  }

  /* External data next to the model file. */
  const char *tmp = test_tmpdir("onnx-import");
  if (!tmp)
    return test_exit();
  static float w[72];
  for (int k = 0; k < 72; k++)
    w[k] = (float)k;
  FILE *f = fopen(arena_printf("%s/w.bin", tmp), "wb");
  fwrite(w, 4, 72, f);
  fclose(f);
  m = conv_model(1, 13, "Relu", NULL, "w.bin");
  jmp_buf jb;
  error_jmp = &jb;
  g = NULL;
  if (!setjmp(jb))
    g = read_onnx(arena_printf("%s/m.onnx", tmp), m.b, m.n, &none);
  error_jmp = NULL;
  CHECK(g != NULL, "external data (w.bin next to the model) is read (%s)", g ? "" : error_message);
  free(m.b);
  refused(conv_model(1, 13, "Relu", NULL, "/etc/passwd"), &none, "is not a relative path",
          "an absolute external data path");
  refused(conv_model(1, 13, "Relu", NULL, "../w.bin"), &none, "leaves the model's folder",
          "an external data path with '..'");
  refused(conv_model(1, 13, "Relu", NULL, "a/../../w.bin"), &none, "leaves the model's folder",
          "an external data path with '..' inside");

  /* QuantizeLinear rounds halves to even and saturates (ONNX), run end
   * to end: x / 1 for x = 0.5, 1.5, 2.5, 300 gives uint8 0, 2, 2, 255
   * (TFLite's half-away-from-zero rounding would give 1, 2, 3, 255). */
  {
    Buf gr = {0};
    int64_t xd[1] = {4};
    float one = 1.0f;
    tensor(&gr, 5, "s", 0, NULL, &one, NULL);
    const char *qin[2] = {"x", "s"};
    node(&gr, "QuantizeLinear", "q", NULL, qin, 2, "y", NULL);
    value_info(&gr, 11, "x", 1, xd);
    value_info_t(&gr, 12, "y", 2, 1, xd);
    m = model(&gr, 13);
    g = import("m.onnx", &m, &none);
    CHECK(g && !strcmp(kinds(g), "DIV ROUND ADD MAXIMUM MINIMUM CAST"),
          "QuantizeLinear becomes DIV ROUND ADD MAXIMUM MINIMUM CAST (got %s)",
          g ? kinds(g) : error_message);
    const char *mp = arena_printf("%s/q.onnx", tmp), *xp = arena_printf("%s/qx.bin", tmp),
               *yp = arena_printf("%s/qy.bin", tmp);
    static const float xv[4] = {0.5f, 1.5f, 2.5f, 300.0f};
    f = fopen(mp, "wb");
    fwrite(m.b, 1, m.n, f);
    fclose(f);
    f = fopen(xp, "wb");
    fwrite(xv, 4, 4, f);
    fclose(f);
    free(m.b);
    int rc = run_command(arena_printf("%s run %s -i %s -o %s > /dev/null", test_tinyaot(), mp,
                                      xp, yp));
    size_t ny = 0;
    uint8_t *y = slurp(yp, &ny);
    CHECK(rc == 0 && y && ny == 4 && y[0] == 0 && y[1] == 2 && y[2] == 2 && y[3] == 255,
          "QuantizeLinear of 0.5, 1.5, 2.5, 300 (scale 1) gives 0, 2, 2, 255 (exit %d, got "
          "%d %d %d %d)", rc, y && ny == 4 ? y[0] : -1, y && ny == 4 ? y[1] : -1,
          y && ny == 4 ? y[2] : -1, y && ny == 4 ? y[3] : -1);
    free(y);
  }
  refused(one_node("DequantizeLinear", 1, f1, 1, NULL), &none,
          "node 0 (n0, op_type DequantizeLinear, domain '', opset 13): dequantizing float32 is "
          "not supported (int8, uint8, int16, uint16, int32, int4, uint4, int2, uint2, float8, "
          "float4e2m1)",
          "DequantizeLinear of float32");

  /* --constant-input: the weights as a graph input bound to a file. */
  {
    Buf gr = {0}, a = {0};
    int64_t wd[4] = {4, 2, 3, 3}, xd[4] = {1, 2, 5, 5}, yd[4] = {1, 4, 3, 3};
    int64_t k[2] = {3, 3};
    attr_ints(&a, "kernel_shape", k, 2);
    const char *cin[2] = {"x", "w"};
    node(&gr, "Conv", "conv0", NULL, cin, 2, "y", &a);
    value_info(&gr, 11, "x", 4, xd);
    value_info(&gr, 11, "w", 4, wd);
    value_info(&gr, 12, "y", 4, yd);
    m = model(&gr, 13);
    refused(m, &none, "must be a constant (an initializer, or --constant-input)",
            "weights given as a graph input");
    Buf gr2 = {0}, a2 = {0};
    attr_ints(&a2, "kernel_shape", k, 2);
    node(&gr2, "Conv", "conv0", NULL, cin, 2, "y", &a2);
    value_info(&gr2, 11, "x", 4, xd);
    value_info(&gr2, 11, "w", 4, wd);
    value_info(&gr2, 12, "y", 4, yd);
    m = model(&gr2, 13);
    ConstantInput ci = {.name = "w", .file = arena_printf("%s/w.bin", tmp)};
    ImportOptions co = {.constants = &ci, .nconstants = 1};
    g = import("m.onnx", &m, &co);
    CHECK(g && g->ninputs == 1 && g->nops == 3,
          "--constant-input w=w.bin (raw bytes) makes the weights constant: one input, "
          "TRANSPOSE CONV_2D TRANSPOSE (%s)", g ? kinds(g) : error_message);
    free(m.b);
  }
  /* AveragePool 3x3 pads 1: SAME when padded cells are excluded (the
   * default), PAD + VALID when count_include_pad = 1. */
  for (int include = 0; include < 2; include++) {
    Buf gr = {0}, a = {0};
    int64_t xd[4] = {1, 2, 5, 5}, pads[4] = {1, 1, 1, 1}, k[2] = {3, 3};
    attr_ints(&a, "kernel_shape", k, 2);
    attr_ints(&a, "pads", pads, 4);
    Buf ci = {0};
    f_str(&ci, 1, "count_include_pad");
    f_int(&ci, 3, include);
    f_int(&ci, 20, 2);
    f_msg(&a, 5, &ci);
    const char *pin[1] = {"x"};
    node(&gr, "AveragePool", "pool", NULL, pin, 1, "y", &a);
    value_info(&gr, 11, "x", 4, xd);
    value_info(&gr, 12, "y", 4, xd);
    m = model(&gr, 13);
    g = import("m.onnx", &m, &none);
    const char *want = include ? "TRANSPOSE PAD AVERAGE_POOL_2D TRANSPOSE"
                               : "TRANSPOSE AVERAGE_POOL_2D TRANSPOSE";
    CHECK(g && !strcmp(kinds(g), want),
          "AveragePool 3x3 pads 1 count_include_pad=%d becomes %s (got %s)", include, want,
          g ? kinds(g) : error_message);
    free(m.b);
  }
  return test_end(tmp, "files");
}
