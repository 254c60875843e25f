/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Models that once crashed the compiler, tripped a sanitizer, hit a
 * die(), produced C that did not compile, or let a kernel read or write
 * outside its tensors at run time - each found by the whole-pipeline
 * fuzzer (make fuzz-compile) or the robustness test, rebuilt here by hand
 * with the test writer (tools/tflite_writer.c).  Each goes through read,
 * verify, the passes, lower, plan and emit in this process (tests/fuzz/
 * mutate.h) and must now be refused with a message naming the file, the
 * op and what is wrong, or be compiled into C that builds with -std=c99
 * -Wall -Wextra -Werror -pedantic.  Also the 16x8 bias types refused on
 * purpose (lower_s16.c, s16_accumulator()), and their accepted twins.
 */
#include "fuzz/mutate.h"
#include "test.h"

#include "../../tools/tflite_writer.c"

#include <unistd.h>

static const char *tmpdir;

/* Compiles model m (then frees it) with options `variant` (mutate.h's
 * run_options: 1 single rounding, 2 model order, 4 inputs and outputs in
 * the workspace).  want_refusal: the message must contain `want` (after
 * "NAME: op 0 (OP): " when `op` is set); else the model must compile, and
 * the emitted C build with the strict flags. */
static void expect(TfwModel *m, const char *name, unsigned variant, const char *op,
                   const char *want, const char *sentence) {
  uint8_t *bytes;
  size_t len;
  tfw_finish(m, &bytes, &len);
  tfw_free(m);
  RunOptionsSet opt;
  run_options(&opt, variant);
  const char *dir = arena_printf("%s/%s", tmpdir, name);
  RunResult r = compile_buffer(name, bytes, len, &opt, dir, NULL, NULL);
  if (want) {
    const char *prefix = op ? arena_printf("%s: op 0 (%s): ", name, op)
                            : arena_printf("%s: ", name);
    CHECK(r == RUN_REFUSED && !strncmp(error_message, prefix, strlen(prefix)) &&
              strstr(error_message, want),
          "%s: refused with '%s%s...' (%s: '%s')", sentence, prefix, want,
          r == RUN_ACCEPTED ? "accepted" : r == RUN_DIED ? "died" : "refused",
          r == RUN_DIED ? die_message : r == RUN_REFUSED ? error_message : "");
  } else {
    const char *cc = getenv("CC");
    bool built = r == RUN_ACCEPTED && strict_compile(dir, cc && *cc ? cc : "cc");
    CHECK(built, "%s: compiled, and the C builds with the strict flags (%s%s)",
          sentence,
          r == RUN_ACCEPTED ? "accepted" : r == RUN_DIED ? "died: " : "refused: ",
          r == RUN_DIED ? die_message : r == RUN_REFUSED ? error_message : "");
  }
  free(bytes);
  arena_reset();
}

/* in -> OP -> out, both float32 or both (dt, scale, zp) of shape d. */
static TfwModel *unary(int code, int dt, int nd, const int32_t *d, float in_scale,
                       int64_t in_zp, float out_scale, int64_t out_zp, int *op) {
  TfwModel *m = tfw_new();
  int in = tfw_tensor(m, "in", dt, nd, d, 0);
  int out = tfw_tensor(m, "out", dt, nd, d, 0);
  if (dt != TFW_FLOAT32) {
    tfw_quant1(m, in, in_scale, in_zp);
    tfw_quant1(m, out, out_scale, out_zp);
  }
  *op = tfw_op(m, code, 1, &in, 1, &out);
  tfw_inputs(m, 1, &in);
  tfw_outputs(m, 1, &out);
  return m;
}

