/* SPDX-License-Identifier: Apache-2.0 */
/*
 * json.h - a small JSON reader for tests (header-only, no dependencies).
 *
 * Parse a file or a string into a tree, then look values up:
 *
 *   char err[256];
 *   Json *m = json_load("goldens/kws_ref_model/manifest.json", err, sizeof err);
 *   if (!m) { printf("not ok - ...: %s\n", err); ... }
 *   const Json *in0 = json_at(json_get(m, "inputs"), 0);
 *   const char *dt = json_str(json_get(in0, "dtype"), "?");      // "int8"
 *   long long zp = json_int(json_at(json_get(in0, "zero_point"), 0), 0);
 *   double s = json_num(json_path(m, "inputs.0.scale.0"), 0.0);  // dotted path
 *   for (int i = 0; i < json_len(json_get(m, "outputs")); i++) ...
 *   json_free(m);
 *
 * Every accessor accepts NULL and a value of the wrong type, returning
 * NULL / 0 / the given default, so lookups chain without checks.
 * Numbers keep both a double and, when the text is an integer that fits,
 * an exact long long (json_int).  Strings are decoded (\uXXXX to UTF-8).
 * Objects keep their keys in file order; json_get returns the first match.
 * Memory: malloc; json_free releases the whole tree.  Nesting is limited
 * to JSON_MAX_DEPTH.
 */
#ifndef TESTS_JSON_H
#define TESTS_JSON_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JSON_MAX_DEPTH 256

typedef enum {
  JSON_NULL,
  JSON_BOOL,
  JSON_NUMBER,
  JSON_STRING,
  JSON_ARRAY,
  JSON_OBJECT
} JsonType;

typedef struct Json {
  JsonType type;
  bool boolean;        /* JSON_BOOL */
  double number;       /* JSON_NUMBER */
  bool is_int;         /* JSON_NUMBER: the text is an integer fitting integer */
  long long integer;
  char *string;        /* JSON_STRING (NUL-terminated, decoded) */
  int n;               /* JSON_ARRAY / JSON_OBJECT: element count */
  struct Json *items;  /* the elements / the members' values */
  char **keys;         /* JSON_OBJECT: the members' keys */
} Json;

/* ------------------------------------------------------------ parser */

typedef struct {
  const char *p, *end;
  char *err;
  size_t errlen;
  bool failed;
} JsonParser_;

static inline void json_fail_(JsonParser_ *ps, const char *start,
                              const char *what) {
  if (!ps->failed && ps->err && ps->errlen)
    snprintf(ps->err, ps->errlen, "%s at byte %ld", what,
             (long)(ps->p - start));
  ps->failed = true;
}

