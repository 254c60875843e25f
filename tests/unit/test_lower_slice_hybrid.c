/* SPDX-License-Identifier: Apache-2.0 */
/*
 * STRIDED_SLICE's ellipsis and new-axis expansion and the hybrid
 * lowerings (compiler/lower_ops.c slice_spec(), compiler/lower_legacy.c),
 * on one-op models written in memory (tools/tflite_writer.c), with the
 * expected shapes and constants worked out by hand from TFLite's code:
 *
 *  - x[1:3, tf.newaxis, ..., ::2] on [4, 5, 6]: output [2, 1, 5, 3];
 *  - TFLite's quirk: an ellipsis spans at least one dimension, so on
 *    [2, 3] the specs (..., 0:2, 0:3) give [2, 2] (numpy: [2, 3]);
 *  - missing specs are padded at the back (numpy), not the front;
 *  - two ellipsis bits are refused;
 *  - hybrid FULLY_CONNECTED: per-channel weights with asymmetric inputs
 *    get the weights' row sums; with symmetric inputs they are refused
 *    (TFLite's result depends on its build), as is a zero point;
 *  - hybrid DEPTHWISE_CONV_2D with one scale for several channels is
 *    refused (TFLite's Prepare wants one per channel);
 *  - hybrid CONV_2D with different per-channel scales takes the
 *    per-channel kernel, with equal ones it is refused (TFLite would
 *    run its per-tensor kernel with scale 0);
 *  - ta_hybrid_quantize_asymmetric() on a small row, against
 *    AsymmetricQuantizeFloats worked by hand.
 */
#include "test.h"
#include "tinyaot.h"
#include "ta_hybrid.h"

#include "lower_helpers.h"

/* STRIDED_SLICE of an int8 input of shape in[nin] with k specs, to an
 * output of shape out[nout]. */
static TfwModel *slice_model(int nin, const int32_t *in, int k, const int32_t *begin,
                             const int32_t *end, const int32_t *strides, int nout,
                             const int32_t *out, int bmask, int emask, int ellipsis,
                             int newaxis, int shrink) {
  TfwModel *m = tfw_new();
  int ti = tfw_tensor(m, "in", TFW_INT8, nin, in, 0);
  int to = tfw_tensor(m, "out", TFW_INT8, nout, out, 0);
  tfw_quant1(m, ti, 0.1f, 0);
  tfw_quant1(m, to, 0.1f, 0);
  int32_t dk = k;
  int ins[4] = {ti, tfw_const(m, "begin", TFW_INT32, 1, &dk, begin),
                tfw_const(m, "end", TFW_INT32, 1, &dk, end),
                tfw_const(m, "strides", TFW_INT32, 1, &dk, strides)};
  int op = tfw_op(m, TFW_OP_STRIDED_SLICE, 4, ins, 1, &to);
  tfw_strided_slice_options(m, op, bmask, emask, ellipsis, newaxis, shrink, 0);
  tfw_inputs(m, 1, &ti);
  tfw_outputs(m, 1, &to);
  return m;
}

