/* ta_fully_connected_fold_s8 - stub (not implemented yet). */
#include "ta_kernels.h"

ta_status ta_fully_connected_fold_s8(const ta_fc_params *p, const ta_quant *q,
                                     const int8_t *in, const int8_t *filter,
                                     const int32_t *bias_fold, int8_t *out) {
  (void)p;
  (void)q;
  (void)in;
  (void)filter;
  (void)bias_fold;
  (void)out;
  return TA_ERR_UNSUPPORTED;
}
