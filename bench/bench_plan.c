/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench_plan.c - what the memory planner achieves (make bench-plan).
 *
 *   bench_plan SHARED_DIR
 *
 * Per shared model, planned as TensorFlow Lite Micro plans its arena
 * (inputs and outputs inside, 16-byte alignment) with tinyaot's views and
 * kernels (scratch included): the workspace in model order, with ops in
 * place, and with the memory-aware schedule as well (the default), its
 * lower bound, against TFLite Micro's lower bound, planner head and
 * arena_used from anchors.md, and our total RAM (workspace + persistent
 * area).  Then a synthetic 5,000-op
 * graph, which must plan (every algorithm and the checker) in under one
 * second; the exit status says whether it did.
 *
 * Times are processor time and vary from run to run; the byte counts do
 * not.
 */
#define TG_MAX_TENSORS 40000
#define TG_MAX_OPS 6000
#include "anchors.h"
#include "test_plan_graph.h"
#include "tinyaot.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double seconds(void) { return (double)clock() / CLOCKS_PER_SEC; }

static const Anchor *find_anchor(const Anchor *a, int n, const char *name) {
  for (int i = 0; i < n; i++)
    if (!strcmp(a[i].name, name))
      return &a[i];
  return NULL;
}

static const char *num(long v) {
  return v < 0 ? "-" : arena_printf("%ld", v);
}

/* One way of planning a model. */
typedef struct {
  const char *schedule;
  bool inplace, overlap;
} Config;

/* Loads, verifies, lowers (when every op has a kernel: *lowered) and
 * plans one model; NULL (message in error_message) when tinyaot refuses
 * it even without kernels. */
static Plan *plan_one(const char *path, Config c, bool *lowered, double *ms) {
  jmp_buf jb;
  error_jmp = &jb;
  volatile bool try_lower = true;
  if (setjmp(jb)) {
    if (!try_lower) {
      error_jmp = NULL;
      return NULL;
    }
    try_lower = false; /* no kernel for some op: plan without them */
  }
  size_t size;
  uint8_t *buf = read_file(path, &size);
  Graph *g = read_tflite(path, buf, size);
  verify(g);
  run_passes(g);
  if (try_lower) {
    LowerOptions lo = {.rounding = TA_ROUND_DOUBLE};
    lower(g, &lo);
  }
  *lowered = try_lower;
  PlanOptions opt = {.align = 16, .io_in_workspace = true,
                     .schedule = c.schedule, .no_inplace = !c.inplace,
                     .no_overlap = !c.overlap};
  double t0 = seconds();
  Plan *p = plan_graph(g, &opt);
  *ms = (seconds() - t0) * 1e3;
  error_jmp = NULL;
  return p;
}

