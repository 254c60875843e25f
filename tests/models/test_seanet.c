/* SPDX-License-Identifier: Apache-2.0 */
/*
 * 16x8 quantization (int16 activations, int8 weights) on TensorFlow Lite
 * Micro's per-layer SEANet integration tests: the 127 one-op models in
 * ../shared/models/tflm_seanet_int16/ (ADD, CONV_2D, LEAKY_RELU, PAD,
 * QUANTIZE, STRIDED_SLICE, SUB, TRANSPOSE_CONV), each with its inputs and
 * golden output as CSV files.  The goldens were made by TFLite's builtin
 * reference kernels (tflite-micro's generate_per_layer_tests.py).
 *
 * Every model is compiled twice in this process, with --rounding single
 * (TFLite's arithmetic) and --rounding double (TFLite Micro's); the 254
 * generated folders are built into one program (two unity files, linked
 * with this build's runtime objects, with $TINYAOT_CFLAGS: the
 * sanitizers in the san pass), which runs each model once on the CSV
 * inputs.  Then:
 *
 *   single: every output equals the golden, all 127 models;
 *   double: every output equals the golden except on sub0, sub1 and sub3,
 *           where TFLite Micro computes SUB's multipliers in float
 *           (sub_common.cc) and some outputs differ by exactly 1 - the
 *           difference its own integration test tolerates (EXPECT_NEAR
 *           golden, output, 1).  Those three must differ, by at most 1.
 */
#define _POSIX_C_SOURCE 200809L
#include "model_test.h"

#include <dirent.h>
#include <inttypes.h>

static const char *const folders[] = {"add", "conv", "leaky_relu", "pad",
                                      "quantize", "strided_slice", "sub",
                                      "transpose_conv"};

/* The SUB models on which TFLite Micro's float Prepare moves outputs by 1
 * (found by running both; see the opening comment). */
static const char *const tflm_off_by_one[] = {"sub0", "sub1", "sub3"};

enum { NROUND = 2 };
static const int roundings[NROUND] = {TA_ROUND_SINGLE, TA_ROUND_DOUBLE};
static const char *const round_names[NROUND] = {"single", "double"};

typedef struct {
  const char *folder, *stem; /* "add", "add0" */
  int ninputs;
  DType out_dtype;
  int64_t *golden; /* CSV values */
  size_t ngolden;
  bool compiled[NROUND];
  const char *prefix[NROUND]; /* "s_add0", "d_add0" */
  EmitResult er[NROUND];
} Model;

static const char *tmp_dir;

/* ------------------------------------------------------------- files */

/* The values of a CSV file of integers (commas and newlines); NULL when
 * it cannot be read or holds something else. */
static int64_t *read_csv(const char *path, size_t *n) {
  FILE *f = fopen(path, "r");
  if (!f)
    return NULL;
  size_t cap = 1024, len = 0;
  int64_t *v = malloc(cap * sizeof *v);
  char tok[32];
  size_t t = 0;
  bool bad = false;
  for (int c = fgetc(f);; c = fgetc(f)) {
    if (c == EOF || c == ',' || c == '\n' || c == '\r' || c == ' ') {
      if (t > 0) {
        tok[t] = '\0';
        char *end;
        long long x = strtoll(tok, &end, 10);
        bad |= *end != '\0';
        if (len == cap)
          v = realloc(v, (cap *= 2) * sizeof *v);
        v[len++] = x;
        t = 0;
      }
      if (c == EOF)
        break;
    } else if (t + 1 < sizeof tok) {
      tok[t++] = (char)c;
    } else {
      bad = true;
    }
  }
  fclose(f);
  if (bad) {
    free(v);
    return NULL;
  }
  *n = len;
  return v;
}

