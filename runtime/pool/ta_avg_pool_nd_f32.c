/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_avg_pool_nd_f32 - float AVERAGE_POOL_ND: ONNX AveragePool over 1 to
 * 3 spatial axes of an NC<spatial> tensor (the ONNX layout), with
 * dilations and any padding:
 *   out[n][c][o] = (sum of the taps inside the input) / count
 * summed in axis order 0, 1, 2.  count: the taps inside the input, or
 * with count_include_pad the taps inside the padded input (pad before,
 * pad_end after), so that ceil_mode's extra taps past the padding never
 * count, as in ONNX's reference and ONNX Runtime.  A window without a
 * counted tap gives 0.  Unused axes have extent, kernel, stride and
 * dilation 1 and no padding.
 */
#include "ta_kernels.h"

/* The shape checks both pooling kernels make. */
static int params_ok(const ta_pool_nd_params *p) {
  if (p->batches < 0 || p->channels < 0)
    return 0;
  for (int a = 0; a < 3; a++)
    if (p->in[a] < 1 || p->out[a] < 0 || p->kernel[a] < 1 || p->stride[a] < 1 ||
        p->dilation[a] < 1)
      return 0;
  return 1;
}

/* Taps of axis a's window at output o: inside the input, and inside the
 * padded input. */
static void taps(const ta_pool_nd_params *p, int a, int32_t o, int32_t *inside,
                 int32_t *padded) {
  *inside = *padded = 0;
  for (int32_t k = 0; k < p->kernel[a]; k++) {
    int32_t i = o * p->stride[a] - p->pad[a] + k * p->dilation[a];
    *inside += i >= 0 && i < p->in[a];
    *padded += i >= -p->pad[a] && i < p->in[a] + p->pad_end[a];
  }
}

ta_status ta_avg_pool_nd_f32(const ta_pool_nd_params *p, const float *in, float *out) {
  if (!params_ok(p))
    return TA_ERR_ARG;
  const int64_t plane = (int64_t)p->in[0] * p->in[1] * p->in[2];
  const int64_t planes = (int64_t)p->batches * p->channels;
  for (int64_t b = 0; b < planes; b++) {
    const float *img = in + b * plane;
    for (int32_t o0 = 0; o0 < p->out[0]; o0++)
      for (int32_t o1 = 0; o1 < p->out[1]; o1++)
        for (int32_t o2 = 0; o2 < p->out[2]; o2++) {
          int32_t in0, pd0, in1, pd1, in2, pd2;
          taps(p, 0, o0, &in0, &pd0);
          taps(p, 1, o1, &in1, &pd1);
          taps(p, 2, o2, &in2, &pd2);
          int64_t count = p->count_include_pad ? (int64_t)pd0 * pd1 * pd2
                                                : (int64_t)in0 * in1 * in2;
          float sum = 0.0f;
          for (int32_t k0 = 0; k0 < p->kernel[0]; k0++) {
            int32_t i0 = o0 * p->stride[0] - p->pad[0] + k0 * p->dilation[0];
            if (i0 < 0 || i0 >= p->in[0])
              continue;
            for (int32_t k1 = 0; k1 < p->kernel[1]; k1++) {
              int32_t i1 = o1 * p->stride[1] - p->pad[1] + k1 * p->dilation[1];
              if (i1 < 0 || i1 >= p->in[1])
                continue;
              for (int32_t k2 = 0; k2 < p->kernel[2]; k2++) {
                int32_t i2 = o2 * p->stride[2] - p->pad[2] + k2 * p->dilation[2];
                if (i2 >= 0 && i2 < p->in[2])
                  sum += img[((int64_t)i0 * p->in[1] + i1) * p->in[2] + i2];
              }
            }
          }
          *out++ = count > 0 ? sum / (float)count : 0.0f;
        }
  }
  return TA_OK;
}
