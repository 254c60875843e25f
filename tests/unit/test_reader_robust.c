/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The reader on broken files: every truncation and thousands of seeded
 * random mutations of small real models go through read_tflite, verify
 * and print_inspect in this process.  None may crash or trip a sanitizer
 * (make test runs this under ASan+UBSan too), and every refusal must
 * come with a message naming the file (tests/robust.h).  Besides the
 * shared models: a model with resource variables and CALL_ONCE (two
 * subgraphs), built with the test writer, so the reading of an init
 * subgraph and of RESOURCE tensors is mutated too, and one with nested
 * STABLEHLO_COMPOSITE ops (three subgraphs), so is their inlining, and
 * one with an IF inside a WHILE body (five subgraphs), so is theirs.
 */
#include "robust.h"

#include "../../tools/tflite_writer.c"
#include "composite_model.h"
#include "control_model.h"
#include "resvars_model.h"

static Graph *read_one(const char *path, const uint8_t *bytes, size_t size) {
  return read_tflite(path, bytes, size);
}

/* One random change: a byte, a bit, or a 32-bit word set to a value
 * that tends to matter to FlatBuffers (0, -1, small, huge, near size). */
static void mutate(uint8_t *b, size_t size) {
  int kind = (int)(robust_rng() % 4);
  size_t at = robust_rng() % size;
  if (kind == 0) {
    b[at] = (uint8_t)robust_rng();
  } else if (kind == 1) {
    b[at] ^= (uint8_t)(1u << (robust_rng() % 8));
  } else {
    at &= ~(size_t)3;
    if (at + 4 > size)
      return;
    static const uint32_t special[] = {0,          0xffffffffu, 1,
                                       4,          0x7fffffffu, 0x80000000u,
                                       0xfffffffcu, 0x10000u};
    uint32_t v = kind == 2 ? special[robust_rng() % 8]
                           : (uint32_t)(robust_rng() % (size + 64));
    for (int i = 0; i < 4; i++)
      b[at + (size_t)i] = (uint8_t)(v >> (8 * i));
  }
}

/* A cut may only be accepted when it removes nothing but the final
 * alignment padding: then every longer cut is accepted too. */
static bool only_padding_accepted(const RobustStats *st, size_t last_refused, size_t size) {
  return last_refused + 1 + (size_t)st->accepted == size && st->accepted <= 16;
}

int main(void) {
  const char *dir = test_shared_dir();
  if (!dir)
    return test_exit();
  static const RobustReader tflite = {"models", read_one, mutate};
  robust_stress(&tflite, dir, "simple_add_int8.tflite", 1, only_padding_accepted);
  robust_stress(&tflite, dir, "split_concat_uint8.tflite", 2, only_padding_accepted);
  robust_stress(&tflite, dir, "hello_world_int8.tflite", 3, only_padding_accepted);
  robust_stress(&tflite, dir, "audio_preprocessor_int8.tflite", 4, only_padding_accepted);
  uint8_t *bytes;
  size_t size;
  resvars_model(&bytes, &size); /* the model of resvars_model.h */
  robust_stress_bytes(&tflite, "resource_variables.tflite", bytes, size, 5,
                      only_padding_accepted);
  free(bytes);
  composite_model(&bytes, &size); /* the model of composite_model.h */
  robust_stress_bytes(&tflite, "composite.tflite", bytes, size, 6,
                      only_padding_accepted);
  free(bytes);
  control_model(&bytes, &size); /* the model of control_model.h */
  robust_stress_bytes(&tflite, "control_flow.tflite", bytes, size, 7,
                      only_padding_accepted);
  free(bytes);
  return test_exit();
}
