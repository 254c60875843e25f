/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The whole compiler on subtly broken models.  Seeded structure-aware
 * mutations (tests/fuzz/mutate.h: shapes, types, quantization, buffer
 * indices and lengths, op inputs and outputs, options rewritten in place)
 * of several shared models (and of an int8 model with resource variables
 * and CALL_ONCE, tests/resvars_model.h, and of a model with an IF inside
 * a WHILE body, tests/control_model.h) go through read, verify, the
 * passes, lower, verify, plan and emit in this process, as `tinyaot
 * compile` runs them.
 *
 * Each mutant must end in one of two ways: refused through error_at()
 * with a message naming the file (and the op index and name when it
 * names an op), or accepted.  A die()/unreachable() is a compiler bug
 * and fails the check; a crash or a sanitizer report (make test runs
 * this under ASan+UBSan too) ends the program, which fails it.  A failing
 * mutant is saved to $TINYAOT_BUILD/robust-findings/ for replay
 * (`tinyaot compile FILE -o DIR`).
 *
 * Accepted mutants are emitted (into one temporary folder, rewritten each
 * time).  A sample of them (the first accepted mutant that differs from
 * its model, of each shared model and of every 8th single-op model;
 * TINYAOT_ROBUST_BUILDS=k: k of every model) is also compiled with
 * -std=c99 -Wall -Wextra -Werror -pedantic (the runner, the weights and a
 * file using every macro of the header), then built with the harness
 * (compiler/run.c; $TINYAOT_CFLAGS: the sanitizers in the san pass) and
 * run once on zero inputs inside its guard zones.  They must compile,
 * run and return TA_OK: a kernel reading or writing outside its tensors
 * is the compiler's fault, for letting the model through.
 *
 * TINYAOT_ROBUST_SCALE=k runs k times the mutations;
 * TINYAOT_ROBUST_VERBOSE=1 prints every refusal and die() on stderr.
 */
#include "fuzz/mutate.h"
#include "test.h"

#include <sys/stat.h>
#include <unistd.h>

#include "../../tools/tflite_writer.c"
#include "control_model.h"
#include "resvars_model.h"

#ifndef MUTATIONS_PER_MODEL
#define MUTATIONS_PER_MODEL 400
#endif
#ifndef MUTATIONS_PER_OP
#define MUTATIONS_PER_OP 40
#endif
#ifndef BUILDS_PER_MODEL
#define BUILDS_PER_MODEL 1
#endif

typedef struct {
  int mutants, accepted, refused, died, unnamed;
  int reached_lower; /* mutants that verify accepted */
  int built, build_failed;
  char first_bad[400];
} Stats;

static const char *findings_dir(void) {
  static char dir[4096];
  const char *b = getenv("TINYAOT_BUILD");
  snprintf(dir, sizeof dir, "%s/robust-findings", b && *b ? b : "build");
  mkdir(dir, 0777);
  return dir;
}

static void save(const char *name, int i, const uint8_t *b, size_t n) {
  char path[4400];
  snprintf(path, sizeof path, "%s/%s-%d.tflite", findings_dir(), name, i);
  FILE *f = fopen(path, "wb");
  if (f) {
    fwrite(b, 1, n, f);
    fclose(f);
  }
}

/* Emits the accepted mutant (compiled again: emit needs the graph),
 * compiles the generated sources with the strict flags, then builds it
 * with the harness (compiler/run.c; -O0 plus $TINYAOT_CFLAGS) and runs
 * it once on zero inputs.  true when all of it succeeds; else why. */
/* Has g an integer DIV, FLOOR_DIV or FLOOR_MOD (whose kernels refuse a
 * zero divisor at run time)? */
static bool has_int_division(const Graph *g) {
  for (int i = 0; i < g->nops; i++) {
    const Op *op = &g->ops[i];
    if ((op->kind == OP_DIV || op->kind == OP_FLOOR_DIV || op->kind == OP_FLOOR_MOD) &&
        op->noutputs > 0 && op->outputs[0] >= 0 &&
        g->tensors[op->outputs[0]].dtype != DT_FLOAT32)
      return true;
  }
  return false;
}

