/* SPDX-License-Identifier: Apache-2.0 */
/*
 * main.c - the command line.
 *
 *   tinyaot inspect MODEL [--json]
 *   tinyaot plan MODEL [options]
 *   tinyaot compile MODEL -o DIR [options]
 *   tinyaot run MODEL -i IN.bin ... -o OUT.bin ... [options]
 *   tinyaot report MODEL [-o FILE] [--json] [--profile-data FILE] [options]
 *   tinyaot help [COMMAND], tinyaot --version
 *
 * Every command and option is described in help.c's table (usage, help
 * and the man page come from it); this file parses them.
 *
 * Exit status: 0 success, 1 bad input (the model), 2 bad usage.
 */
#define _POSIX_C_SOURCE 200809L
#include "tinyaot.h"
#include "version.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ta_types.h"

/* A usage error: the message and the short usage (help.c) to stderr. */
static TA_NORETURN void usage(const char *msg) {
  if (msg)
    fprintf(stderr, "tinyaot: %s\n", msg);
  print_usage(stderr);
  exit(2);
}

static bool is_help(const char *a) { return !strcmp(a, "--help") || !strcmp(a, "-h"); }

/* --help after a command: its help on stdout, exit 0. */
static TA_NORETURN void command_help(const char *command) {
  print_help(stdout, command);
  exit(0);
}

/* tinyaot help [COMMAND] [--man]. */
static int cmd_help(int argc, char **argv) {
  if (argc == 1 && !strcmp(argv[0], "--man")) {
    print_man(stdout);
    return 0;
  }
  if (argc > 1)
    usage("help takes at most one command");
  if (print_help(stdout, argc ? argv[0] : NULL) != 0)
    usage(arena_printf("help: unknown command '%s'", argv[0]));
  return 0;
}

/* Do paths a and b name one existing file (the same inode)? */
static bool same_file(const char *a, const char *b) {
  struct stat sa, sb;
  return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

/* Debug dumps (-dI, -dL, -dP): each step's result, to stderr. */
enum { DUMP_IR = 1, DUMP_LOWER = 2, DUMP_PLAN = 4 };

/* Reads and verifies MODEL: the front half of every command.  dump:
 * DUMP_IR prints the IR as read (inspect's table) to stderr. */
static Graph *load(const char *path, unsigned dump, const ImportOptions *onnx,
                   const char **sha256) {
  size_t size;
  uint8_t *buf = map_file(path, &size);
  if (sha256)
    *sha256 = sha256_hex(buf, size);
  static const ImportOptions none;
  onnx = onnx ? onnx : &none;
  Graph *g;
  if (looks_like_onnx(buf, size)) {
    g = read_onnx(path, buf, size, onnx);
  } else {
    g = read_tflite(path, buf, size);
    bind_constant_inputs(g, onnx);
    bind_probes(g, onnx);
  }
  verify(g);
  if (dump & DUMP_IR)
    print_inspect(stderr, g, false);
  return g;
}

static int cmd_inspect(int argc, char **argv) {
  const char *path = NULL;
  bool json = false;
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--json"))
      json = true;
    else if (is_help(argv[i]))
      command_help("inspect");
    else if (argv[i][0] == '-')
      usage(arena_printf("inspect: unknown option %s", argv[i]));
    else if (!path)
      path = argv[i];
    else
      usage("inspect takes one model");
  }
  if (!path)
    usage("inspect needs a model");
  Graph *g = load(path, 0, NULL, NULL);
  /* Mark the ops compile would refuse (default options). */
  LowerOptions lo = {.rounding = TA_ROUND_DOUBLE};
  check_lowering(g, &lo);
  print_inspect(stdout, g, json);
  return 0;
}

/* "65536", "64k", "1M" -> bytes; false when it is not a size. */
static bool parse_size(const char *s, size_t *out) {
  char *end;
  if (!*s || *s == '-')
    return false;
  unsigned long long v = strtoull(s, &end, 10);
  size_t mul = 1;
  if (*end == 'k' || *end == 'K')
    mul = 1024, end++;
  else if (*end == 'm' || *end == 'M')
    mul = 1024 * 1024, end++;
  if (end == s || *end || v > SIZE_MAX)
    return false;
  return !mul_overflows((size_t)v, mul, out);
}

/* ------------------------------------------------------ the pipeline */

typedef struct {
  bool views;    /* run the graph passes (--no-views: every RESHAPE copies) */
  bool int8_io;  /* --int8-io: drop the boundary QUANTIZE/DEQUANTIZE */
  int patch_start, patch_end, patch_bands; /* --patch [START:]END:N (end -1: none) */
  size_t ram_limit;   /* --ram-limit BYTES (0: none) */
  bool patch_table;   /* --patch-table: plan every patched run, list the best */
  bool int8_io_done;  /* the caller dropped the I/O conversions before compile */
  unsigned dump; /* DUMP_* */
  LowerOptions lower;
  PlanOptions plan;
  EmitOptions emit;
  ImportOptions onnx; /* --layout, --input-shape, --constant-input (.onnx) */
} CompileOptions;

/* --lean-conv's ops: each lowered to a lean form (an int8 CONV_2D's lean
 * DSP entry, alone or with a fused ADD; a 3 x 3 DEPTHWISE_CONV_2D's DSP
 * entry for any filter). */
static void check_lean(Graph *g, const LowerOptions *lo) {
  for (int i = 0; i < lo->nlean; i++) {
    const int k = lo->lean_ops[i];
    if (k >= g->nops)
      error_at(g, -1, "--lean-conv %d: the model has %d ops", k, g->nops);
    const Lowered *l = op_lowered(&g->ops[k]);
    if (!l || !l->lean)
      error_at(g, k,
               "--lean-conv %d: not an int8 CONV_2D or 3 x 3 DEPTHWISE_CONV_2D on the DSP "
               "path (TFLite Micro's rounding), which alone have a lean form",
               k);
  }
}

/* The pipeline after load() (DESIGN.md), shared by plan, compile and run
 * so that `tinyaot plan` shows exactly the plan `compile` emits: graph
 * passes, lowering (kernels and their scratch), then storage, schedule
 * and placement with the checker (plan_graph).  The caller emits. */
