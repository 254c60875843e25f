/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The shared ONNX models (../shared/models/onnx, float32, exported from
 * PyTorch): `tinyaot run` compiles each one (NCHW input and output, as
 * the model has them), builds the generated C and runs its three golden
 * cases (../shared/goldens/onnx: ONNX Runtime 1.30.0 CPU outputs).  Every
 * output must be within 1e-4 relative error of ONNX Runtime, where for
 * an output tensor a and its golden b
 *
 *   relative error = max_i |a_i - b_i| / max_i |b_i|
 *
 * (relative to the output's largest magnitude: logits and softmax
 * outputs hold many values near 0, whose own relative error only
 * measures float rounding).  The largest error per model is printed.
 * For reference: ONNX Runtime and PyTorch themselves differ by up to
 * 5.9e-5 absolute on these models (SOURCES.md).
 *
 * Also: compiling the largest model (mobilenet_v3_small_96, 10 MB) takes
 * under a second of CPU time (user + system of `tinyaot compile`; wall
 * time on a shared machine measures the disk more than the compiler).
 *
 * The sanitizer pass runs the five small models only (the three large
 * CNNs take most of the time and use no kernel the others do not).
 */
#define _POSIX_C_SOURCE 200809L
#include "model_test.h"

#include <sys/resource.h>

#define TOLERANCE 1e-4

static const char *const models[] = {
    "mobilenet_v2_035_96", "mobilenet_v3_small_96", "squeezenet1_1_96", "ds_cnn_kws",
    "fc_autoencoder_ad",   "tiny_unet_64",          "lstm_mnist",       "shape_chain_cnn_nofold"};
static const char *const cases[] = {"case0", "case1", "case2"};
#define NCASES 3

static void test_model(const char *shared, const char *tinyaot, const char *tmp,
                       const char *name) {
  const char *model = arena_printf("%s/models/onnx/%s.onnx", shared, name);
  const char *gold = arena_printf("%s/goldens/onnx/%s", shared, name);
  size_t size;
  uint8_t *buf = read_file(model, &size);
  static const ImportOptions none;
  Graph *g = read_onnx(model, buf, size, &none);
  const char *out = arena_printf("%s/%s", tmp, name);
  mkdir(out, 0777);
  const char *cmd = arena_printf("%s run %s", quote(tinyaot), quote(model));
  for (int c = 0; c < NCASES; c++)
    cmd = add_io(cmd, g, arena_printf("%s/%s", gold, cases[c]),
                 arena_printf("%s/%s.output", out, cases[c]));
  /* The LSTM's state is a variable tensor: each ONNX run starts at 0. */
  cmd = arena_printf("%s --reset-each", cmd);
  int rc = run_command(cmd);
  if (!CHECK(rc == 0, "%s compiles, builds and runs %d cases (tinyaot run exited with %d)",
             name, NCASES, rc))
    return;
  const char *where, *problem;
  double worst =
      worst_float_error(g, gold, out, cases, NCASES, FLOAT_REL_LARGEST, &where, &problem);
  if (*problem)
    CHECK(0, "%s: every output can be compared: %s", name, problem);
  else
    CHECK(worst <= TOLERANCE,
          "%s: every output is within %g relative error of ONNX Runtime (largest %.3g%s%s)",
          name, TOLERANCE, worst, *where ? ", at " : "", where);
}

/* NCHW <-> NHWC of float tensors [1, c, h, w]: to_nhwc or back. */
static void relayout(const float *src, float *dst, int c, int h, int w, bool to_nhwc) {
  for (int k = 0; k < c; k++)
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) {
        size_t nchw = ((size_t)k * h + y) * w + x, nhwc = ((size_t)y * w + x) * c + k;
        if (to_nhwc)
          dst[nhwc] = src[nchw];
        else
          dst[nchw] = src[nhwc];
      }
}

/* --layout nhwc: tiny_unet_64 case0 with its input and output in NHWC. */
static void test_nhwc(const char *shared, const char *tinyaot, const char *tmp) {
  const char *model = arena_printf("%s/models/onnx/tiny_unet_64.onnx", shared);
  const char *gold = arena_printf("%s/goldens/onnx/tiny_unet_64/case0", shared);
  size_t ni, ne, na;
  float *in = slurp_f32(arena_printf("%s/input0.bin", gold), &ni);
  float *e = slurp_f32(arena_printf("%s/output0.bin", gold), &ne);
  if (!CHECK(in && e && ni == 3 * 64 * 64 && ne == 4 * 64 * 64,
             "tiny_unet_64's case0 has a [1,3,64,64] input and a [1,4,64,64] output"))
    return;
  float *t = malloc(ni * sizeof *t);
  relayout(in, t, 3, 64, 64, true);
  const char *tin = arena_printf("%s/nhwc_in.bin", tmp), *tout = arena_printf("%s/nhwc_out.bin", tmp);
  FILE *f = fopen(tin, "wb");
  fwrite(t, sizeof *t, ni, f);
  fclose(f);
  int rc = run_command(arena_printf("%s run %s --layout nhwc -i %s -o %s", quote(tinyaot),
                                    quote(model), quote(tin), quote(tout)));
  float *a = rc == 0 ? slurp_f32(tout, &na) : NULL;
  double worst = INFINITY;
  if (a && na == ne) {
    float *back = malloc(ne * sizeof *back);
    relayout(a, back, 4, 64, 64, false);
    size_t at;
    worst = float_error(back, e, ne, FLOAT_REL_LARGEST, &at);
    free(back);
  }
  CHECK(worst <= TOLERANCE,
        "tiny_unet_64 with --layout nhwc (NHWC input and output) agrees with ONNX Runtime "
        "within %g (largest %.3g, exit %d)", TOLERANCE, worst, rc);
  free(in), free(e), free(t), free(a);
}

static double children_cpu(void) {
  struct rusage ru;
  getrusage(RUSAGE_CHILDREN, &ru);
  return (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
         (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
}

/* CPU time of `tinyaot compile` of the largest model (plain build): a
 * guard against a pass that turns quadratic, not a speed figure.  About
 * 0.5 s on an idle 2-core machine and up to 1.05 s with other jobs on
 * it, so the bound is 4 s; a quadratic pass over this model's 10 MB
 * takes minutes. */
static void test_compile_time(const char *shared, const char *tinyaot, const char *tmp) {
  const char *model = arena_printf("%s/models/onnx/mobilenet_v3_small_96.onnx", shared);
  const char *cmd = arena_printf("%s compile %s -o %s", quote(tinyaot), quote(model),
                                 quote(arena_printf("%s/compiled", tmp)));
  double t0 = children_cpu();
  int rc = run_command(cmd);
  double s = children_cpu() - t0;
  CHECK(rc == 0 && s < 4.0,
        "compiling mobilenet_v3_small_96.onnx (10 MB) takes under 4 s of CPU time (%.3f s, "
        "exit %d)", s, rc);
}

int main(void) {
  const char *shared = test_shared_dir();
  if (!shared)
    return test_exit();
  const char *tinyaot = test_tinyaot();
  const char *tmp = test_tmpdir("onnx");
  if (!tmp)
    return test_exit();
  const char *pass = getenv("TINYAOT_PASS");
  bool san = pass && !strcmp(pass, "san");
  for (size_t i = san ? 3 : 0; i < sizeof models / sizeof *models; i++)
    test_model(shared, tinyaot, tmp, models[i]);
  test_nhwc(shared, tinyaot, tmp);
  if (!san)
    test_compile_time(shared, tinyaot, tmp);
  return test_end(tmp, "outputs");
}
