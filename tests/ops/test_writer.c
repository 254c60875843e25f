/* SPDX-License-Identifier: Apache-2.0 */
/* The .tflite writer (tools/tflite_writer.c) against the compiler's
 * reader: what one writes, the other reads back, field by field.  (That
 * real TFLite reads the writer's files is checked by test_ops.sh.) */
#include "test.h"
#include "tinyaot.h"

#include "lower_helpers.h"

/* Serializes m and reads it back; NULL (after a failed check) if the
 * reader refuses it. */
static Graph *round_trip(TfwModel *m, const char *what) {
  Graph *g = compile_model(m, what, NULL);
  if (!g)
    CHECK(0, "the reader accepts %s: %s", what, error_message);
  return g;
}

/* A model with one op of `code` on float tensors in -> out; the caller
 * sets the options. */
static TfwModel *one_op(int code, int *op) {
  TfwModel *m = tfw_new();
  int32_t d[4] = {1, 2, 2, 1};
  int in = tfw_tensor(m, "in", TFW_FLOAT32, 4, d, 0);
  int out = tfw_tensor(m, "out", TFW_FLOAT32, 4, d, 0);
  *op = tfw_op(m, code, 1, &in, 1, &out);
  tfw_inputs(m, 1, &in);
  tfw_outputs(m, 1, &out);
  return m;
}

static void check_tensors(void) {
  TfwModel *m = tfw_new();
  int32_t d_in[4] = {1, 4, 4, 3}, d_f[4] = {2, 1, 1, 3}, d_dw[4] = {1, 1, 1, 3};
  int in = tfw_tensor(m, "input", TFW_INT8, 4, d_in, 0);
  tfw_quant1(m, in, 0.5f, -3);
  int8_t w[6] = {1, -2, 3, -4, 5, -127};
  int f = tfw_const(m, "filter", TFW_INT8, 4, d_f, w);
  float fs[2] = {0.25f, 0.125f};
  int64_t fz[2] = {0, 0};
  tfw_quant(m, f, 2, fs, fz, 0);
  int8_t dwv[3] = {7, 8, 9};
  int dw = tfw_const(m, "dw", TFW_INT8, 4, d_dw, dwv);
  float ds[3] = {1, 2, 4};
  int64_t dz[3] = {0, 0, 0};
  tfw_quant(m, dw, 3, ds, dz, 3);
  int64_t b64[2] = {-5000000000LL, 7};
  int32_t d2 = 2;
  int bias = tfw_const(m, "bias64", TFW_INT64, 1, &d2, b64);
  int32_t s = 42;
  int scalar = tfw_const(m, "scalar", TFW_INT32, 0, NULL, &s);
  int var = tfw_tensor(m, "state", TFW_INT16, 1, &d2, 0);
  tfw_set_variable(m, var);
  int32_t d_out[4] = {1, 4, 4, 2};
  int out = tfw_tensor(m, "output", TFW_INT8, 4, d_out, 0);
  tfw_quant1(m, out, 1.0f / 256, -128);
  int ins[3] = {in, f, -1};
  int op = tfw_op(m, TFW_OP_CONV_2D, 3, ins, 1, &out);
  tfw_conv2d_options(m, op, TFW_PAD_SAME, 1, 1, TFW_ACT_NONE, 1, 1);
  tfw_op_version(m, op, 3);
  tfw_inputs(m, 1, &in);
  tfw_outputs(m, 1, &out);
  Graph *g = round_trip(m, "tensors.tflite");
  tfw_free(m);
  if (!g)
    return;
  CHECK(g->schema_version == 3 && g->ntensors == 7 && g->nops == 1,
        "the writer's model has schema 3, 7 tensors and 1 op (got %u, %d, %d)",
        g->schema_version, g->ntensors, g->nops);
  const Tensor *t = &g->tensors[in];
  CHECK(!strcmp(t->name, "input") && t->dtype == DT_INT8 && t->ndims == 4 && t->dims[1] == 4 &&
            t->dims[3] == 3 && !is_const(t) && t->is_input,
        "the input reads back as int8[1,4,4,3], not constant, a model input");
  CHECK(t->q.nscale == 1 && t->q.scale[0] == 0.5f && t->q.zero_point[0] == -3,
        "per-tensor quantization reads back (scale 0.5, zero point -3)");
  t = &g->tensors[f];
  CHECK(is_const(t) && t->ndata == 6 && !memcmp(t->data, w, 6),
        "constant int8 bytes read back unchanged");
  CHECK(t->q.nscale == 2 && t->q.scale[1] == 0.125f && t->q.axis == 0,
        "per-channel scales along dimension 0 read back");
  t = &g->tensors[dw];
  CHECK(t->q.nscale == 3 && t->q.scale[2] == 4.0f && t->q.axis == 3,
        "per-channel scales along quantized_dimension 3 read back (got axis %d)", t->q.axis);
  t = &g->tensors[bias];
  int64_t back[2];
  if (t->ndata == sizeof back)
    memcpy(back, t->data, sizeof back);
  CHECK(t->dtype == DT_INT64 && t->ndata == 16 && back[0] == b64[0] && back[1] == 7,
        "int64 constants read back unchanged");
  t = &g->tensors[scalar];
  CHECK(t->ndims == 0 && t->ndata == 4 && t->data[0] == 42, "a rank-0 constant reads back");
  CHECK(g->tensors[var].is_variable && !g->tensors[in].is_variable,
        "is_variable reads back on the variable tensor only");
  t = &g->tensors[out];
  CHECK(t->is_output && t->producer == 0, "the output is a model output produced by op 0");
  const Op *o = &g->ops[0];
  CHECK(o->kind == OP_CONV_2D && o->version == 3 && o->ninputs == 3 && o->inputs[2] == -1,
        "the op reads back as CONV_2D version 3 with an omitted optional input");
  /* The file sits 16-aligned in arena memory, so the address tells. */
  CHECK((uintptr_t)g->tensors[f].data % 16 == 0 && (uintptr_t)g->tensors[bias].data % 16 == 0,
        "constant data lies 16-byte aligned in the file (Buffer.data force_align)");
}

