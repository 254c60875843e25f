/*
 * The vertical slice on real models: for each model, `tinyaot run`
 * compiles it once, builds the generated C with the host compiler (with
 * $TINYAOT_CFLAGS: the sanitizers in the san pass) and runs every golden
 * case in one process; the outputs must equal TensorFlow Lite Micro's
 * goldens (../shared/goldens, made by TFLM's reference kernels) byte for
 * byte.  case0 also dumps every tensor; each must equal TFLM's dump, and
 * on a mismatch the check names the first op (in model order) whose
 * output differs, with the first differing byte.
 */
#define _POSIX_C_SOURCE 200809L
#include "test.h"
#include "tinyaot.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *const models[] = {
    "kws_ref_model",      "ds_cnn_s_int8",  "vww_96_int8",
    "person_detect_int8", "resnet8_int8",   "ad01_int8",
    "micro_speech_int8",  "hello_world_int8", "simple_add_int8",
    /* PAD, TRANSPOSE, MEAN, MUL, RESIZE_NEAREST_NEIGHBOR, DEQUANTIZE */
    "mcunet_vww_80_int8_floatio", "mcunet_detection_fpn_int8_floatio",
    "micronet_vww2_50_int8", "micronet_ad_small_int8",
    "miniresnetv2_1stacks_64x50_int8", "yamnet_256_64x96_int8",
};
static const char *const cases[] = {"case0", "case1", "case2", "person",
                                    "no_person"};
#define NCASES (int)(sizeof cases / sizeof *cases)

static bool exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

/* Reads a whole file with malloc; NULL when it cannot. */
static uint8_t *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 1 << 16, len = 0;
  uint8_t *buf = malloc(cap);
  size_t got;
  while ((got = fread(buf + len, 1, cap - len, f)) > 0) {
    len += got;
    if (len == cap)
      buf = realloc(buf, cap *= 2);
  }
  fclose(f);
  *n = len;
  return buf;
}

/* "" when the files are equal, else the first difference. */
static const char *compare(const char *expected, const char *actual) {
  size_t ne, na;
  uint8_t *e = slurp(expected, &ne), *a = slurp(actual, &na);
  const char *r = "";
  if (!e)
    r = arena_printf("cannot read %s", expected);
  else if (!a)
    r = arena_printf("no output %s", actual);
  else if (ne != na)
    r = arena_printf("%zu bytes, expected %zu", na, ne);
  else
    for (size_t i = 0; i < ne; i++)
      if (e[i] != a[i]) {
        r = arena_printf("first mismatch at byte %zu: expected %d, actual %d "
                         "(as int8)",
                         i, (int8_t)e[i], (int8_t)a[i]);
        break;
      }
  free(e);
  free(a);
  return r;
}

static const char *quote(const char *s) {
  const char *q = "'";
  for (; *s; s++)
    q = *s == '\'' ? arena_printf("%s'\\''", q) : arena_printf("%s%c", q, *s);
  return arena_printf("%s'", q);
}

