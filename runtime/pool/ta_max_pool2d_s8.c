/* ta_max_pool2d_s8 - stub (not implemented yet). */
#include "ta_kernels.h"

ta_status ta_max_pool2d_s8(const ta_pool_params *p,
                           const ta_dims *in_dims, const int8_t *in,
                           const ta_dims *out_dims, int8_t *out) {
  (void)p;
  (void)in_dims;
  (void)in;
  (void)out_dims;
  (void)out;
  return TA_ERR_UNSUPPORTED;
}
