/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_tiny_cnn.c - writes examples/tiny_cnn: a small int8 image
 * classifier with fixed weights, owned by this project.
 *
 *   gen_tiny_cnn OUTDIR      -> OUTDIR/tiny_cnn.tflite, OUTDIR/input.bin
 *
 * The network (int8 activations, int8 per-channel convolution weights,
 * int32 biases, TFLite's quantization scheme):
 *
 *   input     [1,16,16,1]  scale 1/255, zero point -128 (pixels 0..1)
 *   CONV_2D   3x3, 8 filters, stride 2, SAME, RELU      -> [1,8,8,8]
 *   DEPTHWISE_CONV_2D 3x3, multiplier 1, SAME, RELU6    -> [1,8,8,8]
 *   AVERAGE_POOL_2D 2x2, stride 2, VALID                -> [1,4,4,8]
 *   RESHAPE                                             -> [1,128]
 *   FULLY_CONNECTED 4 outputs (per-tensor weights)      -> [1,4]
 *   SOFTMAX   scale 1/256, zero point -128              -> [1,4]
 *
 * Weights and biases come from a fixed-seed generator (splitmix64), so
 * the same command always writes the same bytes.  The scales were chosen
 * from the spread of each layer's sums so that few activations saturate.
 * input.bin is a drawn test image: a bright ring on a dark background.
 * Only integer and float arithmetic without library calls is used, so
 * the bytes do not depend on the C library.
 */
#include "tflite_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t state = 20240611;

static uint64_t next(void) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* Uniform integer in [lo, hi]. */
static int uniform(int lo, int hi) { return lo + (int)(next() % (uint64_t)(hi - lo + 1)); }

/* Per-channel int8 weights: values in [-127, 127], channel c with scale
 * base * (0.75 + 0.5 * c / n). */
static int conv_weights(TfwModel *m, const char *name, const int32_t *dims, int qdim,
                        float base, float *scales) {
  int n = dims[0] * dims[1] * dims[2] * dims[3];
  int nch = dims[qdim];
  int8_t *w = malloc((size_t)n);
  int64_t zp[64] = {0};
  if (!w)
    exit(1);
  for (int i = 0; i < n; i++)
    w[i] = (int8_t)uniform(-127, 127);
  for (int c = 0; c < nch; c++)
    scales[c] = base * (0.75f + 0.5f * (float)c / (float)nch);
  int t = tfw_const(m, name, TFW_INT8, 4, dims, w);
  tfw_quant(m, t, nch, scales, zp, qdim);
  free(w);
  return t;
}

/* int32 bias with scale in_scale * w_scale[c]; real values in
 * [-range, range]. */
static int bias(TfwModel *m, const char *name, int n, float in_scale, const float *w_scale,
                float range) {
  int32_t v[64];
  float s[64];
  int64_t zp[64] = {0};
  for (int c = 0; c < n; c++) {
    s[c] = in_scale * w_scale[c];
    float real = range * (float)uniform(-1000, 1000) / 1000.0f;
    float q = real / s[c];
    v[c] = (int32_t)(q < 0 ? q - 0.5f : q + 0.5f);
  }
  int32_t d = n;
  int t = tfw_const(m, name, TFW_INT32, 1, &d, v);
  tfw_quant(m, t, n, s, zp, 0);
  return t;
}

static int act(TfwModel *m, const char *name, int ndims, const int32_t *dims, float scale,
               int64_t zp) {
  int t = tfw_tensor(m, name, TFW_INT8, ndims, dims, 0);
  tfw_quant1(m, t, scale, zp);
  return t;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: gen_tiny_cnn OUTDIR\n");
    return 2;
  }
  const char *dir = argv[1];
  TfwModel *m = tfw_new();

  const float s_in = 1.0f / 255, s_c1 = 0.005f, s_dw = 0.006f, s_fc = 0.02f;
  int32_t d_in[4] = {1, 16, 16, 1}, d_c1[4] = {1, 8, 8, 8}, d_p[4] = {1, 4, 4, 8};
  int32_t d_flat[2] = {1, 128}, d_out[2] = {1, 4};

  int in = act(m, "input", 4, d_in, s_in, -128);

  float ws1[8];
  int32_t d_w1[4] = {8, 3, 3, 1};
  int w1 = conv_weights(m, "conv/filter", d_w1, 0, 0.6f / 127, ws1);
  int b1 = bias(m, "conv/bias", 8, s_in, ws1, 0.3f);
  int c1 = act(m, "conv", 4, d_c1, s_c1, -128);
  int ins1[3] = {in, w1, b1};
  int op = tfw_op(m, TFW_OP_CONV_2D, 3, ins1, 1, &c1);
  tfw_conv2d_options(m, op, TFW_PAD_SAME, 2, 2, TFW_ACT_RELU, 1, 1);

  float ws2[8];
  int32_t d_w2[4] = {1, 3, 3, 8};
  int w2 = conv_weights(m, "depthwise/filter", d_w2, 3, 0.8f / 127, ws2);
  int b2 = bias(m, "depthwise/bias", 8, s_c1, ws2, 0.2f);
  int c2 = act(m, "depthwise", 4, d_c1, s_dw, -128);
  int ins2[3] = {c1, w2, b2};
  op = tfw_op(m, TFW_OP_DEPTHWISE_CONV_2D, 3, ins2, 1, &c2);
  tfw_depthwise_options(m, op, TFW_PAD_SAME, 1, 1, 1, TFW_ACT_RELU6, 1, 1);

  int p = act(m, "pool", 4, d_p, s_dw, -128);
  op = tfw_op(m, TFW_OP_AVERAGE_POOL_2D, 1, &c2, 1, &p);
  tfw_pool2d_options(m, op, TFW_PAD_VALID, 2, 2, 2, 2, TFW_ACT_NONE);

  int32_t shape[2] = {1, 128}, d_shape = 2;
  int sh = tfw_const(m, "flatten/shape", TFW_INT32, 1, &d_shape, shape);
  int flat = act(m, "flatten", 2, d_flat, s_dw, -128);
  int ins3[2] = {p, sh};
  op = tfw_op(m, TFW_OP_RESHAPE, 2, ins3, 1, &flat);
  tfw_reshape_options(m, op, 2, shape);

  int8_t wfc[4 * 128];
  for (int i = 0; i < 4 * 128; i++)
    wfc[i] = (int8_t)uniform(-127, 127);
  int32_t d_wfc[2] = {4, 128};
  float s_wfc = 0.25f / 127;
  int tw = tfw_const(m, "dense/weights", TFW_INT8, 2, d_wfc, wfc);
  tfw_quant1(m, tw, s_wfc, 0);
  float ws3[4] = {s_wfc, s_wfc, s_wfc, s_wfc};
  int b3 = bias(m, "dense/bias", 4, s_dw, ws3, 0.5f);
  int fc = act(m, "dense", 2, d_out, s_fc, 0);
  int ins4[3] = {flat, tw, b3};
  op = tfw_op(m, TFW_OP_FULLY_CONNECTED, 3, ins4, 1, &fc);
  tfw_fully_connected_options(m, op, TFW_ACT_NONE, 0);

  int out = act(m, "probabilities", 2, d_out, 1.0f / 256, -128);
  op = tfw_op(m, TFW_OP_SOFTMAX, 1, &fc, 1, &out);
  tfw_softmax_options(m, op, 1.0f);

  tfw_inputs(m, 1, &in);
  tfw_outputs(m, 1, &out);

  char path[4096];
  snprintf(path, sizeof path, "%s/tiny_cnn.tflite", dir);
  if (tfw_write_file(m, path) != 0) {
    perror(path);
    return 1;
  }
  tfw_free(m);

  /* The test image: a bright ring of radius 5 pixels around the centre,
   * in integer arithmetic (d2 is the squared distance in half pixels). */
  int8_t img[16 * 16];
  for (int y = 0; y < 16; y++)
    for (int x = 0; x < 16; x++) {
      int d2 = (2 * x - 15) * (2 * x - 15) + (2 * y - 15) * (2 * y - 15);
      int v = 255 - 4 * abs(d2 - 100);
      img[y * 16 + x] = (int8_t)((v < 0 ? 0 : v) - 128);
    }
  snprintf(path, sizeof path, "%s/input.bin", dir);
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(img, 1, sizeof img, f) != sizeof img || fclose(f) != 0) {
    perror(path);
    return 1;
  }
  return 0;
}
