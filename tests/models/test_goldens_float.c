/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The float models: `tinyaot run` compiles each one, builds the generated
 * C with the host compiler ($TINYAOT_CFLAGS) and runs every golden case;
 * every float output must be within a relative error of 1e-5 of the
 * golden, where for an output a and its golden b
 *
 *   relative error = |a - b| / max(|b|, 1e-6)
 *
 * (so values below 1e-6 in magnitude are held to 1e-11 absolute).  The
 * check reports the largest relative error over all outputs and cases.
 *
 * Goldens: TFLite Micro's reference kernels (vww_96_float, resnet8_float,
 * ad01_fp32, hello_world_float; our float kernels keep TFLM's summation
 * order, so they come out exact on x86-64) and TFLite's builtin kernels
 * for the hybrid kws_ref_model_float32 (int8-weight CONV_2D quantizing
 * its float input at run time; ../shared/goldens/README.md).
 */
#define _POSIX_C_SOURCE 200809L
#include "model_test.h"

#define TOLERANCE 1e-5

static const char *const models[] = {"vww_96_float", "resnet8_float", "ad01_fp32",
                                     "hello_world_float", "kws_ref_model_float32"};
static const char *const cases[] = {"case0", "case1", "case2"};
#define NCASES 3

static void test_model(const char *shared, const char *tinyaot, const char *tmp,
                       const char *name) {
  const char *model = arena_printf("%s/models/%s.tflite", shared, name);
  const char *gold = arena_printf("%s/goldens/%s", shared, name);
  size_t size;
  uint8_t *buf = read_file(model, &size);
  Graph *g = read_tflite(model, buf, size);
  const char *out = arena_printf("%s/%s", tmp, name);
  mkdir(out, 0777);
  const char *cmd = arena_printf("%s run %s", quote(tinyaot), quote(model));
  for (int c = 0; c < NCASES; c++)
    cmd = add_io(cmd, g, arena_printf("%s/%s", gold, cases[c]),
                 arena_printf("%s/%s.output", out, cases[c]));
  int rc = run_command(cmd);
  if (!CHECK(rc == 0, "%s compiles, builds and runs %d cases (tinyaot run exited with %d)",
             name, NCASES, rc))
    return;
  const char *where, *problem;
  double worst = worst_float_error(g, gold, out, cases, NCASES, FLOAT_REL_EACH, &where, &problem);
  if (*problem)
    CHECK(0, "%s: every output can be compared: %s", name, problem);
  else
    CHECK(worst <= TOLERANCE,
          "%s: every float output is within %g relative error of the golden (largest %.3g%s%s)",
          name, TOLERANCE, worst, *where ? ", at " : "", where);
}

int main(void) {
  const char *shared = test_shared_dir();
  if (!shared)
    return test_exit();
  const char *tinyaot = test_tinyaot();
  const char *tmp = test_tmpdir("float");
  if (!tmp)
    return test_exit();
  for (size_t i = 0; i < sizeof models / sizeof *models; i++)
    test_model(shared, tinyaot, tmp, models[i]);
  return test_end(tmp, "outputs");
}