static Plan *compile_one(Graph *g, const CompileOptions *o, int start, int end, int bands,
                         bool quiet, const char **why_not) {
  if (o->int8_io || (quiet && o->int8_io_done)) {
    drop_io_conversions(g);
    verify(g);
  }
  if (o->views)
    run_passes(g);
  lower(g, &o->lower);
  check_lean(g, &o->lower);
  if (end >= 0 && !patch_graph(g, start, end, bands, why_not))
    return NULL;
  if (verify_each_pass)
    verify(g);
  if (!quiet && (o->dump & DUMP_LOWER))
    print_lowering(stderr, g);
  PlanOptions po = o->plan;
  po.may_miss = quiet;
  Plan *p = plan_graph(g, &po);
  if (!quiet && (o->dump & DUMP_PLAN))
    print_plan(stderr, g, p);
  return p;
}

/* --ram-limit: what was tried (for `tinyaot plan`'s table). */
typedef struct {
  int start, end, bands; /* end -1: unpatched */
  size_t ram;       /* workspace + persistent */
  size_t missing;   /* bytes the pools lacked */
  int64_t extra;    /* MACs recomputed */
  int peak_op;      /* the op at the largest live set */
  bool fits;
  bool fused;       /* residual ADDs in their convolutions' epilogues */
  const int *lean;  /* the convolutions in their lean form (--lean-conv) */
  int nlean;
} PatchTry;
static PatchTry *tries;
#define MAX_PATCH_TRIES 2048
#define MAX_RUN_FROM 3
#define MAX_LEAN 8 /* convolutions --ram-limit may make lean */
static int ntries, chosen_try = -1;

/* Band counts tried for an output of `rows` rows: every count up to 16,
 * then counts that split the rows evenly or nearly. */
static bool band_count_tried(int n, int rows) {
  return n <= 16 || n == rows || rows % n == 0 || n == 24 || n == 32 || n == 48;
}

/* An op with a lean form not taken yet (an int8 CONV_2D or 3 x 3
 * DEPTHWISE_CONV_2D on the DSP path) at a step where the placement
 * reaches its high-water mark in some pool, the first such; -1: none. */
static int lean_candidate(const Graph *g, const Plan *p) {
  for (int s = 0; s < p->norder; s++) {
    const Lowered *l = op_lowered(&g->ops[p->order[s]]);
    if (!l || !l->kernel || l->lean ||
        (strcmp(l->kernel, "ta_conv2d_fold_dsp_s8") &&
         strcmp(l->kernel, "ta_conv2d_fold_wide_dsp_s8") &&
         strcmp(l->kernel, "ta_conv2d_fold_add_dsp_s8") && !strstr(l->kernel, "_3x3_dsp_s8")))
      continue;
    for (int k = 0; k < p->npools; k++) {
      size_t top = 0;
      for (int b = 0; b < p->nbufs; b++) {
        const Buffer *x = &p->bufs[b];
        if (x->pool == k && x->first <= s && s <= x->last && x->offset + x->bytes > top)
          top = x->offset + x->bytes;
      }
      if (top > 0 && top == p->pools[k].used)
        return p->order[s];
    }
  }
  return -1;
}

/* The options a try adds to the command line's ("" for none), as typed
 * or (token: for the table) as one word: --fuse-add+--lean-conv=5. */
static const char *try_options(const CompileOptions *o, const PatchTry *t, bool token) {
  if (t->end >= 0)
    return token ? patch_spec(t->start, t->end, t->bands)
                 : arena_printf("--patch %s", patch_spec(t->start, t->end, t->bands));
  const char *s = t->fused && !o->lower.fuse_add ? "--fuse-add" : "";
  if (t->nlean > o->lower.nlean) {
    s = arena_printf("%s%s--lean-conv%s", s, !*s ? "" : token ? "+" : " ", token ? "=" : " ");
    for (int i = 0; i < t->nlean; i++)
      s = arena_printf("%s%s%d", s, i ? "," : "", t->lean[i]);
  }
  return token && !*s ? "none" : s;
}

static PatchTry plan_try(const CompileOptions *o, const Graph *g, const Plan *p,
                         int start, int end, int bands) {
  PatchTry t = {.start = start, .end = end, .bands = bands, .ram = p->workspace_bytes + p->persistent_bytes,
                .missing = p->missing, .peak_op = p->norder ? p->order[p->peak_step] : -1,
                .fused = o->lower.fuse_add, .lean = o->lower.lean_ops, .nlean = o->lower.nlean};
  if (end >= 0) {
    const PatchRun *r = op_lowered(&g->ops[end])->patch;
    t.extra = r->macs - r->plain_macs;
  }
  t.fits = t.missing == 0 && (!o->ram_limit || t.ram <= o->ram_limit);
  return t;
}

/*
 * The pipeline.  With --ram-limit (or --patch-table) the unpatched plan
 * first (every algorithm, the overlaps), and the same with the residual
 * ADDs fused (--fuse-add) when that needs less RAM; when neither fits, every
 * patched run (end op, bands) of the chain from op 0, each planned on a
 * fresh copy of the model, and the one with the fewest MACs recomputed
 * that fits is kept (*g becomes its graph).  None fits -> error naming
 * the least RAM reached and the op at its peak.
 */
