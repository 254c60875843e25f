/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The FlexBuffers reader (flexbuf.c) on custom options.
 *
 * Reference bytes: TFLite Micro's generated test data for
 * SignalFilterBankSpectralSubtraction
 * (signal/micro/kernels/filter_bank_spectral_subtraction_flexbuffers_
 * generated_data.cc, the 32-channel map, 210 bytes), whose values obey
 * the op's invariants (num_channels 32; smoothing + one_minus_smoothing
 * = 2^spectral_subtraction_bits).  Then the same reads on the shared
 * audio preprocessor's own options, and robustness: every truncation
 * and many random corruptions of those bytes must give a clean false or
 * a value, never a read outside the buffer (ASan in the san pass).
 */
#include "test.h"
#include "tinyaot.h"

static const unsigned char ss32[210] = {
    0x6e, 0x75, 0x6d, 0x5f, 0x63, 0x68, 0x61, 0x6e, 0x6e, 0x65, 0x6c, 0x73, 0x00, 0x73,
    0x6d, 0x6f, 0x6f, 0x74, 0x68, 0x69, 0x6e, 0x67, 0x00, 0x6f, 0x6e, 0x65, 0x5f, 0x6d,
    0x69, 0x6e, 0x75, 0x73, 0x5f, 0x73, 0x6d, 0x6f, 0x6f, 0x74, 0x68, 0x69, 0x6e, 0x67,
    0x00, 0x61, 0x6c, 0x74, 0x65, 0x72, 0x6e, 0x61, 0x74, 0x65, 0x5f, 0x73, 0x6d, 0x6f,
    0x6f, 0x74, 0x68, 0x69, 0x6e, 0x67, 0x00, 0x61, 0x6c, 0x74, 0x65, 0x72, 0x6e, 0x61,
    0x74, 0x65, 0x5f, 0x6f, 0x6e, 0x65, 0x5f, 0x6d, 0x69, 0x6e, 0x75, 0x73, 0x5f, 0x73,
    0x6d, 0x6f, 0x6f, 0x74, 0x68, 0x69, 0x6e, 0x67, 0x00, 0x73, 0x6d, 0x6f, 0x6f, 0x74,
    0x68, 0x69, 0x6e, 0x67, 0x5f, 0x62, 0x69, 0x74, 0x73, 0x00, 0x6d, 0x69, 0x6e, 0x5f,
    0x73, 0x69, 0x67, 0x6e, 0x61, 0x6c, 0x5f, 0x72, 0x65, 0x6d, 0x61, 0x69, 0x6e, 0x69,
    0x6e, 0x67, 0x00, 0x63, 0x6c, 0x61, 0x6d, 0x70, 0x69, 0x6e, 0x67, 0x00, 0x73, 0x70,
    0x65, 0x63, 0x74, 0x72, 0x61, 0x6c, 0x5f, 0x73, 0x75, 0x62, 0x74, 0x72, 0x61, 0x63,
    0x74, 0x69, 0x6f, 0x6e, 0x5f, 0x62, 0x69, 0x74, 0x73, 0x00, 0x09, 0x66, 0x7b, 0x26,
    0x3c, 0xa9, 0x93, 0x9e, 0x4f, 0x23, 0x09, 0x00, 0x01, 0x00, 0x09, 0x00, 0x71, 0x3d,
    0x8f, 0x02, 0x00, 0x00, 0x33, 0x03, 0x20, 0x00, 0x71, 0x3d, 0x8f, 0x02, 0x00, 0x00,
    0x0e, 0x00, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x05, 0x1b, 0x25, 0x01,
};

static const char *const keys[] = {
    "alternate_one_minus_smoothing", "alternate_smoothing", "clamping",
    "min_signal_remaining", "num_channels", "one_minus_smoothing", "smoothing",
    "smoothing_bits", "spectral_subtraction_bits"};
#define NKEYS (int)(sizeof keys / sizeof *keys)

static int64_t get(const uint8_t *b, size_t n, const char *k) {
  int64_t v = -999999;
  flex_map_int(b, n, k, &v);
  return v;
}

