/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_resize_bilinear_s8 - int8 RESIZE_BILINEAR as TFLite Micro (and
 * TFLite's reference kernel) compute it: reference_ops::
 * ResizeBilinearInteger, 10-bit fixed-point weights, a 20-bit product
 * rounded once (bilinear.h, TA_RESIZE_BILINEAR_INT).
 */
#include "ta_kernels.h"
#include "bilinear.h"

ta_status ta_resize_bilinear_s8(const ta_bilinear_params *p, const int8_t *in, int8_t *out) {
  TA_RESIZE_BILINEAR_INT(int8_t);
}
