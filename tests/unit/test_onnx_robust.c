/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The ONNX reader on broken files: every truncation and 4,000 seeded
 * random mutations each of three shared ONNX models (12,000 in all) go
 * through read_onnx, verify and print_inspect in this process.  None may
 * crash or trip a sanitizer (make test runs this under ASan+UBSan too),
 * and every refusal must come with a message naming the file.  Each
 * input is copied to the end of a buffer of the model's size, so any
 * read past its end is a read past the allocation, which ASan catches
 * (one buffer for all inputs: a malloc per truncation would dominate
 * the run time).
 */
#include "test.h"
#include "tinyaot.h"

#include <setjmp.h>

#ifndef MUTATIONS_PER_MODEL
#define MUTATIONS_PER_MODEL 4000
#endif

static uint32_t rng_state;

static uint32_t rng(void) { /* xorshift32 */
  uint32_t x = rng_state;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return rng_state = x;
}

typedef struct {
  int accepted, refused, empty_messages, unnamed_messages;
  char first_bad[300];
} Stats;

static FILE *devnull;

static uint8_t *space; /* the model's size: inputs end where it ends */
static size_t nspace;

static void run_one(const char *path, const uint8_t *bytes, size_t size, Stats *st) {
  uint8_t *buf = space + (nspace - size);
  memmove(buf, bytes, size);
  jmp_buf jb;
  error_jmp = &jb;
  error_message[0] = 0;
  static const ImportOptions none;
  if (!setjmp(jb)) {
    Graph *g = read_onnx(path, buf, size, &none);
    verify(g);
    print_inspect(devnull, g, false);
    print_inspect(devnull, g, true);
    st->accepted++;
  } else {
    st->refused++;
    size_t n = strlen(path);
    if (!error_message[0] || strncmp(error_message, path, n) ||
        strlen(error_message) <= n + 2) {
      if (!error_message[0])
        st->empty_messages++;
      else
        st->unnamed_messages++;
      if (!st->first_bad[0])
        snprintf(st->first_bad, sizeof st->first_bad, "'%.280s'", error_message);
    }
  }
  error_jmp = NULL;
  static unsigned runs;
  if (++runs % 16 == 0)
    arena_reset();
}

/* One random change: a byte, a bit, or a byte set to what matters to
 * protobuf (0, 0x80 continuation, 0xff, a small length, a wire type). */
static void mutate(uint8_t *b, size_t size) {
  int kind = (int)(rng() % 4);
  size_t at = rng() % size;
  if (kind == 0) {
    b[at] = (uint8_t)rng();
  } else if (kind == 1) {
    b[at] ^= (uint8_t)(1u << (rng() % 8));
  } else if (kind == 2) {
    static const uint8_t special[] = {0, 0x80, 0xff, 1, 2, 0x7f, 0x0a, 0x12};
    b[at] = special[rng() % 8];
  } else {
    /* A key's wire type (the low 3 bits) changed. */
    b[at] = (uint8_t)((b[at] & ~7u) | (rng() % 8));
  }
}

static void stress(const char *dir, const char *name, uint32_t seed) {
  char path[4200];
  snprintf(path, sizeof path, "%s/models/onnx/%s", dir, name);
  size_t size;
  uint8_t *orig_arena = read_file(path, &size);
  uint8_t *orig = malloc(size), *work = malloc(size);
  memcpy(orig, orig_arena, size);
  arena_reset();
  space = malloc(size);
  nspace = size;

  Stats st = {0};
  run_one(name, orig, size, &st);
  CHECK(st.accepted == 1, "%s itself is read, verified and printed", name);

  st = (Stats){0};
  for (size_t len = 0; len < size; len++)
    run_one(name, orig, len, &st);
  CHECK(st.accepted == 0 && !st.empty_messages && !st.unnamed_messages,
        "all %zu truncations of %s are refused, each with a message naming the file "
        "(%d refused, %d accepted, %d without message, %d unnamed; %s)",
        size, name, st.refused, st.accepted, st.empty_messages, st.unnamed_messages,
        st.first_bad[0] ? st.first_bad : "-");

  st = (Stats){0};
  rng_state = seed;
  for (int i = 0; i < MUTATIONS_PER_MODEL; i++) {
    memcpy(work, orig, size);
    int n = 1 + (int)(rng() % 4);
    for (int k = 0; k < n; k++)
      mutate(work, size);
    run_one(name, work, size, &st);
  }
  CHECK(!st.empty_messages && !st.unnamed_messages,
        "%d random mutations of %s (seed %u) end cleanly: %d refused with a message "
        "naming the file, %d accepted (%d without message, %d unnamed; %s)",
        MUTATIONS_PER_MODEL, name, seed, st.refused, st.accepted, st.empty_messages,
        st.unnamed_messages, st.first_bad[0] ? st.first_bad : "-");
  free(orig);
  free(work);
  free(space);
}

int main(void) {
  devnull = fopen("/dev/null", "w");
  const char *dir = test_shared_dir();
  if (!dir)
    return test_exit();
  stress(dir, "shape_chain_cnn_nofold.onnx", 1);
  stress(dir, "ds_cnn_kws.onnx", 2);
  stress(dir, "lstm_mnist.onnx", 3);
  fclose(devnull);
  return test_exit();
}
