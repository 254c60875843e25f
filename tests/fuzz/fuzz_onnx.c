/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libFuzzer target for the .onnx reader (make fuzz-onnx, mk/fuzz-onnx.mk).
 *
 * Each input goes through read_onnx (protobuf parsing and the import into
 * the IR), verify and both print_inspect formats, in one process: bad
 * input must end in error_at()/error_file() (caught through error_jmp)
 * with a non-empty message naming the file; anything else -- a crash, a
 * sanitizer report, an empty message -- is a finding.  The arena is reset
 * after every 16th input.
 */
#include "tinyaot.h"

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

static FILE *devnull;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!devnull)
    devnull = fopen("/dev/null", "w");
  static const ImportOptions none;
  jmp_buf jb;
  error_jmp = &jb;
  error_message[0] = 0;
  if (!setjmp(jb)) {
    Graph *g = read_onnx("fuzz.onnx", data, size, &none);
    verify(g);
    print_inspect(devnull, g, false);
    print_inspect(devnull, g, true);
  } else if (strncmp(error_message, "fuzz.onnx: ", 11) != 0 || error_message[11] == 0) {
    fprintf(stderr, "refusal without a proper message: '%s'\n", error_message);
    abort();
  }
  error_jmp = NULL;
  static unsigned runs;
  if (++runs % 16 == 0)
    arena_reset();
  return 0;
}
