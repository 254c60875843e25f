/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The reader on broken files: every truncation and thousands of seeded
 * random mutations of small real models go through read_tflite, verify
 * and print_inspect in this process.  None may crash or trip a sanitizer
 * (make test runs this under ASan+UBSan too), and every refusal must
 * come with a message naming the file.  Each input is copied into a
 * buffer of exactly its size, so any read past the end is caught.
 * Besides the shared models: a model with resource variables and
 * CALL_ONCE (two subgraphs), built with the test writer, so the reading
 * of an init subgraph and of RESOURCE tensors is mutated too.
 */
#include "test.h"
#include "tinyaot.h"

#include <setjmp.h>

#include "../../tools/tflite_writer.c"
#include "resvars_model.h"

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

/* Reads `size` bytes (copied into an exact-size buffer) and tallies. */
static void run_one(const char *path, const uint8_t *bytes, size_t size,
                    Stats *st) {
  uint8_t *buf = malloc(size ? size : 1);
  memcpy(buf, bytes, size);
  jmp_buf jb;
  error_jmp = &jb;
  error_message[0] = 0;
  if (!setjmp(jb)) {
    Graph *g = read_tflite(path, buf, size);
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
  free(buf);
  /* Release the arena every 16th input: a 1 MB block freed and mapped
   * again per input would dominate the run time under ASan. */
  static unsigned runs;
  if (++runs % 16 == 0)
    arena_reset();
}

/* One random change: a byte, a bit, or a 32-bit word set to a value
 * that tends to matter to FlatBuffers (0, -1, small, huge, near size). */
static void mutate(uint8_t *b, size_t size) {
  int kind = (int)(rng() % 4);
  size_t at = rng() % size;
  if (kind == 0) {
    b[at] = (uint8_t)rng();
  } else if (kind == 1) {
    b[at] ^= (uint8_t)(1u << (rng() % 8));
  } else {
    at &= ~(size_t)3;
    if (at + 4 > size)
      return;
    static const uint32_t special[] = {0,          0xffffffffu, 1,
                                       4,          0x7fffffffu, 0x80000000u,
                                       0xfffffffcu, 0x10000u};
    uint32_t v = kind == 2 ? special[rng() % 8] : (uint32_t)(rng() % (size + 64));
    for (int i = 0; i < 4; i++)
      b[at + (size_t)i] = (uint8_t)(v >> (8 * i));
  }
}

static void stress_bytes(const char *name, const uint8_t *bytes, size_t size,
                         uint32_t seed) {
  uint8_t *orig = malloc(size), *work = malloc(size);
  memcpy(orig, bytes, size);

  Stats st = {0};
  run_one(name, orig, size, &st);
  CHECK(st.accepted == 1, "%s itself is read, verified and printed", name);

  /* A cut may only be accepted when it removes nothing but the final
   * alignment padding: then every longer cut is accepted too. */
  st = (Stats){0};
  size_t last_refused = 0;
  for (size_t len = 0; len < size; len++) {
    int before = st.refused;
    run_one(name, orig, len, &st);
    if (st.refused > before)
      last_refused = len;
  }
  CHECK(last_refused + 1 + (size_t)st.accepted == size && st.accepted <= 16 &&
            !st.empty_messages && !st.unnamed_messages,
        "all %zu truncations of %s but the final padding are refused, each "
        "with a message naming the file (%d refused, %d accepted, %d without "
        "message, %d unnamed; %s)",
        size, name, st.refused, st.accepted, st.empty_messages,
        st.unnamed_messages, st.first_bad[0] ? st.first_bad : "-");

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
        "%d random mutations of %s (seed %u) end cleanly: %d refused with a "
        "message naming the file, %d accepted (%d without message, %d "
        "unnamed; %s)",
        MUTATIONS_PER_MODEL, name, seed, st.refused, st.accepted,
        st.empty_messages, st.unnamed_messages,
        st.first_bad[0] ? st.first_bad : "-");
  free(orig);
  free(work);
}

static void stress(const char *dir, const char *name, uint32_t seed) {
  char path[4200];
  snprintf(path, sizeof path, "%s/models/%s", dir, name);
  size_t size;
  uint8_t *orig_arena = read_file(path, &size);
  uint8_t *orig = malloc(size);
  memcpy(orig, orig_arena, size);
  arena_reset();
  stress_bytes(name, orig, size, seed);
  free(orig);
}

/* The resource-variable model of resvars_model.h. */
static void stress_variables(uint32_t seed) {
  uint8_t *bytes;
  size_t size;
  resvars_model(&bytes, &size);
  stress_bytes("resource_variables.tflite", bytes, size, seed);
  free(bytes);
}

int main(void) {
  devnull = fopen("/dev/null", "w");
  const char *dir = test_shared_dir();
  if (!dir)
    return test_exit();
  stress(dir, "simple_add_int8.tflite", 1);
  stress(dir, "split_concat_uint8.tflite", 2);
  stress(dir, "hello_world_int8.tflite", 3);
  stress(dir, "audio_preprocessor_int8.tflite", 4);
  stress_variables(5);
  fclose(devnull);
  return test_exit();
}