static Plan *compile(Graph **gp, const CompileOptions *o) {
  if (!o->ram_limit && !o->patch_table)
    return compile_one(*gp, o, o->patch_start, o->patch_end, o->patch_bands, false, NULL);
  if (o->patch_end >= 0)
    usage("--patch and --ram-limit/--patch-table exclude each other");
  Graph *g = load(o->emit.model_path, 0, &o->onnx, NULL);
  Plan *p = compile_one(g, o, 0, -1, 0, true, NULL);
  ntries = 0;
  tries = arena_array(MAX_PATCH_TRIES + 1, sizeof(PatchTry));
  tries[ntries++] = plan_try(o, g, p, 0, -1, 0);
  /* Residual ADDs in their convolutions' epilogues (more code, less
   * compute): a configuration when it lowers the RAM. */
  Graph *base_g = g;
  Plan *base_p = p;
  if (!o->lower.fuse_add) {
    CompileOptions of = *o;
    of.lower.fuse_add = true;
    Graph *h = load(o->emit.model_path, 0, &o->onnx, NULL);
    Plan *q = compile_one(h, &of, 0, -1, 0, true, NULL);
    PatchTry t = plan_try(&of, h, q, 0, -1, 0);
    if (t.ram + t.missing < tries[0].ram + tries[0].missing)
      tries[ntries++] = t, base_g = h, base_p = q;
  }
  /* A convolution at the placement's peak in its lean form (less
   * scratch, slower, no MACs recomputed), then one at the next peak
   * (several steps may reach it), while there is such a convolution; a
   * try is kept when it lowers the RAM. */
  if (!tries[ntries - 1].fits || o->patch_table) {
    PatchTry cur = tries[ntries - 1];
    size_t low = cur.ram + cur.missing;
    CompileOptions ol = *o;
    ol.lower.fuse_add = cur.fused;
    Graph *cg = base_g;
    Plan *cp = base_p;
    int next;
    while (!cur.fits && cur.nlean < MAX_LEAN && ntries < MAX_PATCH_TRIES &&
           (next = lean_candidate(cg, cp)) >= 0) {
      int *ops = arena_array((size_t)cur.nlean + 1, sizeof(int));
      if (cur.nlean)
        memcpy(ops, cur.lean, (size_t)cur.nlean * sizeof(int));
      ops[cur.nlean] = next;
      ol.lower.lean_ops = ops;
      ol.lower.nlean = cur.nlean + 1;
      Graph *h = load(o->emit.model_path, 0, &o->onnx, NULL);
      Plan *q = compile_one(h, &ol, 0, -1, 0, true, NULL);
      PatchTry t = plan_try(&ol, h, q, 0, -1, 0);
      if (t.ram + t.missing < low)
        tries[ntries++] = t, low = t.ram + t.missing;
      cur = t;
      cg = h;
      cp = q;
    }
    /* The last kept: without each of its lean convolutions in turn
     * (the peak may have moved off it), when the RAM stays as low. */
    PatchTry *k = &tries[ntries - 1];
    for (int i = o->lower.nlean; i < k->nlean && k->nlean > o->lower.nlean + 1;) {
      int *ops = arena_array((size_t)k->nlean, sizeof(int)), n = 0;
      for (int j = 0; j < k->nlean; j++)
        if (j != i)
          ops[n++] = k->lean[j];
      ol.lower.lean_ops = ops;
      ol.lower.nlean = n;
      Graph *h = load(o->emit.model_path, 0, &o->onnx, NULL);
      PatchTry t = plan_try(&ol, h, compile_one(h, &ol, 0, -1, 0, true, NULL), 0, -1, 0);
      if (t.ram + t.missing <= low)
        *k = t;
      else
        i++;
    }
  }
  bool whole_fits = false;
  for (int i = 0; i < ntries; i++)
    whole_fits |= tries[i].fits;
  /* Runs from op 0 as far as the chain goes; from a later op, up to
   * MAX_RUN_FROM ops (the high-resolution stages are short). */
  if (!whole_fits || o->patch_table)
    for (int start = 0; start < g->nops; start++) {
      int max_end = patch_max_end(g, start);
      if (start > 0 && max_end > start + MAX_RUN_FROM - 1)
        max_end = start + MAX_RUN_FROM - 1;
      for (int end = start + 1; end <= max_end; end++) {
        int rows = (int)g->tensors[g->ops[end].outputs[0]].dims[1];
        for (int n = 1; n <= rows && ntries < MAX_PATCH_TRIES; n++) {
          if (!band_count_tried(n, rows))
            continue;
          Graph *h = load(o->emit.model_path, 0, &o->onnx, NULL);
          const char *why = NULL;
          Plan *q = compile_one(h, o, start, end, n, true, &why);
          if (q)
            tries[ntries++] = plan_try(o, h, q, start, end, n);
        }
      }
    }
  int best = -1;
  for (int i = 0; i < ntries; i++) {
    const PatchTry *t = &tries[i];
    if (!t->fits)
      continue;
    /* The fewest MACs recomputed, then no fused ADDs (less code), then
     * the fewest lean convolutions (slower), then the least RAM. */
    const PatchTry *b = best >= 0 ? &tries[best] : NULL;
    if (!b || t->extra < b->extra ||
        (t->extra == b->extra &&
         (t->fused < b->fused ||
          (t->fused == b->fused &&
           (t->nlean < b->nlean || (t->nlean == b->nlean && t->ram < b->ram))))))
      best = i;
  }
  if (best < 0 || (!o->ram_limit && o->patch_table))
    best = 0;
  if (o->ram_limit && !tries[best].fits) {
    int least = 0;
    for (int i = 1; i < ntries; i++)
      if (tries[i].missing < tries[least].missing ||
          (tries[i].missing == tries[least].missing && tries[i].ram < tries[least].ram))
        least = i;
    const PatchTry *t = &tries[least];
    const char *pools = "";
    for (int i = 0; i < o->plan.npools; i++)
      if (o->plan.pools[i].limit != SIZE_MAX)
        pools = arena_printf("%s%s %s of %zu", pools, *pools ? "," : "; pools:",
                             o->plan.pools[i].name, o->plan.pools[i].limit);
    const char *how = try_options(o, t, false);
    error_at(g, -1, "--ram-limit %zu: needs at least %zu bytes (op %d %s at the peak%s)%s",
             o->ram_limit, t->ram + t->missing, t->peak_op,
             t->peak_op >= 0 ? op_display_name(g, t->peak_op) : "-",
             *how ? arena_printf(", with %s", how) : "", pools);
  }
  chosen_try = best;
  /* The kept configuration, planned again with the dumps and the check. */
  Graph *h = load(o->emit.model_path, 0, &o->onnx, NULL);
  CompileOptions oo = *o;
  if (o->int8_io_done)
    oo.int8_io = true;
  oo.lower.fuse_add = tries[best].fused;
  oo.lower.lean_ops = tries[best].lean;
  oo.lower.nlean = tries[best].nlean;
  *gp = h;
  return compile_one(h, &oo, tries[best].start, tries[best].end, tries[best].bands, false,
                     NULL);
}

