/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libc_shim.c - the few system calls newlib needs for printf and malloc,
 * so that host-style test programs (tests/kernels/test_*.c) run bare-metal
 * under QEMU (tests/arm/test_arm_kernels.sh): stdout and stderr go to the
 * host through semihosting, the heap is a static array, exit() ends QEMU
 * with the program's status.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "semihost.h"

#ifndef SHIM_HEAP_BYTES
#define SHIM_HEAP_BYTES (2u << 20)
#endif

static uint8_t heap[SHIM_HEAP_BYTES] __attribute__((aligned(8)));
static size_t heap_used;

void *_sbrk(ptrdiff_t n);
void *_sbrk(ptrdiff_t n) {
  if (n < 0 || (size_t)n > sizeof heap - heap_used) {
    errno = ENOMEM;
    return (void *)-1;
  }
  void *p = heap + heap_used;
  heap_used += (size_t)n;
  return p;
}

int _write(int fd, const void *buf, size_t n);
int _write(int fd, const void *buf, size_t n) {
  /* SYS_WRITE0 (a NUL-terminated string to the host's stdout), in
   * pieces. */
  char piece[129];
  const char *s = buf;
  (void)fd;
  for (size_t i = 0; i < n;) {
    size_t k = n - i < 128 ? n - i : 128;
    for (size_t j = 0; j < k; j++)
      piece[j] = s[i + j] ? s[i + j] : ' ';
    piece[k] = 0;
    sh_puts(piece);
    i += k;
  }
  return (int)n;
}

int _read(int fd, void *buf, size_t n);
int _read(int fd, void *buf, size_t n) {
  (void)fd;
  (void)buf;
  (void)n;
  return 0;
}

int _close(int fd);
int _close(int fd) {
  (void)fd;
  return -1;
}

int _lseek(int fd, int off, int whence);
int _lseek(int fd, int off, int whence) {
  (void)fd;
  (void)off;
  (void)whence;
  return 0;
}

int _fstat(int fd, struct stat *st);
int _fstat(int fd, struct stat *st) {
  (void)fd;
  st->st_mode = S_IFCHR;
  return 0;
}

int _isatty(int fd);
int _isatty(int fd) {
  (void)fd;
  return 1;
}

int _getpid(void);
int _getpid(void) { return 1; }

int _kill(int pid, int sig);
int _kill(int pid, int sig) {
  (void)pid;
  (void)sig;
  errno = EINVAL;
  return -1;
}

void _exit(int status);
void _exit(int status) { sh_exit(status); }

/* Faults end the run with status 3. */
static void fault(void) {
  sh_puts("fault\n");
  sh_exit(3);
}
void HardFault_Handler(void) { fault(); }
void MemManage_Handler(void) { fault(); }
void BusFault_Handler(void) { fault(); }
void UsageFault_Handler(void) { fault(); }
void SecureFault_Handler(void) { fault(); }

/* The test program's main (compiled with -Dmain=shim_test_main): its
 * status ends QEMU, after stdout is flushed. */
#include <stdio.h>
int shim_test_main(void);
int main(void);
int main(void) {
  int rc = shim_test_main();
  fflush(stdout);
  sh_exit(rc);
}
