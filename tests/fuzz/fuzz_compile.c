/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target for the whole compiler (make fuzz-compile,
 * mk/fuzz-compile.mk): each input goes through read_tflite, verify, the
 * passes, lower, verify, plan_graph and emit_folder (into a folder in
 * /dev/shm, rewritten for every input), in one process, as `tinyaot
 * compile` runs them; the dumps and plan printers (-dI -dL -dP, plan
 * --json, --svg) print every accepted input to /dev/null.
 *
 * Findings: a crash or sanitizer report; a die()/unreachable() (a
 * compiler bug: die_hook reports it as "die() reached" and aborts); a
 * refusal whose message does not name the file, or names an op without
 * its index and name.  Refusals through error_at() are the expected
 * outcome for most inputs.
 *
 * The custom mutator (mutate.h) rewrites values the reader decodes -
 * shapes, types, quantization, buffer indices and lengths, op
 * inputs/outputs, options - in place, so that most mutants stay readable
 * and reach the later steps; one mutation in four is libFuzzer's own.
 * The compile options (rounding, schedule, inputs/outputs in the
 * workspace) are picked by a hash of the input, so a finding replays.
 * TINYAOT_FUZZ_EMIT=0 skips the emitter.
 */
#include "fuzz/mutate.h"

#include <sys/stat.h>
#include <unistd.h>

static const char *emit_dir;
static FILE *devnull; /* the dumps and plan printers write here */

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
                               unsigned int seed);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  devnull = fopen("/dev/null", "w");
  run_dump = devnull;
  const char *e = getenv("TINYAOT_FUZZ_EMIT");
  if (!e || strcmp(e, "0")) {
    static char dir[64];
    snprintf(dir, sizeof dir, "/dev/shm/tinyaot-fuzz-%ld", (long)getpid());
    if (mkdir(dir, 0777) == 0 || access(dir, W_OK) == 0)
      emit_dir = dir;
  }
  plan_search_iterations = 64; /* the search's result does not matter here */
  return 0;
}

static uint32_t hash(const uint8_t *d, size_t n) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < n; i++)
    h = (h ^ d[i]) * 16777619u;
  return h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  RunOptionsSet opt;
  run_options(&opt, hash(data, size) >> 29);
  RunResult res = compile_buffer("fuzz.tflite", data, size, &opt, emit_dir, NULL, NULL);
  if (res == RUN_DIED) {
    fprintf(stderr, "die() reached: %s\n", die_message);
    abort();
  }
  if (res == RUN_REFUSED && !message_is_proper("fuzz.tflite", error_message)) {
    fprintf(stderr, "refusal without a proper message: '%s'\n", error_message);
    abort();
  }
  static unsigned runs;
  if (++runs % 16 == 0)
    arena_reset();
  return 0;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size,
                               unsigned int seed) {
  Rng r = {seed};
  if (rng_below(&r, 4) == 0 || size == 0)
    return LLVMFuzzerMutate(data, size, max_size);
  mutate_model(&r, data, size, 3);
  return size;
}
