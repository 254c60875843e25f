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

int main(int argc, char **argv) {
  if (argc < 2)
    usage(NULL);
  const char *cmd = argv[1];
  int rc;
  if (!strcmp(cmd, "inspect"))
    rc = cmd_inspect(argc - 2, argv + 2);
  else if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help"))
    usage(NULL);
  else
    usage(arena_printf("unknown command '%s'", cmd));
  arena_reset();
  return rc;
}
