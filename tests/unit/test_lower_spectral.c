/* SPDX-License-Identifier: Apache-2.0 */
/*
 * RFFT2D and COMPLEX_ABS through the reader, the verifier and the
 * lowering: what they accept (the complex64 tensor between them, the
 * parameters and twiddles handed to ta_rfft2d_f32) and what they refuse,
 * with the message.  Their arithmetic is checked against TFLite by the
 * differential suite (tests/ops, rows RFFT2D:float32 and
 * COMPLEX_ABS:complex64).
 */
#include "test.h"
#include "tinyaot.h"

#include <math.h>

#include "lower_helpers.h"

/* input [2, h, w] -> RFFT2D(fft_length fl) -> (COMPLEX_ABS when abs) ->
 * the output; `after` != 0 puts that op (one input, complex64 -> float32)
 * after the RFFT2D instead. */
static Graph *spectral(int32_t h, int32_t w, const int32_t fl[2], int abs, int after) {
  TfwModel *m = tfw_new();
  int32_t d[3] = {2, h, w}, od[3] = {2, fl[0], fl[1] / 2 + 1}, two = 2;
  int in = tfw_tensor(m, "x", TFW_FLOAT32, 3, d, 0);
  int len = tfw_const(m, "fft_length", TFW_INT32, 1, &two, fl);
  int spec = tfw_tensor(m, "spectrum", TFW_COMPLEX64, 3, od, 0);
  int ins[2] = {in, len};
  tfw_op(m, TFW_OP_RFFT2D, 2, ins, 1, &spec);
  int out = spec;
  if (abs || after) {
    out = tfw_tensor(m, "magnitude", TFW_FLOAT32, 3, od, 0);
    tfw_op(m, after ? after : TFW_OP_COMPLEX_ABS, 1, &spec, 1, &out);
  }
  tfw_inputs(m, 1, &in);
  tfw_outputs(m, 1, &out);
  return lowered(m, TA_ROUND_DOUBLE);
}

int main(void) {
  const int32_t fl[2] = {4, 16};
  Graph *g = spectral(3, 20, fl, 1, 0);
  CHECK(g != NULL, "RFFT2D [2,3,20] fft_length [4, 16] then COMPLEX_ABS is accepted (%s)",
        g ? "" : error_message);
  if (g) {
    const Lowered *l0 = op_lowered(&g->ops[0]), *l1 = op_lowered(&g->ops[1]);
    CHECK(!strcmp(l0->kernel, "ta_rfft2d_f32") && !strcmp(l1->kernel, "ta_complex_abs_f32"),
          "they run ta_rfft2d_f32 and ta_complex_abs_f32 (%s, %s)", l0->kernel, l1->kernel);
    const ConstObj *p = find_const(g, 0, "params");
    CHECK(p && strstr(p->init, ".slices = 2, .in_h = 3, .in_w = 20, .fft_h = 4, .fft_w = 16") &&
              strstr(p->init, ".table_n = 16"),
          "the RFFT2D's parameters: 2 slices of 3 x 20, cropped and padded to 4 x 16 (%s)",
          p ? p->init : "missing");
    const ConstObj *tw = find_const(g, 0, "twiddles");
    bool ok = tw && tw->dtype == DT_FLOAT32 && tw->count == 16;
    for (int k = 0; ok && k < 8; k++) {
      float re, im;
      memcpy(&re, (const uint8_t *)tw->data + 8 * k, 4);
      memcpy(&im, (const uint8_t *)tw->data + 8 * k + 4, 4);
      ok = fabs(re - cos(2 * 3.14159265358979 * k / 16)) < 1e-7 &&
           fabs(im + sin(2 * 3.14159265358979 * k / 16)) < 1e-7;
    }
    CHECK(ok, "its twiddles are e^(-2 pi i k / 16) for k < 8");
    const Tensor *spec = &g->tensors[g->ops[0].outputs[0]];
    CHECK(spec->dtype == DT_COMPLEX64 && tensor_bytes(spec) == 2 * 4 * 9 * 8,
          "the spectrum between them is complex64 [2,4,9], 8 bytes an element (%zu bytes)",
          tensor_bytes(spec));
  }
  g = spectral(3, 20, fl, 0, 0);
  CHECK(g != NULL, "a complex64 model output is accepted (%s)", g ? "" : error_message);

  const int32_t bad[2] = {4, 12};
  g = spectral(3, 20, bad, 0, 0);
  CHECK(!g && strstr(error_message, "test.tflite: op 0 (RFFT2D): fft_length [4, 12] must be "
                                    "powers of two"),
        "fft_length [4, 12] is refused: '%s'", error_message);
  g = spectral(3, 20, fl, 0, TFW_OP_RELU);
  CHECK(!g && strstr(error_message, "op 1 (RELU): tensor 2 (spectrum) has type complex64, "
                                    "which only RFFT2D, COMPLEX_ABS"),
        "a complex64 tensor into RELU is refused: '%s'", error_message);
  return test_exit();
}