static bool write_values(const char *path, const int64_t *v, size_t n, DType dt) {
  FILE *f = fopen(path, "wb");
  if (!f)
    return false;
  bool ok = true;
  for (size_t i = 0; i < n && ok; i++) {
    int16_t s16 = (int16_t)v[i];
    int32_t s32 = (int32_t)v[i];
    int8_t s8 = (int8_t)v[i];
    ok = dt == DT_INT16   ? fwrite(&s16, 2, 1, f) == 1
         : dt == DT_INT32 ? fwrite(&s32, 4, 1, f) == 1
                          : fwrite(&s8, 1, 1, f) == 1;
  }
  return fclose(f) == 0 && ok;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The models of one folder, sorted by name. */
static int list_models(const char *dir, const char *folder, Model *out, int cap) {
  DIR *d = opendir(dir);
  if (!d)
    return 0;
  const char *names[256];
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) && n < 256) {
    size_t len = strlen(e->d_name);
    if (len > 7 && !strcmp(e->d_name + len - 7, ".tflite"))
      names[n++] = arena_printf("%.*s", (int)(len - 7), e->d_name);
  }
  closedir(d);
  qsort(names, (size_t)n, sizeof *names, cmp_str);
  for (int i = 0; i < n && i < cap; i++)
    out[i] = (Model){.folder = folder, .stem = names[i]};
  return n < cap ? n : cap;
}

/* ----------------------------------------------------------- compile */

static Graph *load(const char *path) {
  size_t size;
  uint8_t *buf = read_file(path, &size);
  Graph *g = read_tflite(path, buf, size);
  verify(g);
  return g;
}

/* Reads the model's CSVs and writes its inputs as raw files. */
static const char *prepare(const char *root, Model *m) {
  const char *base = arena_printf("%s/%s/%s", root, m->folder, m->stem);
  Graph *g = load(arena_printf("%s.tflite", base));
  if (g->noutputs != 1)
    return arena_printf("%d outputs, expected 1", g->noutputs);
  m->ninputs = g->ninputs;
  for (int k = 0; k < g->ninputs; k++) {
    const Tensor *t = &g->tensors[g->inputs[k]];
    const char *csv = arena_printf("%s_input%d_%s.csv", base, k, dtype_name(t->dtype));
    size_t n;
    int64_t *v = read_csv(csv, &n);
    if (!v)
      return arena_printf("cannot read %s", csv);
    bool ok = (int64_t)n == tensor_elems(t) &&
              write_values(arena_printf("%s/in/%s_%d.bin", tmp_dir, m->stem, k), v, n,
                           t->dtype);
    free(v);
    if (!ok)
      return arena_printf("%s: %zu values for %" PRId64 " elements", csv, n,
                          tensor_elems(t));
  }
  const Tensor *o = &g->tensors[g->outputs[0]];
  m->out_dtype = o->dtype;
  const char *csv = arena_printf("%s_golden_%s.csv", base, dtype_name(o->dtype));
  m->golden = read_csv(csv, &m->ngolden);
  if (!m->golden)
    return arena_printf("cannot read %s", csv);
  if ((int64_t)m->ngolden != tensor_elems(o))
    return arena_printf("%s: %zu values for %" PRId64 " elements", csv, m->ngolden,
                        tensor_elems(o));
  return NULL;
}

static void compile_model(const char *root, Model *m, int r) {
  const char *path = arena_printf("%s/%s/%s.tflite", root, m->folder, m->stem);
  Graph *g = load(path);
  run_passes(g);
  LowerOptions lo = {.rounding = roundings[r]};
  lower(g, &lo);
  Pool pool = {.name = "workspace", .limit = SIZE_MAX};
  PlanOptions po = {.pools = &pool, .npools = 1, .align = 16, .algo = "best"};
  Plan *p = plan_graph(g, &po);
  EmitOptions eo = {.prefix = m->prefix[r], .model = arena_printf("%s.tflite", m->stem)};
  m->er[r] = emit_folder(g, p, &eo, arena_printf("%s/%s", tmp_dir, m->prefix[r]));
}

/* Runs f under error_jmp: NULL, or the error message. */
static const char *catch_errors(const char *(*f)(const char *, Model *, int),
                                const char *root, Model *m, int r) {
  jmp_buf jb;
  const char *err;
  error_jmp = &jb;
  if (setjmp(jb) == 0)
    err = f(root, m, r);
  else
    err = arena_strdup(error_message);
  error_jmp = NULL;
  return err;
}

static const char *do_prepare(const char *root, Model *m, int r) {
  (void)r;
  return prepare(root, m);
}

static const char *do_compile(const char *root, Model *m, int r) {
  compile_model(root, m, r);
  return NULL;
}

/* ------------------------------------------------------------- build */