static void quantization(void) {
  int32_t d[2] = {2, 8};
  int op;
  TfwModel *m;

  /* -zero_point of INT32_MIN was signed overflow (quant.c, lower_rnn.c). */
  m = unary(TFW_OP_QUANTIZE, TFW_INT8, 2, d, 0.5f, 1000, 0.5f, 0, &op);
  tfw_empty_options(m, op);
  expect(m, "zp_range.tflite", 0, NULL, "zero point 1000 (channel 0) does not fit its type int8",
         "an int8 zero point of 1000");

  /* A NaN scale became a NaN multiplier, then "nanf" or a die(). */
  m = unary(TFW_OP_LOGISTIC, TFW_INT8, 2, d, NAN, 0, 1.0f / 256, -128, &op);
  expect(m, "scale_nan.tflite", 0, NULL, "is not a positive normal number",
         "a NaN quantization scale");
  m = unary(TFW_OP_LOGISTIC, TFW_INT8, 2, d, -0.5f, 0, 1.0f / 256, -128, &op);
  expect(m, "scale_neg.tflite", 0, NULL, "is not a positive normal number",
         "a negative quantization scale");
  m = unary(TFW_OP_LOGISTIC, TFW_INT8, 2, d, 1e-40f, 0, 1.0f / 256, -128, &op);
  expect(m, "scale_denormal.tflite", 0, NULL, "is not a positive normal number",
         "a denormal quantization scale");
  /* Scale 0 is legal where the op ignores it, not where it divides. */
  m = unary(TFW_OP_LOGISTIC, TFW_INT8, 2, d, 0.0f, 0, 1.0f / 256, -128, &op);
  expect(m, "scale_zero.tflite", 0, "LOGISTIC", "has quantization scale 0",
         "LOGISTIC on an input of scale 0");

  /* LOGISTIC/TANH int8: an input scale of 2^-60 gave a shift of -98
   * (undefined shifts in the table's arithmetic). */
  m = unary(TFW_OP_LOGISTIC, TFW_INT8, 2, d, 0x1p-60f, 0, 1.0f / 256, -128, &op);
  expect(m, "logistic_tiny.tflite", 0, "LOGISTIC", "", "LOGISTIC with an input scale of 2^-60");
  m = unary(TFW_OP_TANH, TFW_INT8, 2, d, 0x1p-60f, 0, 1.0f / 128, 0, &op);
  expect(m, "tanh_tiny.tflite", 0, "TANH", "", "TANH with an input scale of 2^-60");
  /* ... and an input scale of 16: every input saturates (radius 0). */
  m = unary(TFW_OP_LOGISTIC, TFW_INT8, 2, d, 16.0f, 0, 1.0f / 256, -128, &op);
  expect(m, "logistic_huge.tflite", 0, NULL, NULL, "LOGISTIC with an input scale of 16");

  /* RELU6 int8 with a tiny scale: 6 / scale overflowed the int conversion. */
  m = unary(TFW_OP_RELU6, TFW_INT8, 2, d, 1e-37f, 3, 1e-37f, 3, &op);
  expect(m, "relu6_tiny.tflite", 0, NULL, NULL, "RELU6 with a scale of 1e-37");
  m = unary(TFW_OP_RELU, TFW_UINT8, 2, d, 1e-37f, 3, 1e-37f, 3, &op);
  expect(m, "relu_tiny.tflite", 0, NULL, NULL, "uint8 RELU with a scale of 1e-37");

  /* LEAKY_RELU/RELU uint8 from scale 1e30 to scale 7.6e-4: a multiplier
   * of 2^110.  With single rounding it saturated, the requantization
   * wrapped to near INT32_MAX, and adding the output zero point
   * overflowed int32.  TFLite's uint8 kernels round twice, so
   * --rounding single (TFLite's arithmetic) now refuses it as the default
   * does: the multiplier has no representation. */
  m = unary(TFW_OP_LEAKY_RELU, TFW_UINT8, 2, d, 1e30f, 3, 0.00076f, 255, &op);
  tfw_leaky_relu_options(m, op, 0.618f);
  expect(m, "leaky_saturate.tflite", 1, "LEAKY_RELU", "not supported for these types",
         "uint8 LEAKY_RELU from scale 1e30 to 7.6e-4, zero point 255, single rounding");
  m = unary(TFW_OP_RELU, TFW_UINT8, 2, d, 1e30f, 3, 0.00076f, 255, &op);
  expect(m, "relu_saturate.tflite", 1, "RELU", "not supported for these types",
         "uint8 RELU from scale 1e30 to 7.6e-4, zero point 255, single rounding");

  /* An input or output scale of exactly 1 printed as "1f" in the
   * header's _SCALE macro, which is no C. */
  m = unary(TFW_OP_RELU, TFW_INT8, 2, d, 1.0f, 0, 2.0f, 0, &op);
  expect(m, "scale_one.tflite", 0, NULL, NULL, "RELU with scales 1 and 2 (integral literals)");
}

