/* ta_dequantize_u8_f32 - stub (not implemented yet). */
#include "ta_kernels.h"

ta_status ta_dequantize_u8_f32(const ta_affine_params *p, const uint8_t *in, float *out) {
  (void)p;
  (void)in;
  (void)out;
  return TA_ERR_UNSUPPORTED;
}