static const char *upper(const char *s) {
  char *u = arena_strdup(s);
  for (char *c = u; *c; c++)
    if (*c >= 'a' && *c <= 'z')
      *c = (char)(*c - 'a' + 'A');
  return u;
}

/* main.c: one function per compiled model that loads its inputs, runs it
 * with exactly <P>_WORKSPACE_SIZE bytes and writes its output; main()
 * prints "<prefix> <status>" per model. */
static void write_harness(FILE *f, Model *ms, int n) {
  fputs("/* Runs every compiled SEANet model once (test_seanet.c). */\n"
        "#include <stdio.h>\n#include <stdlib.h>\n\n", f);
  for (int i = 0; i < n; i++)
    for (int r = 0; r < NROUND; r++)
      if (ms[i].compiled[r])
        fprintf(f, "#include \"%s/%s.h\"\n", ms[i].prefix[r], ms[i].prefix[r]);
  fprintf(f,
          "\nstatic void *load(const char *path, size_t n) {\n"
          "  unsigned char *p = malloc(n ? n : 1);\n"
          "  FILE *f = fopen(path, \"rb\");\n"
          "  if (!p || !f || fread(p, 1, n, f) != n) {\n"
          "    fprintf(stderr, \"cannot read %%s\\n\", path);\n"
          "    exit(1);\n"
          "  }\n"
          "  fclose(f);\n"
          "  return p;\n"
          "}\n\n"
          "static void save(const char *path, const void *p, size_t n) {\n"
          "  FILE *f = fopen(path, \"wb\");\n"
          "  if (!f || fwrite(p, 1, n, f) != n || fclose(f)) {\n"
          "    fprintf(stderr, \"cannot write %%s\\n\", path);\n"
          "    exit(1);\n"
          "  }\n"
          "}\n\n");
  for (int i = 0; i < n; i++) {
    for (int r = 0; r < NROUND; r++) {
      Model *m = &ms[i];
      if (!m->compiled[r])
        continue;
      const char *P = m->prefix[r], *U = upper(P);
      fprintf(f, "static int run_%s(void) {\n  struct %s_inputs in;\n"
                 "  struct %s_outputs out;\n  void *ws = malloc(%s_WORKSPACE_SIZE + 1);\n"
                 "  int rc;\n",
              P, P, P, U);
      for (int k = 0; k < m->ninputs; k++)
        fprintf(f, "  in.%s = load(\"%s/in/%s_%d.bin\", %s_INPUT%d_SIZE);\n",
                m->er[r].in_names[k], tmp_dir, m->stem, k, U, k);
      fprintf(f, "  out.%s = malloc(%s_OUTPUT0_SIZE);\n", m->er[r].out_names[0], U);
      fprintf(f, "  rc = %s_run(&in, &out, ws);\n", P);
      fprintf(f, "  if (rc == 0)\n    save(\"%s/out/%s.bin\", out.%s, %s_OUTPUT0_SIZE);\n",
              tmp_dir, P, m->er[r].out_names[0], U);
      for (int k = 0; k < m->ninputs; k++)
        fprintf(f, "  free((void *)in.%s);\n", m->er[r].in_names[k]);
      fprintf(f, "  free(out.%s);\n  free(ws);\n  return rc;\n}\n\n", m->er[r].out_names[0]);
    }
  }
  fputs("int main(void) {\n", f);
  for (int i = 0; i < n; i++)
    for (int r = 0; r < NROUND; r++)
      if (ms[i].compiled[r])
        fprintf(f, "  printf(\"%s %%d\\n\", run_%s());\n", ms[i].prefix[r], ms[i].prefix[r]);
  fputs("  return 0;\n}\n", f);
}

/* Builds main.c, one unity file per rounding (every runner and weights
 * file of that rounding) and links them with this build's runtime
 * objects.  Returns the make status. */
