/* SPDX-License-Identifier: Apache-2.0 */
/*
 * TFLite Micro's custom op CIRCULAR_BUFFER over a stream of calls,
 * against TFLM's semantics written out here from its kernel
 * (kernels/circular_buffer.cc; TFLite has no such op, so the oracle
 * cannot run it): each call shifts the [slots][frame] buffer by one
 * frame and appends the input; cycles_until_run starts at cycles_max and
 * counts down once per call; while it has not reached 0 the call returns
 * kTfLiteAbort and the interpreter runs no further op; when it reaches 0
 * it starts again at cycles_max and the graph goes on.  Without a
 * positive cycles_max, TFLM's Prepare picks 1 for outputs of 5, 13 or
 * 25 slots (and for the fifth such op when its output is [.][.][2][96]),
 * else 2, counting those ops in order with a counter it sets back to 0
 * whenever it picks 1.  TFLM's kernel test starts the buffer from zero
 * bytes, as <prefix>_reset() does.  TFLM takes int8 only.
 *
 * Models (tools/tflite_writer.c):
 *   stream  x int8[1][1][1][3] -> CIRCULAR_BUFFER(cycles_max 2) -> buf
 *           [1][4][1][3] -> CONV_2D (per-channel int8 filter [2][4][1][3],
 *           VALID) -> y [1][1][1][2]; outputs y and buf (micro_speech's
 *           streaming shape: a convolution over the buffered frames).
 *           The expected y is TFLM's int8 convolution written here
 *           (QuantizeMultiplier of the double scale, then
 *           MultiplyByQuantizedMultiplier's two roundings).
 *   auto    x int8[1][1][1][4] -> CIRCULAR_BUFFER without options ->
 *           b5 [1][5][1][4] (TFLM: every call), and from x a second one
 *           -> b4 [1][4][1][4] (every other call); outputs b5, b4.
 *
 * Each model is compiled and linked with a program written here that
 * calls <prefix>_run() frame by frame (its outputs filled with 0x7f
 * before each call, so that an output a pending call wrote would show),
 * then <prefix>_reset() and three more frames; every status, and every
 * output byte after every call, must be TFLM's: <PREFIX>_PENDING where
 * TFLM returns kTfLiteAbort (the outputs of the ops before the buffer
 * written, the others untouched), 0 where it returns kTfLiteOk.
 * `tinyaot run` on the stream model: pending inferences say so and leave
 * their output files unwritten; the others match.
 *
 * In process: the schedule keeps ops on their side of the buffer (a
 * memory order that would run a later op first is held back), the
 * default cycles_max count over six ops, and the refusals (float32, a
 * second output, malformed options, shapes, two quantizations), each
 * naming the op.
 */
#define _POSIX_C_SOURCE 200809L
#include "model_test.h"

#include "lower_helpers.h"

#include <ctype.h>

#define D 3     /* stream: frame depth */
#define SLOTS 4 /* stream: frames kept */
#define OC 2
#define CYCLES 2
#define NCALLS 7 /* before the reset */
#define NAFTER 3 /* after it */
#define NTOTAL (NCALLS + NAFTER)

static const float x_scale = 0.5f, y_scale = 4.0f;
static const int x_zp = -2, y_zp = 5;
static const float w_scale[OC] = {0.02f, 0.03f};
static int8_t filter[OC * SLOTS * D];
static int32_t bias[OC] = {100, -250};
static int8_t frames[NTOTAL][4]; /* stream uses D bytes, auto 4 */

static uint32_t lcg = 12345;
static int8_t next_byte(void) {
  lcg = lcg * 1103515245u + 12345u;
  return (int8_t)(lcg >> 16);
}

/* ------------------------------------------------------------ models */

enum {
  STREAM,
  AUTO,
  BAD_FLOAT,       /* float32 frames */
  BAD_VALID,       /* the bool "valid" second output */
  BAD_OPT_FLOAT,   /* cycles_max 1.5 */
  BAD_OPT_KEY,     /* another key */
  BAD_OPT_BYTES,   /* options that are no FlexBuffers map */
  BAD_SHAPE,       /* input [1][2][1][3] */
  BAD_QUANT,       /* output scale differs */
  BARRIER,         /* a big side branch before, its reduction after */
};

