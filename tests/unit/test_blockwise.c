/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Blockwise-quantized weights (the schema's QuantizationDetails
 * BlockwiseQuantization: int4 weights, one float16 scale per block of
 * inputs, the scales in a tensor of their own) are refused by the op that
 * reads them, with the op, the tensor and the block size named; and
 * TFLite's float16 weights (DEQUANTIZE of a float16 constant) fold to
 * float32 constants, exactly.
 */
#include "test.h"
#include "tinyaot.h"

#include "lower_helpers.h"

/* FULLY_CONNECTED [1][64] x int4 [8][64] (block size 32: two float16
 * scales per output). */
static TfwModel *blockwise_fc(void) {
  TfwModel *m = tfw_new();
  int32_t din[2] = {1, 64}, dw[2] = {8, 64}, ds[2] = {8, 2}, dout[2] = {1, 8};
  int in = tfw_tensor(m, "input", TFW_FLOAT32, 2, din, 0);
  uint8_t w[8 * 64 / 2];
  for (size_t i = 0; i < sizeof w; i++)
    w[i] = (uint8_t)(i * 37u);
  int wt = tfw_tensor(m, "weights", TFW_INT4, 2, dw, tfw_buffer(m, w, sizeof w));
  uint16_t sc[16];
  for (int i = 0; i < 16; i++)
    sc[i] = 0x2c00; /* 0.0625 */
  int st = tfw_const(m, "weights_scales", TFW_FLOAT16, 2, ds, sc);
  tfw_blockwise(m, wt, st, -1, 32);
  int out = tfw_tensor(m, "output", TFW_FLOAT32, 2, dout, 0);
  int ins[3] = {in, wt, -1};
  int op = tfw_op(m, TFW_OP_FULLY_CONNECTED, 3, ins, 1, &out);
  tfw_fully_connected_options(m, op, TFW_ACT_NONE, 0);
  tfw_inputs(m, 1, &in);
  tfw_outputs(m, 1, &out);
  return m;
}

static void check_blockwise_refused(void) {
  TfwModel *m = blockwise_fc();
  LowerOptions o = {.rounding = TA_ROUND_DOUBLE};
  Graph *g = compile_model(m, "blockwise.tflite", &o);
  CHECK(!g, "a FULLY_CONNECTED with blockwise int4 weights is refused");
  const char *want[] = {"blockwise.tflite", "op 0 (FULLY_CONNECTED)", "tensor 1 \"weights\"",
                        "int4", "blockwise quantization (block size 32, scales in tensor 2)",
                        "of weights is not supported"};
  for (size_t i = 0; i < sizeof want / sizeof *want; i++)
    CHECK(strstr(error_message, want[i]) != NULL, "the refusal names %s: %s", want[i],
          error_message);
  tfw_free(m);
}

/* out = input + DEQUANTIZE(float16 constant): the DEQUANTIZE folds, the
 * constant holds the exact float32 values. */
static void check_float16_weights_fold(void) {
  TfwModel *m = tfw_new();
  int32_t d[1] = {6};
  uint16_t h[6] = {0x3c00, 0xc000, 0x0001, 0x7bff, 0x8400, 0x3555};
  const float want[6] = {1.0f, -2.0f, 5.9604645e-8f, 65504.0f, -6.1035156e-5f, 0.33325195f};
  int in = tfw_tensor(m, "input", TFW_FLOAT32, 1, d, 0);
  int wh = tfw_const(m, "w16", TFW_FLOAT16, 1, d, h);
  int wf = tfw_tensor(m, "w32", TFW_FLOAT32, 1, d, 0);
  int out = tfw_tensor(m, "output", TFW_FLOAT32, 1, d, 0);
  tfw_empty_options(m, tfw_op(m, TFW_OP_DEQUANTIZE, 1, &wh, 1, &wf));
  int ins[2] = {in, wf};
  tfw_add_options(m, tfw_op(m, TFW_OP_ADD, 2, ins, 1, &out), TFW_ACT_NONE, -1);
  tfw_inputs(m, 1, &in);
  tfw_outputs(m, 1, &out);
  LowerOptions o = {.rounding = TA_ROUND_DOUBLE};
  Graph *g = compile_model(m, "f16.tflite", &o);
  CHECK(g != NULL, "a model with float16 weights compiles: %s", error_message);
  if (g) {
    CHECK(g->ops[0].folded, "DEQUANTIZE of a float16 constant is folded");
    const Tensor *t = &g->tensors[wf];
    CHECK(is_const(t) && t->ndata == 24, "its output is a float32 constant of 24 bytes");
    for (int i = 0; i < 6 && is_const(t) && t->ndata == 24; i++) {
      float v;
      memcpy(&v, t->data + 4 * i, 4);
      CHECK(v == want[i], "float16 %04x widens to %.9g (got %.9g)", h[i], (double)want[i],
            (double)v);
    }
  }
  tfw_free(m);
}

int main(void) {
  check_blockwise_refused();
  check_float16_weights_fold();
  return test_exit();
}
