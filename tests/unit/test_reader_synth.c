/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The reader and the verifier on small synthetic models, built here with
 * a tiny FlatBuffers writer: external buffers (Buffer.offset/size, as in
 * files over 2 GB), large custom options, metadata, both builtin code
 * fields, every dtype, quantization, shape_signature rules, data-flow
 * invariants, control flow and unknown ops, and the command line's exit
 * statuses and messages.
 *
 * The writer lays a FlatBuffer out front to back: vtable, table, then the
 * objects it refers to (uoffsets point forward, as the format requires).
 * Field slots follow schema.fbs (a union takes two slots: type, value).
 */
#define _POSIX_C_SOURCE 200809L
#include "test.h"
#include "tinyaot.h"

#include <setjmp.h>
#include <stdint.h>
#include <unistd.h>

/* ------------------------------------------------- FlatBuffers writer */

enum { N_TABLE, N_BYTES, N_TABLES, N_STRING };

typedef struct Node Node;
typedef struct {
  int slot, width; /* width 0: reference to `ref` */
  uint64_t value;
  Node *ref;
} Field;

struct Node {
  int kind;
  Field f[16];
  int nf;
  uint8_t bytes[256]; /* N_BYTES: raw elements; N_STRING: text */
  size_t nbytes, count;
  Node *items[16];
  int nitems;
};

static Node pool[512];
static int npool;

static Node *node(int kind) {
  if (npool == (int)(sizeof pool / sizeof *pool))
    abort();
  Node *n = &pool[npool++];
  memset(n, 0, sizeof *n);
  n->kind = kind;
  return n;
}
static Node *table(void) { return node(N_TABLE); }
static void scalar(Node *t, int slot, int width, uint64_t v) {
  t->f[t->nf++] = (Field){slot, width, v, NULL};
}
static void ref(Node *t, int slot, Node *child) {
  t->f[t->nf++] = (Field){slot, 0, 0, child};
}
static Node *bytes_vec(const void *data, size_t elem, size_t count) {
  Node *n = node(N_BYTES);
  n->nbytes = elem * count;
  n->count = count;
  memcpy(n->bytes, data, n->nbytes);
  return n;
}
static Node *ints(int n, const int32_t *v) { return bytes_vec(v, 4, (size_t)n); }
static Node *string(const char *s) {
  Node *n = node(N_STRING);
  n->nbytes = strlen(s);
  memcpy(n->bytes, s, n->nbytes);
  return n;
}
static Node *tables(int n, Node **items) {
  Node *v = node(N_TABLES);
  v->nitems = n;
  memcpy(v->items, items, (size_t)n * sizeof *items);
  return v;
}

typedef struct {
  uint8_t b[1 << 16];
  size_t n;
} Out;

static void put(Out *o, size_t at, uint64_t v, int width) {
  for (int i = 0; i < width; i++)
    o->b[at + (size_t)i] = (uint8_t)(v >> (8 * i));
}
static size_t grow(Out *o, size_t n) {
  while (o->n % 4)
    o->b[o->n++] = 0;
  size_t at = o->n;
  memset(o->b + at, 0, n);
  o->n += n;
  return at;
}

