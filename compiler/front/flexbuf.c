/* SPDX-License-Identifier: Apache-2.0 */
/*
 * flexbuf.c - a small, bounds-checked reader for FlexBuffers, the
 * schema-less format of a custom op's options (Operator.custom_options,
 * custom_options_format FLEXBUFFERS).
 *
 * What it reads: a root map (what TFLite's converter writes for custom
 * ops' attributes) and its scalar values, by key or all at once (the
 * reader turns them into Op.attrs): int, uint, bool and float, inline or
 * indirect.  The bytes come from the model file, so
 * they are untrusted: every position and width is checked against the
 * buffer before it is read; anything out of range, of an unknown width or
 * of another type makes the lookup fail (the caller reports it).
 *
 * The format (google/flatbuffers, flexbuffers.h): the last byte is the
 * root's byte width, the byte before it the root's packed type (type << 2
 * | bit width code), and the root value sits just before those.  A value
 * that is not inline is an unsigned offset, of the parent's byte width,
 * back from the position it is stored at.  A map points at its values;
 * before them are the offset to its keys vector, that vector's byte
 * width, and the element count (each one element wide); after them one
 * packed type byte per value.  Keys are NUL-terminated strings, each
 * reached through an offset in the keys vector.
 */
#include "tinyaot.h"

#include <string.h>

enum {
  FBT_NULL = 0,
  FBT_INT = 1,
  FBT_UINT = 2,
  FBT_FLOAT = 3,
  FBT_KEY = 4,
  FBT_STRING = 5,
  FBT_INDIRECT_INT = 6,
  FBT_INDIRECT_UINT = 7,
  FBT_INDIRECT_FLOAT = 8,
  FBT_MAP = 9,
  FBT_BOOL = 26,
};

typedef struct {
  const uint8_t *buf;
  size_t n;
} Flex;

static bool valid_width(size_t w) { return w == 1 || w == 2 || w == 4 || w == 8; }

/* Little-endian unsigned of width w at pos. */
static bool read_uint(const Flex *f, size_t pos, size_t w, uint64_t *out) {
  if (!valid_width(w) || pos > f->n || f->n - pos < w)
    return false;
  uint64_t v = 0;
  for (size_t i = 0; i < w; i++)
    v |= (uint64_t)f->buf[pos + i] << (8 * i);
  *out = v;
  return true;
}

static bool read_int(const Flex *f, size_t pos, size_t w, int64_t *out) {
  uint64_t u;
  if (!read_uint(f, pos, w, &u))
    return false;
  if (w < 8 && (u >> (8 * w - 1)) & 1)
    u |= ~(uint64_t)0 << (8 * w);
  *out = (int64_t)u;
  return true;
}

/* The position an offset stored at pos (width w) points back to. */
static bool follow(const Flex *f, size_t pos, size_t w, size_t *target) {
  uint64_t off;
  if (!read_uint(f, pos, w, &off) || off > pos)
    return false;
  *target = pos - (size_t)off;
  return true;
}

/* The NUL-terminated string at pos, if it ends inside the buffer. */
static const char *string_at(const Flex *f, size_t pos) {
  if (pos >= f->n || !memchr(f->buf + pos, 0, f->n - pos))
    return NULL;
  return (const char *)f->buf + pos;
}

/* A scalar value stored at pos with parent width w and packed type t. */
static bool read_scalar(const Flex *f, size_t pos, size_t w, uint8_t t, int64_t *iv,
                        double *fv, bool *is_float) {
  int type = t >> 2;
  size_t cw = (size_t)1 << (t & 3);
  *is_float = false;
  switch (type) {
  case FBT_INT:
    return read_int(f, pos, w, iv);
  case FBT_UINT:
  case FBT_BOOL: {
    uint64_t u;
    if (!read_uint(f, pos, w, &u) || u > INT64_MAX)
      return false;
    *iv = (int64_t)u;
    return true;
  }
  case FBT_INDIRECT_INT:
    return follow(f, pos, w, &pos) && read_int(f, pos, cw, iv);
  case FBT_INDIRECT_UINT: {
    uint64_t u;
    if (!follow(f, pos, w, &pos) || !read_uint(f, pos, cw, &u) || u > INT64_MAX)
      return false;
    *iv = (int64_t)u;
    return true;
  }
  case FBT_FLOAT:
  case FBT_INDIRECT_FLOAT: {
    size_t fw = w;
    if (type == FBT_INDIRECT_FLOAT) {
      if (!follow(f, pos, w, &pos))
        return false;
      fw = cw;
    }
    uint64_t u;
    if ((fw != 4 && fw != 8) || !read_uint(f, pos, fw, &u))
      return false;
    if (fw == 4) {
      uint32_t u32 = (uint32_t)u;
      float x;
      memcpy(&x, &u32, 4);
      *fv = x;
    } else {
      memcpy(fv, &u, 8);
    }
    *is_float = true;
    return true;
  }
  default:
    return false;
  }
}

