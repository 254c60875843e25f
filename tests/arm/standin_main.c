/* SPDX-License-Identifier: Apache-2.0 */
/* The stand-in built for the host: writes the expected outputs the
 * Cortex-M build must reproduce.  host_main CASE_DIR OUT_DIR */
#include <stdio.h>
#include <stdlib.h>
#include "net.h"
static void io(const char *dir, const char *name, void *buf, size_t n, int write) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, write ? "wb" : "rb");
  if (!f || (write ? fwrite(buf, 1, n, f) : fread(buf, 1, n, f)) != n) {
    fprintf(stderr, "host_main: %s\n", path);
    exit(1);
  }
  fclose(f);
}
int main(int argc, char **argv) {
  int8_t x[40], q[8];
  int16_t b[8];
  int32_t acc[8];
  static long long ws[8];
  if (argc != 3)
    return 2;
  io(argv[1], "input0.bin", x, sizeof x, 0);
  io(argv[1], "input1.bin", b, sizeof b, 0);
  struct net_inputs in = {x, b};
  struct net_outputs out = {acc, q};
  if (net_run(&in, &out, ws))
    return 1;
  io(argv[2], "output0.bin", acc, sizeof acc, 1);
  io(argv[2], "output1.bin", q, sizeof q, 1);
  return 0;
}
