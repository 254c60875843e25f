/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ONNX's own operator conformance tests (../shared/onnx-node-tests: the
 * backend "node" tests, model.onnx plus TensorProto inputs and expected
 * outputs made by ONNX's reference implementation) through `tinyaot run`.
 *
 * Each test runs with its inputs as given (the .pb inputs converted to
 * raw bytes); when tinyaot refuses that, once more with
 * --constant-input for every input but the first (weights that ONNX
 * passes as graph inputs).  Then:
 *   passed   every output matches: integer and bool outputs bit-exactly,
 *            float outputs within |a - b| <= 1e-5 + 1e-3 |b| (ONNX's
 *            runner uses rtol 1e-3; the absolute part is 1e-5 instead of
 *            its 1e-7 because our kernels sum in another order);
 *   refused  tinyaot exits with status 1 and a message (an op, an
 *            attribute or a type it does not support) - counted, and the
 *            message printed as a comment;
 *   failed   anything else: a wrong answer, a crash, a missing output.
 * Counts per operator (run = not refused, passed, refused) end the output.
 *
 * make test runs every 8th test of MANIFEST.tsv (and every test of an
 * operator with fewer than 4); TINYAOT_ONNX_NODE_ALL=1 (make
 * test-onnx-node) runs all 708, TINYAOT_ONNX_NODE_MATCH=TEXT those whose
 * name contains TEXT.
 */
#define _POSIX_C_SOURCE 200809L
#include "model_test.h"

#include <math.h>

typedef struct {
  char op[64];
  int total, run, passed, refused, failed;
} OpCount;

static OpCount counts[256];
static int ncounts;

static OpCount *count_of(const char *op) {
  for (int i = 0; i < ncounts; i++)
    if (!strcmp(counts[i].op, op))
      return &counts[i];
  if (ncounts == 256)
    return &counts[255];
  OpCount *c = &counts[ncounts++];
  snprintf(c->op, sizeof c->op, "%s", op);
  return c;
}

/* Reads a .pb tensor with errors caught; false when it is unreadable. */
static bool load_pb(const char *path, const char **name, DType *dt, size_t *n,
                    const uint8_t **data) {
  jmp_buf jb;
  error_jmp = &jb;
  bool ok = false;
  if (!setjmp(jb)) {
    int nd;
    int64_t dims[MAX_DIMS];
    read_tensor_pb(path, name, dt, &nd, dims, data, n);
    ok = true;
  }
  error_jmp = NULL;
  return ok;
}

static bool write_bytes(const char *path, const uint8_t *p, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f)
    return false;
  bool ok = fwrite(p, 1, n, f) == n;
  return fclose(f) == 0 && ok;
}

/* Compares one output; "" when it matches, else the first mismatch. */
static const char *compare(DType dt, const uint8_t *e, size_t ne, const uint8_t *a, size_t na) {
  if (ne != na)
    return arena_printf("%zu bytes, expected %zu", na, ne);
  if (dt == DT_FLOAT32) {
    for (size_t i = 0; i < ne / 4; i++) {
      float x, y;
      memcpy(&x, e + 4 * i, 4);
      memcpy(&y, a + 4 * i, 4);
      bool ok = (isnan(x) && isnan(y)) || (isinf(x) && x == y) ||
                fabs((double)y - (double)x) <= 1e-5 + 1e-3 * fabs((double)x);
      if (!ok)
        return arena_printf("element %zu: expected %.9g, actual %.9g", i, (double)x, (double)y);
    }
    return "";
  }
  for (size_t i = 0; i < ne; i++)
    if (e[i] != a[i])
      return arena_printf("byte %zu: expected %u, actual %u", i, e[i], a[i]);
  return "";
}

/* First line of a file (the refusal message), for the comment. */
static const char *first_line(const char *path) {
  size_t n;
  uint8_t *b = slurp(path, &n);
  if (!b)
    return "";
  char *s = arena_printf("%.*s", (int)(n < 300 ? n : 300), (const char *)b);
  free(b);
  char *nl = strchr(s, '\n');
  if (nl)
    *nl = 0;
  return s;
}

