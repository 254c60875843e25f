/* SPDX-License-Identifier: Apache-2.0 */
/*
 * mutate.h - structure-aware mutations of .tflite files, and the whole
 * compiler pipeline run in-process on one file.  Shared by the fuzzer
 * (tests/fuzz/fuzz_compile.c) and the robustness test
 * (tests/unit/test_compile_robust.c).
 *
 * Random bytes mostly break a FlatBuffer's offsets, so the reader refuses
 * them and the later steps never see them.  Here the reader itself says
 * where each value lies (read_trace, tflite.c): tensor shapes and types,
 * quantization scales and zero points, buffer indices and lengths, op
 * input/output indices, opcode indices and every option field.  A
 * mutation rewrites one such value in place - a special number, a
 * neighbour, a value of the same field elsewhere in the file, or a swap
 * of two values of one field - so the file stays a well-formed FlatBuffer
 * and the mutant usually reaches verify, the passes, the lowering, the
 * planner and the emitter with a subtly wrong model.
 *
 * Everything is static: include this header in one C file.
 */
#ifndef MUTATE_H
#define MUTATE_H

#define _POSIX_C_SOURCE 200809L
#include "tinyaot.h"
#include "lower.h"

#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------ the fields */

typedef struct {
  size_t pos, width;
  FieldKind kind;
  const char *what; /* a string literal of tflite.c */
  int vec;          /* element of a vector: the index of the field holding
                       its length; else -1 */
} Field;

#define MAX_FIELDS 65536

static Field mut_fields[MAX_FIELDS];
static int mut_nfields;
static size_t mut_size; /* the file being traced */
static const uint8_t *mut_buf;

static inline uint32_t load_le_raw(size_t pos) {
  return (uint32_t)mut_buf[pos] | (uint32_t)mut_buf[pos + 1] << 8 |
         (uint32_t)mut_buf[pos + 2] << 16 | (uint32_t)mut_buf[pos + 3] << 24;
}

static inline void mut_trace(size_t pos, size_t width, FieldKind kind, const char *what) {
  if (mut_nfields >= MAX_FIELDS || pos > mut_size || width > mut_size - pos)
    return;
  /* The reader may decode a value twice (shared tables): keep one. */
  for (int i = mut_nfields - 1; i >= 0 && i >= mut_nfields - 8; i--)
    if (mut_fields[i].pos == pos)
      return;
  /* An element of a vector whose length was traced: link it. */
  int vec = -1;
  if (kind != FIELD_LENGTH)
    for (int i = mut_nfields - 1; i >= 0 && i >= mut_nfields - 64; i--) {
      const Field *f = &mut_fields[i];
      if (f->kind == FIELD_LENGTH && !strcmp(f->what, what) && pos >= f->pos + 4 &&
          pos < f->pos + 4 + (size_t)load_le_raw(f->pos) * width) {
        vec = i;
        break;
      }
    }
  mut_fields[mut_nfields++] = (Field){pos, width, kind, what, vec};
}

/* Collects the fields of buf (as far as the reader gets; a broken file
 * gives fewer).  Returns their count. */
static inline int find_fields(const uint8_t *buf, size_t size) {
  mut_nfields = 0;
  mut_size = size;
  mut_buf = buf;
  jmp_buf jb, *saved = error_jmp;
  error_jmp = &jb;
  read_trace = mut_trace;
  if (!setjmp(jb))
    read_tflite("mutant.tflite", buf, size);
  read_trace = NULL;
  error_jmp = saved;
  return mut_nfields;
}

/* ------------------------------------------------------- randomness */

typedef struct {
  uint64_t s;
} Rng;

static inline uint32_t rng_next(Rng *r) { /* splitmix64, upper half */
  uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return (uint32_t)((z ^ (z >> 31)) >> 32);
}
static inline uint32_t rng_below(Rng *r, uint32_t n) { return n ? rng_next(r) % n : 0; }

/* ------------------------------------------------------- the values */

static inline uint64_t load_le(const uint8_t *b, size_t pos, size_t w) {
  uint64_t v = 0;
  for (size_t i = 0; i < w; i++)
    v |= (uint64_t)b[pos + i] << (8 * i);
  return v;
}
static inline void store_le(uint8_t *b, size_t pos, size_t w, uint64_t v) {
  for (size_t i = 0; i < w; i++)
    b[pos + i] = (uint8_t)(v >> (8 * i));
}
static inline int64_t sign_extend(uint64_t v, size_t w) {
  unsigned shift = 64 - 8 * (unsigned)w;
  return w >= 8 ? (int64_t)v : (int64_t)(v << shift) >> shift;
}