static inline void json_ws_(JsonParser_ *ps) {
  while (ps->p < ps->end &&
         (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
    ps->p++;
}

static inline void json_put_utf8_(char **o, unsigned long c) {
  unsigned char *u = (unsigned char *)*o;
  if (c < 0x80) {
    *u++ = (unsigned char)c;
  } else if (c < 0x800) {
    *u++ = (unsigned char)(0xC0 | (c >> 6));
    *u++ = (unsigned char)(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    *u++ = (unsigned char)(0xE0 | (c >> 12));
    *u++ = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
    *u++ = (unsigned char)(0x80 | (c & 0x3F));
  } else {
    *u++ = (unsigned char)(0xF0 | (c >> 18));
    *u++ = (unsigned char)(0x80 | ((c >> 12) & 0x3F));
    *u++ = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
    *u++ = (unsigned char)(0x80 | (c & 0x3F));
  }
  *o = (char *)u;
}

static inline int json_hex4_(const char *p, const char *end, unsigned long *v) {
  *v = 0;
  if (end - p < 4)
    return 0;
  for (int i = 0; i < 4; i++) {
    char c = p[i];
    int d = (c >= '0' && c <= '9')   ? c - '0'
            : (c >= 'a' && c <= 'f') ? c - 'a' + 10
            : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                     : -1;
    if (d < 0)
      return 0;
    *v = *v * 16 + (unsigned long)d;
  }
  return 1;
}

/* Parses a string at ps->p (which is at '"'); returns malloc'd text. */
static inline char *json_string_(JsonParser_ *ps, const char *start) {
  ps->p++; /* '"' */
  const char *q = ps->p;
  while (q < ps->end && *q != '"') /* worst-case length */
    q += (*q == '\\' && q + 1 < ps->end) ? 2 : 1;
  if (q >= ps->end) {
    json_fail_(ps, start, "unterminated string");
    return NULL;
  }
  char *s = malloc((size_t)(q - ps->p) * 2 + 1), *o = s;
  if (!s) {
    json_fail_(ps, start, "out of memory");
    return NULL;
  }
  while (ps->p < q) {
    unsigned char c = (unsigned char)*ps->p++;
    if (c < 0x20) {
      json_fail_(ps, start, "control character in string");
      free(s);
      return NULL;
    }
    if (c != '\\') {
      *o++ = (char)c;
      continue;
    }
    char e = *ps->p++;
    unsigned long cp;
    switch (e) {
    case '"': *o++ = '"'; break;
    case '\\': *o++ = '\\'; break;
    case '/': *o++ = '/'; break;
    case 'b': *o++ = '\b'; break;
    case 'f': *o++ = '\f'; break;
    case 'n': *o++ = '\n'; break;
    case 'r': *o++ = '\r'; break;
    case 't': *o++ = '\t'; break;
    case 'u':
      if (!json_hex4_(ps->p, q, &cp)) {
        json_fail_(ps, start, "bad \\u escape");
        free(s);
        return NULL;
      }
      ps->p += 4;
      if (cp >= 0xD800 && cp < 0xDC00 && q - ps->p >= 6 && ps->p[0] == '\\' &&
          ps->p[1] == 'u') {
        unsigned long lo;
        if (json_hex4_(ps->p + 2, q, &lo) && lo >= 0xDC00 && lo < 0xE000) {
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          ps->p += 6;
        }
      }
      json_put_utf8_(&o, cp);
      break;
    default:
      json_fail_(ps, start, "bad escape in string");
      free(s);
      return NULL;
    }
  }
  ps->p++; /* closing '"' */
  *o = 0;
  return s;
}

static inline void json_free_value_(Json *v);

static inline bool json_value_(JsonParser_ *ps, const char *start, Json *v,
                               int depth) {
  memset(v, 0, sizeof *v);
  json_ws_(ps);
  if (depth > JSON_MAX_DEPTH) {
    json_fail_(ps, start, "nested too deeply");
    return false;
  }
  if (ps->p >= ps->end) {
    json_fail_(ps, start, "unexpected end");
    return false;
  }
  char c = *ps->p;
  if (c == '{' || c == '[') {
    bool obj = c == '{';
    char close = obj ? '}' : ']';
    int cap = 0;
    v->type = obj ? JSON_OBJECT : JSON_ARRAY;
    ps->p++;
    json_ws_(ps);
    if (ps->p < ps->end && *ps->p == close) {
      ps->p++;
      return true;
    }
    for (;;) {
      if (v->n == cap) {
        cap = cap ? 2 * cap : 8;
        Json *ni = realloc(v->items, (size_t)cap * sizeof *ni);
        if (ni)
          v->items = ni;
        char **nk = obj ? realloc(v->keys, (size_t)cap * sizeof *nk) : NULL;
        if (nk)
          v->keys = nk;
        if (!ni || (obj && !nk)) {
          json_fail_(ps, start, "out of memory");
          return false;
        }
      }
      if (obj) {
        json_ws_(ps);
        if (ps->p >= ps->end || *ps->p != '"') {
          json_fail_(ps, start, "expected a key");
          return false;
        }
        char *k = json_string_(ps, start);
        if (!k)
          return false;
        v->keys[v->n] = k;
        json_ws_(ps);
        if (ps->p >= ps->end || *ps->p != ':') {
          memset(&v->items[v->n], 0, sizeof(Json));
          v->n++;
          json_fail_(ps, start, "expected ':'");
          return false;
        }
        ps->p++;
      }
      bool ok = json_value_(ps, start, &v->items[v->n], depth + 1);
      v->n++;
      if (!ok)
        return false;
      json_ws_(ps);
      if (ps->p < ps->end && *ps->p == ',') {
        ps->p++;
        continue;
      }
      if (ps->p < ps->end && *ps->p == close) {
        ps->p++;
        return true;
      }
      json_fail_(ps, start, obj ? "expected ',' or '}'" : "expected ',' or ']'");
      return false;
    }
  }
  if (c == '"') {
    v->type = JSON_STRING;
    v->string = json_string_(ps, start);
    return v->string != NULL;
  }
  static const char *const words[] = {"true", "false", "null"};
  for (int i = 0; i < 3; i++) {
    size_t n = strlen(words[i]);
    if ((size_t)(ps->end - ps->p) >= n && !memcmp(ps->p, words[i], n)) {
      ps->p += n;
      v->type = i == 2 ? JSON_NULL : JSON_BOOL;
      v->boolean = i == 0;
      return true;
    }
  }
  /* A number: -?digits[.digits][e[+-]digits] */
  const char *q = ps->p;
  bool integral = true;
  if (q < ps->end && *q == '-')
    q++;
  const char *digits = q;
  while (q < ps->end && *q >= '0' && *q <= '9')
    q++;
  if (q == digits) {
    json_fail_(ps, start, "unexpected character");
    return false;
  }
  if (q < ps->end && *q == '.') {
    integral = false;
    q++;
    while (q < ps->end && *q >= '0' && *q <= '9')
      q++;
  }
  if (q < ps->end && (*q == 'e' || *q == 'E')) {
    integral = false;
    q++;
    if (q < ps->end && (*q == '+' || *q == '-'))
      q++;
    while (q < ps->end && *q >= '0' && *q <= '9')
      q++;
  }
  char buf[64];
  size_t len = (size_t)(q - ps->p);
  if (len >= sizeof buf) {
    json_fail_(ps, start, "number too long");
    return false;
  }
  memcpy(buf, ps->p, len);
  buf[len] = 0;
  ps->p = q;
  v->type = JSON_NUMBER;
  v->number = strtod(buf, NULL);
  if (integral) {
    char *endp;
    errno = 0;
    long long ll = strtoll(buf, &endp, 10);
    if (errno == 0 && *endp == 0) {
      v->is_int = true;
      v->integer = ll;
    }
  }
  return true;
}

static inline void json_free_value_(Json *v) {
  if (!v)
    return;
  free(v->string);
  for (int i = 0; i < v->n; i++) {
    json_free_value_(&v->items[i]);
    if (v->keys)
      free(v->keys[i]);
  }
  free(v->items);
  free(v->keys);
}

/* ---------------------------------------------------------- the API */

/* Parses len bytes of JSON text.  Returns the tree (json_free it), or
 * NULL with a message in err. */
static inline Json *json_parse(const char *text, size_t len, char *err,
                               size_t errlen) {
  JsonParser_ ps = {text, text + len, err, errlen, false};
  Json *v = malloc(sizeof *v);
  if (!v) {
    if (err && errlen)
      snprintf(err, errlen, "out of memory");
    return NULL;
  }
  bool ok = json_value_(&ps, text, v, 0);
  json_ws_(&ps);
  if (ok && ps.p != ps.end) {
    json_fail_(&ps, text, "trailing characters");
    ok = false;
  }
  if (!ok) {
    json_free_value_(v);
    free(v);
    return NULL;
  }
  return v;
}

/* Reads and parses a file.  NULL with a message in err on failure. */
static inline Json *json_load(const char *path, char *err, size_t errlen) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    if (err && errlen)
      snprintf(err, errlen, "cannot open %s", path);
    return NULL;
  }
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  while (buf) {
    n += fread(buf + n, 1, cap - n, f);
    if (n < cap)
      break;
    char *nb = realloc(buf, cap * 2);
    if (!nb) {
      free(buf);
      buf = NULL;
      break;
    }
    buf = nb;
    cap *= 2;
  }
  fclose(f);
  if (!buf) {
    if (err && errlen)
      snprintf(err, errlen, "out of memory reading %s", path);
    return NULL;
  }
  Json *v = json_parse(buf, n, err, errlen);
  free(buf);
  return v;
}

static inline void json_free(Json *v) {
  json_free_value_(v);
  free(v);
}

/* Member `key` of an object (NULL when missing or not an object). */
static inline const Json *json_get(const Json *v, const char *key) {
  if (!v || v->type != JSON_OBJECT)
    return NULL;
  for (int i = 0; i < v->n; i++)
    if (!strcmp(v->keys[i], key))
      return &v->items[i];
  return NULL;
}

/* Element i of an array (NULL when out of range or not an array). */
static inline const Json *json_at(const Json *v, int i) {
  if (!v || v->type != JSON_ARRAY || i < 0 || i >= v->n)
    return NULL;
  return &v->items[i];
}

/* Elements of an array or members of an object; 0 otherwise. */
static inline int json_len(const Json *v) {
  return v && (v->type == JSON_ARRAY || v->type == JSON_OBJECT) ? v->n : 0;
}

/* Dotted path: "inputs.0.shape.2" (numbers index arrays). */
static inline const Json *json_path(const Json *v, const char *path) {
  char part[256];
  while (v && *path) {
    size_t n = strcspn(path, ".");
    if (n >= sizeof part)
      return NULL;
    memcpy(part, path, n);
    part[n] = 0;
    path += n + (path[n] == '.');
    if (v->type == JSON_ARRAY) {
      char *e;
      long i = strtol(part, &e, 10);
      v = (*e || e == part) ? NULL : json_at(v, (int)i);
    } else {
      v = json_get(v, part);
    }
  }
  return v;
}

static inline double json_num(const Json *v, double def) {
  return v && v->type == JSON_NUMBER ? v->number : def;
}

static inline long long json_int(const Json *v, long long def) {
  return v && v->type == JSON_NUMBER && v->is_int ? v->integer : def;
}

static inline const char *json_str(const Json *v, const char *def) {
  return v && v->type == JSON_STRING ? v->string : def;
}

static inline bool json_bool(const Json *v, bool def) {
  return v && v->type == JSON_BOOL ? v->boolean : def;
}

#endif
