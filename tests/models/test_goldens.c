/* SPDX-License-Identifier: Apache-2.0 */
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
#include "model_test.h"

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
    if (!file_exists(arena_printf("%s/input0.bin", dir)))
      continue;
    have[c] = true;
    nruns++;
    cmd = add_io(cmd, g, dir, arena_printf("%s/%s.output", out, cases[c]));
  }
  int rc = run_command(cmd);
  if (!CHECK(rc == 0, "%s compiles, builds and runs %d cases (tinyaot run "
                      "exited with %d)", name, nruns, rc))
    return;
  for (int c = 0; c < NCASES; c++) {
    if (!have[c])
      continue;
    const char *diff = "";
    int k;
    for (k = 0; k < g->noutputs && !*diff; k++)
      diff = compare_files(arena_printf("%s/%s/output%d.bin", gold, cases[c], k),
                     arena_printf("%s/%s.output%d.bin", out, cases[c], k));
    CHECK(!*diff, "%s %s: every output equals TFLM's golden bytes%s%s", name,
          cases[c], *diff ? arena_printf(": output%d: ", k - 1) : "", diff);
  }

  /* case0's intermediate tensors, in model order. */
  const char *tdir = arena_printf("%s/case0/tensors", gold);
  if (!file_exists(tdir))
    return;
  int ncompared = 0, nfused = 0;
  const bool fused = strstr(opts, "--fuse-add") != NULL;
  const char *first = "";
  for (int i = 0; i < g->nops && !*first; i++) {
    const Op *op = &g->ops[i];
    for (int k = 0; k < op->noutputs && !*first; k++) {
      int t = op->outputs[k];
      const char *e = arena_printf("%s/t%d.bin", tdir, t);
      if (!file_exists(e))
        continue;
      /* A convolution's output that --fuse-add never stores (the ADD in
       * its epilogue reads it from the kernel's scratch). */
      const char *a = arena_printf("%s/t%d.bin", dump, t);
      if (fused && !file_exists(a)) {
        nfused++;
        continue;
      }
      const char *d = compare_files(e, a);
      ncompared++;
      if (*d)
        first = arena_printf("op %d (%s) output t%d %s: %s", i,
                             op_display_name(g, i), t,
                             arena_printf("\"%.60s\"", g->tensors[t].name), d);
    }
  }
  CHECK(!*first, "%s case0: every intermediate tensor equals TFLM's dump "
                 "(%d compared%s)%s%s",
        name, ncompared,
        fused ? arena_printf(", %d convolution outputs fused away", nfused) : "",
        *first ? "; first difference: " : "", first);
  if (fused)
    CHECK(nfused > 0, "%s with %s fuses at least one residual ADD (%d)", name, opts, nfused);
}

int main(void) {
  const char *shared = test_shared_dir();
  if (!shared)
    return test_exit();
  const char *tinyaot = test_tinyaot();
  const char *tmp = test_tmpdir("goldens");
  if (!tmp)
    return test_exit();
  /* The check must be able to fail: two files differing at byte 3. */
  FILE *f1 = fopen(arena_printf("%s/a.bin", tmp), "wb");
  FILE *f2 = fopen(arena_printf("%s/b.bin", tmp), "wb");
  fwrite("\1\2\3\4\5", 1, 5, f1);
  fwrite("\1\2\3\377\5", 1, 5, f2);
  fclose(f1);
  fclose(f2);
  const char *d = compare_files(arena_printf("%s/a.bin", tmp), arena_printf("%s/b.bin", tmp));
  CHECK(strstr(d, "byte 3: expected 4, actual -1") != NULL,
        "the comparison names the first differing byte (got '%s')", d);

  for (size_t i = 0; i < sizeof models / sizeof *models; i++)
    test_model(shared, tinyaot, tmp, models[i], "");
  /* The other layouts give the same bytes. */
  test_model(shared, tinyaot, tmp, "kws_ref_model", "--io-in-caller-buffers");
  test_model(shared, tinyaot, tmp, "resnet8_int8",
             "--pool sram:32k --pool ext --align 64");
  /* Residual ADDs in their convolutions' epilogues. */
  test_model(shared, tinyaot, tmp, "resnet8_int8", "--fuse-add");
  test_model(shared, tinyaot, tmp, "miniresnetv2_1stacks_64x50_int8", "--fuse-add");
  test_model(shared, tinyaot, tmp, "micronet_vww2_50_int8", "--fuse-add");
  return test_end(tmp, "outputs");
}
