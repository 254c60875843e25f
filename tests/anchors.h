/* SPDX-License-Identifier: Apache-2.0 */
/*
 * anchors.h - reads TensorFlow Lite Micro's figures per model from
 * ../shared/anchors.md (its first table: | model | TFLM arena_used |
 * planner head | lower bound, TFLM order | persistent tail |
 * instructions |).  Header-only; used by tests and benchmarks.
 */
#ifndef TESTS_ANCHORS_H
#define TESTS_ANCHORS_H

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

typedef struct {
  char name[128];
  long arena_used, head, lower_bound, persistent, instructions; /* -1: none */
} Anchor;

/* "12,345" -> 12345; -1 for "-", "FAILED" or anything else. */
static inline long anchor_count(const char *s) {
  while (*s == ' ')
    s++;
  if (!isdigit((unsigned char)*s))
    return -1;
  long v = 0;
  for (; *s && *s != ' ' && *s != '|' && *s != '\n'; s++) {
    if (*s == ',')
      continue;
    if (!isdigit((unsigned char)*s))
      return -1;
    v = v * 10 + (*s - '0');
  }
  return v;
}

/* Fills out[] (at most max rows); returns the number of rows, -1 when
 * the file cannot be read. */
static inline int read_anchors(const char *path, Anchor *out, int max) {
  FILE *f = fopen(path, "r");
  if (!f)
    return -1;
  char line[1024];
  int n = 0;
  bool in_table = false;
  while (fgets(line, sizeof line, f) && n < max) {
    if (!strncmp(line, "| model | TFLM arena_used", 25)) {
      in_table = true;
      continue;
    }
    if (!in_table)
      continue;
    if (line[0] != '|')
      break; /* the end of the first table */
    if (!strncmp(line, "|---", 4))
      continue;
    char *cell[8];
    int nc = 0;
    for (char *p = line; *p && nc < 8; p++)
      if (*p == '|')
        cell[nc++] = p + 1;
    if (nc < 6)
      continue;
    Anchor *a = &out[n];
    if (sscanf(cell[0], " %127[^ |]", a->name) != 1)
      continue;
    a->arena_used = anchor_count(cell[1]);
    a->head = anchor_count(cell[2]);
    a->lower_bound = anchor_count(cell[3]);
    a->persistent = anchor_count(cell[4]);
    a->instructions = anchor_count(cell[5]);
    n++;
  }
  fclose(f);
  return n;
}

#endif
