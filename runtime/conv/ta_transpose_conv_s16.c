/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_transpose_conv_s16 - TRANSPOSE_CONV for 16x8 quantization: int16
 * activations, int8 filter, int64 bias and accumulator.
 *
 * Matches tflite::reference_integer_ops::TransposeConv<int64_t> (the int16
 * overload): the products in[iy][ix][ic] * filter[oc][ky][kx][ic] summed
 * in int64 per output element, gathered rather than scattered, so no
 * scratch tensor is needed (TA_TRANSPOSE_CONV_S16 in conv_s16.h); then
 * each element gets the bias, ta_requant_s64 and the clamp.
 */
#include "ta_kernels.h"
#include "conv_s16.h"

ta_status ta_transpose_conv_s16(const ta_conv_params *p, const ta_quant *q,
                                const ta_dims *in_dims, const int16_t *in,
                                const ta_dims *filter_dims, const int8_t *filter,
                                const int64_t *bias,
                                const ta_dims *out_dims, int16_t *out) {
  if (!ta_transpose_shapes_ok(p, in_dims, filter_dims, out_dims) ||
      p->act_min > p->act_max || !ta_quant_s64_ok(q, out_dims->c))
    return TA_ERR_ARG;
  TA_TRANSPOSE_CONV_S16(64);
}
