/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_log_softmax_s8 - int8 LOG_SOFTMAX as TensorFlow Lite Micro computes
 * it (reference_ops::LogSoftmaxQuantized<int8_t>, log_softmax.h), bit for
 * bit; the steps are in ta_kernels_math.h.
 *
 * The fixed-point log is TFLite's log_x_for_x_greater_than_or_equal_to_1
 * <5> of a Q12.19 input (common.h): with z the input read as Q0.31, two
 * normalisations of z (by its headroom, and of z sqrt(1/2) by its own)
 * give a mantissa r in [sqrt(1/2), sqrt(2)) and the matching power of two
 * +- 1/4; with q = 2 (r - 2^-1/4) and p = (r + 2^-1/4) / 2,
 *   log z = pow2 * log 2 + (q r + q^3 a_n) / (1 + p (a_i + q + a_d q^2) + a_f q)
 * in Q6.25, rescaled to Q5.26.  Products are SaturatingRoundingDoublingHighMul,
 * sums wrap, the power-of-two terms saturate, as gemmlowp's operators.
 */
#include <stddef.h>

#include "ta_fixedpoint.h"
#include "ta_kernels.h"

/* SaturatingRoundingMultiplyByPOTParam for an exponent 0 <= e <= 30. */
static int32_t pot_param(int32_t x, int e) { return e == 0 ? x : ta_sat_shl(x, e); }

static int32_t sat_add(int32_t a, int32_t b) {
  const int64_t s = (int64_t)a + b;
  return s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : (int32_t)s;
}

static int32_t sat_sub(int32_t a, int32_t b) {
  const int64_t s = (int64_t)a - b;
  return s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : (int32_t)s;
}

/* log(x) for x >= 1 in Q12.19 (x > 0 raw); the result in Q5.26. */
static int32_t log_q12(int32_t x) {
  const int in_bits = 12, acc_bits = 6; /* output integer bits 5, plus 1 */
  const int32_t log_2 = 1488522236, sqrt_sqrt_half = 1805811301, sqrt_half = 1518500250;
  const int32_t alpha_n = 117049297, alpha_d = 127690142, alpha_i = 1057819769,
                alpha_f = 638450708;
  const int32_t quarter = ta_rdbpot(536870912, acc_bits); /* 1/4 in Q6.25 */
  const int za_head = ta_clz32((uint32_t)x);
  const int32_t ra = pot_param(ta_srdhm(pot_param(x, za_head - 1), sqrt_half), 1);
  const int32_t za_pow2 = sat_add(pot_param(in_bits - za_head, 31 - acc_bits), quarter);
  const int32_t zb = ta_srdhm(x, sqrt_half);
  const int zb_head = ta_clz32((uint32_t)zb) - 1;
  const int32_t rb = pot_param(x, zb_head);
  const int32_t zb_pow2 = sat_sub(pot_param(in_bits - zb_head, 31 - acc_bits), quarter);
  const int32_t r = ra < rb ? ra : rb;
  const int32_t pow2 = za_pow2 > zb_pow2 ? za_pow2 : zb_pow2;
  const int32_t p = ta_rounding_half_sum(r, sqrt_sqrt_half);
  int32_t q = ta_wrap_sub(r, sqrt_sqrt_half);
  q = ta_wrap_add(q, q);
  const int32_t q2 = ta_srdhm(q, q);
  const int32_t num = ta_wrap_add(ta_srdhm(q, r), ta_srdhm(ta_srdhm(q, q2), alpha_n));
  const int32_t den = ta_wrap_add(
      ta_srdhm(p, ta_wrap_add(ta_wrap_add(alpha_i, q), ta_srdhm(alpha_d, q2))),
      ta_srdhm(alpha_f, q));
  const int32_t recip = ta_one_over_one_plus_x(den);
  const int32_t sum =
      ta_wrap_add(ta_srdhm(pow2, log_2), ta_srdhm(ta_rdbpot(num, acc_bits), recip));
  return ta_sat_shl(sum, 1); /* Rescale<5> of Q6.25 */
}

ta_status ta_log_softmax_s8(const ta_log_softmax_s8_params *p, const int8_t *in, int8_t *out) {
  if (p->outer < 0 || p->depth < 1 || p->input_left_shift < 0 || p->input_left_shift > 31 ||
      p->reverse_shift > 0 || p->reverse_shift < -31 || p->diff_min > 0)
    return TA_ERR_ARG;
  const int32_t depth = p->depth;
  for (int32_t row = 0; row < p->outer; row++) {
    const int8_t *x = in + (size_t)row * (size_t)depth;
    int8_t *y = out + (size_t)row * (size_t)depth;
    int32_t mx = -128;
    for (int32_t c = 0; c < depth; c++)
      mx = x[c] > mx ? x[c] : mx;
    int32_t sum = 0; /* Q12.19 */
    for (int32_t c = 0; c < depth; c++) {
      const int32_t d = x[c] - mx;
      if (d >= p->diff_min) {
        const int32_t q5 = ta_requant_double(d, p->input_multiplier, p->input_left_shift);
        sum = ta_wrap_add(sum, ta_rdbpot(ta_exp_on_negative_values_5(q5), 12));
      }
    }
    const int32_t lse = log_q12(sum);
    const int32_t lowest = ta_requant_double(ta_wrap_add(lse, INT32_MIN),
                                             p->reverse_multiplier, p->reverse_shift);
    const int32_t keep = lowest > p->diff_min - 1 ? lowest : p->diff_min - 1;
    for (int32_t c = 0; c < depth; c++) {
      const int32_t d = x[c] - mx;
      int32_t v = -128;
      if (d > keep) {
        const int32_t q5 = ta_requant_double(d, p->input_multiplier, p->input_left_shift);
        v = ta_clamp_i32(ta_rdbpot(ta_wrap_sub(q5, lse), 31 - 5 - 4) + 127, -128, 127);
      }
      y[c] = (int8_t)v;
    }
  }
  return TA_OK;
}
