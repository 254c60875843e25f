/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_composite.c - test models with STABLEHLO_COMPOSITE ops, and the
 * same models with every decomposition written inline.
 *
 *   gen_composite OUTDIR
 *
 * Writes OUTDIR/<name>.tflite (the composite in subgraph 0, its
 * decomposition in a subgraph of its own), OUTDIR/<name>_inlined.tflite
 * (the decomposition's ops where the composite stood, in subgraph 0
 * only) and OUTDIR/<name>_in<i>.bin (pseudo-random inputs), for
 *
 *   attn_f32, attn_int8  "test.attention"(q, k, v):
 *                        BATCH_MATMUL(q, k, adj_y), MUL by 1/sqrt(8)
 *                        (float32 only), SOFTMAX, BATCH_MATMUL(p, v);
 *                        then ADD(attention, q) in subgraph 0;
 *   nested_f32, nested_int8  "outer"(x, y) -> (u, w): MUL(x, y), a nested
 *                        composite "inner"(t, x) -> TANH(ADD(t, x)), then
 *                        ADD(z, y) and RESHAPE(z) to [12]: two inputs,
 *                        two outputs, two levels.
 *
 * OUTDIR/manifest.txt gets one line per model: NAME DTYPE NINPUTS
 * NOUTPUTS.  OUTDIR/bad/ (which must exist) holds models to refuse (a
 * bad subgraph index, recursion, nesting too deep, a decomposition with
 * another input count, dtype or shape) and expect.txt a piece of each
 * refusal's message.  Both files of a pair compute the same function, so a
 * runtime that does not run composites checks the inlining through the
 * _inlined twin.
 */
#include "rng.h"
#include "tflite_writer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OPT_BATCH_MATMUL 101 /* BuiltinOptions BatchMatMulOptions */

typedef struct {
  TfwModel *m;
  int inlined; /* write decompositions inline */
  int dtype;   /* TFW_FLOAT32 or TFW_INT8 */
} Gen;

/* An activation tensor of g's dtype (int8: scale, zero point). */
static int act(Gen *g, const char *name, int ndims, const int32_t *dims,
               float scale, int zp) {
  int t = tfw_tensor(g->m, name, g->dtype, ndims, dims, 0);
  if (g->dtype == TFW_INT8)
    tfw_quant1(g->m, t, scale, zp);
  return t;
}

static void bmm(Gen *g, int a, int b, int adj_y, int out) {
  int in[2] = {a, b};
  int op = tfw_op(g->m, TFW_OP_BATCH_MATMUL, 2, in, 1, &out);
  int32_t opts[3] = {0, adj_y, 0};
  tfw_scalar_options(g->m, op, OPT_BATCH_MATMUL, "bbb", opts);
}

static void binary(Gen *g, int code, int a, int b, int out) {
  int in[2] = {a, b};
  int op = tfw_op(g->m, code, 2, in, 1, &out);
  if (code == TFW_OP_ADD)
    tfw_add_options(g->m, op, TFW_ACT_NONE, 1);
  else
    tfw_mul_options(g->m, op, TFW_ACT_NONE);
}

/* The attention decomposition: io = q, k, v, out. */
static void attention(Gen *g, const int *io) {
  int32_t sd[3] = {1, 4, 4};
  int s = act(g, "scores", 3, sd, 0.25f, 3);
  bmm(g, io[0], io[1], 1, s);
  if (g->dtype == TFW_FLOAT32) {
    int32_t one = 1;
    float c = 1.0f / sqrtf(8.0f);
    int k = tfw_const(g->m, "scale", TFW_FLOAT32, 1, &one, &c);
    int s2 = act(g, "scaled", 3, sd, 0, 0);
    binary(g, TFW_OP_MUL, s, k, s2);
    s = s2;
  }
  int p = act(g, "probs", 3, sd, 1.0f / 256, -128);
  int op = tfw_op(g->m, TFW_OP_SOFTMAX, 1, &s, 1, &p);
  tfw_softmax_options(g->m, op, 1.0f);
  bmm(g, p, io[2], 0, io[3]);
}

