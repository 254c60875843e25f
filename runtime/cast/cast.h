/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cast.h - the element conversions of CAST (private to runtime/cast/),
 * as C++'s static_cast does them on the hosts TFLite runs on:
 *   integer -> float: the nearest float;
 *   float -> integer: truncation toward zero to int32 (saturated beyond
 *     int32, NaN -> 0, where C++ leaves it undefined), then as int32 ->
 *     the narrower type;
 *   integer -> integer: two's complement wrap-around.
 */
#ifndef TA_CAST_H
#define TA_CAST_H

#include "ta_kernels.h"

static inline int32_t ta_f32_to_i32(float x) {
  if (x != x)
    return 0;
  if (x >= 2147483648.0f)
    return INT32_MAX;
  if (x <= -2147483648.0f)
    return INT32_MIN;
  return (int32_t)x;
}

static inline int8_t ta_wrap_s8(int32_t v) { return (int8_t)(uint8_t)(uint32_t)v; }
static inline uint8_t ta_wrap_u8(int32_t v) { return (uint8_t)(uint32_t)v; }
static inline int16_t ta_wrap_s16(int32_t v) { return (int16_t)(uint16_t)(uint32_t)v; }

#endif
