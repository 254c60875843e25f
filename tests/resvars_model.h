/* SPDX-License-Identifier: Apache-2.0 */
/*
 * resvars_model.h - a small model with resource variables for the
 * robustness tests, int8 as streaming models are: CALL_ONCE's init
 * subgraph assigns {1, 2} to variable "c"/"acc"; subgraph 0 reads it, adds
 * the input x and assigns
 * the sum back; the outputs are the sum and z = x * x + x, computed
 * without the variable (so that a share of the mutations reaches the
 * lowering of ordinary ops, as in a real model).  Include it after
 * tools/tflite_writer.c.  Returns the file's bytes (malloc'ed) in *bytes.
 */
#ifndef TEST_RESVARS_MODEL_H
#define TEST_RESVARS_MODEL_H

static void resvars_model(uint8_t **bytes, size_t *size) {
  TfwModel *m = tfw_new();
  int32_t two = 2;
  int8_t init[2] = {1, 2};
  int x = tfw_tensor(m, "x", TFW_INT8, 1, &two, 0);
  int h = tfw_tensor(m, "h", TFW_RESOURCE, 0, NULL, 0);
  int s = tfw_tensor(m, "s", TFW_INT8, 1, &two, 0);
  int y = tfw_tensor(m, "y", TFW_INT8, 1, &two, 0);
  int sq = tfw_tensor(m, "sq", TFW_INT8, 1, &two, 0);
  int z = tfw_tensor(m, "z", TFW_INT8, 1, &two, 0);
  tfw_quant1(m, x, 0.5f, -3);
  tfw_quant1(m, s, 0.25f, 1);
  tfw_quant1(m, y, 0.75f, 2);
  tfw_quant1(m, sq, 1.5f, -1);
  tfw_quant1(m, z, 2.0f, 0);
  tfw_call_once_options(m, tfw_op(m, TFW_OP_CALL_ONCE, 0, NULL, 0, NULL), 1);
  tfw_var_handle_options(m, tfw_op(m, TFW_OP_VAR_HANDLE, 0, NULL, 1, &h), "c", "acc");
  tfw_op(m, TFW_OP_READ_VARIABLE, 1, &h, 1, &s);
  tfw_add_options(m, tfw_op(m, TFW_OP_ADD, 2, (int[]){s, x}, 1, &y), TFW_ACT_NONE, 1);
  tfw_op(m, TFW_OP_ASSIGN_VARIABLE, 2, (int[]){h, y}, 0, NULL);
  tfw_mul_options(m, tfw_op(m, TFW_OP_MUL, 2, (int[]){x, x}, 1, &sq), TFW_ACT_NONE);
  tfw_add_options(m, tfw_op(m, TFW_OP_ADD, 2, (int[]){sq, x}, 1, &z), TFW_ACT_NONE, 1);
  tfw_inputs(m, 1, &x);
  tfw_outputs(m, 2, (int[]){y, z});
  tfw_subgraph(m);
  int h1 = tfw_tensor(m, "h", TFW_RESOURCE, 0, NULL, 0);
  int v = tfw_const(m, "init", TFW_INT8, 1, &two, init);
  tfw_quant1(m, v, 0.25f, 1);
  tfw_var_handle_options(m, tfw_op(m, TFW_OP_VAR_HANDLE, 0, NULL, 1, &h1), "c", "acc");
  tfw_op(m, TFW_OP_ASSIGN_VARIABLE, 2, (int[]){h1, v}, 0, NULL);
  tfw_finish(m, bytes, size);
  tfw_free(m);
}

#endif