static size_t emit(Out *o, Node *n) {
  if (n->kind == N_BYTES || n->kind == N_STRING) {
    size_t at = grow(o, 4 + n->nbytes + (n->kind == N_STRING));
    put(o, at, n->kind == N_STRING ? n->nbytes : n->count, 4);
    memcpy(o->b + at + 4, n->bytes, n->nbytes);
    return at;
  }
  if (n->kind == N_TABLES) {
    size_t at = grow(o, 4 + 4 * (size_t)n->nitems);
    put(o, at, (uint64_t)n->nitems, 4);
    for (int i = 0; i < n->nitems; i++) {
      size_t slot = at + 4 + 4 * (size_t)i;
      put(o, slot, emit(o, n->items[i]) - slot, 4);
    }
    return at;
  }
  /* A table: inline layout first. */
  int nslots = 0;
  size_t off[16], end = 4;
  for (int i = 0; i < n->nf; i++) {
    int w = n->f[i].width ? n->f[i].width : 4;
    end = (end + (size_t)w - 1) / (size_t)w * (size_t)w;
    off[i] = end;
    end += (size_t)w;
    if (n->f[i].slot + 1 > nslots)
      nslots = n->f[i].slot + 1;
  }
  size_t tsize = (end + 3) / 4 * 4, vtsize = 4 + 2 * (size_t)nslots;
  size_t vt = grow(o, vtsize);
  put(o, vt, vtsize, 2);
  put(o, vt + 2, tsize, 2);
  for (int i = 0; i < n->nf; i++)
    put(o, vt + 4 + 2 * (size_t)n->f[i].slot, off[i], 2);
  size_t t = grow(o, tsize);
  put(o, t, t - vt, 4); /* soffset: vtable = table - soffset */
  for (int i = 0; i < n->nf; i++)
    if (n->f[i].width)
      put(o, t + off[i], n->f[i].value, n->f[i].width);
  for (int i = 0; i < n->nf; i++)
    if (!n->f[i].width)
      put(o, t + off[i], emit(o, n->f[i].ref) - (t + off[i]), 4);
  return t;
}

/* ------------------------------------------------------- the models */

typedef struct {
  int code;            /* builtin_code of op 0 (ADD = 0) */
  int dep_code;        /* deprecated_builtin_code; -1: min(code, 127) */
  bool no_ext_code;    /* leave builtin_code out (old files) */
  int options_type;    /* op 0's builtin_options_type; -1: AddOptions (11) */
  const char *custom;  /* custom_code */
  int32_t in_shape0;   /* t0's shape[0] (default 1) */
  int32_t sig[2];      /* t0's shape_signature; {0, 0}: none */
  int op_inputs[2];    /* op 0's inputs (default {0, 1}) */
  bool two_ops;        /* op 1: ADD t2 + t1 -> t3; model output t3 */
  bool swap_ops;       /* op order reversed (op 0 reads op 1's output) */
  int nsubgraphs;      /* default 1 */
  bool ext_buffer;     /* t1's data through Buffer.offset/size */
  uint64_t ext_offset_bias; /* added to that offset (to break it) */
  bool large_custom;   /* op 0's custom options through large_custom_* */
  uint32_t version;    /* schema version (default 3) */
} Spec;

static const int8_t t1_data[4] = {1, -2, 3, -4};
static const uint8_t mem_alloc[12] = {1, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0};

static Node *tensor(int type, int n, const int32_t *shape, int buffer,
                    const char *name) {
  Node *t = table();
  ref(t, 0, ints(n, shape));
  scalar(t, 1, 1, (uint64_t)type);
  scalar(t, 2, 4, (uint64_t)buffer);
  ref(t, 3, string(name));
  return t;
}