static void test_slice(void) {
  /* x[1:3, newaxis, ..., ::2] on [4, 5, 6]: specs 0 (1:3), 1 (new axis),
   * 2 (ellipsis over dimension 1), 3 (::2 over dimension 2). */
  int32_t in[3] = {4, 5, 6}, b[4] = {1, 0, 0, 0}, e[4] = {3, 0, 0, 0}, s[4] = {1, 1, 1, 2};
  int32_t out[4] = {2, 1, 5, 3};
  Graph *g = lowered(slice_model(3, in, 4, b, e, s, 4, out, 8, 8, 4, 2, 0), TA_ROUND_DOUBLE);
  CHECK(g != NULL, "x[1:3, newaxis, ..., ::2] on [4, 5, 6] compiles to [2, 1, 5, 3] %s",
        error_message);
  const ConstObj *w = g ? find_const(g, 0, "walk") : NULL;
  /* From element 1 * 30: 2 x 5 rows of 6, every second element of each
   * row (3 of them): strides 30, 6, 2 continue each other, so the walk
   * is one run of 30 elements 2 apart. */
  CHECK(w && strstr(w->init, ".offset = 30") && strstr(w->init, ".shape = {30}") &&
            strstr(w->init, ".stride = {2}"),
        "its walk takes 30 elements 2 apart from element 30 (%s)",
        w ? w->init : error_message);
  int32_t wrong[4] = {2, 1, 5, 6};
  g = lowered(slice_model(3, in, 4, b, e, s, 4, wrong, 8, 8, 4, 2, 0), TA_ROUND_DOUBLE);
  CHECK(!g, "the same slice does not compile to [2, 1, 5, 6]");

  /* TFLite: (..., 0:2, 0:3) on [2, 3] spans dimension 0 with the
   * ellipsis, gives 0:2 to dimension 1 and drops the last spec. */
  int32_t in2[2] = {2, 3}, b2[3] = {0, 0, 0}, e2[3] = {0, 2, 3}, s2[3] = {1, 1, 1};
  int32_t quirk[2] = {2, 2}, numpy[2] = {2, 3};
  g = lowered(slice_model(2, in2, 3, b2, e2, s2, 2, quirk, 0, 0, 1, 0, 0), TA_ROUND_DOUBLE);
  CHECK(g != NULL, "(..., 0:2, 0:3) on [2, 3] gives [2, 2], as TFLite computes it %s",
        error_message);
  g = lowered(slice_model(2, in2, 3, b2, e2, s2, 2, numpy, 0, 0, 1, 0, 0), TA_ROUND_DOUBLE);
  CHECK(!g, "and not numpy's [2, 3]");

  /* One spec on [3, 4]: 1:2 on dimension 0, dimension 1 whole. */
  int32_t b3[1] = {1}, e3[1] = {2}, s3[1] = {1}, out3[2] = {1, 4}, front[2] = {3, 1};
  g = lowered(slice_model(2, (int32_t[]){3, 4}, 1, b3, e3, s3, 2, out3, 0, 0, 0, 0, 0),
              TA_ROUND_DOUBLE);
  CHECK(g != NULL, "one spec on [3, 4] slices dimension 0 and keeps dimension 1 whole %s",
        error_message);
  g = lowered(slice_model(2, (int32_t[]){3, 4}, 1, b3, e3, s3, 2, front, 0, 0, 0, 0, 0),
              TA_ROUND_DOUBLE);
  CHECK(!g, "and does not apply to dimension 1");

  int32_t b4[2] = {0, 0}, e4[2] = {0, 0}, s4[2] = {1, 1};
  g = lowered(slice_model(2, in2, 2, b4, e4, s4, 2, in2, 0, 0, 3, 0, 0), TA_ROUND_DOUBLE);
  CHECK(!g && strstr(error_message, "one ellipsis"),
        "two ellipsis bits are refused (%s)", error_message);
}

/* Hybrid FULLY_CONNECTED [1, 3] x [2, 3]^T with the given weight scales. */
static TfwModel *fc_model(int nscale, const float *scales, int64_t zp, int asym) {
  TfwModel *m = tfw_new();
  int32_t din[2] = {1, 3}, dw[2] = {2, 3}, dout[2] = {1, 2};
  int8_t w[6] = {1, -2, 3, 100, 27, -128};
  int ti = tfw_tensor(m, "in", TFW_FLOAT32, 2, din, 0);
  int tw = tfw_const(m, "w", TFW_INT8, 2, dw, w);
  int64_t zps[2] = {zp, zp};
  tfw_quant(m, tw, nscale, scales, zps, 0);
  int to = tfw_tensor(m, "out", TFW_FLOAT32, 2, dout, 0);
  int ins[3] = {ti, tw, -1};
  int op = tfw_op(m, TFW_OP_FULLY_CONNECTED, 3, ins, 1, &to);
  tfw_fully_connected_options_asym(m, op, TFW_ACT_NONE, 0, asym);
  tfw_inputs(m, 1, &ti);
  tfw_outputs(m, 1, &to);
  return m;
}

