/* SPDX-License-Identifier: Apache-2.0 */
/*
 * compare.c - compares one output file with its golden (host tool).
 *
 *   compare DTYPE ATOL RTOL EXPECTED.bin ACTUAL.bin
 *   compare --relative TOL EXPECTED.bin ACTUAL.bin
 *
 * Integer dtypes must match bit for bit; float32 elements may differ by
 * ATOL + RTOL * |expected|.  Prints nothing and exits 0 when they agree;
 * otherwise prints "element I: expected E, actual A (N of M differ)" for
 * the first mismatch (or the size difference) and exits 1.
 *
 * --relative (float32): the ONNX models' tolerance, as
 * tests/models/test_onnx_models.c states it: the relative error
 * max_i |a_i - e_i| / max_i |e_i| (relative to the output's largest
 * magnitude) must not exceed TOL.  Always prints "relative error R"
 * (R printed with %.3g; "inf" when the expected output is all zeros and
 * the actual one is not), then, when R > TOL or an element is NaN in one
 * file only, ": element I: expected E, actual A" for the element of the
 * largest difference, and exits 1.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    printf("cannot open %s", path);
    exit(1);
  }
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *buf = malloc(len > 0 ? (size_t)len : 1);
  if (!buf || fread(buf, 1, (size_t)len, f) != (size_t)len) {
    printf("cannot read %s", path);
    exit(1);
  }
  fclose(f);
  *n = (size_t)len;
  return buf;
}

/* Element i of a little-endian buffer as a double (exact for every
 * integer dtype up to 32 bits; 64-bit ones are printed as integers). */
static int elem_size(const char *dt) {
  if (!strcmp(dt, "int8") || !strcmp(dt, "uint8") || !strcmp(dt, "bool"))
    return 1;
  if (!strcmp(dt, "int16") || !strcmp(dt, "uint16"))
    return 2;
  if (!strcmp(dt, "int32") || !strcmp(dt, "uint32") || !strcmp(dt, "float32"))
    return 4;
  if (!strcmp(dt, "int64") || !strcmp(dt, "uint64"))
    return 8;
  return 0;
}

static void show(const char *dt, const unsigned char *p, char *out, size_t n) {
  uint64_t u = 0;
  int sz = elem_size(dt);
  for (int b = sz - 1; b >= 0; b--)
    u = u << 8 | p[b];
  if (!strcmp(dt, "float32")) {
    float f;
    uint32_t u32 = (uint32_t)u;
    memcpy(&f, &u32, 4);
    snprintf(out, n, "%.9g", f);
  } else if (dt[0] == 'u' || !strcmp(dt, "bool")) {
    snprintf(out, n, "%llu", (unsigned long long)u);
  } else {
    int shift = 64 - 8 * sz;
    snprintf(out, n, "%lld", (long long)((int64_t)(u << shift) >> shift));
  }
}

static int relative(double tol, const char *exp_path, const char *act_path) {
  size_t ne, na;
  unsigned char *e = slurp(exp_path, &ne), *a = slurp(act_path, &na);
  if (ne != na || ne % 4) {
    printf("size: expected %zu bytes, actual %zu", ne, na);
    return 1;
  }
  size_t n = ne / 4, worst = 0;
  double top = 0, diff = 0;
  int nan_alone = 0;
  for (size_t i = 0; i < n; i++) {
    float fe, fa;
    memcpy(&fe, e + 4 * i, 4);
    memcpy(&fa, a + 4 * i, 4);
    if (isnan(fe) || isnan(fa)) {
      if (isnan(fe) != isnan(fa) && !nan_alone) {
        nan_alone = 1;
        worst = i;
      }
      continue;
    }
    if (fabs((double)fe) > top)
      top = fabs((double)fe);
    double d = fabs((double)fa - (double)fe);
    if (d > diff && !nan_alone) {
      diff = d;
      worst = i;
    }
  }
  double r = top > 0 ? diff / top : (diff > 0 ? INFINITY : 0);
  printf("relative error %.3g", r);
  if (r <= tol && !nan_alone)
    return 0;
  char se[64], sa[64];
  show("float32", e + 4 * worst, se, sizeof se);
  show("float32", a + 4 * worst, sa, sizeof sa);
  printf(": element %zu: expected %s, actual %s", worst, se, sa);
  return 1;
}

int main(int argc, char **argv) {
  if (argc == 5 && !strcmp(argv[1], "--relative"))
    return relative(atof(argv[2]), argv[3], argv[4]);
  if (argc != 6) {
    fprintf(stderr, "usage: compare DTYPE ATOL RTOL EXPECTED ACTUAL\n"
                    "       compare --relative TOL EXPECTED ACTUAL\n");
    return 2;
  }
  const char *dt = argv[1];
  double atol = atof(argv[2]), rtol = atof(argv[3]);
  int sz = elem_size(dt);
  if (!sz) {
    printf("unknown dtype %s", dt);
    return 1;
  }
  size_t ne, na;
  unsigned char *e = slurp(argv[4], &ne), *a = slurp(argv[5], &na);
  if (ne != na) {
    printf("size: expected %zu bytes, actual %zu", ne, na);
    return 1;
  }
  size_t n = ne / (size_t)sz, bad = 0, first = 0;
  for (size_t i = 0; i < n; i++) {
    const unsigned char *pe = e + i * (size_t)sz, *pa = a + i * (size_t)sz;
    int same;
    if (!strcmp(dt, "float32")) {
      float fe, fa;
      memcpy(&fe, pe, 4);
      memcpy(&fa, pa, 4);
      same = (isnan(fe) && isnan(fa)) ||
             fabs((double)fa - (double)fe) <= atol + rtol * fabs((double)fe);
    } else {
      same = !memcmp(pe, pa, (size_t)sz);
    }
    if (!same && bad++ == 0)
      first = i;
  }
  if (bad) {
    char se[64], sa[64];
    show(dt, e + first * (size_t)sz, se, sizeof se);
    show(dt, a + first * (size_t)sz, sa, sizeof sa);
    printf("element %zu: expected %s, actual %s (%zu of %zu differ)", first, se, sa, bad, n);
    return 1;
  }
  return 0;
}
