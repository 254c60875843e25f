/* SPDX-License-Identifier: Apache-2.0 */
/*
 * emit.c - writes the generated folder: C99 source a device build compiles.
 *
 * Needs: a lowered graph (every op's Lowered record, lower.c) and its
 * memory plan (every non-constant tensor's Tensor.storage, every scratch
 * in Op.scratch_buffer, offsets inside the pools).
 * Guarantees: a self-contained folder
 *
 *   <p>.h           the interface: sizes, shapes, quantization as macros,
 *                   struct <p>_inputs / <p>_outputs, <p>_run()
 *   <p>.c           the runner: one kernel call per op, in schedule order,
 *                   each preceded by a comment naming the op and shapes
 *   <p>_weights.c   the constants the calls use (model tensors and the
 *                   host-computed arrays), const and aligned
 *   <p>_plan.json   the memory plan
 *   <p>.mk          a Makefile fragment building lib<p>.a
 *   CMakeLists.txt  the same for CMake
 *   runtime/        the kernel sources the runner calls, unchanged
 *
 * The files go through outdir.c: written beside DIR, moved in only when
 * all are written, never over a file tinyaot did not write.
 *
 * Every name is prefixed so that several models link into one program;
 * the runtime files are identical for every model (they carry no prefix),
 * and each model builds into its own static library, so two libraries
 * holding the same kernel link without clashes (the linker takes the
 * first).  With --runtime DIR (runtime_out.c) the folder carries no
 * kernels and its build files refer to the shared runtime in DIR, which
 * is what a flat build of every .c (an IDE's) needs.  Nothing depends on time, paths or addresses: the same input
 * gives the same bytes.  Generated code allocates nothing.
 */
#define _POSIX_C_SOURCE 200809L
#include "tinyaot.h"
#include "version.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const Graph *g;
  const Plan *p;
  const EmitOptions *o;
  OutDir *out;          /* the folder being written (outdir.c) */
  const char *P;        /* prefix */
  const char *U;        /* PREFIX, upper case */
  const char **in_name; /* struct member per model input */
  const char **out_name;
  int *io_of_buf;    /* per buffer: the model input/output tensor in it, or -1 */
  bool *const_used;  /* per tensor: a call reads its weights array */
  bool uses_ws;      /* some call addresses a pool */
  bool uses_ps;      /* ... the persistent area */
  const char *runtime_rel; /* --runtime: the shared runtime, relative to dir */
  const char *section;     /* the weights' linker section */
  bool flat_include;       /* runtime headers beside the model's (package.c) */
  size_t *blob_off;        /* --weights-blob: per tensor, its offset in the
                              payload, or SIZE_MAX (not in the blob) */
  size_t blob_size;        /* the payload so far */
  /* Identical constants stored once (dedup_constants): */
  int *tensor_canon;       /* per tensor: the constant tensor whose array
                              it uses (itself unless an earlier one has the
                              same dtype and bytes) */
  int *tensor_shared;      /* per canonical tensor: how many others use it */
  const char ***const_alias; /* per op, per constant (array or parameter
                                struct): the symbol of an identical
                                earlier one, or NULL */
  int **const_shared;      /* per op, per array: how many others use it */
  bool uses_copy;          /* the structure ops copy bytes (<p>_copy) */
  int *partner;            /* control_partners(), once needed */
} Emit;

/* ------------------------------------------------------------ helpers */

static FILE *open_out(const Emit *e, const char *name) {
  return outdir_open(e->out, name);
}

static void close_out(const Emit *e, FILE *f, const char *name) {
  outdir_close(e->out, f, name);
}

static const char *upper(const char *s) {
  char *u = arena_strdup(s);
  for (char *c = u; *c; c++)
    *c = (char)toupper((unsigned char)*c);
  return u;
}

/* A C member name from a TFLite tensor name: "serving_default_x:0" -> "x",
 * "MobilenetV1/Predictions/Reshape_1" -> "reshape_1".  Unique within
 * `taken` (n names so far); `role` and `i` name it when nothing is left. */
static const char *member_name(const char *tname, const char *role, int i,
                               const char **taken, int n) {
  const char *s = tname ? tname : "";
  const char *slash = strrchr(s, '/');
  if (slash)
    s = slash + 1;
  if (!strncmp(s, "serving_default_", 16))
    s += 16;
  char *b = arena_alloc(strlen(s) + 32);
  size_t k = 0;
  for (const char *c = s; *c && *c != ':'; c++) {
    char ch = (char)tolower((unsigned char)*c);
    if (!isalnum((unsigned char)ch))
      ch = '_';
    if (ch == '_' && (k == 0 || b[k - 1] == '_'))
      continue;
    b[k++] = ch;
  }
  while (k > 0 && b[k - 1] == '_')
    k--;
  b[k] = '\0';
  const char *name = b;
  if (k == 0)
    name = arena_printf("%s%d", role, i);
  else if (isdigit((unsigned char)b[0]))
    name = arena_printf("%s_%s", role, b);
  if (c_name_reserved(name)) /* a keyword, a standard or runtime name */
    name = arena_printf("%s_", name);
  const char *base = name;
  for (int dup = 1;; dup++) {
    bool clash = false;
    for (int j = 0; j < n; j++)
      clash |= !strcmp(taken[j], name);
    if (!clash)
      return name;
    name = arena_printf("%s_%d", base, dup);
  }
}

static const char *ctype_of(DType dt) {
  switch (dt) {
  case DT_INT8: return "int8_t";
  case DT_UINT8: return "uint8_t";
  case DT_INT16: return "int16_t";
  case DT_UINT16: return "uint16_t";
  case DT_INT32: return "int32_t";
  case DT_UINT32: return "uint32_t";
  case DT_INT64: return "int64_t";
  case DT_UINT64: return "uint64_t";
  case DT_FLOAT32: return "float";
  case DT_COMPLEX64: return "float"; /* (re, im) pairs */
  case DT_FLOAT64: return "double";
  case DT_BOOL: return "uint8_t";
  default: return "uint8_t"; /* raw bytes (float16, int4, ...) */
  }
}

/* "int8[1,49,10,1]" */
static const char *shape_str(const Tensor *t) {
  char buf[256];
  int n = snprintf(buf, sizeof buf, "%s[", dtype_name(t->dtype));
  for (int i = 0; i < t->ndims && n < 200; i++)
    n += snprintf(buf + n, sizeof buf - (size_t)n, "%s%" PRId32, i ? "," : "",
                  t->dims[i]);
  snprintf(buf + n, sizeof buf - (size_t)n, "]");
  return arena_strdup(buf);
}

/* A tensor name made safe inside a C comment. */
static const char *comment_safe(const char *s) {
  char *c = arena_strdup(s ? s : "");
  for (char *q = c; *q; q++)
    if ((*q == '*' && q[1] == '/') || (*q == '/' && q[1] == '*') ||
        (unsigned char)*q < 0x20 || (unsigned char)*q >= 0x7f)
      *q = '_';
  return c;
}

/* A constant, or a view of one: its bytes are a weights array. */
static bool in_flash(const Graph *g, int t) {
  const Tensor *x = &g->tensors[t];
  return is_const(x) || (x->storage < 0 && x->view_of >= 0 &&
                         is_const(&g->tensors[x->view_of]));
}

/* ------------------------------------------------------ provenance */

/* The licence statement of every generated file, after its SPDX line:
 * the generated code and the runtime sources are tinyaot's output and
 * its own code, both under Apache-2.0; the numbers in the weights are
 * the model's, and keep the model's terms. */
static const char *licence_lines[] = {
    "Generated by tinyaot " TINYAOT_VERSION ".  The generated code and the tinyaot",
    "runtime it calls may be used, modified and shipped under the Apache",
    "License, Version 2.0 (tinyaot's LICENSE and NOTICE).  The weights are",
    "the model's own data and keep the terms the model came with.",
};

/* The model and how it was compiled, one line each after `lead`
 * (" * " in C, "# " in make and CMake). */
static void put_provenance(FILE *f, const Emit *e, const char *lead) {
  for (size_t i = 0; i < sizeof licence_lines / sizeof *licence_lines; i++)
    fprintf(f, "%s%s\n", lead, licence_lines[i]);
  /* An empty line without the lead's trailing space. */
  fprintf(f, "%.*s\n%sModel: %s\n%sModel SHA-256: %s\n%sOptions: %s\n",
          (int)(strlen(lead) - 1), lead, lead,
          comment_safe(e->o->model), lead,
          e->o->model_sha256 ? e->o->model_sha256 : "unknown", lead,
          e->o->options && *e->o->options ? comment_safe(e->o->options) : "(none)");
}

/* s as a C string literal's contents: quotes, backslashes and '?' (no
 * trigraph) escaped, other bytes outside printable ASCII as '_'. */
