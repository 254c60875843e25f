/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_conv_transpose_nd_f32 - float CONV_TRANSPOSE_ND: ONNX ConvTranspose
 * over 1 to 3 spatial axes in the ONNX layout (input [N][C_in][spatial],
 * filter [C_in][C_out / group][kernel], output [N][C_out][spatial]), with
 * groups, dilations and any padding (negative too: output_shape beyond
 * the full result).  Written as a gather, each output once:
 *   out[n][oc][o] = bias[oc] + sum over ic of oc's group, and over taps k
 *     with o + pad - k * dilation = i * stride, 0 <= i < in, of
 *     in[n][ic][i] * filter[ic][oc % (C_out / group)][k]
 * (ONNX Runtime scatters through col2im: the same products, summed in
 * another order, so results agree within float rounding).  Unused axes
 * have extent, kernel, stride and dilation 1 and no padding.  bias may be
 * NULL.
 */
#include "ta_kernels.h"

/* The input position that tap k of axis a reads for output o, or -1. */
static int32_t source(const ta_conv_transpose_nd_params *p, int a, int32_t o, int32_t k) {
  int32_t t = o + p->pad[a] - k * p->dilation[a];
  if (t < 0 || t % p->stride[a])
    return -1;
  t /= p->stride[a];
  return t < p->in[a] ? t : -1;
}

ta_status ta_conv_transpose_nd_f32(const ta_conv_transpose_nd_params *p, const float *in,
                                   const float *filter, const float *bias, float *out) {
  if (p->batches < 0 || p->group < 1 || p->in_channels < 1 || p->out_channels < 1 ||
      p->in_channels % p->group || p->out_channels % p->group)
    return TA_ERR_ARG;
  for (int a = 0; a < 3; a++)
    if (p->in[a] < 1 || p->out[a] < 0 || p->kernel[a] < 1 || p->stride[a] < 1 ||
        p->dilation[a] < 1)
      return TA_ERR_ARG;
  const int32_t cig = p->in_channels / p->group, cog = p->out_channels / p->group;
  const int64_t iplane = (int64_t)p->in[0] * p->in[1] * p->in[2];
  const int64_t ktaps = (int64_t)p->kernel[0] * p->kernel[1] * p->kernel[2];
  for (int32_t n = 0; n < p->batches; n++)
    for (int32_t oc = 0; oc < p->out_channels; oc++) {
      const int32_t g = oc / cog;
      for (int32_t o0 = 0; o0 < p->out[0]; o0++)
        for (int32_t o1 = 0; o1 < p->out[1]; o1++)
          for (int32_t o2 = 0; o2 < p->out[2]; o2++) {
            float acc = bias ? bias[oc] : 0.0f;
            for (int32_t ic = g * cig; ic < (g + 1) * cig; ic++) {
              const float *img = in + ((int64_t)n * p->in_channels + ic) * iplane;
              const float *w = filter + ((int64_t)ic * cog + oc % cog) * ktaps;
              for (int32_t k0 = 0; k0 < p->kernel[0]; k0++) {
                int32_t i0 = source(p, 0, o0, k0);
                if (i0 < 0)
                  continue;
                for (int32_t k1 = 0; k1 < p->kernel[1]; k1++) {
                  int32_t i1 = source(p, 1, o1, k1);
                  if (i1 < 0)
                    continue;
                  for (int32_t k2 = 0; k2 < p->kernel[2]; k2++) {
                    int32_t i2 = source(p, 2, o2, k2);
                    if (i2 >= 0)
                      acc += img[((int64_t)i0 * p->in[1] + i1) * p->in[2] + i2] *
                             w[((int64_t)k0 * p->kernel[1] + k1) * p->kernel[2] + k2];
                  }
                }
              }
            }
            *out++ = acc;
          }
    }
  return TA_OK;
}
