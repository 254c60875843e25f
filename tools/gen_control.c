/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_control.c - test models with IF and WHILE (their branches, cond
 * and body in subgraphs of their own), their inputs, and models to
 * refuse.
 *
 *   gen_control OUTDIR
 *
 * Writes OUTDIR/<name>.tflite and, for each of its cases c,
 * OUTDIR/<name>_c<c>_in<i>.bin (raw little-endian inputs), for
 *
 *   if_f32       c = GREATER(s, 0); y = IF(c, x): then ADD(x, x), else
 *                SUB(x, 1.5); z = MUL(y, x); outputs y and z.  Cases: s > 0
 *                and s < 0 (both branches);
 *   if_int8      the same in int8 (c = GREATER(s, zero point)), the then
 *                branch ADD(x, x), the else branch SUB(x, k) with other
 *                output scales; outputs y and z = ADD(y, x);
 *   while_i32    (i, n, acc) = WHILE(0, n, x): cond LESS(i, n), body
 *                (i + 1, n, ADD(acc, acc)); outputs the loop's i and acc.
 *                Cases n = 0, 1 and 5 (zero, one and several iterations);
 *   while_f32    a counter to the constant 3: (i, x) = WHILE(0, x): cond
 *                LESS(i, 3), body (i + 1, ADD(MUL(x, 0.5), x0)) where x0
 *                is a constant; output x;
 *   nested_int8  (i, n, x) = WHILE(0, n, x): cond LESS(i, n), body
 *                x' = IF(GREATER(i, 1), x): then ADD(x, x), else x (the
 *                input unchanged), i + 1; then ADD(x_final, x) after the
 *                loop.  Cases n = 0, 2, 4.
 *
 * OUTDIR/manifest.txt gets one line per model: NAME NCASES NINPUTS
 * NOUTPUTS DTYPE... (one per output).  OUTDIR/bad/ (which must exist)
 * holds models to refuse (a branch index out of range, an int32
 * condition of IF and of WHILE, a blockwise-quantized tensor in a branch, a body output of another shape or of a
 * dynamic one, a body that calls itself) and expect.txt one line per
 * model: NAME and a piece of its message.
 */
#include "tflite_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  OP_IF = 118,
  OP_WHILE = 119,
  OP_GREATER = 61,
  OP_LESS = 58,
  OPT_IF = 92,    /* BuiltinOptions IfOptions */
  OPT_WHILE = 93, /* BuiltinOptions WhileOptions */
};

static const char *outdir;

static void write_bin(const char *name, int c, int i, const void *data, size_t n) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s_c%d_in%d.bin", outdir, name, c, i);
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(data, 1, n, f) != n || fclose(f) != 0) {
    fprintf(stderr, "gen_control: cannot write %s\n", path);
    exit(1);
  }
}

static void save(TfwModel *m, const char *dir, const char *name) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s.tflite", dir, name);
  if (tfw_write_file(m, path) != 0) {
    fprintf(stderr, "gen_control: cannot write %s\n", path);
    exit(1);
  }
  tfw_free(m);
}

static int control(TfwModel *m, int code, int a, int b, int nin, const int *in, int nout,
                   const int *out) {
  int op = tfw_op(m, code, nin, in, nout, out);
  int32_t v[2] = {a, b};
  tfw_scalar_options(m, op, code == OP_IF ? OPT_IF : OPT_WHILE, "ii", v);
  return op;
}

static void binary(TfwModel *m, int code, int a, int b, int out) {
  int in[2] = {a, b};
  int op = tfw_op(m, code, 2, in, 1, &out);
  if (code == TFW_OP_ADD)
    tfw_add_options(m, op, TFW_ACT_NONE, -1);
  else if (code == TFW_OP_SUB)
    tfw_sub_options(m, op, TFW_ACT_NONE, -1);
  else if (code == TFW_OP_MUL)
    tfw_mul_options(m, op, TFW_ACT_NONE);
}

