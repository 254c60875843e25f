/* ta_depthwise_conv2d_f32 - stub (not implemented yet). */
#include "ta_kernels.h"

ta_status ta_depthwise_conv2d_f32(const ta_conv_params *p,
                                  const ta_dims *in_dims, const float *in,
                                  const ta_dims *filter_dims, const float *filter,
                                  const float *bias,
                                  const ta_dims *out_dims, float *out) {
  (void)p;
  (void)in_dims;
  (void)in;
  (void)filter_dims;
  (void)filter;
  (void)bias;
  (void)out_dims;
  (void)out;
  return TA_ERR_UNSUPPORTED;
}
