/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One refusal report for the whole model: a model with three ops no
 * kernel takes (CAST bool -> int16, DEQUANTIZE int32 -> float32, MEAN of
 * int32), around two that compile (ADD float32), written with the test
 * writer.  `tinyaot compile` must exit 1 with one message listing every
 * refused op in model order - "MODEL: op I (NAME): why", with its dtypes - and a
 * count, and never mention the ops that compile; `tinyaot inspect` must
 * mark exactly the refused ops and count them.  A model with a single
 * refused op keeps the one-line message of before.
 */
#define _POSIX_C_SOURCE 200809L
#include "model_test.h"

#include "../../tools/tflite_writer.c"

static const char *tmpdir, *tinyaot;

/* Runs `cmd` with stdout and stderr into `log`; its exit status and the
 * log's text (malloc'd, "" when unreadable). */
static int run_logged(const char *cmd, const char *log, char **text) {
  int rc = run_command(arena_printf("%s > %s 2>&1", cmd, quote(log)));
  size_t n;
  uint8_t *b = slurp(log, &n);
  *text = calloc(n + 1, 1);
  if (b)
    memcpy(*text, b, n);
  free(b);
  return rc;
}

/* in (float32 [2, 8]) -> ADD with itself -> t; the tensor index of t. */
static int add_f32(TfwModel *m, int in, const char *name) {
  int32_t d[2] = {2, 8};
  int out = tfw_tensor(m, name, TFW_FLOAT32, 2, d, 0);
  int ins[2] = {in, in};
  int op = tfw_op(m, TFW_OP_ADD, 2, ins, 1, &out);
  tfw_add_options(m, op, TFW_ACT_NONE, 0);
  return out;
}

/* Writes the model: ops 0 ADD, 1 CAST bool, 2 DEQUANTIZE int32, 3 ADD,
 * 4 MEAN int32 (or only ops 0, 1 and 3 when `one`). */
static const char *write_model(const char *name, bool one) {
  int32_t d[2] = {2, 8};
  TfwModel *m = tfw_new();
  int x = tfw_tensor(m, "x", TFW_FLOAT32, 2, d, 0);
  int b = tfw_tensor(m, "b", TFW_BOOL, 2, d, 0);
  int q = tfw_tensor(m, "q", TFW_INT32, 2, d, 0);
  tfw_quant1(m, q, 0.5f, 0);
  int y = add_f32(m, x, "y");
  int c = tfw_tensor(m, "c", TFW_INT16, 2, d, 0);
  int op = tfw_op(m, TFW_OP_CAST, 1, &b, 1, &c);
  tfw_cast_options(m, op, TFW_BOOL, TFW_INT16);
  int outs[4] = {y, c, -1, -1};
  int nout = 2;
  if (!one) {
    int f = tfw_tensor(m, "f", TFW_FLOAT32, 2, d, 0);
    op = tfw_op(m, TFW_OP_DEQUANTIZE, 1, &q, 1, &f);
    tfw_empty_options(m, op);
    outs[nout++] = f;
  }
  int z = add_f32(m, y, "z");
  outs[0] = z;
  if (!one) {
    int32_t axis = 1, one_d = 2;
    int ax = tfw_const(m, "axis", TFW_INT32, 1, (int32_t[]){1}, &axis);
    int s = tfw_tensor(m, "s", TFW_INT32, 1, &one_d, 0);
    op = tfw_op(m, TFW_OP_MEAN, 2, (int[]){q, ax}, 1, &s);
    tfw_reducer_options(m, op, 0);
    outs[nout++] = s;
  }
  int ins[3] = {x, b, q};
  tfw_inputs(m, one ? 2 : 3, ins);
  tfw_outputs(m, nout, outs);
  const char *path = arena_printf("%s/%s", tmpdir, name);
  tfw_write_file(m, path);
  tfw_free(m);
  return path;
}

/* Number of lines of `text` containing `s`. */
static int lines_with(const char *text, const char *s) {
  int n = 0;
  for (const char *p = text; *p;) {
    const char *e = strchr(p, '\n');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    char *line = strndup(p, len);
    n += strstr(line, s) != NULL;
    free(line);
    p += len + (e != NULL);
  }
  return n;
}

int main(void) {
  tinyaot = test_tinyaot();
  tmpdir = test_tmpdir("refusals");
  if (!tmpdir)
    return test_exit();
  const char *model = write_model("three.tflite", false);
  char *err;
  int rc = run_logged(arena_printf("%s compile %s -o %s/out", quote(tinyaot), quote(model),
                                   quote(tmpdir)),
                      arena_printf("%s/compile.log", tmpdir), &err);
  CHECK(rc == 1, "a model with three unsupported ops is refused with exit status 1 (got %d)",
        rc);
  const char *want[3] = {
      arena_printf("%s: op 1 (CAST): not supported for these types", model),
      arena_printf("%s: op 2 (DEQUANTIZE): not supported for these types", model),
      arena_printf("%s: op 4 (MEAN): not supported for these types", model)};
  const char *types[3] = {"bool -> int16", "int32 -> float32", "int32, int32 -> int32"};
  const char *at = err;
  bool in_order = true;
  for (int k = 0; k < 3; k++) {
    const char *p = strstr(at, want[k]);
    if (!p || !strstr(p, types[k]) || (strchr(p, '\n') && strstr(p, types[k]) > strchr(p, '\n')))
      in_order = false;
    else
      at = p + 1;
  }
  CHECK(in_order,
        "the message lists every refused op in model order, with file, op index, name, "
        "why and dtypes:\n%s", err);
  CHECK(strstr(err, arena_printf("%s: 3 of 5 ops are not supported", model)) != NULL,
        "the message ends with the count of refused ops");
  CHECK(!strstr(err, "(ADD)"), "the message does not name the ops that compile");

  char *out;
  rc = run_logged(arena_printf("%s inspect %s", quote(tinyaot), quote(model)),
                  arena_printf("%s/inspect.log", tmpdir), &out);
  CHECK(rc == 0, "inspect lists the model (exit %d)", rc);
  CHECK(lines_with(out, "^ refused: not supported for these types") == 3,
        "inspect marks the three refused ops:\n%s", out);
  CHECK(strstr(out, "3 of 5 ops are not supported") != NULL, "inspect counts them");
  free(out);
  rc = run_logged(arena_printf("%s inspect --json %s", quote(tinyaot), quote(model)),
                  arena_printf("%s/inspect.json", tmpdir), &out);
  CHECK(rc == 0 && lines_with(out, "\"refused\": \"not supported for these types") == 3,
        "inspect --json gives the refused ops a \"refused\" reason");
  free(out);
  free(err);

  model = write_model("one.tflite", true);
  rc = run_logged(arena_printf("%s compile %s -o %s/out1", quote(tinyaot), quote(model),
                               quote(tmpdir)),
                  arena_printf("%s/compile1.log", tmpdir), &err);
  const char *one = arena_printf("%s: op 1 (CAST): not supported for these types (bool -> int16)\n",
                                 model);
  CHECK(rc == 1 && !strcmp(err, one),
        "a model with one unsupported op keeps the one-line message (exit %d):\n%s", rc, err);
  free(err);
  return test_end(tmpdir, "models");
}