/* Fields that hold the file's structure rather than the model's values:
 * changing their lengths mostly tests the reader, which has its own
 * fuzzer.  They are picked rarely. */
static inline bool is_structural(const Field *f) {
  static const char *const names[] = {
      "tensors", "operators", "buffers", "subgraphs", "operator_codes",
      "metadata", "name", "description", "signature_defs", "custom_code",
      "buffer offset", "buffer size", "version", "large_custom_options_offset",
      "large_custom_options_size", "shape_signature"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (!strcmp(f->what, names[i]))
      return true;
  return false;
}

/* Another traced field of the same name and width, or -1. */
static inline int same_field(Rng *r, int self) {
  const Field *f = &mut_fields[self];
  for (int tries = 0; tries < 64; tries++) {
    int j = (int)rng_below(r, (uint32_t)mut_nfields);
    if (j != self && mut_fields[j].width == f->width &&
        mut_fields[j].kind == f->kind && !strcmp(mut_fields[j].what, f->what))
      return j;
  }
  return -1;
}

static inline int64_t int_special(Rng *r, int64_t cur) {
  static const int64_t specials[] = {
      0, 1, -1, 2, 3, 4, 5, 7, 8, 9, 10, 16, 17, 31, 32, 33, 63, 64, 127, 128,
      -128, -127, 255, 256, 32767, -32768, 65535, 65536, 1 << 20, 1 << 24,
      INT32_MAX, INT32_MIN, (int64_t)INT32_MAX + 1, -((int64_t)1 << 40),
      INT64_MAX, INT64_MIN};
  switch (rng_below(r, 8)) {
  case 0: return (int64_t)((uint64_t)cur + 1); /* wrapping */
  case 1: return (int64_t)((uint64_t)cur - 1);
  case 2: return (int64_t)((uint64_t)cur * 2);
  case 3: return cur / 2;
  case 4: return (int64_t)(0 - (uint64_t)cur);
  case 5: return (int64_t)rng_below(r, 12) - 2;
  default:
    return specials[rng_below(r, sizeof specials / sizeof *specials)];
  }
}

static inline float float_special(Rng *r, float cur) {
  static const float specials[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 2.0f,
                                   1.0f / 256, 1e-10f, 1e-30f, 1e-38f,
                                   1e-40f /* denormal */, 1e-45f, 1e10f,
                                   1e30f, FLT_MAX, -FLT_MAX, FLT_MIN};
  switch (rng_below(r, 9)) {
  case 0: return cur * 2;
  case 1: return cur / 2;
  case 2: return cur * 256;
  case 3: return -cur;
  case 4: return NAN;
  case 5: return rng_below(r, 2) ? INFINITY : -INFINITY;
  case 6: return cur * (float)(1 + rng_below(r, 3)) / (float)(1 + rng_below(r, 3));
  default:
    return specials[rng_below(r, sizeof specials / sizeof *specials)];
  }
}

/* The shape_signature of the tensor whose shape vector has its length in
 * field `shape_len`: the index of its length field, or -1.  The reader
 * reads a tensor's shape, then its other fields, then its signature. */
static inline int signature_of(int shape_len) {
  for (int j = shape_len + 1; j < mut_nfields; j++) {
    const Field *f = &mut_fields[j];
    if (f->kind != FIELD_LENGTH)
      continue;
    if (!strcmp(f->what, "shape"))
      return -1;
    if (!strcmp(f->what, "shape_signature"))
      return j;
  }
  return -1;
}

/* After a change to a tensor's shape (its length field, or element k of
 * it), the same change to its shape_signature, if it has one: otherwise
 * verify refuses nearly every shape change as dynamic. */
static inline void mirror_signature(uint8_t *b, const Field *f, int self) {
  bool is_len = f->kind == FIELD_LENGTH;
  int len = is_len ? self : f->vec;
  if (len < 0 || strcmp(mut_fields[len].what, "shape"))
    return;
  int sig = signature_of(len);
  if (sig < 0)
    return;
  size_t at = mut_fields[sig].pos;
  if (!is_len)
    at += 4 + (f->pos - (mut_fields[len].pos + 4));
  if (at + 4 <= mut_size)
    store_le(b, at, 4, load_le(b, f->pos, 4));
}

/* A shape element: sizes that matter (0, 1, off by one, doubled, halved,
 * another dimension), rarely negative or huge; or two dimensions of the
 * same shape swapped (a constant keeps its byte size). */
static inline void mutate_dim(Rng *r, uint8_t *b, int i) {
  const Field *f = &mut_fields[i];
  int32_t cur = (int32_t)load_le(b, f->pos, 4), v;
  if (f->vec >= 0 && rng_below(r, 3) == 0) {
    size_t first = mut_fields[f->vec].pos + 4;
    uint32_t n = (uint32_t)load_le(b, mut_fields[f->vec].pos, 4);
    size_t at = first + 4 * (size_t)rng_below(r, n);
    if (at + 4 <= mut_size) {
      uint64_t other = load_le(b, at, 4);
      store_le(b, at, 4, (uint64_t)(uint32_t)cur);
      store_le(b, f->pos, 4, other);
      /* Mirror both elements. */
      Field g = *f;
      g.pos = at;
      mirror_signature(b, &g, i);
      mirror_signature(b, f, i);
      return;
    }
  }
  static const int32_t sizes[] = {0, 1, 2, 3, 4, 5, 7, 8, 16, 255, 256, 65536, 1 << 24};
  switch (rng_below(r, 8)) {
  case 0: v = (int32_t)((uint32_t)cur + 1); break;
  case 1: v = (int32_t)((uint32_t)cur - 1); break;
  case 2: v = (int32_t)((uint32_t)cur * 2); break;
  case 3: v = cur / 2; break;
  case 4: v = rng_below(r, 8) ? (int32_t)rng_below(r, 10) : -1; break;
  default: v = sizes[rng_below(r, sizeof sizes / sizeof *sizes)];
  }
  store_le(b, f->pos, 4, (uint64_t)(uint32_t)v);
  mirror_signature(b, f, i);
}

/* Rewrites field i of b (b holds the traced file). */
static inline void mutate_field(Rng *r, uint8_t *b, int i) {
  const Field *f = &mut_fields[i];
  uint64_t raw = load_le(b, f->pos, f->width);
  if (f->kind == FIELD_INT && !strcmp(f->what, "shape") && rng_below(r, 4)) {
    mutate_dim(r, b, i);
    return;
  }
  /* A custom op's options are FlexBuffers bytes the reader does not
   * decode, and a small constant is most often an op's parameter (axis,
   * permutation, paddings, begin/end/strides, sizes, a shape): change a
   * byte or a word inside them, mostly rather than their length. */
  if (f->kind == FIELD_LENGTH && raw > 0 && rng_below(r, 4) &&
      (!strcmp(f->what, "custom_options") ||
       (!strcmp(f->what, "buffer data") && raw <= 256))) {
    size_t first = f->pos + 4, n = (size_t)raw;
    if (first > mut_size || n > mut_size - first)
      return;
    size_t at = first + rng_below(r, (uint32_t)n);
    if (f->what[0] == 'b') /* int32 parameters: whole words */
      at = first + (at - first) / 4 * 4;
    if (rng_below(r, 2) || at + 4 > first + n)
      b[at] = (uint8_t)int_special(r, b[at]);
    else
      store_le(b, at, 4, (uint64_t)int_special(r, (int32_t)load_le(b, at, 4)));
    return;
  }
  int other = rng_below(r, 4) == 0 ? same_field(r, i) : -1;
  if (other >= 0) {
    const Field *o = &mut_fields[other];
    uint64_t v = load_le(b, o->pos, o->width);
    if (rng_below(r, 2)) {
      store_le(b, o->pos, o->width, raw); /* swap */
      mirror_signature(b, o, other);
    }
    store_le(b, f->pos, f->width, v);     /* or copy */
    mirror_signature(b, f, i);
    return;
  }
  if (f->kind == FIELD_FLOAT) {
    float x;
    uint32_t u = (uint32_t)raw;
    memcpy(&x, &u, 4);
    x = float_special(r, x);
    memcpy(&u, &x, 4);
    store_le(b, f->pos, 4, u);
  } else if (f->kind == FIELD_LENGTH) {
    /* Shorter is always inside the file; longer reads what follows. */
    uint64_t n = raw;
    switch (rng_below(r, 6)) {
    case 0: n = n ? n - 1 : 0; break;
    case 1: n = n + 1; break;
    case 2: n = n / 2; break;
    case 3: n = 0; break;
    case 4: n = 1; break;
    default: n = n ? rng_below(r, (uint32_t)n) : 0; break;
    }
    store_le(b, f->pos, 4, n);
    mirror_signature(b, f, i);
  } else {
    int64_t v = int_special(r, sign_extend(raw, f->width));
    store_le(b, f->pos, f->width, (uint64_t)v);
    mirror_signature(b, f, i);
  }
}

/* Random bytes, for variety: a byte, a bit, or a special 32-bit word. */
static inline void mutate_bytes(Rng *r, uint8_t *b, size_t size) {
  if (!size)
    return;
  size_t at = rng_below(r, (uint32_t)size);
  switch (rng_below(r, 3)) {
  case 0: b[at] = (uint8_t)rng_next(r); break;
  case 1: b[at] ^= (uint8_t)(1u << rng_below(r, 8)); break;
  default:
    at &= ~(size_t)3;
    if (at + 4 <= size)
      store_le(b, at, 4, (uint64_t)int_special(r, (int32_t)load_le(b, at, 4)));
  }
}

/* Applies 1..max_changes mutations to b (size bytes), most of them to
 * traced fields of b itself.  Returns false when b has no fields (it is
 * then mutated bytewise). */
static inline bool mutate_model(Rng *r, uint8_t *b, size_t size, int max_changes) {
  int n = 1 + (int)rng_below(r, (uint32_t)max_changes);
  if (find_fields(b, size) == 0) {
    for (int k = 0; k < n; k++)
      mutate_bytes(r, b, size);
    return false;
  }
  for (int k = 0; k < n; k++) {
    if (rng_below(r, 16) == 0) {
      mutate_bytes(r, b, size);
      continue;
    }
    int i = (int)rng_below(r, (uint32_t)mut_nfields);
    for (int tries = 0; tries < 4 && is_structural(&mut_fields[i]); tries++)
      i = (int)rng_below(r, (uint32_t)mut_nfields);
    /* One in six: a custom op's options or a small constant, when the
     * model has some (a few fields among thousands otherwise). */
    if (rng_below(r, 6) == 0)
      for (int tries = 0; tries < 64; tries++) {
        int j = (int)rng_below(r, (uint32_t)mut_nfields);
        const Field *g = &mut_fields[j];
        if (g->kind == FIELD_LENGTH &&
            (!strcmp(g->what, "custom_options") ||
             (!strcmp(g->what, "buffer data") && load_le(b, g->pos, 4) <= 256))) {
          i = j;
          break;
        }
      }
    mutate_field(r, b, i);
  }
  return true;
}

/* --------------------------------------------------- the pipeline */

typedef enum { RUN_ACCEPTED, RUN_REFUSED, RUN_DIED } RunResult;

/* How far the last compile_buffer() got. */
enum { STAGE_READ, STAGE_VERIFY, STAGE_PASSES, STAGE_LOWER, STAGE_PLAN, STAGE_EMIT };
static volatile int run_stage;

/* The compile options one run uses; variant picks among a few. */
typedef struct {
  LowerOptions lower;
  PlanOptions plan;
  Pool pool;
  EmitOptions emit;
} RunOptionsSet;

static inline void run_options(RunOptionsSet *s, unsigned variant) {
  memset(s, 0, sizeof *s);
  s->lower.rounding = (variant & 1) ? TA_ROUND_SINGLE : TA_ROUND_DOUBLE;
  s->pool = (Pool){.name = "workspace", .limit = SIZE_MAX};
  s->plan.pools = &s->pool;
  s->plan.npools = 1;
  s->plan.align = 16;
  s->plan.algo = "best";
  s->plan.schedule = (variant & 2) ? "model" : "best";
  s->plan.io_in_workspace = (variant & 4) != 0;
  s->emit.io_in_workspace = s->plan.io_in_workspace;
  s->emit.prefix = "m";
  s->emit.model = "mutant.tflite";
}

/* When set, compile_buffer() also prints every dump (-dI, -dL, -dP,
 * plan --json and --svg) of an accepted model here: the printers read
 * the same untrusted values. */
static FILE *run_dump;

static jmp_buf *die_jmp;
static char die_message[1024];

static inline void die_to_jmp(const char *msg) {
  snprintf(die_message, sizeof die_message, "%s", msg);
  if (die_jmp)
    longjmp(*die_jmp, 1);
}

/*
 * Reads, verifies, runs the passes, lowers, verifies again, plans and
 * (when dir is not NULL) emits the file `buf` into dir, in this process,
 * as `tinyaot compile` does.  Refusals (error_at) come back as
 * RUN_REFUSED with error_message set; a die() as RUN_DIED with
 * die_message set (die_hook is set for the call).  Crashes and sanitizer
 * reports are not caught: they end the process.  *gout (may be NULL)
 * receives the graph of an accepted run.
 */
static inline RunResult compile_buffer(const char *path, const uint8_t *buf, size_t size,
                                const RunOptionsSet *opt, const char *dir,
                                Graph **gout, Plan **pout) {
  jmp_buf err, dj;
  volatile RunResult res = RUN_ACCEPTED;
  error_message[0] = 0;
  die_message[0] = 0;
  error_jmp = &err;
  die_jmp = &dj;
  die_hook = die_to_jmp;
  if (setjmp(dj)) {
    res = RUN_DIED;
  } else if (setjmp(err)) {
    res = RUN_REFUSED;
  } else {
    run_stage = STAGE_READ;
    Graph *g = read_tflite(path, buf, size);
    run_stage = STAGE_VERIFY;
    verify(g);
    run_stage = STAGE_PASSES;
    run_passes(g);
    run_stage = STAGE_LOWER;
    lower(g, &opt->lower);
    verify(g);
    run_stage = STAGE_PLAN;
    Plan *p = plan_graph(g, &opt->plan);
    run_stage = STAGE_EMIT;
    if (run_dump) {
      print_inspect(run_dump, g, false);
      print_lowering(run_dump, g);
      print_plan(run_dump, g, p);
      print_plan_json(run_dump, g, p);
      print_plan_svg(run_dump, g, p);
      /* the report, HTML and JSON (flash figures left at zero: no
       * toolchain runs here) */
      Flash fl = {.target = "none", .note = "not measured"};
      ReportOptions ro = {.options = "", .prefix = "m", .flash = &fl};
      write_report(run_dump, g, p, &ro, false);
      write_report(run_dump, g, p, &ro, true);
    }
    if (dir)
      emit_folder(g, p, &opt->emit, dir);
    if (gout)
      *gout = g;
    if (pout)
      *pout = p;
  }
  error_jmp = NULL;
  die_jmp = NULL;
  die_hook = NULL;
  return res;
}

/* A C file using every macro of the generated header m.h, so that a
 * macro that is no valid C (a float literal "1f") fails the build. */
static inline bool write_macro_check(const char *dir) {
  FILE *h = fopen(arena_printf("%s/m.h", dir), "r");
  FILE *c = fopen(arena_printf("%s/robust_check.c", dir), "w");
  if (!h || !c) {
    if (h)
      fclose(h);
    if (c)
      fclose(c);
    return false;
  }
  fprintf(c, "#include \"m.h\"\n");
  char line[4096], name[256];
  int n = 0;
  while (fgets(line, sizeof line, h)) {
    if (sscanf(line, "#define %255s", name) != 1 || strchr(name, '(') ||
        !strcmp(name, "M_H") || !strncmp(name, "M_WEIGHT", 8))
      continue;
    size_t len = strlen(name);
    if (len > 6 && !strcmp(name + len - 6, "_SHAPE"))
      fprintf(c, "const long check%d[] = %s;\n", n++, name);
    else if ((len > 6 && !strcmp(name + len - 6, "_DTYPE")) ||
             strchr(line, '"')) /* a string: the dtype, version, SHA-256 */
      fprintf(c, "const char *check%d = %s;\n", n++, name);
    else
      fprintf(c, "const double check%d = (double)(%s);\n", n++, name);
  }
  fclose(h);
  return fclose(c) == 0;
}

/* Compiles what emit_folder() wrote into dir with prefix "m" - the
 * runner, the weights and a file using every macro of the header - with
 * -std=c99 -Wall -Wextra -Werror -pedantic, using the C compiler cc.
 * true when it compiles. */
static inline bool strict_compile(const char *dir, const char *cc) {
  if (!write_macro_check(dir))
    return false;
  fflush(stdout);
  return system(arena_printf("cd '%s' && %s -std=c99 -Wall -Wextra -Werror "
                             "-pedantic -O1 -I. -Iruntime/include -c m.c "
                             "m_weights.c robust_check.c",
                             dir, cc)) == 0;
}

/* Does a refusal's message name the file (and, when it names an op, its
 * index and name)?  error_at() writes "PATH: op I (NAME): ..." or
 * "PATH: ...". */
static inline bool message_is_proper(const char *path, const char *msg) {
  size_t n = strlen(path);
  if (strncmp(msg, path, n) || strncmp(msg + n, ": ", 2) || !msg[n + 2])
    return false;
  const char *rest = msg + n + 2;
  if (!strncmp(rest, "op ", 3)) {
    const char *p = rest + 3;
    if (*p < '0' || *p > '9')
      return true; /* "op" as a word of the message */
    while (*p >= '0' && *p <= '9')
      p++;
    if (strncmp(p, " (", 2))
      return true;
    const char *close = strstr(p, "): ");
    return close && close > p + 2 && close[3];
  }
  return true;
}

#endif
