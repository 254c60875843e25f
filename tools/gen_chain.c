/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_chain.c - writes a chain of N identical int8 element-wise ops
 * (RELU, LOGISTIC or ADD of a constant), each with the same
 * quantization, as a .tflite:
 *
 *   gen_chain relu|logistic|add N OUT.tflite
 *
 * input int8[1, 64] (scale 1/16, zero point -8) -> op -> op -> ... ->
 * output.  RELU keeps the quantization (its output is max(q, -8));
 * LOGISTIC writes TFLite's fixed output quantization (1/256, -128) and
 * reads each next input with it; ADD adds its own constant tensor (a
 * buffer of its own, every one holding 64 times the value 1/16, q = -7)
 * in the same quantization, so the output is min(q + N, 127).  Every op
 * of one kind gets the same lookup table or equal constant bytes, so the
 * model measures how the emitter stores identical constants
 * (tests/unit/test_const_dedup.sh).
 */
#include "tflite_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc != 4 || (strcmp(argv[1], "relu") && strcmp(argv[1], "logistic") &&
                    strcmp(argv[1], "add"))) {
    fprintf(stderr, "usage: gen_chain relu|logistic|add N OUT.tflite\n");
    return 2;
  }
  char *end;
  long n = strtol(argv[2], &end, 10);
  if (*end || n < 1 || n > 1000000) {
    fprintf(stderr, "gen_chain: N must be 1..1000000\n");
    return 2;
  }
  int relu = !strcmp(argv[1], "relu"), add = !strcmp(argv[1], "add");
  int8_t one[64];
  memset(one, -7, sizeof one);
  TfwModel *m = tfw_new();
  const int32_t dims[2] = {1, 64};
  int prev = tfw_tensor(m, "input", TFW_INT8, 2, dims, 0);
  tfw_quant1(m, prev, 1.0f / 16, -8);
  int in = prev;
  for (long i = 0; i < n; i++) {
    char name[32];
    snprintf(name, sizeof name, "t%ld", i + 1);
    int t = tfw_tensor(m, i + 1 == n ? "output" : name, TFW_INT8, 2, dims, 0);
    if (relu || add)
      tfw_quant1(m, t, 1.0f / 16, -8);
    else
      tfw_quant1(m, t, 1.0f / 256, -128);
    if (add) {
      snprintf(name, sizeof name, "c%ld", i + 1);
      int c = tfw_const(m, name, TFW_INT8, 2, dims, one);
      tfw_quant1(m, c, 1.0f / 16, -8);
      const int ins[2] = {prev, c};
      int op = tfw_op(m, TFW_OP_ADD, 2, ins, 1, &t);
      tfw_add_options(m, op, TFW_ACT_NONE, -1);
    } else {
      tfw_op(m, relu ? TFW_OP_RELU : TFW_OP_LOGISTIC, 1, &prev, 1, &t);
    }
    prev = t;
  }
  tfw_inputs(m, 1, &in);
  tfw_outputs(m, 1, &prev);
  uint8_t *bytes;
  size_t len;
  tfw_finish(m, &bytes, &len);
  FILE *f = fopen(argv[3], "wb");
  if (!f || fwrite(bytes, 1, len, f) != len || fclose(f) != 0) {
    fprintf(stderr, "gen_chain: cannot write %s\n", argv[3]);
    return 1;
  }
  free(bytes);
  tfw_free(m);
  return 0;
}
