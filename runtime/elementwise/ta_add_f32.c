/* ta_add_f32 - stub (not implemented yet). */
#include "ta_kernels.h"

ta_status ta_add_f32(const ta_add_params *p, const ta_bcast *shape,
                     const float *in1, const float *in2, float *out) {
  (void)p;
  (void)shape;
  (void)in1;
  (void)in2;
  (void)out;
  return TA_ERR_UNSUPPORTED;
}
