/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The ONNX reader on broken files: every truncation and 4,000 seeded
 * random mutations each of three shared ONNX models (12,000 in all) go
 * through read_onnx, verify and print_inspect in this process.  None may
 * crash or trip a sanitizer (make test runs this under ASan+UBSan too),
 * and every refusal must come with a message naming the file
 * (tests/robust.h).
 */
#include "robust.h"

static Graph *read_one(const char *path, const uint8_t *bytes, size_t size) {
  static const ImportOptions none;
  return read_onnx(path, bytes, size, &none);
}

/* One random change: a byte, a bit, or a byte set to what matters to
 * protobuf (0, 0x80 continuation, 0xff, a small length, a wire type). */
static void mutate(uint8_t *b, size_t size) {
  int kind = (int)(robust_rng() % 4);
  size_t at = robust_rng() % size;
  if (kind == 0) {
    b[at] = (uint8_t)robust_rng();
  } else if (kind == 1) {
    b[at] ^= (uint8_t)(1u << (robust_rng() % 8));
  } else if (kind == 2) {
    static const uint8_t special[] = {0, 0x80, 0xff, 1, 2, 0x7f, 0x0a, 0x12};
    b[at] = special[robust_rng() % 8];
  } else {
    /* A key's wire type (the low 3 bits) changed. */
    b[at] = (uint8_t)((b[at] & ~7u) | (robust_rng() % 8));
  }
}

/* A protobuf message has no padding: every cut is refused. */
static bool all_refused(const RobustStats *st, size_t last_refused, size_t size) {
  (void)last_refused;
  (void)size;
  return st->accepted == 0;
}

int main(void) {
  const char *dir = test_shared_dir();
  if (!dir)
    return test_exit();
  static const RobustReader onnx = {"models/onnx", read_one, mutate};
  robust_stress(&onnx, dir, "shape_chain_cnn_nofold.onnx", 1, all_refused);
  robust_stress(&onnx, dir, "ds_cnn_kws.onnx", 2, all_refused);
  robust_stress(&onnx, dir, "lstm_mnist.onnx", 3, all_refused);
  return test_exit();
}