/* Builds the model of spec s into o; returns its size. */
static size_t build(const Spec *s, Out *o) {
  npool = 0;
  o->n = 0;
  static const int32_t shape[2] = {1, 4};
  int32_t in_shape[2] = {s->in_shape0 ? s->in_shape0 : 1, 4};

  /* Tensors: t0 input, t1 constant, t2 (and t3) activations, then one
   * unused tensor of every other dtype. */
  Node *ts[16];
  int nt = 0;
  Node *t0 = tensor(9, 2, in_shape, 0, "input");
  Node *q = table();
  float scale = 0.5f;
  int64_t zp = -3;
  ref(q, 2, bytes_vec(&scale, 4, 1));
  ref(q, 3, bytes_vec(&zp, 8, 1));
  ref(t0, 4, q);
  if (s->sig[0] || s->sig[1])
    ref(t0, 7, ints(2, s->sig));
  ts[nt++] = t0;
  Node *t1 = tensor(9, 2, shape, 1, "const");
  Node *pq = table();
  float scales[4] = {0.1f, 0.2f, 0.3f, 0.4f};
  int64_t zps[4] = {0, 0, 0, 0};
  ref(pq, 2, bytes_vec(scales, 4, 4));
  ref(pq, 3, bytes_vec(zps, 8, 4));
  scalar(pq, 6, 4, 1);
  ref(t1, 4, pq);
  ts[nt++] = t1;
  ts[nt++] = tensor(9, 2, shape, 0, "sum");
  ts[nt++] = tensor(9, 2, shape, 0, "sum2");
  static const int other[] = {0, 1, 2, 3, 4, 6, 7};
  for (int i = 0; i < 7; i++)
    ts[nt++] = tensor(other[i], 2, shape, 0, "other");
  Node *var = tensor(7, 2, shape, 0, "state");
  scalar(var, 5, 1, 1);
  ts[nt++] = var;

  Node *ops[2];
  int nops = 0;
  Node *op0 = table();
  int32_t in0[2] = {s->op_inputs[0], s->op_inputs[1]}, out0[1] = {2};
  if (!s->op_inputs[0] && !s->op_inputs[1])
    in0[1] = 1;
  scalar(op0, 0, 4, 0);
  ref(op0, 1, ints(2, in0));
  ref(op0, 2, ints(1, out0));
  int otype = s->options_type < 0 ? 11 : s->options_type;
  if (otype) {
    Node *opts = table();
    scalar(opts, 0, 1, 1); /* fused_activation_function RELU */
    scalar(op0, 3, 1, (uint64_t)otype);
    ref(op0, 4, opts);
  }
  Node *op1 = NULL;
  if (s->two_ops) {
    op1 = table();
    int32_t in1[2] = {2, 1}, out1[1] = {3};
    scalar(op1, 0, 4, 1);
    ref(op1, 1, ints(2, in1));
    ref(op1, 2, ints(1, out1));
  }
  if (s->swap_ops && op1) {
    ops[nops++] = op1;
    ops[nops++] = op0;
  } else {
    ops[nops++] = op0;
    if (op1)
      ops[nops++] = op1;
  }

  Node *sg = table();
  ref(sg, 0, tables(nt, ts));
  int32_t inputs[1] = {0}, outputs[1] = {s->two_ops ? 3 : 2};
  ref(sg, 1, ints(1, inputs));
  ref(sg, 2, ints(1, outputs));
  ref(sg, 3, tables(nops, ops));
  Node *sgs[2] = {sg, sg};

  Node *codes[2];
  Node *c0 = table();
  int dep = s->dep_code >= 0 ? s->dep_code : (s->code < 127 ? s->code : 127);
  scalar(c0, 0, 1, (uint64_t)dep);
  if (s->custom)
    ref(c0, 1, string(s->custom));
  scalar(c0, 2, 4, 2);
  if (!s->no_ext_code)
    scalar(c0, 3, 4, (uint64_t)s->code);
  codes[0] = c0;
  codes[1] = table(); /* ADD, all defaults */

  Node *bufs[4];
  bufs[0] = table();
  Node *b1 = table();
  if (!s->ext_buffer)
    ref(b1, 0, bytes_vec(t1_data, 1, 4));
  bufs[1] = b1;
  Node *b2 = table();
  ref(b2, 0, bytes_vec(mem_alloc, 1, sizeof mem_alloc));
  bufs[2] = b2;
  Node *b3 = table();
  ref(b3, 0, string("1.14.0"));
  bufs[3] = b3;

  Node *md[2];
  md[0] = table();
  ref(md[0], 0, string("OfflineMemoryAllocation"));
  scalar(md[0], 1, 4, 2);
  md[1] = table();
  ref(md[1], 0, string("min_runtime_version"));
  scalar(md[1], 1, 4, 3);

  Node *model = table();
  scalar(model, 0, 4, s->version ? s->version : 3);
  ref(model, 1, tables(2, codes));
  ref(model, 2, tables(s->nsubgraphs ? s->nsubgraphs : 1, sgs));
  ref(model, 3, string("synthetic"));
  ref(model, 4, tables(4, bufs));
  ref(model, 6, tables(2, md));

  /* The large-file fields are 64-bit and point past the flatbuffer, so
   * patch them after layout: remember where they go. */
  if (s->ext_buffer) {
    scalar(b1, 1, 8, 0xABCDEF01u); /* offset placeholder */
    scalar(b1, 2, 8, sizeof t1_data);
  }
  if (s->large_custom) {
    scalar(op0, 9, 8, 0xABCDEF02u);
    scalar(op0, 10, 8, 3);
  }

  o->n = 8;
  memset(o->b, 0, 8);
  memcpy(o->b + 4, "TFL3", 4);
  put(o, 0, emit(o, model), 4);

  /* Data after the flatbuffer, as large files store it. */
  while (o->n % 16)
    o->b[o->n++] = 0;
  size_t data_at = o->n;
  memcpy(o->b + o->n, t1_data, sizeof t1_data);
  o->n += sizeof t1_data;
  size_t custom_at = o->n;
  memcpy(o->b + o->n, "xyz", 3);
  o->n += 3;
  for (size_t i = 8; i + 8 <= data_at; i += 4) {
    uint64_t v = 0;
    memcpy(&v, o->b + i, 8);
    if (v == 0xABCDEF01u)
      put(o, i, data_at + s->ext_offset_bias, 8);
    else if (v == 0xABCDEF02u)
      put(o, i, custom_at, 8);
  }
  return o->n;
}

