/* SPDX-License-Identifier: Apache-2.0 */
/*
 * model_test.h - what the tests that run `tinyaot run` (or a generated
 * program) on files share: reading files whole, comparing them byte for
 * byte, quoting for the shell, a run's -i/-o arguments, running a
 * command, the temporary folder, the end of main, and how far float
 * outputs are from their goldens.  A program including it defines
 * _POSIX_C_SOURCE 200809L first (mkdtemp).
 */
#ifndef TEST_MODEL_TEST_H
#define TEST_MODEL_TEST_H

#include "test.h"
#include "tinyaot.h"

#include <math.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The compiler binary: $TINYAOT, else build/tinyaot. */
static inline const char *test_tinyaot(void) {
  const char *tinyaot = getenv("TINYAOT");
  return tinyaot && *tinyaot ? tinyaot : "build/tinyaot";
}

/* Makes /tmp/tinyaot-<name>-XXXXXX; NULL after a failed check. */
static inline char *test_tmpdir(const char *name) {
  char *tmp = arena_printf("/tmp/tinyaot-%s-XXXXXX", name);
  if (!mkdtemp(tmp)) {
    CHECK(0, "a temporary folder can be made");
    return NULL;
  }
  return tmp;
}

/* The end of main: removes `tmp` when every check passed, else says
 * that the `what` are kept there; returns the exit status. */
static inline int test_end(const char *tmp, const char *what) {
  if (!test_failures)
    remove_tree(tmp);
  else
    printf("# %s kept in %s\n", what, tmp);
  arena_reset();
  return test_exit();
}

static inline bool file_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

/* Reads a whole file with malloc; NULL (and *n = 0) when it cannot. */
static inline uint8_t *slurp(const char *path, size_t *n) {
  *n = 0;
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 1 << 16, len = 0, got;
  uint8_t *buf = malloc(cap);
  while ((got = fread(buf + len, 1, cap - len, f)) > 0) {
    len += got;
    if (len == cap)
      buf = realloc(buf, cap *= 2);
  }
  fclose(f);
  *n = len;
  return buf;
}

/* Reads both files: "" when they have the same size *n (then *e and *a
 * hold them), else what keeps them from being compared.  The caller
 * frees *e and *a either way. */
static inline const char *slurp_pair(const char *expected, const char *actual, uint8_t **e,
                                     uint8_t **a, size_t *n) {
  size_t ne, na;
  *e = slurp(expected, &ne);
  *a = slurp(actual, &na);
  *n = ne;
  if (!*e)
    return arena_printf("cannot read %s", expected);
  if (!*a)
    return arena_printf("no output %s", actual);
  if (ne != na)
    return arena_printf("%zu bytes, expected %zu", na, ne);
  return "";
}

/* "" when the n bytes are equal, else the first mismatch. */
static inline const char *first_byte_mismatch(const uint8_t *e, const uint8_t *a, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (e[i] != a[i])
      return arena_printf("first mismatch at byte %zu: expected %d, actual %d (as int8)", i,
                          (int8_t)e[i], (int8_t)a[i]);
  return "";
}

/* "" when the files are equal, else the first difference. */
static inline const char *compare_files(const char *expected, const char *actual) {
  uint8_t *e, *a;
  size_t n;
  const char *r = slurp_pair(expected, actual, &e, &a, &n);
  if (!*r)
    r = first_byte_mismatch(e, a, n);
  free(e);
  free(a);
  return r;
}

/* `s` in single quotes for the shell. */
static inline const char *quote(const char *s) {
  const char *q = "'";
  for (; *s; s++)
    q = *s == '\'' ? arena_printf("%s'\\''", q) : arena_printf("%s%c", q, *s);
  return arena_printf("%s'", q);
}

/* Runs `cmd` (stderr to stdout); its exit status. */
static inline int run_command(const char *cmd) {
  fflush(stdout);
  int rc = system(arena_printf("%s 2>&1", cmd));
  if (rc != -1 && WIFEXITED(rc))
    rc = WEXITSTATUS(rc);
  return rc;
}

/* Appends `tinyaot run`'s -i/-o for one inference: inputs from
 * in_dir/input<i>.bin, outputs to out_prefix<k>.bin. */
static inline const char *add_io(const char *cmd, const Graph *g, const char *in_dir,
                                 const char *out_prefix) {
  for (int i = 0; i < g->ninputs; i++)
    cmd = arena_printf("%s -i %s", cmd, quote(arena_printf("%s/input%d.bin", in_dir, i)));
  for (int i = 0; i < g->noutputs; i++)
    cmd = arena_printf("%s -o %s", cmd, quote(arena_printf("%s%d.bin", out_prefix, i)));
  return cmd;
}

/* A file of float32 values, *n of them; NULL when it cannot be read. */
static inline float *slurp_f32(const char *path, size_t *n) {
  float *buf = (float *)slurp(path, n);
  *n /= sizeof *buf;
  return buf;
}

/* How a float output's error is measured against its golden b:
 *   FLOAT_REL_EACH     max_i |a_i - b_i| / max(|b_i|, 1e-6)
 *   FLOAT_REL_LARGEST  max_i |a_i - b_i| / max_i |b_i|  (1 when b is all 0) */
typedef enum { FLOAT_REL_EACH, FLOAT_REL_LARGEST } FloatMetric;

/* The largest error of a against e (n values; NaN counts as infinite),
 * and at *at where it is. */
static inline double float_error(const float *a, const float *e, size_t n, FloatMetric m,
                                 size_t *at) {
  double scale = 0, worst = 0;
  for (size_t i = 0; i < n && m == FLOAT_REL_LARGEST; i++)
    scale = fmax(scale, fabs((double)e[i]));
  scale = scale > 0 ? scale : 1;
  *at = 0;
  for (size_t i = 0; i < n; i++) {
    double b = e[i], d = fabs((double)a[i] - b) / (m == FLOAT_REL_EACH ? fmax(fabs(b), 1e-6) : scale);
    if (!(d <= worst)) { /* also catches NaN */
      worst = isnan(d) ? INFINITY : d;
      *at = i;
    }
  }
  return worst;
}

/* The largest error over every output of every case: the goldens are
 * gold/<case>/output<k>.bin, ours out/<case>.output<k>.bin (add_io's
 * names).  *where tells where it is; *problem is set, and the result is
 * infinite, when an output cannot be read or its size differs. */
static inline double worst_float_error(const Graph *g, const char *gold, const char *out,
                                       const char *const *cases, int ncases, FloatMetric m,
                                       const char **where, const char **problem) {
  double worst = 0;
  *where = "";
  *problem = "";
  for (int c = 0; c < ncases && !**problem; c++)
    for (int k = 0; k < g->noutputs && !**problem; k++) {
      size_t ne, na, at;
      float *e = slurp_f32(arena_printf("%s/%s/output%d.bin", gold, cases[c], k), &ne);
      float *a = slurp_f32(arena_printf("%s/%s.output%d.bin", out, cases[c], k), &na);
      if (!e || !a || ne != na || ne == 0) {
        *problem = arena_printf("%s output%d: cannot read it, or its size differs", cases[c], k);
        worst = INFINITY;
      } else {
        double d = float_error(a, e, ne, m, &at);
        if (!(d <= worst)) {
          worst = d;
          *where = arena_printf("%s output%d[%zu]: expected %.9g, actual %.9g", cases[c], k, at,
                                (double)e[at], (double)a[at]);
        }
      }
      free(e);
      free(a);
    }
  return worst;
}

#endif