/* The table of what --ram-limit / --patch-table tried: the unpatched
 * plan, then the patched runs that need less RAM than every run with
 * fewer MACs recomputed (the trade-off), and the one kept. */
static void print_patch_table(FILE *out, const Graph *g, const CompileOptions *o) {
  if (ntries == 0)
    return;
  fprintf(out, "\npatched runs tried (%d configurations)%s:\n", ntries,
          o->ram_limit ? arena_printf(", --ram-limit %zu", o->ram_limit) : "");
  fprintf(out, "  %-14s %10s %14s %8s  %s\n", "patch", "RAM B", "extra MACs", "+MACs",
          "peak");
  int64_t total = 0;
  for (int i = 0; i < g->nops; i++) {
    const Lowered *l = op_lowered(&g->ops[i]);
    total += l && l->patch ? 0 : op_macs(g, &g->ops[i]);
    if (l && l->patch && l->patch_end)
      total += l->patch->plain_macs;
  }
  /* Sorted by extra MACs, then RAM; kept when it lowers the RAM. */
  int *idx = arena_array((size_t)ntries, sizeof(int));
  for (int i = 0; i < ntries; i++)
    idx[i] = i;
  for (int i = 1; i < ntries; i++)
    for (int j = i; j > 0; j--) {
      const PatchTry *a = &tries[idx[j - 1]], *b = &tries[idx[j]];
      if (a->extra < b->extra || (a->extra == b->extra && a->ram <= b->ram))
        break;
      int x = idx[j];
      idx[j] = idx[j - 1];
      idx[j - 1] = x;
    }
  size_t low = SIZE_MAX;
  for (int k = 0; k < ntries; k++) {
    const PatchTry *t = &tries[idx[k]];
    size_t need = t->ram + t->missing;
    if (need >= low && idx[k] != chosen_try && idx[k] != 0)
      continue;
    if (need < low)
      low = need;
    const char *name = try_options(o, t, true);
    fprintf(out, "  %-14s %10zu %14lld %7.2f%%  op %d%s\n", name, need, (long long)t->extra,
            total ? 100.0 * (double)t->extra / (double)total : 0.0, t->peak_op,
            idx[k] == chosen_try ? (o->ram_limit ? "  <- kept (fits)" : "  <- kept") : "");
  }
}

static bool is_c_identifier(const char *s) {
  if (!*s || isdigit((unsigned char)*s))
    return false;
  for (; *s; s++)
    if (!isalnum((unsigned char)*s) && *s != '_')
      return false;
  return true;
}

/* The default prefix: the model file's stem as a C identifier. */
static const char *default_prefix(const char *path) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  char *p = arena_printf("m%s", base);
  char *dot = strrchr(p, '.');
  if (dot && dot != p + 1)
    *dot = '\0';
  for (char *c = p + 1; *c; c++)
    if (!isalnum((unsigned char)*c) && *c != '_')
      *c = '_';
  return isdigit((unsigned char)p[1]) || !p[1] ? p : p + 1;
}

static const char *basename_of(const char *path) {
  const char *base = strrchr(path, '/');
  return base ? base + 1 : path;
}

/* Parses one compile option at argv[*i] (advancing *i past its value);
 * false when argv[*i] is not one. */
/* The user kernel for custom op `name` (added when missing). */
static CustomKernel *custom_kernel(CompileOptions *o, const char *name) {
  for (int k = 0; k < o->lower.ncustom; k++)
    if (!strcmp(o->lower.custom[k].name, name))
      return (CustomKernel *)&o->lower.custom[k];
  CustomKernel *c = arena_array((size_t)o->lower.ncustom + 1, sizeof(CustomKernel));
  if (o->lower.ncustom)
    memcpy(c, o->lower.custom, (size_t)o->lower.ncustom * sizeof(CustomKernel));
  c[o->lower.ncustom] = (CustomKernel){.name = name};
  o->lower.custom = c;
  return &c[o->lower.ncustom++];
}

/* "NAME=VALUE" split at the first '='; usage error when malformed. */
static void split_pair(const char *opt, const char *v, const char **name,
                       const char **value) {
  const char *eq = strchr(v, '=');
  if (!eq || eq == v || !eq[1])
    usage(arena_printf("%s %s is not NAME=VALUE", opt, v));
  char *n = arena_strdup(v);
  n[eq - v] = '\0';
  *name = n;
  *value = eq + 1;
}

/* --layout nchw|nhwc, --input-shape NAME=D0xD1..., --constant-input
 * NAME=FILE, --probe NAME: the import's options. */
static void onnx_option(const char *opt, const char *v, ImportOptions *o) {
  if (!strcmp(opt, "--layout")) {
    if (strcmp(v, "nchw") && strcmp(v, "nhwc"))
      usage("--layout takes nchw or nhwc");
    o->nhwc_io = !strcmp(v, "nhwc");
    return;
  }
  if (!strcmp(opt, "--probe")) {
    const char **p = arena_array((size_t)o->nprobes + 1, sizeof *p);
    if (o->nprobes)
      memcpy(p, o->probes, (size_t)o->nprobes * sizeof *p);
    p[o->nprobes++] = v;
    o->probes = p;
    return;
  }
  const char *name, *value;
  split_pair(opt, v, &name, &value);
  if (!strcmp(opt, "--constant-input")) {
    ConstantInput *c = arena_array((size_t)o->nconstants + 1, sizeof *c);
    if (o->nconstants)
      memcpy(c, o->constants, (size_t)o->nconstants * sizeof *c);
    c[o->nconstants++] = (ConstantInput){.name = name, .file = value};
    o->constants = c;
    return;
  }
  InputShape sh = {.name = name};
  const char *p = value;
  while (*p) {
    char *end;
    errno = 0;
    long long d = strtoll(p, &end, 10);
    if (end == p || d < 0 || d > INT32_MAX || errno || sh.ndims == MAX_DIMS ||
        (*end && *end != 'x'))
      usage(arena_printf("--input-shape %s: not NAME=D0xD1x... (up to %d sizes)", v, MAX_DIMS));
    sh.dims[sh.ndims++] = d;
    p = *end ? end + 1 : end;
  }
  InputShape *s = arena_array((size_t)o->nshapes + 1, sizeof *s);
  if (o->nshapes)
    memcpy(s, o->shapes, (size_t)o->nshapes * sizeof *s);
  s[o->nshapes++] = sh;
  o->shapes = s;
}

