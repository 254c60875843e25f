/* ta_fully_connected_f32 - stub (not implemented yet). */
#include "ta_kernels.h"

ta_status ta_fully_connected_f32(const ta_fc_params *p,
                                 const float *in, const float *filter,
                                 const float *bias, float *out) {
  (void)p;
  (void)in;
  (void)filter;
  (void)bias;
  (void)out;
  return TA_ERR_UNSUPPORTED;
}