/* ----------------------------------------------------------- helpers */

static Out out;
static Graph *graph;

/* Reads and verifies the model of s; returns "" or the error message. */
static const char *try_spec(const Spec *s) {
  size_t n = build(s, &out);
  static uint8_t *copy;
  free(copy);
  copy = malloc(n);
  memcpy(copy, out.b, n);
  arena_reset();
  jmp_buf jb;
  error_jmp = &jb;
  graph = NULL;
  if (!setjmp(jb)) {
    Graph *g = read_tflite("synth.tflite", copy, n);
    verify(g);
    graph = g;
    error_message[0] = 0;
  }
  error_jmp = NULL;
  return error_message;
}

static bool has(const char *msg, const char *part) {
  return strstr(msg, part) != NULL;
}

static Spec base(void) { return (Spec){.dep_code = -1, .options_type = -1}; }

int main(void) {
  Spec s = base();
  const char *m = try_spec(&s);
  CHECK(!*m, "the synthetic model reads and verifies (got '%s')", m);
  if (graph) {
    const Graph *g = graph;
    CHECK(g->nops == 1 && g->ops[0].kind == OP_ADD && g->ops[0].version == 2 &&
              g->ops[0].opt.activation == ACT_RELU,
          "its op 0 is ADD version 2 with a fused RELU");
    const Tensor *t0 = &g->tensors[0], *t1 = &g->tensors[1];
    CHECK(t0->is_input && t0->q.nscale == 1 && t0->q.scale[0] == 0.5f &&
              t0->q.zero_point[0] == -3,
          "its input has scale 0.5 and zero point -3");
    CHECK(t1->q.nscale == 4 && t1->q.axis == 1 && t1->q.scale[3] == 0.4f,
          "its constant is quantized per channel along dimension 1");
    CHECK(t1->ndata == 4 && !memcmp(t1->data, t1_data, 4),
          "its constant's bytes come from the Buffer data vector");
    static const DType want[] = {DT_FLOAT32, DT_FLOAT16, DT_INT32, DT_UINT8,
                                 DT_INT64,   DT_BOOL,    DT_INT16};
    bool ok = true;
    for (int i = 0; i < 7; i++)
      ok = ok && g->tensors[4 + i].dtype == want[i];
    CHECK(ok, "tensor types float32, float16, int32, uint8, int64, bool and "
              "int16 are read");
    CHECK(g->tensors[11].is_variable && !strcmp(g->tensors[11].name, "state"),
          "is_variable and the tensor name are read");
    const Metadata *a = find_metadata(g, "OfflineMemoryAllocation");
    const Metadata *v = find_metadata(g, "min_runtime_version");
    CHECK(a && a->ndata == sizeof mem_alloc &&
              !memcmp(a->data, mem_alloc, sizeof mem_alloc),
          "the OfflineMemoryAllocation metadata bytes are readable");
    CHECK(v && v->ndata == 6 && !memcmp(v->data, "1.14.0", 6),
          "the min_runtime_version metadata bytes are readable");
    CHECK(!strcmp(g->description, "synthetic") && g->schema_version == 3,
          "description and schema version are read");
  }

  s = base();
  s.ext_buffer = true;
  m = try_spec(&s);
  CHECK(!*m && graph && graph->tensors[1].ndata == 4 &&
            !memcmp(graph->tensors[1].data, t1_data, 4) &&
            graph->tensors[1].data > (const uint8_t *)graph->description,
        "constant data stored after the flatbuffer (Buffer.offset/size) is "
        "read (got '%s')",
        m);
  s.ext_offset_bias = 8;
  m = try_spec(&s);
  CHECK(has(m, "synth.tflite: ") && has(m, "outside the file"),
        "an external buffer reaching past the end of the file is refused "
        "(got '%s')",
        m);

  s = base();
  s.code = 32;
  s.custom = "MyOp";
  s.options_type = 0;
  s.large_custom = true;
  m = try_spec(&s);
  CHECK(!*m && graph && graph->ops[0].kind == OP_CUSTOM &&
            !strcmp(op_display_name(graph, 0), "CUSTOM:MyOp"),
        "a custom op is legal in the IR and shows as CUSTOM:MyOp (got '%s')",
        m);
  CHECK(graph && graph->ops[0].ncustom_options == 3 &&
            !memcmp(graph->ops[0].custom_options, "xyz", 3),
        "large custom options (offset/size) are read");

  s = base();
  s.code = 68; /* SPARSE_TO_DENSE: neither TFLM nor tinyaot has it */
  s.options_type = 0;
  m = try_spec(&s);
  CHECK(has(m, "op 0") && has(m, "unsupported builtin operator 68 (SPARSE_TO_DENSE)"),
        "an unknown builtin op is refused by code and name (got '%s')", m);

  s = base();
  s.code = 41;
  s.no_ext_code = true;
  s.options_type = 28;
  m = try_spec(&s);
  CHECK(!*m && graph && graph->ops[0].kind == OP_SUB,
        "an old file with only deprecated_builtin_code 41 reads as SUB "
        "(got '%s')",
        m);
  s = base();
  s.code = 126;
  s.options_type = 0;
  m = try_spec(&s);
  CHECK(!*m && graph && graph->ops[0].kind == OP_BATCH_MATMUL,
        "builtin_code 126 with the byte field at 127 reads as BATCH_MATMUL "
        "(got '%s')",
        m);

  s = base();
  s.options_type = 1;
  m = try_spec(&s);
  CHECK(has(m, "op 0 (ADD)") && has(m, "union type 1"),
        "options of another op's type are refused (got '%s')", m);

  s = base();
  s.code = 119;
  s.options_type = 0;
  m = try_spec(&s);
  CHECK(has(m, "op 0 (WHILE)") && has(m, "has 2 inputs and 1 outputs") &&
            has(m, "a loop variable is both"),
        "a WHILE op with two inputs and one output is refused: its inputs "
        "and outputs are its loop variables (got '%s')", m);
  s = base();
  s.nsubgraphs = 2;
  m = try_spec(&s);
  CHECK(has(m, "2 subgraphs") && has(m, "no op calls"),
        "a model with a second subgraph that no op calls is refused (got '%s')", m);
  s = base();
  s.version = 2;
  m = try_spec(&s);
  CHECK(has(m, "schema version 2"), "schema version 2 is refused (got '%s')", m);

  s = base();
  s.sig[0] = -1;
  s.sig[1] = 4;
  m = try_spec(&s);
  CHECK(!*m, "a -1 batch dimension over a static 1 is taken as 1 (got '%s')", m);
  s.in_shape0 = 2;
  m = try_spec(&s);
  CHECK(has(m, "dimension 0 is dynamic"),
        "a -1 batch dimension over a static 2 is refused (got '%s')", m);
  s = base();
  s.sig[0] = 1;
  s.sig[1] = -1;
  m = try_spec(&s);
  CHECK(has(m, "tensor 0 (input): dimension 1 is dynamic"),
        "a -1 in another dimension is refused (got '%s')", m);

  s = base();
  s.op_inputs[0] = 0;
  s.op_inputs[1] = 3;
  m = try_spec(&s);
  CHECK(has(m, "op 0 (ADD): input 1 reads tensor 3 (sum2), which is neither"),
        "reading a tensor nobody produces is refused (got '%s')", m);
  s = base();
  s.two_ops = true;
  s.swap_ops = true;
  m = try_spec(&s);
  CHECK(has(m, "op 0 (ADD): input 0 reads tensor 2 (sum) before op 1 produces it"),
        "reading a tensor before it is produced is refused (got '%s')", m);
  s = base();
  s.two_ops = true;
  m = try_spec(&s);
  CHECK(!*m && graph && graph->tensors[3].producer == 1,
        "two ops in order verify, and producers are recorded (got '%s')", m);
  s = base();
  s.op_inputs[0] = 0;
  s.op_inputs[1] = 99;
  m = try_spec(&s);
  CHECK(has(m, "op 0 (ADD): inputs[1] = 99 is not a tensor index"),
        "an out-of-range tensor index names the op (got '%s')", m);
  s = base();
  s.op_inputs[0] = -1;
  s.op_inputs[1] = 1;
  m = try_spec(&s);
  CHECK(!*m, "an optional input left out (-1) is legal (got '%s')", m);

  /* The command line: one message, exit 1 for bad input, 2 for usage. */
  const char *bin = getenv("TINYAOT");
  if (!bin || !*bin)
    bin = "build/tinyaot";
  char path[64], err[64], cmd[512];
  snprintf(path, sizeof path, "/tmp/tinyaot-synth-%d.tflite", (int)getpid());
  snprintf(err, sizeof err, "/tmp/tinyaot-synth-%d.err", (int)getpid());
  s = base();
  s.code = 68;
  s.options_type = 0;
  size_t n = build(&s, &out);
  FILE *f = fopen(path, "wb");
  fwrite(out.b, 1, n, f);
  fclose(f);
  snprintf(cmd, sizeof cmd, "'%s' inspect %s >/dev/null 2>%s", bin, path, err);
  int rc = system(cmd);
  char line[1024] = "";
  int lines = 0;
  f = fopen(err, "r");
  while (f && fgets(line, sizeof line, f))
    lines++;
  if (f)
    fclose(f);
  f = fopen(err, "r");
  if (f && !fgets(line, sizeof line, f))
    line[0] = 0;
  if (f)
    fclose(f);
  line[strcspn(line, "\n")] = 0;
  CHECK(rc != -1 && (rc >> 8) == 1 && lines == 1 && has(line, path) &&
            has(line, "op 0") && has(line, "SPARSE_TO_DENSE"),
        "tinyaot inspect on a bad model exits 1 with one line naming file, op "
        "and problem (exit %d, %d lines: %s)",
        rc >> 8, lines, line);
  snprintf(cmd, sizeof cmd, "'%s' inspect >/dev/null 2>&1", bin);
  rc = system(cmd);
  CHECK(rc != -1 && (rc >> 8) == 2, "tinyaot inspect without a model exits 2 (got %d)",
        rc >> 8);
  snprintf(cmd, sizeof cmd, "'%s' inspect /nonexistent.tflite >/dev/null 2>&1", bin);
  rc = system(cmd);
  CHECK(rc != -1 && (rc >> 8) == 1, "tinyaot inspect on a missing file exits 1 (got %d)",
        rc >> 8);
  remove(path);
  remove(err);
  arena_reset();
  return test_exit();
}