static void test_fc_hybrid(void) {
  float two[2] = {0.01f, 0.02f}, one[1] = {0.01f};
  Graph *g = lowered(fc_model(2, two, 0, 1), TA_ROUND_DOUBLE);
  const ConstObj *rs = g ? find_const(g, 0, "row_sums") : NULL;
  CHECK(rs && rs->count == 2 && ((const int32_t *)rs->data)[0] == 2 &&
            ((const int32_t *)rs->data)[1] == -1,
        "per-channel hybrid FULLY_CONNECTED with asymmetric inputs gets row sums 2 and -1 %s",
        error_message);
  g = lowered(fc_model(1, one, 0, 0), TA_ROUND_DOUBLE);
  CHECK(g && !find_const(g, 0, "row_sums"),
        "per-tensor hybrid FULLY_CONNECTED with symmetric inputs compiles without row sums %s",
        error_message);
  g = lowered(fc_model(2, two, 0, 0), TA_ROUND_DOUBLE);
  CHECK(!g && strstr(error_message, "asymmetric_quantize_inputs"),
        "per-channel weights with symmetric inputs are refused, naming the option (%s)",
        error_message);
  g = lowered(fc_model(1, one, 3, 1), TA_ROUND_DOUBLE);
  CHECK(!g && strstr(error_message, "zero point"),
        "hybrid weights with a zero point are refused (%s)", error_message);
}

