/* SPDX-License-Identifier: Apache-2.0 */
/*
 * main.c - a bare-metal keyword spotter: kws_ref_model (MLPerf Tiny KWS,
 * DS-CNN, int8) compiled by tinyaot with --prefix kws, on a Cortex-M4F.
 *
 * Everything the model needs is one thing the application owns:
 *
 *   the workspace   one static array of KWS_WORKSPACE_SIZE bytes, aligned
 *                   to KWS_WORKSPACE_ALIGN, in its own section
 *                   (.tinyaot_workspace) that the linker script puts in RAM
 *                   without zeroing it (NOLOAD): nothing in it survives or
 *                   needs to survive from one inference to the next.
 *
 * The inputs and outputs were planned inside it: kws_io() points the
 * input and output structs at their places, the application writes the
 * 49x10 MFCC features through kws_input0() (a front end would, e.g. from
 * a DMA-driven audio pipeline), and reads the 12 int8 class scores
 * through kws_output0() after the run.  Buffers of the application's own
 * work too (struct kws_inputs in = {features}), at the cost of
 * their bytes beside the workspace; or compile with
 * --io-in-caller-buffers to keep them out of the plan.
 *
 * kws_run() is a plain function: no allocation, no globals, no interrupts;
 * it returns 0 or the first kernel's error status.  The weights are const
 * arrays in kws_weights.c, which the linker script puts in flash.
 *
 * Board I/O (printing, exit) goes through semihosting, which QEMU and a
 * debugger provide; replace report() and board_exit() with a UART and a
 * loop in a product.
 */
#include <stdint.h>

#include "kws.h"
#include "semihost.h"

static uint8_t workspace[KWS_WORKSPACE_SIZE]
    __attribute__((aligned(KWS_WORKSPACE_ALIGN), section(".tinyaot_workspace")));

static const char *const labels[12] = {"silence", "unknown", "yes",  "no",
                                       "up",      "down",    "left", "right",
                                       "on",      "off",     "stop", "go"};

/* Stands in for the audio front end.  It writes the same bytes as the
 * goldens' case0 (xorshift32 from seed 1, low byte of each draw), so the
 * scores this prints can be checked against goldens/kws_ref_model. */
static void read_features(int8_t *dst, uint32_t n) {
  uint32_t x = 1;
  for (uint32_t i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    dst[i] = (int8_t)(uint8_t)(x & 0xFF);
  }
}

static char *put_int(char *p, int v) {
  char digits[12];
  int n = 0;
  unsigned u = v < 0 ? 0u - (unsigned)v : (unsigned)v;
  if (v < 0)
    *p++ = '-';
  do {
    digits[n++] = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  while (n)
    *p++ = digits[--n];
  return p;
}

/* Prints "scores: s0 s1 ... s11" and "top: <label>". */
static void report(const int8_t *s, int n) {
  char line[128], *p = line;
  const char *head = "scores:";
  while (*head)
    *p++ = *head++;
  int best = 0;
  for (int i = 0; i < n; i++) {
    *p++ = ' ';
    p = put_int(p, s[i]);
    if (s[i] > s[best])
      best = i;
  }
  *p++ = '\n';
  *p = 0;
  sh_puts(line);
  sh_puts("top: ");
  sh_puts(labels[best]);
  sh_puts("\n");
}

static void board_exit(int status) { sh_exit(status); }

int main(void) {
  struct kws_inputs in;
  struct kws_outputs out;

  kws_io(workspace, &in, &out);
  read_features(kws_input0(workspace), KWS_INPUT0_SIZE); /* int8 [1, 49, 10, 1] */
  int status = kws_run(&in, &out, workspace);
  if (status != 0) {
    sh_puts("kws_run failed\n");
    board_exit(1);
  }
  report(kws_output0(workspace), KWS_OUTPUT0_SIZE); /* int8 [1, 12] */
  board_exit(0);
  return 0;
}