static int q8(TfwModel *m, const char *name, int ndims, const int32_t *dims, float scale,
              int zp) {
  int t = tfw_tensor(m, name, TFW_INT8, ndims, dims, 0);
  tfw_quant1(m, t, scale, zp);
  return t;
}

/* ------------------------------------------------------------- IF */

/* IF models; bad: 0 good, 1 then index out of range, 2 cond int32, 3 a
 * blockwise-quantized tensor in the then branch. */
static TfwModel *if_model(int dt, int bad) {
  TfwModel *m = tfw_new();
  int32_t one = 1, four[2] = {1, 4};
  int i8 = dt == TFW_INT8;
  int x = i8 ? q8(m, "x", 2, four, 0.05f, -3) : tfw_tensor(m, "x", dt, 2, four, 0);
  int s = i8 ? q8(m, "s", 1, &one, 0.05f, -3) : tfw_tensor(m, "s", dt, 1, &one, 0);
  float zf = 0;
  int8_t z8 = -3;
  int zero = tfw_const(m, "zero", dt, 1, &one, i8 ? (const void *)&z8 : (const void *)&zf);
  if (i8)
    tfw_quant1(m, zero, 0.05f, -3);
  int c = tfw_tensor(m, "c", bad == 2 ? TFW_INT32 : TFW_BOOL, 1, &one, 0);
  if (bad == 2) {
    int32_t k = 1;
    int kc = tfw_const(m, "k", TFW_INT32, 1, &one, &k);
    int in[2] = {kc, kc};
    tfw_add_options(m, tfw_op(m, TFW_OP_ADD, 2, in, 1, &c), TFW_ACT_NONE, -1);
  } else {
    int in[2] = {s, zero};
    tfw_op(m, OP_GREATER, 2, in, 1, &c);
  }
  int y = i8 ? q8(m, "y", 2, four, 0.1f, 2) : tfw_tensor(m, "y", dt, 2, four, 0);
  int z = i8 ? q8(m, "z", 2, four, 0.12f, 1) : tfw_tensor(m, "z", dt, 2, four, 0);
  int in[2] = {c, x};
  control(m, OP_IF, bad == 1 ? 7 : 1, 2, 2, in, 1, &y);
  binary(m, i8 ? TFW_OP_ADD : TFW_OP_MUL, y, x, z);
  int io[2] = {x, s}, outs[2] = {y, z};
  tfw_inputs(m, 2, io);
  tfw_outputs(m, 2, outs);

  /* then: ADD(x, x) */
  tfw_subgraph(m);
  int a = i8 ? q8(m, "a", 2, four, 0.05f, -3) : tfw_tensor(m, "a", dt, 2, four, 0);
  int r = i8 ? q8(m, "r", 2, four, 0.1f, 2) : tfw_tensor(m, "r", dt, 2, four, 0);
  if (bad == 3) { /* a blockwise-quantized constant in the branch */
    uint16_t h = 0x3c00;
    int sc = tfw_const(m, "scales", TFW_FLOAT16, 1, &one, &h);
    int8_t w[4] = {1, 2, 3, 4};
    int wt = tfw_const(m, "w", TFW_INT8, 2, four, w);
    tfw_blockwise(m, wt, sc, -1, 4);
  }
  binary(m, TFW_OP_ADD, a, a, r);
  tfw_inputs(m, 1, &a);
  tfw_outputs(m, 1, &r);

  /* else: SUB(x, k), its own output scale */
  tfw_subgraph(m);
  a = i8 ? q8(m, "a", 2, four, 0.05f, -3) : tfw_tensor(m, "a", dt, 2, four, 0);
  float kf = 1.5f;
  int8_t k8 = 17;
  int k = tfw_const(m, "k", dt, 1, &one, i8 ? (const void *)&k8 : (const void *)&kf);
  if (i8)
    tfw_quant1(m, k, 0.05f, -3);
  r = i8 ? q8(m, "r", 2, four, 0.07f, 5) : tfw_tensor(m, "r", dt, 2, four, 0);
  binary(m, TFW_OP_SUB, a, k, r);
  tfw_inputs(m, 1, &a);
  tfw_outputs(m, 1, &r);
  return m;
}

