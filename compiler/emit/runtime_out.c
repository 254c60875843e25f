/* SPDX-License-Identifier: Apache-2.0 */
/*
 * runtime_out.c - the kernel library written once, for many models.
 *
 * `tinyaot runtime -o DIR [--kernels LIST|all]` writes the runtime's
 * sources (the text embedded in tinyaot, runtime_catalog.c) into DIR:
 *
 *   DIR/include/...      the public headers (ta_kernels.h, ta_types.h, ...)
 *   DIR/<family>/...     the kernels asked for and what they call
 *   DIR/runtime.mk       a Makefile fragment building libtinyaot_runtime.a
 *   DIR/CMakeLists.txt   the same for CMake (target tinyaot_runtime)
 *
 * A model compiled with `--runtime DIR` then carries no kernel of its
 * own: its folder names DIR (by a path relative to itself) in its build
 * files, and every kernel is defined exactly once in a program, which is
 * what an IDE's flat build (every .c it sees, one link) needs.
 * runtime_missing() says whether DIR holds what a model calls, so that
 * compile refuses a runtime lacking a kernel instead of a link failing
 * later.
 */
#define _XOPEN_SOURCE 700
#include "tinyaot.h"
#include "version.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *runtime_library_path(int file) {
  const char *p = runtime_files[file].path;
  return !strncmp(p, "runtime/", 8) ? p + 8 : p;
}

static bool is_c(const char *path) {
  size_t n = strlen(path);
  return n > 2 && !strcmp(path + n - 2, ".c");
}

/* Files go through outdir.c: written beside DIR and moved in whole, never
 * over a file an earlier `tinyaot runtime` did not write, and the files
 * of a previous, larger --kernels list removed. */
static FILE *create(OutDir *out, const char *rel) { return outdir_open(out, rel); }

static void finish(OutDir *out, FILE *f, const char *rel) { outdir_close(out, f, rel); }

static void put_header(FILE *f, const char *what) {
  fprintf(f,
          "# SPDX-License-Identifier: Apache-2.0\n"
          "# %s - the tinyaot runtime, written by `tinyaot runtime`\n"
          "# (tinyaot " TINYAOT_VERSION "); do not edit.  It may be used, modified and\n"
          "# shipped under the Apache License, Version 2.0 (tinyaot's LICENSE).\n",
          what);
}

static void write_makefile(OutDir *out, const bool *need) {
  const char *path = "runtime.mk";
  FILE *f = create(out, path);
  put_header(f, "runtime.mk");
  fprintf(f,
          "#\n"
          "# Builds the kernels into libtinyaot_runtime.a.  Included by the\n"
          "# Makefile fragment of every model compiled with --runtime (once,\n"
          "# however many include it), or on its own: make -f DIR/runtime.mk\n"
          "#   TINYAOT_RUNTIME_LIB       the library to link\n"
          "#   TINYAOT_RUNTIME_INCLUDES  -I for ta_kernels.h\n"
          "#   TINYAOT_RUNTIME_BUILD     where objects go (default DIR/build)\n\n"
          "ifndef TINYAOT_RUNTIME_MK\n"
          "TINYAOT_RUNTIME_MK := 1\n"
          "TINYAOT_RUNTIME_SAVED_GOAL := $(.DEFAULT_GOAL)\n"
          "TINYAOT_RUNTIME_DIR := $(patsubst %%/,%%,$(dir $(lastword $(MAKEFILE_LIST))))\n"
          "TINYAOT_RUNTIME_BUILD ?= $(TINYAOT_RUNTIME_DIR)/build\n"
          "TINYAOT_RUNTIME_INCLUDES := -I$(TINYAOT_RUNTIME_DIR)/include\n"
          "TINYAOT_RUNTIME_SRCS :=");
  for (int i = 0; i < nruntime_files; i++)
    if (need[i] && is_c(runtime_files[i].path))
      fprintf(f, " \\\n  %s", runtime_library_path(i));
  fprintf(f,
          "\nTINYAOT_RUNTIME_OBJS := $(addprefix $(TINYAOT_RUNTIME_BUILD)/,"
          "$(TINYAOT_RUNTIME_SRCS:.c=.o))\n"
          "TINYAOT_RUNTIME_LIB := $(TINYAOT_RUNTIME_BUILD)/libtinyaot_runtime.a\n\n"
          ".PHONY: tinyaot_runtime\n"
          "tinyaot_runtime: $(TINYAOT_RUNTIME_LIB)\n\n"
          "$(TINYAOT_RUNTIME_LIB): $(TINYAOT_RUNTIME_OBJS)\n\t$(AR) rcs $@ $^\n\n"
          "$(TINYAOT_RUNTIME_BUILD)/%%.o: $(TINYAOT_RUNTIME_DIR)/%%.c\n"
          "\t@mkdir -p $(dir $@)\n"
          "\t$(CC) $(CFLAGS) $(TINYAOT_RUNTIME_INCLUDES) -c -o $@ $<\n\n"
          "ifneq ($(words $(MAKEFILE_LIST)),1)\n"
          ".DEFAULT_GOAL := $(TINYAOT_RUNTIME_SAVED_GOAL)\n"
          "endif\n"
          "endif\n");
  finish(out, f, path);
}