static bool parse_compile_option(int argc, char **argv, int *i, CompileOptions *o);

/* Parses one compile option and records it, as given, in
 * o->emit.options (the generated header names the options used). */
static bool compile_option(int argc, char **argv, int *i, CompileOptions *o) {
  int first = *i;
  if (!parse_compile_option(argc, argv, i, o))
    return false;
  for (int k = first; k <= *i; k++)
    o->emit.options = o->emit.options
                          ? arena_printf("%s %s", o->emit.options, argv[k])
                          : argv[k];
  return true;
}

static bool parse_compile_option(int argc, char **argv, int *i, CompileOptions *o) {
  const char *a = argv[*i];
#define VALUE() (*i + 1 < argc ? argv[++*i] : (usage(arena_printf("%s needs a value", a)), ""))
  if (!strcmp(a, "--custom-op")) {
    const char *name, *fn;
    split_pair(a, VALUE(), &name, &fn);
    if (!is_c_identifier(fn))
      usage(arena_printf("--custom-op %s=%s: %s is not a C identifier", name, fn, fn));
    CustomKernel *c = custom_kernel(o, name);
    if (c->function)
      usage(arena_printf("--custom-op %s given twice", name));
    c->function = fn;
  } else if (!strcmp(a, "--custom-op-scratch")) {
    const char *name, *bytes;
    split_pair(a, VALUE(), &name, &bytes);
    size_t n;
    if (!parse_size(bytes, &n) || n > (size_t)INT32_MAX)
      usage(arena_printf("--custom-op-scratch %s=%s: not a size", name, bytes));
    custom_kernel(o, name)->scratch = n;
  } else if (!strcmp(a, "--prefix")) {
    o->emit.prefix = VALUE();
    if (!is_c_identifier(o->emit.prefix))
      usage(arena_printf("--prefix %s is not a C identifier", o->emit.prefix));
  } else if (!strcmp(a, "--rounding")) {
    const char *v = VALUE();
    if (!strcmp(v, "double"))
      o->lower.rounding = TA_ROUND_DOUBLE;
    else if (!strcmp(v, "single"))
      o->lower.rounding = TA_ROUND_SINGLE;
    else if (!strcmp(v, "onnxruntime"))
      o->lower.rounding = TA_ROUND_ORT;
    else
      usage("--rounding takes double, single or onnxruntime");
  } else if (!strcmp(a, "--io-in-workspace")) {
    o->plan.io_in_workspace = o->emit.io_in_workspace = true;
  } else if (!strcmp(a, "--io-in-caller-buffers")) {
    o->plan.io_in_workspace = o->emit.io_in_workspace = false;
  } else if (!strcmp(a, "--align")) {
    const char *v = VALUE();
    size_t n;
    if (!parse_size(v, &n) || n == 0 || (n & (n - 1)))
      usage(arena_printf("--align %s is not a power of two", v));
    o->plan.align = o->lower.align = n;
  } else if (!strcmp(a, "--algo")) {
    o->plan.algo = VALUE();
    if (!is_plan_algo(o->plan.algo))
      usage(arena_printf("unknown algorithm '%s'", o->plan.algo));
  } else if (!strcmp(a, "--schedule")) {
    o->plan.schedule = VALUE();
    if (!is_schedule_name(o->plan.schedule))
      usage(arena_printf("unknown schedule '%s' (model, memory or best)",
                         o->plan.schedule));
  } else if (!strcmp(a, "--layout") || !strcmp(a, "--input-shape") ||
             !strcmp(a, "--constant-input") || !strcmp(a, "--probe")) {
    onnx_option(a, VALUE(), &o->onnx);
  } else if (!strcmp(a, "--weights-section")) {
    const char *v = VALUE();
    for (const char *c = v; *c; c++)
      if (!isalnum((unsigned char)*c) && !strchr("._$", *c))
        usage(arena_printf("--weights-section %s: a section name has letters, "
                           "digits, '.', '_' and '$' only", v));
    if (!*v)
      usage("--weights-section needs a name");
    o->emit.weights_section = v;
  } else if (!strcmp(a, "--int8-io")) {
    o->int8_io = true;
  } else if (!strcmp(a, "--no-inplace")) {
    o->plan.no_inplace = true;
  } else if (!strcmp(a, "--patch")) {
    const char *v = VALUE();
    long f[3] = {0, 0, 0};
    int nf = 0;
    const char *c = v;
    char *end = NULL;
    while (nf < 3) {
      if (*c < '0' || *c > '9')
        break;
      f[nf++] = strtol(c, &end, 10);
      if (*end != ':')
        break;
      c = end + 1;
    }
    long s0 = nf == 3 ? f[0] : 0, e = nf == 3 ? f[1] : f[0], nb = nf == 3 ? f[2] : f[1];
    if (nf < 2 || !end || *end || e < 1 || nb < 1 || e <= s0 || e > INT32_MAX ||
        nb > INT32_MAX)
      usage(arena_printf("--patch %s: expected [START_OP:]END_OP:BANDS, END_OP after "
                         "START_OP (default 0), BANDS positive", v));
    o->patch_start = (int)s0;
    o->patch_end = (int)e;
    o->patch_bands = (int)nb;
  } else if (!strcmp(a, "--ram-limit")) {
    const char *v = VALUE();
    if (!parse_size(v, &o->ram_limit) || o->ram_limit == 0)
      usage(arena_printf("--ram-limit %s: not a size in bytes", v));
  } else if (!strcmp(a, "--no-overlap")) {
    o->plan.no_overlap = true;
  } else if (!strcmp(a, "--fuse-add")) {
    o->lower.fuse_add = true;
  } else if (!strcmp(a, "--optimize")) {
    const char *v = VALUE();
    if (strcmp(v, "speed") && strcmp(v, "size"))
      usage(arena_printf("--optimize %s: expected speed or size", v));
    o->lower.wide_filters = !strcmp(v, "speed");
  } else if (!strcmp(a, "--lean-conv")) {
    const char *v = VALUE();
    for (const char *c = v;;) {
      char *end = NULL;
      long k = *c >= '0' && *c <= '9' ? strtol(c, &end, 10) : -1;
      if (k < 0 || k > INT32_MAX || (*end && *end != ','))
        usage(arena_printf("--lean-conv %s: expected op indices separated by commas", v));
      int *ops = arena_array((size_t)o->lower.nlean + 1, sizeof(int));
      if (o->lower.nlean)
        memcpy(ops, o->lower.lean_ops, (size_t)o->lower.nlean * sizeof(int));
      ops[o->lower.nlean++] = (int)k;
      o->lower.lean_ops = ops;
      if (!*end)
        break;
      c = end + 1;
    }
  } else if (!strcmp(a, "--no-views")) {
    o->views = false;
  } else if (!strcmp(a, "--profile")) {
    o->emit.profile = true;
  } else if (a[0] == '-' && a[1] == 'd' && a[2]) {
    for (const char *c = a + 2; *c; c++) {
      if (*c == 'I')
        o->dump |= DUMP_IR;
      else if (*c == 'L')
        o->dump |= DUMP_LOWER;
      else if (*c == 'P')
        o->dump |= DUMP_PLAN;
      else
        usage(arena_printf("%s: dumps are -dI (IR), -dL (lowering), -dP (plan)", a));
    }
  } else if (!strcmp(a, "--pool")) {
    const char *v = VALUE();
    char *name = arena_strdup(v);
    char *colon = strchr(name, ':');
    size_t limit = SIZE_MAX;
    if (colon) {
      *colon = '\0';
      if (!parse_size(colon + 1, &limit))
        usage(arena_printf("--pool %s: bad size", v));
    }
    if (!is_c_identifier(name))
      usage(arena_printf("--pool %s: the name must be a C identifier", v));
    for (int k = 0; k < o->plan.npools; k++)
      if (!strcmp(o->plan.pools[k].name, name))
        usage(arena_printf("--pool %s given twice", name));
    Pool *pools = arena_array((size_t)o->plan.npools + 1, sizeof(Pool));
    if (o->plan.npools)
      memcpy(pools, o->plan.pools, (size_t)o->plan.npools * sizeof(Pool));
    pools[o->plan.npools++] = (Pool){.name = name, .limit = limit};
    o->plan.pools = pools;
  } else {
    return false;
  }
#undef VALUE
  return true;
}

