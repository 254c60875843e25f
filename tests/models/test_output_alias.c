/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every model output is written by the run function, whatever it aliases:
 * an output that is also the model's input, an output listed twice,
 * outputs that are views of one another (RESHAPE), an output that is a
 * constant or a view of one, an output that is a view of the input -
 * each with inputs and outputs in caller buffers
 * (--io-in-caller-buffers), inside the workspace where <prefix>_io()
 * points them (the default), and planned inside the workspace but
 * passed in buffers of the caller's own (a small C main).  The models are built with the test
 * writer (tools/tflite_writer.c) around one float32 RELU, y = max(x, 0),
 * so each output's bytes follow from the model's own semantics (a copy
 * of x, of y or of the constant), compared bit-exactly, and equal what
 * TFLite itself gives (../shared/oracle, XNNPACK off) where the oracle is.  `tinyaot run`
 * builds and runs them (the harness fills each output buffer with a
 * pattern first, so an output never written shows).  A model output that
 * nothing writes (no op, no input, no constant) is refused, and the plan
 * checker (check_outputs_written in compiler/memory/check.c) rejects a
 * plan whose output buffer dies early or whose producer makes no call.
 */
#define _POSIX_C_SOURCE 200809L
#include "test.h"
#include "tinyaot.h"

#include "model_test.h"

#include "lower_helpers.h"

#define N 8

static const float x_values[N] = {-1.5f, -1.0f, -0.5f, 0.0f, 0.5f, 1.0f, 1.5f, 2.0f};
static const float c_values[N] = {10, 11, 12, 13, 14, 15, 16, 17};

enum { X, Y, C }; /* what an output holds: the input, RELU's result, the constant */

typedef struct {
  const char *name, *sentence;
  int nout;
  int holds[3];
} Case;

/* Builds case k's model: x -> RELU -> y, plus the views and constants
 * its outputs need. */
static TfwModel *build(int k) {
  TfwModel *m = tfw_new();
  int32_t d[2] = {1, N}, flat[1] = {N};
  int x = tfw_tensor(m, "x", TFW_FLOAT32, 2, d, 0);
  int y = tfw_tensor(m, "y", TFW_FLOAT32, 2, d, 0);
  tfw_op(m, TFW_OP_RELU, 1, &x, 1, &y);
  tfw_inputs(m, 1, &x);
  int c = tfw_const(m, "c", TFW_FLOAT32, 2, d, c_values);
  int32_t shape_flat[1] = {N};
  int out[3], nout = 0;
  /* RESHAPE's new shape, [N]: a view, or a copy where a view would alias. */
  int shape = tfw_const(m, "shape", TFW_INT32, 1, (int32_t[]){1}, shape_flat);
  switch (k) {
  case 0: out[nout++] = y, out[nout++] = x; break;          /* [y, x] */
  case 1: out[nout++] = x; break;                           /* [x] */
  case 2: out[nout++] = y, out[nout++] = y; break;          /* [y, y] */
  case 3: out[nout++] = y, out[nout++] = y, out[nout++] = x; break;
  case 4: {                                                 /* [y, reshape(y)] */
    int r = tfw_tensor(m, "r", TFW_FLOAT32, 1, flat, 0);
    int op = tfw_op(m, TFW_OP_RESHAPE, 2, (int[]){y, shape}, 1, &r);
    tfw_reshape_options(m, op, 1, shape_flat);
    out[nout++] = y, out[nout++] = r;
    break;
  }
  case 5: out[nout++] = y, out[nout++] = c; break;          /* [y, c] */
  case 6: {                                                 /* [y, reshape(c)] */
    int r = tfw_tensor(m, "rc", TFW_FLOAT32, 1, flat, 0);
    int op = tfw_op(m, TFW_OP_RESHAPE, 2, (int[]){c, shape}, 1, &r);
    tfw_reshape_options(m, op, 1, shape_flat);
    out[nout++] = y, out[nout++] = r;
    break;
  }
  case 7: {                                                 /* [reshape(x), y] */
    int r = tfw_tensor(m, "rx", TFW_FLOAT32, 1, flat, 0);
    int op = tfw_op(m, TFW_OP_RESHAPE, 2, (int[]){x, shape}, 1, &r);
    tfw_reshape_options(m, op, 1, shape_flat);
    out[nout++] = r, out[nout++] = y;
    break;
  }
  case 8: out[nout++] = c, out[nout++] = c; break;          /* [c, c] */
  default: {                                                /* [y, z]: z unwritten */
    int z = tfw_tensor(m, "z", TFW_FLOAT32, 2, d, 0);
    out[nout++] = y, out[nout++] = z;
    break;
  }
  }
  tfw_outputs(m, nout, out);
  return m;
}

