/* SPDX-License-Identifier: Apache-2.0 */
/* The reader on known models: counts, shapes, quantization, options,
 * metadata, and clean refusals of small broken files. */
#include "test.h"
#include "tinyaot.h"

#include <setjmp.h>

static Graph *load(const char *dir, const char *name) {
  char path[4096];
  snprintf(path, sizeof path, "%s/models/%s", dir, name);
  size_t size;
  uint8_t *buf = read_file(path, &size);
  Graph *g = read_tflite(arena_strdup(path), buf, size);
  verify(g);
  return g;
}

/* Runs read_tflite + verify on bytes that must be refused; returns the
 * message ("" if it was accepted). */
static const char *refusal(const uint8_t *buf, size_t size) {
  jmp_buf jb;
  error_jmp = &jb;
  error_message[0] = 0;
  if (!setjmp(jb)) {
    Graph *g = read_tflite("bad.tflite", buf, size);
    verify(g);
    error_jmp = NULL;
    return "";
  }
  error_jmp = NULL;
  return error_message;
}

int main(void) {
  static const uint8_t tiny[] = {1, 2, 3};
  const char *m = refusal(tiny, sizeof tiny);
  CHECK(strstr(m, "bad.tflite: ") == m && strstr(m, "too small"),
        "a 3-byte file is refused as too small (got '%s')", m);
  static const uint8_t notflite[16] = {8, 0, 0, 0, 'A', 'B', 'C', 'D'};
  m = refusal(notflite, sizeof notflite);
  CHECK(strstr(m, "\"ABCD\"") != NULL,
        "a file without the TFL3 identifier is refused naming it (got '%s')", m);
  static const uint8_t outside[16] = {0xff, 0, 0, 0, 'T', 'F', 'L', '3'};
  m = refusal(outside, sizeof outside);
  CHECK(strstr(m, "outside the file") != NULL,
        "a root offset past the end is refused (got '%s')", m);

  /* ops.h against the BuiltinOperator names transcribed from schema.fbs
   * (tflite.c's table, used for messages); rows of code -1 have none. */
  int wrong = -1;
  for (int k = 0; k < OP_COUNT && wrong < 0; k++) {
    if (op_tflite_code((OpKind)k) == -1)
      continue; /* a row only another front end maps onto (ERF) */
    const char *n = tflite_builtin_name(op_tflite_code((OpKind)k));
    if (!n || strcmp(n, op_name((OpKind)k)))
      wrong = k;
  }
  CHECK(wrong < 0, "every ops.h row has the schema's BuiltinOperator code (first wrong: %s)",
        wrong < 0 ? "none" : op_name((OpKind)wrong));
  CHECK(!strcmp(tflite_builtin_name(126), "BATCH_MATMUL") &&
            !strcmp(tflite_builtin_name(161), "RIGHT_SHIFT") && !tflite_builtin_name(162),
        "the schema name table ends at RIGHT_SHIFT = 161 with BATCH_MATMUL at 126");

  const char *dir = test_shared_dir();
  if (!dir)
    return test_exit();

  Graph *g = load(dir, "kws_ref_model.tflite");
  CHECK(g->nops == 13 && g->ntensors == 35, "kws_ref_model has 13 ops and 35 tensors (got %d, %d)",
        g->nops, g->ntensors);
  const Tensor *in = &g->tensors[g->inputs[0]];
  CHECK(g->ninputs == 1 && in->dtype == DT_INT8 && in->ndims == 4 && in->dims[1] == 49 &&
            in->dims[2] == 10,
        "kws_ref_model's input is int8[1,49,10,1]");
  CHECK(in->q.nscale == 1 && in->q.zero_point[0] == 83, "kws_ref_model's input zero point is 83 (got %lld)",
        in->q.nscale ? (long long)in->q.zero_point[0] : -999LL);
  const Op *op = &g->ops[0];
  CHECK(op->kind == OP_CONV_2D && op->opt.stride_w == 2 && op->opt.stride_h == 2 &&
            op->opt.padding == PAD_SAME && op->opt.activation == ACT_RELU,
        "kws_ref_model's op 0 is CONV_2D stride 2x2 SAME RELU");
  CHECK(g->ops[9].kind == OP_AVERAGE_POOL_2D && g->ops[9].opt.filter_w == 5 &&
            g->ops[9].opt.filter_h == 25,
        "kws_ref_model's op 9 pools 5x25");
  const Metadata *md = find_metadata(g, "min_runtime_version");
  CHECK(md && md->ndata > 0, "kws_ref_model has readable min_runtime_version metadata");
  const Tensor *w = &g->tensors[op->inputs[1]];
  CHECK(is_const(w) && w->ndata == tensor_bytes(w) && w->q.nscale == 64 && w->q.axis == 0,
        "kws_ref_model's first filter is constant, sized by its shape, per-channel x64");

  g = load(dir, "audio_preprocessor_int8.tflite");
  CHECK(g->ops[0].kind == OP_CUSTOM && !strcmp(g->ops[0].custom_name, "SignalWindow"),
        "audio_preprocessor_int8's op 0 is the custom op SignalWindow");
  CHECK(!strcmp(op_display_name(g, 0), "CUSTOM:SignalWindow"), "a custom op displays as CUSTOM:<name>");

  g = load(dir, "keyword_scrambled.tflite");
  int nvar = 0;
  for (int i = 0; i < g->ntensors; i++)
    nvar += g->tensors[i].is_variable;
  CHECK(nvar == 7, "keyword_scrambled has 7 variable tensors (got %d)", nvar);
  arena_reset();
  return test_exit();
}