/* The op's invariants on one set of options. */
static void check_options(const char *what, const uint8_t *b, size_t n, int64_t channels) {
  int found = 0;
  for (int k = 0; k < NKEYS; k++) {
    int64_t v;
    found += flex_map_int(b, n, keys[k], &v);
  }
  CHECK(found == NKEYS, "%s: all %d options read as integers (%d found)", what, NKEYS,
        found);
  int64_t bits = get(b, n, "spectral_subtraction_bits");
  CHECK(get(b, n, "num_channels") == channels, "%s: num_channels is %lld",
        what, (long long)channels);
  CHECK(bits > 0 && bits < 31 &&
            get(b, n, "smoothing") + get(b, n, "one_minus_smoothing") == 1 << bits &&
            get(b, n, "alternate_smoothing") + get(b, n, "alternate_one_minus_smoothing") ==
                1 << bits,
        "%s: smoothing and one minus smoothing add up to 2^%lld", what, (long long)bits);
  int64_t v = -1;
  bool read = flex_map_int(b, n, "clamping", &v);
  CHECK(read && (v == 0 || v == 1), "%s: clamping is a bool (%lld)", what, (long long)v);
  CHECK(!flex_map_int(b, n, "no_such_key", &v) && !flex_map_has(b, n, "no_such_key") &&
            flex_map_has(b, n, "smoothing"),
        "%s: a key that is not there is not found", what);
}

/* Every lookup on b[0..n) must end cleanly; returns how many succeeded. */
static int lookups(const uint8_t *b, size_t n) {
  int ok = 0;
  for (int k = 0; k < NKEYS; k++) {
    int64_t v;
    double d;
    ok += flex_map_int(b, n, keys[k], &v);
    ok += flex_map_float(b, n, keys[k], &d);
  }
  return ok;
}

static void robustness(const char *what, const uint8_t *orig, size_t n) {
  uint8_t *b = malloc(n);
  int truncated_ok = 0;
  for (size_t len = 0; len < n; len++) {
    memcpy(b, orig, len);
    /* A copy of exactly len bytes in its own block: ASan sees any read
     * past it. */
    uint8_t *exact = malloc(len ? len : 1);
    memcpy(exact, orig, len);
    truncated_ok += lookups(exact, len);
    free(exact);
  }
  CHECK(1, "%s: every truncation (0 to %zu bytes) is read without leaving the "
           "buffer (%d lookups still succeeded)", what, n - 1, truncated_ok);
  uint32_t x = 0x9e3779b9u;
  int mutated_ok = 0;
  for (int round = 0; round < 20000; round++) {
    memcpy(b, orig, n);
    for (int k = 0; k < 1 + round % 4; k++) {
      x ^= x << 13, x ^= x >> 17, x ^= x << 5;
      b[x % n] = (uint8_t)(x >> 24);
    }
    mutated_ok += lookups(b, n) > 0;
  }
  CHECK(1, "%s: 20000 corrupted copies are read without leaving the buffer (%d still "
           "had readable keys)", what, mutated_ok);
  free(b);
}

int main(void) {
  check_options("TFLM's 32-channel spectral subtraction options", ss32, sizeof ss32, 32);
  int64_t v;
  CHECK(!flex_map_int(ss32, 2, "num_channels", &v) && !flex_map_int(NULL, 0, "x", &v),
        "too short or missing options are refused");
  robustness("TFLM's spectral subtraction options", ss32, sizeof ss32);

  const char *shared = test_shared_dir();
  if (shared) {
    const char *path = arena_printf("%s/models/audio_preprocessor_int8.tflite", shared);
    size_t size;
    uint8_t *buf = read_file(path, &size);
    Graph *g = read_tflite(path, buf, size);
    const Op *op = NULL;
    for (int i = 0; i < g->nops; i++)
      if (g->ops[i].kind == OP_CUSTOM &&
          !strcmp(g->ops[i].custom_name, "SignalFilterBankSpectralSubtraction"))
        op = &g->ops[i];
    if (CHECK(op != NULL, "audio_preprocessor_int8 has a spectral subtraction op")) {
      check_options("audio_preprocessor_int8's spectral subtraction", op->custom_options,
                    op->ncustom_options, 40);
      robustness("audio_preprocessor_int8's spectral subtraction options",
                 op->custom_options, op->ncustom_options);
    }
  }
  arena_reset();
  return test_exit();
}
