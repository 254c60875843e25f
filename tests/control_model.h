/* SPDX-License-Identifier: Apache-2.0 */
/*
 * control_model.h - a small model with IF nested inside a WHILE body for
 * the robustness tests: subgraph 0 runs (i, x) = WHILE(0, x) with cond
 * (subgraph 1) LESS(i, 3) and body (subgraph 2) i + 1 and
 * x' = IF(GREATER(i, 0), x), whose then branch (subgraph 3) is ADD(x, x)
 * and else branch (subgraph 4) TANH(x), so that mutations reach the
 * IfOptions and WhileOptions (subgraph indices), the binding of subgraph
 * inputs and outputs and the inlining of four subgraphs, two levels deep.
 * Include it after tools/tflite_writer.c.  Returns the file's bytes
 * (malloc'ed) in *bytes.
 */
#ifndef TEST_CONTROL_MODEL_H
#define TEST_CONTROL_MODEL_H

static void control_model(uint8_t **bytes, size_t *size) {
  TfwModel *m = tfw_new();
  int32_t one = 1, four = 4, zero = 0, onev = 1, three = 3;
  int32_t opts[2];
  int x = tfw_tensor(m, "x", TFW_FLOAT32, 1, &four, 0);
  int i0 = tfw_const(m, "i0", TFW_INT32, 1, &one, &zero);
  int vi = tfw_tensor(m, "i", TFW_INT32, 1, &one, 0);
  int vx = tfw_tensor(m, "y", TFW_FLOAT32, 1, &four, 0);
  int win[2] = {i0, x}, wout[2] = {vi, vx};
  int op = tfw_op(m, 119 /* WHILE */, 2, win, 2, wout);
  opts[0] = 1;
  opts[1] = 2;
  tfw_scalar_options(m, op, 93 /* WhileOptions */, "ii", opts);
  tfw_inputs(m, 1, &x);
  tfw_outputs(m, 1, &vx);

  tfw_subgraph(m); /* 1: cond */
  int ci = tfw_tensor(m, "i", TFW_INT32, 1, &one, 0);
  int cx = tfw_tensor(m, "x", TFW_FLOAT32, 1, &four, 0);
  int k3 = tfw_const(m, "three", TFW_INT32, 1, &one, &three);
  int cc = tfw_tensor(m, "c", TFW_BOOL, 1, &one, 0);
  int lin[2] = {ci, k3};
  tfw_op(m, 58 /* LESS */, 2, lin, 1, &cc);
  int cins[2] = {ci, cx};
  tfw_inputs(m, 2, cins);
  tfw_outputs(m, 1, &cc);

  tfw_subgraph(m); /* 2: body */
  int bi = tfw_tensor(m, "i", TFW_INT32, 1, &one, 0);
  int bx = tfw_tensor(m, "x", TFW_FLOAT32, 1, &four, 0);
  int k1 = tfw_const(m, "one", TFW_INT32, 1, &one, &onev);
  int k0 = tfw_const(m, "zero", TFW_INT32, 1, &one, &zero);
  int ni = tfw_tensor(m, "i_next", TFW_INT32, 1, &one, 0);
  int bc = tfw_tensor(m, "c", TFW_BOOL, 1, &one, 0);
  int nx = tfw_tensor(m, "x_next", TFW_FLOAT32, 1, &four, 0);
  int gin[2] = {bi, k0};
  tfw_op(m, 61 /* GREATER */, 2, gin, 1, &bc);
  int iin[2] = {bc, bx};
  op = tfw_op(m, 118 /* IF */, 2, iin, 1, &nx);
  opts[0] = 3;
  opts[1] = 4;
  tfw_scalar_options(m, op, 92 /* IfOptions */, "ii", opts);
  int ain[2] = {bi, k1};
  tfw_add_options(m, tfw_op(m, TFW_OP_ADD, 2, ain, 1, &ni), TFW_ACT_NONE, -1);
  int bins[2] = {bi, bx}, bouts[2] = {ni, nx};
  tfw_inputs(m, 2, bins);
  tfw_outputs(m, 2, bouts);

  tfw_subgraph(m); /* 3: then */
  int a = tfw_tensor(m, "a", TFW_FLOAT32, 1, &four, 0);
  int r = tfw_tensor(m, "r", TFW_FLOAT32, 1, &four, 0);
  int aa[2] = {a, a};
  tfw_add_options(m, tfw_op(m, TFW_OP_ADD, 2, aa, 1, &r), TFW_ACT_NONE, -1);
  tfw_inputs(m, 1, &a);
  tfw_outputs(m, 1, &r);

  tfw_subgraph(m); /* 4: else */
  a = tfw_tensor(m, "a", TFW_FLOAT32, 1, &four, 0);
  r = tfw_tensor(m, "r", TFW_FLOAT32, 1, &four, 0);
  tfw_op(m, TFW_OP_TANH, 1, &a, 1, &r);
  tfw_inputs(m, 1, &a);
  tfw_outputs(m, 1, &r);
  tfw_finish(m, bytes, size);
  tfw_free(m);
}

#endif
