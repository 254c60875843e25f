/* ta_softmax_f32 - stub (not implemented yet). */
#include "ta_kernels.h"

ta_status ta_softmax_f32(const ta_softmax_params *p, const float *in, float *out) {
  (void)p;
  (void)in;
  (void)out;
  return TA_ERR_UNSUPPORTED;
}