static void check_options(void) {
  int op;
  TfwModel *m;
  Graph *g;

  m = one_op(TFW_OP_CONV_2D, &op);
  tfw_conv2d_options(m, op, TFW_PAD_VALID, 2, 3, TFW_ACT_RELU6, 4, 5);
  if ((g = round_trip(m, "conv.tflite"))) {
    const Options *o = &g->ops[0].opt;
    CHECK(o->padding == PAD_VALID && o->stride_w == 2 && o->stride_h == 3 &&
              o->activation == ACT_RELU6 && o->dilation_w == 4 && o->dilation_h == 5,
          "Conv2DOptions read back (VALID, stride 2x3, RELU6, dilation 4x5)");
  }
  tfw_free(m);

  m = one_op(TFW_OP_DEPTHWISE_CONV_2D, &op);
  tfw_depthwise_options(m, op, TFW_PAD_SAME, 3, 2, 4, TFW_ACT_RELU_N1_TO_1, 2, 1);
  if ((g = round_trip(m, "dw.tflite"))) {
    const Options *o = &g->ops[0].opt;
    CHECK(o->padding == PAD_SAME && o->stride_w == 3 && o->stride_h == 2 &&
              o->depth_multiplier == 4 && o->activation == ACT_RELU_N1_TO_1 &&
              o->dilation_w == 2 && o->dilation_h == 1,
          "DepthwiseConv2DOptions read back");
  }
  tfw_free(m);

  m = one_op(TFW_OP_TRANSPOSE_CONV, &op);
  tfw_transpose_conv_options(m, op, TFW_PAD_VALID, 2, 3, TFW_ACT_RELU);
  if ((g = round_trip(m, "tconv.tflite"))) {
    const Options *o = &g->ops[0].opt;
    CHECK(o->padding == PAD_VALID && o->stride_w == 2 && o->stride_h == 3 &&
              o->activation == ACT_RELU,
          "TransposeConvOptions read back");
  }
  tfw_free(m);

  m = one_op(TFW_OP_MAX_POOL_2D, &op);
  tfw_pool2d_options(m, op, TFW_PAD_SAME, 1, 2, 3, 4, TFW_ACT_RELU);
  if ((g = round_trip(m, "pool.tflite"))) {
    const Options *o = &g->ops[0].opt;
    CHECK(o->stride_w == 1 && o->stride_h == 2 && o->filter_w == 3 && o->filter_h == 4 &&
              o->activation == ACT_RELU,
          "Pool2DOptions read back (stride 1x2, filter 3x4)");
  }
  tfw_free(m);

  m = one_op(TFW_OP_FULLY_CONNECTED, &op);
  tfw_fully_connected_options(m, op, TFW_ACT_RELU, 1);
  if ((g = round_trip(m, "fc.tflite")))
    CHECK(g->ops[0].opt.keep_num_dims && g->ops[0].opt.activation == ACT_RELU,
          "FullyConnectedOptions read back (keep_num_dims, RELU)");
  tfw_free(m);

  m = one_op(TFW_OP_SOFTMAX, &op);
  tfw_softmax_options(m, op, 0.75f);
  if ((g = round_trip(m, "softmax.tflite")))
    CHECK(g->ops[0].opt.beta == 0.75f, "SoftmaxOptions beta reads back (got %g)",
          g->ops[0].opt.beta);
  tfw_free(m);

  m = one_op(TFW_OP_CONCATENATION, &op);
  tfw_concatenation_options(m, op, -2, TFW_ACT_NONE);
  if ((g = round_trip(m, "concat.tflite")))
    CHECK(g->ops[0].opt.axis == -2, "ConcatenationOptions axis -2 reads back");
  tfw_free(m);

  m = one_op(TFW_OP_ADD, &op);
  tfw_add_options(m, op, TFW_ACT_RELU6, 0);
  if ((g = round_trip(m, "add.tflite")))
    CHECK(g->ops[0].opt.activation == ACT_RELU6 && !g->ops[0].opt.pot_scale_int16,
          "AddOptions read back (RELU6, pot_scale_int16 false)");
  tfw_free(m);

  m = one_op(TFW_OP_SUB, &op);
  tfw_sub_options(m, op, TFW_ACT_NONE, -1);
  if ((g = round_trip(m, "sub.tflite")))
    CHECK(g->ops[0].opt.pot_scale_int16, "SubOptions without pot_scale_int16 read as true");
  tfw_free(m);

  m = one_op(TFW_OP_MUL, &op);
  tfw_mul_options(m, op, TFW_ACT_RELU);
  if ((g = round_trip(m, "mul.tflite")))
    CHECK(g->ops[0].opt.activation == ACT_RELU, "MulOptions read back");
  tfw_free(m);

  m = one_op(TFW_OP_MEAN, &op);
  tfw_reducer_options(m, op, 1);
  if ((g = round_trip(m, "mean.tflite")))
    CHECK(g->ops[0].opt.keep_dims, "ReducerOptions keep_dims reads back");
  tfw_free(m);

  int32_t shape[3] = {2, -1, 3};
  m = one_op(TFW_OP_RESHAPE, &op);
  tfw_reshape_options(m, op, 3, shape);
  if ((g = round_trip(m, "reshape.tflite")))
    CHECK(g->ops[0].opt.nnew_shape == 3 && g->ops[0].opt.new_shape[1] == -1 &&
              g->ops[0].opt.new_shape[2] == 3,
          "ReshapeOptions new_shape [2,-1,3] reads back");
  tfw_free(m);

  m = one_op(TFW_OP_RESHAPE, &op);
  tfw_reshape_options(m, op, -1, NULL);
  if ((g = round_trip(m, "reshape2.tflite")))
    CHECK(g->ops[0].opt.nnew_shape == -1, "ReshapeOptions without new_shape reads as absent (got %d)",
          g->ops[0].opt.nnew_shape);
  tfw_free(m);

  int32_t sq[2] = {0, -1};
  m = one_op(TFW_OP_SQUEEZE, &op);
  tfw_squeeze_options(m, op, 2, sq);
  if ((g = round_trip(m, "squeeze.tflite")))
    CHECK(g->ops[0].opt.nsqueeze_dims == 2 && g->ops[0].opt.squeeze_dims[1] == -1,
          "SqueezeOptions squeeze_dims [0,-1] read back");
  tfw_free(m);

  m = one_op(TFW_OP_STRIDED_SLICE, &op);
  tfw_strided_slice_options(m, op, 1, 2, 0, 0, 8, 1);
  if ((g = round_trip(m, "slice.tflite"))) {
    const Options *o = &g->ops[0].opt;
    CHECK(o->begin_mask == 1 && o->end_mask == 2 && o->shrink_axis_mask == 8 && o->offset,
          "StridedSliceOptions masks and offset read back");
  }
  tfw_free(m);

  m = one_op(TFW_OP_SPLIT, &op);
  tfw_split_options(m, op, 3);
  if ((g = round_trip(m, "split.tflite")))
    CHECK(g->ops[0].opt.num == 3, "SplitOptions num_splits reads back");
  tfw_free(m);

  m = one_op(TFW_OP_SPLIT_V, &op);
  tfw_split_v_options(m, op, 4);
  if ((g = round_trip(m, "splitv.tflite")))
    CHECK(g->ops[0].opt.num == 4, "SplitVOptions num_splits reads back");
  tfw_free(m);

  m = one_op(TFW_OP_PACK, &op);
  tfw_pack_options(m, op, 3, -1);
  if ((g = round_trip(m, "pack.tflite")))
    CHECK(g->ops[0].opt.num == 3 && g->ops[0].opt.axis == -1, "PackOptions read back");
  tfw_free(m);

  m = one_op(TFW_OP_UNPACK, &op);
  tfw_unpack_options(m, op, 2, 1);
  if ((g = round_trip(m, "unpack.tflite")))
    CHECK(g->ops[0].opt.num == 2 && g->ops[0].opt.axis == 1, "UnpackOptions read back");
  tfw_free(m);

  m = one_op(TFW_OP_RESIZE_BILINEAR, &op);
  tfw_resize_bilinear_options(m, op, 0, 1);
  if ((g = round_trip(m, "bilinear.tflite")))
    CHECK(!g->ops[0].opt.align_corners && g->ops[0].opt.half_pixel_centers,
          "ResizeBilinearOptions read back (slots 2 and 3)");
  tfw_free(m);

  m = one_op(TFW_OP_RESIZE_NEAREST_NEIGHBOR, &op);
  tfw_resize_nearest_options(m, op, 1, 0);
  if ((g = round_trip(m, "nearest.tflite")))
    CHECK(g->ops[0].opt.align_corners && !g->ops[0].opt.half_pixel_centers,
          "ResizeNearestNeighborOptions read back (slots 0 and 1)");
  tfw_free(m);

  m = one_op(TFW_OP_ARG_MAX, &op);
  tfw_arg_max_options(m, op, TFW_INT32);
  if ((g = round_trip(m, "argmax.tflite")))
    CHECK(g->ops[0].opt.out_type == DT_INT32, "ArgMaxOptions output_type int32 reads back");
  tfw_free(m);

  m = one_op(TFW_OP_LEAKY_RELU, &op);
  tfw_leaky_relu_options(m, op, 0.2f);
  if ((g = round_trip(m, "leaky.tflite")))
    CHECK(g->ops[0].opt.alpha == 0.2f, "LeakyReluOptions alpha reads back");
  tfw_free(m);

  m = one_op(TFW_OP_CAST, &op);
  tfw_cast_options(m, op, TFW_UINT8, TFW_INT16);
  if ((g = round_trip(m, "cast.tflite")))
    CHECK(g->ops[0].opt.in_dtype == DT_UINT8 && g->ops[0].opt.out_dtype == DT_INT16,
          "CastOptions read back (uint8 -> int16)");
  tfw_free(m);

  static const int empty[] = {TFW_OP_PAD, TFW_OP_TRANSPOSE, TFW_OP_DEQUANTIZE,
                              TFW_OP_MAXIMUM, TFW_OP_MINIMUM, TFW_OP_EXPAND_DIMS,
                              TFW_OP_QUANTIZE, TFW_OP_HARD_SWISH};
  int accepted = 0;
  for (size_t i = 0; i < sizeof empty / sizeof empty[0]; i++) {
    m = one_op(empty[i], &op);
    tfw_empty_options(m, op);
    if (round_trip(m, "empty.tflite"))
      accepted++;
    tfw_free(m);
  }
  CHECK(accepted == 8, "the reader accepts the 8 field-less options tables with their union types");
}