static void write_cmake(OutDir *out, const bool *need) {
  const char *path = "CMakeLists.txt";
  FILE *f = create(out, path);
  put_header(f, "CMakeLists.txt");
  fprintf(f,
          "#\n"
          "# The static library tinyaot_runtime.  Models compiled with\n"
          "# --runtime add it (once) and link it; on its own:\n"
          "# add_subdirectory(DIR) and target_link_libraries(app PRIVATE tinyaot_runtime).\n"
          "cmake_minimum_required(VERSION 3.5)\n"
          "project(tinyaot_runtime C)\n\n"
          "if(NOT TARGET tinyaot_runtime)\n"
          "add_library(tinyaot_runtime STATIC");
  for (int i = 0; i < nruntime_files; i++)
    if (need[i] && is_c(runtime_files[i].path))
      fprintf(f, "\n  %s", runtime_library_path(i));
  fprintf(f, ")\n"
             "target_include_directories(tinyaot_runtime PUBLIC\n"
             "  ${CMAKE_CURRENT_SOURCE_DIR}/include)\n"
             "set_target_properties(tinyaot_runtime PROPERTIES C_STANDARD 99 "
             "C_STANDARD_REQUIRED ON)\n"
             "endif()\n");
  finish(out, f, path);
}

void emit_runtime_library(const char *dir, const char *const *kernels, int nkernels) {
  bool *need = arena_array((size_t)nruntime_files + 1, sizeof(bool));
  if (kernels) {
    const char *missing = runtime_select(kernels, nkernels, need);
    if (missing)
      error_file(dir, "no runtime kernel is called %s (`tinyaot plan MODEL -dL` "
                 "names the kernels a model calls)", missing);
  } else {
    for (int i = 0; i < nruntime_files; i++)
      need[i] = true;
  }
  OutDir *out = outdir_begin(dir, &(OutDirOptions){0});
  for (int i = 0; i < nruntime_files; i++) {
    if (!need[i])
      continue;
    const char *path = runtime_library_path(i);
    FILE *f = create(out, path);
    fputs(runtime_files[i].text, f);
    finish(out, f, path);
  }
  write_makefile(out, need);
  write_cmake(out, need);
  outdir_commit(out);
}

const char *runtime_missing(const char *dir, const bool *need) {
  for (int i = 0; i < nruntime_files; i++) {
    struct stat st;
    if (need[i] && stat(arena_printf("%s/%s", dir, runtime_library_path(i)), &st) != 0)
      return runtime_library_path(i);
  }
  struct stat st;
  if (stat(arena_printf("%s/runtime.mk", dir), &st) != 0)
    return "runtime.mk";
  return NULL;
}

/* The absolute, symlink-free form of an existing folder. */
static char *real_dir(const char *dir) {
  char buf[PATH_MAX];
  if (!realpath(dir, buf))
    error_file(dir, "cannot resolve the folder: %s", strerror(errno));
  return arena_strdup(buf);
}

/* The same for a folder that may not exist yet (compile writes its
 * folder last, outdir.c): its nearest existing parent resolved, the rest
 * appended as given. */
static char *future_dir(const char *dir) {
  struct stat st;
  if (stat(dir, &st) == 0)
    return real_dir(dir);
  size_t n = strlen(dir);
  while (n > 1 && dir[n - 1] == '/')
    n--;
  const char *slash = NULL;
  for (size_t i = 0; i < n; i++)
    if (dir[i] == '/')
      slash = dir + i;
  if (!slash)
    return arena_printf("%s/%.*s", real_dir("."), (int)n, dir);
  const char *parent = slash == dir ? "/" : arena_printf("%.*s", (int)(slash - dir), dir);
  char *p = future_dir(parent);
  return arena_printf("%s%s%.*s", p, p[strlen(p) - 1] == '/' ? "" : "/",
                      (int)(n - (size_t)(slash + 1 - dir)), slash + 1);
}

const char *relative_dir(const char *from, const char *to) {
  char *a = future_dir(from), *b = real_dir(to);
  /* The longest common prefix that ends at a path component. */
  size_t common = 0;
  for (size_t i = 0;; i++) {
    bool end_a = a[i] == '\0' || a[i] == '/';
    bool end_b = b[i] == '\0' || b[i] == '/';
    if (end_a && end_b)
      common = i;
    if (a[i] != b[i] || a[i] == '\0')
      break;
  }
  const char *up = "";
  for (const char *s = a + common; *s; s++)
    if (*s == '/')
      up = arena_printf("%s../", up);
  const char *rest = b[common] == '/' ? b + common + 1 : b + common;
  const char *r = arena_printf("%s%s", up, rest);
  size_t n = strlen(r);
  if (n == 0)
    return ".";
  if (r[n - 1] == '/')
    return arena_printf("%.*s", (int)(n - 1), r);
  return r;
}
