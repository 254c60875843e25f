/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lower_helpers.h - one-op models written in memory (tools/tflite_writer.c)
 * through the compiler's reader and lowering, for the unit tests of both.
 */
#ifndef TEST_LOWER_HELPERS_H
#define TEST_LOWER_HELPERS_H

#include <setjmp.h>

#include "tinyaot.h"

#include "../tools/tflite_writer.c"

/* Serializes m and reads it back as file `name`; then, when o is not
 * NULL, verifies it, marks views and lowers it with o.  NULL (with
 * error_message set) when the compiler refuses it.  m stays the
 * caller's. */
static inline Graph *compile_model(TfwModel *m, const char *name, const LowerOptions *o) {
  uint8_t *bytes;
  size_t len;
  tfw_finish(m, &bytes, &len);
  uint8_t *copy = arena_alloc(len);
  memcpy(copy, bytes, len);
  free(bytes);
  jmp_buf jb;
  error_jmp = &jb;
  error_message[0] = 0;
  if (setjmp(jb)) {
    error_jmp = NULL;
    return NULL;
  }
  Graph *g = read_tflite(name, copy, len);
  if (o) {
    verify(g);
    run_passes(g);
    lower(g, o);
  }
  error_jmp = NULL;
  return g;
}

/* m (freed) read, verified and lowered with the rounding mode given;
 * NULL (with error_message set) when the compiler refuses it. */
static inline Graph *lowered(TfwModel *m, int rounding) {
  LowerOptions o = {.rounding = rounding};
  Graph *g = compile_model(m, "test.tflite", &o);
  tfw_free(m);
  return g;
}

/* The constant `name` of op's lowering, or NULL. */
static inline const ConstObj *find_const(const Graph *g, int op, const char *name) {
  const Lowered *l = op_lowered(&g->ops[op]);
  for (int i = 0; i < l->nconsts; i++)
    if (!strcmp(l->consts[i].name, name))
      return &l->consts[i];
  return NULL;
}

#endif
