/* ta_fully_connected_s8 - stub (not implemented yet). */
#include "ta_kernels.h"

ta_status ta_fully_connected_s8(const ta_fc_params *p, const ta_quant *q,
                                const int8_t *in, const int8_t *filter,
                                const int32_t *bias, int8_t *out) {
  (void)p;
  (void)q;
  (void)in;
  (void)filter;
  (void)bias;
  (void)out;
  return TA_ERR_UNSUPPORTED;
}