static void cb_op(TfwModel *m, int cycles, int in, int out) {
  uint8_t *bytes = NULL;
  size_t n = 0;
  if (cycles > 0) {
    TfwFlexEntry e = {"cycles_max", 'i', cycles, 0};
    n = tfw_flex_map(&e, 1, &bytes);
  }
  tfw_custom_op(m, "CIRCULAR_BUFFER", bytes, n, 1, &in, 1, &out);
  free(bytes);
}

static TfwModel *build(int kind) {
  TfwModel *m = tfw_new();
  if (kind == AUTO) {
    int32_t dx[4] = {1, 1, 1, 4}, d5[4] = {1, 5, 1, 4}, d4[4] = {1, 4, 1, 4};
    int x = tfw_tensor(m, "x", TFW_INT8, 4, dx, 0);
    int b5 = tfw_tensor(m, "b5", TFW_INT8, 4, d5, 0);
    int b4 = tfw_tensor(m, "b4", TFW_INT8, 4, d4, 0);
    tfw_quant1(m, x, 1.0f, 0);
    tfw_quant1(m, b5, 1.0f, 0);
    tfw_quant1(m, b4, 1.0f, 0);
    cb_op(m, 0, x, b5);
    cb_op(m, 0, x, b4);
    tfw_inputs(m, 1, &x);
    tfw_outputs(m, 2, (int[]){b5, b4});
    return m;
  }
  int dt = kind == BAD_FLOAT ? TFW_FLOAT32 : TFW_INT8;
  int32_t dx[4] = {1, kind == BAD_SHAPE ? 2 : 1, 1, D}, db[4] = {1, SLOTS, 1, D};
  int32_t df[4] = {OC, SLOTS, 1, D}, dbias[1] = {OC}, dy[4] = {1, 1, 1, OC};
  int x = tfw_tensor(m, "x", dt, 4, dx, 0);
  int buf = tfw_tensor(m, "buf", dt, 4, db, 0);
  if (dt == TFW_INT8) {
    tfw_quant1(m, x, x_scale, x_zp);
    tfw_quant1(m, buf, kind == BAD_QUANT ? 0.25f : x_scale, x_zp);
  }
  if (kind == BAD_VALID || kind == BAD_OPT_FLOAT || kind == BAD_OPT_KEY ||
      kind == BAD_OPT_BYTES) {
    uint8_t *bytes = NULL;
    size_t n;
    TfwFlexEntry e[2] = {{"cycles_max", 'f', 0, 1.5f}, {"a_stride", 'i', 2, 0}};
    if (kind == BAD_OPT_FLOAT)
      n = tfw_flex_map(e, 1, &bytes);
    else if (kind == BAD_OPT_KEY)
      n = tfw_flex_map((TfwFlexEntry[]){{"a_stride", 'i', 2, 0}, {"cycles_max", 'i', 2, 0}},
                       2, &bytes);
    else if (kind == BAD_OPT_BYTES) {
      n = 3;
      bytes = malloc(n);
      memcpy(bytes, "\x01\x02\x03", 3);
    } else {
      n = tfw_flex_map((TfwFlexEntry[]){{"cycles_max", 'i', 2, 0}}, 1, &bytes);
    }
    int one = 1;
    int valid = tfw_tensor(m, "valid", TFW_BOOL, 1, &one, 0);
    if (kind == BAD_VALID)
      tfw_custom_op(m, "CIRCULAR_BUFFER", bytes, n, 1, &x, 2, (int[]){buf, valid});
    else
      tfw_custom_op(m, "CIRCULAR_BUFFER", bytes, n, 1, &x, 1, &buf);
    free(bytes);
    tfw_inputs(m, 1, &x);
    tfw_outputs(m, 1, &buf);
    return m;
  }
  int side = -1, pad = -1, r = -1;
  if (kind == BARRIER) {
    /* op 0: PAD x to 300 channels (a big tensor), before the buffer. */
    int32_t dpad[2] = {4, 2}, dside[4] = {1, 1, 1, 300}, dr[4] = {1, 1, 1, 1};
    int32_t pads[8] = {0, 0, 0, 0, 0, 0, 0, 300 - D};
    pad = tfw_const(m, "pads", TFW_INT32, 2, dpad, pads);
    side = tfw_tensor(m, "side", TFW_INT8, 4, dside, 0);
    tfw_quant1(m, side, x_scale, x_zp);
    r = tfw_tensor(m, "r", TFW_INT8, 4, dr, 0);
    tfw_quant1(m, r, x_scale, x_zp);
    tfw_empty_options(m, tfw_op(m, TFW_OP_PAD, 2, (int[]){x, pad}, 1, &side));
  }
  cb_op(m, CYCLES, x, buf);
  int w = tfw_const(m, "filter", TFW_INT8, 4, df, filter);
  float bs[OC];
  int64_t zeros[OC] = {0, 0};
  for (int c = 0; c < OC; c++)
    bs[c] = x_scale * w_scale[c];
  tfw_quant(m, w, OC, w_scale, zeros, 0);
  int b = tfw_const(m, "bias", TFW_INT32, 1, dbias, bias);
  tfw_quant(m, b, OC, bs, zeros, 0);
  int y = tfw_tensor(m, "y", TFW_INT8, 4, dy, 0);
  tfw_quant1(m, y, y_scale, y_zp);
  tfw_conv2d_options(m, tfw_op(m, TFW_OP_CONV_2D, 3, (int[]){buf, w, b}, 1, &y),
                     TFW_PAD_VALID, 1, 1, TFW_ACT_NONE, 1, 1);
  if (kind == BARRIER) {
    int32_t axis = 3, one = 1;
    int ax = tfw_const(m, "axis", TFW_INT32, 1, &one, &axis);
    tfw_reducer_options(m, tfw_op(m, TFW_OP_REDUCE_MAX, 2, (int[]){side, ax}, 1, &r), 1);
    tfw_inputs(m, 1, &x);
    tfw_outputs(m, 2, (int[]){y, r});
    return m;
  }
  tfw_inputs(m, 1, &x);
  tfw_outputs(m, 2, (int[]){y, buf});
  return m;
}

