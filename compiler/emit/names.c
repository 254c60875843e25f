/* SPDX-License-Identifier: Apache-2.0 */
/*
 * names.c - checks, before anything is compiled, every identifier the
 * user gives that reaches the generated C: the prefix (--prefix, or the
 * model file's stem), the pool names (--pool) and the custom-op
 * functions (--custom-op NAME=FUNCTION).
 *
 * Where each lands (emit.c):
 *   prefix P      the files P.h, P.c, ...; every global P_*, macros P_*
 *                 upper-cased (U_*), the include guard U_H
 *   pool NAME     a member of struct P_pools, a local ws_NAME in the run
 *                 function, the macro U_POOL_<NAME upper-cased>_SIZE
 *   FUNCTION      a function declared at file scope in P.c and called
 *                 from P_run(), whose locals are ws, ps, st, inputs,
 *                 outputs, workspace, persistent, pools and ws_<pool>
 *
 * A name is refused when it is
 *   - a keyword of C99, C11, C23 or C++ (P.h is meant for C++ too);
 *   - reserved: a leading underscore, or two underscores anywhere (C++
 *     reserves those, and P_ + a trailing underscore makes two);
 *   - a name the headers the generated code includes define: the
 *     runtime's (every ta_* / TA_* identifier and every header's stem
 *     in the embedded runtime, runtime_files[]), <stdint.h>, <stddef.h>
 *     and <float.h> (NULL, offsetof, INT8_MAX..., FLT_*, DBL_*, *_t);
 *   - for the prefix, also the stem of a standard header (a P.h named
 *     stdint.h would shadow the real one: the folder is on -I) and
 *     tinyaot_harness (the file `tinyaot run` adds);
 *   - a clash with another: two pools whose macros are the same
 *     (sram, SRAM), a function inside the prefix's namespace (P, P_*,
 *     U_*), a function named like a local of the run function, or main.
 * The message names the option and the reason; main.c makes it a usage
 * error.  Any name accepted here gives C that compiles (test_names.sh).
 */
#include "tinyaot.h"

#include <ctype.h>
#include <string.h>

static const char *const keywords[] = {
    /* C99 */
    "auto", "break", "case", "char", "const", "continue", "default", "do",
    "double", "else", "enum", "extern", "float", "for", "goto", "if", "inline",
    "int", "long", "register", "restrict", "return", "short", "signed",
    "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned",
    "void", "volatile", "while",
    /* C23 (C11's _Keywords start with an underscore and a capital) */
    "alignas", "alignof", "bool", "constexpr", "false", "nullptr",
    "static_assert", "thread_local", "true", "typeof", "typeof_unqual",
    /* C++ */
    "and", "and_eq", "asm", "bitand", "bitor", "catch", "char8_t", "char16_t",
    "char32_t", "class", "co_await", "co_return", "co_yield", "compl",
    "concept", "const_cast", "consteval", "constinit", "decltype", "delete",
    "dynamic_cast", "explicit", "export", "friend", "mutable", "namespace",
    "new", "noexcept", "not", "not_eq", "operator", "or", "or_eq", "private",
    "protected", "public", "reinterpret_cast", "requires", "static_cast",
    "template", "this", "throw", "try", "typeid", "typename", "using",
    "virtual", "wchar_t", "xor", "xor_eq",
    /* macros of <stddef.h> and the like */
    "NULL", "offsetof", "errno", "assert", "DECIMAL_DIG"};

/* Standard headers: a prefix named like one shadows it. */
static const char *const std_headers[] = {
    "assert", "complex", "ctype", "errno", "fenv", "float", "inttypes",
    "iso646", "limits", "locale", "math", "setjmp", "signal", "stdalign",
    "stdarg", "stdatomic", "stdbit", "stdbool", "stdckdint", "stddef",
    "stdint", "stdio", "stdlib", "stdnoreturn", "string", "tgmath", "threads",
    "time", "uchar", "wchar", "wctype", "arm_acle", "arm_math"};

static bool starts(const char *s, const char *p) {
  return !strncmp(s, p, strlen(p));
}

static bool in_list(const char *const *list, size_t n, const char *s) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(list[i], s))
      return true;
  return false;
}

static const char *upper_of(const char *s) {
  char *u = arena_strdup(s);
  for (char *c = u; *c; c++)
    *c = (char)toupper((unsigned char)*c);
  return u;
}