static void if_cases(const char *name, int dt) {
  if (dt == TFW_FLOAT32) {
    float x[4] = {0.5f, -1.25f, 3.0f, 7.75f};
    float s[2] = {0.25f, -2.0f};
    for (int c = 0; c < 2; c++) {
      write_bin(name, c, 0, x, sizeof x);
      write_bin(name, c, 1, &s[c], sizeof(float));
    }
  } else {
    int8_t x[4] = {-100, -3, 40, 127};
    int8_t s[2] = {5, -20};
    for (int c = 0; c < 2; c++) {
      write_bin(name, c, 0, x, sizeof x);
      write_bin(name, c, 1, &s[c], 1);
    }
  }
}

/* ---------------------------------------------------------- WHILE */

/* while_i32; bad: 0 good, 1 cond output int32, 2 body output of another
 * shape, 3 the body calls itself (a WHILE in subgraph 2 whose body is 2),
 * 4 a body output of dynamic shape (-1 in shape_signature). */
static TfwModel *while_i32(int bad) {
  TfwModel *m = tfw_new();
  int32_t one = 1, four = 4, zero = 0;
  int n = tfw_tensor(m, "n", TFW_INT32, 1, &one, 0);
  int x = tfw_tensor(m, "x", TFW_INT32, 1, &four, 0);
  int i0 = tfw_const(m, "i0", TFW_INT32, 1, &one, &zero);
  int vi = tfw_tensor(m, "i", TFW_INT32, 1, &one, 0);
  int vn = tfw_tensor(m, "n_out", TFW_INT32, 1, &one, 0);
  int va = tfw_tensor(m, "acc", TFW_INT32, 1, &four, 0);
  int in[3] = {i0, n, x}, out[3] = {vi, vn, va};
  control(m, OP_WHILE, 1, 2, 3, in, 3, out);
  int io[2] = {n, x}, outs[2] = {vi, va};
  tfw_inputs(m, 2, io);
  tfw_outputs(m, 2, outs);

  /* cond: LESS(i, n) */
  tfw_subgraph(m);
  int ci = tfw_tensor(m, "i", TFW_INT32, 1, &one, 0);
  int cn = tfw_tensor(m, "n", TFW_INT32, 1, &one, 0);
  int ca = tfw_tensor(m, "acc", TFW_INT32, 1, &four, 0);
  int cc = tfw_tensor(m, "c", bad == 1 ? TFW_INT32 : TFW_BOOL, 1, &one, 0);
  int lin[2] = {ci, cn};
  if (bad == 1)
    tfw_add_options(m, tfw_op(m, TFW_OP_ADD, 2, lin, 1, &cc), TFW_ACT_NONE, -1);
  else
    tfw_op(m, OP_LESS, 2, lin, 1, &cc);
  int cins[3] = {ci, cn, ca};
  tfw_inputs(m, 3, cins);
  tfw_outputs(m, 1, &cc);

  /* body: (i + 1, n, acc + acc) */
  tfw_subgraph(m);
  int bi = tfw_tensor(m, "i", TFW_INT32, 1, &one, 0);
  int bn = tfw_tensor(m, "n", TFW_INT32, 1, &one, 0);
  int ba = tfw_tensor(m, "acc", TFW_INT32, 1, &four, 0);
  int32_t onev = 1;
  int k1 = tfw_const(m, "one", TFW_INT32, 1, &one, &onev);
  int ni = tfw_tensor(m, "i_next", TFW_INT32, 1, &one, 0);
  int32_t two = 2;
  int na = tfw_tensor(m, "acc_next", TFW_INT32, 1, bad == 2 ? &two : &four, 0);
  if (bad == 4) {
    int32_t dynamic = -1;
    tfw_shape_signature(m, na, 1, &dynamic);
  }
  binary(m, TFW_OP_ADD, bi, k1, ni);
  if (bad == 2) {
    int32_t begin = 0, size = 2;
    int b0 = tfw_const(m, "begin", TFW_INT32, 1, &one, &begin);
    int s0 = tfw_const(m, "size", TFW_INT32, 1, &one, &size);
    int sin[3] = {ba, b0, s0};
    tfw_op(m, 65 /* SLICE */, 3, sin, 1, &na);
  } else if (bad == 3) {
    int bins[3] = {bi, bn, ba}, bout[3];
    bout[0] = tfw_tensor(m, "ri", TFW_INT32, 1, &one, 0);
    bout[1] = tfw_tensor(m, "rn", TFW_INT32, 1, &one, 0);
    bout[2] = tfw_tensor(m, "ra", TFW_INT32, 1, &four, 0);
    control(m, OP_WHILE, 1, 2, 3, bins, 3, bout);
    binary(m, TFW_OP_ADD, bout[2], bout[2], na);
  } else {
    binary(m, TFW_OP_ADD, ba, ba, na);
  }
  int bins[3] = {bi, bn, ba}, bouts[3] = {ni, bn, na};
  tfw_inputs(m, 3, bins);
  tfw_outputs(m, 3, bouts);
  return m;
}

