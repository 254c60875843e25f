/* ta_add_s8 - stub (not implemented yet). */
#include "ta_kernels.h"

ta_status ta_add_s8(const ta_add_params *p, const ta_bcast *shape,
                    const int8_t *in1, const int8_t *in2, int8_t *out) {
  (void)p;
  (void)shape;
  (void)in1;
  (void)in2;
  (void)out;
  return TA_ERR_UNSUPPORTED;
}