static const Case cases[] = {
    {"out_is_input", "an output that is also the model input, beside RELU's", 2, {Y, X}},
    {"only_input", "a model whose one output is its input", 1, {X}},
    {"twice", "an output listed twice", 2, {Y, Y}},
    {"twice_and_input", "an output listed twice and the input as the third", 3, {Y, Y, X}},
    {"views", "outputs that are views of one another (y and RESHAPE(y))", 2, {Y, Y}},
    {"const", "an output that is a constant", 2, {Y, C}},
    {"const_view", "an output that is a RESHAPE of a constant", 2, {Y, C}},
    {"input_view", "an output that is a RESHAPE of the input", 2, {X, Y}},
    {"const_twice", "a constant listed twice as the only outputs", 2, {C, C}},
};

static void expected(int holds, float *v) {
  for (int i = 0; i < N; i++)
    v[i] = holds == X ? x_values[i] : holds == C ? c_values[i]
                                                 : (x_values[i] > 0 ? x_values[i] : 0.0f);
}

/* The plan checker on the [y, y] model's plan, then on that plan tampered with. */
static void check_checker(void) {
  LowerOptions lo = {.rounding = TA_ROUND_DOUBLE};
  TfwModel *m = build(2); /* [y, y] */
  Graph *g = compile_model(m, "twice.tflite", &lo);
  tfw_free(m);
  if (!CHECK(g != NULL, "the [y, y] model compiles in process (%s)", error_message))
    return;
  PlanOptions po = {.align = 16, .algo = "best", .schedule = "best"};
  Plan *p = plan_graph(g, &po);
  const char *why = check_plan(g, p);
  CHECK(!why, "the plan checker accepts the [y, y] model's plan (%s)", why ? why : "");
  Buffer *b = &p->bufs[g->tensors[g->outputs[1]].storage];
  size_t bytes = b->bytes;
  b->bytes = 4;
  why = check_plan(g, p);
  CHECK(why != NULL, "the plan checker rejects a model output whose buffer is "
        "smaller than it (%s)", why ? why : "accepted");
  b->bytes = bytes;
  Lowered *l = (Lowered *)op_lowered(&g->ops[g->tensors[g->outputs[0]].producer]);
  const char *kernel = l->kernel;
  l->kernel = NULL;
  why = check_plan(g, p);
  CHECK(why && strstr(why, "makes no call that writes it"),
        "the plan checker rejects a model output whose producer makes no call (%s)",
        why ? why : "accepted");
  l->kernel = kernel;
}

/* A main for a plan with the I/O inside the workspace that passes
 * buffers of its own instead of <prefix>_io()'s: x from argv[1], the
 * outputs (each first filled with a pattern) to the files after each
 * "-o" (tinyaot run's arguments), exit 1 when
 * the run fails or changes the input. */