static int compare_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static void bench_models(const char *shared) {
  Anchor anchors[128];
  int nanchors = read_anchors(arena_printf("%s/anchors.md", shared), anchors, 128);
  const char *dir = arena_printf("%s/models", shared);
  DIR *d = opendir(dir);
  if (!d) {
    printf("no models at %s\n", dir);
    return;
  }
  char **names = arena_array(256, sizeof(char *));
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) && n < 256) {
    size_t len = strlen(e->d_name);
    if (len > 7 && !strcmp(e->d_name + len - 7, ".tflite"))
      names[n++] = arena_strdup(e->d_name);
  }
  closedir(d);
  qsort(names, (size_t)n, sizeof(char *), compare_names);

  printf(
      "RAM per model, bytes.  Planned as TensorFlow Lite Micro counts its arena:\n"
      "inputs and outputs inside, 16-byte alignment.  Views on.  kernels: yes =\n"
      "every op lowered, so kernel scratch is planned and in-place ops are known;\n"
      "no = some op has no kernel yet: planned without scratch or in place.\n"
      "  model order   tinyaot's plan in the model's order, no op in place\n"
      "  + in place    elementwise ops write over an input that dies there\n"
      "  + schedule    and the memory-aware order when it plans smaller (the\n"
      "                default: --schedule best); its lower bound beside it\n"
      "  TFLM lb       TFLite Micro's lower bound in model order (anchors.md):\n"
      "                no plan that keeps tensors whole and the model order\n"
      "                can go below it; 'below lb' is what the default saves\n"
      "  whole lb      the whole-tensor lower bound of the default plan's order\n"
      "                (ops in place counted): no plan keeping each tensor\n"
      "                whole and apart from its op's inputs goes below it\n"
      "  + overlaps    outputs over part of their op's dying input at the\n"
      "                distance the kernel declares (the default); its bound\n"
      "                with overlaps beside it; 'below whole' when it is\n"
      "                under the whole-tensor bound\n"
      "  our RAM       default workspace + persistent (variables); TFLite\n"
      "                Micro's arena_used also holds its tensor structs.\n\n");
  printf("| model | kernels | TFLM lb | TFLM head | TFLM arena_used | model "
         "order | + in place | + schedule | whole lb | + overlaps | its bound | "
         "below whole | below TFLM lb | our RAM | arena_used / our RAM | ms |\n");
  printf("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|\n");
  static const Config configs[4] = {{"model", false, false},
                                    {"model", true, false},
                                    {"best", true, false},
                                    {"best", true, true}};
  int nbelow = 0, nmodels = 0;
  for (int i = 0; i < n; i++) {
    char *stem = arena_strdup(names[i]);
    stem[strlen(stem) - 7] = 0;
    const Anchor *a = find_anchor(anchors, nanchors, stem);
    const char *path = arena_printf("%s/%s", dir, names[i]);
    size_t bytes[4];
    Plan *p = NULL;
    bool lowered = false;
    double ms = 0;
    for (int c = 0; c < 4; c++) {
      p = plan_one(path, configs[c], &lowered, &ms);
      if (!p)
        break;
      bytes[c] = p->workspace_bytes;
    }
    if (!p) {
      printf("| %s | refused: %s |\n", stem, error_message);
      continue;
    }
    long lb = a ? a->lower_bound : -1, used = a ? a->arena_used : -1;
    size_t ram = p->workspace_bytes + p->persistent_bytes;
    bool below = p->workspace_bytes < p->lower_bound;
    nbelow += below;
    nmodels++;
    printf("| %s | %s | %s | %s | %s | %zu | %zu | %zu | %zu | %zu%s | %zu | %s | %s | %zu | "
           "%s | %.1f |\n",
           stem, lowered ? "yes" : "no", num(lb), num(a ? a->head : -1),
           num(used), bytes[0], bytes[1], bytes[2], p->lower_bound, bytes[3],
           strcmp(p->schedule, "model") ? " (reordered)" : "", p->overlap_bound,
           below ? "yes" : "no",
           lb > 0 ? arena_printf("%ld", lb - (long)p->workspace_bytes) : "-", ram,
           used > 0 && ram ? arena_printf("%.2f", (double)used / (double)ram) : "-",
           ms);
  }
  printf("\n%d of %d models plan below their whole-tensor lower bound.\n", nbelow,
         nmodels);
}

/* A synthetic network of nops ops: a chain of convolutions with residual
 * adds, splits joined by concatenations, reshapes (views) and scratch. */