static void option_fields(void) {
  int32_t d[2] = {2, 8};
  int op;
  TfwModel *m;

  /* SOFTMAX: a NaN beta reached flit()'s die(). */
  m = unary(TFW_OP_SOFTMAX, TFW_FLOAT32, 2, d, 0, 0, 0, 0, &op);
  tfw_softmax_options(m, op, NAN);
  expect(m, "beta_nan.tflite", 0, "SOFTMAX", "beta nan is not a finite number",
         "SOFTMAX with beta NaN");
  m = unary(TFW_OP_LEAKY_RELU, TFW_FLOAT32, 2, d, 0, 0, 0, 0, &op);
  tfw_leaky_relu_options(m, op, INFINITY);
  expect(m, "alpha_inf.tflite", 0, "LEAKY_RELU", "alpha inf is not a finite number",
         "LEAKY_RELU with alpha infinity");

  /* MAX_POOL_2D: a stride of INT32_MAX overflowed the output size. */
  int32_t d4[4] = {1, 4, 4, 2};
  m = unary(TFW_OP_MAX_POOL_2D, TFW_FLOAT32, 4, d4, 0, 0, 0, 0, &op);
  tfw_pool2d_options(m, op, TFW_PAD_SAME, INT32_MAX, INT32_MAX, 2, 2, TFW_ACT_NONE);
  expect(m, "stride_max.tflite", 0, "MAX_POOL_2D", "output shape disagrees",
         "MAX_POOL_2D with a stride of INT32_MAX");
  /* ... and a filter of INT32_MAX (VALID: in - filter + stride). */
  m = unary(TFW_OP_AVERAGE_POOL_2D, TFW_FLOAT32, 4, d4, 0, 0, 0, 0, &op);
  tfw_pool2d_options(m, op, TFW_PAD_VALID, 1, 1, INT32_MAX, INT32_MAX, TFW_ACT_NONE);
  expect(m, "filter_max.tflite", 0, "AVERAGE_POOL_2D", "output shape disagrees",
         "AVERAGE_POOL_2D with a filter of INT32_MAX");
}