static const char caller_main[] =
    "#include <stdio.h>\n#include <string.h>\n#include \"net.h\"\n"
    "static union { double d; unsigned char b[NET_WORKSPACE_SIZE + 1]; } ws;\n"
    "int main(int argc, char **argv) {\n"
    "  float x[8], saved[8], o[NET_NUM_OUTPUTS][8];\n"
    "  float *op[NET_NUM_OUTPUTS];\n"
    "  const float *ip = x;\n"
    "  struct net_inputs in;\n  struct net_outputs out;\n  int k;\n"
    "  FILE *f = fopen(argv[1], \"rb\");\n"
    "  if (argc != 2 + 2 * NET_NUM_OUTPUTS || !f || fread(x, 4, 8, f) != 8) return 1;\n"
    "  fclose(f);\n  memcpy(saved, x, sizeof x);\n"
    "  memset(o, 0x5a, sizeof o);\n  memset(ws.b, 0xc3, sizeof ws.b);\n"
    "  for (k = 0; k < NET_NUM_OUTPUTS; k++) op[k] = o[k];\n"
    "  memcpy(&in, &ip, sizeof in);\n  memcpy(&out, op, sizeof out);\n"
    "  if (net_run(&in, &out, ws.b) != 0 || memcmp(saved, x, sizeof x)) return 1;\n"
    "  for (k = 0; k < NET_NUM_OUTPUTS; k++) {\n"
    "    f = fopen(argv[3 + 2 * k], \"wb\");\n"
    "    if (!f || fwrite(o[k], 4, 8, f) != 8 || fclose(f)) return 1;\n"
    "  }\n  return 0;\n}\n";

/* Compiles `model` with the default layout and caller_main into
 * dir/caller; the command that runs it, NULL when it does not build. */
static const char *build_caller(const char *model, const char *dir) {
  const char *gen = arena_printf("%s/gen", dir);
  if (run_command(arena_printf("%s compile %s --prefix net -o %s > /dev/null",
                               quote(test_tinyaot()), quote(model), quote(gen))))
    return NULL;
  const char *main_c = arena_printf("%s/main.c", dir);
  FILE *f = fopen(main_c, "w");
  if (!f)
    return NULL;
  fputs(caller_main, f);
  fclose(f);
  const char *cc = getenv("CC");
  const char *cflags = getenv("TINYAOT_CFLAGS");
  const char *exe = arena_printf("%s/caller", dir);
  if (run_command(arena_printf(
          "%s -std=c99 -Wall -Wextra -Werror -pedantic %s -I%s -I%s/runtime/include -o %s "
          "%s %s/*.c $(find %s/runtime -name '*.c') -lm",
          cc && *cc ? cc : "cc", cflags ? cflags : "", quote(gen), quote(gen), quote(exe),
          quote(main_c), quote(gen), quote(gen))))
    return NULL;
  return quote(exe);
}