/* ------------------------------------------- TFLM's arithmetic, here */

/* QuantizeMultiplier (quantization_util.cc): frexp, round(q * 2^31). */
static void quantize_multiplier_ref(double real, int32_t *mult, int *shift) {
  if (real == 0.0) {
    *mult = 0;
    *shift = 0;
    return;
  }
  double q = frexp(real, shift);
  int64_t q_fixed = (int64_t)round(q * (double)(1ll << 31));
  if (q_fixed == (1ll << 31)) {
    q_fixed /= 2;
    ++*shift;
  }
  if (*shift < -31) {
    *shift = 0;
    q_fixed = 0;
  }
  *mult = (int32_t)q_fixed;
}

/* SaturatingRoundingDoublingHighMul then RoundingDivideByPOT (gemmlowp). */
static int32_t mbqm_ref(int32_t x, int32_t mult, int shift) {
  int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
  int64_t a = (int64_t)x * (int64_t)(1ll << left);
  int32_t a32 = (int32_t)a; /* TFLM multiplies in int32; no overflow here */
  int32_t hi;
  if (a32 == INT32_MIN && mult == INT32_MIN) {
    hi = INT32_MAX;
  } else {
    int64_t ab = (int64_t)a32 * mult;
    int64_t nudge = ab >= 0 ? (1ll << 30) : 1 - (1ll << 30);
    hi = (int32_t)((ab + nudge) / (1ll << 31));
  }
  int32_t mask = (int32_t)((1ll << right) - 1);
  int32_t rem = hi & mask, threshold = (mask >> 1) + (hi < 0 ? 1 : 0);
  return (hi >> right) + (rem > threshold ? 1 : 0);
}

/* The stream model's CONV_2D over the whole buffer (one output pixel). */
static void conv_ref(const int8_t *buf, int8_t *y) {
  for (int oc = 0; oc < OC; oc++) {
    int32_t acc = bias[oc];
    for (int k = 0; k < SLOTS * D; k++)
      acc += ((int32_t)buf[k] - x_zp) * filter[oc * SLOTS * D + k];
    double eff = (double)x_scale * (double)w_scale[oc] / (double)y_scale;
    int32_t mult;
    int shift;
    quantize_multiplier_ref(eff, &mult, &shift);
    int32_t v = mbqm_ref(acc, mult, shift) + y_zp;
    y[oc] = (int8_t)(v < -128 ? -128 : v > 127 ? 127 : v);
  }
}

/* TFLM's CIRCULAR_BUFFER, one op: its output tensor and counter. */
typedef struct {
  int8_t data[8 * 8];
  int slots, depth, cycles_max, cycles_until_run;
} CbRef;