static void run_test(const char *root, const char *tinyaot, const char *tmp, const char *name,
                     const char *op) {
  OpCount *c = count_of(op);
  c->total++;
  const char *dir = arena_printf("%s/%s", root, name);
  const char *model = arena_printf("%s/model.onnx", dir);
  const char *data = arena_printf("%s/test_data_set_0", dir);
  const char *work = arena_printf("%s/%s", tmp, name);
  mkdir(work, 0777);
  int nin = 0, nout = 0;
  while (file_exists(arena_printf("%s/input_%d.pb", data, nin)))
    nin++;
  while (file_exists(arena_printf("%s/output_%d.pb", data, nout)))
    nout++;
  const char *ins = "", *consts = "", *outs = "";
  for (int k = 0; k < nin; k++) {
    const char *pb = arena_printf("%s/input_%d.pb", data, k);
    DType dt;
    size_t n;
    const uint8_t *bytes;
    const char *pbname;
    const char *bin = arena_printf("%s/input_%d.bin", work, k);
    if (!load_pb(pb, &pbname, &dt, &n, &bytes)) {
      /* tinyaot reads the .pb as it reads the model: a type it lacks.
       * An input that is no TensorProto (an optional, a sequence) does
       * not parse as one; the model's own refusal names it better. */
      const char *why = error_message;
      const char *log = arena_printf("%s/inspect.txt", work);
      if (run_command(arena_printf("%s inspect %s > %s", quote(tinyaot), quote(model),
                                   quote(log))) == 1)
        why = first_line(log);
      c->refused++;
      printf("# refused %s: %s\n", name, why);
      return;
    }
    if (!write_bytes(bin, bytes, n)) {
      c->failed++;
      CHECK(0, "%s: input %d can be written to %s", name, k, bin);
      return;
    }
    ins = arena_printf("%s -i %s", ins, quote(bin));
    if (k > 0) {
      /* --constant-input wants the graph input's name: the .pb's name
       * field, which the node tests fill in. */
      consts = arena_printf("%s --constant-input %s", consts,
                            quote(arena_printf("%s=%s", pbname, pb)));
    }
  }
  for (int k = 0; k < nout; k++)
    outs = arena_printf("%s -o %s", outs, quote(arena_printf("%s/output_%d.bin", work, k)));
  const char *log = arena_printf("%s/log.txt", work);
  const char *cmd = arena_printf("%s run %s%s%s > %s", quote(tinyaot), quote(model), ins, outs,
                                 quote(log));
  int rc = run_command(cmd);
  if (rc == 1 && nin > 1) {
    const char *first = arena_printf(" -i %s", quote(arena_printf("%s/input_0.bin", work)));
    cmd = arena_printf("%s run %s%s%s%s > %s", quote(tinyaot), quote(model), first, consts, outs,
                       quote(log));
    rc = run_command(cmd);
  }
  if (rc == 1) {
    c->refused++;
    printf("# refused %s: %s\n", name, first_line(log));
    return;
  }
  c->run++;
  if (rc != 0) {
    c->failed++;
    CHECK(0, "%s runs (tinyaot exited with %d: %s)", name, rc, first_line(log));
    return;
  }
  const char *problem = "";
  for (int k = 0; k < nout && !*problem; k++) {
    DType dt;
    size_t ne, na;
    const uint8_t *e;
    const char *oname;
    if (!load_pb(arena_printf("%s/output_%d.pb", data, k), &oname, &dt, &ne, &e)) {
      problem = arena_printf("output %d: the expected tensor cannot be read", k);
      break;
    }
    uint8_t *a = slurp(arena_printf("%s/output_%d.bin", work, k), &na);
    const char *r = a ? compare(dt, e, ne, a, na) : "not written";
    if (*r)
      problem = arena_printf("output %d: %s", k, r);
    free(a);
  }
  if (*problem)
    c->failed++;
  else
    c->passed++;
  CHECK(!*problem, "%s (%s) matches ONNX's expected outputs%s%s", name, op,
        *problem ? ": " : "", problem);
}

int main(void) {
  const char *shared = test_shared_dir();
  if (!shared)
    return test_exit();
  static char root[4200], tmp[200];
  snprintf(root, sizeof root, "%s/onnx-node-tests", shared);
  const char *tinyaot = test_tinyaot();
  const char *all = getenv("TINYAOT_ONNX_NODE_ALL");
  bool every = all && !strcmp(all, "1");
  size_t n;
  uint8_t *manifest = slurp(arena_printf("%s/MANIFEST.tsv", root), &n);
  if (!CHECK(manifest != NULL, "%s/MANIFEST.tsv can be read", root))
    return test_exit();
  const char *t = test_tmpdir("onnx-node");
  if (!t)
    return test_exit();
  snprintf(tmp, sizeof tmp, "%s", t);
  char *text = arena_printf("%.*s", (int)n, (const char *)manifest);
  free(manifest);
  /* Operators with fewer than 4 tests always run all of them. */
  char *save = NULL;
  int line = 0, selected = 0;
  char *copy = arena_strdup(text);
  for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
    char test[256], op[64];
    if (line++ == 0 || sscanf(l, "%255s %63s", test, op) != 2)
      continue;
    count_of(op)->total++;
  }
  int few[256];
  for (int i = 0; i < ncounts; i++)
    few[i] = counts[i].total < 4, counts[i].total = 0;
  line = 0;
  for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
    char test[256], op[64];
    if (line++ == 0 || sscanf(l, "%255s %63s", test, op) != 2)
      continue;
    const char *match = getenv("TINYAOT_ONNX_NODE_MATCH");
    bool pick = match && *match ? strstr(test, match) != NULL
                                : every || (line % 8 == 2) || few[count_of(op) - counts];
    if (!pick)
      continue;
    selected++;
    run_test(root, tinyaot, tmp, test, op);
  }
  int run = 0, passed = 0, refused = 0, failed = 0;
  printf("# %-24s %5s %5s %6s %7s %6s\n", "operator", "tests", "run", "passed", "refused",
         "failed");
  for (int i = 0; i < ncounts; i++) {
    OpCount *c = &counts[i];
    if (!c->total)
      continue;
    printf("# %-24s %5d %5d %6d %7d %6d\n", c->op, c->total, c->run, c->passed, c->refused,
           c->failed);
    run += c->run, passed += c->passed, refused += c->refused, failed += c->failed;
  }
  printf("# all: %d tests, %d run, %d passed, %d refused, %d failed\n", selected, run, passed,
         refused, failed);
  CHECK(failed == 0, "no node test gives a wrong answer or crashes (%d of %d run passed, %d "
        "refused clearly)", passed, run, refused);
  return test_end(tmp, "outputs");
}