static const char *c_string(const char *s) {
  char *out = arena_alloc(2 * strlen(s ? s : "") + 1), *q = out;
  for (const char *c = s ? s : ""; *c; c++) {
    if (*c == '"' || *c == '\\' || *c == '?')
      *q++ = '\\';
    *q++ = (unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f ? '_' : *c;
  }
  return out;
}

static const Buffer *buffer_of(const Emit *e, int t) {
  int s = e->g->tensors[t].storage;
  if (s < 0 || s >= e->p->nbufs)
    die("tensor %d has no storage", t);
  return &e->p->bufs[s];
}

/* ------------------------------------------------------ addresses */

static const char *pool_base(const Emit *e, int pool) {
  if (e->p->npools == 1)
    return "ws";
  return arena_printf("ws_%s", e->p->pools[pool].name);
}

/* The C expression for the bytes of buffer b (not an I/O buffer). */
static const char *buffer_addr(Emit *e, const Buffer *b) {
  if (b->persistent) {
    e->uses_ps = true;
    return arena_printf("(ps + %zu)", b->offset);
  }
  if (b->pool < 0 || b->pool >= e->p->npools)
    die("buffer %d is in no pool", b->id);
  e->uses_ws = true;
  return arena_printf("(%s + %zu)", pool_base(e, b->pool), b->offset);
}

static int input_pos(const Graph *g, int t) {
  for (int i = 0; i < g->ninputs; i++)
    if (g->inputs[i] == t)
      return i;
  return -1;
}

static int output_pos(const Graph *g, int t) {
  for (int i = 0; i < g->noutputs; i++)
    if (g->outputs[i] == t)
      return i;
  return -1;
}

/* Constant tensor t, marked used: its array, or with --weights-blob its
 * place in the bound image (the next 16-byte aligned offset when new). */
static const char *const_ref(Emit *e, int t) {
  if (e->tensor_canon)
    t = e->tensor_canon[t];
  e->const_used[t] = true;
  if (!e->blob_off)
    return arena_printf("%s_t%d", e->P, t);
  if (e->blob_off[t] == SIZE_MAX) {
    e->blob_off[t] = e->blob_size;
    e->blob_size += (tensor_bytes(&e->g->tensors[t]) + 15) & ~(size_t)15;
  }
  return arena_printf("((const %s *)(%s_blob + %zu))",
                      ctype_of(e->g->tensors[t].dtype), e->P, e->blob_off[t]);
}

/* The address of tensor t as `const T *` (or `T *` when writable). */
static const char *tensor_addr(Emit *e, int t, bool writable) {
  const Tensor *x = &e->g->tensors[t];
  const char *ct = ctype_of(x->dtype);
  if (is_const(x)) {
    if (writable)
      die("op writes constant tensor %d", t);
    return const_ref(e, t);
  }
  if (x->storage < 0 && x->view_of >= 0 && is_const(&e->g->tensors[x->view_of])) {
    if (writable)
      die("op writes tensor %d, a view of a constant", t);
    return arena_printf("(const %s *)%s", ct, const_ref(e, x->view_of));
  }
  const Buffer *b = buffer_of(e, t);
  int io = e->io_of_buf[b - e->p->bufs];
  const char *q = writable ? "" : "const ";
  if (io >= 0) {
    int i = input_pos(e->g, io);
    if (i >= 0) {
      if (writable)
        die("op writes model input tensor %d", io);
      return arena_printf("(%s%s *)inputs->%s", q, ct, e->in_name[i]);
    }
    return arena_printf("(%s%s *)outputs->%s", q, ct,
                        e->out_name[output_pos(e->g, io)]);
  }
  /* Wider elements through void *: the plan aligns every buffer, and the
   * detour keeps -Wcast-align=strict quiet. */
  if (dtype_bits(x->dtype) > 8)
    return arena_printf("(%s%s *)(%svoid *)%s", q, ct, q, buffer_addr(e, b));
  return arena_printf("(%s%s *)%s", q, ct, buffer_addr(e, b));
}

/* Finds, for every buffer, the model input or output stored in it (the
 * first one: an output listed twice, or also a model input, is copied
 * by copy_aliased_output()).  Constant outputs have no buffer. */
static void find_io_buffers(Emit *e) {
  const Graph *g = e->g;
  e->io_of_buf = arena_array((size_t)e->p->nbufs, sizeof(int));
  for (int i = 0; i < e->p->nbufs; i++)
    e->io_of_buf[i] = -1;
  for (int k = 0; k < g->ninputs + g->noutputs; k++) {
    int t = k < g->ninputs ? g->inputs[k] : g->outputs[k - g->ninputs];
    if (in_flash(g, t)) {
      if (k < g->ninputs)
        error_at(g, -1, "model input %d (tensor %d) is a constant: not supported",
                 k, t);
      continue;
    }
    const Buffer *b = buffer_of(e, t);
    int *slot = &e->io_of_buf[b - e->p->bufs];
    if (*slot >= 0 && *slot != t)
      error_at(g, -1,
               "tensors %d and %d are model inputs/outputs sharing one "
               "buffer (an output that is a view of an input): not supported",
               *slot, t);
    if (*slot < 0)
      *slot = t;
  }
}

/* Output position i, when no kernel writes it: the expression its bytes
 * are copied from at the end of the run function, else NULL.  That is
 * an output that is a constant (or a view of one), an output that is
 * also a model input, and one that an earlier position already lists
 * (the kernels write the first position only).  Inside the workspace,
 * <prefix>_io() points such aliases (not constants) at the one place,
 * so the runner copies them only when the caller's pointers differ.  The
 * plan checker (check_outputs_written) proves the same cases complete. */
static const char *copy_aliased_output(Emit *e, int i) {
  const Graph *g = e->g;
  int t = g->outputs[i];
  bool alias = in_flash(g, t) || input_pos(g, t) >= 0 || output_pos(g, t) < i;
  return alias ? tensor_addr(e, t, false) : NULL;
}

/* ------------------------------------------------------ constants */

static void put_value(FILE *f, DType dt, const uint8_t *p) {
  switch (dt) {
  case DT_INT8: fprintf(f, "%d", *(const int8_t *)p); return;
  case DT_INT16: {
    int16_t v;
    memcpy(&v, p, 2);
    fprintf(f, "%d", v);
    return;
  }
  case DT_UINT16: {
    uint16_t v;
    memcpy(&v, p, 2);
    fprintf(f, "%u", v);
    return;
  }
  case DT_INT32: {
    int32_t v;
    memcpy(&v, p, 4);
    if (v == INT32_MIN)
      fprintf(f, "(-2147483647 - 1)");
    else
      fprintf(f, "%" PRId32, v);
    return;
  }
  case DT_UINT32: {
    uint32_t v;
    memcpy(&v, p, 4);
    fprintf(f, "%" PRIu32 "u", v);
    return;
  }
  case DT_INT64: {
    int64_t v;
    memcpy(&v, p, 8);
    if (v == INT64_MIN)
      fprintf(f, "(-INT64_C(9223372036854775807) - 1)");
    else
      fprintf(f, "INT64_C(%" PRId64 ")", v);
    return;
  }
  case DT_UINT64: {
    uint64_t v;
    memcpy(&v, p, 8);
    fprintf(f, "UINT64_C(%" PRIu64 ")", v);
    return;
  }
  case DT_FLOAT32:
  case DT_COMPLEX64: { /* one float of a (re, im) pair */
    float v;
    memcpy(&v, p, 4);
    if (isnan(v))
      fprintf(f, "(0.0f / 0.0f)");
    else if (isinf(v))
      fprintf(f, v > 0 ? "(1.0f / 0.0f)" : "(-1.0f / 0.0f)");
    else
      fprintf(f, "%af", (double)v); /* hexadecimal: exact */
    return;
  }
  case DT_FLOAT64: {
    double v;
    memcpy(&v, p, 8);
    fprintf(f, "%a", v);
    return;
  }
  default: fprintf(f, "%u", *p); return; /* uint8, bool, raw bytes */
  }
}

/* Byte size of one element as stored: 1 for the types kept as raw bytes
 * (float16, the sub-byte types, ...: ctype_of() says uint8_t). */
static size_t elem_size(DType dt) {
  if (dt == DT_COMPLEX64)
    return 4; /* stored as floats, two per element */
  if (!strcmp(ctype_of(dt), "uint8_t"))
    return 1;
  int bits = dtype_bits(dt);
  return bits >= 8 ? (size_t)bits / 8 : 1;
}

static void put_array(FILE *f, const Emit *e, const char *name, DType dt,
                      const uint8_t *data, size_t count) {
  fprintf(f, "%s_WEIGHT_PRAGMA const %s %s[%zu] %s_WEIGHT_ATTR = {", e->U,
          ctype_of(dt), name, count ? count : 1, e->U);
  size_t es = elem_size(dt);
  int per_line = es == 1 ? 20 : es <= 4 ? 10 : 4;
  for (size_t i = 0; i < count; i++) {
    fputs(i % (size_t)per_line ? " " : "\n  ", f);
    put_value(f, dt, data + i * es);
    if (i + 1 < count)
      fputc(',', f);
  }
  if (!count)
    fputs("0", f);
  fputs("\n};\n\n", f);
}

static const char *own_symbol(const Emit *e, int op, const ConstObj *c) {
  return arena_printf("%s_op%d_%s", e->P, op, c->name);
}

/* The array op's constant k uses when an identical earlier one holds its
 * bytes (dedup_constants), else NULL. */
static const char *const_alias(const Emit *e, int op, int k) {
  return e->const_alias && e->const_alias[op] ? e->const_alias[op][k] : NULL;
}

/* The symbol of op's constant c: its own, or the identical array or
 * struct it shares. */
static const char *const_symbol(const Emit *e, int op, const ConstObj *c) {
  if (e->const_alias) {
    const Lowered *l = op_lowered(&e->g->ops[op]);
    ptrdiff_t k = c - l->consts;
    if (k >= 0 && k < l->nconsts && const_alias(e, op, (int)k))
      return const_alias(e, op, (int)k);
  }
  return own_symbol(e, op, c);
}

/* A constant's initializer with "@name" replaced by its op's symbols. */
static const char *expand_init(const Emit *e, int op, const Lowered *l,
                               const char *init) {
  size_t cap = strlen(init) * 2 + 256, n = 0;
  char *out = arena_alloc(cap);
  for (const char *s = init; *s;) {
    const char *add = NULL;
    size_t skip = 1;
    if (*s == '@') {
      size_t k = 1;
      while (isalnum((unsigned char)s[k]) || s[k] == '_')
        k++;
      for (int i = 0; i < l->nconsts && !add; i++)
        if (strlen(l->consts[i].name) == k - 1 &&
            !strncmp(l->consts[i].name, s + 1, k - 1))
          add = const_symbol(e, op, &l->consts[i]);
      if (!add)
        die("op %d: constant '%.*s' not found", op, (int)(k - 1), s + 1);
      skip = k;
    }
    size_t need = add ? strlen(add) : 1;
    if (n + need + 1 > cap) {
      char *bigger = arena_alloc(cap * 2 + need);
      memcpy(bigger, out, n);
      out = bigger;
      cap = cap * 2 + need;
    }
    if (add)
      memcpy(out + n, add, need);
    else
      out[n] = *s;
    n += need;
    s += skip;
  }
  out[n] = '\0';
  return out;
}

/* ------------------------------------------------------------ <p>.h */

/* The alignment the workspace needs: the largest of its buffers'. */
static size_t workspace_align(const Plan *p) {
  size_t a = 1;
  for (int i = 0; i < p->nbufs; i++)
    if (!p->bufs[i].external && p->bufs[i].align > a)
      a = p->bufs[i].align;
  return a < 16 ? 16 : a;
}

static size_t workspace_size(const Plan *p) {
  size_t n = 0;
  for (int i = 0; i < p->npools; i++)
    n += p->pools[i].used;
  return n;
}

static void put_io_macros(FILE *f, const Emit *e, const char *kind, int i,
                          int t) {
  const Tensor *x = &e->g->tensors[t];
  fprintf(f, "/* %s %d: tensor %d \"", kind, i, t);
  fputs(comment_safe(x->name), f);
  fprintf(f, "\", %s */\n", shape_str(x));
  const char *K = upper(kind);
  fprintf(f, "#define %s_%s%d_SIZE %zu\n", e->U, K, i, tensor_bytes(x));
  fprintf(f, "#define %s_%s%d_DTYPE \"%s\"\n", e->U, K, i, dtype_name(x->dtype));
  fprintf(f, "#define %s_%s%d_RANK %d\n", e->U, K, i, x->ndims);
  fprintf(f, "#define %s_%s%d_SHAPE {", e->U, K, i);
  for (int d = 0; d < x->ndims; d++)
    fprintf(f, "%s%" PRId32, d ? ", " : "", x->dims[d]);
  fprintf(f, "%s}\n", x->ndims ? "" : "1");
  if (x->q.nscale == 1) {
    /* A float literal: "1" needs its ".0" ("1f" is no C); verify() keeps
     * scales finite. */
    char scale[64];
    snprintf(scale, sizeof scale, "%.9g", (double)x->q.scale[0]);
    if (!strpbrk(scale, ".e"))
      strcat(scale, ".0");
    fprintf(f, "#define %s_%s%d_SCALE %sf\n", e->U, K, i, scale);
    fprintf(f, "#define %s_%s%d_ZERO_POINT (%" PRId64 ")\n", e->U, K, i,
            x->q.zero_point ? x->q.zero_point[0] : 0);
  }
  if (in_flash(e->g, t))
    return; /* a constant output: copied into the caller's buffer */
  const Buffer *b = buffer_of(e, t);
  if (e->o->io_in_workspace && !b->external && !b->persistent)
    fprintf(f, "#define %s_%s%d_OFFSET %zu /* in pool %s */\n", e->U, K, i,
            b->offset, e->p->pools[b->pool].name);
}

/* Inside the workspace: for every input and output planned there, a
 * writable pointer to its place (struct <p>_inputs holds `const`
 * pointers, as the run only reads its inputs). */
static void put_io_places(FILE *f, const Emit *e) {
  const Graph *g = e->g;
  for (int k = 0; k < g->ninputs + g->noutputs; k++) {
    bool in = k < g->ninputs;
    int i = in ? k : k - g->ninputs, t = in ? g->inputs[i] : g->outputs[i];
    if (in_flash(g, t))
      continue;
    const Buffer *b = buffer_of(e, t);
    if (b->external || b->persistent)
      continue;
    const char *ct = ctype_of(g->tensors[t].dtype);
    const char *base = e->p->npools == 1
                           ? "(uint8_t *)workspace"
                           : arena_printf("(uint8_t *)pools->%s", e->p->pools[b->pool].name);
    fprintf(f,
            "\n/* %s %d's place in the workspace, where %s_io() points\n"
            " * %s->%s: %s */\n"
            "static inline %s *%s_%s%d(%s) {\n"
            "  return (%s *)(void *)(%s + %s_%s%d_OFFSET);\n"
            "}\n",
            in ? "Input" : "Output", i, e->P, in ? "inputs" : "outputs",
            in ? e->in_name[i] : e->out_name[i],
            in ? arena_printf("write the input there, then call\n"
                              " * %s_run() (which may overwrite it).", e->P)
               : arena_printf("read the output there after\n * %s_run().", e->P),
            ct, e->P, in ? "input" : "output", i,
            e->p->npools == 1 ? "void *workspace"
                              : arena_printf("const struct %s_pools *pools", e->P),
            ct, base, e->U, in ? "INPUT" : "OUTPUT", i);
  }
}

static const char *ws_params(const Emit *e) {
  const char *s = e->p->npools == 1
                      ? "void *workspace"
                      : arena_printf("const struct %s_pools *pools", e->P);
  if (e->p->persistent_bytes)
    s = arena_printf("%s, void *persistent", s);
  return s;
}

/* Does an op's kernel return TA_PENDING on some calls (CIRCULAR_BUFFER)? */
bool model_pends(const Graph *g) {
  for (int i = 0; i < g->nops; i++)
    if (g->ops[i].lowered && op_lowered(&g->ops[i])->pends)
      return true;
  return false;
}

static void emit_header(Emit *e) {
  const Graph *g = e->g;
  const Plan *p = e->p;
  const char *name = arena_printf("%s.h", e->P);
  FILE *f = open_out(e, name);
  fprintf(f,
          "/* SPDX-License-Identifier: Apache-2.0 */\n"
          "/*\n"
          " * %s - the interface of model %s, generated by tinyaot.\n"
          " * Do not edit: regenerate with `tinyaot compile`.\n"
          " *\n", name, comment_safe(e->o->model));
  put_provenance(f, e, " * ");
  fprintf(f,
          " *\n"
          " * Call %s_run() with pointers to the inputs and outputs and %s\n"
          " * aligned to %s_WORKSPACE_ALIGN.  It returns 0 (TA_OK) or the\n"
          " * first kernel's error status.  Nothing is allocated; the\n"
          " * workspace holds every intermediate tensor and the kernels'\n"
          " * scratch, and its content between calls does not matter%s.\n"
          "%s"
          "%s"
          " */\n",
          e->P,
          p->npools > 1 ? arena_printf("one region\n * per memory pool (struct %s_pools)", e->P)
                        : arena_printf("a workspace\n * of %s_WORKSPACE_SIZE bytes", e->U),
          e->U, p->persistent_bytes ? " (the persistent area does)" : "",
          model_pends(g)
              ? arena_printf(" *\n * The model streams (TFLite Micro's CIRCULAR_BUFFER): "
                             "each call takes\n * one frame.  %s_PENDING (not an error) "
                             "says that the call\n * only stored it: the ops after the "
                             "buffer did not run and\n * their outputs were not written; "
                             "0 says the outputs are new.\n", e->U)
              : "",
          e->o->io_in_workspace
              ? arena_printf(" *\n * The inputs and outputs were planned inside the workspace:\n"
                             " * %s_io() points the structs there, %s_input0() and\n"
                             " * %s_output0() and the like give each place.  Buffers of\n"
                             " * your own, outside the workspace, work too.\n",
                             e->P, e->P, e->P)
              : "");
  fprintf(f, "#ifndef %s_H\n#define %s_H\n\n#include <stdint.h>\n\n", e->U,
          e->U);
  fprintf(f, "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
  fprintf(f,
          "/* Where this code came from: tinyaot's version, the model file's\n"
          " * SHA-256 and the compile options. */\n"
          "#define %s_TINYAOT_VERSION \"%s\"\n"
          "#define %s_MODEL_SHA256 \"%s\"\n"
          "#define %s_TINYAOT_OPTIONS \"%s\"\n\n",
          e->U, TINYAOT_VERSION, e->U,
          e->o->model_sha256 ? e->o->model_sha256 : "unknown", e->U,
          c_string(e->o->options));
  fprintf(f, "/* Memory the caller provides (bytes). */\n");
  fprintf(f, "#define %s_WORKSPACE_SIZE %zu\n", e->U, workspace_size(p));
  fprintf(f, "#define %s_WORKSPACE_ALIGN %zu\n", e->U, workspace_align(p));
  if (p->npools > 1)
    for (int i = 0; i < p->npools; i++) {
      /* An unused pool gets no SIZE macro: a zero would invite a
       * zero-length array (not C); code that sizes it fails to compile. */
      if (p->pools[i].used)
        fprintf(f, "#define %s_POOL_%s_SIZE %zu\n", e->U, upper(p->pools[i].name),
                p->pools[i].used);
      else
        fprintf(f, "/* Pool %s: unused by this model (no _SIZE; pools->%s may be NULL). */\n"
                   "#define %s_POOL_%s_UNUSED 1\n",
                p->pools[i].name, p->pools[i].name, e->U, upper(p->pools[i].name));
    }
  if (p->persistent_bytes)
    fprintf(f,
            "#define %s_PERSISTENT_SIZE %zu /* model state, kept between "
            "calls */\n",
            e->U, p->persistent_bytes);
  size_t io = 0;
  for (int i = 0; i < g->ninputs + g->noutputs; i++) {
    int t = i < g->ninputs ? g->inputs[i] : g->outputs[i - g->ninputs];
    if (in_flash(g, t) || buffer_of(e, t)->external)
      io += tensor_bytes(&g->tensors[t]);
  }
  fprintf(f,
          "/* Inputs and outputs outside the workspace: %zu bytes. */\n"
          "#define %s_IO_SIZE %zu\n\n",
          io, e->U, io);
  fprintf(f, "#define %s_NUM_INPUTS %d\n#define %s_NUM_OUTPUTS %d\n\n", e->U,
          g->ninputs, e->U, g->noutputs);
  for (int i = 0; i < g->ninputs; i++)
    put_io_macros(f, e, "input", i, g->inputs[i]);
  for (int i = 0; i < g->noutputs; i++)
    put_io_macros(f, e, "output", i, g->outputs[i]);

  fprintf(f, "\nstruct %s_inputs {\n", e->P);
  for (int i = 0; i < g->ninputs; i++)
    fprintf(f, "  const %s *%s; /* %s bytes */\n",
            ctype_of(g->tensors[g->inputs[i]].dtype), e->in_name[i],
            arena_printf("%s_INPUT%d_SIZE", e->U, i));
  fprintf(f, "};\n\nstruct %s_outputs {\n", e->P);
  for (int i = 0; i < g->noutputs; i++)
    fprintf(f, "  %s *%s; /* %s bytes */\n",
            ctype_of(g->tensors[g->outputs[i]].dtype), e->out_name[i],
            arena_printf("%s_OUTPUT%d_SIZE", e->U, i));
  fprintf(f, "};\n\n");
  for (int i = 0; i < g->ninputs; i++)
    put_io_helpers(f, e->P, e->U, "input", i, &g->tensors[g->inputs[i]]);
  for (int i = 0; i < g->noutputs; i++)
    put_io_helpers(f, e->P, e->U, "output", i, &g->tensors[g->outputs[i]]);
  if (p->npools > 1) {
    fprintf(f, "/* One region per memory pool, each aligned to %s_WORKSPACE_ALIGN. */\n", e->U);
    fprintf(f, "struct %s_pools {\n", e->P);
    for (int i = 0; i < p->npools; i++)
      fprintf(f, "  void *%s; /* %s_POOL_%s_%s */\n", p->pools[i].name, e->U,
              upper(p->pools[i].name), p->pools[i].used ? "SIZE bytes" : "UNUSED: may be NULL");
    fprintf(f, "};\n\n");
  }
  if (e->blob_off)
    put_blob_interface(f, e->P, e->U, e->blob_size);
  if (model_pends(g)) {
    fprintf(f,
            "/* Returned by %s_run() (not an error) when a CIRCULAR_BUFFER has not\n"
            " * gathered enough frames since its last output (TFLite Micro's\n"
            " * kTfLiteAbort): the frame was taken into the model state, the ops\n"
            " * after the buffer did not run, and the outputs they write were not\n"
            " * written.  Give the next frame with the next call. */\n"
            "#define %s_PENDING %d\n\n",
            e->P, e->U, TA_PENDING);
    fprintf(f, "/* Runs the model once.  Returns 0, %s_PENDING or the first\n"
               " * error status. */\n", e->U);
  } else {
    fprintf(f, "/* Runs the model once.  Returns 0 or the first error status. */\n");
  }
  fprintf(f, "int %s_run(const struct %s_inputs *inputs, struct %s_outputs *outputs,\n"
             "    %s);\n",
          e->P, e->P, e->P, ws_params(e));
  if (p->persistent_bytes)
    fprintf(f,
            "\n/* Resets the model state in the persistent area (real value 0;\n"
            " * resource variables: their initial values%s):\n"
            " * call once before the first %s_run(). */\n"
            "void %s_reset(void *persistent);\n",
            model_pends(g) ? ";\n * a CIRCULAR_BUFFER: no frames (zero bytes), the count "
                             "restarted"
                           : "",
            e->P, e->P);
  if (e->o->io_in_workspace)
    fprintf(f,
            "\n/* Points every input and output at its planned place in the\n"
            " * workspace (inputs and outputs were planned inside it): write\n"
            " * the inputs there, call %s_run(), read the outputs there. */\n"
            "void %s_io(%s, struct %s_inputs *inputs,\n"
            "    struct %s_outputs *outputs);\n",
            e->P, e->P,
            e->p->npools == 1 ? "void *workspace"
                              : arena_printf("const struct %s_pools *pools", e->P),
            e->P, e->P);
  if (e->o->io_in_workspace)
    put_io_places(f, e);
  if (e->o->profile)
    put_profile_decls(f, g, e->P, e->U);
  fprintf(f, "\n#ifdef __cplusplus\n}\n#endif\n\n#endif /* %s_H */\n", e->U);
  close_out(e, f, name);
}

/* ------------------------------------------------------------ <p>.c */

/* Prints "<head><items joined by ", "><tail>", breaking lines before
 * column 80 with `indent` at the start of each continuation line.  An
 * item starting with "->" is joined by a space instead. */
static void put_wrapped(FILE *f, const char *head, const char **items, int n,
                        const char *tail, const char *indent) {
  size_t col = strlen(head);
  fputs(head, f);
  for (int k = 0; k < n; k++) {
    bool arrow = items[k][0] == '-' && items[k][1] == '>';
    const char *sep = !k ? "" : arrow ? " " : ", ";
    size_t need = strlen(items[k]) + strlen(sep) + (k + 1 == n ? strlen(tail) : 1);
    if (k > 0 && col + need > 79) {
      fprintf(f, "%s\n%s", arrow ? "" : ",", indent);
      col = strlen(indent);
      sep = "";
    }
    fputs(sep, f);
    fputs(items[k], f);
    col += strlen(sep) + strlen(items[k]);
  }
  fputs(tail, f);
}

static void put_op_comment(FILE *f, const Emit *e, int i) {
  const Graph *g = e->g;
  const Op *op = &g->ops[i];
  const char **items = arena_array((size_t)(op->ninputs + op->noutputs) + 1,
                                   sizeof(char *));
  int n = 0;
  for (int k = 0; k < op->ninputs; k++) {
    int t = op->inputs[k];
    if (t < 0)
      continue;
    const Tensor *x = &g->tensors[t];
    items[n++] = arena_printf("t%d %s%s", t, shape_str(x), is_const(x) ? " const" : "");
  }
  for (int k = 0; k < op->noutputs; k++) {
    const char *s = arena_printf("t%d %s", op->outputs[k],
                                 shape_str(&g->tensors[op->outputs[k]]));
    items[n++] = k == 0 ? arena_printf("-> %s", s) : s;
  }
  const Lowered *l = op_lowered(op);
  /* An output planned over a dying input (the memory plan's in place). */
  const char *tail = l->kernel    ? " */\n"
                     : op->folded && op->outputs[0] < 0
                         ? " (evaluated at compile time: no call) */\n"
                     : op->folded ? arena_printf(" -> t%d (folded at compile time: no call) */\n",
                                                 op->outputs[0])
                                  : " (a view: no call) */\n";
  int t0 = op->noutputs > 0 ? op->outputs[0] : -1;
  int b = t0 >= 0 ? g->tensors[t0].storage : -1;
  if (l->kernel && b >= 0 && e->p->bufs[b].inplace_of >= 0)
    for (int k = 0; k < op->ninputs; k++)
      if (op->inputs[k] >= 0 &&
          g->tensors[op->inputs[k]].storage == e->p->bufs[b].inplace_of) {
        tail = arena_printf(" (in place over t%d) */\n", op->inputs[k]);
        break;
      }
  const char *head =
      arena_printf("  /* op %d: %s%s", i, comment_safe(op_display_name(g, i)), n ? " " : "");
  put_wrapped(f, head, items, n, tail, "     ");
}

/* Whether op writes tensor t: its outputs, and the variable tensors
 * (LSTM/SVDF state) it reads, which stateful ops update in place. */
static bool op_writes(const Graph *g, const Op *op, int t) {
  for (int k = 0; k < op->noutputs; k++)
    if (op->outputs[k] == t)
      return true;
  return g->tensors[t].is_variable;
}

static const char *arg_text(Emit *e, int i, const Lowered *l,
                            const KernelArg *a) {
  const Op *op = &e->g->ops[i];
  switch (a->kind) {
  case ARG_TENSOR:
    return tensor_addr(e, a->index, op_writes(e->g, op, a->index));
  case ARG_SCRATCH:
    if (op->scratch_buffer < 0)
      return "NULL";
    return arena_printf("(void *)%s", buffer_addr(e, &e->p->bufs[op->scratch_buffer]));
  case ARG_CONST: {
    const ConstObj *c = &l->consts[a->index];
    return arena_printf("%s%s", c->init && !c->count ? "&" : "", const_symbol(e, i, c));
  }
  case ARG_NULL:
    return "NULL";
  case ARG_INPUTS:
  case ARG_OUTPUTS: { /* a C99 compound literal: an array of pointers */
    bool out = a->kind == ARG_OUTPUTS;
    if (a->value <= 0)
      return "NULL";
    const char *s = out ? "(void *const[]){" : "(const void *const[]){";
    for (int k = a->index; k < a->index + (int)a->value; k++) {
      int t = out ? op->outputs[k] : op->inputs[k];
      s = arena_printf("%s%s%s", s, k > a->index ? ", " : "",
                       t < 0 ? "NULL" : tensor_addr(e, t, out));
    }
    return arena_printf("%s}", s);
  }
  case ARG_STATE:
    if (op->state_buffer < 0)
      return "NULL";
    return arena_printf("(void *)%s", buffer_addr(e, &e->p->bufs[op->state_buffer]));
  case ARG_INT:
    if (a->value == INT32_MIN)
      return "(-2147483647 - 1)";
    return arena_printf("%" PRId64, a->value);
  }
  unreachable();
}

/* The tensor hook after op i: every tensor it produces, then the
 * variable tensors it updated. */
static void put_hooks(FILE *f, Emit *e, const Op *op) {
  for (int k = 0; k < op->noutputs; k++) {
    int t = op->outputs[k];
    fprintf(f, "  %s_TENSOR(%d, %s, %zu);\n", e->U, t, tensor_addr(e, t, false),
            tensor_bytes(&e->g->tensors[t]));
  }
  for (int k = 0; k < op->ninputs; k++) {
    int t = op->inputs[k];
    if (t >= 0 && e->g->tensors[t].is_variable)
      fprintf(f, "  %s_TENSOR(%d, %s, %zu);\n", e->U, t, tensor_addr(e, t, false),
              tensor_bytes(&e->g->tensors[t]));
  }
}

/* The symbol of op i's constant `name` (a table of the patched run). */
static const char *patch_const(Emit *e, int i, const char *name) {
  const Lowered *l = op_lowered(&e->g->ops[i]);
  for (int m = 0; m < l->nconsts; m++)
    if (!strcmp(l->consts[m].name, name))
      return const_symbol(e, i, &l->consts[m]);
  die("op %d: no constant %s in its patched run", i, name);
}

/* A patched run (passes/patch.c): a loop over the bands, each calling
 * every op of the run with its band's params and dims (entry
 * P_op<j>_bsel[b] of the tables P_op<j>_bparams, _bin_dims, _bout_dims,
 * which hold each distinct one once), reading the run's input at
 * the band's first row (op 0) or the previous op's band buffer, writing
 * its own band buffer or the run's output at the band's first row
 * (P_op<end>_bin_off, _bout_off: byte offsets). */
static void put_patched_run(FILE *f, Emit *e, int end) {
  const Graph *g = e->g;
  const Op *eop = &g->ops[end];
  const PatchRun *r = op_lowered(eop)->patch;
  const char *base = buffer_addr(e, &e->p->bufs[eop->scratch_buffer]);
  int n = r->nops;
  fprintf(f, "  /* ops %d-%d in %d bands of op %d's output rows (halo rows "
             "recomputed); band buffers in op %d's scratch */\n",
          r->ops[0], end, r->nbands, end, end);
  fprintf(f, "  {\n    int b;\n    for (b = 0; b < %d; b++) {\n", r->nbands);
  for (int j = 0; j < n; j++) {
    int i = r->ops[j];
    const Lowered *o = r->orig[j], *l = op_lowered(&g->ops[i]);
    const char **args = arena_array((size_t)o->nargs + 1, sizeof(char *));
    for (int k = 0; k < o->nargs; k++) {
      const KernelArg *a = &o->args[k];
      const char *cn = a->kind == ARG_CONST ? o->consts[a->index].name : "";
      if (a->kind == ARG_TENSOR && a->index == r->in_t[j])
        args[k] = j == 0 ? arena_printf("%s + %s[b]", tensor_addr(e, r->in_t[0], false),
                                        patch_const(e, end, "bin_off"))
                         : arena_printf("(const int8_t *)(%s + %zu)", base, r->buf_off[j - 1]);
      else if (a->kind == ARG_TENSOR && a->index == r->out_t[j])
        args[k] = j == n - 1 ? arena_printf("%s + %s[b]", tensor_addr(e, r->out_t[j], true),
                                            patch_const(e, end, "bout_off"))
                             : arena_printf("(int8_t *)(%s + %zu)", base, r->buf_off[j]);
      else if (a->kind == ARG_SCRATCH)
        args[k] = arena_printf("(void *)(%s + %zu)", base, r->scratch_off);
      else if (a->kind == ARG_CONST &&
               (!strcmp(cn, "params") || !strcmp(cn, "in_dims") || !strcmp(cn, "out_dims")))
        args[k] = arena_printf("&%s[%s[b]]", patch_const(e, i, arena_printf("b%s", cn)),
                               patch_const(e, i, "bsel"));
      else if (a->kind == ARG_CONST) {
        const ConstObj *c = NULL;
        for (int m = 0; m < l->nconsts && !c; m++)
          if (!strcmp(l->consts[m].name, cn))
            c = &l->consts[m];
        if (!c)
          die("op %d: no constant %s in its patched run", i, cn);
        args[k] = arena_printf("%s%s", c->init && !c->count ? "&" : "", const_symbol(e, i, c));
      } else
        args[k] = arg_text(e, i, o, a);
    }
    fprintf(f, "      /* op %d: %s */\n", i, comment_safe(op_display_name(g, i)));
    put_wrapped(f, arena_printf("      st = %s(", patch_band_kernel(o)), args, o->nargs, ");\n",
                "          ");
    fprintf(f, "      if (st != TA_OK)\n        return st;\n");
  }
  fprintf(f, "    }\n  }\n");
}

/* ------------------------------------------------- IF and WHILE */

/* Writes text (lines of the runner's body, indented for depth 0) into b,
 * depth levels further in. */
static void put_indented(FILE *b, const char *text, size_t n, int depth) {
  if (depth == 0) {
    fwrite(text, 1, n, b);
    return;
  }
  bool start = true;
  for (size_t i = 0; i < n; i++) {
    if (start && text[i] != '\n')
      fprintf(b, "%*s", 2 * depth, "");
    fputc(text[i], b);
    start = text[i] == '\n';
  }
}

/* One line of the body, depth levels in. */
static TA_PRINTF(3, 4) void put_line(FILE *b, int depth, const char *fmt, ...) {
  char *text = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&text, &n);
  if (!f)
    die("open_memstream failed");
  va_list ap;
  va_start(ap, fmt);
  fputs("  ", f);
  vfprintf(f, fmt, ap);
  va_end(ap);
  fputc('\n', f);
  fclose(f);
  put_indented(b, text, n, depth);
  free(text);
}

/* Byte copies of tensors from[k] into to[k], k < n, depth levels in
 * (none where both are the same bytes). */
static void put_copies(FILE *b, Emit *e, int depth, const int *from, const int *to, int n) {
  for (int k = 0; k < n; k++) {
    const char *src = tensor_addr(e, from[k], false);
    const char *dst = tensor_addr(e, to[k], true);
    const Tensor *s = &e->g->tensors[from[k]], *d = &e->g->tensors[to[k]];
    if (from[k] == to[k] || (s->storage >= 0 && s->storage == d->storage))
      continue;
    e->uses_copy = true;
    put_line(b, depth, "(void)%s_copy(%zu, %s, %s);", e->P, tensor_bytes(d), src, dst);
  }
}

/* The tensor hook of a structure op's outputs (IF's at END_IF, the loop
 * variables at WHILE and after the loop), depth levels in. */
static void put_structure_hooks(FILE *b, Emit *e, const Op *op, int depth) {
  char *text = NULL;
  size_t n = 0;
  FILE *h = open_memstream(&text, &n);
  if (!h)
    die("open_memstream failed");
  put_hooks(h, e, op);
  fclose(h);
  put_indented(b, text, n, depth);
  free(text);
}

/*
 * Structure op i (control.c) as C, its comment first; *depth is the
 * nesting of the code around it and becomes that of the code after it:
 *
 *   IF          if ((c)[0]) {
 *   ELSE          <then outputs copied into IF's outputs>
 *               } else {
 *   END_IF        <else outputs copied into IF's outputs>
 *               }
 *   WHILE       <inputs copied into the loop variables>
 *               for (;;) {
 *   WHILE_COND    if (!(b)[0])
 *                   break;
 *   END_WHILE     <body outputs copied into the loop variables>
 *               }
 *
 * END_IF is where the plan has IF's outputs written; each branch writes
 * them at its own end instead, which is the same: the steps in between
 * belong to the other branch, which does not run.
 */
static void put_structure(FILE *b, Emit *e, int i, int *depth) {
  const Graph *g = e->g;
  const Op *op = &g->ops[i];
  char *text = NULL;
  size_t n = 0;
  FILE *c = open_memstream(&text, &n);
  if (!c)
    die("open_memstream failed");
  if (op->ninputs + op->noutputs == 0)
    fprintf(c, "  /* op %d: %s */\n", i, op_name(op->kind));
  else
    put_op_comment(c, e, i);
  fclose(c);
  int d = *depth;
  if (op->kind == OP_ELSE || op->kind == OP_END_IF) {
    if (!e->partner)
      e->partner = control_partners(g);
    d = *depth - 1;
  }
  if (d < 0)
    die("op %d closes more than was opened", i);
  put_indented(b, text, n, op->kind == OP_ELSE || op->kind == OP_END_IF ? d + 1 : d);
  free(text);
  switch (op->kind) {
  case OP_IF:
    put_line(b, d, "if ((%s)[0]) {", tensor_addr(e, op->inputs[0], false));
    *depth = d + 1;
    break;
  case OP_ELSE: {
    const Op *end = &g->ops[e->partner[i]];
    int m = end->noutputs;
    put_copies(b, e, d + 1, end->inputs + 1, end->outputs, m);
    put_line(b, d, "} else {");
    *depth = d + 1;
    break;
  }
  case OP_END_IF: {
    int m = op->noutputs;
    put_copies(b, e, d + 1, op->inputs + 1 + m, op->outputs, m);
    put_line(b, d, "}");
    put_structure_hooks(b, e, op, d);
    *depth = d;
    break;
  }
  case OP_WHILE:
    put_copies(b, e, d, op->inputs, op->outputs, op->noutputs);
    put_structure_hooks(b, e, op, d);
    put_line(b, d, "for (;;) {");
    *depth = d + 1;
    break;
  case OP_WHILE_COND:
    put_line(b, d, "if (!(%s)[0])", tensor_addr(e, op->inputs[0], false));
    put_line(b, d + 1, "break;");
    break;
  case OP_END_WHILE: {
    int nv = op->ninputs / 2;
    put_copies(b, e, d, op->inputs, op->inputs + nv, nv);
    if (d < 1)
      die("END_WHILE %d outside a loop", i);
    put_line(b, d - 1, "}");
    if (!e->partner)
      e->partner = control_partners(g);
    /* The loop variables again: their values after the last iteration. */
    put_structure_hooks(b, e, &g->ops[e->partner[i]], d - 1);
    *depth = d - 1;
    break;
  }
  default:
    unreachable();
  }
}

static const int *schedule(const Plan *p, const Graph *g, int *n) {
  if (p->order && p->norder) {
    *n = p->norder;
    return p->order;
  }
  int *o = arena_array((size_t)g->nops, sizeof(int));
  for (int i = 0; i < g->nops; i++)
    o[i] = i;
  *n = g->nops;
  return o;
}

/* ------------------------------------------ identical constants, once */

/* Byte-identical constant arrays of the same element type are stored
 * once: a constant tensor whose dtype and bytes equal an earlier one's
 * refers to that one's array (P_tN, or its place in the weights blob),
 * and so does an op's lowered array (lookup table, requantisation
 * table, folded bias) equal to an earlier op's.  Every array has the
 * same 16-byte alignment, so the sharer reads exactly what its own copy
 * held.  Tensors and lowered arrays are kept apart (with --weights-blob
 * the tensors go to the image, the lowered arrays stay in
 * <prefix>_weights.c).  The order is the tensors' and the schedule's, so
 * the output stays a function of the input. */
static void dedup_constants(Emit *e) {
  const Graph *g = e->g;
  int n;
  const int *order = schedule(e->p, g, &n);
  size_t total = (size_t)g->ntensors;
  for (int i = 0; i < g->nops; i++)
    total += (size_t)op_lowered(&g->ops[i])->nconsts;
  ConstSet *set = const_set_new(total);
  e->tensor_canon = arena_array((size_t)g->ntensors + 1, sizeof(int));
  e->tensor_shared = arena_array((size_t)g->ntensors + 1, sizeof(int));
  for (int t = 0; t < g->ntensors; t++) {
    const Tensor *x = &g->tensors[t];
    e->tensor_canon[t] = t;
    size_t bytes = is_const(x) ? tensor_bytes(x) : 0;
    if (!is_const(x) || x->ndata < bytes)
      continue; /* not an array (or refused when it is emitted) */
    ConstSlot c = {.op = -1, .k = t, .dtype = x->dtype, .bytes = bytes, .data = x->data};
    const ConstSlot *o = const_set_intern(set, &c);
    if (o) {
      e->tensor_canon[t] = o->k;
      e->tensor_shared[o->k]++;
    }
  }
  e->const_alias = arena_array((size_t)g->nops + 1, sizeof(const char **));
  e->const_shared = arena_array((size_t)g->nops + 1, sizeof(int *));
  for (int s = 0; s < n; s++) {
    int i = order[s];
    const Lowered *l = op_lowered(&g->ops[i]);
    if (l->nconsts == 0)
      continue;
    e->const_alias[i] = arena_array((size_t)l->nconsts, sizeof(const char *));
    e->const_shared[i] = arena_array((size_t)l->nconsts, sizeof(int));
    for (int k = 0; k < l->nconsts; k++) {
      const ConstObj *x = &l->consts[k];
      if (x->init)
        continue;
      ConstSlot c = {.op = i, .k = k, .dtype = x->dtype,
                     .bytes = x->count * elem_size(x->dtype), .data = x->data};
      const ConstSlot *o = const_set_intern(set, &c);
      if (o) {
        e->const_alias[i][k] = own_symbol(e, o->op, &op_lowered(&g->ops[o->op])->consts[o->k]);
        e->const_shared[o->op][o->k]++;
      }
    }
  }
  /* Parameter structs by their text once every "@name" in it is the
   * symbol it stands for (so after the arrays, and in order: a struct
   * naming an earlier struct sees that one's alias): the same type,
   * count and text is the same bytes.  kws_ref_model's four depthwise
   * ops share one ta_conv_params, its ten [1,25,5,64] shapes one
   * ta_dims. */
  ConstSet *structs = const_set_new(total);
  for (int s = 0; s < n; s++) {
    int i = order[s];
    const Lowered *l = op_lowered(&g->ops[i]);
    for (int k = 0; k < l->nconsts; k++) {
      const ConstObj *x = &l->consts[k];
      if (!x->init)
        continue;
      const char *key =
          arena_printf("%s[%zu]=%s", x->ctype, x->count, expand_init(e, i, l, x->init));
      ConstSlot c = {.op = i, .k = k, .dtype = DT_UINT8, .bytes = strlen(key), .data = key};
      const ConstSlot *o = const_set_intern(structs, &c);
      if (o)
        e->const_alias[i][k] = own_symbol(e, o->op, &op_lowered(&g->ops[o->op])->consts[o->k]);
    }
  }
}

static void emit_runner(Emit *e) {
  const Graph *g = e->g;
  const Plan *p = e->p;
  const char *name = arena_printf("%s.c", e->P);

  /* The body first (it marks what the declarations need). */
  char *body = NULL;
  size_t body_len = 0;
  bool uses_copy = false;
  FILE *b = open_memstream(&body, &body_len);
  if (!b)
    die("open_memstream failed");
  for (int i = 0; i < g->ninputs; i++)
    fprintf(b, "  %s_TENSOR(%d, inputs->%s, %zu);\n", e->U, g->inputs[i],
            e->in_name[i], tensor_bytes(&g->tensors[g->inputs[i]]));
  int n;
  const int *order = schedule(p, g, &n);
  int depth = 0; /* inside how many IF branches and WHILE loops */
  for (int s = 0; s < n; s++) {
    int i = order[s];
    const Op *op = &g->ops[i];
    const Lowered *l = op_lowered(op);
    fputc('\n', b);
    if (is_structure_op(op->kind)) {
      put_structure(b, e, i, &depth);
      continue;
    }
    if (l->fused) {
      fprintf(b, "  /* op %d: %s, computed in op %d's epilogue */\n", i,
              comment_safe(op_display_name(g, i)), l->fused_op);
      continue;
    }
    if (l->patch && !l->patch_end) {
      fprintf(b, "  /* op %d: %s, computed band by band in op %d's patched run */\n", i,
              comment_safe(op_display_name(g, i)), l->patch->ops[l->patch->nops - 1]);
      continue;
    }
    /* The op's code, indented into the branches and loops around it. */
    FILE *outer = b;
    char *optext = NULL;
    size_t oplen = 0;
    if (depth > 0) {
      b = open_memstream(&optext, &oplen);
      if (!b)
        die("open_memstream failed");
    }
    put_op_comment(b, e, i);
    if (e->o->profile)
      put_profile_call(b, g, e->P, i, 0);
    if (l->patch)
      put_patched_run(b, e, i);
    else if (l->kernel) {
      const char *fn = l->kernel;
      int ob = op->noutputs > 0 && op->outputs[0] >= 0 ? g->tensors[op->outputs[0]].storage : -1;
      if (ob >= 0 && ob < p->nbufs && p->bufs[ob].overlap_rev) {
        if (!l->overlap.reverse_kernel)
          die("op %d overlaps its input backwards without a backward kernel", i);
        fn = l->overlap.reverse_kernel; /* the plan put its output above its input */
      }
      if (fn[0] == '@') { /* a helper defined in the runner itself */
        if (strcmp(fn, "@copy"))
          die("unknown local helper %s", fn);
        uses_copy = true;
        fn = arena_printf("%s_copy", e->P);
      }
      const char **args = arena_array((size_t)l->nargs + 1, sizeof(char *));
      for (int k = 0; k < l->nargs; k++)
        args[k] = arg_text(e, i, l, &l->args[k]);
      put_wrapped(b, arena_printf("  st = %s(", fn), args, l->nargs, ");\n",
                  "      ");
      fprintf(b, "  if (st != TA_OK)\n    return st;\n");
    }
    if (e->o->profile)
      put_profile_call(b, g, e->P, i, 1);
    put_hooks(b, e, op);
    if (depth > 0) {
      fclose(b);
      b = outer;
      put_indented(b, optext, oplen, depth);
      free(optext);
    }
  }
  if (depth != 0)
    die("the runner's body ends %d levels deep", depth);
  if (e->uses_copy)
    uses_copy = true;
  for (int i = 0; i < g->noutputs; i++) {
    const char *from = copy_aliased_output(e, i);
    if (!from)
      continue;
    uses_copy = true;
    int t = g->outputs[i];
    bool guarded = e->o->io_in_workspace && !in_flash(g, t);
    const char *what = in_flash(g, t)          ? "a constant"
                       : input_pos(g, t) >= 0 ? arena_printf("also model input %d", input_pos(g, t))
                                              : arena_printf("also output %d", output_pos(g, t));
    fprintf(b, "\n  /* output %d (t%d) is %s: copied from it%s */\n", i, t, what,
            guarded ? " unless <prefix>_io()'s pointers make them one" : "");
    if (guarded)
      fprintf(b, "  if ((const void *)outputs->%s != (const void *)%s)\n  ",
              e->out_name[i], from);
    fprintf(b, "  (void)%s_copy(%zu, %s, outputs->%s);\n", e->P,
            tensor_bytes(&g->tensors[g->outputs[i]]), from, e->out_name[i]);
  }
  fclose(b);

  FILE *f = open_out(e, name);
  fprintf(f,
          "/* SPDX-License-Identifier: Apache-2.0 */\n"
          "/*\n"
          " * %s - the runner of model %s, generated by tinyaot.\n"
          " * Do not edit: regenerate with `tinyaot compile`.\n"
          " *\n"
          " * One kernel call per op in schedule order; every tensor lives at\n"
          " * the offset the memory plan (%s_plan.json) gave it.\n"
          " *\n",
          name, comment_safe(e->o->model), e->P);
  put_provenance(f, e, " * ");
  fprintf(f, " */\n");
  fprintf(f, "#include \"%s.h\"\n\n#include <float.h>\n%s#include <stddef.h>\n\n#include \"ta_kernels.h\"\n\n",
          e->P, e->g->float_inf ? "#include <math.h>\n" : "");
  fprintf(f,
          "/* Define %s_TENSOR_HOOK to a function name to see every tensor\n"
          " * right after it is produced: void hook(int tensor_index,\n"
          " * const void *data, size_t bytes).  Without it the calls vanish. */\n"
          "#ifdef %s_TENSOR_HOOK\n"
          "void %s_TENSOR_HOOK(int tensor, const void *data, size_t bytes);\n"
          "#define %s_TENSOR(t, data, bytes) %s_TENSOR_HOOK(t, data, bytes)\n"
          "#else\n"
          "#define %s_TENSOR(t, data, bytes) ((void)0)\n"
          "#endif\n\n",
          e->U, e->U, e->U, e->U, e->U, e->U);

  /* Kernels the user supplies (--custom-op), one declaration each. */
  bool any = false;
  for (int s = 0; s < n; s++) {
    const Lowered *l = op_lowered(&g->ops[order[s]]);
    if (!l->kernel || !l->user_kernel)
      continue;
    bool seen = false;
    for (int r = 0; r < s && !seen; r++) {
      const Lowered *o = op_lowered(&g->ops[order[r]]);
      seen = o->kernel && o->user_kernel && !strcmp(o->kernel, l->kernel);
    }
    if (seen)
      continue;
    if (!any)
      fprintf(f, "/* Kernels of custom ops, supplied by the user (--custom-op). */\n");
    any = true;
    fprintf(f, "ta_status %s(const ta_custom_op *op, const void *const *inputs,\n"
               "    void *const *outputs, void *scratch);\n", l->kernel);
  }
  if (any)
    fputc('\n', f);

  /* Weights and host-computed arrays live in <p>_weights.c. */
  any = false;
  for (int t = 0; t < g->ntensors; t++) {
    if (!e->const_used[t] || e->blob_off)
      continue;
    if (!any)
      fprintf(f, "/* Constants, in %s_weights.c. */\n", e->P);
    any = true;
    const Tensor *x = &g->tensors[t];
    fprintf(f, "extern const %s %s_t%d[%zu];\n", ctype_of(x->dtype), e->P, t,
            tensor_bytes(x) / elem_size(x->dtype));
  }
  for (int s = 0; s < n; s++) {
    int i = order[s];
    const Lowered *l = op_lowered(&g->ops[i]);
    for (int c = 0; c < l->nconsts; c++) {
      const ConstObj *k = &l->consts[c];
      if (k->init || const_alias(e, i, c))
        continue;
      if (!any)
        fprintf(f, "/* Constants, in %s_weights.c. */\n", e->P);
      any = true;
      fprintf(f, "extern const %s %s[%zu];\n", ctype_of(k->dtype),
              const_symbol(e, i, k), k->count ? k->count : 1);
    }
  }
  if (any)
    fputc('\n', f);
  /* Parameter structs. */
  any = false;
  for (int s = 0; s < n; s++) {
    int i = order[s];
    const Lowered *l = op_lowered(&g->ops[i]);
    for (int c = 0; c < l->nconsts; c++) {
      const ConstObj *k = &l->consts[c];
      if (!k->init || const_alias(e, i, c))
        continue;
      if (!any)
        fprintf(f, "/* Kernel parameters, computed by the compiler (each distinct one once). */\n");
      any = true;
      if (k->count) /* an array of structs */
        fprintf(f, "static const %s %s[%zu] = %s;\n", k->ctype, const_symbol(e, i, k),
                k->count, expand_init(e, i, l, k->init));
      else
        fprintf(f, "static const %s %s = %s;\n", k->ctype, const_symbol(e, i, k),
                expand_init(e, i, l, k->init));
    }
  }
  if (any)
    fputc('\n', f);

  if (uses_copy)
    fprintf(f,
            "/* A copy the memory plan could not avoid (RESHAPE and the like,\n"
            " * an output that is a constant or another output). */\n"
            "static ta_status %s_copy(size_t bytes, const void *in, void *out) {\n"
            "  const uint8_t *s = (const uint8_t *)in;\n"
            "  uint8_t *d = (uint8_t *)out;\n"
            "  size_t i;\n"
            "  for (i = 0; i < bytes; i++)\n"
            "    d[i] = s[i];\n"
            "  return TA_OK;\n"
            "}\n\n",
            e->P);
  if (e->blob_off)
    put_blob_binder(f, e->P, e->U, e->o->model_sha256, e->blob_size);
  fprintf(f, "int %s_run(const struct %s_inputs *inputs, struct %s_outputs *outputs,\n"
             "    %s) {\n",
          e->P, e->P, e->P, ws_params(e));
  if (e->blob_off)
    fprintf(f, "  if (!%s_blob)\n    return %s_ERR_NO_WEIGHTS;\n", e->P, e->U);
  if (p->npools == 1) {
    if (e->uses_ws)
      fprintf(f, "  uint8_t *ws = (uint8_t *)workspace;\n");
    else
      fprintf(f, "  (void)workspace;\n");
  } else {
    for (int i = 0; i < p->npools; i++)
      fprintf(f, "  uint8_t *%s = (uint8_t *)pools->%s;\n", pool_base(e, i),
              p->pools[i].name);
    for (int i = 0; i < p->npools; i++)
      fprintf(f, "  (void)%s;\n", pool_base(e, i));
  }
  if (p->persistent_bytes) {
    if (e->uses_ps)
      fprintf(f, "  uint8_t *ps = (uint8_t *)persistent;\n");
    else
      fprintf(f, "  (void)persistent;\n");
  }
  fprintf(f, "  ta_status st = TA_OK;\n\n  (void)inputs;\n  (void)outputs;\n");
  fwrite(body, 1, body_len, f);
  free(body);
  fprintf(f, "  (void)st;\n  return TA_OK;\n}\n");

  if (p->persistent_bytes) {
    fprintf(f, "\nvoid %s_reset(void *persistent) {\n", e->P);
    fprintf(f, "  uint8_t *ps = (uint8_t *)persistent;\n  size_t i;\n\n");
    fprintf(f, "  for (i = 0; i < %zu; i++)\n    ps[i] = 0;\n", p->persistent_bytes);
    for (int i = 0; i < p->nbufs; i++) {
      const Buffer *bf = &p->bufs[i];
      if (!bf->persistent || !bf->ntensors)
        continue;
      const Tensor *x = &g->tensors[bf->tensors[0]];
      int64_t zp = x->q.nscale && x->q.zero_point ? x->q.zero_point[0] : 0;
      if (x->init) {
        /* A resource variable: the value CALL_ONCE's init subgraph assigns. */
        fprintf(f, "  {\n    static const uint8_t init[%zu] = {", x->ninit);
        for (size_t k = 0; k < x->ninit; k++)
          fprintf(f, "%s%u", k ? (k % 16 ? ", " : ",\n        ") : "", x->init[k]);
        fprintf(f, "};\n    for (i = 0; i < %zu; i++) /* t%d: initial value */\n"
                   "      ps[%zu + i] = init[i];\n  }\n",
                x->ninit, bf->tensors[0], bf->offset);
      } else if (x->dtype == DT_INT8 && zp != 0)
        fprintf(f,
                "  for (i = 0; i < %zu; i++) /* t%d: zero point */\n"
                "    ps[%zu + i] = (uint8_t)(int8_t)%" PRId64 ";\n",
                tensor_bytes(x), bf->tensors[0], bf->offset, zp);
    }
    fprintf(f, "}\n");
  }

  if (e->o->io_in_workspace) {
    fprintf(f, "\nvoid %s_io(%s, struct %s_inputs *inputs,\n"
               "    struct %s_outputs *outputs) {\n",
            e->P,
            p->npools == 1 ? "void *workspace"
                           : arena_printf("const struct %s_pools *pools", e->P),
            e->P, e->P);
    if (p->npools == 1)
      fprintf(f, "  uint8_t *ws = (uint8_t *)workspace;\n");
    else
      for (int i = 0; i < p->npools; i++)
        fprintf(f, "  uint8_t *%s = (uint8_t *)pools->%s;\n", pool_base(e, i),
                p->pools[i].name);
    fprintf(f, "  (void)inputs;\n  (void)outputs;\n");
    if (p->npools == 1)
      fprintf(f, "  (void)ws;\n");
    else
      for (int i = 0; i < p->npools; i++)
        fprintf(f, "  (void)%s;\n", pool_base(e, i));
    for (int k = 0; k < g->ninputs + g->noutputs; k++) {
      bool in = k < g->ninputs;
      int t = in ? g->inputs[k] : g->outputs[k - g->ninputs];
      if (in_flash(g, t))
        continue; /* a constant output: the caller's buffer */
      const Buffer *bf = buffer_of(e, t);
      if (bf->external || bf->persistent)
        continue;
      fprintf(f, "  %s->%s = (%s%s *)(void *)(%s + %zu);\n", in ? "inputs" : "outputs",
              in ? e->in_name[k] : e->out_name[k - g->ninputs],
              in ? "const " : "", ctype_of(g->tensors[t].dtype),
              pool_base(e, bf->pool), bf->offset);
    }
    fprintf(f, "}\n");
  }
  close_out(e, f, name);
}

/* ------------------------------------------------------ <p>_weights.c */

static void emit_weights(Emit *e) {
  const Graph *g = e->g;
  const char *name = arena_printf("%s_weights.c", e->P);
  FILE *f = open_out(e, name);
  fprintf(f, "/* SPDX-License-Identifier: Apache-2.0 */\n/*\n");
  put_provenance(f, e, " * ");
  fprintf(f,
          " *\n"
          " * %s - the constants of model %s, generated by tinyaot.\n"
          " * Do not edit: regenerate with `tinyaot compile`.\n"
          " *\n"
          " * The model's weights the runner reads, and the arrays the\n"
          " * compiler computed (requantization multipliers and shifts, folded\n"
          " * biases).  Each array is in the linker section \"%s\"\n"
          " * (--weights-section), whatever the build system names this\n"
          " * file's object, and aligned to 16 bytes (the kernels' word\n"
          " * loads).  Define %s_WEIGHT_ATTR (after the declarator) and\n"
          " * %s_WEIGHT_PRAGMA (before it) to place them otherwise.\n"
          " */\n"
          "#include <stdint.h>\n\n",
          name, comment_safe(e->o->model), e->section, e->U, e->U);
  const char *U = e->U, *sec = e->section;
  fprintf(f,
          "#ifndef %s_WEIGHT_ATTR\n"
          "#if defined(__ICCARM__) /* IAR: the section by @, the alignment by a pragma */\n"
          "#define %s_WEIGHT_ATTR @ \"%s\"\n"
          "#define %s_WEIGHT_PRAGMA _Pragma(\"data_alignment=16\")\n"
          "#elif defined(__APPLE__) /* Mach-O sections are \"segment,section\" */\n"
          "#define %s_WEIGHT_ATTR __attribute__((aligned(16)))\n"
          "#elif defined(__GNUC__) || defined(__clang__) || defined(__CC_ARM)\n"
          "/* GCC, Clang, Arm Compiler 5 and 6 (armclang), TI Arm Clang */\n"
          "#define %s_WEIGHT_ATTR __attribute__((section(\"%s\"), aligned(16)))\n"
          "#else\n"
          "#error \"tinyaot: unknown compiler: define %s_WEIGHT_ATTR to place the weights in section %s with 16-byte alignment\"\n"
          "#endif\n"
          "#endif\n"
          "#ifndef %s_WEIGHT_PRAGMA\n"
          "#define %s_WEIGHT_PRAGMA\n"
          "#endif\n\n",
          U, U, sec, U, U, U, sec, U, sec, U, U);
  /* Declarations first: each definition then has a prior declaration
   * (-Wmissing-variable-declarations). */
  for (int t = 0; t < g->ntensors; t++) {
    if (!e->const_used[t] || e->blob_off)
      continue;
    const Tensor *x = &g->tensors[t];
    fprintf(f, "extern const %s %s_t%d[%zu];\n", ctype_of(x->dtype), e->P, t,
            tensor_bytes(x) / elem_size(x->dtype));
  }
  int n;
  const int *order = schedule(e->p, g, &n);
  for (int s = 0; s < n; s++) {
    int i = order[s];
    const Lowered *l = op_lowered(&g->ops[i]);
    for (int c = 0; c < l->nconsts; c++)
      if (!l->consts[c].init && !const_alias(e, i, c))
        fprintf(f, "extern const %s %s[%zu];\n", ctype_of(l->consts[c].dtype),
                const_symbol(e, i, &l->consts[c]),
                l->consts[c].count ? l->consts[c].count : 1);
  }
  fputc('\n', f);
  for (int t = 0; t < g->ntensors; t++) {
    if (!e->const_used[t] || e->blob_off)
      continue; /* with --weights-blob: in the image (write_blob) */
    const Tensor *x = &g->tensors[t];
    size_t bytes = tensor_bytes(x);
    if (x->ndata < bytes)
      error_at(g, x->producer, "constant tensor %d holds %zu bytes, needs %zu",
               t, x->ndata, bytes);
    if (e->tensor_shared[t])
      fprintf(f, "/* t%d \"%s\" %s, also the array of %d identical tensor%s */\n", t,
              comment_safe(x->name), shape_str(x), e->tensor_shared[t],
              e->tensor_shared[t] > 1 ? "s" : "");
    else
      fprintf(f, "/* t%d \"%s\" %s */\n", t, comment_safe(x->name), shape_str(x));
    put_array(f, e, arena_printf("%s_t%d", e->P, t), x->dtype, x->data,
              bytes / elem_size(x->dtype));
  }
  for (int s = 0; s < n; s++) {
    int i = order[s];
    const Lowered *l = op_lowered(&g->ops[i]);
    for (int c = 0; c < l->nconsts; c++) {
      const ConstObj *k = &l->consts[c];
      if (k->init || const_alias(e, i, c))
        continue;
      int shared = e->const_shared[i] ? e->const_shared[i][c] : 0;
      if (shared)
        fprintf(f, "/* op %d (%s): %s, also used by %d later op%s */\n", i,
                comment_safe(op_display_name(g, i)), k->name, shared, shared > 1 ? "s" : "");
      else
        fprintf(f, "/* op %d (%s): %s */\n", i, comment_safe(op_display_name(g, i)), k->name);
      put_array(f, e, const_symbol(e, i, k), k->dtype, k->data, k->count);
    }
  }
  close_out(e, f, name);
}

/* ------------------------------------------------- --weights-blob */

/* The image of the constant tensors the runner placed (const_ref). */
static void write_blob(Emit *e, const char *path) {
  uint8_t *payload = arena_alloc(e->blob_size + 1);
  for (int t = 0; t < e->g->ntensors; t++) {
    if (e->blob_off[t] == SIZE_MAX)
      continue;
    const Tensor *x = &e->g->tensors[t];
    size_t bytes = tensor_bytes(x);
    if (x->ndata < bytes)
      error_at(e->g, x->producer, "constant tensor %d holds %zu bytes, needs %zu",
               t, x->ndata, bytes);
    memcpy(payload + e->blob_off[t], x->data, bytes);
  }
  write_weights_blob(path, e->o->model_sha256, payload, e->blob_size);
}

/* ------------------------------------------------------ <p>_plan.json */

static void emit_plan_json(Emit *e) {
  const char *name = arena_printf("%s_plan.json", e->P);
  FILE *f = open_out(e, name);
  /* The planner's own JSON, naming the model by its file name only, so
   * that the folder does not depend on where the model was. */
  Graph named = *e->g;
  named.path = e->o->model;
  print_plan_json(f, &named, e->p);
  close_out(e, f, name);
}

/* ------------------------------------------------------------ runtime */

/* Picks the runtime files the runner needs (runtime_catalog.c): every
 * header, and the .c files defining the kernels it calls and what those
 * call.  Marks them in `need`. */
static void select_runtime(const Emit *e, bool *need) {
  const Graph *g = e->g;
  const char **kernels = arena_array(2 * (size_t)g->nops + 1, sizeof(char *));
  int nkernels = 0;
  for (int i = 0; i < g->nops; i++) {
    const Lowered *l = op_lowered(&g->ops[i]);
    if (l->kernel && l->kernel[0] != '@' && !l->user_kernel)
      kernels[nkernels++] = l->kernel;
    if (l->overlap.reverse_kernel)
      kernels[nkernels++] = l->overlap.reverse_kernel;
  }
  const char *missing = runtime_select(kernels, nkernels, need);
  if (missing)
    die("kernel %s is in no runtime file", missing);
}

/* Where runtime file i goes in the folder: its own path, or with
 * --package arduino|platformio (whose tools put only src/ on the include
 * path) the public headers beside the model's, runtime/include/x.h -> x.h. */
static const char *runtime_out_path(const Emit *e, int i) {
  const char *path = runtime_files[i].path;
  if (e->flat_include && !strncmp(path, "runtime/include/", 16))
    return path + 16;
  return path;
}

static void emit_runtime(Emit *e, const bool *need) {
  for (int i = 0; i < nruntime_files; i++) {
    if (!need[i])
      continue;
    const char *path = runtime_out_path(e, i);
    FILE *f = open_out(e, path);
    fputs(runtime_files[i].text, f);
    close_out(e, f, path);
  }
}

/* ------------------------------------------------- build descriptions */

static void emit_makefile(Emit *e, const char **src, int nsrc) {
  const char *name = arena_printf("%s.mk", e->P);
  FILE *f = open_out(e, name);
  const char *U = e->U;
  fprintf(f, "# SPDX-License-Identifier: Apache-2.0\n");
  put_provenance(f, e, "# ");
  fprintf(f,
          "#\n"
          "# %s - builds model %s into the static library lib%s.a.\n"
          "# Generated by tinyaot.  Do not edit.\n"
          "#\n"
          "#   on its own:   make -f DIR/%s [CC=...] [CFLAGS=...]\n"
          "#                 -> DIR/build/lib%s.a\n"
          "#   from a Makefile:\n"
          "#     include DIR/%s\n"
          "#     app: app.o $(%s_LIB)        # link lib%s.a\n"
          "#     app.o: CFLAGS += $(%s_INCLUDES)  # -I for %s.h\n"
          "#\n"
          "# Several models: include each fragment and link each library;\n"
          "# their runtime files are identical, the linker takes each\n"
          "# kernel once (or compile them with --runtime DIR: one runtime,\n"
          "# $(%s_LIBS) then names both libraries).  %s_BUILD sets where\n"
          "# objects go.\n\n",
          name, comment_safe(e->o->model), e->P, name, e->P, name, U, e->P, U,
          e->P, U, U);
  fprintf(f, "%s_SAVED_GOAL := $(.DEFAULT_GOAL)\n", U);
  fprintf(f, "%s_DIR := $(patsubst %%/,%%,$(dir $(lastword $(MAKEFILE_LIST))))\n", U);
  fprintf(f, "%s_BUILD ?= $(%s_DIR)/build\n", U, U);
  if (e->runtime_rel) { /* the kernels come from a shared runtime */
    fprintf(f, "include $(%s_DIR)/%s/runtime.mk\n", U, e->runtime_rel);
    fprintf(f, "%s_INCLUDES := -I$(%s_DIR) $(TINYAOT_RUNTIME_INCLUDES)\n", U, U);
  } else {
    fprintf(f, "%s_INCLUDES := -I$(%s_DIR)%s\n", U, U,
            e->flat_include ? "" : arena_printf(" -I$(%s_DIR)/runtime/include", U));
  }
  fprintf(f, "%s_SRCS :=", U);
  for (int i = 0; i < nsrc; i++)
    fprintf(f, " \\\n  %s", src[i]);
  fprintf(f, "\n%s_OBJS := $(addprefix $(%s_BUILD)/,$(%s_SRCS:.c=.o))\n", U, U, U);
  fprintf(f, "%s_LIB := $(%s_BUILD)/lib%s.a\n", U, U, e->P);
  /* What a program links: the model's library, and the shared runtime's. */
  fprintf(f, "%s_LIBS := $(%s_LIB)%s\n\n", U, U,
          e->runtime_rel ? " $(TINYAOT_RUNTIME_LIB)" : "");
  fprintf(f, ".PHONY: %s\n%s: $(%s_LIB)\n\n", e->P, e->P, U);
  fprintf(f, "$(%s_LIB): $(%s_OBJS)\n\t$(AR) rcs $@ $^\n\n", U, U);
  fprintf(f,
          "$(%s_BUILD)/%%.o: $(%s_DIR)/%%.c\n"
          "\t@mkdir -p $(dir $@)\n"
          "\t$(CC) $(CFLAGS) $(%s_INCLUDES) -c -o $@ $<\n\n",
          U, U, U);
  fprintf(f, "ifneq ($(words $(MAKEFILE_LIST)),1)\n"
             ".DEFAULT_GOAL := $(%s_SAVED_GOAL)\nendif\n", U);
  close_out(e, f, name);
}

static void emit_cmake(Emit *e, const char **src, int nsrc) {
  FILE *f = open_out(e, "CMakeLists.txt");
  fprintf(f, "# SPDX-License-Identifier: Apache-2.0\n");
  put_provenance(f, e, "# ");
  fprintf(f, "#\n");
  fprintf(f,
          "# Builds model %s into the static library %s.  Generated by\n"
          "# tinyaot; do not edit.  Use: add_subdirectory(DIR) and\n"
          "# target_link_libraries(app PRIVATE %s).  Several models: one\n"
          "# add_subdirectory per folder; the libraries link together.\n"
          "cmake_minimum_required(VERSION 3.5)\n"
          "project(%s C)\n\n"
          "add_library(%s STATIC",
          comment_safe(e->o->model), e->P, e->P, e->P, e->P);
  for (int i = 0; i < nsrc; i++)
    fprintf(f, "\n  %s", src[i]);
  fprintf(f, ")\n"
             "set_target_properties(%s PROPERTIES C_STANDARD 99 C_STANDARD_REQUIRED ON)\n",
          e->P);
  if (e->runtime_rel)
    fprintf(f,
            "target_include_directories(%s PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})\n"
            "# The kernels: the shared runtime (tinyaot runtime), added once.\n"
            "if(NOT TARGET tinyaot_runtime)\n"
            "  add_subdirectory(${CMAKE_CURRENT_SOURCE_DIR}/%s\n"
            "    ${CMAKE_BINARY_DIR}/tinyaot_runtime)\n"
            "endif()\n"
            "target_link_libraries(%s PUBLIC tinyaot_runtime)\n",
            e->P, e->runtime_rel, e->P);
  else
    fprintf(f,
            "target_include_directories(%s PUBLIC\n"
            "  ${CMAKE_CURRENT_SOURCE_DIR}%s)\n",
            e->P, e->flat_include ? "" : "\n  ${CMAKE_CURRENT_SOURCE_DIR}/runtime/include");
  close_out(e, f, "CMakeLists.txt");
}

/* ------------------------------------------------------------- emit */

EmitResult emit_folder(const Graph *g, const Plan *p, const EmitOptions *o,
                       const char *dir) {
  Emit e = {.g = g, .p = p, .o = o, .P = o->prefix,
            .U = upper(o->prefix),
            .section = o->weights_section ? o->weights_section : ".weights",
            .flat_include = o->flat_include};
  if (p->npools < 1)
    die("plan has no pool");
  for (int i = 0; i < g->nops; i++)
    if (!g->ops[i].lowered)
      die("op %d was not lowered", i);
  /* Every offset the runner computes must fit a 32-bit target's
   * pointer arithmetic (each tensor does: the reader bounds it). */
  if (workspace_size(p) > INT32_MAX || p->persistent_bytes > INT32_MAX)
    error_at(g, -1,
             "the memory plan needs %zu bytes of workspace and %zu persistent; "
             "the generated code addresses at most %d bytes in each",
             workspace_size(p), p->persistent_bytes, INT32_MAX);

  e.in_name = arena_array((size_t)g->ninputs + 1, sizeof(char *));
  e.out_name = arena_array((size_t)g->noutputs + 1, sizeof(char *));
  const char **taken = arena_array((size_t)(g->ninputs + g->noutputs) + 1,
                                   sizeof(char *));
  int ntaken = 0;
  for (int i = 0; i < g->ninputs; i++) {
    e.in_name[i] = member_name(g->tensors[g->inputs[i]].name, "input", i,
                               taken, ntaken);
    taken[ntaken++] = e.in_name[i];
  }
  ntaken = 0; /* inputs and outputs are separate structs */
  for (int i = 0; i < g->noutputs; i++) {
    e.out_name[i] = member_name(g->tensors[g->outputs[i]].name, "output", i,
                                taken, ntaken);
    taken[ntaken++] = e.out_name[i];
  }
  e.const_used = arena_array((size_t)g->ntensors + 1, sizeof(bool));
  find_io_buffers(&e);

  e.out = outdir_begin(dir, &(OutDirOptions){.force = o->force,
                                             .protect = o->model_path});
  if (o->package && package_uses_src(o->package))
    outdir_set_base(e.out, "src");
  if (o->weights_blob) {
    e.blob_off = arena_array((size_t)g->ntensors + 1, sizeof(size_t));
    for (int t = 0; t < g->ntensors; t++)
      e.blob_off[t] = SIZE_MAX;
  }
  dedup_constants(&e);
  emit_runner(&e); /* first: it marks the constants in use */
  if (o->weights_blob)
    write_blob(&e, o->weights_blob);
  emit_header(&e);
  emit_weights(&e);
  emit_plan_json(&e);

  bool *need = arena_array((size_t)nruntime_files + 1, sizeof(bool));
  select_runtime(&e, need);
  if (o->runtime_dir) {
    const char *missing = runtime_missing(o->runtime_dir, need);
    if (missing)
      error_file(o->runtime_dir,
                 "has no %s, which model %s needs: write the runtime with "
                 "`tinyaot runtime -o %s` (all kernels)",
                 missing, o->model, o->runtime_dir);
    e.runtime_rel = relative_dir(dir, o->runtime_dir);
    for (int i = 0; i < nruntime_files; i++)
      need[i] = false; /* the folder carries no kernel */
  } else {
    emit_runtime(&e, need);
  }

  const char **src = arena_array((size_t)nruntime_files + 3, sizeof(char *));
  int nsrc = 0;
  src[nsrc++] = arena_printf("%s.c", e.P);
  src[nsrc++] = arena_printf("%s_weights.c", e.P);
  if (o->profile) {
    emit_profile_source(g, e.out, e.P, e.U);
    src[nsrc++] = arena_printf("%s_profile.c", e.P);
  }
  for (int i = 0; i < nruntime_files; i++) {
    size_t n = strlen(runtime_files[i].path);
    if (need[i] && !strcmp(runtime_files[i].path + n - 2, ".c"))
      src[nsrc++] = runtime_out_path(&e, i);
  }
  emit_makefile(&e, src, nsrc);
  emit_cmake(&e, src, nsrc);
  EmitResult r = {.sources = src, .nsources = nsrc,
                  .in_names = e.in_name, .out_names = e.out_name};
  if (o->package) {
    outdir_set_base(e.out, NULL);
    emit_package(o->package, e.out, o, &r);
  }
  outdir_commit(e.out);
  return r;
}
