/* SPDX-License-Identifier: Apache-2.0 */
/*
 * composite_model.h - a small model with nested STABLEHLO_COMPOSITE ops
 * for the robustness tests: subgraph 0 calls "outer"(x) -> y, whose
 * decomposition (subgraph 1) computes t = TANH(x) and calls
 * "inner"(t, x) -> y, whose decomposition (subgraph 2) is ADD, so that
 * mutations reach the composite options (name, subgraph index,
 * composite_attributes) and the inlining of three subgraphs.  Include it
 * after tools/tflite_writer.c.  Returns the file's bytes (malloc'ed) in
 * *bytes.
 */
#ifndef TEST_COMPOSITE_MODEL_H
#define TEST_COMPOSITE_MODEL_H

static void composite_model(uint8_t **bytes, size_t *size) {
  TfwModel *m = tfw_new();
  int32_t four = 4;
  TfwFlexEntry attr = {"scale", 'f', 0, 0.5f};
  uint8_t *attrs;
  size_t nattrs = tfw_flex_map(&attr, 1, &attrs);
  int x = tfw_tensor(m, "x", TFW_FLOAT32, 1, &four, 0);
  int y = tfw_tensor(m, "y", TFW_FLOAT32, 1, &four, 0);
  int op = tfw_op(m, TFW_OP_STABLEHLO_COMPOSITE, 1, &x, 1, &y);
  tfw_composite_options(m, op, "outer", 1, attrs, nattrs, 1);
  tfw_inputs(m, 1, &x);
  tfw_outputs(m, 1, &y);

  tfw_subgraph(m);
  int a = tfw_tensor(m, "a", TFW_FLOAT32, 1, &four, 0);
  int t = tfw_tensor(m, "t", TFW_FLOAT32, 1, &four, 0);
  int b = tfw_tensor(m, "b", TFW_FLOAT32, 1, &four, 0);
  tfw_op(m, TFW_OP_TANH, 1, &a, 1, &t);
  int in[2] = {t, a};
  op = tfw_op(m, TFW_OP_STABLEHLO_COMPOSITE, 2, in, 1, &b);
  tfw_composite_options(m, op, "inner", 2, attrs, nattrs, 1);
  tfw_inputs(m, 1, &a);
  tfw_outputs(m, 1, &b);

  tfw_subgraph(m);
  int p = tfw_tensor(m, "p", TFW_FLOAT32, 1, &four, 0);
  int q = tfw_tensor(m, "q", TFW_FLOAT32, 1, &four, 0);
  int s = tfw_tensor(m, "s", TFW_FLOAT32, 1, &four, 0);
  int pq[2] = {p, q};
  tfw_add_options(m, tfw_op(m, TFW_OP_ADD, 2, pq, 1, &s), TFW_ACT_NONE, 1);
  tfw_inputs(m, 2, pq);
  tfw_outputs(m, 1, &s);
  free(attrs);
  tfw_finish(m, bytes, size);
  tfw_free(m);
}

#endif
