/* ta_quantize_f32_u8 - stub (not implemented yet). */
#include "ta_kernels.h"

ta_status ta_quantize_f32_u8(const ta_affine_params *p, const float *in, uint8_t *out) {
  (void)p;
  (void)in;
  (void)out;
  return TA_ERR_UNSUPPORTED;
}
