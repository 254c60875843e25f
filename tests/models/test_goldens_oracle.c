/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The legacy uint8 models, whose goldens TFLite Micro cannot make: they
 * come from TFLite's builtin kernels (../shared/oracle, tfjs-tflite with
 * XNNPACK off; each manifest's `reference` says so).  `tinyaot run`
 * compiles each model, builds the generated C with the host compiler
 * ($TINYAOT_CFLAGS) and runs every case; every output byte must equal
 * the golden's.
 *
 * They run with --rounding single, TFLite's arithmetic, as the issue of
 * reproducing TFLite's bytes asks.  TFLite's builtin uint8 kernels
 * requantize with gemmlowp's double rounding (SaturatingRoundingDoubling-
 * HighMul, then RoundingDivideByPOT; compiler/lower.c, op_rounding()),
 * so the default rounding gives the same bytes: mobilenet_v1's case0
 * checks that too.
 *
 * deeplabv3 (513x513) also compares, per case, the uint8 logits before
 * the two RESIZE_BILINEAR (tensor 182) and for case2 the logits ARG_MAX
 * reads (tensor 184), from --dump-tensors.  It takes a few seconds
 * plain; under the sanitizers only case2 runs (the zero-point image,
 * the case whose class map is not all background).
 */
#define _POSIX_C_SOURCE 200809L
#include "model_test.h"

static const char *const cases[] = {"case0", "case1", "case2"};
#define NCASES 3

/* "" when the files are equal, else the first difference (and how many
 * bytes differ). */
static const char *compare(const char *expected, const char *actual) {
  uint8_t *e, *a;
  size_t n;
  const char *r = slurp_pair(expected, actual, &e, &a, &n);
  if (!*r) {
    size_t first = n, ndiff = 0;
    for (size_t i = 0; i < n; i++)
      if (e[i] != a[i]) {
        if (first == n)
          first = i;
        ndiff++;
      }
    if (ndiff)
      r = arena_printf("%zu of %zu bytes differ, the first at byte %zu: expected %u, "
                       "actual %u",
                       ndiff, n, first, e[first], a[first]);
  }
  free(e);
  free(a);
  return r;
}

/* `tinyaot run MODEL OPTIONS` on the cases in `which` (NULL: all),
 * outputs to OUT/<case>.output<k>.bin; checks every output. */
static void test_model(const char *shared, const char *tinyaot, const char *tmp,
                       const char *name, const char *options, const char *what,
                       const bool *which) {
  const char *model = arena_printf("%s/models/%s.tflite", shared, name);
  const char *gold = arena_printf("%s/goldens/%s", shared, name);
  size_t size;
  uint8_t *buf = read_file(model, &size);
  Graph *g = read_tflite(model, buf, size);
  const char *out = arena_printf("%s/%s%s", tmp, name, *options ? "" : "-default");
  mkdir(out, 0777);
  const char *cmd = arena_printf("%s run %s %s", quote(tinyaot), quote(model), options);
  for (int c = 0; c < NCASES; c++) {
    if (which && !which[c])
      continue;
    cmd = add_io(cmd, g, arena_printf("%s/%s", gold, cases[c]),
                 arena_printf("%s/%s.output", out, cases[c]));
  }
  int rc = run_command(cmd);
  if (!CHECK(rc == 0, "%s compiles, builds and runs (%s; tinyaot run exited with %d)", name,
             what, rc))
    return;
  for (int c = 0; c < NCASES; c++) {
    if (which && !which[c])
      continue;
    const char *diff = "";
    int k;
    for (k = 0; k < g->noutputs && !*diff; k++)
      diff = compare(arena_printf("%s/%s/output%d.bin", gold, cases[c], k),
                     arena_printf("%s/%s.output%d.bin", out, cases[c], k));
    CHECK(!*diff, "%s %s (%s): every output equals TFLite's golden bytes%s%s", name,
          cases[c], what, *diff ? arena_printf(": output%d: ", k - 1) : "", diff);
  }
}

/* deeplabv3: one run per case with --dump-tensors; output0, the logits
 * before the resizes (t182) and, for case2, after them (t184). */
static void test_deeplab(const char *shared, const char *tinyaot, const char *tmp,
                         const char *options, bool all_cases) {
  const char *name = "deeplabv3_mnv2_dm05_pascal_quant";
  const char *model = arena_printf("%s/models/%s.tflite", shared, name);
  const char *gold = arena_printf("%s/goldens/%s", shared, name);
  if (!all_cases)
    printf("# %s: case2 only in this pass (the sanitizers make the 513x513 model slow); "
           "the plain pass runs all three cases\n",
           name);
  for (int c = all_cases ? 0 : 2; c < NCASES; c++) {
    const char *dir = arena_printf("%s/%s-%s", tmp, name, cases[c]);
    const char *dump = arena_printf("%s/dump", dir);
    mkdir(dir, 0777);
    const char *gc = arena_printf("%s/%s", gold, cases[c]);
    int rc = run_command(arena_printf("%s run %s %s --dump-tensors %s -i %s -o %s",
                                      quote(tinyaot), quote(model), options, quote(dump),
                                      quote(arena_printf("%s/input0.bin", gc)),
                                      quote(arena_printf("%s/output0.bin", dir))));
    if (!CHECK(rc == 0, "%s %s compiles, builds and runs (tinyaot run exited with %d)", name,
               cases[c], rc))
      continue;
    const char *d = compare(arena_printf("%s/output0.bin", gc),
                            arena_printf("%s/output0.bin", dir));
    CHECK(!*d, "%s %s: the int64 class map equals TFLite's golden bytes%s%s", name, cases[c],
          *d ? ": " : "", d);
    d = compare(arena_printf("%s/logits_pre_resize.bin", gc),
                arena_printf("%s/t182.bin", dump));
    CHECK(!*d, "%s %s: the uint8 logits before RESIZE_BILINEAR (t182) equal TFLite's%s%s",
          name, cases[c], *d ? ": " : "", d);
    if (file_exists(arena_printf("%s/logits.bin", gc))) {
      d = compare(arena_printf("%s/logits.bin", gc), arena_printf("%s/t184.bin", dump));
      CHECK(!*d, "%s %s: the 513x513 uint8 logits ARG_MAX reads (t184) equal TFLite's%s%s",
            name, cases[c], *d ? ": " : "", d);
    }
    remove_tree(dir);
  }
}

int main(void) {
  const char *shared = test_shared_dir();
  if (!shared)
    return test_exit();
  const char *tinyaot = test_tinyaot();
  const char *pass = getenv("TINYAOT_PASS");
  bool san = pass && !strcmp(pass, "san");
  const char *tmp = test_tmpdir("oracle");
  if (!tmp)
    return test_exit();
  const char *single = "--rounding single";
  test_model(shared, tinyaot, tmp, "split_concat_uint8", single, single, NULL);
  test_model(shared, tinyaot, tmp, "mobilenet_v1_025_128_quant", single, single, NULL);
  test_model(shared, tinyaot, tmp, "mobilenet_v2_100_224_quant", single, single, NULL);
  if (!san) {
    const bool only0[NCASES] = {true, false, false};
    test_model(shared, tinyaot, tmp, "mobilenet_v1_025_128_quant", "", "default rounding",
               only0);
  }
  test_deeplab(shared, tinyaot, tmp, single, !san);
  return test_end(tmp, "outputs");
}