static bool build_and_run_mutant(const char *name, const uint8_t *b, size_t n,
                                 const RunOptionsSet *opt, char *why, size_t nwhy) {
  char dir[] = "/tmp/tinyaot-robust-XXXXXX";
  if (!mkdtemp(dir)) {
    snprintf(why, nwhy, "cannot create a temporary folder");
    return false;
  }
  Graph *g;
  Plan *p;
  RunResult res = compile_buffer(name, b, n, opt, dir, &g, &p);
  bool ok = false;
  const char *cc = getenv("CC");
  cc = cc && *cc ? cc : "cc";
  if (res != RUN_ACCEPTED) {
    snprintf(why, nwhy, "the second compilation %s: %.300s",
             res == RUN_DIED ? "died" : "refused it",
             res == RUN_DIED ? die_message : error_message);
  } else if (!strict_compile(dir, cc)) {
    snprintf(why, nwhy, "the generated code does not compile with -std=c99 "
             "-Wall -Wextra -Werror -pedantic");
  } else {
    char **ins = arena_array((size_t)g->ninputs + 1, sizeof(char *));
    char **outs = arena_array((size_t)g->noutputs + 1, sizeof(char *));
    for (int i = 0; i < g->ninputs; i++) {
      ins[i] = arena_printf("%s/in%d.bin", dir, i);
      FILE *f = fopen(ins[i], "wb");
      size_t bytes = tensor_bytes(&g->tensors[g->inputs[i]]);
      for (size_t k = 0; f && k < bytes; k++)
        fputc(0, f);
      if (f)
        fclose(f);
    }
    for (int i = 0; i < g->noutputs; i++)
      outs[i] = arena_printf("%s/out%d.bin", dir, i);
    const char *extra = getenv("TINYAOT_CFLAGS");
    RunOptions ro = {.cc = cc,
                     .cflags = arena_printf("-O0 %s", extra ? extra : "")};
    jmp_buf jb;
    error_jmp = &jb;
    if (!setjmp(jb)) {
      /* The folder is written; emit_folder() again gives the list of
       * sources (the same bytes). */
      EmitResult er = emit_folder(g, p, &opt->emit, dir);
      fflush(stdout);
      int rc = build_and_run(g, p, &opt->emit, &er, dir, &ro, ins, g->ninputs,
                             outs, g->noutputs);
      /* 3: the run function returned an error status.  With the
       * all-zero inputs that is right for an integer division (a zero
       * divisor is refused with TA_ERR_ARG), and only there. */
      ok = rc == 0 || (rc == 3 && has_int_division(g));
      if (!ok)
        snprintf(why, nwhy, "the build or the run exited %d", rc);
    } else {
      snprintf(why, nwhy, "%.300s", error_message);
    }
    error_jmp = NULL;
  }
  if (ok)
    remove_tree(dir);
  else
    snprintf(why + strlen(why), nwhy - strlen(why), " (folder %s)", dir);
  return ok;
}

/* Every accepted mutant is emitted here (rewritten each time). */
static const char *emit_dir;

/* TINYAOT_ROBUST_VERBOSE=1: one line per died or refused mutant on
 * stderr ("died", "refused"), for triage. */
static bool verbose;

/* Mutates the model at `path` nmut times (seeded) and compiles each
 * mutant, adding to *st.  The model itself is compiled first: it must
 * compile when must_compile (a shared model), else at least end cleanly
 * (a single-op model of an op tinyaot may not support). */