static void cb_prepare(CbRef *c, int slots, int depth, int cycles_max) {
  memset(c, 0, sizeof *c); /* TFLM's kernel test: the output starts as 0 bytes */
  c->slots = slots;
  c->depth = depth;
  c->cycles_max = cycles_max;
  c->cycles_until_run = cycles_max;
}

/* Eval: true for kTfLiteOk, false for kTfLiteAbort. */
static bool cb_eval(CbRef *c, const int8_t *in) {
  memmove(c->data, c->data + c->depth, (size_t)((c->slots - 1) * c->depth));
  memcpy(c->data + (c->slots - 1) * c->depth, in, (size_t)c->depth);
  if (--c->cycles_until_run != 0)
    return false;
  c->cycles_until_run = c->cycles_max;
  return true;
}

/* ------------------------------------------------ the calling program */

/* A main() for model `prefix` with outputs o0 (n0 bytes) and o1 (n1):
 * reads NTOTAL frames of `frame` bytes from argv[1], runs NCALLS of them,
 * resets, runs the rest; for each call writes the status (int32) and
 * both outputs to argv[2]. */
static const char *write_main(const char *dir, const char *prefix, const char *o0, int n0,
                              const char *o1, int n1, int frame) {
  char *U = arena_strdup(prefix);
  for (char *c = U; *c; c++)
    *c = (char)toupper((unsigned char)*c);
  const char *path = arena_printf("%s/main_%s.c", dir, prefix);
  FILE *f = fopen(path, "w");
  if (!f)
    return NULL;
  fprintf(f,
          "#include <stdio.h>\n#include <stdint.h>\n#include <string.h>\n"
          "#include \"%s.h\"\n"
          "static uint8_t ws[%s_WORKSPACE_SIZE + 1], ps[%s_PERSISTENT_SIZE];\n"
          "int main(int argc, char **argv) {\n"
          "  int8_t frames[%d][%d], o0[%d], o1[%d];\n"
          "  struct %s_inputs in;\n  struct %s_outputs out;\n"
          "  FILE *fi, *fo;\n  int k;\n"
          "  if (argc != 3 || !(fi = fopen(argv[1], \"rb\")) || !(fo = fopen(argv[2], \"wb\")))\n"
          "    return 2;\n"
          "  if (fread(frames, sizeof frames, 1, fi) != 1)\n    return 2;\n"
          "  memset(ps, 0xa5, sizeof ps);\n"
          "  %s_reset(ps);\n"
          "  for (k = 0; k < %d; k++) {\n"
          "    int32_t st;\n"
          "    if (k == %d)\n      %s_reset(ps);\n"
          "    memset(o0, 0x7f, sizeof o0);\n    memset(o1, 0x7f, sizeof o1);\n"
          "    memset(ws, k & 1 ? 0x3c : 0xc3, sizeof ws);\n"
          "    in.%s = frames[k];\n    out.%s = o0;\n    out.%s = o1;\n"
          "    st = %s_run(&in, &out, ws, ps);\n"
          "    if (st != 0 && st != %s_PENDING)\n      return 3;\n"
          "    fwrite(&st, 4, 1, fo);\n    fwrite(o0, sizeof o0, 1, fo);\n"
          "    fwrite(o1, sizeof o1, 1, fo);\n"
          "  }\n"
          "  return fclose(fo) != 0;\n}\n",
          prefix, U, U, NTOTAL, frame, n0, n1, prefix, prefix, prefix, NTOTAL, NCALLS,
          prefix, "x", o0, o1, prefix, U);
  fclose(f);
  return path;
}

/* Compiles model `kind` as `prefix`, builds the calling program with the
 * strict flags and runs it on the frames; returns the results (malloc'd,
 * *n bytes) or NULL. */