static void default_options(CompileOptions *o) {
  memset(o, 0, sizeof *o);
  o->views = true;
  o->lower.rounding = TA_ROUND_DOUBLE;
  o->plan.align = o->lower.align = 16;
  /* The smaller layout: a model's input and output share the workspace
   * with the tensors that are dead while they live (doc/memory-plan.md). */
  o->plan.io_in_workspace = o->emit.io_in_workspace = true;
  o->plan.algo = "best";
  o->plan.schedule = "best";
  o->patch_end = -1;
}

/* Fills what the model decides (prefix, the default pool). */
static void finish_options(CompileOptions *o, const char *path) {
  for (int k = 0; k < o->lower.ncustom; k++)
    if (!o->lower.custom[k].function)
      usage(arena_printf("--custom-op-scratch %s=... without --custom-op %s=FUNCTION",
                         o->lower.custom[k].name, o->lower.custom[k].name));
  bool prefix_given = o->emit.prefix != NULL;
  if (!o->emit.prefix)
    o->emit.prefix = default_prefix(path);
  o->emit.model = basename_of(path);
  o->emit.model_path = path;
  if (o->plan.npools == 0) {
    o->plan.pools = arena_alloc(sizeof(Pool));
    o->plan.pools[0] = (Pool){.name = "workspace", .limit = SIZE_MAX};
    o->plan.npools = 1;
  }
  const char *bad = check_c_names(o->emit.prefix, prefix_given, o->plan.pools,
                                  o->plan.npools, o->lower.custom, o->lower.ncustom);
  if (bad)
    usage(bad);
}

/* tinyaot plan MODEL: the memory plan compile would emit, as a table,
 * JSON and/or SVG. */
static int cmd_plan(int argc, char **argv) {
  CompileOptions o;
  default_options(&o);
  const char *path = NULL, *svg = NULL;
  bool json = false;
  for (int i = 0; i < argc; i++) {
    if (compile_option(argc, argv, &i, &o))
      continue;
    if (!strcmp(argv[i], "--json")) {
      json = true;
    } else if (!strcmp(argv[i], "--patch-table")) {
      o.patch_table = true;
    } else if (!strcmp(argv[i], "--svg")) {
      if (i + 1 >= argc)
        usage("--svg needs a file");
      svg = argv[++i];
    } else if (is_help(argv[i])) {
      command_help("plan");
    } else if (argv[i][0] == '-') {
      usage(arena_printf("plan: unknown option %s", argv[i]));
    } else if (!path) {
      path = argv[i];
    } else {
      usage("plan takes one model");
    }
  }
  if (!path)
    usage("plan needs a model");
  finish_options(&o, path);
  Graph *g = load(path, o.dump, &o.onnx, &o.emit.model_sha256);
  Plan *p = compile(&g, &o);
  if (json)
    print_plan_json(stdout, g, p);
  else
    print_plan(stdout, g, p);
  if (!json)
    print_patch_table(stdout, g, &o);
  if (svg) {
    if (same_file(svg, path))
      error_file(svg, "is the input model: refusing to overwrite it with the SVG");
    FILE *f = fopen(svg, "w");
    if (!f)
      error_file(svg, "cannot write");
    print_plan_svg(f, g, p);
    if (fclose(f) != 0)
      error_file(svg, "write error");
  }
  return 0;
}

