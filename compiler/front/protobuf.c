/* SPDX-License-Identifier: Apache-2.0 */
/*
 * protobuf.c - a bounds-checked reader of the protobuf wire format (what
 * an .onnx file is), no library.
 *
 * The wire format in five lines: a message is a sequence of fields, each
 * a key varint (field number << 3 | wire type) and a value.  Wire type 0
 * is a varint (7 bits per byte, low groups first, high bit = more), 1 a
 * little-endian fixed64, 5 a fixed32, 2 a length-delimited run (varint
 * length, then that many bytes: a string, bytes, a nested message or a
 * packed repeated field).  Types 3 and 4 (groups) are obsolete; 6 and 7
 * do not exist.  A reader skips fields it does not know by wire type.
 *
 * The bytes are untrusted.  Every access to them goes through the few
 * accessors here (get_varint, get_fixed, pb_next, pb_next_value): a
 * varint has at most 10 bytes and must fit 64 bits; every length is
 * checked against the bytes left in the enclosing message before it is
 * used, so a nested message is a sub-range that cannot reach past its
 * parent.  Any violation -> error_file(path, "...: byte N: ...") naming
 * what was being read (PbMsg.what).
 */
#include "tinyaot.h"

#include <string.h>

static TA_NORETURN void pb_fail(const PbMsg *m, size_t pos, const char *problem) {
  error_file(m->path, "%s%sbyte %zu: %s", m->what ? m->what : "",
             m->what ? ": " : "", pos, problem);
}

PbMsg pb_root(const char *path, const uint8_t *buf, size_t size, const char *what) {
  return (PbMsg){.path = path, .buf = buf, .pos = 0, .end = size, .what = what};
}

/* A varint at m->pos, which advances past it. */
static uint64_t get_varint(PbMsg *m) {
  uint64_t v = 0;
  size_t start = m->pos;
  for (int i = 0; i < 10; i++) {
    if (m->pos >= m->end)
      pb_fail(m, start, "truncated varint");
    uint8_t b = m->buf[m->pos++];
    /* The tenth byte holds bit 63 alone: anything above overflows. */
    if (i == 9 && (b & 0x7e))
      pb_fail(m, start, "varint overflows 64 bits");
    v |= (uint64_t)(b & 0x7f) << (7 * i);
    if (!(b & 0x80))
      return v;
  }
  pb_fail(m, start, "varint longer than 10 bytes");
}

/* n (4 or 8) little-endian bytes at m->pos. */
static uint64_t get_fixed(PbMsg *m, int n) {
  if (m->end - m->pos < (size_t)n)
    pb_fail(m, m->pos, n == 4 ? "truncated fixed32" : "truncated fixed64");
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; i--)
    v = v << 8 | m->buf[m->pos + (size_t)i];
  m->pos += (size_t)n;
  return v;
}

bool pb_next(PbMsg *m, PbField *f) {
  if (m->pos >= m->end)
    return false;
  memset(f, 0, sizeof *f);
  f->pos = m->pos;
  f->sub = *m; /* path and what, for messages about this field */
  uint64_t key = get_varint(m);
  f->wire = (int)(key & 7);
  if ((key >> 3) == 0 || (key >> 3) > 0x1fffffff)
    pb_fail(m, f->pos, "field number 0 or beyond 2^29");
  f->num = (uint32_t)(key >> 3);
  switch (f->wire) {
  case PB_VARINT:
    f->v = get_varint(m);
    break;
  case PB_FIXED64:
    f->v = get_fixed(m, 8);
    break;
  case PB_FIXED32:
    f->v = get_fixed(m, 4);
    break;
  case PB_LEN: {
    size_t at = m->pos;
    uint64_t n = get_varint(m);
    if (n > m->end - m->pos)
      pb_fail(m, at, "length beyond the end of the enclosing message");
    f->sub.pos = m->pos;
    f->sub.end = m->pos + (size_t)n;
    m->pos += (size_t)n;
    break;
  }
  case 3:
  case 4:
    pb_fail(m, f->pos, "groups (wire types 3 and 4) are not supported");
  default:
    pb_fail(m, f->pos, "invalid wire type");
  }
  return true;
}

PbValues pb_values(const PbField *f, int elem_wire) {
  PbValues it = {.m = f->sub, .wire = elem_wire};
  if (f->wire == PB_LEN)
    return it;
  if (f->wire != elem_wire)
    pb_fail(&f->sub, f->pos, "wrong wire type for a numeric field");
  it.single = true;
  it.v = f->v;
  return it;
}

bool pb_next_value(PbValues *it, uint64_t *v) {
  if (it->single) {
    if (it->done)
      return false;
    it->done = true;
    *v = it->v;
    return true;
  }
  if (it->m.pos >= it->m.end)
    return false;
  if (it->wire == PB_VARINT)
    *v = get_varint(&it->m);
  else if (it->wire == PB_FIXED32)
    *v = get_fixed(&it->m, 4);
  else if (it->wire == PB_FIXED64)
    *v = get_fixed(&it->m, 8);
  else
    unreachable();
  return true;
}

size_t pb_values_count(const PbField *f, int elem_wire) {
  if (f->wire != PB_LEN)
    return 1;
  size_t n = f->sub.end - f->sub.pos;
  if (elem_wire == PB_FIXED32)
    return n / 4;
  if (elem_wire == PB_FIXED64)
    return n / 8;
  size_t k = 0; /* varints: one per byte without the continuation bit */
  for (size_t i = f->sub.pos; i < f->sub.end; i++)
    k += !(f->sub.buf[i] & 0x80);
  return k;
}

const char *pb_string(const PbField *f) {
  if (f->wire != PB_LEN)
    pb_fail(&f->sub, f->pos, "a string field without wire type 2");
  size_t n = f->sub.end - f->sub.pos;
  char *s = arena_alloc(n + 1);
  memcpy(s, f->sub.buf + f->sub.pos, n);
  return s;
}

PbMsg pb_message(const PbField *f) {
  if (f->wire != PB_LEN)
    pb_fail(&f->sub, f->pos, "a message field without wire type 2");
  return f->sub;
}

int64_t pb_int(const PbField *f) {
  if (f->wire != PB_VARINT)
    pb_fail(&f->sub, f->pos, "an integer field without wire type 0");
  return (int64_t)f->v;
}

float pb_float(const PbField *f) {
  if (f->wire != PB_FIXED32)
    pb_fail(&f->sub, f->pos, "a float field without wire type 5");
  uint32_t u = (uint32_t)f->v;
  float x;
  memcpy(&x, &u, 4);
  return x;
}