static void while_i32_cases(const char *name) {
  int32_t x[4] = {3, -7, 1000, -1};
  int32_t n[3] = {0, 1, 5};
  for (int c = 0; c < 3; c++) {
    write_bin(name, c, 0, &n[c], 4);
    write_bin(name, c, 1, x, sizeof x);
  }
}

/* while_f32: a counter to the constant 3. */
static TfwModel *while_f32(void) {
  TfwModel *m = tfw_new();
  int32_t one = 1, d[2] = {2, 3}, zero = 0;
  int x = tfw_tensor(m, "x", TFW_FLOAT32, 2, d, 0);
  int i0 = tfw_const(m, "i0", TFW_INT32, 1, &one, &zero);
  int vi = tfw_tensor(m, "i", TFW_INT32, 1, &one, 0);
  int vx = tfw_tensor(m, "y", TFW_FLOAT32, 2, d, 0);
  int in[2] = {i0, x}, out[2] = {vi, vx};
  control(m, OP_WHILE, 1, 2, 2, in, 2, out);
  tfw_inputs(m, 1, &x);
  tfw_outputs(m, 1, &vx);

  tfw_subgraph(m); /* cond: LESS(i, 3) */
  int ci = tfw_tensor(m, "i", TFW_INT32, 1, &one, 0);
  int cx = tfw_tensor(m, "x", TFW_FLOAT32, 2, d, 0);
  int32_t three = 3;
  int k3 = tfw_const(m, "three", TFW_INT32, 1, &one, &three);
  int cc = tfw_tensor(m, "c", TFW_BOOL, 1, &one, 0);
  int lin[2] = {ci, k3};
  tfw_op(m, OP_LESS, 2, lin, 1, &cc);
  int cins[2] = {ci, cx};
  tfw_inputs(m, 2, cins);
  tfw_outputs(m, 1, &cc);

  tfw_subgraph(m); /* body: (i + 1, x * 0.5 + x0) */
  int bi = tfw_tensor(m, "i", TFW_INT32, 1, &one, 0);
  int bx = tfw_tensor(m, "x", TFW_FLOAT32, 2, d, 0);
  int32_t onev = 1;
  int k1 = tfw_const(m, "one", TFW_INT32, 1, &one, &onev);
  float half = 0.5f, x0[6] = {1, -2, 0.25f, 8, -0.5f, 3};
  int kh = tfw_const(m, "half", TFW_FLOAT32, 1, &one, &half);
  int kx = tfw_const(m, "x0", TFW_FLOAT32, 2, d, x0);
  int ni = tfw_tensor(m, "i_next", TFW_INT32, 1, &one, 0);
  int hx = tfw_tensor(m, "half_x", TFW_FLOAT32, 2, d, 0);
  int nx = tfw_tensor(m, "x_next", TFW_FLOAT32, 2, d, 0);
  binary(m, TFW_OP_ADD, bi, k1, ni);
  binary(m, TFW_OP_MUL, bx, kh, hx);
  binary(m, TFW_OP_ADD, hx, kx, nx);
  int bins[2] = {bi, bx}, bouts[2] = {ni, nx};
  tfw_inputs(m, 2, bins);
  tfw_outputs(m, 2, bouts);
  return m;
}