static int cmd_compile(int argc, char **argv) {
  CompileOptions o;
  default_options(&o);
  const char *path = NULL, *dir = NULL, *package = NULL;
  for (int i = 0; i < argc; i++) {
    if (compile_option(argc, argv, &i, &o))
      continue;
    if (!strcmp(argv[i], "-o")) {
      if (i + 1 >= argc)
        usage("-o needs a folder");
      dir = argv[++i];
      if (!*dir)
        usage("-o \"\": the folder name is empty");
    } else if (!strcmp(argv[i], "--force")) {
      o.emit.force = true;
    } else if (!strcmp(argv[i], "--package")) {
      if (i + 1 >= argc || !is_package_kind(argv[i + 1]))
        usage("--package takes cmake, zephyr, esp-idf, arduino or platformio");
      package = argv[++i];
      o.emit.flat_include = package_uses_src(package);
      o.emit.options = arena_printf("%s%s--package %s", o.emit.options ? o.emit.options : "",
                                    o.emit.options ? " " : "", package);
    } else if (!strcmp(argv[i], "--weights-blob")) {
      if (i + 1 >= argc)
        usage("--weights-blob needs a file");
      o.emit.weights_blob = argv[++i];
      o.emit.options = arena_printf("%s%s--weights-blob %s", o.emit.options ? o.emit.options : "",
                                    o.emit.options ? " " : "", basename_of(argv[i]));
    } else if (!strcmp(argv[i], "--runtime")) {
      if (i + 1 >= argc)
        usage("--runtime needs a folder (tinyaot runtime -o DIR) or embedded");
      const char *r = argv[++i];
      o.emit.runtime_dir = strcmp(r, "embedded") ? r : NULL;
      o.emit.options = arena_printf("%s%s--runtime %s", o.emit.options ? o.emit.options : "",
                                    o.emit.options ? " " : "", r);
    } else if (is_help(argv[i])) {
      command_help("compile");
    } else if (argv[i][0] == '-') {
      usage(arena_printf("compile: unknown option %s", argv[i]));
    } else if (!path) {
      path = argv[i];
    } else {
      usage("compile takes one model");
    }
  }
  if (!path || !dir)
    usage("compile needs a model and -o DIR");
  finish_options(&o, path);
  Graph *g = load(path, o.dump, &o.onnx, &o.emit.model_sha256);
  if (package && o.emit.runtime_dir)
    usage("--package embeds the kernels: it does not take --runtime DIR");
  Plan *p = compile(&g, &o);
  o.emit.package = package;
  emit_folder(g, p, &o.emit, dir);
  return 0;
}

static int cmd_run(int argc, char **argv) {
  CompileOptions o;
  default_options(&o);
  RunOptions ro = {.cc = getenv("CC"), .cflags = getenv("TINYAOT_CFLAGS")};
  if (!ro.cc || !*ro.cc)
    ro.cc = "cc";
  const char *path = NULL;
  char **ins = arena_array((size_t)argc + 1, sizeof(char *));
  char **outs = arena_array((size_t)argc + 1, sizeof(char *));
  int nins = 0, nouts = 0;
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (compile_option(argc, argv, &i, &o))
      continue;
    bool has = i + 1 < argc;
    if (!strcmp(a, "-i") || !strcmp(a, "--input")) {
      if (!has)
        usage("-i needs a file");
      ins[nins++] = argv[++i];
    } else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
      if (!has)
        usage("-o needs a file");
      outs[nouts++] = argv[++i];
    } else if (!strcmp(a, "--keep")) {
      if (!has)
        usage("--keep needs a folder");
      ro.keep = argv[++i];
      if (!*ro.keep)
        usage("--keep \"\": the folder name is empty");
    } else if (!strcmp(a, "--dump-tensors")) {
      if (!has)
        usage("--dump-tensors needs a folder");
      ro.dump = argv[++i];
    } else if (!strcmp(a, "--dump-state")) {
      if (!has)
        usage("--dump-state needs a folder");
      ro.state_dir = argv[++i];
    } else if (!strcmp(a, "--profile-out")) {
      if (!has)
        usage("--profile-out needs a file");
      ro.profile_out = argv[++i];
    } else if (!strcmp(a, "--reset-each")) {
      ro.reset_each = true;
    } else if (!strcmp(a, "--custom-op-source")) {
      if (!has)
        usage("--custom-op-source needs a C file");
      const char **s = arena_array((size_t)ro.nsources + 1, sizeof(char *));
      if (ro.nsources)
        memcpy(s, ro.sources, (size_t)ro.nsources * sizeof(char *));
      s[ro.nsources++] = argv[++i];
      ro.sources = s;
    } else if (!strcmp(a, "--cc")) {
      if (!has)
        usage("--cc needs a compiler");
      ro.cc = argv[++i];
    } else if (!strcmp(a, "--cflags")) {
      if (!has)
        usage("--cflags needs flags");
      ro.cflags = argv[++i];
    } else if (is_help(a)) {
      command_help("run");
    } else if (a[0] == '-') {
      usage(arena_printf("run: unknown option %s", a));
    } else if (!path) {
      path = a;
    } else {
      usage("run takes one model");
    }
  }
  if (!path)
    usage("run needs a model");
  if (ro.profile_out && !o.emit.profile)
    usage("--profile-out needs --profile");
  finish_options(&o, path);
  Graph *g = load(path, o.dump, &o.onnx, &o.emit.model_sha256);
  if (o.int8_io) { /* first, so that the size checks see the integer I/O */
    drop_io_conversions(g);
    verify(g);
    o.int8_io = false;
    o.int8_io_done = true;
  }
  if (nins == 0 || nins % (g->ninputs ? g->ninputs : 1) ||
      nouts != nins / (g->ninputs ? g->ninputs : 1) * g->noutputs)
    usage(arena_printf("%s has %d input(s) and %d output(s): give -i for "
                       "each input and -o for each output (k inferences: k "
                       "times each)",
                       path, g->ninputs, g->noutputs));
  /* An output file must not be the model or an input: the run would
   * overwrite what it reads. */
  for (int k = 0; k < nouts; k++) {
    if (same_file(outs[k], path))
      error_file(outs[k], "is the input model: refusing to overwrite it with an output");
    for (int i = 0; i < nins; i++)
      if (same_file(outs[k], ins[i]))
        error_file(outs[k], "is also input file %d (-i): refusing to overwrite it", i);
  }
  for (int i = 0; i < nins; i++) {
    const Tensor *t = &g->tensors[g->inputs[i % g->ninputs]];
    size_t n;
    read_file(ins[i], &n);
    if (n != tensor_bytes(t))
      error_file(ins[i], "holds %zu bytes; input %d (%s %s) needs %zu", n,
                 i % g->ninputs, t->name, dtype_name(t->dtype), tensor_bytes(t));
  }
  check_compiler(ro.cc);
  Plan *p = compile(&g, &o);
  const char *dir = ro.keep;
  char tmp[] = "/tmp/tinyaot-run-XXXXXX";
  if (!dir) {
    const char *t = getenv("TMPDIR");
    char *tmpl = t && *t ? arena_printf("%s/tinyaot-run-XXXXXX", t) : tmp;
    if (!mkdtemp(tmpl))
      error_file(tmpl, "cannot create a temporary folder: %s", strerror(errno));
    dir = tmpl;
  }
  EmitResult er = emit_folder(g, p, &o.emit, dir);
  int rc = build_and_run(g, p, &o.emit, &er, dir, &ro, ins, nins, outs, nouts);
  if (!ro.keep)
    remove_tree(dir);
  return rc;
}

