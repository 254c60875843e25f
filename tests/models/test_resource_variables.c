/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Resource variables (VAR_HANDLE, READ_VARIABLE, ASSIGN_VARIABLE) and
 * CALL_ONCE, as the TFLite converter writes tf.Variable: models built with
 * the test writer (tools/tflite_writer.c), two subgraphs each.
 *
 * The running-sum model: subgraph 1 (CALL_ONCE's init) assigns the
 * constant {10, 20, 30, 40} to int32 variable "acc" and 0.5 to float32
 * variable "steps"; subgraph 0 reads acc (through one VAR_HANDLE), adds
 * the input x and assigns the sum back (through a second VAR_HANDLE of
 * the same name: the same variable), and adds 1.0 to steps.  Outputs:
 * y = acc after the step, n = steps after the step.  Over inferences
 * 1..k with inputs x_1..x_k: y_k = {10, 20, 30, 40} + x_1 + ... + x_k and
 * n_k = 0.5 + k, computed here from the model's definition.  `tinyaot
 * run` gets four inferences in one process (state carried over, reset
 * once: <prefix>_reset() writes the initial values) and then the same
 * with --reset-each (every inference starts from the initial values);
 * the first inference also equals TFLite's (../shared/oracle, XNNPACK
 * off), where the oracle is.  The oracle writes only its first run's
 * outputs, so later inferences are checked against the definition.
 *
 * A variable without CALL_ONCE takes its type and shape from its first
 * assignment (as in TFLite Micro): ASSIGN_VARIABLE(x) then READ_VARIABLE
 * gives y = x, here and in TFLite.
 *
 * Refusals, in process (read_tflite + verify): an init subgraph with
 * another op, an init value that is not a constant, a variable read
 * before anything assigns it, an assignment of another shape, CALL_ONCE
 * elsewhere than first, a third subgraph, a RESOURCE tensor used by
 * another op.  Each message names the file and the op.
 */
#define _POSIX_C_SOURCE 200809L
#include "model_test.h"

#include <setjmp.h>

#include "../../tools/tflite_writer.c"

#define N 4
#define STEPS 4

static const int32_t init_acc[N] = {10, 20, 30, 40};
static const int32_t xs[STEPS][N] = {
    {1, 2, 3, 4}, {-5, 100, 0, 7}, {1000, -1000, 1, 1}, {3, 3, 3, -300}};

enum {
  PLAIN,          /* the running-sum model */
  INIT_ADD,       /* the init subgraph holds an ADD */
  INIT_NOT_CONST, /* the init subgraph assigns a tensor without data */
  NO_INIT,        /* no CALL_ONCE: acc is read before any assignment */
  BAD_SHAPE,      /* subgraph 0 assigns int32[2] to acc (int32[4]) */
  ONCE_LATE,      /* CALL_ONCE is op 1 */
  THREE_SUBGRAPHS,
  RESOURCE_ADD,   /* an ADD reads the RESOURCE tensor */
};

/* The model of case `kind` (see the enum). */
static TfwModel *build(int kind) {
  TfwModel *m = tfw_new();
  int32_t four = N, one = 1, two = 2;
  int x = tfw_tensor(m, "x", TFW_INT32, 1, &four, 0);
  int h_read = tfw_tensor(m, "acc_handle", TFW_RESOURCE, 0, NULL, 0);
  int h_assign = tfw_tensor(m, "acc_handle_2", TFW_RESOURCE, 0, NULL, 0);
  int h_steps = tfw_tensor(m, "steps_handle", TFW_RESOURCE, 0, NULL, 0);
  int s = tfw_tensor(m, "acc", TFW_INT32, 1, &four, 0);
  int y = tfw_tensor(m, "y", TFW_INT32, 1, &four, 0);
  int st = tfw_tensor(m, "steps", TFW_FLOAT32, 1, &one, 0);
  int n = tfw_tensor(m, "n", TFW_FLOAT32, 1, &one, 0);
  float onef = 1.0f;
  int c1 = tfw_const(m, "one", TFW_FLOAT32, 1, &one, &onef);
  int op;
  if (kind != NO_INIT && kind != ONCE_LATE) {
    op = tfw_op(m, TFW_OP_CALL_ONCE, 0, NULL, 0, NULL);
    tfw_call_once_options(m, op, 1);
  }
  op = tfw_op(m, TFW_OP_VAR_HANDLE, 0, NULL, 1, &h_read);
  tfw_var_handle_options(m, op, NULL, "acc");
  if (kind == ONCE_LATE) {
    op = tfw_op(m, TFW_OP_CALL_ONCE, 0, NULL, 0, NULL);
    tfw_call_once_options(m, op, 1);
  }
  op = tfw_op(m, TFW_OP_READ_VARIABLE, 1, &h_read, 1, &s);
  tfw_empty_options(m, op);
  if (kind == RESOURCE_ADD)
    op = tfw_op(m, TFW_OP_ADD, 2, (int[]){h_read, x}, 1, &y);
  else
    op = tfw_op(m, TFW_OP_ADD, 2, (int[]){s, x}, 1, &y);
  tfw_add_options(m, op, TFW_ACT_NONE, 1);
  op = tfw_op(m, TFW_OP_VAR_HANDLE, 0, NULL, 1, &h_assign);
  tfw_var_handle_options(m, op, NULL, "acc");
  if (kind == BAD_SHAPE) {
    int half = tfw_const(m, "half", TFW_INT32, 1, &two, init_acc);
    op = tfw_op(m, TFW_OP_ASSIGN_VARIABLE, 2, (int[]){h_assign, half}, 0, NULL);
  } else {
    op = tfw_op(m, TFW_OP_ASSIGN_VARIABLE, 2, (int[]){h_assign, y}, 0, NULL);
  }
  tfw_empty_options(m, op);
  op = tfw_op(m, TFW_OP_VAR_HANDLE, 0, NULL, 1, &h_steps);
  tfw_var_handle_options(m, op, "", "steps");
  op = tfw_op(m, TFW_OP_READ_VARIABLE, 1, &h_steps, 1, &st);
  op = tfw_op(m, TFW_OP_ADD, 2, (int[]){st, c1}, 1, &n);
  tfw_add_options(m, op, TFW_ACT_NONE, 1);
  op = tfw_op(m, TFW_OP_ASSIGN_VARIABLE, 2, (int[]){h_steps, n}, 0, NULL);
  tfw_inputs(m, 1, &x);
  tfw_outputs(m, 2, (int[]){y, n});

  if (kind != NO_INIT) {
    tfw_subgraph(m);
    int g1 = tfw_tensor(m, "acc_handle", TFW_RESOURCE, 0, NULL, 0);
    int g2 = tfw_tensor(m, "steps_handle", TFW_RESOURCE, 0, NULL, 0);
    int v1 = kind == INIT_NOT_CONST ? tfw_tensor(m, "acc_init", TFW_INT32, 1, &four, 0)
                                    : tfw_const(m, "acc_init", TFW_INT32, 1, &four, init_acc);
    float half = 0.5f;
    int v2 = tfw_const(m, "steps_init", TFW_FLOAT32, 1, &one, &half);
    op = tfw_op(m, TFW_OP_VAR_HANDLE, 0, NULL, 1, &g1);
    tfw_var_handle_options(m, op, NULL, "acc");
    op = tfw_op(m, TFW_OP_VAR_HANDLE, 0, NULL, 1, &g2);
    tfw_var_handle_options(m, op, "", "steps");
    if (kind == INIT_ADD) {
      int sum = tfw_tensor(m, "sum", TFW_INT32, 1, &four, 0);
      op = tfw_op(m, TFW_OP_ADD, 2, (int[]){v1, v1}, 1, &sum);
      tfw_add_options(m, op, TFW_ACT_NONE, 1);
    }
    op = tfw_op(m, TFW_OP_ASSIGN_VARIABLE, 2, (int[]){g1, v1}, 0, NULL);
    tfw_empty_options(m, op);
    tfw_op(m, TFW_OP_ASSIGN_VARIABLE, 2, (int[]){g2, v2}, 0, NULL);
  }
  if (kind == THREE_SUBGRAPHS)
    tfw_subgraph(m);
  return m;
}

/* No CALL_ONCE: v = x (the first assignment types v); y = v. */
static TfwModel *build_assign_first(void) {
  TfwModel *m = tfw_new();
  int32_t three = 3;
  int x = tfw_tensor(m, "x", TFW_FLOAT32, 1, &three, 0);
  int h = tfw_tensor(m, "v_handle", TFW_RESOURCE, 0, NULL, 0);
  int y = tfw_tensor(m, "y", TFW_FLOAT32, 1, &three, 0);
  tfw_var_handle_options(m, tfw_op(m, TFW_OP_VAR_HANDLE, 0, NULL, 1, &h), NULL, "v");
  tfw_op(m, TFW_OP_ASSIGN_VARIABLE, 2, (int[]){h, x}, 0, NULL);
  tfw_op(m, TFW_OP_READ_VARIABLE, 1, &h, 1, &y);
  tfw_inputs(m, 1, &x);
  tfw_outputs(m, 1, &y);
  return m;
}

/* The refusal of case `kind`, or NULL when it is accepted. */
static const char *refusal(int kind, const char *path) {
  TfwModel *m = build(kind);
  uint8_t *bytes;
  size_t len;
  tfw_finish(m, &bytes, &len);
  tfw_free(m);
  jmp_buf jb;
  error_jmp = &jb;
  error_message[0] = 0;
  const char *why = NULL;
  if (!setjmp(jb)) {
    Graph *g = read_tflite(path, bytes, len);
    verify(g);
  } else {
    why = arena_strdup(error_message);
  }
  error_jmp = NULL;
  free(bytes);
  return why;
}

static void check_refusals(void) {
  static const struct {
    int kind;
    const char *want1, *want2, *sentence;
  } cases[] = {
      {INIT_ADD, "subgraph 1 op 2 (ADD)", "may only hold VAR_HANDLE and ASSIGN_VARIABLE",
       "an init subgraph with an ADD is refused, naming the subgraph and the op"},
      {INIT_NOT_CONST, "subgraph 1 op 2 (ASSIGN_VARIABLE)", "is not a constant",
       "an init value that is not a constant is refused"},
      {NO_INIT, "op 1 (READ_VARIABLE)", "reads variable 'acc' before any value is assigned",
       "a variable read before anything assigns it is refused"},
      {BAD_SHAPE, "op 5 (ASSIGN_VARIABLE)", "is int32[2], but variable 'acc' holds int32[4]",
       "an assignment of another shape is refused"},
      {ONCE_LATE, "2 subgraphs", "CALL_ONCE that is subgraph 0's first op",
       "a CALL_ONCE that is not the first op is refused"},
      {THREE_SUBGRAPHS, "3 subgraphs", "only subgraph 0, CALL_ONCE's init subgraph",
       "a model with a third subgraph is refused"},
      {RESOURCE_ADD, "op 3 (ADD)", "uses RESOURCE tensor 1",
       "an ADD reading a RESOURCE tensor is refused"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    const char *why = refusal(cases[i].kind, "vars.tflite");
    CHECK(why && !strncmp(why, "vars.tflite: ", 13) && strstr(why, cases[i].want1) &&
              strstr(why, cases[i].want2),
          "%s (got '%s')", cases[i].sentence, why ? why : "accepted");
  }
  const char *why = refusal(PLAIN, "vars.tflite");
  CHECK(!why, "the running-sum model is accepted (%s)", why ? why : "");
}

/* Compares inference k's outputs (files) with the model's definition:
 * reset_each: each inference starts from the initial values. */
static const char *check_outputs(const char *dir, const char *tag, int k, bool reset_each) {
  size_t ny, nn;
  uint8_t *y = slurp(arena_printf("%s/%s_y%d.bin", dir, tag, k), &ny);
  uint8_t *n = slurp(arena_printf("%s/%s_n%d.bin", dir, tag, k), &nn);
  const char *why = "";
  if (ny != 4 * N || nn != 4)
    why = arena_printf("inference %d: outputs of %zu and %zu bytes", k, ny, nn);
  for (int i = 0; i < N && !*why; i++) {
    int32_t want = init_acc[i], got;
    for (int j = reset_each ? k : 0; j <= k; j++)
      want += xs[j][i];
    memcpy(&got, y + 4 * i, 4);
    if (got != want)
      why = arena_printf("inference %d: y[%d] is %d, expected %d", k, i, got, want);
  }
  if (!*why) {
    float want = reset_each ? 1.5f : 0.5f + (float)(k + 1), got;
    memcpy(&got, n, 4);
    if (got != want)
      why = arena_printf("inference %d: n is %g, expected %g", k, (double)got, (double)want);
  }
  free(y);
  free(n);
  return why;
}

int main(void) {
  check_refusals();
  char *tmp = test_tmpdir("resvars");
  if (!tmp)
    return test_exit();
  const char *model = arena_printf("%s/running_sum.tflite", tmp);
  TfwModel *m = build(PLAIN);
  tfw_write_file(m, model);
  tfw_free(m);
  const char *io = "";
  for (int k = 0; k < STEPS; k++) {
    const char *in = arena_printf("%s/x%d.bin", tmp, k);
    FILE *f = fopen(in, "wb");
    fwrite(xs[k], sizeof xs[k], 1, f);
    fclose(f);
    io = arena_printf("%s -i %s -o %s/TAG_y%d.bin -o %s/TAG_n%d.bin", io, quote(in), tmp, k,
                      tmp, k);
  }
  for (int reset_each = 0; reset_each < 2; reset_each++) {
    const char *tag = reset_each ? "each" : "stream";
    const char *args = io;
    /* TAG -> tag in every output name. */
    char *a = arena_strdup(args), *p;
    while ((p = strstr(a, "TAG")))
      a = arena_printf("%.*s%s%s", (int)(p - a), a, tag, p + 3);
    int rc = run_command(arena_printf("%s run %s%s%s", quote(test_tinyaot()), quote(model),
                                      reset_each ? " --reset-each" : "", a));
    const char *why = rc ? arena_printf("tinyaot run exited %d", rc) : "";
    for (int k = 0; k < STEPS && !*why; k++)
      why = check_outputs(tmp, tag, k, reset_each);
    CHECK(!*why, "%s: the running sum over %d inferences follows the model's definition%s%s",
          reset_each ? "with --reset-each every inference starts from the initial values"
                     : "the state carries over from one inference to the next",
          STEPS, *why ? ": " : "", why);
  }

  /* The first inference against TFLite itself. */
  const char *shared = getenv("TINYAOT_SHARED");
  const char *oracle = arena_printf("%s/oracle/tflite-oracle", shared && *shared ? shared : "../shared");
  const char *pass = getenv("TINYAOT_PASS");
  bool use_oracle = (!pass || !strcmp(pass, "plain")) && file_exists(oracle) &&
                    run_command("command -v node > /dev/null") == 0;
  if (use_oracle) {
    int rc = run_command(arena_printf("%s --xnnpack off %s -i %s/x0.bin -o %s/oracle_y.bin "
                                      "-o %s/oracle_n.bin > /dev/null",
                                      quote(oracle), quote(model), tmp, tmp, tmp));
    const char *why = rc ? arena_printf("the oracle exited %d", rc) : "";
    if (!*why)
      why = compare_files(arena_printf("%s/oracle_y.bin", tmp),
                          arena_printf("%s/stream_y0.bin", tmp));
    if (!*why)
      why = compare_files(arena_printf("%s/oracle_n.bin", tmp),
                          arena_printf("%s/stream_n0.bin", tmp));
    CHECK(!*why, "the first inference equals TFLite's (initial values from CALL_ONCE)%s%s",
          *why ? ": " : "", why);
  } else if (!pass || !strcmp(pass, "plain")) {
    const char *require = getenv("TINYAOT_REQUIRE_SHARED");
    if (require && !strcmp(require, "1"))
      CHECK(0, "the TFLite oracle runs (no node or no %s; TINYAOT_REQUIRE_SHARED=1)", oracle);
    else
      printf("skip - TFLITE ORACLE MISSING (%s or node): compared with the model's "
             "definition only\n", oracle);
  }

  /* A variable typed by its first assignment, without CALL_ONCE. */
  const char *m2 = arena_printf("%s/assign_first.tflite", tmp);
  m = build_assign_first();
  tfw_write_file(m, m2);
  tfw_free(m);
  static const float x2[2][3] = {{1.5f, -2.0f, 0.25f}, {7.0f, 8.0f, -9.5f}};
  const char *args = "";
  for (int k = 0; k < 2; k++) {
    const char *in = arena_printf("%s/x2_%d.bin", tmp, k);
    FILE *f = fopen(in, "wb");
    fwrite(x2[k], sizeof x2[k], 1, f);
    fclose(f);
    args = arena_printf("%s -i %s -o %s/y2_%d.bin", args, quote(in), tmp, k);
  }
  int rc = run_command(arena_printf("%s run %s%s", quote(test_tinyaot()), quote(m2), args));
  const char *why = rc ? arena_printf("tinyaot run exited %d", rc) : "";
  for (int k = 0; k < 2 && !*why; k++) {
    size_t n;
    uint8_t *got = slurp(arena_printf("%s/y2_%d.bin", tmp, k), &n);
    if (n != sizeof x2[k] || memcmp(got, x2[k], n))
      why = arena_printf("inference %d: y is not x (%zu bytes)", k, n);
    free(got);
  }
  if (!*why && use_oracle) {
    rc = run_command(arena_printf("%s --xnnpack off %s -i %s/x2_0.bin -o %s/oracle_y2.bin "
                                  "> /dev/null", quote(oracle), quote(m2), tmp, tmp));
    why = rc ? arena_printf("the oracle exited %d", rc)
             : compare_files(arena_printf("%s/oracle_y2.bin", tmp),
                             arena_printf("%s/y2_0.bin", tmp));
  }
  CHECK(!*why, "without CALL_ONCE a variable takes the type and shape of its first "
        "assignment: ASSIGN_VARIABLE(x) then READ_VARIABLE gives x%s%s%s",
        use_oracle ? ", as in TFLite" : "", *why ? ": " : "", why);
  return test_end(tmp, "models");
}
