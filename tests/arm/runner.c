/* SPDX-License-Identifier: Apache-2.0 */
/*
 * runner.c - runs one tinyaot-generated model on a Cortex-M under QEMU
 * and reports what it measured.  Built by tests/arm/lib.sh together with
 * the generated sources (prefix "net"), the example's start-up code and
 * linker script, and semihosting for file I/O.
 *
 * Command line (QEMU -semihosting-config arg=...):
 *   runner CASE_DIR OUT_DIR [STEPS]
 * Reads CASE_DIR/input<i>.bin into the input buffers, runs net_run() once,
 * writes OUT_DIR/output<i>.bin.  With STEPS > 0 it instead runs STEPS
 * times in a row without resetting anything in between, reading
 * CASE_DIR/step<k>/input<i>.bin and writing OUT_DIR/step<k>_output<i>.bin
 * (a stream through a model with state).
 *
 * Prints "<key> <value>" lines on stdout, for the first run:
 *   ticks      CMSDK timer 0 ticks around net_run() (with QEMU's
 *              -icount shift=0 one tick is a fixed number of instructions)
 *   stack_run  bytes of stack net_run() used below its caller's SP (the
 *              stack is painted before the call, the lowest overwritten
 *              word found after it)
 *   stack_top  the same measured from the top of the stack (whole program)
 *   workspace, persistent, io   bytes of each kind of RAM the model uses
 *   prof_op N, prof_count K     built from `compile --profile` (NET_NUM_OPS
 *              defined): op N took K timer ticks (the generated hook's sums)
 * and exits with status 0 (ran, net_run returned 0), 1 (net_run returned
 * non-zero), 2 (bad command line or input files), 3 (fault), 4 (the stack
 * overflowed its reservation).
 *
 * Build-time configuration:
 *   IN_SIZES, OUT_SIZES  byte size of every model input/output, comma
 *                        separated, in model order
 *   TIMER_BASE           address of the board's CMSDK APB timer
 */
#include <stdint.h>

#include "net.h"
#include "semihost.h"

#ifndef TIMER_BASE
#define TIMER_BASE 0x40000000u
#endif

static const uint32_t in_sizes[] = {IN_SIZES};
static const uint32_t out_sizes[] = {OUT_SIZES};
#define NIN (sizeof in_sizes / sizeof in_sizes[0])
#define NOUT (sizeof out_sizes / sizeof out_sizes[0])
#define IO_ROUND(n) (((n) + 15u) & ~15u)

/* The generated structs hold one pointer per input/output and nothing
 * else; fill them as arrays so this runner fits every model. */
typedef char inputs_are_pointers[sizeof(struct net_inputs) == NIN * sizeof(void *) ? 1 : -1];
typedef char outputs_are_pointers[sizeof(struct net_outputs) == NOUT * sizeof(void *) ? 1 : -1];
union inputs {
  struct net_inputs s;
  void *p[NIN];
};
union outputs {
  struct net_outputs s;
  void *p[NOUT];
};

#ifndef NET_WORKSPACE_ALIGN
#define NET_WORKSPACE_ALIGN 16
#endif
#ifdef NET_NUM_INPUTS
typedef char inputs_counted[NET_NUM_INPUTS == NIN && NET_NUM_OUTPUTS == NOUT ? 1 : -1];
#endif

/* The workspace, in its own section (placed by sections.ld). */
static uint8_t workspace[NET_WORKSPACE_SIZE > 0 ? NET_WORKSPACE_SIZE : 1]
    __attribute__((aligned(NET_WORKSPACE_ALIGN), section(".tinyaot_workspace")));

/* A model with state (variable tensors) keeps it in a persistent area
 * that lives as long as the program: reset once, then carried from one
 * run to the next. */
#ifdef NET_PERSISTENT_SIZE
static uint8_t persistent[NET_PERSISTENT_SIZE]
    __attribute__((aligned(NET_WORKSPACE_ALIGN), section(".bss.tinyaot_persistent")));
#define RUN(in, out) net_run(in, out, workspace, persistent)
#define HAS_STATE
#else
#define NET_PERSISTENT_SIZE 0
#define RUN(in, out) net_run(in, out, workspace)
#endif

/* Input and output buffers: IO_BYTES is the sum of the rounded sizes,
 * computed by lib.sh. */
#ifndef NET_INPUT0_OFFSET
static uint8_t io[IO_BYTES] __attribute__((aligned(16), section(".bss.io_buffers")));
#endif

/* ------------------------------------------------------------- faults */

static void fault(void) {
  sh_puts("fault\n");
  sh_exit(3);
}
void HardFault_Handler(void) { fault(); }
void MemManage_Handler(void) { fault(); }
void BusFault_Handler(void) { fault(); }
void UsageFault_Handler(void) { fault(); }
void SecureFault_Handler(void) { fault(); }

/* -------------------------------------------------------------- stack */

#define PAINT 0xC5C5C5C5u
extern uint32_t __stack_limit[], __stack_top[];

static inline uint32_t *stack_pointer(void) {
  uint32_t *sp;
  __asm__ volatile("mov %0, sp" : "=r"(sp));
  return sp;
}

/* Paints every free word below the current stack pointer. */
static __attribute__((noinline)) void paint_stack(void) {
  uint32_t *sp = stack_pointer();
  for (volatile uint32_t *p = __stack_limit; p < sp; p++)
    *p = PAINT;
}

static uint32_t *lowest_used(void) {
  uint32_t *p = __stack_limit;
  while (p < __stack_top && *p == PAINT)
    p++;
  return p;
}

/* -------------------------------------------------------------- timer */

