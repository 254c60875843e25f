/* SPDX-License-Identifier: Apache-2.0 */
/*
 * model_test.h - what the tests that run `tinyaot run` (or a generated
 * program) on files share: reading files whole, comparing them byte for
 * byte, quoting for the shell, a run's -i/-o arguments, running a
 * command, the temporary folder and the end of main.  A program including it defines
 * _POSIX_C_SOURCE 200809L first (mkdtemp).
 */
#ifndef TEST_MODEL_TEST_H
#define TEST_MODEL_TEST_H

#include "test.h"
#include "tinyaot.h"

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

#endif