/* tinyaot report MODEL: the HTML report (or --json) of what compile
 * would emit (emit/report.c); the folder is emitted into a temporary
 * place to measure its flash, then removed. */
static int cmd_report(int argc, char **argv) {
  CompileOptions o;
  default_options(&o);
  ReportOptions ro = {.options = ""};
  const char *path = NULL, *file = NULL;
  bool json = false;
  for (int i = 0; i < argc; i++) {
    int at = i;
    if (compile_option(argc, argv, &i, &o)) {
      for (int k = at; k <= i; k++)
        ro.options = arena_printf("%s%s%s", ro.options, *ro.options ? " " : "", argv[k]);
      continue;
    }
    if (!strcmp(argv[i], "--json")) {
      json = true;
    } else if (!strcmp(argv[i], "-o")) {
      if (i + 1 >= argc)
        usage("-o needs a file");
      file = argv[++i];
    } else if (!strcmp(argv[i], "--profile-data")) {
      if (i + 1 >= argc)
        usage("--profile-data needs a file");
      ro.profile_data = argv[++i];
    } else if (is_help(argv[i])) {
      command_help("report");
    } else if (argv[i][0] == '-') {
      usage(arena_printf("report: unknown option %s", argv[i]));
    } else if (!path) {
      path = argv[i];
    } else {
      usage("report takes one model");
    }
  }
  if (!path)
    usage("report needs a model");
  finish_options(&o, path);
  ro.prefix = o.emit.prefix;
  Graph *g = load(path, o.dump, &o.onnx, &o.emit.model_sha256);
  ro.sha256 = o.emit.model_sha256;
  Plan *p = compile(&g, &o);
  const char *t = getenv("TMPDIR");
  char *dir = arena_printf("%s/tinyaot-report-XXXXXX", t && *t ? t : "/tmp");
  if (!mkdtemp(dir))
    error_file(dir, "cannot create a temporary folder: %s", strerror(errno));
  EmitResult er = emit_folder(g, p, &o.emit, dir);
  Flash fl;
  measure_flash(g, dir, o.emit.prefix, er.sources, er.nsources, &fl);
  remove_tree(dir);
  ro.flash = &fl;
  FILE *f = file && !(file[0] == '-' && !file[1]) ? fopen(file, "w") : stdout;
  if (!f)
    error_file(file, "cannot write: %s", strerror(errno));
  write_report(f, g, p, &ro, json);
  if (f != stdout ? fclose(f) != 0 : fflush(f) != 0)
    error_file(file ? file : "(stdout)", "write error");
  return 0;
}

/* tinyaot runtime -o DIR [--kernels LIST|all]: the kernel library once,
 * for the models compiled with --runtime DIR. */
static int cmd_runtime(int argc, char **argv) {
  const char *dir = NULL, *list = "all";
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "-o")) {
      if (i + 1 >= argc)
        usage("-o needs a folder");
      dir = argv[++i];
    } else if (!strcmp(argv[i], "--kernels")) {
      if (i + 1 >= argc)
        usage("--kernels needs a list of kernels (ta_conv2d_s8,...) or all");
      list = argv[++i];
    } else if (is_help(argv[i])) {
      command_help("runtime");
    } else {
      usage(arena_printf("runtime: unknown argument %s", argv[i]));
    }
  }
  if (!dir)
    usage("runtime needs -o DIR");
  if (!strcmp(list, "all")) {
    emit_runtime_library(dir, NULL, 0);
    return 0;
  }
  /* "a,b,c" -> kernels. */
  const char **kernels = arena_array(strlen(list) + 1, sizeof(char *));
  int n = 0;
  char *s = arena_strdup(list);
  for (char *tok = strtok(s, ","); tok; tok = strtok(NULL, ","))
    if (*tok)
      kernels[n++] = tok;
  if (n == 0)
    usage("--kernels: an empty list");
  emit_runtime_library(dir, kernels, n);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2)
    usage(NULL);
  const char *v = getenv("TINYAOT_VERIFY");
  if (v && *v)
    verify_each_pass = strcmp(v, "0") != 0;
  const char *cmd = argv[1];
  int rc;
  if (!strcmp(cmd, "inspect"))
    rc = cmd_inspect(argc - 2, argv + 2);
  else if (!strcmp(cmd, "plan"))
    rc = cmd_plan(argc - 2, argv + 2);
  else if (!strcmp(cmd, "compile"))
    rc = cmd_compile(argc - 2, argv + 2);
  else if (!strcmp(cmd, "run"))
    rc = cmd_run(argc - 2, argv + 2);
  else if (!strcmp(cmd, "report"))
    rc = cmd_report(argc - 2, argv + 2);
  else if (!strcmp(cmd, "runtime"))
    rc = cmd_runtime(argc - 2, argv + 2);
  else if (!strcmp(cmd, "help"))
    rc = cmd_help(argc - 2, argv + 2);
  else if (is_help(cmd))
    rc = print_help(stdout, NULL);
  else if (!strcmp(cmd, "--version")) {
    printf("tinyaot %s\n", TINYAOT_VERSION);
    rc = 0;
  }
  else
    usage(arena_printf("unknown command '%s'", cmd));
  arena_reset();
  return rc;
}