static void stress(const char *path, const char *name, uint64_t seed, int nmut,
                   int nbuild, bool must_compile, Stats *st) {
  size_t size;
  uint8_t *orig_arena = read_file(path, &size);
  uint8_t *orig = malloc(size), *work = malloc(size);
  memcpy(orig, orig_arena, size);

  RunOptionsSet opt;
  run_options(&opt, 0);
  RunResult r0 = compile_buffer(name, orig, size, &opt, NULL, NULL, NULL);
  if (must_compile)
    CHECK(r0 == RUN_ACCEPTED, "%s itself compiles in-process (%s)", name,
          r0 == RUN_ACCEPTED ? "-" : r0 == RUN_DIED ? die_message : error_message);
  else if (r0 == RUN_DIED)
    CHECK(0, "%s itself compiles or is refused (it died: %s)", name, die_message);

  Rng rng = {seed};
  int built = 0;
  for (int i = 0; i < nmut; i++) {
    memcpy(work, orig, size);
    mutate_model(&rng, work, size, 3);
    uint8_t *exact = malloc(size); /* reads past the end are caught */
    memcpy(exact, work, size);
    run_options(&opt, (unsigned)i);
    RunResult res = compile_buffer(name, exact, size, &opt, emit_dir, NULL, NULL);
    st->mutants++;
    if (res == RUN_ACCEPTED) {
      st->accepted++;
      st->reached_lower++;
      if (built < nbuild && memcmp(exact, orig, size)) {
        char why[600] = "";
        built++;
        st->built++;
        if (!build_and_run_mutant(name, exact, size, &opt, why, sizeof why)) {
          st->build_failed++;
          save(name, i, exact, size);
          if (!st->first_bad[0])
            snprintf(st->first_bad, sizeof st->first_bad,
                     "%s mutant %d builds and runs: %.300s", name, i, why);
        }
      }
    } else if (res == RUN_DIED) {
      if (verbose)
        fprintf(stderr, "died %s %d: %s\n", name, i, die_message);
      st->died++;
      save(name, i, exact, size);
      if (!st->first_bad[0])
        snprintf(st->first_bad, sizeof st->first_bad, "%s mutant %d: %.300s",
                 name, i, die_message);
    } else {
      if (verbose)
        fprintf(stderr, "refused %d %s\n", run_stage, error_message);
      st->refused++;
      if (!message_is_proper(name, error_message)) {
        st->unnamed++;
        save(name, i, exact, size);
        if (!st->first_bad[0])
          snprintf(st->first_bad, sizeof st->first_bad,
                   "%s mutant %d refused without a proper message: '%.300s'",
                   name, i, error_message);
      }
      if (run_stage >= STAGE_LOWER)
        st->reached_lower++;
    }
    free(exact);
    static unsigned runs;
    if (++runs % 16 == 0)
      arena_reset();
  }
  free(orig);
  free(work);
}

/* report() with at least 1 / part of the mutants reaching the lowering. */
static void report_part(const char *what, const Stats *st, int part) {
  CHECK(!st->died && !st->unnamed && !st->build_failed,
        "%d structure-aware mutations of %s end cleanly: %d refused, each "
        "with a message naming the file (and op), %d accepted, %d of them "
        "built and run; %d died, %d unnamed, %d failed to build or run (%s)",
        st->mutants, what, st->refused, st->accepted, st->built, st->died,
        st->unnamed, st->build_failed, st->first_bad[0] ? st->first_bad : "-");
  CHECK(st->reached_lower * part >= st->mutants,
        "at least 1 in %d of the mutations of %s get past verify into the "
        "lowering (%d of %d)",
        part, what, st->reached_lower, st->mutants);
}

static void report(const char *what, const Stats *st) { report_part(what, st, 4); }

/* Writes the single-op models of tools/gen_ops.c (one per op x dtype
 * row, seed 1) into a temporary folder; returns it, or NULL. */
static const char *single_op_models(void) {
  const char *b = getenv("TINYAOT_BUILD");
  const char *gen = arena_printf("%s/tools/gen_ops", b && *b ? b : "build");
  static char dir[] = "/tmp/tinyaot-robust-ops-XXXXXX";
  if (!mkdtemp(dir))
    return NULL;
  const char *cmd = arena_printf("'%s' --seed 1 --count 1 '%s' > /dev/null", gen, dir);
  fflush(stdout);
  return system(cmd) == 0 ? dir : NULL;
}

