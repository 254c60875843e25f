/* SPDX-License-Identifier: Apache-2.0 */
#include "net.h"
extern const int8_t net_w[8][40];
int net_run(const struct net_inputs *in, struct net_outputs *out, void *workspace) {
  int32_t *acc = (int32_t *)workspace;
  for (int j = 0; j < 8; j++) {
    int32_t s = in->b[j];
    for (int i = 0; i < 40; i++)
      s += (int32_t)net_w[j][i] * in->x[i];
    acc[j] = s;
  }
  for (int j = 0; j < 8; j++) {
    out->acc[j] = acc[j];
    int32_t q = (acc[j] + 128) >> 8;
    out->q[j] = (int8_t)(q < -128 ? -128 : q > 127 ? 127 : q);
  }
  return 0;
}