#define TIMER_CTRL (*(volatile uint32_t *)(TIMER_BASE + 0x0))
#define TIMER_VALUE (*(volatile uint32_t *)(TIMER_BASE + 0x4))
#define TIMER_RELOAD (*(volatile uint32_t *)(TIMER_BASE + 0x8))

static void timer_start(void) {
  TIMER_CTRL = 0;
  TIMER_RELOAD = 0xFFFFFFFFu;
  TIMER_VALUE = 0xFFFFFFFFu;
  TIMER_CTRL = 1; /* enable, no interrupt, counts down */
}

/* ------------------------------------------------------------ strings */

static char *append(char *dst, const char *s) {
  while (*s)
    *dst++ = *s++;
  *dst = 0;
  return dst;
}

static char *append_uint(char *dst, uint32_t v) {
  char digits[10];
  int n = 0;
  do {
    digits[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  while (n)
    *dst++ = digits[--n];
  *dst = 0;
  return dst;
}

/* Splits the command line in place into at most max words. */
static int split(char *s, char **argv, int max) {
  int n = 0;
  while (*s && n < max) {
    while (*s == ' ')
      *s++ = 0;
    if (!*s)
      break;
    argv[n++] = s;
    while (*s && *s != ' ')
      s++;
  }
  while (*s == ' ')
    *s++ = 0;
  return n;
}

/* Opens DIR/[step<k>_ or step<k>/]<name><i>.bin. */
static int open_file(const char *dir, int step, int step_dir, const char *name, uint32_t i,
                     int mode) {
  char path[512];
  char *p = append(append(path, dir), "/");
  if (step >= 0) {
    p = append_uint(append(p, "step"), (uint32_t)step);
    p = append(p, step_dir ? "/" : "_");
  }
  p = append_uint(append(p, name), i);
  append(p, ".bin");
  return sh_open(path, mode);
}

static __attribute__((noreturn)) void fail(const char *what) {
  sh_puts("error: ");
  sh_puts(what);
  sh_puts("\n");
  sh_exit(2);
}

int main(void) {
  static char cmdline[512];
  char *argv[4];
  if (sh_cmdline(cmdline, sizeof cmdline) < 0)
    fail("no command line");
  int argc = split(cmdline, argv, 4);
  if (argc < 3)
    fail("usage: runner CASE_DIR OUT_DIR [STEPS]");
  int steps = 0;
  if (argc > 3)
    for (const char *s = argv[3]; *s; s++)
      steps = steps * 10 + (*s - '0');

  union inputs in;
  union outputs out;
#ifdef NET_INPUT0_OFFSET
  /* Compiled with --io-in-workspace: the inputs and outputs are where
   * the plan put them inside the workspace. */
  net_io(workspace, &in.s, &out.s);
#else
  uint32_t off = 0;
  for (uint32_t i = 0; i < NIN; i++) {
    in.p[i] = io + off;
    off += IO_ROUND(in_sizes[i]);
  }
  for (uint32_t i = 0; i < NOUT; i++) {
    out.p[i] = io + off;
    off += IO_ROUND(out_sizes[i]);
  }
#endif

#ifdef HAS_STATE
  net_reset(persistent);
#endif
  int runs = steps > 0 ? steps : 1;
  for (int k = 0; k < runs; k++) {
    int step = steps > 0 ? k : -1;
    for (uint32_t i = 0; i < NIN; i++) {
      int fd = open_file(argv[1], step, 1, "input", i, SH_MODE_RB);
      if (fd < 0)
        fail("cannot open an input file");
      if (sh_flen(fd) != (long)in_sizes[i])
        fail("an input file has the wrong size");
      if (sh_read(fd, in.p[i], in_sizes[i]) != in_sizes[i])
        fail("cannot read an input file");
      sh_close(fd);
    }

    paint_stack();
    timer_start();
    uint32_t t0 = TIMER_VALUE;
    uint32_t *sp = stack_pointer();
    int rc = RUN(&in.s, &out.s);
    uint32_t t1 = TIMER_VALUE;
    uint32_t *low = lowest_used();

    if (k == 0) {
      sh_put_kv("ticks", t0 - t1);
      sh_put_kv("stack_run", (uint32_t)((uintptr_t)sp - (uintptr_t)low));
      sh_put_kv("stack_top", (uint32_t)((uintptr_t)__stack_top - (uintptr_t)low));
      sh_put_kv("stack_size", (uint32_t)((uintptr_t)__stack_top - (uintptr_t)__stack_limit));
      sh_put_kv("workspace", NET_WORKSPACE_SIZE);
      sh_put_kv("persistent", NET_PERSISTENT_SIZE);
#ifdef NET_INPUT0_OFFSET
      sh_put_kv("io", 0); /* inside the workspace */
#else
      sh_put_kv("io", IO_BYTES);
#endif
#ifdef NET_NUM_OPS
      /* Built from `compile --profile` (bench/arm_profile.sh): the per-op
       * counts the generated hook summed, in timer ticks. */
      for (int op = 0; op < NET_NUM_OPS; op++) {
        sh_put_kv("prof_op", (uint32_t)op);
        sh_put_kv("prof_count", (uint32_t)net_profile_counts[op]);
      }
#endif
    }
    if (low <= __stack_limit) {
      sh_puts("error: the stack overflowed its reservation\n");
      sh_exit(4);
    }
    if (rc != 0) {
      sh_put_kv("status", (uint32_t)rc);
      sh_exit(1);
    }
    for (uint32_t i = 0; i < NOUT; i++) {
      int fd = open_file(argv[2], step, 0, "output", i, SH_MODE_WB);
      if (fd < 0 || sh_write(fd, out.p[i], out_sizes[i]) != 0)
        fail("cannot write an output file");
      sh_close(fd);
    }
  }
  sh_exit(0);
}
