/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rnn_common.h - the int16 non-linearities of the integer LSTM (private
 * to runtime/rnn/).
 *
 * TFLite's int16 Logistic and Tanh (reference_integer_ops::Logistic /
 * Tanh for int16_t, as lstm_eval.cc calls them) interpolate one table of
 * sigmoid(k / 24) in unsigned Q0.16, k = 0..255, the same table for both
 * (tanh(x) = 2 sigmoid(2x) - 1).  The input is first multiplied by
 * input_multiplier and shifted right by input_left_shift with rounding;
 * input_multiplier 0 means the power-of-two case, multiplier
 * 3 << input_left_shift and no shift (3/4 scaling: Q3.12 covers
 * [-8, 8), the table [-10.7, 10.7)).
 *
 *   sigmoid: a = |x|, h = a >> 9, f = a & 511;
 *            r = h >= 255 ? 0x7fff << 10 : (T[h] << 9) + f * (T[h+1] - T[h]);
 *            r = x >= 0 ? r + 2^9 : 2^25 - r + 2^9 - 1;  out = r >> 10
 *   tanh:    h = a >> 8, f = a & 255;
 *            r = h >= 255 ? 0xffff << 8 : (T[h] << 8) + f * (T[h+1] - T[h]);
 *            r = x >= 0 ? r - 2^23 + 2^7 : -r + 2^23 + 2^7 - 1;  out = r >> 8
 *
 * The arithmetic is in unsigned 32 bits as TFLite's (its wrap-around on
 * the negative branches is part of the result).
 */
#ifndef TA_RNN_COMMON_H
#define TA_RNN_COMMON_H

#include <stdint.h>

/* sigmoid(k / 24) * 2^16 for k = 0..255 (TFLite's sigmoid_table_uint16;
 * LOGISTIC and TANH get the same table from the compiler, quant_ops.c). */
static const uint16_t ta_sigmoid_table_u16[256] = {
    32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841,
    39498, 40149, 40794, 41432, 42064, 42688, 43304, 43912, 44511, 45102,
    45683, 46255, 46817, 47369, 47911, 48443, 48964, 49475, 49975, 50464,
    50942, 51409, 51865, 52311, 52745, 53169, 53581, 53983, 54374, 54755,
    55125, 55485, 55834, 56174, 56503, 56823, 57133, 57433, 57724, 58007,
    58280, 58544, 58800, 59048, 59288, 59519, 59743, 59959, 60168, 60370,
    60565, 60753, 60935, 61110, 61279, 61441, 61599, 61750, 61896, 62036,
    62172, 62302, 62428, 62549, 62666, 62778, 62886, 62990, 63090, 63186,
    63279, 63368, 63454, 63536, 63615, 63691, 63765, 63835, 63903, 63968,
    64030, 64090, 64148, 64204, 64257, 64308, 64357, 64405, 64450, 64494,
    64536, 64576, 64614, 64652, 64687, 64721, 64754, 64786, 64816, 64845,
    64873, 64900, 64926, 64950, 64974, 64997, 65019, 65039, 65060, 65079,
    65097, 65115, 65132, 65149, 65164, 65179, 65194, 65208, 65221, 65234,
    65246, 65258, 65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337,
    65345, 65352, 65360, 65367, 65374, 65381, 65387, 65393, 65399, 65404,
    65410, 65415, 65420, 65425, 65429, 65433, 65438, 65442, 65445, 65449,
    65453, 65456, 65459, 65462, 65465, 65468, 65471, 65474, 65476, 65479,
    65481, 65483, 65485, 65488, 65489, 65491, 65493, 65495, 65497, 65498,
    65500, 65501, 65503, 65504, 65505, 65507, 65508, 65509, 65510, 65511,
    65512, 65513, 65514, 65515, 65516, 65517, 65517, 65518, 65519, 65520,
    65520, 65521, 65522, 65522, 65523, 65523, 65524, 65524, 65525, 65525,
    65526, 65526, 65526, 65527, 65527, 65528, 65528, 65528, 65529, 65529,
    65529, 65529, 65530, 65530, 65530, 65530, 65531, 65531, 65531, 65531,
    65531, 65532, 65532, 65532, 65532, 65532, 65532, 65533, 65533, 65533,
    65533, 65533, 65533, 65533, 65533, 65534, 65534, 65534, 65534, 65534,
    65534, 65534, 65534, 65534, 65534, 65535};

/* The input scaling both functions share. */
static inline int32_t ta_lut_input(int16_t x, int32_t multiplier, int32_t left_shift) {
  if (multiplier == 0) {
    multiplier = 3 << left_shift;
    left_shift = 0;
  }
  const int32_t round = left_shift > 0 ? (int32_t)1 << (left_shift - 1) : 0;
  return ((int32_t)x * multiplier + round) >> left_shift;
}

static inline int16_t ta_lstm_sigmoid_s16(int16_t x, int32_t multiplier, int32_t left_shift) {
  const int32_t v = ta_lut_input(x, multiplier, left_shift);
  const uint32_t a = (uint32_t)(v < 0 ? -v : v);
  const uint32_t h = a >> 9;
  uint32_t r;
  if (h >= 255) {
    r = (uint32_t)0x7fff << 10;
  } else {
    const uint32_t lo = ta_sigmoid_table_u16[h], hi = ta_sigmoid_table_u16[h + 1];
    r = (lo << 9) + (a & 0x1ff) * (hi - lo);
  }
  r = v >= 0 ? r + (1u << 9) : (1u << 25) - r + (1u << 9) - 1;
  return (int16_t)(r >> 10);
}

static inline int16_t ta_lstm_tanh_s16(int16_t x, int32_t multiplier, int32_t left_shift) {
  const int32_t v = ta_lut_input(x, multiplier, left_shift);
  const uint32_t a = (uint32_t)(v < 0 ? -v : v);
  const uint32_t h = a >> 8;
  int32_t r;
  if (h >= 255) {
    r = (int32_t)(0xffffu << 8);
  } else {
    const uint32_t lo = ta_sigmoid_table_u16[h], hi = ta_sigmoid_table_u16[h + 1];
    r = (int32_t)((lo << 8) + (a & 0xff) * (hi - lo));
  }
  r = v >= 0 ? r - (1 << 23) + (1 << 7) : -r + (1 << 23) + (1 << 7) - 1;
  return (int16_t)(r >> 8);
}

#endif