static void while_f32_cases(const char *name) {
  float x[6] = {4, -8, 0.5f, 100, -3.25f, 0};
  write_bin(name, 0, 0, x, sizeof x);
}

/* nested_int8: an IF inside the WHILE body. */
static TfwModel *nested_int8(void) {
  TfwModel *m = tfw_new();
  int32_t one = 1, d[2] = {1, 5}, zero = 0;
  int n = tfw_tensor(m, "n", TFW_INT32, 1, &one, 0);
  int x = q8(m, "x", 2, d, 0.02f, 4);
  int i0 = tfw_const(m, "i0", TFW_INT32, 1, &one, &zero);
  int vi = tfw_tensor(m, "i", TFW_INT32, 1, &one, 0);
  int vn = tfw_tensor(m, "n_out", TFW_INT32, 1, &one, 0);
  int vx = q8(m, "y", 2, d, 0.02f, 4);
  int in[3] = {i0, n, x}, out[3] = {vi, vn, vx};
  control(m, OP_WHILE, 1, 2, 3, in, 3, out);
  int z = q8(m, "z", 2, d, 0.03f, -2);
  binary(m, TFW_OP_ADD, vx, x, z);
  int io[2] = {n, x};
  tfw_inputs(m, 2, io);
  tfw_outputs(m, 1, &z);

  tfw_subgraph(m); /* 1 cond: LESS(i, n) */
  int ci = tfw_tensor(m, "i", TFW_INT32, 1, &one, 0);
  int cn = tfw_tensor(m, "n", TFW_INT32, 1, &one, 0);
  int cx = q8(m, "x", 2, d, 0.02f, 4);
  int cc = tfw_tensor(m, "c", TFW_BOOL, 1, &one, 0);
  int lin[2] = {ci, cn};
  tfw_op(m, OP_LESS, 2, lin, 1, &cc);
  int cins[3] = {ci, cn, cx};
  tfw_inputs(m, 3, cins);
  tfw_outputs(m, 1, &cc);

  tfw_subgraph(m); /* 2 body: IF(i > 1, x) then 3 else 4; i + 1 */
  int bi = tfw_tensor(m, "i", TFW_INT32, 1, &one, 0);
  int bn = tfw_tensor(m, "n", TFW_INT32, 1, &one, 0);
  int bx = q8(m, "x", 2, d, 0.02f, 4);
  int32_t onev = 1;
  int k1 = tfw_const(m, "one", TFW_INT32, 1, &one, &onev);
  int ni = tfw_tensor(m, "i_next", TFW_INT32, 1, &one, 0);
  int bc = tfw_tensor(m, "big", TFW_BOOL, 1, &one, 0);
  int nx = q8(m, "x_next", 2, d, 0.02f, 4);
  int gin[2] = {bi, k1};
  tfw_op(m, OP_GREATER, 2, gin, 1, &bc);
  int iin[2] = {bc, bx};
  control(m, OP_IF, 3, 4, 2, iin, 1, &nx);
  binary(m, TFW_OP_ADD, bi, k1, ni);
  int bins[3] = {bi, bn, bx}, bouts[3] = {ni, bn, nx};
  tfw_inputs(m, 3, bins);
  tfw_outputs(m, 3, bouts);

  tfw_subgraph(m); /* 3 then: ADD(x, x) at the loop variable's scale */
  int a = q8(m, "a", 2, d, 0.02f, 4);
  int r = q8(m, "r", 2, d, 0.02f, 4);
  binary(m, TFW_OP_ADD, a, a, r);
  tfw_inputs(m, 1, &a);
  tfw_outputs(m, 1, &r);

  tfw_subgraph(m); /* 4 else: x unchanged */
  a = q8(m, "a", 2, d, 0.02f, 4);
  tfw_inputs(m, 1, &a);
  tfw_outputs(m, 1, &a);
  return m;
}

