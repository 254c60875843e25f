/* SPDX-License-Identifier: Apache-2.0 */
/*
 * int4 weights stay packed in flash (two per byte, element 2i in the low
 * nibble of byte i, as the .tflite file holds them) for int8 CONV_2D and
 * FULLY_CONNECTED: the kernels ta_conv2d_fold_w4_s8 and
 * ta_fully_connected_fold_w4_s8 unpack them into planned scratch on each
 * call, as TFLite Micro does.
 *
 * The model (tools/tflite_writer.c): x int8[1][4][4][3] -> CONV_2D (int4
 * filter [3][3][3][3], 81 weights, an odd count; per channel, SAME) ->
 * FULLY_CONNECTED (int4 filter [7][48], per tensor) -> y int8[1][7]; its
 * twin holds the same weights as int8 tensors (the form TFLite and the
 * oracle run).  Checks: the lowering picks the w4 kernels with the
 * packed bytes (41 and 168) and scratch for the unpacked filter; the
 * generated weights hold 41 + 168 bytes of filters where the twin's hold
 * 81 + 336; `tinyaot run` on four random inputs gives the twin's bytes
 * (the int8 kernels, which tests/ops/test_ops.sh's int8 rows compare
 * with TFLite; its int8_w4 rows compare these kernels with TFLite
 * directly).
 */
#define _POSIX_C_SOURCE 200809L
#include "model_test.h"

#include "lower_helpers.h"

#include <regex.h>

#define CO 3
#define NW1 (CO * 3 * 3 * 3)
#define FO 7
#define FI 48
#define NW2 (FO * FI)
#define NRUNS 4

static int8_t w1[NW1], w2[NW2];

static uint32_t lcg = 777;
static int rnd(int lo, int hi) {
  lcg = lcg * 1103515245u + 12345u;
  return lo + (int)((lcg >> 8) % (uint32_t)(hi - lo + 1));
}

/* The weights as int4 (packed) or int8. */
static int weights(TfwModel *m, const char *name, bool packed, int nd, const int32_t *d,
                   const int8_t *v, int n) {
  if (!packed)
    return tfw_const(m, name, TFW_INT8, nd, d, v);
  uint8_t *p = calloc((size_t)(n + 1) / 2, 1);
  for (int i = 0; i < n; i++)
    p[i / 2] |= (uint8_t)(((unsigned)v[i] & 0xfu) << (i % 2 ? 4 : 0));
  int t = tfw_tensor(m, name, TFW_INT4, nd, d, tfw_buffer(m, p, (size_t)(n + 1) / 2));
  free(p);
  return t;
}

static TfwModel *build(bool packed) {
  TfwModel *m = tfw_new();
  int32_t dx[4] = {1, 4, 4, 3}, dw1[4] = {CO, 3, 3, 3}, db1[1] = {CO}, dc[4] = {1, 4, 4, CO};
  int32_t dw2[2] = {FO, FI}, db2[1] = {FO}, dy[2] = {1, FO};
  int x = tfw_tensor(m, "x", TFW_INT8, 4, dx, 0);
  tfw_quant1(m, x, 0.05f, 3);
  int f1 = weights(m, "filter1", packed, 4, dw1, w1, NW1);
  float s1[CO] = {0.1f, 0.2f, 0.15f}, sb1[CO];
  int64_t z[CO] = {0, 0, 0};
  for (int c = 0; c < CO; c++)
    sb1[c] = 0.05f * s1[c];
  tfw_quant(m, f1, CO, s1, z, 0);
  int32_t bias1[CO] = {40, -70, 5}, bias2[FO] = {1, 2, 3, -4, -5, 6, 100};
  int b1 = tfw_const(m, "bias1", TFW_INT32, 1, db1, bias1);
  tfw_quant(m, b1, CO, sb1, z, 0);
  int c = tfw_tensor(m, "c", TFW_INT8, 4, dc, 0);
  tfw_quant1(m, c, 0.3f, -5);
  tfw_conv2d_options(m, tfw_op(m, TFW_OP_CONV_2D, 3, (int[]){x, f1, b1}, 1, &c), TFW_PAD_SAME,
                     1, 1, TFW_ACT_NONE, 1, 1);
  int f2 = weights(m, "filter2", packed, 2, dw2, w2, NW2);
  tfw_quant1(m, f2, 0.07f, 0);
  int b2 = tfw_const(m, "bias2", TFW_INT32, 1, db2, bias2);
  tfw_quant1(m, b2, 0.3f * 0.07f, 0);
  int y = tfw_tensor(m, "y", TFW_INT8, 2, dy, 0);
  tfw_quant1(m, y, 0.5f, 2);
  tfw_fully_connected_options(
      m, tfw_op(m, TFW_OP_FULLY_CONNECTED, 3, (int[]){c, f2, b2}, 1, &y), TFW_ACT_NONE, 0);
  tfw_inputs(m, 1, &x);
  tfw_outputs(m, 1, &y);
  return m;
}

static const ConstObj *const_named(const Graph *g, int op, const char *name) {
  const Lowered *l = op_lowered(&g->ops[op]);
  for (int i = 0; i < l->nconsts; i++)
    if (!strcmp(l->consts[i].name, name))
      return &l->consts[i];
  return NULL;
}