/* "inner": io = t, x, z: z = TANH(ADD(t, x)). */
static void inner(Gen *g, const int *io) {
  int32_t d[2] = {2, 6};
  int s = act(g, "sum", 2, d, 0.05f, -5);
  binary(g, TFW_OP_ADD, io[0], io[1], s);
  tfw_op(g->m, TFW_OP_TANH, 1, &s, 1, &io[2]);
}

/* A tensor of a composite's interface, made afresh in each subgraph. */
typedef struct {
  const char *name;
  int ndims;
  int32_t dims[3];
  float scale; /* int8 */
  int zp;
} Spec;

typedef void (*Body)(Gen *g, const int *io);

enum { MAX_IO = 6, MAX_PENDING = 4 };

typedef struct {
  Body body;
  int nin, nout;
  Spec spec[MAX_IO];
} Pending;

static Pending pending[MAX_PENDING];
static int npending;

static int make(Gen *g, const Spec *s) {
  return act(g, s->name, s->ndims, s->dims, s->scale, s->zp);
}

/* A composite named `name` on io (nin inputs, then nout outputs; specs
 * describe them): inline, its body now; otherwise the op, and its body
 * in the next subgraph (written by flush()). */
static void composite(Gen *g, const char *name, Body body, int nin, int nout,
                      const int *io, const Spec *spec) {
  if (g->inlined) {
    body(g, io);
    return;
  }
  if (npending == MAX_PENDING) {
    fprintf(stderr, "gen_composite: too many composites\n");
    exit(1);
  }
  Pending *p = &pending[npending++];
  p->body = body;
  p->nin = nin;
  p->nout = nout;
  memcpy(p->spec, spec, (size_t)(nin + nout) * sizeof *spec);
  int op = tfw_op(g->m, TFW_OP_STABLEHLO_COMPOSITE, nin, io, nout, io + nin);
  /* LiteRT requires composite_attributes: a FlexBuffers map. */
  TfwFlexEntry attr = {"is_causal", 'b', 0, 0};
  uint8_t *attrs;
  size_t nattrs = tfw_flex_map(&attr, 1, &attrs);
  tfw_composite_options(g->m, op, name, npending, attrs, nattrs, 1);
  free(attrs);
}

/* Writes the pending decompositions, subgraph 1 on. */
static void flush(Gen *g) {
  for (int k = 0; k < npending; k++) {
    Pending *p = &pending[k];
    tfw_subgraph(g->m);
    int io[MAX_IO];
    for (int i = 0; i < p->nin + p->nout; i++)
      io[i] = make(g, &p->spec[i]);
    p->body(g, io);
    tfw_inputs(g->m, p->nin, io);
    tfw_outputs(g->m, p->nout, io + p->nin);
  }
  npending = 0;
}

/* "outer": io = x, y, u, w. */
static void outer(Gen *g, const int *io) {
  static const Spec in[3] = {{"t", 2, {2, 6, 0}, 0.04f, -3},
                             {"x", 2, {2, 6, 0}, 0.02f, 0},
                             {"z", 2, {2, 6, 0}, 1.0f / 128, 0}};
  int v[3] = {make(g, &in[0]), io[0], make(g, &in[2])};
  binary(g, TFW_OP_MUL, io[0], io[1], v[0]);
  composite(g, "inner", inner, 2, 1, v, in);
  binary(g, TFW_OP_ADD, v[2], io[1], io[2]);
  int32_t n = 1, shape = 12;
  int in2[2] = {v[2], tfw_const(g->m, "shape", TFW_INT32, 1, &n, &shape)};
  int op = tfw_op(g->m, TFW_OP_RESHAPE, 2, in2, 1, &io[3]);
  tfw_reshape_options(g->m, op, 1, &shape);
}