/* Is s the stem of a runtime header (runtime/.../NAME.h)? */
static bool runtime_header(const char *s) {
  for (int i = 0; i < nruntime_files; i++) {
    const char *p = runtime_files[i].path;
    const char *base = strrchr(p, '/');
    base = base ? base + 1 : p;
    size_t n = strlen(base);
    if (n > 2 && !strcmp(base + n - 2, ".h") && strlen(s) == n - 2 &&
        !strncmp(base, s, n - 2))
      return true;
  }
  return false;
}

/* Why `s` cannot be a C identifier of the generated code, or NULL. */
static const char *name_problem(const char *s) {
  if (in_list(keywords, sizeof keywords / sizeof *keywords, s))
    return "is a C or C++ keyword or a standard macro";
  if (s[0] == '_')
    return "starts with an underscore (reserved for the implementation)";
  if (strstr(s, "__"))
    return "holds two underscores in a row (reserved)";
  size_t n = strlen(s);
  if (n >= 2 && !strcmp(s + n - 2, "_t"))
    return "ends in _t (the standard headers' type names)";
  const char *U = upper_of(s);
  if (starts(U, "TA_") || !strcmp(U, "TA"))
    return "is in the runtime's namespace (ta_*, TA_*)";
  if (runtime_header(s))
    return "is the name of a runtime header";
  if ((starts(s, "INT") || starts(s, "UINT")) && !strcmp(s, U))
    return "is in <stdint.h>'s namespace (INT*, UINT*)";
  if (starts(s, "FLT_") || starts(s, "DBL_") || starts(s, "LDBL_"))
    return "is in <float.h>'s namespace (FLT_*, DBL_*, LDBL_*)";
  static const char *const limits[] = {"SIZE_", "PTRDIFF_", "SIG_ATOMIC_",
                                       "WCHAR_", "WINT_"};
  for (size_t i = 0; i < sizeof limits / sizeof *limits; i++)
    if (starts(s, limits[i]))
      return "is a <stdint.h> limit";
  return NULL;
}

/* Locals of the run function a custom-op call must not be hidden by. */
static bool run_local(const char *s) {
  static const char *const locals[] = {"ws", "ps", "st", "inputs", "outputs",
                                       "workspace", "persistent", "pools", "i"};
  return in_list(locals, sizeof locals / sizeof *locals, s) || starts(s, "ws_");
}

const char *check_c_names(const char *prefix, bool prefix_given,
                          const Pool *pools, int npools,
                          const CustomKernel *custom, int ncustom) {
  const char *opt = prefix_given
                        ? arena_printf("--prefix %s", prefix)
                        : arena_printf("the prefix '%s' (the model file's name; "
                                       "give --prefix NAME)", prefix);
  const char *why = name_problem(prefix);
  if (!why && in_list(std_headers, sizeof std_headers / sizeof *std_headers, prefix))
    why = "is the name of a standard header, which its .h would shadow";
  if (!why && !strcmp(prefix, "tinyaot_harness"))
    why = "is the name of the file tinyaot run adds";
  if (!why && prefix[strlen(prefix) - 1] == '_')
    why = "ends in an underscore (P_run would hold two in a row)";
  if (why)
    return arena_printf("%s: the name %s", opt, why);
  const char *P_ = arena_printf("%s_", prefix);
  const char *U_ = arena_printf("%s_", upper_of(prefix));
  for (int i = 0; i < npools; i++) {
    const char *name = pools[i].name;
    why = name_problem(name);
    if (why)
      return arena_printf("--pool %s: the name %s", name, why);
    for (int k = 0; k < i; k++)
      if (!strcmp(upper_of(pools[k].name), upper_of(name)))
        return arena_printf("--pool %s: its macro %sPOOL_%s_SIZE is also pool "
                            "%s's: pool names must differ in more than case",
                            name, U_, upper_of(name), pools[k].name);
  }
  for (int i = 0; i < ncustom; i++) {
    const char *fn = custom[i].function;
    if (!fn)
      continue;
    const char *o = arena_printf("--custom-op %s=%s", custom[i].name, fn);
    why = name_problem(fn);
    if (!why && (!strcmp(fn, prefix) || starts(fn, P_) || starts(fn, U_)))
      why = arena_printf("is in the generated code's namespace (%s, %s*, %s*)",
                         prefix, P_, U_);
    if (!why && run_local(fn))
      why = "is the name of a local variable of the run function";
    if (!why && !strcmp(fn, "main"))
      why = "is main";
    if (why)
      return arena_printf("%s: the function name %s", o, why);
  }
  return NULL;
}

bool c_name_reserved(const char *s) { return name_problem(s) != NULL; }
