/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Ops the compiler computes (passes/fold.c) cost nothing at run time: a
 * model with SHAPE feeding RESHAPE, FILL of a constant feeding
 * CONCATENATION and BROADCAST_ARGS of constant shapes feeding
 * BROADCAST_TO, written with the test writer and compiled with `tinyaot
 * compile`.  The runner must say each of the three is folded and call no
 * kernel for it: exactly three calls remain, the RESHAPE's copy (from a
 * model input to a model output, so no view), CONCATENATION and
 * BROADCAST_TO.  The same ops as model outputs, which
 * cannot be folded, become one copy each.  (Their values are checked
 * against TFLite by the SHAPE, FILL and BROADCAST_ARGS rows of the
 * differential suite.)
 */
#define _POSIX_C_SOURCE 200809L
#include "model_test.h"

#include "../../tools/tflite_writer.c"

static int count(const char *text, const char *s) {
  int n = 0;
  for (const char *p = text; (p = strstr(p, s)); p++)
    n++;
  return n;
}

/* The generated runner of `model` (compiled into dir), or NULL. */
static char *runner(const char *tinyaot, const char *model, const char *dir) {
  if (run_command(arena_printf("%s compile %s -o %s --prefix m", quote(tinyaot), quote(model),
                               quote(dir))))
    return NULL;
  size_t n;
  uint8_t *b = slurp(arena_printf("%s/m.c", dir), &n);
  char *text = calloc(n + 1, 1);
  if (b)
    memcpy(text, b, n);
  free(b);
  return text;
}

/* ops: 0 SHAPE(x), 1 RESHAPE(y, shape), 2 FILL(dims, 2.5), 3
 * CONCATENATION(x, fill), 4 BROADCAST_ARGS(a, b), 5 BROADCAST_TO(z,
 * shape2); as_outputs: the SHAPE, FILL and BROADCAST_ARGS results are
 * model outputs instead of feeding ops 1, 3 and 5. */
static void write_model(const char *path, bool as_outputs) {
  TfwModel *m = tfw_new();
  int32_t dx[2] = {2, 3}, six = 6, two = 2, dc[2] = {4, 3}, dz[2] = {1, 3}, db[2] = {4, 3};
  int x = tfw_tensor(m, "x", TFW_FLOAT32, 2, dx, 0);
  int y = tfw_tensor(m, "y", TFW_FLOAT32, 1, &six, 0);
  int z = tfw_tensor(m, "z", TFW_FLOAT32, 2, dz, 0);
  int s = tfw_tensor(m, "shape", TFW_INT32, 1, &two, 0);
  int op = tfw_op(m, TFW_OP_SHAPE, 1, &x, 1, &s);
  tfw_scalar_options(m, op, 55, "b", (int32_t[]){TFW_INT32});
  int r = tfw_tensor(m, "reshaped", TFW_FLOAT32, 2, dx, 0);
  op = tfw_op(m, TFW_OP_RESHAPE, 2, (int[]){y, s}, 1, &r);
  tfw_reshape_options(m, op, -1, NULL);
  int dims = tfw_const(m, "dims", TFW_INT32, 1, &two, dx);
  float v = 2.5f;
  int val = tfw_const(m, "value", TFW_FLOAT32, 0, NULL, &v);
  int f = tfw_tensor(m, "filled", TFW_FLOAT32, 2, dx, 0);
  op = tfw_op(m, TFW_OP_FILL, 2, (int[]){dims, val}, 1, &f);
  tfw_scalar_options(m, op, 68, "", NULL);
  int c = tfw_tensor(m, "concat", TFW_FLOAT32, 2, dc, 0);
  op = tfw_op(m, TFW_OP_CONCATENATION, 2, (int[]){x, f}, 1, &c);
  tfw_concatenation_options(m, op, 0, TFW_ACT_NONE);
  int a = tfw_const(m, "a", TFW_INT32, 1, &two, (int32_t[]){4, 1});
  int b = tfw_const(m, "b", TFW_INT32, 1, (int32_t[]){1}, (int32_t[]){3});
  int s2 = tfw_tensor(m, "shape2", TFW_INT32, 1, &two, 0);
  tfw_op(m, TFW_OP_BROADCAST_ARGS, 2, (int[]){a, b}, 1, &s2);
  int o = tfw_tensor(m, "broadcast", TFW_FLOAT32, 2, db, 0);
  op = tfw_op(m, TFW_OP_BROADCAST_TO, 2, (int[]){z, s2}, 1, &o);
  tfw_scalar_options(m, op, 104, "", NULL);
  tfw_inputs(m, 3, (int[]){x, y, z});
  if (as_outputs)
    tfw_outputs(m, 6, (int[]){r, c, o, s, f, s2});
  else
    tfw_outputs(m, 3, (int[]){r, c, o});
  tfw_write_file(m, path);
  tfw_free(m);
}

int main(void) {
  const char *tinyaot = test_tinyaot();
  char *tmp = test_tmpdir("fold");
  if (!tmp)
    return test_exit();
  const char *model = arena_printf("%s/fold.tflite", tmp);
  write_model(model, false);
  char *c = runner(tinyaot, model, arena_printf("%s/out", tmp));
  CHECK(c != NULL, "a model with SHAPE, FILL and BROADCAST_ARGS of constants compiles");
  if (c) {
    CHECK(count(c, "(folded at compile time: no call)") == 3,
          "the runner says SHAPE, FILL and BROADCAST_ARGS are folded (%d times)",
          count(c, "(folded at compile time: no call)"));
    CHECK(count(c, "\n  st = ") == 3,
          "the runner makes exactly three calls: RESHAPE, CONCATENATION, BROADCAST_TO (%d)",
          count(c, "\n  st = "));
    CHECK(!strstr(c, "ta_fill") && count(c, "st = m_copy(") == 1,
          "no fill kernel or copy runs for the folded ops");
  }
  free(c);
  write_model(model, true);
  c = runner(tinyaot, model, arena_printf("%s/out2", tmp));
  CHECK(c != NULL && count(c, "(folded at compile time: no call)") == 0 &&
            count(c, "st = m_copy(") == 4,
        "as model outputs they are not folded but copied: three copies and the "
        "RESHAPE's (%d)", c ? count(c, "st = m_copy(") : -1);
  free(c);
  return test_end(tmp, "models");
}
