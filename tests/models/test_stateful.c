/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The stateful and signal-processing models against TensorFlow Lite
 * Micro's goldens (../shared/goldens, TFLM's reference kernels): the
 * LSTM and SVDF models (state in variable tensors), the GRU model
 * rnnoise (state through its inputs and outputs), and the audio
 * preprocessors (the signal library's custom ops; the spectral
 * subtraction keeps a noise estimate of its own in the persistent area,
 * so case1 and case2 match only if the reset clears it).
 *
 * For every model: `tinyaot run --reset-each` runs case0, case1 and case2
 * in one process, each from the reset state as TFLM's fresh interpreter
 * does, and dumps case0's tensors; every output and every tensor of
 * TFLM's case0 dump (the op outputs, and the variable tensors: the state
 * after the inference) must be equal - bit for bit for integer models,
 * within FLOAT_ATOL + FLOAT_RTOL * |expected| for float32 tensors of the
 * float models.
 *
 * Models with a stream (goldens stream0/: five inferences of one
 * interpreter, state carried over) run the five steps in one process
 * with --dump-state; every step's outputs and state must match.  Then
 * steps 0, 1, 0 run with --reset-each: the third inference, after a
 * reset from a used state, must reproduce step 0's outputs and state.
 */
#define _POSIX_C_SOURCE 200809L
#include "model_test.h"

#include <math.h>

/* Float models: |actual - expected| <= FLOAT_ATOL + FLOAT_RTOL * |expected|. */
#define FLOAT_ATOL 1e-5
#define FLOAT_RTOL 1e-4

typedef struct {
  const char *name;
  bool float_model; /* compare float32 tensors with the tolerance */
} Model;

static const Model models[] = {
    {"mnist_lstm_int8", false},         {"mnist_lstm_float", true},
    {"keras_lstm_mnist_ptq", false},    {"micro_speech_lstm_int8", false},
    {"dtln_noise_suppression_int8", false}, {"keyword_scrambled", false},
    {"keyword_scrambled_8bit", false},  {"rnnoise_int8", false},
    {"audio_preprocessor_int8", false}, {"audio_preprocessor_float", true},
};

static const char *const cases[] = {"case0", "case1", "case2"};
#define NCASES 3
#define NSTEPS 5

/* "" when the files agree (bytes, or float32 within the tolerance when
 * `as_float`), else the first difference. */
static const char *compare(const char *expected, const char *actual, bool as_float) {
  if (!as_float)
    return compare_files(expected, actual);
  uint8_t *e, *a;
  size_t n;
  const char *r = slurp_pair(expected, actual, &e, &a, &n);
  if (!*r && n % 4)
    r = first_byte_mismatch(e, a, n);
  else
    for (size_t i = 0; !*r && i < n / 4; i++) {
      float x, y;
      memcpy(&x, e + 4 * i, 4);
      memcpy(&y, a + 4 * i, 4);
      if (!(fabs((double)y - x) <= FLOAT_ATOL + FLOAT_RTOL * fabs((double)x)))
        r = arena_printf("first mismatch at element %zu: expected %.9g, actual %.9g", i,
                         (double)x, (double)y);
    }
  free(e);
  free(a);
  return r;
}

static bool is_float(const Graph *g, int t, const Model *m) {
  return m->float_model && g->tensors[t].dtype == DT_FLOAT32;
}

static void test_cases(const char *shared, const char *tinyaot, const char *out,
                       const Model *m, const Graph *g) {
  const char *model = arena_printf("%s/models/%s.tflite", shared, m->name);
  const char *gold = arena_printf("%s/goldens/%s", shared, m->name);
  const char *dump = arena_printf("%s/dump", out);
  const char *cmd = arena_printf("%s run %s --reset-each --dump-tensors %s",
                                 quote(tinyaot), quote(model), quote(dump));
  for (int c = 0; c < NCASES; c++)
    cmd = add_io(cmd, g, arena_printf("%s/%s", gold, cases[c]),
                 arena_printf("%s/%s.output", out, cases[c]));
  int rc = run_command(cmd);
  if (!CHECK(rc == 0, "%s compiles, builds and runs its 3 cases (tinyaot run exited "
                      "with %d)", m->name, rc))
    return;
  for (int c = 0; c < NCASES; c++) {
    const char *diff = "";
    int k;
    for (k = 0; k < g->noutputs && !*diff; k++)
      diff = compare(arena_printf("%s/%s/output%d.bin", gold, cases[c], k),
                     arena_printf("%s/%s.output%d.bin", out, cases[c], k),
                     is_float(g, g->outputs[k], m));
    CHECK(!*diff, "%s %s: every output equals TFLM's golden%s%s%s", m->name, cases[c],
          m->float_model ? " (float tolerance)" : " bytes",
          *diff ? arena_printf(": output%d: ", k - 1) : "", diff);
  }

  /* case0's tensors: op outputs in model order, then the state. */
  const char *tdir = arena_printf("%s/case0/tensors", gold);
  if (!file_exists(tdir))
    return;
  int ncompared = 0, nstate = 0;
  const char *first = "";
  for (int i = 0; i < g->nops && !*first; i++) {
    const Op *op = &g->ops[i];
    for (int k = 0; k < op->noutputs && !*first; k++) {
      int t = op->outputs[k];
      const char *e = arena_printf("%s/t%d.bin", tdir, t);
      if (!file_exists(e))
        continue;
      const char *d = compare(e, arena_printf("%s/t%d.bin", dump, t), is_float(g, t, m));
      ncompared++;
      if (*d)
        first = arena_printf("op %d (%s) output t%d: %s", i, op_display_name(g, i), t, d);
    }
  }
  for (int t = 0; t < g->ntensors && !*first; t++) {
    if (!g->tensors[t].is_variable)
      continue;
    const char *d = compare(arena_printf("%s/t%d.bin", tdir, t),
                            arena_printf("%s/t%d.bin", dump, t), is_float(g, t, m));
    nstate++;
    if (*d)
      first = arena_printf("variable tensor t%d: %s", t, d);
  }
  CHECK(!*first, "%s case0: every op output and the state after the inference equal "
                 "TFLM's dump (%d outputs, %d state tensors)%s%s",
        m->name, ncompared, nstate, *first ? "; first difference: " : "", first);
}

