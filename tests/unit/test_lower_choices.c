/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The lowering's choices that depend on the op's size or the rounding
 * mode (compiler/lower.c), on one-op models written in memory
 * (tools/tflite_writer.c):
 *
 *  - int8 ADD gets its input tables (add_tables()) from 1024 output
 *    elements on, and they hold the scaled value of every input byte as
 *    TFLite's AddElementwise computes it: (x + offset) << left_shift,
 *    then MultiplyByQuantizedMultiplierSmallerThanOneExp;
 *  - int8 SOFTMAX gets its exp table from 256 elements on;
 *  - int8 LOG_SOFTMAX: TFLM's fixed point and its parameters, TFLite's
 *    float table with --rounding single; the output must be 16/256, 127;
 *  - int8 -> int16 SOFTMAX: TFLM's CalculateSoftmaxParams requires zero
 *    point -32768 and scale 1/65536 within 0.001/65536
 *    (TF_LITE_ENSURE_NEAR); 1/65536 * (1 +- 0.0009) passes, (1 + 0.0011)
 *    and zero point -32767 are refused;
 *  - QUANTIZE float -> int16 divides in double only with --rounding
 *    single (TFLite's int16 QUANTIZE); float -> int8 always in float;
 *  - a DEPTHWISE_CONV_2D of a one-channel input runs as CONV_2D with its
 *    filter 1HW(M) transposed to OHWI, the folded bias computed from it,
 *    and two or more input channels stay depthwise;
 *  - an int8 FULLY_CONNECTED after a CONV_2D on its DSP entry runs on
 *    that entry as a 1x1 convolution (fc_as_conv() in lower_nn.c) when
 *    its requantization fits and its columns stay within 1 KiB;
 *  - --fuse-add runs an int8 ADD of a CONV_2D's output in that
 *    convolution's epilogue (lower_fuse.c) from ADD_TABLE_MIN elements
 *    on, unless the output is read elsewhere;
 *  - the int8 convolutions' ta_quant.mmla is ta_quant_mmla_ok() of the
 *    lowered multipliers, shifts and folded bias: 1 when the SMMLAR
 *    requantization fits (3 for CONV_2D, whose bias is then the DSP
 *    entry's records, ta_pack_records()), 0 with single rounding
 *    or a left shift.
 */
#include "test.h"
#include "tinyaot.h"
#include "ta_fixedpoint.h"
#include "ta_kernels.h"
#include "ta_pack.h"
#include "lower.h"

#include "lower_helpers.h"

/* in1 + in2 -> out, int8 [1, n]. */
static TfwModel *add_model(int32_t n) {
  TfwModel *m = tfw_new();
  int32_t d[2] = {1, n};
  int a = tfw_tensor(m, "a", TFW_INT8, 2, d, 0), b = tfw_tensor(m, "b", TFW_INT8, 2, d, 0);
  int o = tfw_tensor(m, "o", TFW_INT8, 2, d, 0);
  tfw_quant1(m, a, 0.05f, -3);
  tfw_quant1(m, b, 0.02f, 7);
  tfw_quant1(m, o, 0.06f, 1);
  int in[2] = {a, b};
  int op = tfw_op(m, TFW_OP_ADD, 2, in, 1, &o);
  tfw_add_options(m, op, TFW_ACT_NONE, 1);
  tfw_inputs(m, 2, in);
  tfw_outputs(m, 1, &o);
  return m;
}

static void test_add_tables(void) {
  Graph *g = lowered(add_model(1023), TA_ROUND_DOUBLE);
  CHECK(g && !find_const(g, 0, "table1") && !find_const(g, 0, "table2"),
        "an int8 ADD of 1023 elements computes its input scaling at run time %s", error_message);
  g = lowered(add_model(1024), TA_ROUND_DOUBLE);
  const ConstObj *t1 = g ? find_const(g, 0, "table1") : NULL;
  const ConstObj *t2 = g ? find_const(g, 0, "table2") : NULL;
  const ConstObj *pc = g ? find_const(g, 0, "params") : NULL;
  CHECK(t1 && t2 && t1->count == 256 && t2->count == 256 && pc &&
            strstr(pc->init, ".table1 = @table1") && strstr(pc->init, ".table2 = @table2"),
        "an int8 ADD of 1024 elements passes two 256-entry input tables %s", error_message);
  if (!t1 || !t2)
    return;
  /* The tables against TFLite's per-element steps, from the scales:
   * left shift 20, twice_max = 2 * 0.05, real1 = 0.05 / 0.1,
   * real2 = 0.02 / 0.1 (QuantizeMultiplierSmallerThanOneExp). */
  int32_t m1, s1, m2, s2;
  const double twice_max = 2.0 * (double)0.05f;
  quantize_multiplier_smaller_than_one_exp((double)0.05f / twice_max, TA_ROUND_DOUBLE, &m1, &s1);
  quantize_multiplier_smaller_than_one_exp((double)0.02f / twice_max, TA_ROUND_DOUBLE, &m2, &s2);
  int bad = -1;
  for (int v = -128; v < 128 && bad < 0; v++) {
    int32_t e1 = ta_requant_le1((int32_t)((uint32_t)(v + 3) << 20), m1, s1, TA_ROUND_DOUBLE);
    int32_t e2 = ta_requant_le1((int32_t)((uint32_t)(v - 7) << 20), m2, s2, TA_ROUND_DOUBLE);
    if (((const int32_t *)t1->data)[(uint8_t)v] != e1 ||
        ((const int32_t *)t2->data)[(uint8_t)v] != e2)
      bad = v;
  }
  CHECK(bad < 0, "the ADD tables hold ((x - zero point) << 20) requantized by each input's "
                 "multiplier for every byte%s%d",
        bad < 0 ? "" : ": first wrong at x = ", bad < 0 ? 0 : bad);
}

/* SOFTMAX in [1, n] -> out, int8 -> out_dtype. */
static TfwModel *softmax_model(int32_t n, int out_dtype, float out_scale, int64_t out_zp) {
  TfwModel *m = tfw_new();
  int32_t d[2] = {1, n};
  int in = tfw_tensor(m, "in", TFW_INT8, 2, d, 0);
  int out = tfw_tensor(m, "out", out_dtype, 2, d, 0);
  tfw_quant1(m, in, 0.1f, 2);
  tfw_quant1(m, out, out_scale, out_zp);
  int op = tfw_op(m, TFW_OP_SOFTMAX, 1, &in, 1, &out);
  tfw_softmax_options(m, op, 1.0f);
  tfw_inputs(m, 1, &in);
  tfw_outputs(m, 1, &out);
  return m;
}

static void test_softmax(void) {
  Graph *g = lowered(softmax_model(255, TFW_INT8, 1.0f / 256, -128), TA_ROUND_DOUBLE);
  CHECK(g && !find_const(g, 0, "exp_table"),
        "an int8 SOFTMAX of 255 elements computes its exps at run time %s", error_message);
  g = lowered(softmax_model(256, TFW_INT8, 1.0f / 256, -128), TA_ROUND_DOUBLE);
  const ConstObj *t = g ? find_const(g, 0, "exp_table") : NULL;
  const ConstObj *pc = g ? find_const(g, 0, "params") : NULL;
  CHECK(t && t->count == 256 && pc && strstr(pc->init, ".exp_table = @exp_table") &&
            ((const int32_t *)t->data)[0] == INT32_MAX,
        "an int8 SOFTMAX of 256 elements passes the exp table (exp(0) = INT32_MAX first) %s",
        error_message);

  const float s = 1.0f / 65536;
  g = lowered(softmax_model(10, TFW_INT16, s * (1 + 0.0009f), -32768), TA_ROUND_DOUBLE);
  CHECK(g != NULL, "int8 -> int16 SOFTMAX accepts scale 1/65536 * 1.0009 (TFLM's tolerance "
                   "is 0.001/65536) %s",
        error_message);
  g = lowered(softmax_model(10, TFW_INT16, s * (1 - 0.0009f), -32768), TA_ROUND_DOUBLE);
  CHECK(g != NULL, "int8 -> int16 SOFTMAX accepts scale 1/65536 * 0.9991 %s", error_message);
  g = lowered(softmax_model(10, TFW_INT16, s * (1 + 0.0011f), -32768), TA_ROUND_DOUBLE);
  CHECK(!g && strstr(error_message, "1/65536"),
        "int8 -> int16 SOFTMAX refuses scale 1/65536 * 1.0011, as TFLM does (%s)",
        error_message);
  g = lowered(softmax_model(10, TFW_INT16, 1.0f / 256, -32768), TA_ROUND_DOUBLE);
  CHECK(!g && strstr(error_message, "1/65536"),
        "int8 -> int16 SOFTMAX refuses scale 1/256 (%s)", error_message);
  g = lowered(softmax_model(10, TFW_INT16, s, -32767), TA_ROUND_DOUBLE);
  CHECK(!g && strstr(error_message, "-32768"),
        "int8 -> int16 SOFTMAX refuses zero point -32767 (%s)", error_message);
}

/* LOG_SOFTMAX int8 [2, 10], input scale 0.1 (zero point 2). */
static TfwModel *log_softmax_model(float out_scale, int64_t out_zp) {
  TfwModel *m = tfw_new();
  int32_t d[2] = {2, 10};
  int in = tfw_tensor(m, "in", TFW_INT8, 2, d, 0);
  int out = tfw_tensor(m, "out", TFW_INT8, 2, d, 0);
  tfw_quant1(m, in, 0.1f, 2);
  tfw_quant1(m, out, out_scale, out_zp);
  tfw_op(m, 50 /* LOG_SOFTMAX */, 1, &in, 1, &out);
  tfw_inputs(m, 1, &in);
  tfw_outputs(m, 1, &out);
  return m;
}

/* PreprocessLogSoftmaxScalingExp for input scale 0.1f = 13421773 *
 * 2^-27: 0.1f * 2^26 = 13421773 / 2 = (13421773 / 2^24) * 2^23, so the
 * multiplier 13421773 * 2^7 = 1717986944, left shift 23; the reverse
 * divisor 2^8 / 1717986944 = 2 / 13421773 = 0.62499995 * 2^-22, in
 * QuantizeMultiplier's terms round(2^31 * 2^22 * 2 / 13421773) =
 * 1342177260, shift -22; diff_min = -floor(31 * 2^26 / 2^23) = -248. */
static void test_log_softmax(void) {
  Graph *g = lowered(log_softmax_model(16.0f / 256, 127), TA_ROUND_DOUBLE);
  const ConstObj *pc = g ? find_const(g, 0, "params") : NULL;
  CHECK(g && !strcmp(op_lowered(&g->ops[0])->kernel, "ta_log_softmax_s8") && pc &&
            strstr(pc->init, ".input_multiplier = 1717986944") &&
            strstr(pc->init, ".input_left_shift = 23") &&
            strstr(pc->init, ".reverse_multiplier = 1342177260, .reverse_shift = -22") &&
            strstr(pc->init, ".diff_min = -248"),
        "int8 LOG_SOFTMAX runs TFLM's fixed point with PreprocessLogSoftmaxScalingExp's "
        "parameters (%s)", pc ? pc->init : error_message);
  g = lowered(log_softmax_model(16.0f / 256, 127), TA_ROUND_SINGLE);
  CHECK(g && !strcmp(op_lowered(&g->ops[0])->kernel, "ta_log_softmax_table_s8") &&
            find_const(g, 0, "table"),
        "with --rounding single it runs TFLite's float table %s", error_message);
  g = lowered(log_softmax_model(1.0f / 16 * 1.0001f, 127), TA_ROUND_DOUBLE);
  CHECK(!g && strstr(error_message, "op 0 (LOG_SOFTMAX): the output's quantization must be "
                                    "scale 16/256, zero point 127"),
        "an output scale other than 16/256 is refused: '%s'", error_message);
  g = lowered(log_softmax_model(16.0f / 256, 126), TA_ROUND_DOUBLE);
  CHECK(!g && strstr(error_message, "zero point 127"),
        "an output zero point other than 127 is refused: '%s'", error_message);
}

/* QUANTIZE float [1, 8] -> out_dtype. */
static TfwModel *quantize_model(int out_dtype) {
  TfwModel *m = tfw_new();
  int32_t d[2] = {1, 8};
  int in = tfw_tensor(m, "in", TFW_FLOAT32, 2, d, 0);
  int out = tfw_tensor(m, "out", out_dtype, 2, d, 0);
  tfw_quant1(m, out, 0.01f, 0);
  tfw_op(m, TFW_OP_QUANTIZE, 1, &in, 1, &out);
  tfw_inputs(m, 1, &in);
  tfw_outputs(m, 1, &out);
  return m;
}

static void test_quantize(void) {
  const char *k[4] = {"", "", "", ""};
  Graph *g = lowered(quantize_model(TFW_INT16), TA_ROUND_DOUBLE);
  if (g)
    k[0] = op_lowered(&g->ops[0])->kernel;
  g = lowered(quantize_model(TFW_INT16), TA_ROUND_SINGLE);
  if (g)
    k[1] = op_lowered(&g->ops[0])->kernel;
  g = lowered(quantize_model(TFW_INT8), TA_ROUND_DOUBLE);
  if (g)
    k[2] = op_lowered(&g->ops[0])->kernel;
  g = lowered(quantize_model(TFW_INT8), TA_ROUND_SINGLE);
  if (g)
    k[3] = op_lowered(&g->ops[0])->kernel;
  CHECK(!strcmp(k[0], "ta_quantize_f32_s16") && !strcmp(k[1], "ta_quantize_double_f32_s16") &&
            !strcmp(k[2], "ta_quantize_f32_s8") && !strcmp(k[3], "ta_quantize_f32_s8"),
        "QUANTIZE float -> int16 divides in double only with --rounding single, float -> "
        "int8 never (got %s, %s, %s, %s)",
        k[0], k[1], k[2], k[3]);
}

/* DEPTHWISE_CONV_2D int8 [1,4,4,c] -> [1,4,4,c*3] (depth multiplier 3),
 * filter 1x2x2x(3c) with value 10 * tap + channel, SAME padding. */
static TfwModel *depthwise_model_out(int32_t c, float out_scale) {
  TfwModel *m = tfw_new();
  int32_t di[4] = {1, 4, 4, c}, dout[4] = {1, 4, 4, 3 * c}, df[4] = {1, 2, 2, 3 * c};
  int8_t f[4 * 3 * 4];
  for (int t = 0; t < 4; t++)
    for (int o = 0; o < 3 * c; o++)
      f[t * 3 * c + o] = (int8_t)(10 * t + o);
  int in = tfw_tensor(m, "in", TFW_INT8, 4, di, 0);
  int fi = tfw_const(m, "f", TFW_INT8, 4, df, f);
  int out = tfw_tensor(m, "out", TFW_INT8, 4, dout, 0);
  tfw_quant1(m, in, 0.5f, 3);
  tfw_quant1(m, fi, 0.25f, 0);
  tfw_quant1(m, out, out_scale, -1);
  int ins[2] = {in, fi};
  int op = tfw_op(m, TFW_OP_DEPTHWISE_CONV_2D, 2, ins, 1, &out);
  tfw_depthwise_options(m, op, TFW_PAD_SAME, 1, 1, 3, TFW_ACT_NONE, 1, 1);
  tfw_inputs(m, 1, &in);
  tfw_outputs(m, 1, &out);
  return m;
}

static TfwModel *depthwise_model(int32_t c) { return depthwise_model_out(c, 1.0f); }

static void test_depthwise_one_channel(void) {
  Graph *g = lowered(depthwise_model(1), TA_ROUND_DOUBLE);
  const Lowered *l = g ? op_lowered(&g->ops[0]) : NULL;
  const ConstObj *f = g ? find_const(g, 0, "filter") : NULL;
  const ConstObj *b = g ? find_const(g, 0, "bias") : NULL;
  int ok = l && f && b && !strcmp(l->kernel, "ta_conv2d_fold_dsp_s8") && f->count == 12;
  /* OHWI: output channel o, tap t holds 10 t + o, packed for the DSP
   * entry (channels 0 and 1 four taps each, then channel 2: the rows in
   * order for 4 taps); the folded bias is -3 * (sum of the row) =
   * -3 * (60 + 4 o), in the records at 0, 1 (the pair) and 8. */
  static const int at[3] = {0, 1, 8};
  for (int o = 0; ok && o < 3; o++) {
    for (int t = 0; t < 4; t++)
      ok &= ((const int8_t *)f->data)[o * 4 + t] == 10 * t + o;
    ok &= ((const int32_t *)b->data)[at[o]] == -3 * (60 + 4 * o);
  }
  CHECK(ok, "a one-channel DEPTHWISE_CONV_2D runs as CONV_2D with the filter transposed to "
            "OHWI and the bias folded from it (%s) %s",
        l ? l->kernel : "-", error_message);
  g = lowered(depthwise_model(2), TA_ROUND_DOUBLE);
  l = g ? op_lowered(&g->ops[0]) : NULL;
  CHECK(l && !strcmp(l->kernel, "ta_depthwise_conv2d_fold_portable_s8"),
        "a two-channel DEPTHWISE_CONV_2D stays depthwise (%s) %s", l ? l->kernel : "-",
        error_message);
}

/* CONV_2D int8 [1,4,4,2] -> [1,4,4,3], filter 3x2x2x2 of ones, scales as
 * depthwise_model()'s, SAME padding. */
static TfwModel *conv_model(void) {
  TfwModel *m = tfw_new();
  int32_t di[4] = {1, 4, 4, 2}, dout[4] = {1, 4, 4, 3}, df[4] = {3, 2, 2, 2};
  int8_t f[24];
  for (int i = 0; i < 24; i++)
    f[i] = 1;
  int in = tfw_tensor(m, "in", TFW_INT8, 4, di, 0);
  int fi = tfw_const(m, "f", TFW_INT8, 4, df, f);
  int out = tfw_tensor(m, "out", TFW_INT8, 4, dout, 0);
  tfw_quant1(m, in, 0.5f, 3);
  tfw_quant1(m, fi, 0.25f, 0);
  tfw_quant1(m, out, 1.0f, -1);
  int ins[2] = {in, fi};
  int op = tfw_op(m, TFW_OP_CONV_2D, 2, ins, 1, &out);
  tfw_conv2d_options(m, op, TFW_PAD_SAME, 1, 1, TFW_ACT_NONE, 1, 1);
  tfw_inputs(m, 1, &in);
  tfw_outputs(m, 1, &out);
  return m;
}

/* m (freed) lowered with the rounding and alignment given. */
static Graph *lowered_aligned(TfwModel *m, int rounding, size_t align) {
  LowerOptions o = {.rounding = rounding, .align = align};
  Graph *g = compile_model(m, "test.tflite", &o);
  tfw_free(m);
  return g;
}

/* Op 0's ta_quant.mmla (the last field of its "quant" initializer), -1
 * when there is none.  *want: what the constants say it should be: g's
 * "mult", "shift" and folded "bias" when it has them (ta_quant_mmla_ok()),
 * else, the records, those of plain (the same op lowered with --align 2,
 * where no DSP entry takes records: its multipliers, shifts and folded
 * bias) rebuilt by ta_pack_records() (TA_MMLA_RECORDS) or
 * ta_pack_records_doubled() (TA_MMLA_DOUBLED), -3 when they differ. */
static int quant_mmla(Graph *g, Graph *plain, int taps, int *want) {
  const ConstObj *qc = g ? find_const(g, 0, "quant") : NULL;
  const ConstObj *b = g ? find_const(g, 0, "bias") : NULL;
  Graph *src = g && find_const(g, 0, "mult") ? g : plain;
  const ConstObj *m = src ? find_const(src, 0, "mult") : NULL;
  const ConstObj *sh = src ? find_const(src, 0, "shift") : NULL;
  const ConstObj *fb = src ? find_const(src, 0, "bias") : NULL;
  *want = -2;
  if (!qc || !b || !m || !sh || !fb)
    return -1;
  const char *last = strrchr(qc->init, ',');
  const ConstObj *pq = find_const(src, 0, "quant");
  int per = strstr(pq->init, "@shift, 1,") != NULL;
  ta_quant q = {(const int32_t *)m->data, (const int32_t *)sh->data, per,
                strstr(qc->init, "TA_ROUND_SINGLE") ? TA_ROUND_SINGLE : TA_ROUND_DOUBLE, 0};
  const int got = last ? atoi(last + 1) : -1;
  const Tensor *out = &g->tensors[g->ops[0].outputs[0]];
  const int32_t nch = out->dims[out->ndims - 1], off = (int32_t)zp_of(out);
  const int32_t *fold = (const int32_t *)fb->data;
  *want = ta_quant_mmla_ok(&q, nch, fold, taps);
  if (got > 0 && (got & (TA_MMLA_RECORDS | TA_MMLA_DOUBLED))) {
    int32_t *rec = malloc(sizeof(int32_t) * 4 * (size_t)nch);
    size_t n = got & TA_MMLA_RECORDS ? ta_pack_records(&q, nch, fold, taps, off, 2, rec)
                                     : ta_pack_records_doubled(&q, nch, fold, taps, off, rec);
    *want = 1 | (got & (TA_MMLA_RECORDS | TA_MMLA_DOUBLED));
    if (!n || n != b->count || memcmp(rec, b->data, sizeof(int32_t) * n) ||
        find_const(g, 0, "mult"))
      *want = -3; /* records that are not the constants', or multipliers besides */
    free(rec);
  }
  return got;
}

static TfwModel *dw1_model(float out_scale);

static void test_conv_mmla(void) {
  /* Real multiplier 0.5 * 0.25 / 1 = 2^-3: (2^30, -2), four taps. */
  int want, got = quant_mmla(lowered(depthwise_model(2), TA_ROUND_DOUBLE), NULL, 4, &want);
  CHECK(got == 1 && want == 1,
        "an int8 DEPTHWISE_CONV_2D whose requantization fits SMMLAR says so in ta_quant.mmla "
        "(%d, ta_quant_mmla_ok() %d) %s", got, want, error_message);
  got = quant_mmla(lowered(dw1_model(1.0f), TA_ROUND_DOUBLE),
                   lowered_aligned(dw1_model(1.0f), TA_ROUND_DOUBLE, 2), 9, &want);
  CHECK(got == (1 | TA_MMLA_DOUBLED) && want == got,
        "one the 3 x 3 path takes gets that path's records (ta_pack_records_doubled()) "
        "instead of the folded bias, and no multipliers (TA_MMLA_DOUBLED: %d, %d) %s", got,
        want, error_message);
  got = quant_mmla(lowered(depthwise_model(1), TA_ROUND_DOUBLE),
                   lowered_aligned(depthwise_model(1), TA_ROUND_DOUBLE, 2), 4, &want);
  CHECK(got == (1 | TA_MMLA_RECORDS) && want == got,
        "so does the CONV_2D a one-channel DEPTHWISE_CONV_2D becomes, with the DSP entry's "
        "records (TA_MMLA_RECORDS: %d, %d) %s", got, want, error_message);
  got = quant_mmla(lowered(conv_model(), TA_ROUND_DOUBLE),
                   lowered_aligned(conv_model(), TA_ROUND_DOUBLE, 2), 8, &want);
  CHECK(got == (1 | TA_MMLA_RECORDS) && want == got,
        "and an int8 CONV_2D of 8 taps (%d, %d) %s", got, want, error_message);
  got = quant_mmla(lowered(conv_model(), TA_ROUND_SINGLE), NULL, 8, &want);
  CHECK(got == 0 && want == 0,
        "single rounding (CONV_2D under --rounding single) leaves ta_quant.mmla 0 (%d, "
        "ta_quant_mmla_ok() %d) %s", got, want, error_message);
  /* Out scale 0.05: real multiplier 2.5, a left shift. */
  got = quant_mmla(lowered(depthwise_model_out(2, 0.05f), TA_ROUND_DOUBLE), NULL, 4, &want);
  CHECK(got == 0 && want == 0,
        "a requantization with a left shift leaves ta_quant.mmla 0 (%d, %d) %s", got, want,
        error_message);
}

/* The kernel entry (and the backward one, or "-") of op 0 of m lowered
 * with rounding and alignment align; "refused" when it is. */
static const char *kernel_of(TfwModel *m, int rounding, size_t align, const char **rev) {
  LowerOptions o = {.rounding = rounding, .align = align};
  Graph *g = compile_model(m, "test.tflite", &o);
  tfw_free(m);
  const Lowered *l = g ? op_lowered(&g->ops[0]) : NULL;
  *rev = l && l->overlap.reverse_kernel ? l->overlap.reverse_kernel : "-";
  return l ? l->kernel : "refused";
}

/* int8 FULLY_CONNECTED [1,depth] -> [1,4], weights of ones; input scale
 * 0.5, filter 0.25, output out_scale. */
static TfwModel *fc_model_depth(int32_t depth, float out_scale) {
  TfwModel *m = tfw_new();
  int32_t di[2] = {1, depth}, dout[2] = {1, 4}, df[2] = {4, depth};
  int8_t f[4 * 16]; /* depth <= 16 */
  for (int i = 0; i < 4 * 16; i++)
    f[i] = 1;
  int in = tfw_tensor(m, "in", TFW_INT8, 2, di, 0);
  int fi = tfw_const(m, "f", TFW_INT8, 2, df, f);
  int out = tfw_tensor(m, "out", TFW_INT8, 2, dout, 0);
  tfw_quant1(m, in, 0.5f, 3);
  tfw_quant1(m, fi, 0.25f, 0);
  tfw_quant1(m, out, out_scale, -1);
  int ins[2] = {in, fi};
  tfw_op(m, TFW_OP_FULLY_CONNECTED, 2, ins, 1, &out);
  tfw_inputs(m, 1, &in);
  tfw_outputs(m, 1, &out);
  return m;
}

static TfwModel *fc_model(float out_scale) { return fc_model_depth(8, out_scale); }

/* DEPTHWISE_CONV_2D int8 [1,4,w,4] -> [1,4,w,4], depth multiplier 1,
 * filter 1xkxkx4 of ones, SAME padding, output scale out_scale. */
static TfwModel *dw1_model_shape(int32_t w, int32_t k, float out_scale) {
  TfwModel *m = tfw_new();
  int32_t di[4] = {1, 4, w, 4}, df[4] = {1, k, k, 4};
  int8_t f[100];
  for (int i = 0; i < 100; i++)
    f[i] = 1;
  int in = tfw_tensor(m, "in", TFW_INT8, 4, di, 0);
  int fi = tfw_const(m, "f", TFW_INT8, 4, df, f);
  int out = tfw_tensor(m, "out", TFW_INT8, 4, di, 0);
  tfw_quant1(m, in, 0.5f, 3);
  tfw_quant1(m, fi, 0.25f, 0);
  tfw_quant1(m, out, out_scale, -1);
  int ins[2] = {in, fi};
  int op = tfw_op(m, TFW_OP_DEPTHWISE_CONV_2D, 2, ins, 1, &out);
  tfw_depthwise_options(m, op, TFW_PAD_SAME, 1, 1, 1, TFW_ACT_NONE, 1, 1);
  tfw_inputs(m, 1, &in);
  tfw_outputs(m, 1, &out);
  return m;
}

static TfwModel *dw1_model(float out_scale) { return dw1_model_shape(4, 3, out_scale); }

/* Each int8 convolution and FULLY_CONNECTED calls the entry point of the
 * one path that runs it (doc/cortex-m.md, "Paths chosen by the
 * compiler"): _dsp_ where the kernel's DSP path takes the op (the
 * kernel's own ..._dsp_ok()), else _portable_, or _ort_ under ONNX
 * Runtime's rounding. */
static void test_kernel_paths(void) {
  const char *rev, *k;
  k = kernel_of(conv_model(), TA_ROUND_DOUBLE, 16, &rev);
  CHECK(!strcmp(k, "ta_conv2d_fold_dsp_s8"),
        "a CONV_2D whose requantization fits SMMLAR calls its DSP entry (%s) %s", k,
        error_message);
  k = kernel_of(conv_model(), TA_ROUND_DOUBLE, 2, &rev);
  CHECK(!strcmp(k, "ta_conv2d_fold_portable_s8"),
        "with --align 2 (a scratch the DSP path's paired loads cannot take) the portable "
        "one (%s) %s", k, error_message);
  k = kernel_of(conv_model(), TA_ROUND_SINGLE, 16, &rev);
  CHECK(!strcmp(k, "ta_conv2d_fold_portable_s8"),
        "single rounding: the portable CONV_2D (%s) %s", k, error_message);
  k = kernel_of(conv_model(), TA_ROUND_ORT, 16, &rev);
  CHECK(!strcmp(k, "ta_conv2d_fold_ort_s8"),
        "ONNX Runtime's rounding: the CONV_2D with the float requantization (%s) %s", k,
        error_message);
  k = kernel_of(dw1_model(1.0f), TA_ROUND_DOUBLE, 16, &rev);
  CHECK(!strcmp(k, "ta_depthwise_conv2d_fold_3x3_dsp_s8") &&
            !strcmp(rev, "ta_depthwise_conv2d_fold_rev_3x3_dsp_s8"),
        "a four-channel 3x3 DEPTHWISE_CONV_2D calls the DSP entries in channel planes, "
        "forwards and backwards (%s, %s) %s", k, rev, error_message);
  k = kernel_of(dw1_model_shape(40, 3, 1.0f), TA_ROUND_DOUBLE, 2, &rev);
  CHECK(!strcmp(k, "ta_depthwise_conv2d_fold_dsp_s8") &&
            !strcmp(rev, "ta_depthwise_conv2d_fold_rev_dsp_s8"),
        "with --align 2 (a scratch the planes' word loads cannot take) the entries for any "
        "filter size (%s, %s) %s", k, rev, error_message);
  k = kernel_of(dw1_model_shape(4, 5, 1.0f), TA_ROUND_DOUBLE, 16, &rev);
  CHECK(!strcmp(k, "ta_depthwise_conv2d_fold_dsp_s8") &&
            !strcmp(rev, "ta_depthwise_conv2d_fold_rev_dsp_s8"),
        "a 5x5 filter the entries for any filter size (%s, %s) %s", k, rev, error_message);
  k = kernel_of(dw1_model(1.0f), TA_ROUND_ORT, 16, &rev);
  CHECK(!strcmp(k, "ta_depthwise_conv2d_fold_ort_s8") &&
            !strcmp(rev, "ta_depthwise_conv2d_fold_rev_ort_s8"),
        "and under ONNX Runtime's rounding the _ort_ ones (%s, %s) %s", k, rev,
        error_message);
  k = kernel_of(dw1_model(0.05f), TA_ROUND_DOUBLE, 16, &rev);
  CHECK(!strcmp(k, "ta_depthwise_conv2d_fold_portable_s8") &&
            !strcmp(rev, "ta_depthwise_conv2d_fold_rev_portable_s8"),
        "a depthwise requantization with a left shift: the portable ones (%s, %s) %s", k, rev,
        error_message);
  k = kernel_of(depthwise_model(4), TA_ROUND_DOUBLE, 16, &rev);
  CHECK(!strcmp(k, "ta_depthwise_conv2d_fold_portable_s8"),
        "and depth multiplier 3 the portable one (%s) %s", k, error_message);
  k = kernel_of(fc_model(1.0f), TA_ROUND_DOUBLE, 16, &rev);
  CHECK(!strcmp(k, "ta_fully_connected_fold_dsp_s8"),
        "a FULLY_CONNECTED with a right shift calls its DSP entry (%s) %s", k, error_message);
  k = kernel_of(fc_model_depth(7, 1.0f), TA_ROUND_DOUBLE, 16, &rev);
  CHECK(!strcmp(k, "ta_fully_connected_fold_dsp_s8"),
        "so does one of 7 inputs, no multiple of 4 (%s) %s", k, error_message);
  k = kernel_of(fc_model(0.05f), TA_ROUND_DOUBLE, 16, &rev);
  CHECK(!strcmp(k, "ta_fully_connected_fold_portable_s8"),
        "one with a left shift the portable entry (%s) %s", k, error_message);
  k = kernel_of(fc_model(1.0f), TA_ROUND_ORT, 16, &rev);
  CHECK(!strcmp(k, "ta_fully_connected_fold_ort_s8"),
        "and under ONNX Runtime's rounding the _ort_ one (%s) %s", k, error_message);
}

/* CONV_2D 1x1 int8 [1,1,b,8] -> [1,1,b,8] (filter of ones), then
 * FULLY_CONNECTED [b,8] -> [b,4] with k inputs per output (weights of
 * ones, fc_model()'s scales, output scale fc_scale). */
static TfwModel *conv_fc_model(int32_t b, int32_t k, float fc_scale) {
  TfwModel *m = tfw_new();
  int32_t dc[4] = {1, 1, b, 8}, dcf[4] = {8, 1, 1, 8}, dfi[2] = {b * 8 / k, k},
          dff[2] = {4, k}, dout[2] = {b * 8 / k, 4};
  static int8_t f[4 * 512]; /* the largest filter: 4 x k, k <= 512 */
  for (int i = 0; i < 4 * 512; i++)
    f[i] = 1;
  int in = tfw_tensor(m, "in", TFW_INT8, 4, dc, 0);
  int cf = tfw_const(m, "cf", TFW_INT8, 4, dcf, f);
  int mid = tfw_tensor(m, "mid", TFW_INT8, 4, dc, 0);
  int flat = tfw_tensor(m, "flat", TFW_INT8, 2, dfi, 0);
  int ff = tfw_const(m, "ff", TFW_INT8, 2, dff, f);
  int out = tfw_tensor(m, "out", TFW_INT8, 2, dout, 0);
  tfw_quant1(m, in, 0.5f, 3);
  tfw_quant1(m, cf, 0.25f, 0);
  tfw_quant1(m, mid, 0.5f, 3);
  tfw_quant1(m, flat, 0.5f, 3);
  tfw_quant1(m, ff, 0.25f, 0);
  tfw_quant1(m, out, fc_scale, -1);
  int op = tfw_op(m, TFW_OP_CONV_2D, 2, (int[]){in, cf}, 1, &mid);
  tfw_conv2d_options(m, op, TFW_PAD_VALID, 1, 1, TFW_ACT_NONE, 1, 1);
  int shape = tfw_const(m, "shape", TFW_INT32, 1, (int32_t[]){2}, dfi);
  op = tfw_op(m, TFW_OP_RESHAPE, 2, (int[]){mid, shape}, 1, &flat);
  tfw_reshape_options(m, op, 2, dfi);
  tfw_op(m, TFW_OP_FULLY_CONNECTED, 2, (int[]){flat, ff}, 1, &out);
  tfw_inputs(m, 1, &in);
  tfw_outputs(m, 1, &out);
  return m;
}

/* The kernel and in_dims of op 2 (the FULLY_CONNECTED) of conv_fc_model(). */
static const char *fc_kernel(TfwModel *m, int rounding, const char **in_dims) {
  LowerOptions o = {.rounding = rounding, .align = 16};
  Graph *g = compile_model(m, "test.tflite", &o);
  tfw_free(m);
  const Lowered *l = g && g->nops == 3 ? op_lowered(&g->ops[2]) : NULL;
  const ConstObj *d = g ? find_const(g, 2, "in_dims") : NULL;
  *in_dims = d ? d->init : "-";
  return l ? l->kernel : "refused";
}

/* An int8 FULLY_CONNECTED runs on CONV_2D's DSP entry as a 1x1
 * convolution over its rows when an earlier op calls that entry, its
 * requantization fits the records and the columns stay within 1 KiB;
 * otherwise its own kernel.  (The bytes: every golden model with a
 * CONV_2D before its FULLY_CONNECTED, on the host and on Cortex-M.) */
static void test_fc_as_conv(void) {
  const char *dims, *k;
  k = fc_kernel(conv_fc_model(3, 8, 1.0f), TA_ROUND_DOUBLE, &dims);
  CHECK(!strcmp(k, "ta_conv2d_fold_dsp_s8") && strstr(dims, "1, 1, 3, 8"),
        "a FULLY_CONNECTED of 3 rows after a CONV_2D on its DSP entry runs on that entry "
        "over 3 pixels (%s, in_dims %s) %s", k, dims, error_message);
  k = fc_kernel(conv_fc_model(16, 128, 1.0f), TA_ROUND_DOUBLE, &dims);
  CHECK(!strcmp(k, "ta_conv2d_fold_dsp_s8") && strstr(dims, "1, 1, 1, 128"),
        "so does one of 128 inputs, four columns of 1 KiB (%s, %s) %s", k, dims, error_message);
  k = fc_kernel(conv_fc_model(32, 256, 1.0f), TA_ROUND_DOUBLE, &dims);
  CHECK(!strcmp(k, "ta_fully_connected_fold_dsp_s8"),
        "one of 256 inputs (2 KiB of columns) keeps its own kernel (%s) %s", k, error_message);
  k = fc_kernel(conv_fc_model(3, 8, 0.05f), TA_ROUND_DOUBLE, &dims);
  CHECK(!strcmp(k, "ta_fully_connected_fold_portable_s8"),
        "one whose requantization has a left shift keeps its own (portable) kernel (%s) %s", k,
        error_message);
  k = fc_kernel(conv_fc_model(3, 8, 1.0f), TA_ROUND_SINGLE, &dims);
  CHECK(!strcmp(k, "ta_fully_connected_fold_portable_s8"),
        "and so does every one under single rounding (%s) %s", k, error_message);
}

/* x [1,h,w,4] (a model input) -> CONV_2D 1x1 (4 -> 4) -> c; ADD(c, x)
 * (conv_first) or ADD(x, c) -> out; c also a model output when
 * c_is_output. */
static TfwModel *residual_model(int32_t h, int32_t w, bool conv_first, bool c_is_output) {
  TfwModel *m = tfw_new();
  int32_t d[4] = {1, h, w, 4}, df[4] = {4, 1, 1, 4};
  int8_t f[16];
  for (int i = 0; i < 16; i++)
    f[i] = (int8_t)(i % 5 - 2);
  int x = tfw_tensor(m, "x", TFW_INT8, 4, d, 0);
  int fi = tfw_const(m, "f", TFW_INT8, 4, df, f);
  int c = tfw_tensor(m, "c", TFW_INT8, 4, d, 0);
  int o = tfw_tensor(m, "o", TFW_INT8, 4, d, 0);
  tfw_quant1(m, x, 0.05f, -3);
  tfw_quant1(m, fi, 0.02f, 0);
  tfw_quant1(m, c, 0.04f, 5);
  tfw_quant1(m, o, 0.08f, -1);
  int op = tfw_op(m, TFW_OP_CONV_2D, 2, (int[]){x, fi}, 1, &c);
  tfw_conv2d_options(m, op, TFW_PAD_SAME, 1, 1, TFW_ACT_NONE, 1, 1);
  int in[2] = {conv_first ? c : x, conv_first ? x : c};
  op = tfw_op(m, TFW_OP_ADD, 2, in, 1, &o);
  tfw_add_options(m, op, TFW_ACT_RELU, 1);
  tfw_inputs(m, 1, &x);
  tfw_outputs(m, c_is_output ? 2 : 1, (int[]){o, c});
  return m;
}

static Graph *residual_lowered(TfwModel *m, bool fuse) {
  LowerOptions o = {.rounding = TA_ROUND_DOUBLE, .align = 16, .fuse_add = fuse};
  Graph *g = compile_model(m, "test.tflite", &o);
  tfw_free(m);
  return g;
}

/* --fuse-add (lower_fuse.c): the int8 ADD of a CONV_2D's output runs in
 * that convolution's epilogue, with the ADD's parameters for the
 * convolution's output as input 1 whichever input it was; not without
 * the option, below ADD_TABLE_MIN elements, or when the convolution's
 * output is read elsewhere (here: a model output). */
static void test_fuse_add(void) {
  for (int first = 1; first >= 0; first--) {
    Graph *g = residual_lowered(residual_model(16, 16, first, false), true);
    const Lowered *c = g ? op_lowered(&g->ops[0]) : NULL, *a = g ? op_lowered(&g->ops[1]) : NULL;
    const ConstObj *p = g ? find_const(g, 0, "add") : NULL;
    CHECK(c && a && !strcmp(c->kernel, "ta_conv2d_fold_add_dsp_s8") && a->fused &&
              a->fused_op == 0 && !a->kernel && g->ops[1].ninputs == 0 &&
              g->ops[1].noutputs == 0 && g->ops[0].ninputs == 3 &&
              g->ops[0].inputs[2] == 0 && g->ops[0].outputs[0] == 3 && (c->inplace & 4) &&
              p && strstr(p->init, ".input1_offset = -5,") &&
              strstr(p->init, ".input2_offset = 3,") && strstr(p->init, "@add_table1") &&
              g->ops[0].scratch_bytes == 32 + 16,
          "ADD(%s) of 1024 elements runs in the CONV_2D's epilogue, the convolution's output "
          "as input 1, in place over the residual allowed (%s, scratch %zu) %s",
          first ? "conv, x" : "x, conv", c ? c->kernel : "-", g ? g->ops[0].scratch_bytes : 0,
          error_message);
  }
  Graph *g = residual_lowered(residual_model(16, 16, true, false), false);
  CHECK(g && !strcmp(op_lowered(&g->ops[0])->kernel, "ta_conv2d_fold_dsp_s8") &&
            !strcmp(op_lowered(&g->ops[1])->kernel, "ta_add_table_s8"),
        "without --fuse-add both ops keep their calls, the ADD the entry with tables only %s",
        error_message);
  g = residual_lowered(residual_model(4, 4, true, false), true);
  CHECK(g && !strcmp(op_lowered(&g->ops[1])->kernel, "ta_add_double_s8"),
        "an ADD of 64 elements (no tables) keeps its call, the entry without tables %s",
        error_message);
  g = residual_lowered(residual_model(16, 16, true, true), true);
  CHECK(g && !strcmp(op_lowered(&g->ops[1])->kernel, "ta_add_table_s8"),
        "so does one whose convolution output is also a model output %s", error_message);
}

/* --lean-conv (LowerOptions.lean_ops): the CONV_2D named runs its lean
 * DSP entry in half the columns' scratch (4 K4 instead of 8 K4 bytes;
 * K4 = 4 here), fused with the ADD too (plus 2 pixels instead of 4);
 * an op not named keeps the full entry. */
static void test_lean_conv(void) {
  const int op0 = 0, op1 = 1;
  for (int fuse = 0; fuse < 2; fuse++) {
    LowerOptions o = {.rounding = TA_ROUND_DOUBLE, .align = 16, .fuse_add = fuse,
                      .lean_ops = &op0, .nlean = 1};
    TfwModel *m = residual_model(16, 16, true, false);
    Graph *g = compile_model(m, "test.tflite", &o);
    tfw_free(m);
    const Lowered *c = g ? op_lowered(&g->ops[0]) : NULL;
    const char *want = fuse ? "ta_conv2d_fold_add_lean_dsp_s8" : "ta_conv2d_fold_lean_dsp_s8";
    const size_t bytes = fuse ? 16 + 8 : 16;
    CHECK(c && !strcmp(c->kernel, want) && g->ops[0].scratch_bytes == bytes,
          "--lean-conv 0%s: %s in %zu bytes of scratch (%s, %zu) %s",
          fuse ? " --fuse-add" : "", want, bytes, c ? c->kernel : "-",
          g ? g->ops[0].scratch_bytes : 0, error_message);
  }
  LowerOptions o = {.rounding = TA_ROUND_DOUBLE, .align = 16, .lean_ops = &op1, .nlean = 1};
  TfwModel *m = residual_model(16, 16, true, false);
  Graph *g = compile_model(m, "test.tflite", &o);
  tfw_free(m);
  CHECK(g && !strcmp(op_lowered(&g->ops[0])->kernel, "ta_conv2d_fold_dsp_s8") &&
            g->ops[0].scratch_bytes == 32,
        "a CONV_2D --lean-conv does not name keeps the full DSP entry %s", error_message);
  /* A 3 x 3 DEPTHWISE_CONV_2D's lean form is the generic DSP entry,
   * which takes the multipliers and shifts, not the 3 x 3 path's
   * doubled records. */
  LowerOptions od = {.rounding = TA_ROUND_DOUBLE, .align = 16, .lean_ops = &op0, .nlean = 1};
  m = dw1_model_shape(40, 3, 1.0f);
  g = compile_model(m, "test.tflite", &od);
  tfw_free(m);
  const Lowered *d = g ? op_lowered(&g->ops[0]) : NULL;
  int mult = 0;
  for (int i = 0; d && i < d->nconsts; i++)
    mult |= !strcmp(d->consts[i].name, "mult");
  CHECK(d && !strcmp(d->kernel, "ta_depthwise_conv2d_fold_dsp_s8") && d->lean && mult &&
            g->ops[0].scratch_bytes == 0,
        "--lean-conv 0 on a 3x3 DEPTHWISE_CONV_2D: the generic DSP entry with its "
        "multipliers, no scratch (%s) %s", d ? d->kernel : "-", error_message);
}

int main(void) {
  test_fuse_add();
  test_lean_conv();
  test_fc_as_conv();
  test_depthwise_one_channel();
  test_conv_mmla();
  test_kernel_paths();
  test_add_tables();
  test_softmax();
  test_log_softmax();
  test_quantize();
  return test_exit();
}
