/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cmp_tensors.c - compares two raw tensor files.
 *
 *   cmp_tensors DTYPE ATOL RTOL EXPECTED.bin ACTUAL.bin
 *
 * DTYPE is int8, uint8, int16, int32, int64, float32 or complex64 (raw
 * little-endian bytes, no header; complex64 compares its real and
 * imaginary parts as floats).  Integers must be equal bit for bit.  Floats pass
 * when |actual - expected| <= ATOL + RTOL * |expected| (NaN never
 * passes); ATOL = RTOL = 0 asks for identical values.
 *
 * Exit 0 when the files agree (prints nothing).  Exit 1 with one line on
 * stdout when they do not: the first mismatching index, the expected and
 * the actual value, how many elements differ and the largest difference.
 * Exit 2 for unreadable files or sizes that do not match.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 4096, len = 0;
  unsigned char *p = malloc(cap);
  for (;;) {
    if (!p) {
      fclose(f);
      return NULL;
    }
    len += fread(p + len, 1, cap - len, f);
    if (len < cap)
      break;
    cap *= 2;
    unsigned char *q = realloc(p, cap);
    if (!q)
      free(p);
    p = q;
  }
  int err = ferror(f);
  fclose(f);
  if (err) {
    free(p);
    return NULL;
  }
  *n = len;
  return p;
}

/* Element i as a double (integers up to 2^53 are exact; int64 beyond that
 * is compared by bits below anyway). */
static double value(const unsigned char *p, size_t i, const char *dt) {
  if (!strcmp(dt, "int8"))
    return (int8_t)p[i];
  if (!strcmp(dt, "uint8"))
    return p[i];
  if (!strcmp(dt, "int16")) {
    int16_t v;
    memcpy(&v, p + 2 * i, 2);
    return v;
  }
  if (!strcmp(dt, "int32")) {
    int32_t v;
    memcpy(&v, p + 4 * i, 4);
    return v;
  }
  if (!strcmp(dt, "int64")) {
    int64_t v;
    memcpy(&v, p + 8 * i, 8);
    return (double)v;
  }
  float v;
  memcpy(&v, p + 4 * i, 4);
  return v;
}

static size_t elem_size(const char *dt) {
  if (!strcmp(dt, "int8") || !strcmp(dt, "uint8"))
    return 1;
  if (!strcmp(dt, "int16"))
    return 2;
  if (!strcmp(dt, "int32") || !strcmp(dt, "float32") || !strcmp(dt, "complex64"))
    return 4; /* complex64: one float of each (re, im) pair */
  if (!strcmp(dt, "int64"))
    return 8;
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 6) {
    fprintf(stderr, "usage: cmp_tensors DTYPE ATOL RTOL EXPECTED.bin ACTUAL.bin\n");
    return 2;
  }
  const char *dt = argv[1];
  double atol = atof(argv[2]), rtol = atof(argv[3]);
  size_t es = elem_size(dt);
  if (!es) {
    printf("unknown dtype %s\n", dt);
    return 2;
  }
  size_t ne = 0, na = 0;
  unsigned char *e = slurp(argv[4], &ne), *a = slurp(argv[5], &na);
  if (!e || !a) {
    printf("cannot read %s\n", !e ? argv[4] : argv[5]);
    return 2;
  }
  if (ne != na || ne % es) {
    printf("%s has %zu bytes, %s has %zu (%s elements: %zu bytes each)\n", argv[4], ne,
           argv[5], na, dt, es);
    return 2;
  }
  int is_float = !strcmp(dt, "float32") || !strcmp(dt, "complex64");
  size_t n = ne / es, bad = 0, first = 0;
  double maxdiff = 0;
  for (size_t i = 0; i < n; i++) {
    int ok;
    double x = value(e, i, dt), y = value(a, i, dt);
    if (is_float) {
      double d = fabs(y - x);
      ok = !isnan(x) && !isnan(y) && d <= atol + rtol * fabs(x);
      if (d > maxdiff || isnan(d))
        maxdiff = d;
    } else {
      ok = !memcmp(e + i * es, a + i * es, es);
      if (fabs(y - x) > maxdiff)
        maxdiff = fabs(y - x);
    }
    if (!ok && bad++ == 0)
      first = i;
  }
  if (bad) {
    printf("index %zu: expected %.9g, actual %.9g (%zu of %zu differ, max |diff| %.9g",
           first, value(e, first, dt), value(a, first, dt), bad, n, maxdiff);
    if (is_float)
      printf(", tolerance %g + %g*|expected|", atol, rtol);
    printf(")\n");
  }
  free(e);
  free(a);
  return bad ? 1 : 0;
}