static void attn_model(Gen *g) {
  static const Spec s[4] = {{"q", 3, {1, 4, 8}, 0.05f, 0},
                            {"k", 3, {1, 4, 8}, 0.05f, 0},
                            {"v", 3, {1, 4, 8}, 0.05f, 0},
                            {"attention", 3, {1, 4, 8}, 0.05f, 0}};
  static const Spec so = {"out", 3, {1, 4, 8}, 0.1f, 2};
  int io[4];
  for (int i = 0; i < 4; i++)
    io[i] = make(g, &s[i]);
  int out = make(g, &so);
  composite(g, "test.attention", attention, 3, 1, io, s);
  binary(g, TFW_OP_ADD, io[3], io[0], out);
  tfw_inputs(g->m, 3, io);
  tfw_outputs(g->m, 1, &out);
}

static void nested_model(Gen *g) {
  static const Spec s[4] = {{"x", 2, {2, 6, 0}, 0.02f, 0},
                            {"y", 2, {2, 6, 0}, 0.02f, 0},
                            {"u", 2, {2, 6, 0}, 0.03f, 1},
                            {"w", 1, {12, 0, 0}, 1.0f / 128, 0}};
  int io[4];
  for (int i = 0; i < 4; i++)
    io[i] = make(g, &s[i]);
  composite(g, "outer", outer, 2, 2, io, s);
  tfw_inputs(g->m, 2, io);
  tfw_outputs(g->m, 2, io + 2);
}

static void write_inputs(const char *dir, const char *name, const Gen *g,
                         int n, int size, Rng *r) {
  for (int i = 0; i < n; i++) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s_in%d.bin", dir, name, i);
    FILE *f = fopen(path, "wb");
    if (!f) {
      perror(path);
      exit(1);
    }
    for (int k = 0; k < size; k++) {
      if (g->dtype == TFW_FLOAT32) {
        float v = runif(r, -2, 2);
        fwrite(&v, 4, 1, f);
      } else {
        signed char v = (signed char)rint_in(r, -128, 127);
        fwrite(&v, 1, 1, f);
      }
    }
    fclose(f);
  }
}

/* A composite "bad" in subgraph 0 on x [4] -> y [4], calling subgraph
 * `index`; subgraphs 1..nsub follow, each TANH(x) [4] - or, when
 * `chain`, another composite calling the next subgraph (the last one
 * calling `index` again when `loop`).  `kind` spoils subgraph 1: 'c' one
 * input more, 't' an int32 input, 's' a [5] input. */
static void bad_model(const char *path, int index, int nsub, int chain,
                      int loop, int kind) {
  TfwModel *m = tfw_new();
  int32_t d = 4;
  int x = tfw_tensor(m, "x", TFW_FLOAT32, 1, &d, 0);
  int y = tfw_tensor(m, "y", TFW_FLOAT32, 1, &d, 0);
  TfwFlexEntry attr = {"k", 'i', 1, 0};
  uint8_t *attrs;
  size_t nattrs = tfw_flex_map(&attr, 1, &attrs);
  int op = tfw_op(m, TFW_OP_STABLEHLO_COMPOSITE, 1, &x, 1, &y);
  tfw_composite_options(m, op, "bad", index, attrs, nattrs, 1);
  tfw_inputs(m, 1, &x);
  tfw_outputs(m, 1, &y);
  for (int k = 1; k <= nsub; k++) {
    tfw_subgraph(m);
    int32_t dk = kind == 's' && k == 1 ? 5 : 4;
    int a = tfw_tensor(m, "a", kind == 't' && k == 1 ? TFW_INT32 : TFW_FLOAT32,
                       1, &dk, 0);
    int b = tfw_tensor(m, "b", TFW_FLOAT32, 1, &d, 0);
    int ins[2] = {a, tfw_tensor(m, "extra", TFW_FLOAT32, 1, &d, 0)};
    if (chain && (k < nsub || loop)) {
      op = tfw_op(m, TFW_OP_STABLEHLO_COMPOSITE, 1, &a, 1, &b);
      tfw_composite_options(m, op, "link", k < nsub ? k + 1 : index, attrs,
                            nattrs, 1);
    } else {
      tfw_op(m, TFW_OP_TANH, 1, &a, 1, &b);
    }
    tfw_inputs(m, kind == 'c' && k == 1 ? 2 : 1, ins);
    tfw_outputs(m, 1, &b);
  }
  free(attrs);
  if (tfw_write_file(m, path)) {
    perror(path);
    exit(1);
  }
  tfw_free(m);
}

