/* SPDX-License-Identifier: Apache-2.0 */
/*
 * semihost.h - Arm semihosting: the program's stdin/stdout and files are
 * the host's, reached through a debugger or an emulator (QEMU with
 * -semihosting-config enable=on).  On a board without a debugger attached
 * a semihosting call stops the core: replace these with a UART in a
 * product.
 *
 * Every function is a thin wrapper around one semihosting operation
 * ("bkpt 0xab" on M-profile).  Return values follow the operations:
 * a negative handle or -1 means failure.
 */
#ifndef SEMIHOST_H
#define SEMIHOST_H

#include <stddef.h>
#include <stdint.h>

#define SH_MODE_RB 1 /* fopen "rb" */
#define SH_MODE_WB 5 /* fopen "wb" */

int sh_open(const char *path, int mode);
int sh_close(int fd);
/* Reads up to n bytes; returns the number read. */
size_t sh_read(int fd, void *buf, size_t n);
/* Writes n bytes; returns 0 on success. */
int sh_write(int fd, const void *buf, size_t n);
/* Length of an open file in bytes, or -1. */
long sh_flen(int fd);
/* Writes a NUL-terminated string to the host's stdout. */
void sh_puts(const char *s);
/* Writes "<key> <value>\n" to the host's stdout. */
void sh_put_kv(const char *key, uint32_t value);
/* The command line the emulator was given (QEMU:
 * -semihosting-config arg=...); returns its length or -1. */
int sh_cmdline(char *buf, size_t n);
/* Ends the program with an exit status the host sees. */
__attribute__((noreturn)) void sh_exit(int status);

#endif
