/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_svdf_state16_s8 - integer SVDF with an int16 activation state and
 * int16 time weights (TFLM EvalInt16SvdfReference); the arithmetic is in
 * svdf_common.h.
 */
#include "svdf_common.h"

size_t ta_svdf_state16_s8_scratch_size(const ta_svdf_params *p) {
  return ta_svdf_scratch(p);
}

ta_status ta_svdf_state16_s8(const ta_svdf_params *p, const int8_t *in,
                             const int8_t *w_feature, const int16_t *w_time,
                             const int32_t *bias, int16_t *state, int8_t *out,
                             void *scratch) {
  if (ta_svdf_bad(p, scratch))
    return TA_ERR_ARG;
  TA_SVDF_BODY(int16_t, -32768, 32767, ta_svdf_dot16);
}