static void test_dw_hybrid(void) {
  TfwModel *m = tfw_new();
  int32_t din[4] = {1, 3, 3, 2}, df[4] = {1, 2, 2, 2}, dout[4] = {1, 2, 2, 2};
  int8_t w[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  int ti = tfw_tensor(m, "in", TFW_FLOAT32, 4, din, 0);
  int tw = tfw_const(m, "w", TFW_INT8, 4, df, w);
  float sc[1] = {0.01f};
  int64_t zp[1] = {0};
  tfw_quant(m, tw, 1, sc, zp, 3);
  int to = tfw_tensor(m, "out", TFW_FLOAT32, 4, dout, 0);
  int ins[3] = {ti, tw, -1};
  int op = tfw_op(m, TFW_OP_DEPTHWISE_CONV_2D, 3, ins, 1, &to);
  tfw_depthwise_options(m, op, TFW_PAD_VALID, 1, 1, 1, TFW_ACT_NONE, 1, 1);
  tfw_inputs(m, 1, &ti);
  tfw_outputs(m, 1, &to);
  Graph *g = lowered(m, TA_ROUND_DOUBLE);
  CHECK(!g && strstr(error_message, "one per output channel"),
        "hybrid DEPTHWISE_CONV_2D with one scale for two channels is refused (%s)",
        error_message);
}

/* Hybrid CONV_2D 1x1, [1, 2, 2, 2] -> 2 channels, with the given scales. */
static void test_conv_hybrid(void) {
  static const float differ[2] = {0.01f, 0.02f}, equal[2] = {0.01f, 0.01f};
  for (int v = 0; v < 2; v++) {
    TfwModel *m = tfw_new();
    int32_t din[4] = {1, 2, 2, 2}, df[4] = {2, 1, 1, 2}, dout[4] = {1, 2, 2, 2};
    int8_t w[4] = {1, 2, 3, 4};
    int ti = tfw_tensor(m, "in", TFW_FLOAT32, 4, din, 0);
    int tw = tfw_const(m, "w", TFW_INT8, 4, df, w);
    int64_t zp[2] = {0, 0};
    tfw_quant(m, tw, 2, v ? equal : differ, zp, 0);
    int to = tfw_tensor(m, "out", TFW_FLOAT32, 4, dout, 0);
    int ins[3] = {ti, tw, -1};
    int op = tfw_op(m, TFW_OP_CONV_2D, 3, ins, 1, &to);
    tfw_conv2d_options(m, op, TFW_PAD_VALID, 1, 1, TFW_ACT_NONE, 1, 1);
    tfw_inputs(m, 1, &ti);
    tfw_outputs(m, 1, &to);
    Graph *g = lowered(m, TA_ROUND_DOUBLE);
    if (v == 0)
      CHECK(g && !strcmp(op_lowered(&g->ops[0])->kernel, "ta_conv2d_hybrid_per_channel_f32"),
            "hybrid CONV_2D with two different filter scales runs the per-channel kernel %s",
            error_message);
    else
      CHECK(!g && strstr(error_message, "equal filter scales"),
            "hybrid CONV_2D with two equal filter scales is refused (%s)", error_message);
  }
}

static void test_quantize_asymmetric(void) {
  /* rmin -1, rmax 2: scale 3/255; zero point from the min end (error
   * 128 + 85 < 127 + 170): -128 + 85 = -43; q = round(-43 + x * 85). */
  const float x[4] = {-1.0f, 0.0f, 0.2f, 2.0f};
  int8_t q[4];
  float factor;
  int32_t offset;
  ta_hybrid_quantize_asymmetric(x, 4, q, &factor, &offset);
  CHECK(offset == -43 && factor == (float)(3.0 / 255.0) && q[0] == -128 && q[1] == -43 &&
            q[2] == -26 && q[3] == 127,
        "AsymmetricQuantizeFloats of {-1, 0, 0.2, 2}: offset -43, q {-128, -43, -26, 127} "
        "(got %d, {%d, %d, %d, %d})",
        (int)offset, q[0], q[1], q[2], q[3]);
  const float zero[3] = {0.0f, 0.0f, 0.0f};
  ta_hybrid_quantize_asymmetric(zero, 3, q, &factor, &offset);
  CHECK(offset == 0 && factor == 1.0f && q[0] == 0 && q[2] == 0,
        "an all-zero row quantizes to zeros with factor 1 and offset 0");
}

/* Hybrid EMBEDDING_LOOKUP: int8 rows [3, 2] picked by 2 ids into float32. */
static TfwModel *lookup_model(int nscale, int64_t zp) {
  TfwModel *m = tfw_new();
  int32_t dids[1] = {2}, dv[2] = {3, 2}, dout[2] = {2, 2};
  int8_t v[6] = {1, -2, 3, 100, 27, -128};
  float scales[3] = {0.5f, 0.25f, 0.125f};
  int64_t zps[3] = {zp, zp, zp};
  int ti = tfw_tensor(m, "ids", TFW_INT32, 1, dids, 0);
  int tv = tfw_const(m, "value", TFW_INT8, 2, dv, v);
  tfw_quant(m, tv, nscale, scales, zps, 0);
  int to = tfw_tensor(m, "out", TFW_FLOAT32, 2, dout, 0);
  int ins[2] = {ti, tv};
  tfw_op(m, TFW_OP_EMBEDDING_LOOKUP, 2, ins, 1, &to);
  tfw_inputs(m, 1, &ti);
  tfw_outputs(m, 1, &to);
  return m;
}

static void test_lookup_hybrid(void) {
  Graph *g = lowered(lookup_model(1, 0), TA_ROUND_DOUBLE);
  CHECK(g && find_const(g, 0, "params"),
        "hybrid EMBEDDING_LOOKUP (int8 per tensor, zero point 0) compiles %s", error_message);
  g = lowered(lookup_model(3, 0), TA_ROUND_DOUBLE);
  CHECK(!g && strstr(error_message, "per tensor"),
        "a hybrid lookup with a scale per row is refused (%s)", error_message);
  g = lowered(lookup_model(1, 4), TA_ROUND_DOUBLE);
  CHECK(!g && strstr(error_message, "zero point"),
        "a hybrid lookup with a zero point is refused (%s)", error_message);
}

int main(void) {
  test_slice();
  test_fc_hybrid();
  test_dw_hybrid();
  test_conv_hybrid();
  test_lookup_hybrid();
  test_quantize_asymmetric();
  return test_failures != 0;
}
