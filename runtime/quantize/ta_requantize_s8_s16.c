/* ta_requantize_s8_s16 - stub (not implemented yet). */
#include "ta_kernels.h"

ta_status ta_requantize_s8_s16(const ta_requant_params *p, const int8_t *in, int16_t *out) {
  (void)p;
  (void)in;
  (void)out;
  return TA_ERR_UNSUPPORTED;
}