static void nested_cases(const char *name) {
  int8_t x[5] = {-128, -20, 4, 9, 60};
  int32_t n[3] = {0, 2, 4};
  for (int c = 0; c < 3; c++) {
    write_bin(name, c, 0, &n[c], 4);
    write_bin(name, c, 1, x, sizeof x);
  }
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: gen_control OUTDIR\n");
    return 2;
  }
  outdir = argv[1];
  char path[1024];
  snprintf(path, sizeof path, "%s/manifest.txt", outdir);
  FILE *man = fopen(path, "w");
  snprintf(path, sizeof path, "%s/bad", outdir);
  char bad[1024];
  snprintf(bad, sizeof bad, "%s/bad/expect.txt", outdir);
  FILE *exp = fopen(bad, "w");
  if (!man || !exp) {
    fprintf(stderr, "gen_control: cannot write into %s (and %s/bad)\n", outdir, outdir);
    return 1;
  }
  save(if_model(TFW_FLOAT32, 0), outdir, "if_f32");
  if_cases("if_f32", TFW_FLOAT32);
  fprintf(man, "if_f32 2 2 2 float32 float32\n");
  save(if_model(TFW_INT8, 0), outdir, "if_int8");
  if_cases("if_int8", TFW_INT8);
  fprintf(man, "if_int8 2 2 2 int8 int8\n");
  save(while_i32(0), outdir, "while_i32");
  while_i32_cases("while_i32");
  fprintf(man, "while_i32 3 2 2 int32 int32\n");
  save(while_f32(), outdir, "while_f32");
  while_f32_cases("while_f32");
  fprintf(man, "while_f32 1 1 1 float32\n");
  save(nested_int8(), outdir, "nested_int8");
  nested_cases("nested_int8");
  fprintf(man, "nested_int8 3 2 1 int8\n");

  save(if_model(TFW_FLOAT32, 1), path, "if_bad_branch");
  fprintf(exp, "if_bad_branch op 1 (IF): then subgraph 7: then_subgraph_index 7 is no subgraph\n");
  save(if_model(TFW_FLOAT32, 2), path, "if_cond_int32");
  fprintf(exp, "if_cond_int32 op 1 (IF): the condition (tensor 3) is int32[1]; it must be one bool\n");
  save(while_i32(1), path, "while_cond_int32");
  fprintf(exp, "while_cond_int32 op 0 (WHILE): cond subgraph 1: output 0 (tensor 6) is int32[1]; a loop condition is one bool\n");
  save(while_i32(2), path, "while_body_shape");
  fprintf(exp, "while_body_shape op 0 (WHILE): body subgraph 2: output 2 (tensor 9) is int32[2], but loop variable 2 (tensor 5) is int32[4]\n");
  save(while_i32(3), path, "while_recursive");
  fprintf(exp, "while_recursive op 4 (WHILE): body subgraph 2: subgraph 2 is already being inlined\n");
  save(if_model(TFW_FLOAT32, 3), path, "if_blockwise");
  fprintf(exp, "if_blockwise op 1 (IF): subgraph 1 tensor 3: blockwise quantization is not supported\n");
  save(while_i32(4), path, "while_dynamic");
  fprintf(exp, "while_dynamic op 0 (WHILE): body subgraph 2: output 2 (tensor 9) has a dynamic shape\n");
  fclose(man);
  fclose(exp);
  return 0;
}