static uint8_t *run_stream(const char *tmp, int kind, const char *prefix, const char *o0,
                           int n0, const char *o1, int n1, int frame, size_t *n) {
  const char *model = arena_printf("%s/%s.tflite", tmp, prefix);
  TfwModel *m = build(kind);
  tfw_write_file(m, model);
  tfw_free(m);
  const char *dir = arena_printf("%s/%s", tmp, prefix);
  const char *fpath = arena_printf("%s/%s_frames.bin", tmp, prefix);
  FILE *f = fopen(fpath, "wb");
  for (int k = 0; k < NTOTAL; k++)
    fwrite(frames[k], (size_t)frame, 1, f);
  fclose(f);
  if (run_command(arena_printf("%s compile %s -o %s --prefix %s", quote(test_tinyaot()),
                               quote(model), quote(dir), prefix)))
    return NULL;
  const char *main_c = write_main(tmp, prefix, o0, n0, o1, n1, frame);
  const char *cc = getenv("CC");
  const char *extra = getenv("TINYAOT_CFLAGS");
  const char *exe = arena_printf("%s/%s_calls", tmp, prefix);
  if (!main_c ||
      run_command(arena_printf(
          "%s -std=c99 -Wall -Wextra -Werror -pedantic %s -I%s -I%s/runtime/include -o %s "
          "%s $(find %s -name '*.c') -lm",
          cc && *cc ? cc : "cc", extra ? extra : "", quote(dir), quote(dir), quote(exe),
          quote(main_c), quote(dir))))
    return NULL;
  const char *res = arena_printf("%s/%s_results.bin", tmp, prefix);
  if (run_command(arena_printf("%s %s %s", quote(exe), quote(fpath), quote(res))))
    return NULL;
  return slurp(res, n);
}

/* The call's record: status, then output 0, then output 1. */
static const char *check_call(const uint8_t *r, int k, bool ok, const int8_t *e0, int n0,
                              const int8_t *e1, int n1, int pending_value) {
  int32_t st;
  memcpy(&st, r, 4);
  if (st != (ok ? 0 : pending_value))
    return arena_printf("call %d returned %d, expected %d", k, st, ok ? 0 : pending_value);
  const int8_t *o[2] = {(const int8_t *)r + 4, (const int8_t *)r + 4 + n0};
  const int8_t *e[2] = {e0, e1};
  int ns[2] = {n0, n1};
  for (int j = 0; j < 2; j++)
    for (int i = 0; i < ns[j]; i++) {
      int want = e[j] ? e[j][i] : 0x7f; /* NULL: not written */
      if (o[j][i] != want)
        return arena_printf("call %d: output %d [%d] is %d, expected %d%s", k, j, i, o[j][i],
                            want, e[j] ? "" : " (not written)");
    }
  return "";
}

static void check_stream(const char *tmp) {
  size_t n;
  uint8_t *r = run_stream(tmp, STREAM, "stream", "y", OC, "buf", SLOTS * D, D, &n);
  size_t rec = 4 + OC + SLOTS * D;
  CHECK(r && n == NTOTAL * rec, "the stream model compiles, builds with -std=c99 -pedantic "
        "-Werror and runs %d calls (%zu bytes of results)", NTOTAL, r ? n : 0);
  if (!r || n != NTOTAL * rec) {
    free(r);
    return;
  }
  CbRef c;
  cb_prepare(&c, SLOTS, D, CYCLES);
  const char *why = "";
  int npending = 0, nok = 0;
  for (int k = 0; k < NTOTAL && !*why; k++) {
    if (k == NCALLS)
      cb_prepare(&c, SLOTS, D, CYCLES); /* reset: a fresh interpreter */
    bool ok = cb_eval(&c, frames[k]);
    int8_t y[OC];
    conv_ref(c.data, y);
    why = check_call(r + k * rec, k, ok, ok ? y : NULL, OC, ok ? c.data : NULL, SLOTS * D,
                     TA_PENDING);
    npending += !ok;
    nok += ok;
  }
  CHECK(!*why && npending >= 4 && nok >= 4,
        "the stream model matches TFLM over %d calls and a reset: %d pending (outputs "
        "untouched), %d with TFLM's buffer and CONV_2D output (%s)",
        NTOTAL, npending, nok, why);
  free(r);
}

