/* ta_requantize_u8_s8 - stub (not implemented yet). */
#include "ta_kernels.h"

ta_status ta_requantize_u8_s8(const ta_requant_params *p, const uint8_t *in, int8_t *out) {
  (void)p;
  (void)in;
  (void)out;
  return TA_ERR_UNSUPPORTED;
}