static void check_kernels(void) {
  Graph *g = lowered(build(true), TA_ROUND_DOUBLE);
  CHECK(g != NULL, "the int4 model lowers (%s)", g ? "" : error_message);
  if (!g)
    return;
  const Lowered *l0 = op_lowered(&g->ops[0]), *l1 = op_lowered(&g->ops[1]);
  const ConstObj *k0 = const_named(g, 0, "filter4"), *k1 = const_named(g, 1, "filter4");
  CHECK(l0->kernel && !strcmp(l0->kernel, "ta_conv2d_fold_w4_s8") && k0 &&
            k0->count == (NW1 + 1) / 2 && k0->dtype == DT_UINT8,
        "CONV_2D with int4 weights runs ta_conv2d_fold_w4_s8 on the %d packed bytes of its "
        "%d weights (got %s, %zu)", (NW1 + 1) / 2, NW1, l0->kernel ? l0->kernel : "none",
        k0 ? k0->count : 0);
  CHECK(l1->kernel && !strcmp(l1->kernel, "ta_fully_connected_fold_w4_s8") && k1 &&
            k1->count == NW2 / 2 && g->ops[1].scratch_bytes == NW2,
        "FULLY_CONNECTED with int4 weights runs ta_fully_connected_fold_w4_s8 on %d packed "
        "bytes with %d bytes of scratch (got %s, %zu, %zu)", NW2 / 2, NW2,
        l1->kernel ? l1->kernel : "none", k1 ? k1->count : 0, g->ops[1].scratch_bytes);
  size_t fold = g->ops[0].scratch_bytes >= (NW1 + 3) / 4 * 4
                    ? g->ops[0].scratch_bytes - (NW1 + 3) / 4 * 4 : 0;
  CHECK(fold > 0, "CONV_2D's scratch holds the unpacked filter (%d bytes, rounded to 4) "
        "and the int8 kernel's own (%zu in all)", NW1, g->ops[0].scratch_bytes);
}

/* Bytes of every int8/uint8 array in P_weights.c (the filters). */
static long byte_arrays(const char *path) {
  size_t n;
  uint8_t *text = slurp(path, &n);
  if (!text)
    return -1;
  char *s = arena_printf("%.*s", (int)n, (const char *)text);
  free(text);
  regex_t re;
  if (regcomp(&re, "const u?int8_t [A-Za-z0-9_]+\\[([0-9]+)\\] ", REG_EXTENDED))
    return -1;
  long sum = 0;
  regmatch_t mt[2];
  for (const char *p = s; !regexec(&re, p, 2, mt, 0); p += mt[0].rm_eo)
    sum += strtol(p + mt[1].rm_so, NULL, 10);
  regfree(&re);
  return sum;
}

int main(void) {
  for (int i = 0; i < NW1; i++)
    w1[i] = (int8_t)rnd(-8, 7);
  for (int i = 0; i < NW2; i++)
    w2[i] = (int8_t)rnd(-8, 7);
  w1[0] = -8; /* both extremes of the nibble */
  w1[1] = 7;
  check_kernels();

  char *tmp = test_tmpdir("int4w");
  if (!tmp)
    return test_exit();
  const char *tag[2] = {"packed", "twin"};
  long bytes[2];
  for (int k = 0; k < 2; k++) {
    const char *model = arena_printf("%s/%s.tflite", tmp, tag[k]);
    TfwModel *m = build(k == 0);
    tfw_write_file(m, model);
    tfw_free(m);
    int rc = run_command(arena_printf("%s compile %s -o %s/%s --prefix m", quote(test_tinyaot()),
                                      quote(model), tmp, tag[k]));
    bytes[k] = rc ? -1 : byte_arrays(arena_printf("%s/%s/m_weights.c", tmp, tag[k]));
  }
  /* The int8 CONV_2D's filter is packed for the DSP entry, its rows of
   * 27 taps padded to 28 (ta_pack_rows_s8()). */
  CHECK(bytes[0] == (NW1 + 1) / 2 + NW2 / 2 && bytes[1] == CO * 28 + NW2,
        "the emitted int4 filters take %d bytes of flash where the same int8 weights take "
        "%d (got %ld and %ld)", (NW1 + 1) / 2 + NW2 / 2, CO * 28 + NW2, bytes[0], bytes[1]);

  const char *io[2] = {"", ""};
  for (int r = 0; r < NRUNS; r++) {
    int8_t x[48];
    for (int i = 0; i < 48; i++)
      x[i] = (int8_t)rnd(-128, 127);
    const char *in = arena_printf("%s/x%d.bin", tmp, r);
    FILE *f = fopen(in, "wb");
    fwrite(x, sizeof x, 1, f);
    fclose(f);
    for (int k = 0; k < 2; k++)
      io[k] = arena_printf("%s -i %s -o %s/%s_y%d.bin", io[k], quote(in), tmp, tag[k], r);
  }
  const char *why = "";
  for (int k = 0; k < 2 && !*why; k++)
    if (run_command(arena_printf("%s run %s/%s.tflite%s", quote(test_tinyaot()), tmp, tag[k],
                                 io[k])))
      why = arena_printf("tinyaot run failed on the %s model", tag[k]);
  for (int r = 0; r < NRUNS && !*why; r++)
    why = compare_files(arena_printf("%s/twin_y%d.bin", tmp, r),
                        arena_printf("%s/packed_y%d.bin", tmp, r));
  CHECK(!*why, "on %d random inputs the packed model's outputs equal the int8 twin's "
        "byte for byte (%s)", NRUNS, why);
  return test_end(tmp, "the models are");
}