static void check_auto(const char *tmp) {
  size_t n;
  uint8_t *r = run_stream(tmp, AUTO, "autocb", "b5", 20, "b4", 16, 4, &n);
  size_t rec = 4 + 20 + 16;
  CHECK(r && n == NTOTAL * rec, "the model of two buffers without options compiles, builds "
        "and runs (%zu bytes of results)", r ? n : 0);
  if (!r || n != NTOTAL * rec) {
    free(r);
    return;
  }
  CbRef c5, c4;
  const char *why = "";
  for (int k = 0; k < NTOTAL && !*why; k++) {
    if (k == 0 || k == NCALLS) {
      cb_prepare(&c5, 5, 4, 1); /* 5 slots: TFLM picks 1 */
      cb_prepare(&c4, 4, 4, 2); /* then 2 */
    }
    bool ok5 = cb_eval(&c5, frames[k]);
    bool ok4 = ok5 && cb_eval(&c4, frames[k]); /* TFLM stops at the first abort */
    why = check_call(r + k * rec, k, ok5 && ok4, ok5 ? c5.data : NULL, 20,
                     ok4 ? c4.data : NULL, 16, TA_PENDING);
  }
  CHECK(!*why, "without cycles_max the 5-slot buffer runs every call and the 4-slot one "
        "every other, as TFLM's Prepare picks; a pending call still wrote the first "
        "buffer's output (%s)", why);
  free(r);
}

/* `tinyaot run` with NCALLS inferences of the stream model. */
static void check_cli(const char *tmp) {
  const char *model = arena_printf("%s/stream.tflite", tmp);
  const char *cmd = arena_printf("%s run %s", quote(test_tinyaot()), quote(model));
  for (int k = 0; k < NCALLS; k++) {
    const char *in = arena_printf("%s/in%d.bin", tmp, k);
    FILE *f = fopen(in, "wb");
    fwrite(frames[k], D, 1, f);
    fclose(f);
    cmd = arena_printf("%s -i %s -o %s/y%d.bin -o %s/buf%d.bin", cmd, quote(in), tmp, k,
                       tmp, k);
  }
  const char *err = arena_printf("%s/run.err", tmp);
  int rc = run_command(arena_printf("(%s 2>%s)", cmd, quote(err)));
  size_t ne;
  uint8_t *text = slurp(err, &ne);
  char *msg = text ? arena_printf("%.*s", (int)ne, (const char *)text) : "";
  free(text);
  CbRef c;
  cb_prepare(&c, SLOTS, D, CYCLES);
  const char *why = rc ? arena_printf("exit status %d", rc) : "";
  for (int k = 0; k < NCALLS && !*why; k++) {
    bool ok = cb_eval(&c, frames[k]);
    const char *yp = arena_printf("%s/y%d.bin", tmp, k);
    const char *bp = arena_printf("%s/buf%d.bin", tmp, k);
    const char *note = arena_printf("inference %d: pending", k);
    if (!ok) {
      if (file_exists(yp) || file_exists(bp) || !strstr(msg, note))
        why = arena_printf("inference %d is pending but wrote its outputs or was not "
                           "reported", k);
      continue;
    }
    int8_t y[OC];
    conv_ref(c.data, y);
    size_t n1, n2;
    uint8_t *a = slurp(yp, &n1), *b = slurp(bp, &n2);
    if (!a || !b || n1 != OC || n2 != SLOTS * D || memcmp(a, y, OC) ||
        memcmp(b, c.data, SLOTS * D) || strstr(msg, note))
      why = arena_printf("inference %d: outputs differ from TFLM's or missing", k);
    free(a);
    free(b);
  }
  CHECK(!*why, "tinyaot run streams %d frames: pending inferences are reported on stderr "
        "and write no output file, the others match TFLM (%s)", NCALLS, why);
}

/* ------------------------------------------------------- in process */

static void check_barrier(void) {
  Graph *g = lowered(build(BARRIER), TA_ROUND_DOUBLE);
  CHECK(g != NULL, "the model with a side branch lowers (%s)", g ? "" : error_message);
  if (!g)
    return;
  int orders[2][8];
  for (int pass = 0; pass < 2; pass++) {
    /* pass 1: as if the buffer could not stop the run */
    ((Lowered *)g->ops[1].lowered)->pends = pass == 0;
    PlanOptions opt = {.align = 1};
    Plan *p = arena_alloc(sizeof *p);
    p->norder = g->nops;
    p->nsteps = g->nops;
    assign_storage(g, p, &opt);
    size_t peak;
    int *o = memory_order(g, p, true, &peak);
    for (int s = 0; s < g->nops && s < 8; s++)
      orders[pass][s] = o[s];
  }
  /* With the barrier: PAD first, the buffer second, then the other two
   * in either order (both run or neither).  Without it the order runs
   * the reduction before the buffer (it frees PAD's 300 bytes early). */
  bool kept = orders[0][0] == 0 && orders[0][1] == 1;
  bool moved = orders[1][1] == 3;
  CHECK(g->nops == 4 && kept && moved,
        "the memory order keeps PAD before and CONV_2D, REDUCE_MAX after the buffer "
        "(got %d %d %d %d; without the barrier %d %d %d %d)", orders[0][0], orders[0][1],
        orders[0][2], orders[0][3], orders[1][0], orders[1][1], orders[1][2], orders[1][3]);
}

