/* SPDX-License-Identifier: Apache-2.0 */
/*
 * util.c - the arena, error reporting, files, and the op/dtype tables.
 *
 * The arena is a list of large blocks; arena_alloc() bumps a pointer and
 * never frees.  arena_reset() releases every block (the fuzzer and the
 * robustness test reuse one process for many inputs).  Size arithmetic
 * goes through mul_overflows()/add_overflows().
 */
#define _POSIX_C_SOURCE 200809L
#include "tinyaot.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The largest file read_file() reads: beyond any model a device can hold
 * (and the 2 GB FlatBuffers limit), below what the arena can allocate. */
#define MAX_FILE_BYTES (UINT64_C(1) << 34)

/* ------------------------------------------------------------- arena */

typedef struct Block {
  struct Block *next;
  size_t used, cap;
  _Alignas(16) unsigned char data[];
} Block;

static Block *blocks;

void *arena_alloc(size_t n) {
  n = (n + 15) & ~(size_t)15;
  if (n == 0)
    n = 16;
  if (!blocks || blocks->cap - blocks->used < n) {
    size_t cap = n > (1u << 20) ? n : (1u << 20);
    Block *b = malloc(sizeof(Block) + cap);
    if (!b)
      die("out of memory (%zu bytes)", n);
    b->next = blocks;
    b->used = 0;
    b->cap = cap;
    blocks = b;
  }
  void *p = blocks->data + blocks->used;
  blocks->used += n;
  memset(p, 0, n);
  return p;
}

void *arena_array(size_t count, size_t size) {
  size_t n;
  if (mul_overflows(count, size, &n))
    die("allocation of %zu x %zu bytes overflows", count, size);
  return arena_alloc(n);
}

char *arena_strdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *p = arena_alloc(n);
  memcpy(p, s, n);
  return p;
}

char *arena_printf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0)
    die("vsnprintf failed");
  char *p = arena_alloc((size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(p, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return p;
}

void arena_reset(void) {
  while (blocks) {
    Block *next = blocks->next;
    free(blocks);
    blocks = next;
  }
}

bool mul_overflows(size_t a, size_t b, size_t *out) {
  if (b != 0 && a > SIZE_MAX / b)
    return true;
  *out = a * b;
  return false;
}

bool add_overflows(size_t a, size_t b, size_t *out) {
  if (a > SIZE_MAX - b)
    return true;
  *out = a + b;
  return false;
}

/* ------------------------------------------------------------ errors */

char error_message[8192];
jmp_buf *error_jmp;

void (*error_cleanup_hook)(void);

static void cleanup(void) {
  if (error_cleanup_hook)
    error_cleanup_hook();
}

static TA_NORETURN void raise_error(void) {
  cleanup();
  if (error_jmp)
    longjmp(*error_jmp, 1);
  fprintf(stderr, "%s\n", error_message);
  exit(1);
}

void error_raise(const char *message) {
  snprintf(error_message, sizeof error_message, "%s", message);
  raise_error();
}

/* A path short enough to leave room for the message: a long one keeps
 * its first 120 and last 360 bytes (the file name) around "...". */
static const char *short_path(const char *path, char *buf, size_t n) {
  size_t len = strlen(path);
  if (len <= 480 || n < 490)
    return path;
  snprintf(buf, n, "%.120s...%s", path, path + len - 360);
  return buf;
}

void error_at(const Graph *g, int op, const char *fmt, ...) {
  char shortened[512];
  const char *path = short_path(g && g->path ? g->path : "<model>", shortened,
                                sizeof shortened);
  int n;
  if (g && op >= 0 && op < g->nops)
    n = snprintf(error_message, sizeof error_message, "%s: op %d (%s): ",
                 path, op, op_display_name(g, op));
  else
    n = snprintf(error_message, sizeof error_message, "%s: ", path);
  if (n < 0 || (size_t)n >= sizeof error_message)
    n = 0;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(error_message + n, sizeof error_message - (size_t)n, fmt, ap);
  va_end(ap);
  raise_error();
}

void error_file(const char *path, const char *fmt, ...) {
  char shortened[512];
  int n = snprintf(error_message, sizeof error_message, "%s: ",
                   short_path(path ? path : "<model>", shortened, sizeof shortened));
  if (n < 0 || (size_t)n >= sizeof error_message)
    n = 0;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(error_message + n, sizeof error_message - (size_t)n, fmt, ap);
  va_end(ap);
  raise_error();
}

void (*die_hook)(const char *message);

void die_at(const char *file, int line, const char *fmt, ...) {
  char msg[1024];
  int n = snprintf(msg, sizeof msg, "tinyaot: internal error at %s:%d: ", file,
                   line);
  if (n < 0 || (size_t)n >= sizeof msg)
    n = 0;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
  va_end(ap);
  fprintf(stderr, "%s\n", msg);
  cleanup();
  if (die_hook)
    die_hook(msg);
  abort();
}

/* ------------------------------------------------------------- files */

uint8_t *read_file(const char *path, size_t *size) {
  struct stat st;
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
    error_file(path, "is a folder, not a file");
  FILE *f = fopen(path, "rb");
  if (!f)
    error_file(path, "cannot open: %s", strerror(errno));
  if (fseek(f, 0, SEEK_END) != 0) {
    fclose(f);
    error_file(path, "cannot seek: %s", strerror(errno));
  }
  long n = ftell(f);
  if (n < 0 || fseek(f, 0, SEEK_SET) != 0) {
    fclose(f);
    error_file(path, "cannot tell its size (not a regular file?)");
  }
  if ((unsigned long)n > MAX_FILE_BYTES) {
    fclose(f);
    error_file(path, "is too large (%ld bytes; at most %llu)", n,
               (unsigned long long)MAX_FILE_BYTES);
  }
  uint8_t *buf = arena_alloc((size_t)n + 1);
  if (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    fclose(f);
    error_file(path, "read error");
  }
  fclose(f);
  *size = (size_t)n;
  return buf;
}

/* A model is mapped, not read: only the pages the reader touches (the
 * tables, the weights the emitter copies) come into memory, so a 2 GB
 * file costs what the compile needs, not 2 GB.  MAP_PRIVATE with write
 * permission: the bytes are the file's until someone writes, and no
 * write ever reaches the file.  Where the file cannot be mapped (a pipe,
 * a file system without mmap), it is read with read() in 1 MB pieces
 * into the arena. */
uint8_t *map_file(const char *path, size_t *size) {
  struct stat st;
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
    error_file(path, "is a folder, not a file");
  int fd = open(path, O_RDONLY);
  if (fd < 0)
    error_file(path, "cannot open: %s", strerror(errno));
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return read_file(path, size); /* a device or a pipe: fopen's checks */
  }
  if ((uint64_t)st.st_size > MAX_FILE_BYTES) {
    close(fd);
    error_file(path, "is too large (%lld bytes; at most %llu)", (long long)st.st_size,
               (unsigned long long)MAX_FILE_BYTES);
  }
  size_t n = (size_t)st.st_size;
  if (n > 0) {
    void *m = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    if (m != MAP_FAILED) {
      close(fd);
      *size = n;
      return m; /* unmapped at exit */
    }
  }
  uint8_t *buf = arena_alloc(n + 1);
  size_t got = 0;
  while (got < n) {
    size_t want = n - got < (1u << 20) ? n - got : (1u << 20);
    ssize_t k = read(fd, buf + got, want);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0) {
      close(fd);
      error_file(path, "read error: %s", k < 0 ? strerror(errno) : "file shrank");
    }
    got += (size_t)k;
  }
  close(fd);
  *size = n;
  return buf;
}

