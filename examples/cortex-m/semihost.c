/* SPDX-License-Identifier: Apache-2.0 */
/*
 * semihost.c - Arm semihosting operations (see semihost.h).
 *
 * The operation number goes in r0, a pointer to its argument block in r1;
 * "bkpt 0xab" traps to the debugger or emulator, which answers in r0.
 */
#include "semihost.h"

#define SYS_OPEN 0x01
#define SYS_CLOSE 0x02
#define SYS_WRITE0 0x04
#define SYS_WRITE 0x05
#define SYS_READ 0x06
#define SYS_FLEN 0x0C
#define SYS_GET_CMDLINE 0x15
#define SYS_EXIT 0x18
#define SYS_EXIT_EXTENDED 0x20
#define ADP_STOPPED_APPLICATION_EXIT 0x20026

static int sh_call(int op, const void *arg) {
  register int r0 __asm__("r0") = op;
  register const void *r1 __asm__("r1") = arg;
  __asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

static size_t length(const volatile char *s) {
  size_t n = 0;
  while (s[n])
    n++;
  return n;
}

int sh_open(const char *path, int mode) {
  uintptr_t args[3] = {(uintptr_t)path, (uintptr_t)mode, length(path)};
  return sh_call(SYS_OPEN, args);
}

int sh_close(int fd) {
  uintptr_t args[1] = {(uintptr_t)fd};
  return sh_call(SYS_CLOSE, args);
}

size_t sh_read(int fd, void *buf, size_t n) {
  uintptr_t args[3] = {(uintptr_t)fd, (uintptr_t)buf, n};
  int left = sh_call(SYS_READ, args); /* bytes NOT read */
  if (left < 0 || (size_t)left > n)
    return 0;
  return n - (size_t)left;
}

int sh_write(int fd, const void *buf, size_t n) {
  uintptr_t args[3] = {(uintptr_t)fd, (uintptr_t)buf, n};
  return sh_call(SYS_WRITE, args);
}

long sh_flen(int fd) {
  uintptr_t args[1] = {(uintptr_t)fd};
  return sh_call(SYS_FLEN, args);
}

void sh_puts(const char *s) { sh_call(SYS_WRITE0, s); }

void sh_put_kv(const char *key, uint32_t value) {
  char buf[64];
  size_t n = 0;
  while (*key && n < sizeof buf - 14)
    buf[n++] = *key++;
  buf[n++] = ' ';
  char digits[10];
  int nd = 0;
  do {
    digits[nd++] = (char)('0' + value % 10);
    value /= 10;
  } while (value);
  while (nd)
    buf[n++] = digits[--nd];
  buf[n++] = '\n';
  buf[n] = 0;
  sh_puts(buf);
}

int sh_cmdline(char *buf, size_t n) {
  uintptr_t args[2] = {(uintptr_t)buf, n};
  if (sh_call(SYS_GET_CMDLINE, args) != 0)
    return -1;
  return (int)args[1];
}

void sh_exit(int status) {
  /* SYS_EXIT_EXTENDED carries the status; plain SYS_EXIT (the fallback)
   * can only say "application exit" (status 0) or not. */
  uintptr_t args[2] = {ADP_STOPPED_APPLICATION_EXIT, (uintptr_t)status};
  sh_call(SYS_EXIT_EXTENDED, args);
  sh_call(SYS_EXIT, (const void *)(uintptr_t)(status == 0
                                                   ? ADP_STOPPED_APPLICATION_EXIT
                                                   : 0x20023));
  for (;;) {
  }
}