static Graph *synthetic(int nops) {
  Graph *g = tg_new();
  uint64_t r = 12345;
  int x = tg_tensor(g, DT_INT8, 4096);
  tg_input(g, x);
  int skip = x;
  while (g->nops < nops) {
    r = r * 6364136223846793005ull + 1442695040888963407ull;
    int kind = (int)(r >> 60) % 8;
    if (kind == 5 && nops - g->nops < 2)
      kind = 1; /* a split and its concatenation need two ops */
    int elems = 256 * (1 + (int)((r >> 40) % 64));
    if (kind <= 3) {
      int in[3] = {x, tg_const(g, DT_INT8, 64), -1};
      int out = tg_tensor(g, DT_INT8, elems);
      int op = tg_op(g, OP_CONV_2D, 3, in, 1, &out);
      if (kind == 0)
        g->ops[op].scratch_bytes = (size_t)elems / 4;
      x = out;
    } else if (kind == 4) {
      int in[2] = {x, skip};
      int out = tg_tensor(g, DT_INT8, elems);
      tg_op(g, OP_ADD, 2, in, 1, &out);
      skip = x = out;
    } else if (kind == 5) {
      int outs[2] = {tg_tensor(g, DT_INT8, elems / 2),
                     tg_tensor(g, DT_INT8, elems / 2)};
      tg_op(g, OP_SPLIT, 1, &x, 2, outs);
      int cat = tg_tensor(g, DT_INT8, elems);
      tg_op(g, OP_CONCATENATION, 2, outs, 1, &cat);
      x = cat;
    } else {
      const Tensor *t = &g->tensors[x];
      int out = tg_tensor(g, t->dtype, t->dims[1]);
      tg_op1(g, OP_RESHAPE, x, out);
      x = out;
    }
  }
  tg_output(g, x);
  return g;
}

/* nb branches of len ops each from one input to one concatenation,
 * emitted level by level (every branch's first op, then every second
 * op...): the model order holds every branch's big first tensor at once,
 * the memory order runs each branch down to its small end first. */
static Graph *branches(int nb, int len) {
  Graph *g = tg_new();
  int in = tg_tensor(g, DT_INT8, 256);
  tg_input(g, in);
  int *x = arena_array((size_t)nb, sizeof(int));
  for (int b = 0; b < nb; b++)
    x[b] = in;
  for (int k = 0; k < len; k++)
    for (int b = 0; b < nb; b++) {
      int y = tg_tensor(g, DT_INT8, (4096 >> k) + 16 * b);
      tg_op1(g, OP_CONV_2D, x[b], y);
      x[b] = y;
    }
  int out = tg_tensor(g, DT_INT8, 64);
  tg_op(g, OP_CONCATENATION, nb, x, 1, &out);
  tg_output(g, out);
  return g;
}

static int bench_branches(void) {
  static const int shapes[][2] = {{4, 4}, {16, 4}, {64, 3}, {400, 2}};
  int ok = 1;
  printf("\nBranching graphs, branches emitted level by level (bytes; the "
         "default schedule against the model order):\n");
  for (int i = 0; i < 4; i++) {
    Graph *g = branches(shapes[i][0], shapes[i][1]);
    PlanOptions opt = {.align = 16, .schedule = "model"};
    Plan *m = plan_graph(g, &opt);
    double t0 = seconds();
    Plan *p = plan_graph(g, NULL);
    double dt = seconds() - t0;
    printf("  %3d branches x %d ops (%4d ops): model order %7zu, default %7zu "
           "(%s order, lower bound %zu), %.3f s\n",
           shapes[i][0], shapes[i][1], g->nops, m->workspace_bytes,
           p->workspace_bytes, p->schedule, p->lower_bound, dt);
    ok &= dt < 1.0;
    arena_reset();
  }
  return ok;
}

int main(int argc, char **argv) {
  const char *shared = argc > 1 ? argv[1] : "../shared";
  bench_models(shared);
  arena_reset();

  Graph *g = synthetic(5000);
  run_passes(g);
  double t0 = seconds();
  Plan *p = plan_graph(g, NULL);
  double dt = seconds() - t0;
  printf("\nSynthetic graph: %d ops, %d buffers: lower bound %zu, ", g->nops,
         p->nbufs, p->lower_bound);
  for (int k = 0; k < p->nresults; k++)
    printf("%s %zu (%.0f ms), ", p->results[k].algo, p->results[k].bytes,
           p->results[k].seconds * 1e3);
  printf("kept %s.\nPlanning it (every algorithm and the checker) took %.3f s: "
         "%s.\n",
         p->algo, dt, dt < 1.0 ? "under one second" : "TOO SLOW (limit 1 s)");
  int ok = dt < 1.0;
  arena_reset();
  ok &= bench_branches();
  return ok ? 0 : 1;
}
