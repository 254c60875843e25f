/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_resize_bilinear_s16 - int16 RESIZE_BILINEAR as TFLite computes it:
 * reference_ops::ResizeBilinearInteger<int16_t> (TFLite Micro has no
 * int16 RESIZE_BILINEAR), the int8 kernel's arithmetic on int16 values
 * (bilinear.h, TA_RESIZE_BILINEAR_INT).  The 20-bit products of int16
 * values stay below 2^36: int64 holds them.
 */
#include "ta_kernels.h"
#include "bilinear.h"

ta_status ta_resize_bilinear_s16(const ta_bilinear_params *p, const int16_t *in,
                                 int16_t *out) {
  TA_RESIZE_BILINEAR_INT(int16_t);
}
