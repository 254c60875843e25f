/* SPDX-License-Identifier: Apache-2.0 */
/*
 * onnx.c - the .onnx reader: a ModelProto (protobuf) -> the same IR
 * read_tflite() makes: TFLite op rows (ops.h) with TFLite semantics on
 * NHWC tensors, constants as Tensor.data.
 *
 * Steps:
 *   1. parse: ModelProto/GraphProto/NodeProto/TensorProto/AttributeProto/
 *      ValueInfoProto through protobuf.c's accessors into plain structs
 *      (ONode, Val); opset_import must give the default domain an opset
 *      11..25; initializers become constant Vals (raw_data or the typed
 *      fields; external data read next to the model, path-checked).
 *   2. import (onnx_import.c and its parts): node by node in the file's
 *      order (ONNX requires a topological order), constant folding what
 *      only depends on constants and static shapes, and emitting IR ops
 *      for the rest, with the NCHW -> NHWC conversion done at compile
 *      time.
 *
 * Errors name the node: "MODEL: node 7 (name, op_type Conv, domain '',
 * opset 13): problem".  The file is untrusted; nothing here touches its
 * bytes except through pb_*() and the checked copies below.
 */
#include "onnx.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The default domain's opsets this reader accepts. */
#ifndef ONNX_MIN_OPSET
#define ONNX_MIN_OPSET 9
#endif
#ifndef ONNX_MAX_OPSET
#define ONNX_MAX_OPSET 25
#endif

/* ---------------------------------------------------------- errors */