/* The model examples/tiny_cnn is written by the same writer: it reads
 * and verifies. */
/* A custom op: its name and FlexBuffers options come back as the
 * reader's Op.custom_name and Op.attrs (keys sorted, ints, floats,
 * bools). */
static void check_custom(void) {
  TfwModel *m = tfw_new();
  int32_t d[2] = {1, 3};
  int in = tfw_tensor(m, "in", TFW_FLOAT32, 2, d, 0);
  int out = tfw_tensor(m, "out", TFW_FLOAT32, 2, d, 0);
  TfwFlexEntry e[] = {{"zeta", 'i', -7, 0}, {"alpha", 'f', 0, 0.625f},
                      {"flag", 'b', 1, 0}, {"count", 'i', 100000, 0}};
  uint8_t *bytes;
  size_t n = tfw_flex_map(e, 4, &bytes);
  tfw_custom_op(m, "MyOp", bytes, n, 1, &in, 1, &out);
  free(bytes);
  tfw_inputs(m, 1, &in);
  tfw_outputs(m, 1, &out);
  Graph *g = round_trip(m, "custom op");
  tfw_free(m);
  if (!g)
    return;
  const Op *op = &g->ops[0];
  const Attr *z = op_attr(op, "zeta"), *a = op_attr(op, "alpha");
  const Attr *f = op_attr(op, "flag"), *c = op_attr(op, "count");
  CHECK(op->kind == OP_CUSTOM && op->custom_name && !strcmp(op->custom_name, "MyOp") &&
            op->nattrs == 4 && !strcmp(op->attrs[0].key, "alpha") &&
            !strcmp(op->attrs[3].key, "zeta"),
        "a custom op reads back with its name and its 4 options, keys sorted");
  CHECK(z && z->kind == ATTR_INT && z->i == -7 && a && a->kind == ATTR_FLOAT &&
            a->f == 0.625 && f && f->kind == ATTR_INT && f->i == 1 && c &&
            c->kind == ATTR_INT && c->i == 100000,
        "its FlexBuffers options read back as int -7, float 0.625, bool 1, int 100000");
}

static void check_example(void) {
  FILE *f = fopen("examples/tiny_cnn/tiny_cnn.tflite", "rb");
  if (!f) {
    CHECK(0, "examples/tiny_cnn/tiny_cnn.tflite exists (run from the project root)");
    return;
  }
  fclose(f);
  size_t n;
  uint8_t *buf = read_file("examples/tiny_cnn/tiny_cnn.tflite", &n);
  jmp_buf jb;
  error_jmp = &jb;
  if (setjmp(jb)) {
    error_jmp = NULL;
    CHECK(0, "examples/tiny_cnn reads and verifies: %s", error_message);
    return;
  }
  Graph *g = read_tflite("examples/tiny_cnn/tiny_cnn.tflite", buf, n);
  verify(g);
  error_jmp = NULL;
  CHECK(g->nops == 6 && g->ops[0].kind == OP_CONV_2D && g->ops[5].kind == OP_SOFTMAX,
        "examples/tiny_cnn reads and verifies: 6 ops, CONV_2D ... SOFTMAX");
}

int main(void) {
  check_tensors();
  check_options();
  check_custom();
  check_example();
  return test_exit();
}
