/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_fpstrict.h - for kernels whose float arithmetic must round exactly
 * as written (no fused multiply-add), because the integer result they
 * reproduce (TFLite's uint8 SOFTMAX and RESIZE_BILINEAR) depends on it.
 * Put TA_FP_STRICT before such a function.  Clang honours the standard
 * pragma; GCC needs its optimize attribute.
 */
#ifndef TA_FPSTRICT_H
#define TA_FPSTRICT_H

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#define TA_FP_STRICT
#elif defined(__GNUC__)
#define TA_FP_STRICT __attribute__((optimize("fp-contract=off")))
#else
#define TA_FP_STRICT
#endif

#endif
