/*
 * bench_plan.c - what the memory planner achieves (make bench-plan).
 *
 *   bench_plan SHARED_DIR
 *
 * Per shared model, planned as TensorFlow Lite Micro plans its arena
 * (inputs and outputs inside, 16-byte alignment) but with tinyaot's views:
 * the lower bound for the model order, each algorithm's workspace, best,
 * TFLite Micro's planner head and arena_used from anchors.md, and our
 * total RAM (workspace + persistent area).  Then a synthetic 5,000-op
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

/* Loads, verifies and plans one model; NULL (message in error_message)
 * when tinyaot refuses it. */
static Plan *plan_one(const char *path, double *ms) {
  jmp_buf jb;
  error_jmp = &jb;
  if (setjmp(jb)) {
    error_jmp = NULL;
    return NULL;
  }
  size_t size;
  uint8_t *buf = read_file(path, &size);
  Graph *g = read_tflite(path, buf, size);
  verify(g);
  run_passes(g);
  PlanOptions opt = {.align = 16, .io_in_workspace = true};
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

  printf("Memory plan per model: bytes, inputs and outputs inside the "
         "workspace, align 16, views on, no kernel scratch yet.\n"
         "TFLM = TensorFlow Lite Micro (anchors.md); RAM = workspace + "
         "persistent (variables).\n\n");
  printf("| model | lower bound | linear | greedy-size | greedy-conflicts | "
         "search | best | TFLM head | TFLM arena_used | our RAM | best/head | "
         "ms |\n");
  printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (int i = 0; i < n; i++) {
    char *stem = arena_strdup(names[i]);
    stem[strlen(stem) - 7] = 0;
    const Anchor *a = find_anchor(anchors, nanchors, stem);
    double ms = 0;
    Plan *p = plan_one(arena_printf("%s/%s", dir, names[i]), &ms);
    if (!p) {
      printf("| %s | refused: %s |\n", stem, error_message);
      continue;
    }
    printf("| %s | %zu", stem, p->lower_bound);
    for (int k = 0; k < p->nresults; k++)
      printf(" | %zu", p->results[k].bytes);
    long head = a ? a->head : -1;
    printf(" | %zu | %s | %s | %zu | %s | %.1f |\n", p->workspace_bytes,
           num(head), num(a ? a->arena_used : -1),
           p->workspace_bytes + p->persistent_bytes,
           head > 0 ? arena_printf("%.3f", (double)p->workspace_bytes / (double)head)
                    : "-",
           ms);
  }
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
  return dt < 1.0 ? 0 : 1;
}