/* The root map: where its values start, their width, how many there
 * are, and its keys vector with that vector's width. */
typedef struct {
  size_t values, w, count, keys, keys_w;
} FlexMap;

static bool root_map(const Flex *f, FlexMap *m) {
  if (f->n < 3)
    return false;
  size_t root_w = f->buf[f->n - 1];
  uint8_t root_t = f->buf[f->n - 2];
  if (!valid_width(root_w) || f->n - 2 < root_w || (root_t >> 2) != FBT_MAP)
    return false;
  size_t map;
  if (!follow(f, f->n - 2 - root_w, root_w, &map))
    return false;
  size_t w = (size_t)1 << (root_t & 3);
  uint64_t count, keys_w;
  size_t keys;
  if (map < 3 * w || !read_uint(f, map - w, w, &count) ||
      !read_uint(f, map - 2 * w, w, &keys_w) || !valid_width((size_t)keys_w) ||
      !follow(f, map - 3 * w, w, &keys))
    return false;
  /* The values and their type bytes must lie inside the buffer. */
  if (count > f->n || (size_t)count * (w + 1) > f->n - map)
    return false;
  *m = (FlexMap){map, w, (size_t)count, keys, (size_t)keys_w};
  return true;
}

/* The key of entry i of the map. */
static const char *key_at(const Flex *f, const FlexMap *m, size_t i) {
  size_t kpos;
  if (!follow(f, m->keys + i * m->keys_w, m->keys_w, &kpos))
    return NULL;
  return string_at(f, kpos);
}

/* Finds `key` in the root map: the position, width and packed type of
 * its value. */
static bool find_key(const Flex *f, const char *key, size_t *vpos, size_t *vw,
                     uint8_t *vt) {
  FlexMap m;
  if (!root_map(f, &m))
    return false;
  for (size_t i = 0; i < m.count; i++) {
    const char *k = key_at(f, &m, i);
    if (!k)
      return false;
    if (strcmp(k, key))
      continue;
    *vpos = m.values + i * m.w;
    *vw = m.w;
    *vt = f->buf[m.values + m.count * m.w + i];
    return true;
  }
  return false;
}

bool flex_map_attrs(const uint8_t *buf, size_t n, Attr **attrs, int *nattrs) {
  Flex f = {buf, n};
  FlexMap m;
  *attrs = NULL;
  *nattrs = 0;
  if (!buf || !root_map(&f, &m) || m.count > INT32_MAX)
    return false;
  Attr *a = arena_array(m.count + 1, sizeof(Attr));
  for (size_t i = 0; i < m.count; i++) {
    a[i].key = key_at(&f, &m, i);
    if (!a[i].key)
      return false;
    bool is_float;
    uint8_t t = f.buf[m.values + m.count * m.w + i];
    a[i].kind = ATTR_OTHER;
    if (read_scalar(&f, m.values + i * m.w, m.w, t, &a[i].i, &a[i].f, &is_float)) {
      a[i].kind = is_float ? ATTR_FLOAT : ATTR_INT;
      if (!is_float)
        a[i].f = (double)a[i].i;
    }
  }
  *attrs = a;
  *nattrs = (int)m.count;
  return true;
}

bool flex_map_int(const uint8_t *buf, size_t n, const char *key, int64_t *out) {
  Flex f = {buf, n};
  size_t pos, w;
  uint8_t t;
  double fv;
  bool is_float;
  if (!buf || !find_key(&f, key, &pos, &w, &t) ||
      !read_scalar(&f, pos, w, t, out, &fv, &is_float))
    return false;
  return !is_float;
}

bool flex_map_float(const uint8_t *buf, size_t n, const char *key, double *out) {
  Flex f = {buf, n};
  size_t pos, w;
  uint8_t t;
  int64_t iv;
  bool is_float;
  if (!buf || !find_key(&f, key, &pos, &w, &t) ||
      !read_scalar(&f, pos, w, t, &iv, out, &is_float))
    return false;
  if (!is_float)
    *out = (double)iv;
  return true;
}

bool flex_map_has(const uint8_t *buf, size_t n, const char *key) {
  Flex f = {buf, n};
  size_t pos, w;
  uint8_t t;
  return buf && find_key(&f, key, &pos, &w, &t);
}
