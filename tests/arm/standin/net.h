/* SPDX-License-Identifier: Apache-2.0 */
/* A hand-written stand-in with the interface `tinyaot compile --prefix net`
 * generates: it lets tests/arm check the Cortex-M harness itself (build,
 * semihosting I/O, timing, stack painting) against the same code built
 * for the host. */
#ifndef NET_H
#define NET_H
#include <stdint.h>
#define NET_WORKSPACE_SIZE 64
struct net_inputs {
  const int8_t *x;  /* [40] */
  const int16_t *b; /* [8] */
};
struct net_outputs {
  int32_t *acc; /* [8] */
  int8_t *q;    /* [8] */
};
int net_run(const struct net_inputs *in, struct net_outputs *out, void *workspace);
#endif