int main(void) {
  check_checker();
  char *tmp = test_tmpdir("output-alias");
  if (!tmp)
    return 1;
  const char *in = arena_printf("%s/x.bin", tmp);
  FILE *f = fopen(in, "wb");
  fwrite(x_values, sizeof x_values, 1, f);
  fclose(f);
  const char *shared = getenv("TINYAOT_SHARED");
  const char *oracle = arena_printf("%s/oracle/tflite-oracle", shared && *shared ? shared : "../shared");
  /* The oracle in the plain pass only (the sanitizers do not touch Node). */
  const char *pass = getenv("TINYAOT_PASS");
  bool use_oracle = (!pass || !strcmp(pass, "plain")) && file_exists(oracle) &&
                    run_command("command -v node > /dev/null") == 0;
  const char *require = getenv("TINYAOT_REQUIRE_SHARED");
  if (!use_oracle && (!pass || !strcmp(pass, "plain"))) {
    if (require && !strcmp(require, "1"))
      CHECK(0, "the TFLite oracle runs (no node or no %s; TINYAOT_REQUIRE_SHARED=1)", oracle);
    else
      printf("skip - TFLITE ORACLE MISSING (%s or node): outputs compared with the "
             "models' semantics only\n", oracle);
  }
  int ncases = (int)(sizeof cases / sizeof *cases);
  for (int k = 0; k < ncases; k++) {
    const Case *c = &cases[k];
    const char *model = arena_printf("%s/alias_%s.tflite", tmp, c->name);
    TfwModel *m = build(k);
    tfw_write_file(m, model);
    tfw_free(m);
    /* TFLite's own answer, where the oracle is: the same bytes. */
    const char *ocmd = arena_printf("%s --xnnpack off %s -i %s", quote(oracle), quote(model),
                                    quote(in));
    for (int o = 0; o < c->nout; o++)
      ocmd = arena_printf("%s -o %s", ocmd,
                          quote(arena_printf("%s/%s_oracle_%d.bin", tmp, c->name, o)));
    bool have_oracle = use_oracle && run_command(arena_printf("%s > /dev/null", ocmd)) == 0;
    if (use_oracle)
      CHECK(have_oracle, "TFLite (the oracle) runs %s", c->name);
    for (int mode = 0; mode < 3; mode++) {
      const char *where = mode == 0   ? "in caller buffers"
                          : mode == 1 ? "inside the workspace"
                                      : "planned inside the workspace, passed in caller buffers";
      const char *cmd;
      if (mode < 2) {
        cmd = arena_printf("%s run %s -i %s%s", quote(test_tinyaot()), quote(model),
                           quote(in), mode ? "" : " --io-in-caller-buffers");
      } else {
        const char *dir = arena_printf("%s/%s_caller", tmp, c->name);
        mkdir(dir, 0777);
        cmd = build_caller(model, dir);
        if (!cmd)
          cmd = "false";
        cmd = arena_printf("%s %s", cmd, quote(in));
      }
      for (int o = 0; o < c->nout; o++)
        cmd = arena_printf("%s -o %s", cmd,
                           quote(arena_printf("%s/%s_%d_%d.bin", tmp, c->name, mode, o)));
      int rc = run_command(cmd);
      const char *why = rc ? arena_printf("tinyaot run exited %d", rc) : "";
      for (int o = 0; o < c->nout && !*why; o++) {
        size_t n;
        uint8_t *got = slurp(arena_printf("%s/%s_%d_%d.bin", tmp, c->name, mode, o), &n);
        float want[N];
        expected(c->holds[o], want);
        if (n != sizeof want)
          why = arena_printf("output %d holds %zu bytes, not %zu", o, n, sizeof want);
        for (int i = 0; i < N && !*why; i++) {
          float v;
          memcpy(&v, got + 4 * i, 4);
          if (memcmp(&v, &want[i], 4))
            why = arena_printf("output %d, element %d: expected %g, got %g", o, i,
                               (double)want[i], (double)v);
        }
        if (have_oracle && !*why) {
          const char *d = compare_files(
              arena_printf("%s/%s_oracle_%d.bin", tmp, c->name, o),
              arena_printf("%s/%s_%d_%d.bin", tmp, c->name, mode, o));
          if (*d)
            why = arena_printf("output %d differs from TFLite's: %s", o, d);
        }
        free(got);
      }
      CHECK(!*why, "%s (I/O %s): every output holds its bytes%s%s", c->sentence,
            where, *why ? ": " : "", why);
    }
  }
  /* An output nothing writes. */
  const char *model = arena_printf("%s/unwritten.tflite", tmp);
  TfwModel *m = build(ncases);
  tfw_write_file(m, model);
  tfw_free(m);
  const char *err = arena_printf("%s/unwritten.err", tmp);
  int rc = run_command(arena_printf("%s compile %s -o %s/unwritten > %s", quote(test_tinyaot()),
                                    quote(model), tmp, quote(err)));
  size_t n;
  uint8_t *raw = slurp(err, &n);
  char *msg = arena_alloc(n + 1); /* the bytes as a string, without the newline */
  if (raw)
    memcpy(msg, raw, n);
  free(raw);
  while (n > 0 && msg[n - 1] == '\n')
    msg[--n] = '\0';
  CHECK(rc == 1 && strstr(msg, "unwritten.tflite: ") &&
            strstr(msg, "model output 1 (tensor 4, z) is never produced"),
        "an output that no op writes, that is no input and no constant, is refused: "
        "exit %d, '%s'", rc, msg);
  return test_end(tmp, "models and outputs");
}
