/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_max_pool_nd_f32 - float MAX_POOL_ND: ONNX MaxPool over 1 to 3
 * spatial axes of an NC<spatial> tensor (the ONNX layout), with
 * dilations and any leading padding, as ONNX Runtime's pool kernels do:
 *   out[n][c][o] = max over k of in[n][c][o * stride - pad + k * dilation]
 * taking only the taps inside the input (axes a in order 0, 1, 2; the
 * first of equal maxima wins, as ONNX Runtime compares with >).  Unused
 * axes have extent, kernel, stride and dilation 1 and no padding.
 * indices (NULL: not wanted): ONNX's Indices output, the position of the
 * maximum in the flattened input, row-major within the image or, with
 * column_major (storage_order 1), with the first spatial axis fastest;
 * -1 for a window without a tap inside the input (whose value is
 * -FLT_MAX).
 */
#include "ta_kernels.h"

#include <float.h>

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

ta_status ta_max_pool_nd_f32(const ta_pool_nd_params *p, const float *in, float *out,
                             int64_t *indices) {
  if (!params_ok(p))
    return TA_ERR_ARG;
  const int64_t plane = (int64_t)p->in[0] * p->in[1] * p->in[2];
  const int64_t planes = (int64_t)p->batches * p->channels;
  for (int64_t b = 0; b < planes; b++) {
    const float *img = in + b * plane;
    for (int32_t o0 = 0; o0 < p->out[0]; o0++)
      for (int32_t o1 = 0; o1 < p->out[1]; o1++)
        for (int32_t o2 = 0; o2 < p->out[2]; o2++) {
          float best = -FLT_MAX;
          int64_t at = -1;
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
                if (i2 < 0 || i2 >= p->in[2])
                  continue;
                int64_t pos = ((int64_t)i0 * p->in[1] + i1) * p->in[2] + i2;
                if (at < 0 || img[pos] > best) {
                  best = img[pos];
                  at = p->column_major ? i0 + (int64_t)p->in[0] * (i1 + (int64_t)p->in[1] * i2)
                                       : pos;
                }
              }
            }
          }
          *out++ = best;
          if (indices)
            *indices++ = at < 0 ? -1 : b * plane + at;
        }
  }
  return TA_OK;
}