/* OUTDIR/bad/<name>.tflite, and its refusal in OUTDIR/bad/expect.txt. */
static void bad_models(const char *dir) {
  static const struct {
    const char *name, *expect;
    int index, nsub, chain, loop, kind;
  } bad[] = {
      {"index", "decomposition_subgraph_index 3 is no subgraph", 3, 1, 0, 0, 0},
      {"index0", "decomposition_subgraph_index 0 is no subgraph", 0, 1, 0, 0, 0},
      {"recursion", "composites may not recurse", 1, 2, 1, 1, 0},
      {"depth", "composites nested more than 8 deep", 1, 10, 1, 0, 0},
      {"count", "has 1 inputs and 1 outputs, but its decomposition", 1, 1, 0, 0, 'c'},
      {"dtype", "is float32[4], but its decomposition's", 1, 1, 0, 0, 't'},
      {"shape", "is float32[4], but its decomposition's", 1, 1, 0, 0, 's'},
  };
  char path[512];
  snprintf(path, sizeof path, "%s/bad/expect.txt", dir);
  FILE *f = fopen(path, "w");
  if (!f) {
    perror(path);
    exit(1);
  }
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    snprintf(path, sizeof path, "%s/bad/%s.tflite", dir, bad[i].name);
    bad_model(path, bad[i].index, bad[i].nsub, bad[i].chain, bad[i].loop,
              bad[i].kind);
    fprintf(f, "%s %s\n", bad[i].name, bad[i].expect);
  }
  fclose(f);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: gen_composite OUTDIR\n");
    return 2;
  }
  const char *dir = argv[1];
  char path[512];
  snprintf(path, sizeof path, "%s/manifest.txt", dir);
  FILE *man = fopen(path, "w");
  if (!man) {
    perror(path);
    return 1;
  }
  static const struct {
    const char *name;
    void (*model)(Gen *g);
    int dtype, nin, nout, size;
  } cases[] = {
      {"attn_f32", attn_model, TFW_FLOAT32, 3, 1, 32},
      {"attn_int8", attn_model, TFW_INT8, 3, 1, 32},
      {"nested_f32", nested_model, TFW_FLOAT32, 2, 2, 12},
      {"nested_int8", nested_model, TFW_INT8, 2, 2, 12},
  };
  Rng r = {7};
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    for (int inl = 0; inl < 2; inl++) {
      Gen g = {tfw_new(), inl, cases[c].dtype};
      cases[c].model(&g);
      flush(&g);
      snprintf(path, sizeof path, "%s/%s%s.tflite", dir, cases[c].name,
               inl ? "_inlined" : "");
      if (tfw_write_file(g.m, path)) {
        perror(path);
        return 1;
      }
      tfw_free(g.m);
    }
    Gen g = {NULL, 0, cases[c].dtype};
    write_inputs(dir, cases[c].name, &g, cases[c].nin, cases[c].size, &r);
    fprintf(man, "%s %s %d %d\n", cases[c].name,
            cases[c].dtype == TFW_INT8 ? "int8" : "float32", cases[c].nin,
            cases[c].nout);
  }
  fclose(man);
  bad_models(dir);
  return 0;
}