int main(void) {
  const char *shared = test_shared_dir();
  if (!shared)
    return test_exit();
  plan_search_iterations = 64;
  run_dump = fopen("/dev/null", "w"); /* the printers see every mutant too */
  /* In memory where there is a tmpfs: thousands of small files. */
  static char shm[] = "/dev/shm/tinyaot-robust-emit-XXXXXX";
  static char tmp[] = "/tmp/tinyaot-robust-emit-XXXXXX";
  emit_dir = access("/dev/shm", W_OK) == 0 ? mkdtemp(shm) : NULL;
  if (!emit_dir)
    emit_dir = mkdtemp(tmp);
  CHECK(emit_dir != NULL, "a temporary folder for the emitted code exists");
  if (!emit_dir)
    return test_exit();
  const char *v = getenv("TINYAOT_ROBUST_VERBOSE");
  verbose = v && !strcmp(v, "1");
  /* TINYAOT_ROBUST_SCALE=k: k times the mutations (triage, soak). */
  const char *sc = getenv("TINYAOT_ROBUST_SCALE");
  int scale = sc && atoi(sc) > 0 ? atoi(sc) : 1;
  /* Builds: one accepted mutant of each shared model and of every 8th
   * single-op model (each build takes a few tenths of a second);
   * TINYAOT_ROBUST_BUILDS=k: k of every model (triage, soak). */
  const char *nb = getenv("TINYAOT_ROBUST_BUILDS");
  int nbuild = nb && atoi(nb) > 0 ? atoi(nb) : BUILDS_PER_MODEL;
  int build_every = nb && atoi(nb) > 0 ? 1 : 8;

  static const char *const models[] = {
      "simple_add_int8.tflite",       "split_concat_uint8.tflite",
      "hello_world_int8.tflite",      "hello_world_float.tflite",
      "micro_speech_int8.tflite",     "mnist_lstm_int8.tflite",
      "audio_preprocessor_int8.tflite", "keyword_scrambled_8bit.tflite",
      "ds_cnn_s_int8.tflite",
  };
  for (size_t i = 0; i < sizeof models / sizeof *models; i++) {
    char path[4200];
    snprintf(path, sizeof path, "%s/models/%s", shared, models[i]);
    Stats st = {0};
    stress(path, models[i], 1000 + i, scale * MUTATIONS_PER_MODEL, nbuild, true, &st);
    report(models[i], &st);
  }

  /* Resource variables and CALL_ONCE (two subgraphs): the test writer's
   * model, as a file. */
  {
    uint8_t *bytes;
    size_t size;
    resvars_model(&bytes, &size);
    const char *path = arena_printf("%s/resource_variables.tflite", emit_dir);
    FILE *f = fopen(path, "wb");
    bool written = f && fwrite(bytes, 1, size, f) == size;
    if (f)
      fclose(f);
    free(bytes);
    CHECK(written, "the resource-variable model is written (%s)", path);
    Stats st = {0};
    if (written)
      stress(path, "resource_variables.tflite", 1100, scale * MUTATIONS_PER_MODEL, nbuild,
             true, &st);
    report("resource_variables.tflite", &st);
  }

  /* IF inside a WHILE body (five subgraphs, control_model.h): the
   * structure ops through the verifier, the planner and the emitter. */
  {
    uint8_t *bytes;
    size_t size;
    control_model(&bytes, &size);
    const char *path = arena_printf("%s/control_flow.tflite", emit_dir);
    FILE *f = fopen(path, "wb");
    bool written = f && fwrite(bytes, 1, size, f) == size;
    if (f)
      fclose(f);
    free(bytes);
    CHECK(written, "the control-flow model is written (%s)", path);
    Stats st = {0};
    if (written)
      stress(path, "control_flow.tflite", 1200, scale * MUTATIONS_PER_MODEL, nbuild,
             true, &st);
    /* Every subgraph input and output is bound to a tensor of its type
     * and shape: most shape and type mutations end in the reader. */
    report_part("control_flow.tflite", &st, 10);
  }

  /* Every op x dtype row of the single-op generator: the mutations then
   * hit each lowering directly. */
  const char *ops = single_op_models();
  CHECK(ops != NULL, "tools/gen_ops writes the single-op models");
  if (ops) {
    char mpath[4200];
    snprintf(mpath, sizeof mpath, "%s/manifest.txt", ops);
    FILE *m = fopen(mpath, "r");
    char line[1024], cname[256];
    int ncases = 0;
    Stats st = {0};
    while (m && fgets(line, sizeof line, m)) {
      if (sscanf(line, "%255s", cname) != 1)
        continue;
      char path[4600];
      snprintf(path, sizeof path, "%s/%s/model.tflite", ops, cname);
      stress(path, cname, 2000 + (uint64_t)ncases, scale * MUTATIONS_PER_OP,
             ncases % build_every == 0 ? nbuild : 0, false, &st);
      ncases++;
    }
    if (m)
      fclose(m);
    report(arena_printf("the %d single-op models of tools/gen_ops (seed 1)", ncases), &st);
    CHECK(ncases >= 100, "the single-op generator gives at least 100 models (%d)",
          ncases);
    remove_tree(ops);
  }
  remove_tree(emit_dir);
  return test_exit();
}