static void kernels_and_shapes(void) {
  int32_t d[2] = {2, 8};
  TfwModel *m;

  /* CAST between types no kernel converts: the runner named a kernel
   * the runtime lacks, and emit died. */
  m = tfw_new();
  int in = tfw_tensor(m, "in", TFW_BOOL, 2, d, 0);
  int out = tfw_tensor(m, "out", TFW_INT16, 2, d, 0);
  int op = tfw_op(m, TFW_OP_CAST, 1, &in, 1, &out);
  tfw_cast_options(m, op, TFW_BOOL, TFW_INT16);
  tfw_inputs(m, 1, &in);
  tfw_outputs(m, 1, &out);
  expect(m, "cast_bool.tflite", 0, "CAST", "not supported for these types",
         "CAST bool -> int16");
  /* DEQUANTIZE int32 likewise. */
  m = tfw_new();
  in = tfw_tensor(m, "in", TFW_INT32, 2, d, 0);
  tfw_quant1(m, in, 0.5f, 0);
  out = tfw_tensor(m, "out", TFW_FLOAT32, 2, d, 0);
  op = tfw_op(m, TFW_OP_DEQUANTIZE, 1, &in, 1, &out);
  tfw_empty_options(m, op);
  tfw_inputs(m, 1, &in);
  tfw_outputs(m, 1, &out);
  expect(m, "dequantize_s32.tflite", 0, "DEQUANTIZE", "not supported for these types",
         "DEQUANTIZE int32 -> float32");

  /* ZEROS_LIKE int32 straight into the model's int32 output: the runner
   * passed an int32_t * where the kernel took a uint8_t *. */
  m = tfw_new();
  in = tfw_tensor(m, "in", TFW_INT32, 2, d, 0);
  out = tfw_tensor(m, "out", TFW_INT32, 2, d, 0);
  tfw_op(m, 93 /* ZEROS_LIKE */, 1, &in, 1, &out);
  tfw_inputs(m, 1, &in);
  tfw_outputs(m, 1, &out);
  expect(m, "zeros_like_s32.tflite", 0, NULL, NULL, "ZEROS_LIKE int32 into the model output");

  /* PACK of one [1] input into a [1,6] output: the kernel wrote 24 bytes
   * from a 4-byte input. */
  int32_t one[1] = {1}, d16[2] = {1, 6};
  m = tfw_new();
  in = tfw_tensor(m, "in", TFW_FLOAT32, 1, one, 0);
  out = tfw_tensor(m, "out", TFW_FLOAT32, 2, d16, 0);
  op = tfw_op(m, TFW_OP_PACK, 1, &in, 1, &out);
  tfw_pack_options(m, op, 1, 0);
  tfw_inputs(m, 1, &in);
  tfw_outputs(m, 1, &out);
  expect(m, "pack_shape.tflite", 0, "PACK", "output shape disagrees",
         "PACK whose output is larger than its inputs");
  /* UNPACK [4,3,3] on axis -1 into [4,3], [4], [4,3]: 12 bytes written
   * into the 4-byte output. */
  int32_t d433[3] = {4, 3, 3}, d43[2] = {4, 3}, d4[1] = {4};
  m = tfw_new();
  in = tfw_tensor(m, "in", TFW_INT8, 3, d433, 0);
  int outs[3] = {tfw_tensor(m, "o1", TFW_INT8, 2, d43, 0),
                 tfw_tensor(m, "o2", TFW_INT8, 1, d4, 0),
                 tfw_tensor(m, "o3", TFW_INT8, 2, d43, 0)};
  tfw_quant1(m, in, 0.5f, 0);
  for (int k = 0; k < 3; k++)
    tfw_quant1(m, outs[k], 0.5f, 0);
  op = tfw_op(m, TFW_OP_UNPACK, 1, &in, 3, outs);
  tfw_unpack_options(m, op, 3, -1);
  tfw_inputs(m, 1, &in);
  tfw_outputs(m, 3, outs);
  expect(m, "unpack_shape.tflite", 0, "UNPACK", "output 1's shape disagrees",
         "UNPACK with an output of the wrong shape");

  /* An empty activation: no kernel is written for it. */
  int32_t d0[2] = {2, 0};
  m = unary(TFW_OP_RELU, TFW_FLOAT32, 2, d0, 0, 0, 0, 0, &op);
  expect(m, "empty.tflite", 0, NULL, "has a dimension of size 0", "a RELU of shape [2,0]");
}

/* A 16x8 DEPTHWISE_CONV_2D (kind 0) or TRANSPOSE_CONV (kind 1), 1x2x2x2
 * with a 1x1 filter, and a bias of type bias_dt (or none: -1). */
static TfwModel *conv16(int kind, int bias_dt) {
  TfwModel *m = tfw_new();
  int32_t d[4] = {1, 2, 2, 2}, fd[4] = {kind ? 2 : 1, 1, 1, 2}, bd[1] = {2}, sd[1] = {4};
  int8_t w[4] = {1, -2, 3, -4};
  int64_t b64[2] = {5, -6};
  int32_t b32[2] = {5, -6};
  float ws[2] = {0.01f, 0.02f}, bs[2] = {0.001f, 0.002f};
  int64_t zp[2] = {0, 0};
  int in = tfw_tensor(m, "in", TFW_INT16, 4, d, 0);
  tfw_quant1(m, in, 0.1f, 0);
  int out = tfw_tensor(m, "out", TFW_INT16, 4, d, 0);
  tfw_quant1(m, out, 0.2f, 0);
  int f = tfw_const(m, "filter", TFW_INT8, 4, fd, w);
  tfw_quant(m, f, 2, ws, zp, kind ? 0 : 3);
  int b = -1;
  if (bias_dt >= 0) {
    b = tfw_const(m, "bias", bias_dt, 1, bd, bias_dt == TFW_INT64 ? (void *)b64 : (void *)b32);
    tfw_quant(m, b, 2, bs, zp, 0);
  }
  if (kind) {
    int shape = tfw_const(m, "shape", TFW_INT32, 1, sd, d);
    int ins[4] = {shape, f, in, b};
    int op = tfw_op(m, TFW_OP_TRANSPOSE_CONV, b >= 0 ? 4 : 3, ins, 1, &out);
    tfw_transpose_conv_options(m, op, TFW_PAD_VALID, 1, 1, 0);
  } else {
    int ins[3] = {in, f, b};
    int op = tfw_op(m, TFW_OP_DEPTHWISE_CONV_2D, 3, ins, 1, &out);
    tfw_depthwise_options(m, op, TFW_PAD_VALID, 1, 1, 1, 0, 1, 1);
  }
  tfw_inputs(m, 1, &in);
  tfw_outputs(m, 1, &out);
  return m;
}

