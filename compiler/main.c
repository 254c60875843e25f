/*
 * main.c - the command line.
 *
 *   tinyaot inspect MODEL [--json]
 *   tinyaot plan MODEL [options]
 *   tinyaot compile MODEL -o DIR [options]
 *   tinyaot run MODEL -i IN.bin ... -o OUT.bin ... [options]
 *
 * Exit status: 0 success, 1 bad input (the model), 2 bad usage.
 */
#include "tinyaot.h"

#include <stdlib.h>
#include <string.h>

static TA_NORETURN void usage(const char *msg) {
  if (msg)
    fprintf(stderr, "tinyaot: %s\n", msg);
  fprintf(stderr,
          "usage: tinyaot inspect MODEL [--json]\n"
          "       tinyaot plan MODEL [--algo A] [--json] [--svg FILE]\n"
          "            [--pool NAME:BYTES]... [--align N] [--io-in-workspace]\n"
          "            [--no-views]   (A: linear, greedy-size, "
          "greedy-conflicts, search, best)\n"
          "       tinyaot compile MODEL -o DIR [--prefix P]\n"
          "       tinyaot run MODEL -i IN.bin ... -o OUT.bin ...\n");
  exit(2);
}

/* Reads and verifies MODEL: the front half of every command. */
static Graph *load(const char *path) {
  size_t size;
  uint8_t *buf = read_file(path, &size);
  Graph *g = read_tflite(path, buf, size);
  verify(g);
  return g;
}

static int cmd_inspect(int argc, char **argv) {
  const char *path = NULL;
  bool json = false;
  for (int i = 0; i < argc; i++) {
    if (!strcmp(argv[i], "--json"))
      json = true;
    else if (argv[i][0] == '-')
      usage(arena_printf("inspect: unknown option %s", argv[i]));
    else if (!path)
      path = argv[i];
    else
      usage("inspect takes one model");
  }
  if (!path)
    usage("inspect needs a model");
  Graph *g = load(path);
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

/* tinyaot plan MODEL: the memory plan as a table, JSON and/or SVG. */
static int cmd_plan(int argc, char **argv) {
  const char *path = NULL, *svg = NULL;
  bool json = false, views = true;
  Pool *pools = arena_array(MAX_POOLS, sizeof(Pool));
  PlanOptions opt = {.pools = pools, .align = 16, .algo = "best"};
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--json")) {
      json = true;
    } else if (!strcmp(a, "--io-in-workspace")) {
      opt.io_in_workspace = true;
    } else if (!strcmp(a, "--no-views")) {
      views = false;
    } else if (!strcmp(a, "--algo") && v) {
      if (!is_plan_algo(v))
        usage(arena_printf("plan: unknown algorithm '%s'", v));
      opt.algo = v, i++;
    } else if (!strcmp(a, "--svg") && v) {
      svg = v, i++;
    } else if (!strcmp(a, "--align") && v) {
      size_t n;
      if (!parse_size(v, &n) || n == 0 || (n & (n - 1)))
        usage(arena_printf("plan: --align %s is not a power of two", v));
      opt.align = n, i++;
    } else if (!strcmp(a, "--pool") && v) {
      const char *colon = strrchr(v, ':');
      size_t n;
      if (!colon || colon == v || !parse_size(colon + 1, &n))
        usage(arena_printf("plan: --pool %s is not NAME:BYTES", v));
      if (opt.npools == MAX_POOLS)
        usage(arena_printf("plan: at most %d pools", MAX_POOLS));
      char *name = arena_strdup(v);
      name[colon - v] = 0;
      pools[opt.npools++] = (Pool){name, n, 0};
      i++;
    } else if (a[0] == '-') {
      usage(arena_printf("plan: unknown option %s (or its value is missing)",
                         a));
    } else if (!path) {
      path = a;
    } else {
      usage("plan takes one model");
    }
  }
  if (!path)
    usage("plan needs a model");
  Graph *g = load(path);
  if (views)
    run_passes(g);
  Plan *p = plan_graph(g, &opt);
  if (json)
    print_plan_json(stdout, g, p);
  else
    print_plan(stdout, g, p);
  if (svg) {
    FILE *f = fopen(svg, "w");
    if (!f)
      error_file(svg, "cannot write");
    print_plan_svg(f, g, p);
    if (fclose(f) != 0)
      error_file(svg, "write error");
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2)
    usage(NULL);
  const char *cmd = argv[1];
  int rc;
  if (!strcmp(cmd, "inspect"))
    rc = cmd_inspect(argc - 2, argv + 2);
  else if (!strcmp(cmd, "plan"))
    rc = cmd_plan(argc - 2, argv + 2);
  else if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help"))
    usage(NULL);
  else
    usage(arena_printf("unknown command '%s'", cmd));
  arena_reset();
  return rc;
}
