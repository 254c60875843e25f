/* ta_depthwise_conv2d_fold_s8 - stub (not implemented yet). */
#include "ta_kernels.h"

size_t ta_depthwise_conv2d_fold_s8_scratch_size(const ta_conv_params *p,
                                                const ta_dims *in_dims,
                                                const ta_dims *filter_dims,
                                                const ta_dims *out_dims) {
  (void)p;
  (void)in_dims;
  (void)filter_dims;
  (void)out_dims;
  return 0;
}

ta_status ta_depthwise_conv2d_fold_s8(const ta_conv_params *p, const ta_quant *q,
                                      const ta_dims *in_dims, const int8_t *in,
                                      const ta_dims *filter_dims, const int8_t *filter,
                                      const int32_t *bias_fold,
                                      const ta_dims *out_dims, int8_t *out, void *scratch) {
  (void)p;
  (void)q;
  (void)in_dims;
  (void)in;
  (void)filter_dims;
  (void)filter;
  (void)bias_fold;
  (void)out_dims;
  (void)out;
  (void)scratch;
  return TA_ERR_UNSUPPORTED;
}