/* STRIDED_SLICE of `in` (dtype dt, shape d) with constant begin, end and
 * strides (int32 or int64 by cdt, k values) into an output of shape od. */
static TfwModel *strided_slice(int dt, int nd, const int32_t *d, int cdt, int k,
                               const void *b, const void *e, const void *s,
                               int nod, const int32_t *od) {
  TfwModel *m = tfw_new();
  int32_t kd[1] = {k};
  int t[4];
  t[0] = tfw_tensor(m, "in", dt, nd, d, 0);
  t[1] = tfw_const(m, "begin", cdt, 1, kd, b);
  t[2] = tfw_const(m, "end", cdt, 1, kd, e);
  t[3] = tfw_const(m, "strides", cdt, 1, kd, s);
  int out = tfw_tensor(m, "out", dt, nod, od, 0);
  if (dt == TFW_INT16) {
    tfw_quant1(m, t[0], 0.001f, 0);
    tfw_quant1(m, out, 0.001f, 0);
  }
  int op = tfw_op(m, TFW_OP_STRIDED_SLICE, 4, t, 1, &out);
  tfw_strided_slice_options(m, op, 0, 0, 0, 0, 0, 0);
  tfw_inputs(m, 1, &t[0]);
  tfw_outputs(m, 1, &out);
  return m;
}

static void s16_biases(void) {
  expect(conv16(0, TFW_INT32), "dw16_b32.tflite", 0, "DEPTHWISE_CONV_2D",
         "16x8 DEPTHWISE_CONV_2D with an int32 bias is not supported",
         "16x8 DEPTHWISE_CONV_2D with an int32 bias");
  expect(conv16(0, TFW_INT64), "dw16_b64.tflite", 0, NULL, NULL,
         "16x8 DEPTHWISE_CONV_2D with an int64 bias");
  expect(conv16(0, -1), "dw16_none.tflite", 1, NULL, NULL,
         "16x8 DEPTHWISE_CONV_2D without bias, single rounding");
  expect(conv16(1, TFW_INT32), "tc16_b32.tflite", 0, "TRANSPOSE_CONV",
         "with --rounding double: TFLite Micro's kernel reads the bias as int64",
         "16x8 TRANSPOSE_CONV with an int32 bias, double rounding");
  expect(conv16(1, TFW_INT32), "tc16_b32s.tflite", 1, NULL, NULL,
         "16x8 TRANSPOSE_CONV with an int32 bias, single rounding");
  expect(conv16(1, TFW_FLOAT32), "tc16_bf.tflite", 1, "TRANSPOSE_CONV",
         "a float32 bias is not supported (int64 or int32 expected)",
         "16x8 TRANSPOSE_CONV with a float bias");
}

static void resizes(void) {
  /* RESIZE_BILINEAR to a width of 33554440: 1024 * size overflowed int32
   * in bilinear_axis() (found by make fuzz-compile). */
  TfwModel *m = tfw_new();
  int32_t din[4] = {1, 1, 2, 1}, dout[4] = {1, 1, 33554440, 1}, sz[2] = {1, 33554440};
  int in = tfw_tensor(m, "in", TFW_FLOAT32, 4, din, 0);
  int size = tfw_const(m, "size", TFW_INT32, 1, (int32_t[]){2}, sz);
  int out = tfw_tensor(m, "out", TFW_FLOAT32, 4, dout, 0);
  int op = tfw_op(m, TFW_OP_RESIZE_BILINEAR, 2, (int[]){in, size}, 1, &out);
  tfw_resize_bilinear_options(m, op, 0, 0);
  tfw_inputs(m, 1, &in);
  tfw_outputs(m, 1, &out);
  expect(m, "resize_wide.tflite", 0, "RESIZE_BILINEAR", "overflow the resize's fixed-point",
         "RESIZE_BILINEAR to a width of 33554440");
}