TA_NORETURN void onnx_fail(Onnx *x, const char *fmt, ...) {
  char msg[600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (x->node) {
    const ONode *n = x->node;
    error_file(x->path, "node %d (%s%sop_type %s, domain '%s', opset %d): %s", n->index,
               n->name[0] ? n->name : "", n->name[0] ? ", " : "", n->op_type, n->domain,
               x->opset, msg);
  }
  error_file(x->path, "%s", msg);
}

/* ---------------------------------------------------- data types */

/* ONNX TensorProto.DataType -> DType; false for types the IR lacks. */
bool onnx_dtype(int code, DType *dt) {
  switch (code) {
  case 1: *dt = DT_FLOAT32; return true;
  case 2: *dt = DT_UINT8; return true;
  case 3: *dt = DT_INT8; return true;
  case 4: *dt = DT_UINT16; return true;
  case 5: *dt = DT_INT16; return true;
  case 6: *dt = DT_INT32; return true;
  case 7: *dt = DT_INT64; return true;
  case 9: *dt = DT_BOOL; return true;
  case 10: *dt = DT_FLOAT16; return true;
  case 11: *dt = DT_FLOAT64; return true;
  case 12: *dt = DT_UINT32; return true;
  case 13: *dt = DT_UINT64; return true;
  case 16: *dt = DT_BFLOAT16; return true;
  case 17: *dt = DT_FLOAT8E4M3FN; return true;
  case 18: *dt = DT_FLOAT8E4M3FNUZ; return true;
  case 19: *dt = DT_FLOAT8E5M2; return true;
  case 20: *dt = DT_FLOAT8E5M2FNUZ; return true;
  case 21: *dt = DT_UINT4; return true;
  case 22: *dt = DT_INT4; return true;
  case 23: *dt = DT_FLOAT4E2M1; return true;
  case 24: *dt = DT_FLOAT8E8M0; return true;
  case 25: *dt = DT_UINT2; return true;
  case 26: *dt = DT_INT2; return true;
  default: return false;
  }
}

static const char *onnx_type_name(int code) {
  static const char *const names[] = {
      "UNDEFINED", "FLOAT", "UINT8", "INT8", "UINT16", "INT16", "INT32",
      "INT64", "STRING", "BOOL", "FLOAT16", "DOUBLE", "UINT32", "UINT64",
      "COMPLEX64", "COMPLEX128", "BFLOAT16", "FLOAT8E4M3FN", "FLOAT8E4M3FNUZ", "FLOAT8E5M2",
      "FLOAT8E5M2FNUZ", "UINT4", "INT4", "FLOAT4E2M1", "FLOAT8E8M0", "UINT2", "INT2"};
  return code >= 0 && code < (int)(sizeof names / sizeof *names) ? names[code] : "unknown";
}

/* ------------------------------------------------------ tensors */

typedef struct {
  int64_t dims[MAX_DIMS];
  int ndims;
  int type;
  const char *name;
  PbField raw; /* raw_data, when has_raw */
  bool has_raw;
  PbField typed[8]; /* occurrences of the typed field, up to 8 chunks */
  int ntyped_occ;
  int typed_field; /* 4 float, 5 int32, 7 int64, 10 double, 11 uint64 */
  size_t ntyped;
  bool external;
  const char *ext_location;
  int64_t ext_offset, ext_length;
} TensorMsg;

/* Shape product, bounded: every tensor stays below MAX_VAL_BYTES. */
int64_t onnx_elems(Onnx *x, const int64_t *dims, int ndims, int width) {
  int64_t n = 1;
  for (int d = 0; d < ndims; d++) {
    if (dims[d] < 0)
      onnx_fail(x, "dimension %d is %lld (negative)", d, (long long)dims[d]);
    if (dims[d] && n > MAX_VAL_BYTES / dims[d])
      onnx_fail(x, "a tensor of more than %lld bytes", (long long)MAX_VAL_BYTES);
    n *= dims[d];
  }
  if (width > 0 && n > MAX_VAL_BYTES / width)
    onnx_fail(x, "a tensor of more than %lld bytes", (long long)MAX_VAL_BYTES);
  return n;
}

/* A non-negative decimal (external data offset/length), or -1. */
static int64_t decimal(const char *s) {
  int64_t v = 0;
  if (!*s)
    return -1;
  for (; *s; s++) {
    if (*s < '0' || *s > '9' || v > (INT64_MAX - 9) / 10)
      return -1;
    v = v * 10 + (*s - '0');
  }
  return v;
}

static void parse_tensor_msg(Onnx *x, PbMsg m, TensorMsg *t) {
  memset(t, 0, sizeof *t);
  t->name = "";
  PbField f;
  while (pb_next(&m, &f)) {
    switch (f.num) {
    case 1: {
      PbValues it = pb_values(&f, PB_VARINT);
      uint64_t v;
      while (pb_next_value(&it, &v)) {
        if (t->ndims >= MAX_DIMS)
          onnx_fail(x, "a tensor of rank above %d", MAX_DIMS);
        t->dims[t->ndims++] = (int64_t)v;
      }
      break;
    }
    case 2: t->type = (int)pb_int(&f); break;
    case 3: onnx_fail(x, "segmented tensors are not supported");
    case 8: t->name = pb_string(&f); break;
    case 9:
      if (f.wire != PB_LEN)
        onnx_fail(x, "raw_data is not a byte string");
      t->raw = f;
      t->has_raw = true;
      break;
    case 4: case 5: case 7: case 10: case 11:
      if (t->typed_field && t->typed_field != (int)f.num)
        onnx_fail(x, "tensor '%s' holds two kinds of typed data", t->name);
      if (t->ntyped_occ >= 8)
        onnx_fail(x, "tensor '%s': typed data in more than 8 pieces", t->name);
      t->typed_field = (int)f.num;
      t->typed[t->ntyped_occ++] = f;
      break;
    case 6: onnx_fail(x, "string tensors are not supported");
    case 13: {
      PbMsg e = pb_message(&f);
      const char *key = NULL, *value = NULL;
      PbField g;
      while (pb_next(&e, &g)) {
        if (g.num == 1)
          key = pb_string(&g);
        else if (g.num == 2)
          value = pb_string(&g);
      }
      if (!key || !value)
        continue;
      if (!strcmp(key, "location"))
        t->ext_location = value;
      else if (!strcmp(key, "offset"))
        t->ext_offset = decimal(value);
      else if (!strcmp(key, "length"))
        t->ext_length = decimal(value);
      break;
    }
    case 14: t->external = pb_int(&f) == 1; break;
    default: break;
    }
  }
}

/* An external data file's name: relative, no "..", no empty parts. */
static void check_external_path(Onnx *x, const char *loc, const char *tname) {
  if (!*loc || loc[0] == '/' || loc[0] == '\\' || strchr(loc, ':'))
    onnx_fail(x, "tensor '%s': external data location '%s' is not a relative path", tname,
              loc);
  const char *p = loc;
  while (*p) {
    const char *e = p;
    while (*e && *e != '/' && *e != '\\')
      e++;
    if ((e - p == 2 && p[0] == '.' && p[1] == '.') || e == p)
      onnx_fail(x, "tensor '%s': external data location '%s' leaves the model's folder",
                tname, loc);
    p = *e ? e + 1 : e;
  }
}

static const uint8_t *external_bytes(Onnx *x, const TensorMsg *t, size_t want) {
  if (!t->ext_location)
    onnx_fail(x, "tensor '%s': external data without a location", t->name);
  check_external_path(x, t->ext_location, t->name);
  const char *slash = strrchr(x->path, '/');
  const char *file = slash ? arena_printf("%.*s/%s", (int)(slash - x->path), x->path,
                                          t->ext_location)
                           : t->ext_location;
  size_t size;
  const uint8_t *buf = read_file(file, &size);
  if (t->ext_offset < 0 || (size_t)t->ext_offset > size)
    onnx_fail(x, "tensor '%s': external data offset %lld beyond %s (%zu bytes)", t->name,
              (long long)t->ext_offset, file, size);
  size_t left = size - (size_t)t->ext_offset;
  if (t->ext_length < 0 || (t->ext_length && (size_t)t->ext_length != want) ||
      want > left)
    onnx_fail(x, "tensor '%s': external data in %s holds %zu bytes from offset %lld, "
              "the tensor needs %zu", t->name, file, left, (long long)t->ext_offset, want);
  return buf + t->ext_offset;
}

/* Decodes a TensorProto into a constant Val (host byte order). */
Val *onnx_tensor_val(Onnx *x, PbMsg m, const char *name) {
  TensorMsg t;
  parse_tensor_msg(x, m, &t);
  if (name)
    t.name = name;
  DType dt;
  if (!onnx_dtype(t.type, &dt))
    onnx_fail(x, "tensor '%s' has data type %d (%s), which is not supported", t.name,
              t.type, onnx_type_name(t.type));
  int width = (dtype_bits(dt) + 7) / 8;
  int64_t n = onnx_elems(x, t.dims, t.ndims, width);
  size_t bytes = (size_t)n * (size_t)width;
  if (dtype_bits(dt) < 8) {
    /* packed (int4, uint4, int2, uint2, float4e2m1): raw_data and
     * int32_data alike hold the packed bytes, one per int32 */
    bytes = ((size_t)n * (size_t)dtype_bits(dt) + 7) / 8;
    n = (int64_t)bytes;
  }
  uint8_t *data = arena_alloc(bytes ? bytes : 1);
  if (t.external) {
    memcpy(data, external_bytes(x, &t, bytes), bytes);
  } else if (t.has_raw) {
    size_t have = t.raw.sub.end - t.raw.sub.pos;
    if (have != bytes)
      onnx_fail(x, "tensor '%s': raw_data has %zu bytes, its shape needs %zu", t.name,
                have, bytes);
    memcpy(data, t.raw.sub.buf + t.raw.sub.pos, bytes);
  } else if (n > 0) {
    int f = t.typed_field;
    int want = dt == DT_FLOAT32 ? 4 : dt == DT_INT64 ? 7 : dt == DT_FLOAT64 ? 10
             : dt == DT_UINT32 || dt == DT_UINT64 ? 11 : 5;
    if (f != want)
      onnx_fail(x, "tensor '%s' (%s) has no data (neither raw_data nor %s)", t.name,
                onnx_type_name(t.type), f ? "the right typed field" : "a typed field");
    int wire = f == 4 ? PB_FIXED32 : f == 10 ? PB_FIXED64 : PB_VARINT;
    int64_t k = 0;
    for (int o = 0; o < t.ntyped_occ; o++) {
      PbValues it = pb_values(&t.typed[o], wire);
      uint64_t v;
      while (pb_next_value(&it, &v)) {
        if (k >= n)
          onnx_fail(x, "tensor '%s' has more values than its shape holds (%lld)", t.name,
                    (long long)n);
        /* int32_data holds every type up to 32 bits (float16 as bits);
         * little-endian truncation gives each its bytes. */
        memcpy(data + (size_t)k * (size_t)width, &v, (size_t)width);
        k++;
      }
    }
    if (k != n)
      onnx_fail(x, "tensor '%s' has %lld values, its shape needs %lld", t.name,
                (long long)k, (long long)n);
  }
  Val *v = arena_alloc(sizeof *v);
  v->name = t.name;
  v->dt = dt;
  v->ndims = t.ndims;
  memcpy(v->dims, t.dims, sizeof t.dims);
  v->data = data;
  v->t[0] = v->t[1] = -1;
  return v;
}

/* -------------------------------------------------- value info */

/* ValueInfoProto -> name, elem type and shape (dim_param names kept). */
static void parse_value_info(Onnx *x, PbMsg m, VInfo *vi) {
  memset(vi, 0, sizeof *vi);
  vi->name = "";
  PbField f;
  while (pb_next(&m, &f)) {
    if (f.num == 1) {
      vi->name = pb_string(&f);
    } else if (f.num == 2) {
      PbMsg tp = pb_message(&f);
      PbField g;
      while (pb_next(&tp, &g)) {
        if (g.num != 1) {
          if (g.num == 4 || g.num == 5 || g.num == 8 || g.num == 9)
            onnx_fail(x, "value '%s' is not a tensor (sequence, map, optional or sparse "
                      "types are not supported)", vi->name);
          continue;
        }
        vi->has_type = true;
        PbMsg tt = pb_message(&g);
        PbField h;
        while (pb_next(&tt, &h)) {
          if (h.num == 1) {
            vi->elem_type = (int)pb_int(&h);
          } else if (h.num == 2) {
            vi->has_shape = true;
            PbMsg sh = pb_message(&h);
            PbField d;
            while (pb_next(&sh, &d)) {
              if (d.num != 1)
                continue;
              if (vi->ndims >= MAX_DIMS)
                onnx_fail(x, "value '%s' has a rank above %d", vi->name, MAX_DIMS);
              int k = vi->ndims++;
              vi->dims[k] = -1;
              vi->dim_param[k] = NULL;
              PbMsg dm = pb_message(&d);
              PbField e;
              while (pb_next(&dm, &e)) {
                if (e.num == 1)
                  vi->dims[k] = pb_int(&e);
                else if (e.num == 2)
                  vi->dim_param[k] = pb_string(&e);
              }
            }
          }
        }
      }
    }
  }
}

/* ---------------------------------------------------------- nodes */

static void parse_attr(Onnx *x, PbMsg m, OAttr *a) {
  memset(a, 0, sizeof *a);
  a->name = "";
  PbField f;
  size_t nf = 0, ni = 0;
  PbMsg copy = m;
  while (pb_next(&copy, &f)) { /* count first: the arrays are sized once */
    if (f.num == 7)
      nf += pb_values_count(&f, PB_FIXED32);
    else if (f.num == 8)
      ni += pb_values_count(&f, PB_VARINT);
  }
  if (nf > MAX_VAL_BYTES / 4 || ni > MAX_VAL_BYTES / 8)
    onnx_fail(x, "an attribute with too many values");
  a->floats = arena_array(nf ? nf : 1, sizeof(float));
  a->ints = arena_array(ni ? ni : 1, sizeof(int64_t));
  while (pb_next(&m, &f)) {
    switch (f.num) {
    case 1: a->name = pb_string(&f); break;
    case 2: a->f = pb_float(&f); a->has |= 1; break;
    case 3: a->i = pb_int(&f); a->has |= 2; break;
    case 4: a->s = pb_string(&f); a->has |= 4; break;
    case 5: a->t = pb_message(&f); a->has |= 8; break;
    case 6: case 11: a->has |= 16; break; /* graphs: control flow */
    case 7: {
      PbValues it = pb_values(&f, PB_FIXED32);
      uint64_t v;
      while (pb_next_value(&it, &v)) {
        uint32_t u = (uint32_t)v;
        memcpy(&a->floats[a->nfloats++], &u, 4);
      }
      a->has |= 32;
      break;
    }
    case 8: {
      PbValues it = pb_values(&f, PB_VARINT);
      uint64_t v;
      while (pb_next_value(&it, &v))
        a->ints[a->nints++] = (int64_t)v;
      a->has |= 64;
      break;
    }
    case 9: case 10: a->has |= 128; break;
    case 20: a->type = (int)pb_int(&f); break;
    case 21: onnx_fail(x, "attribute references (ref_attr_name) are only for functions");
    default: break;
    }
  }
}

/* Names of a node's inputs or outputs: counted first, then copied. */
static void parse_node(Onnx *x, PbMsg m, ONode *n, int index) {
  memset(n, 0, sizeof *n);
  n->index = index;
  n->name = n->op_type = n->domain = "";
  PbMsg copy = m;
  PbField f;
  int ni = 0, no = 0, na = 0;
  while (pb_next(&copy, &f)) {
    ni += f.num == 1;
    no += f.num == 2;
    na += f.num == 5;
  }
  n->inputs = arena_array((size_t)ni + 1, sizeof(char *));
  n->outputs = arena_array((size_t)no + 1, sizeof(char *));
  n->attrs = arena_array((size_t)na + 1, sizeof(OAttr));
  while (pb_next(&m, &f)) {
    switch (f.num) {
    case 1: n->inputs[n->ninputs++] = pb_string(&f); break;
    case 2: n->outputs[n->noutputs++] = pb_string(&f); break;
    case 3: n->name = pb_string(&f); break;
    case 4: n->op_type = pb_string(&f); break;
    case 5: parse_attr(x, pb_message(&f), &n->attrs[n->nattrs++]); break;
    case 7: n->domain = pb_string(&f); break;
    default: break;
    }
  }
}

/* ---------------------------------------------------------- model */

bool looks_like_onnx(const uint8_t *buf, size_t size) {
  /* Every exporter writes ir_version (field 1, a small varint: key 0x08)
   * first, then a length-delimited field (producer_name, graph, ...).
   * A .tflite file has "TFL3" at byte 4.  Only the first bytes are
   * looked at, so a truncated ONNX file still goes to the ONNX reader
   * and gets its own message. */
  if (size < 4 || buf[0] != 0x08 || buf[1] >= 0x80 || (buf[2] & 7) != PB_LEN)
    return false;
  return !(size >= 8 && !memcmp(buf + 4, "TFL3", 4));
}

static void parse_graph(Onnx *x, PbMsg m) {
  PbMsg copy = m;
  PbField f;
  int nn = 0, ninit = 0, nin = 0, nout = 0, nvi = 0;
  while (pb_next(&copy, &f)) {
    nn += f.num == 1;
    ninit += f.num == 5;
    nin += f.num == 11;
    nout += f.num == 12;
    nvi += f.num == 13;
    if (f.num == 15)
      onnx_fail(x, "sparse initializers are not supported");
  }
  x->nodes = arena_array((size_t)nn + 1, sizeof(ONode));
  x->inits = arena_array((size_t)ninit + 1, sizeof(Val *));
  x->ins = arena_array((size_t)nin + 1, sizeof(VInfo));
  x->outs = arena_array((size_t)nout + 1, sizeof(VInfo));
  x->vinfo = arena_array((size_t)nvi + 1, sizeof(VInfo));
  while (pb_next(&m, &f)) {
    char what[48];
    switch (f.num) {
    case 1:
      snprintf(what, sizeof what, "node %d", x->nnodes);
      f.sub.what = arena_strdup(what);
      parse_node(x, pb_message(&f), &x->nodes[x->nnodes], x->nnodes);
      x->nnodes++;
      break;
    case 2: x->graph_name = pb_string(&f); break;
    case 5:
      snprintf(what, sizeof what, "initializer %d", x->ninits);
      f.sub.what = arena_strdup(what);
      x->inits[x->ninits++] = onnx_tensor_val(x, pb_message(&f), NULL);
      break;
    case 11: parse_value_info(x, pb_message(&f), &x->ins[x->nins++]); break;
    case 12: parse_value_info(x, pb_message(&f), &x->outs[x->nouts++]); break;
    case 13: parse_value_info(x, pb_message(&f), &x->vinfo[x->nvinfo++]); break;
    default: break;
    }
  }
}

Graph *read_onnx(const char *path, const uint8_t *buf, size_t size, const ImportOptions *o) {
  Onnx *x = arena_alloc(sizeof *x);
  x->path = path;
  x->opt = o;
  x->opset = -1;
  PbMsg m = pb_root(path, buf, size, "model");
  PbField f;
  bool has_graph = false;
  PbMsg graph = m;
  while (pb_next(&m, &f)) {
    if (f.num == 1) {
      x->ir_version = pb_int(&f);
    } else if (f.num == 7) {
      graph = pb_message(&f);
      graph.what = "graph";
      has_graph = true;
    } else if (f.num == 8) {
      PbMsg os = pb_message(&f);
      os.what = "opset_import";
      const char *domain = "";
      int64_t version = 0;
      PbField g;
      while (pb_next(&os, &g)) {
        if (g.num == 1)
          domain = pb_string(&g);
        else if (g.num == 2)
          version = pb_int(&g);
      }
      if (!*domain || !strcmp(domain, "ai.onnx"))
        x->opset = version > INT32_MAX || version < 0 ? INT32_MAX : (int)version;
      else
        x->other_domain = domain, x->other_version = version;
    } else if (f.num == 3) {
      x->producer = pb_string(&f);
    } else if (f.num == 6) {
      x->doc = pb_string(&f);
    } else if (f.num == 25) {
      onnx_fail(x, "model-local functions are not supported");
    }
  }
  if (!has_graph)
    onnx_fail(x, "not an ONNX model: no graph");
  if (x->opset < 0)
    onnx_fail(x, "the model imports no opset of the default ONNX domain");
  if (x->opset < ONNX_MIN_OPSET || x->opset > ONNX_MAX_OPSET)
    onnx_fail(x, "opset %d of the default domain is not supported (%d to %d)", x->opset,
              ONNX_MIN_OPSET, ONNX_MAX_OPSET);
  parse_graph(x, graph);
  return onnx_import(x);
}

void read_tensor_pb(const char *path, const char **name, DType *dt, int *ndims,
                    int64_t *dims, const uint8_t **data, size_t *ndata) {
  size_t size;
  const uint8_t *buf = read_file(path, &size);
  Onnx x = {.path = path, .opset = 0};
  Val *v = onnx_tensor_val(&x, pb_root(path, buf, size, "tensor"), NULL);
  *name = v->name;
  *dt = v->dt;
  *ndims = v->ndims;
  memcpy(dims, v->dims, sizeof v->dims);
  *data = v->data;
  *ndata = val_bytes(v);
}
