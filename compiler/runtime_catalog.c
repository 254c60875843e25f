/* SPDX-License-Identifier: Apache-2.0 */
/*
 * runtime_catalog.c - what the runtime (runtime/, embedded into tinyaot
 * by mk/emit.mk as runtime_files[]) offers: which file defines a kernel,
 * and which files a set of kernels needs.
 *
 * The lowering asks runtime_defines() before it picks a kernel; the
 * emitter asks runtime_select() which files to copy.  Neither knows how
 * the other works, and neither reads the runtime's folders: the
 * catalogue is the one place that reads the embedded sources.
 *
 * How a definition is found: a .c file defines `fn` when a line at
 * column 0 that is not a declaration, a comment, a preprocessor line or
 * a static function mentions `fn(`.  A file's dependencies are every ta_*
 * identifier it mentions (the closure is taken over those that some file
 * defines; the rest are types and macros).
 */
#include "tinyaot.h"

#include <ctype.h>
#include <string.h>

static bool is_ident(char c) { return isalnum((unsigned char)c) || c == '_'; }

static bool is_c_file(int i) {
  size_t n = strlen(runtime_files[i].path);
  return n > 2 && !strcmp(runtime_files[i].path + n - 2, ".c");
}

/* Does `text` define function `fn` (a line at column 0, not a
 * declaration, where `fn(` appears)? */
static bool defines(const char *text, const char *fn) {
  size_t n = strlen(fn);
  for (const char *line = text; *line;) {
    const char *end = strchr(line, '\n');
    if (!end)
      end = line + strlen(line);
    if (!isspace((unsigned char)*line) && *line != '#' && *line != '/' &&
        *line != '*' && strncmp(line, "static ", 7)) {
      const char *last = end;
      while (last > line && isspace((unsigned char)last[-1]))
        last--;
      bool decl = last > line && last[-1] == ';';
      for (const char *s = line; !decl && s + n <= end; s++) {
        if (strncmp(s, fn, n) || (s > line && is_ident(s[-1])) ||
            is_ident(s[n]))
          continue;
        const char *q = s + n;
        while (q < end && *q == ' ')
          q++;
        if (q < end && *q == '(')
          return true;
      }
    }
    line = *end ? end + 1 : end;
  }
  return false;
}

int runtime_file_defining(const char *fn) {
  /* A few distinct kernels per model: remember the answers. */
  static struct {
    char name[64];
    int file;
  } cache[128];
  static int ncache;
  for (int k = 0; k < ncache; k++)
    if (!strcmp(cache[k].name, fn))
      return cache[k].file;
  int file = -1;
  for (int i = 0; i < nruntime_files && file < 0; i++)
    if (is_c_file(i) && defines(runtime_files[i].text, fn))
      file = i;
  if (ncache < 128 && strlen(fn) < sizeof cache[0].name) {
    strcpy(cache[ncache].name, fn);
    cache[ncache++].file = file;
  }
  return file;
}

bool runtime_defines(const char *fn) { return runtime_file_defining(fn) >= 0; }

const char *runtime_select(const char *const *kernels, int nkernels, bool *need) {
  int cap = 4096 + nkernels;
  const char **work = arena_array((size_t)cap, sizeof(char *));
  int nwork = 0;
  for (int k = 0; k < nkernels; k++)
    work[nwork++] = kernels[k];
  for (int i = 0; i < nruntime_files; i++)
    need[i] = !is_c_file(i);
  const char **seen = arena_array(4096, sizeof(char *));
  int nseen = 0;
  while (nwork > 0) {
    const char *fn = work[--nwork];
    bool done = false;
    for (int k = 0; k < nseen && !done; k++)
      done = !strcmp(seen[k], fn);
    if (done || nseen >= 4096)
      continue;
    seen[nseen++] = fn;
    int file = runtime_file_defining(fn);
    if (file < 0 || need[file])
      continue; /* a type or macro, a function defined in a header, or done */
    need[file] = true;
    /* Every ta_* identifier the file mentions may be a function it calls. */
    for (const char *s = runtime_files[file].text; *s; s++) {
      if ((s > runtime_files[file].text && is_ident(s[-1])) || strncmp(s, "ta_", 3))
        continue;
      size_t k = 3;
      while (is_ident(s[k]))
        k++;
      if (nwork < cap)
        work[nwork++] = arena_printf("%.*s", (int)k, s);
      s += k - 1;
    }
  }
  for (int k = 0; k < nkernels; k++) {
    int file = runtime_file_defining(kernels[k]);
    if (file < 0 || !need[file])
      return kernels[k];
  }
  return NULL;
}
