/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test.h - the smallest test harness.
 *
 * A test program prints one line per check:
 *   ok - <what holds, as a sentence>
 *   not ok - <what should hold>: <first mismatch, expected, actual>
 *   skip - <why> (only where a required input is missing and
 *          TINYAOT_REQUIRE_SHARED is not set)
 * tests/run.sh counts these lines over every test program.
 */
#ifndef TEST_H
#define TEST_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int test_failures;

/* CHECK(cond, fmt, ...): one check; the message reads like a sentence. */
#define CHECK(cond, ...) test_report((cond) ? 1 : 0, __FILE__, __LINE__, __VA_ARGS__)

static inline int test_report(int ok, const char *file, int line,
                              const char *fmt, ...) {
  va_list ap;
  printf(ok ? "ok - " : "not ok - ");
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  if (!ok) {
    printf(" (%s:%d)", file, line);
    test_failures++;
  }
  printf("\n");
  fflush(stdout);
  return ok;
}

/* Where the shared models and goldens are: $TINYAOT_SHARED, else
 * ../shared.  Returns NULL (after a loud skip line, or a failure when
 * TINYAOT_REQUIRE_SHARED=1) when the folder is missing. */
static inline const char *test_shared_dir(void) {
  static char buf[4096];
  const char *dir = getenv("TINYAOT_SHARED");
  if (!dir || !*dir)
    dir = "../shared";
  snprintf(buf, sizeof buf, "%s/models/SHA256SUMS", dir);
  FILE *f = fopen(buf, "r");
  if (f) {
    fclose(f);
    snprintf(buf, sizeof buf, "%s", dir);
    return buf;
  }
  const char *req = getenv("TINYAOT_REQUIRE_SHARED");
  if (req && !strcmp(req, "1")) {
    printf("not ok - the shared models are at %s (TINYAOT_REQUIRE_SHARED=1)\n", dir);
    test_failures++;
  } else {
    printf("skip - SHARED MODELS MISSING: %s has no models/; set TINYAOT_SHARED\n", dir);
  }
  return NULL;
}

static inline int test_exit(void) { return test_failures ? 1 : 0; }

#endif