/* Runs every golden case of model `name` compiled with `opts`. */
static void test_model(const char *shared, const char *tinyaot,
                       const char *tmp, const char *name, const char *opts) {
  static int nth;
  const char *model = arena_printf("%s/models/%s.tflite", shared, name);
  const char *gold = arena_printf("%s/goldens/%s", shared, name);
  size_t size;
  uint8_t *buf = read_file(model, &size);
  Graph *g = read_tflite(model, buf, size);
  verify(g);

  const char *out = arena_printf("%s/%s.%d", tmp, name, nth++);
  const char *dump = arena_printf("%s/dump", out);
  mkdir(out, 0777);
  const char *cmd = arena_printf("%s run %s --dump-tensors %s %s", quote(tinyaot),
                                 quote(model), quote(dump), opts);
  if (*opts)
    name = arena_printf("%s (%s)", name, opts);
  bool have[NCASES] = {false};
  int nruns = 0;
  for (int c = 0; c < NCASES; c++) {
    const char *dir = arena_printf("%s/%s", gold, cases[c]);
    if (!exists(arena_printf("%s/input0.bin", dir)))
      continue;
    have[c] = true;
    nruns++;
    for (int i = 0; i < g->ninputs; i++)
      cmd = arena_printf("%s -i %s", cmd, quote(arena_printf("%s/input%d.bin", dir, i)));
    for (int i = 0; i < g->noutputs; i++)
      cmd = arena_printf("%s -o %s", cmd,
                         quote(arena_printf("%s/%s.output%d.bin", out, cases[c], i)));
  }
  fflush(stdout);
  int rc = system(arena_printf("%s 2>&1", cmd));
  if (rc != -1 && WIFEXITED(rc))
    rc = WEXITSTATUS(rc);
  if (!CHECK(rc == 0, "%s compiles, builds and runs %d cases (tinyaot run "
                      "exited with %d)", name, nruns, rc))
    return;
  for (int c = 0; c < NCASES; c++) {
    if (!have[c])
      continue;
    const char *diff = "";
    int k;
    for (k = 0; k < g->noutputs && !*diff; k++)
      diff = compare(arena_printf("%s/%s/output%d.bin", gold, cases[c], k),
                     arena_printf("%s/%s.output%d.bin", out, cases[c], k));
    CHECK(!*diff, "%s %s: every output equals TFLM's golden bytes%s%s", name,
          cases[c], *diff ? arena_printf(": output%d: ", k - 1) : "", diff);
  }

  /* case0's intermediate tensors, in model order. */
  const char *tdir = arena_printf("%s/case0/tensors", gold);
  if (!exists(tdir))
    return;
  int ncompared = 0;
  const char *first = "";
  for (int i = 0; i < g->nops && !*first; i++) {
    const Op *op = &g->ops[i];
    for (int k = 0; k < op->noutputs && !*first; k++) {
      int t = op->outputs[k];
      const char *e = arena_printf("%s/t%d.bin", tdir, t);
      if (!exists(e))
        continue;
      const char *d = compare(e, arena_printf("%s/t%d.bin", dump, t));
      ncompared++;
      if (*d)
        first = arena_printf("op %d (%s) output t%d %s: %s", i,
                             op_display_name(g, i), t,
                             arena_printf("\"%.60s\"", g->tensors[t].name), d);
    }
  }
  CHECK(!*first, "%s case0: every intermediate tensor equals TFLM's dump "
                 "(%d compared)%s%s",
        name, ncompared, *first ? "; first difference: " : "", first);
}

int main(void) {
  const char *shared = test_shared_dir();
  if (!shared)
    return test_exit();
  const char *tinyaot = getenv("TINYAOT");
  if (!tinyaot || !*tinyaot)
    tinyaot = "build/tinyaot";
  char tmp[] = "/tmp/tinyaot-goldens-XXXXXX";
  if (!mkdtemp(tmp)) {
    CHECK(0, "a temporary folder can be made");
    return test_exit();
  }
  /* The check must be able to fail: two files differing at byte 3. */
  FILE *f1 = fopen(arena_printf("%s/a.bin", tmp), "wb");
  FILE *f2 = fopen(arena_printf("%s/b.bin", tmp), "wb");
  fwrite("\1\2\3\4\5", 1, 5, f1);
  fwrite("\1\2\3\377\5", 1, 5, f2);
  fclose(f1);
  fclose(f2);
  const char *d = compare(arena_printf("%s/a.bin", tmp), arena_printf("%s/b.bin", tmp));
  CHECK(strstr(d, "byte 3: expected 4, actual -1") != NULL,
        "the comparison names the first differing byte (got '%s')", d);

  for (size_t i = 0; i < sizeof models / sizeof *models; i++)
    test_model(shared, tinyaot, tmp, models[i], "");
  /* The other layouts give the same bytes. */
  test_model(shared, tinyaot, tmp, "kws_ref_model", "--io-in-workspace");
  test_model(shared, tinyaot, tmp, "resnet8_int8",
             "--pool sram:32k --pool ext --align 64");
  if (!test_failures)
    remove_tree(tmp);
  else
    printf("# outputs kept in %s\n", tmp);
  arena_reset();
  return test_exit();
}