static void slices(void) {
  /* int16 (lower_s16.c): a stride of INT32_MIN was negated in int32. */
  int32_t d[4] = {1, 7, 2, 4}, od[4] = {1, 7, 1, 4};
  int32_t b[4] = {0, 0, 1, 0}, e[4] = {1, 7, 0, 4}, s[4] = {1, 1, INT32_MIN, 1};
  expect(strided_slice(TFW_INT16, 4, d, TFW_INT32, 4, b, e, s, 4, od),
         "slice_s16_min.tflite", 0, NULL, NULL,
         "an int16 STRIDED_SLICE with a stride of INT32_MIN");
  /* float (lower_ops.c) with int64 begin/end/strides at the int64
   * extremes: end + begin, -stride and stride * size overflowed. */
  int32_t d2[2] = {3, 5}, od2[2] = {1, 1};
  int64_t b2[2] = {0, INT64_MAX}, e2[2] = {INT64_MAX, INT64_MIN};
  int64_t s2[2] = {INT64_MAX, INT64_MIN};
  expect(strided_slice(TFW_FLOAT32, 2, d2, TFW_INT64, 2, b2, e2, s2, 2, od2),
         "slice_i64_extremes.tflite", 0, NULL, NULL,
         "a float STRIDED_SLICE with int64 begin, end and strides at the extremes");
}

static void graphs(void) {
  int32_t d[1] = {2};
  TfwModel *m;

  /* No outputs: struct m_outputs {} is no C. */
  m = tfw_new();
  int in = tfw_tensor(m, "in", TFW_FLOAT32, 1, d, 0);
  int out = tfw_tensor(m, "out", TFW_FLOAT32, 1, d, 0);
  tfw_op(m, TFW_OP_RELU, 1, &in, 1, &out);
  tfw_inputs(m, 1, &in);
  expect(m, "no_outputs.tflite", 0, NULL, "the model has 1 inputs and 0 outputs",
         "a model without outputs");

  /* No ops, the input is the output, inputs and outputs in the
   * workspace: the memory order's peak (0) disagreed with its lifetimes
   * and plan_graph() died. */
  m = tfw_new();
  in = tfw_tensor(m, "in", TFW_FLOAT32, 1, d, 0);
  tfw_inputs(m, 1, &in);
  tfw_outputs(m, 1, &in);
  expect(m, "no_ops.tflite", 4, NULL, NULL,
         "a model without ops, inputs and outputs in the workspace");
}

static void sizes(void) {
  /* Two 1.5 GB intermediates live at once: a 3 GB workspace, whose
   * offsets a 32-bit target cannot form. */
  int32_t d[1] = {375000000};
  TfwModel *m = tfw_new();
  int in = tfw_tensor(m, "in", TFW_FLOAT32, 1, d, 0);
  int a = tfw_tensor(m, "a", TFW_FLOAT32, 1, d, 0);
  int b = tfw_tensor(m, "b", TFW_FLOAT32, 1, d, 0);
  int out = tfw_tensor(m, "out", TFW_FLOAT32, 1, d, 0);
  tfw_op(m, TFW_OP_RELU, 1, &in, 1, &a);
  tfw_op(m, TFW_OP_RELU6, 1, &in, 1, &b);
  int ab[2] = {a, b};
  int op = tfw_op(m, TFW_OP_ADD, 2, ab, 1, &out);
  tfw_add_options(m, op, TFW_ACT_NONE, -1);
  tfw_inputs(m, 1, &in);
  tfw_outputs(m, 1, &out);
  expect(m, "huge_plan.tflite", 2, NULL, "the generated code addresses at most",
         "two live 1.5 GB intermediates");
}

int main(void) {
  static char dir[] = "/tmp/tinyaot-regress-XXXXXX";
  tmpdir = mkdtemp(dir);
  if (!tmpdir) {
    CHECK(0, "a temporary folder can be made");
    return test_exit();
  }
  plan_search_iterations = 64;
  quantization();
  option_fields();
  kernels_and_shapes();
  s16_biases();
  slices();
  resizes();
  graphs();
  sizes();
  remove_tree(tmpdir);
  return test_exit();
}