/* Six buffers without options, outputs [1][4][2][96] but the last
 * [1][13][1][4]: TFLM picks 2 2 2 2 1 (the fifth) 2 ... and 1 for 13. */
static void check_default_count(void) {
  TfwModel *m = tfw_new();
  int32_t dx[4] = {1, 1, 2, 96}, db[4] = {1, 4, 2, 96}, dx2[4] = {1, 1, 1, 4},
          d13[4] = {1, 13, 1, 4};
  int x = tfw_tensor(m, "x", TFW_INT8, 4, dx, 0);
  int x2 = tfw_tensor(m, "x2", TFW_INT8, 4, dx2, 0);
  tfw_quant1(m, x, 1.0f, 0);
  tfw_quant1(m, x2, 1.0f, 0);
  int outs[7];
  for (int i = 0; i < 7; i++) {
    outs[i] = tfw_tensor(m, arena_printf("b%d", i), TFW_INT8, 4, i == 6 ? d13 : db, 0);
    tfw_quant1(m, outs[i], 1.0f, 0);
    cb_op(m, 0, i == 6 ? x2 : x, outs[i]);
  }
  tfw_inputs(m, 2, (int[]){x, x2});
  tfw_outputs(m, 7, outs);
  Graph *g = lowered(m, TA_ROUND_DOUBLE);
  static const int want[7] = {2, 2, 2, 2, 1, 2, 1};
  const char *got = "";
  bool ok = g != NULL;
  for (int i = 0; g && i < 7; i++) {
    const ConstObj *c = find_const(g, i, "params");
    const char *w = arena_printf(".cycles_max = %d}", want[i]);
    ok &= c && strstr(c->init, w) && g->ops[i].state_bytes == 4 + 4 * 2 * 96u * (i < 6) +
                                                              13 * 4u * (i == 6);
    got = arena_printf("%s %s", got, c ? strstr(c->init, ".cycles_max") : "?");
  }
  CHECK(ok, "without cycles_max, TFLM's count over the ops picks 2 2 2 2 1 2 and 1 for 13 "
        "slots (got%s%s)", got, g ? "" : error_message);
}

static void check_refusals(void) {
  static const struct {
    int kind;
    const char *text, *sentence;
  } cases[] = {
      {BAD_FLOAT, "float32 -> float32 is not supported: TFLM's CIRCULAR_BUFFER takes int8",
       "float32 frames are refused (TFLM takes int8 only)"},
      {BAD_VALID, "a second output", "the 'valid' second output is refused"},
      {BAD_OPT_FLOAT, "the option 'cycles_max' is not an integer",
       "a float cycles_max is refused"},
      {BAD_OPT_KEY, "unknown option 'a_stride'", "an unknown option is refused"},
      {BAD_OPT_BYTES, "are not a FlexBuffers map", "options that are no map are refused"},
      {BAD_SHAPE, "do not fit", "an input of two frames is refused"},
      {BAD_QUANT, "must share one quantization", "two quantizations are refused"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    Graph *g = lowered(build(cases[i].kind), TA_ROUND_DOUBLE);
    CHECK(!g && strstr(error_message, "test.tflite: ") &&
              strstr(error_message, "op 0 (CUSTOM:CIRCULAR_BUFFER)") &&
              strstr(error_message, cases[i].text),
          "%s, naming the op (got '%s')", cases[i].sentence, g ? "accepted" : error_message);
  }
}

int main(void) {
  for (int i = 0; i < OC * SLOTS * D; i++)
    filter[i] = next_byte();
  for (int k = 0; k < NTOTAL; k++)
    for (int j = 0; j < 4; j++)
      frames[k][j] = next_byte();
  check_refusals();
  check_default_count();
  check_barrier();
  char *tmp = test_tmpdir("circbuf");
  if (!tmp)
    return test_exit();
  check_stream(tmp);
  check_auto(tmp);
  check_cli(tmp);
  return test_end(tmp, "the models and programs are");
}
