/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the readers' robustness tests share (tests/unit/test_*_robust.c):
 * one input read, verified and printed in this process with its outcome
 * tallied, every truncation of a model, and seeded random mutations.
 * Each reader brings its own read function and its own mutation (what
 * tends to matter to FlatBuffers is not what matters to protobuf).
 *
 * An input is copied to the end of a buffer of exactly the model's size,
 * so a read past its end is a read past the allocation, which ASan
 * catches (make test runs these tests under ASan+UBSan too), and under
 * ASan the bytes before it are poisoned, so a read before its start is
 * caught as well; a malloc per truncation would dominate the run time.
 */
#ifndef TINYAOT_TESTS_ROBUST_H
#define TINYAOT_TESTS_ROBUST_H

#include "test.h"
#include "tinyaot.h"

#include <setjmp.h>

#if defined(__SANITIZE_ADDRESS__)
#define ROBUST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ROBUST_ASAN 1
#endif
#endif
#ifdef ROBUST_ASAN
#include <sanitizer/asan_interface.h>
#define ROBUST_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define ROBUST_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define ROBUST_POISON(p, n) ((void)(p), (void)(n))
#define ROBUST_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#ifndef MUTATIONS_PER_MODEL
#define MUTATIONS_PER_MODEL 4000
#endif

static uint32_t robust_rng_state;

static uint32_t robust_rng(void) { /* xorshift32 */
  uint32_t x = robust_rng_state;
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return robust_rng_state = x;
}

typedef struct {
  int accepted, refused, empty_messages, unnamed_messages;
  char first_bad[300];
} RobustStats;

/* A reader under test: parses `size` bytes named `path` into a graph or
 * fails through the error handler; the mutation that suits its format. */
typedef struct {
  const char *folder; /* below the shared folder: "models", "models/onnx" */
  Graph *(*read)(const char *path, const uint8_t *bytes, size_t size);
  void (*mutate)(uint8_t *b, size_t size);
} RobustReader;

static FILE *robust_devnull;
static uint8_t *robust_space; /* the model's size: inputs end where it ends */
static size_t robust_nspace;

/* Reads, verifies and prints `size` bytes, and tallies the outcome: a
 * refusal must come with a message that names the file. */
static void robust_run(const RobustReader *r, const char *path, const uint8_t *bytes,
                       size_t size, RobustStats *st) {
  uint8_t *buf = robust_space + (robust_nspace - size);
  memmove(buf, bytes, size);
  ROBUST_POISON(robust_space, robust_nspace - size);
  jmp_buf jb;
  error_jmp = &jb;
  error_message[0] = 0;
  if (!setjmp(jb)) {
    Graph *g = r->read(path, buf, size);
    verify(g);
    print_inspect(robust_devnull, g, false);
    print_inspect(robust_devnull, g, true);
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
  ROBUST_UNPOISON(robust_space, robust_nspace - size);
  /* Release the arena every 16th input: a 1 MB block freed and mapped
   * again per input would dominate the run time under ASan. */
  static unsigned runs;
  if (++runs % 16 == 0)
    arena_reset();
}

typedef bool RobustTruncationsOk(const RobustStats *st, size_t last_refused, size_t size);

/* The model (`size` bytes named `name`) itself, then every truncation
 * (checked by `truncations_ok`, given the tally and the longest refused
 * length), then MUTATIONS_PER_MODEL inputs with 1 to 4 random changes
 * each. */
static void robust_stress_bytes(const RobustReader *r, const char *name, const uint8_t *bytes,
                                size_t size, uint32_t seed,
                                RobustTruncationsOk *truncations_ok) {
  uint8_t *orig = malloc(size), *work = malloc(size);
  memcpy(orig, bytes, size);
  robust_space = malloc(size);
  robust_nspace = size;
  if (!robust_devnull)
    robust_devnull = fopen("/dev/null", "w");

  RobustStats st = {0};
  robust_run(r, name, orig, size, &st);
  CHECK(st.accepted == 1, "%s itself is read, verified and printed", name);

  st = (RobustStats){0};
  size_t last_refused = 0;
  for (size_t len = 0; len < size; len++) {
    int before = st.refused;
    robust_run(r, name, orig, len, &st);
    if (st.refused > before)
      last_refused = len;
  }
  CHECK(truncations_ok(&st, last_refused, size) && !st.empty_messages &&
            !st.unnamed_messages,
        "all %zu truncations of %s are refused as they must be, each with a message "
        "naming the file (%d refused, %d accepted, %d without message, %d unnamed; %s)",
        size, name, st.refused, st.accepted, st.empty_messages, st.unnamed_messages,
        st.first_bad[0] ? st.first_bad : "-");

  st = (RobustStats){0};
  robust_rng_state = seed;
  for (int i = 0; i < MUTATIONS_PER_MODEL; i++) {
    memcpy(work, orig, size);
    int n = 1 + (int)(robust_rng() % 4);
    for (int k = 0; k < n; k++)
      r->mutate(work, size);
    robust_run(r, name, work, size, &st);
  }
  CHECK(!st.empty_messages && !st.unnamed_messages,
        "%d random mutations of %s (seed %u) end cleanly: %d refused with a message "
        "naming the file, %d accepted (%d without message, %d unnamed; %s)",
        MUTATIONS_PER_MODEL, name, seed, st.refused, st.accepted, st.empty_messages,
        st.unnamed_messages, st.first_bad[0] ? st.first_bad : "-");
  free(orig);
  free(work);
  free(robust_space);
}

/* robust_stress_bytes() on the shared model dir/<folder>/name. */
static void robust_stress(const RobustReader *r, const char *dir, const char *name,
                          uint32_t seed, RobustTruncationsOk *truncations_ok) {
  char path[4200];
  snprintf(path, sizeof path, "%s/%s/%s", dir, r->folder, name);
  size_t size;
  uint8_t *arena_copy = read_file(path, &size);
  uint8_t *bytes = malloc(size);
  memcpy(bytes, arena_copy, size);
  arena_reset();
  robust_stress_bytes(r, name, bytes, size, seed, truncations_ok);
  free(bytes);
}

#endif