/* The state files of step `k` of the golden stream against state_dir/step<j>. */
static const char *compare_state(const Graph *g, const Model *m, const char *gold_step,
                                 const char *state_dir, int j) {
  for (int t = 0; t < g->ntensors; t++) {
    if (!g->tensors[t].is_variable)
      continue;
    const char *d = compare(arena_printf("%s/state/t%d.bin", gold_step, t),
                            arena_printf("%s/step%d/t%d.bin", state_dir, j, t),
                            is_float(g, t, m));
    if (*d)
      return arena_printf("state t%d: %s", t, d);
  }
  return "";
}

static const char *compare_outputs(const Graph *g, const Model *m, const char *gold_step,
                                   const char *prefix) {
  for (int k = 0; k < g->noutputs; k++) {
    const char *d = compare(arena_printf("%s/output%d.bin", gold_step, k),
                            arena_printf("%s%d.bin", prefix, k),
                            is_float(g, g->outputs[k], m));
    if (*d)
      return arena_printf("output%d: %s", k, d);
  }
  return "";
}

static void test_stream(const char *shared, const char *tinyaot, const char *out,
                        const Model *m, const Graph *g) {
  const char *model = arena_printf("%s/models/%s.tflite", shared, m->name);
  const char *gold = arena_printf("%s/goldens/%s/stream0", shared, m->name);
  if (!file_exists(gold))
    return;
  const char *state = arena_printf("%s/state", out);
  const char *cmd = arena_printf("%s run %s --dump-state %s", quote(tinyaot),
                                 quote(model), quote(state));
  for (int k = 0; k < NSTEPS; k++)
    cmd = add_io(cmd, g, arena_printf("%s/step%d", gold, k),
                 arena_printf("%s/step%d.output", out, k));
  int rc = run_command(cmd);
  if (!CHECK(rc == 0, "%s runs its 5-step stream in one process (exit %d)", m->name, rc))
    return;
  for (int k = 0; k < NSTEPS; k++) {
    const char *step = arena_printf("%s/step%d", gold, k);
    const char *d = compare_outputs(g, m, step, arena_printf("%s/step%d.output", out, k));
    if (!*d)
      d = compare_state(g, m, step, state, k);
    CHECK(!*d, "%s stream step %d: the outputs and the state carried over equal "
               "TFLM's%s%s",
          m->name, k, *d ? "; " : "", d);
  }

  /* Steps 0, 1, 0 with a reset before each: the last reproduces step 0. */
  const char *rstate = arena_printf("%s/reset_state", out);
  cmd = arena_printf("%s run %s --reset-each --dump-state %s", quote(tinyaot),
                     quote(model), quote(rstate));
  int seq[3] = {0, 1, 0};
  for (int j = 0; j < 3; j++)
    cmd = add_io(cmd, g, arena_printf("%s/step%d", gold, seq[j]),
                 arena_printf("%s/reset%d.output", out, j));
  rc = run_command(cmd);
  if (!CHECK(rc == 0, "%s runs steps 0, 1, 0 with a reset before each (exit %d)",
             m->name, rc))
    return;
  const char *step0 = arena_printf("%s/step0", gold);
  const char *d = compare_outputs(g, m, step0, arena_printf("%s/reset2.output", out));
  if (!*d)
    d = compare_state(g, m, step0, rstate, 2);
  CHECK(!*d, "%s: after <prefix>_reset() from a used state, a run reproduces step 0's "
             "outputs and state%s%s",
        m->name, *d ? "; " : "", d);
}

int main(void) {
  const char *shared = test_shared_dir();
  if (!shared)
    return test_exit();
  const char *tinyaot = test_tinyaot();
  const char *tmp = test_tmpdir("stateful");
  if (!tmp)
    return test_exit();
  for (size_t i = 0; i < sizeof models / sizeof *models; i++) {
    const Model *m = &models[i];
    const char *path = arena_printf("%s/models/%s.tflite", shared, m->name);
    size_t size;
    uint8_t *buf = read_file(path, &size);
    Graph *g = read_tflite(path, buf, size);
    verify(g);
    const char *out = arena_printf("%s/%s", tmp, m->name);
    mkdir(out, 0777);
    test_cases(shared, tinyaot, out, m, g);
    test_stream(shared, tinyaot, out, m, g);
  }
  return test_end(tmp, "outputs");
}