/* -------------------------------------------------------- the tables */

static const struct {
  const char *name;
  int code;
} op_table[] = {
#define X(e, code, name) {name, code},
#include "ops.h"
#undef X
};

const char *op_name(OpKind kind) {
  if ((unsigned)kind >= OP_COUNT)
    unreachable();
  return op_table[kind].name;
}

int op_tflite_code(OpKind kind) {
  if ((unsigned)kind >= OP_COUNT)
    unreachable();
  return op_table[kind].code;
}

bool op_from_tflite_code(int code, OpKind *kind) {
  if (code < 0)
    return false; /* rows without a TFLite builtin */
  for (int i = 0; i < OP_COUNT; i++) {
    if (op_table[i].code == code) {
      *kind = (OpKind)i;
      return true;
    }
  }
  return false;
}

const char *op_display_name(const Graph *g, int i) {
  const Op *op = &g->ops[i];
  if (op->kind == OP_CUSTOM)
    return arena_printf("CUSTOM:%s", op->custom_name ? op->custom_name : "?");
  return op_name(op->kind);
}

static const struct {
  const char *name;
  int code, bits;
} dtype_table[] = {
#define X(e, code, name, bits) {name, code, bits},
    DTYPE_LIST(X)
#undef X
};

const char *dtype_name(DType dt) {
  if ((unsigned)dt >= DT_COUNT)
    unreachable();
  return dtype_table[dt].name;
}

int dtype_bits(DType dt) {
  if ((unsigned)dt >= DT_COUNT)
    unreachable();
  return dtype_table[dt].bits;
}

bool dtype_from_tflite(int code, DType *dt) {
  for (int i = 0; i < DT_COUNT; i++) {
    if (dtype_table[i].code == code) {
      *dt = (DType)i;
      return true;
    }
  }
  return false;
}

/* ----------------------------------------------------------- tensors */

int64_t tensor_elems(const Tensor *t) {
  int64_t n = 1;
  for (int i = 0; i < t->ndims; i++)
    n *= t->dims[i]; /* the reader bounds every tensor's size */
  return n;
}

/* Elements below 8 bits are packed (ONNX's order, runtime/cast/minifloat.h). */
size_t tensor_bytes(const Tensor *t) {
  if (dtype_bits(t->dtype) < 8 && dtype_bits(t->dtype) > 0)
    return ((size_t)tensor_elems(t) * (size_t)dtype_bits(t->dtype) + 7) / 8;
  return (size_t)tensor_elems(t) * (size_t)((dtype_bits(t->dtype) + 7) / 8);
}

bool is_const(const Tensor *t) { return t->data != NULL; }

const char *tensor_type_label(const Tensor *t) {
  const char *s = arena_printf("%s[", dtype_name(t->dtype));
  for (int i = 0; i < t->ndims; i++)
    s = arena_printf("%s%s%d", s, i ? "," : "", (int)t->dims[i]);
  return arena_printf("%s]", s);
}

bool same_dtype_and_shape(const Tensor *a, const Tensor *b) {
  if (a->dtype != b->dtype || a->ndims != b->ndims)
    return false;
  for (int i = 0; i < a->ndims; i++)
    if (a->dims[i] != b->dims[i])
      return false;
  return true;
}

const Attr *op_attr(const Op *op, const char *key) {
  for (int i = 0; i < op->nattrs; i++)
    if (!strcmp(op->attrs[i].key, key))
      return &op->attrs[i];
  return NULL;
}