static int build(Model *ms, int n, const char *first_dir) {
  const char *dir = tmp_dir;
  FILE *f = fopen(arena_printf("%s/main.c", dir), "w");
  write_harness(f, ms, n);
  fclose(f);
  for (int r = 0; r < NROUND; r++) {
    f = fopen(arena_printf("%s/unity_%s.c", dir, round_names[r]), "w");
    fprintf(f, "/* Every model compiled with --rounding %s. */\n", round_names[r]);
    for (int i = 0; i < n; i++)
      if (ms[i].compiled[r])
        for (int s = 0; s < ms[i].er[r].nsources; s++)
          if (!strstr(ms[i].er[r].sources[s], "runtime/"))
            fprintf(f, "#include \"%s/%s\"\n", ms[i].prefix[r], ms[i].er[r].sources[s]);
    fclose(f);
  }
  const char *build_dir = getenv("TINYAOT_BUILD");
  if (!build_dir || !*build_dir)
    build_dir = "build";
  if (build_dir[0] != '/') {
    char cwd[4096];
    if (getcwd(cwd, sizeof cwd))
      build_dir = arena_printf("%s/%s", cwd, build_dir);
  }
  const char *cflags = getenv("TINYAOT_CFLAGS");
  const char *objs = "";
  for (int i = 0; i < nruntime_files; i++) {
    const char *p = runtime_files[i].path;
    size_t len = strlen(p);
    if (len > 2 && !strcmp(p + len - 2, ".c") && !strncmp(p, "runtime/", 8))
      objs = arena_printf("%s \\\n  %s/%.*s.o", objs, build_dir, (int)(len - 2), p);
  }
  f = fopen(arena_printf("%s/Makefile", dir), "w");
  fprintf(f,
          "CFLAGS = -std=c99 -pedantic -Wall -Wextra -Werror -O1 %s "
          "-I%s -I%s/runtime/include\n"
          "RUNTIME =%s\n\n"
          "prog: main.o unity_single.o unity_double.o\n"
          "\t$(CC) $(CFLAGS) -o $@ $^ $(RUNTIME) -lm\n\n"
          "%%.o: %%.c\n\t$(CC) $(CFLAGS) -c -o $@ $<\n",
          cflags ? cflags : "", dir, first_dir, objs);
  fclose(f);
  fflush(stdout);
  int rc = system(arena_printf("make -s -j2 -C '%s' prog > '%s/make.log' 2>&1", dir, dir));
  return rc != -1 && WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/* ----------------------------------------------------------- compare */

/* Compares one model's output with its golden: how many differ, by how
 * much at most, and the first difference. */
static const char *compare(const Model *m, int r, size_t *ndiff, int64_t *maxdiff) {
  *ndiff = 0;
  *maxdiff = 0;
  const char *path = arena_printf("%s/out/%s.bin", tmp_dir, m->prefix[r]);
  FILE *f = fopen(path, "rb");
  if (!f)
    return "no output (see the run status above)";
  size_t es = m->out_dtype == DT_INT32 ? 4 : m->out_dtype == DT_INT16 ? 2 : 1;
  const char *first = NULL;
  size_t i = 0;
  unsigned char b[4];
  for (; fread(b, 1, es, f) == es; i++) {
    int64_t v = es == 4 ? (int32_t)((uint32_t)b[0] | (uint32_t)b[1] << 8 |
                                    (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24)
              : es == 2 ? (int16_t)(uint16_t)(b[0] | b[1] << 8)
                        : (int8_t)b[0];
    if (i >= m->ngolden)
      continue;
    int64_t d = v > m->golden[i] ? v - m->golden[i] : m->golden[i] - v;
    if (d) {
      (*ndiff)++;
      if (d > *maxdiff)
        *maxdiff = d;
      if (!first)
        first = arena_printf("first at %zu: expected %" PRId64 ", actual %" PRId64, i,
                             m->golden[i], v);
    }
  }
  fclose(f);
  if (i != m->ngolden)
    return arena_printf("%zu outputs, expected %zu", i, m->ngolden);
  return first ? first : "";
}

static bool is_off_by_one_model(const char *stem) {
  for (size_t k = 0; k < sizeof tflm_off_by_one / sizeof *tflm_off_by_one; k++)
    if (!strcmp(stem, tflm_off_by_one[k]))
      return true;
  return false;
}

int main(void) {
  const char *shared = test_shared_dir();
  if (!shared)
    return test_exit();
  const char *root = arena_printf("%s/models/tflm_seanet_int16", shared);
  tmp_dir = test_tmpdir("seanet");
  if (!tmp_dir)
    return test_exit();
  mkdir(arena_printf("%s/in", tmp_dir), 0777);
  mkdir(arena_printf("%s/out", tmp_dir), 0777);

  static Model ms[256];
  int n = 0;
  for (size_t k = 0; k < sizeof folders / sizeof *folders; k++)
    n += list_models(arena_printf("%s/%s", root, folders[k]), folders[k], ms + n, 256 - n);
  CHECK(n == 127, "the SEANet folder holds 127 one-op models (found %d)", n);

  /* Inputs, goldens, and both compilations. */
  const char *first_dir = NULL;
  int ncompiled[NROUND] = {0}, nready = 0;
  for (int i = 0; i < n; i++) {
    Model *m = &ms[i];
    const char *err = catch_errors(do_prepare, root, m, 0);
    if (err) {
      CHECK(0, "%s: the CSV inputs and golden fit the model: %s", m->stem, err);
      continue;
    }
    nready++;
    for (int r = 0; r < NROUND; r++) {
      m->prefix[r] = arena_printf("%c_%s", round_names[r][0], m->stem);
      err = catch_errors(do_compile, root, m, r);
      if (!err) {
        m->compiled[r] = true;
        ncompiled[r]++;
        if (!first_dir)
          first_dir = arena_printf("%s/%s", tmp_dir, m->prefix[r]);
      } else {
        CHECK(0, "%s compiles with --rounding %s: %s", m->stem, round_names[r], err);
      }
    }
  }
  CHECK(nready == n, "the CSV inputs and goldens of %d of the %d models fit them", nready, n);
  for (int r = 0; r < NROUND; r++)
    CHECK(ncompiled[r] == n, "all %d models compile with --rounding %s (%d do)", n,
          round_names[r], ncompiled[r]);
  if (!first_dir) {
    printf("# kept %s\n", tmp_dir);
    return test_exit();
  }

  int rc = build(ms, n, first_dir);
  if (!CHECK(rc == 0, "the %d generated runners build into one program (make exited "
                      "%d; %s/make.log)",
             ncompiled[0] + ncompiled[1], rc, tmp_dir)) {
    printf("# kept %s\n", tmp_dir);
    return test_exit();
  }
  fflush(stdout);
  rc = system(arena_printf("'%s/prog' > '%s/status.txt' 2> '%s/run.log'", tmp_dir, tmp_dir,
                           tmp_dir));
  CHECK(rc == 0, "the program runs every model (exit status %d; %s/run.log)", rc, tmp_dir);
  size_t nstatus;
  const char *status = arena_printf(
      "\n%s", (const char *)read_file(arena_printf("%s/status.txt", tmp_dir), &nstatus));

  int nequal[NROUND] = {0};
  for (int i = 0; i < n; i++) {
    Model *m = &ms[i];
    for (int r = 0; r < NROUND; r++) {
      if (!m->compiled[r])
        continue;
      const char *line = strstr(status, arena_printf("\n%s ", m->prefix[r]));
      int st = line ? atoi(line + strlen(m->prefix[r]) + 2) : -1;
      if (st != 0) {
        CHECK(0, "%s, --rounding %s: the runner returns TA_OK (it returned %d)", m->stem,
              round_names[r], st);
        continue;
      }
      size_t ndiff;
      int64_t maxdiff;
      const char *d = compare(m, r, &ndiff, &maxdiff);
      bool off = roundings[r] == TA_ROUND_DOUBLE && is_off_by_one_model(m->stem);
      if (!off) {
        nequal[r] += !*d;
        CHECK(!*d, "%s, --rounding %s: all %zu outputs equal TFLite's golden%s%s", m->stem,
              round_names[r], m->ngolden, *d ? ": " : "",
              *d ? arena_printf("%zu differ, by up to %" PRId64 "; %s", ndiff, maxdiff, d)
                 : "");
      } else {
        CHECK(ndiff > 0 && maxdiff == 1 && !strstr(d, "outputs, expected"),
              "%s, --rounding double: outputs differ from TFLite's golden by at most 1, "
              "as TFLite Micro's (%zu of %zu differ, by up to %" PRId64 "%s%s)",
              m->stem, ndiff, m->ngolden, maxdiff, *d ? "; " : "", d);
      }
    }
  }
  CHECK(nequal[0] == n, "--rounding single: %d of the %d models equal TFLite's goldens",
        nequal[0], n);
  CHECK(nequal[1] == n - 3, "--rounding double: %d of the other %d models equal them",
        nequal[1], n - 3);
  return test_end(tmp_dir, "outputs");
}
