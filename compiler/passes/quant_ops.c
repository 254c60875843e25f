/* SPDX-License-Identifier: Apache-2.0 */
/*
 * quant_ops.c - host arithmetic of the element-wise, reduction and resize
 * lowerings (lower_ops.c, lower_legacy.c): the parameters TFLite Micro's
 * kernels compute in Prepare (same float/double steps), and the 256-entry
 * tables of the int8/uint8 activations.
 *
 * A table is the op's integer arithmetic - TFLM's reference kernel, step
 * by step, with the fixed-point helpers of runtime/include/ta_fixedpoint.h
 * and gemmlowp's logistic/tanh transcribed below - run once for each of
 * the 256 input values.  ta_lut_x8 then looks the outputs up, so the
 * device computes exactly what the reference kernel would.
 *
 * Functions returning bool return false where TFLite would refuse the
 * model; the caller reports it.  Declared in lower.h.
 */
#include "lower.h"

#include <float.h>
#include <math.h>

#include "ta_fixedpoint.h"

/* The value of table entry i: the int8 or uint8 input whose byte is i. */
static int32_t lut_input(DType dt, int i) {
  return dt == DT_INT8 ? (int32_t)(int8_t)(uint8_t)i : i;
}

static void dtype_range(DType dt, int32_t *lo, int32_t *hi) {
  *lo = dt == DT_INT8 ? -128 : dt == DT_INT16 ? -32768 : 0;
  *hi = dt == DT_INT8 ? 127 : dt == DT_INT16 ? 32767 : 255;
}

/* ------------------------------------------------ gemmlowp, transcribed */

/* exp_on_negative_values for FixedPoint<int32_t, integer_bits> (4 or 5). */
static int32_t exp_on_negative_values(int32_t a, int integer_bits) {
  const int frac = 31 - integer_bits;
  const int32_t quarter = (int32_t)1 << (frac - 2);
  const int32_t a_mod = ta_wrap_sub(a & (quarter - 1), quarter);
  int32_t result = ta_exp_on_interval(ta_sat_shl(a_mod, integer_bits)); /* Rescale<0> */
  const int32_t remainder = ta_wrap_sub(a_mod, a);
  static const int32_t mult[7] = {1672461947, 1302514674, 790015084, 290630308,
                                  39332535,   720401,     242};
  for (int e = -2; e <= 4; e++) /* exp(-2^e), for the bits of the remainder */
    if (integer_bits > e && (remainder & (int32_t)((uint32_t)1 << (frac + e))))
      result = ta_srdhm(result, mult[e + 2]);
  if (a == 0)
    result = INT32_MAX;
  return result;
}

/* one_minus_x_over_one_plus_x_for_x_in_0_1 (Q0.31 in and out). */
static int32_t one_minus_x_over_one_plus_x(int32_t a) {
  int32_t half_den = ta_rounding_half_sum(a, INT32_MAX);
  int32_t x = ta_wrap_add(1515870810, ta_srdhm(half_den, -1010580540));
  for (int i = 0; i < 3; i++) {
    int32_t one_minus = ta_wrap_sub((int32_t)1 << 29, ta_srdhm(half_den, x));
    x = ta_wrap_add(x, ta_sat_shl(ta_srdhm(x, one_minus), 2));
  }
  return ta_sat_shl(ta_wrap_sub(x, (int32_t)1 << 29), 2);
}

/* gemmlowp::logistic of a Q4.27 value; Q0.31 result. */
static int32_t fixed_logistic(int32_t a) {
  if (a == 0)
    return (int32_t)1 << 30;
  const int32_t abs_a = a > 0 ? a : ta_wrap_sub(0, a);
  const int32_t pos = ta_one_over_one_plus_x(exp_on_negative_values(ta_wrap_sub(0, abs_a), 4));
  return a > 0 ? pos : ta_wrap_sub(INT32_MAX, pos);
}

/* gemmlowp::tanh of a Q4.27 value; Q0.31 result.  neg_tanh_on_negative_
 * values reads the same raw value with 5 integer bits (ExactMulByPot<1>). */
static int32_t fixed_tanh(int32_t a) {
  if (a == 0)
    return 0;
  const int32_t n = a < 0 ? a : ta_wrap_sub(0, a);
  const int32_t t = one_minus_x_over_one_plus_x(exp_on_negative_values(n, 5));
  return a < 0 ? ta_wrap_sub(0, t) : t;
}

/* ------------------------------------------------- LOGISTIC and TANH */

/* TFLM's Prepare of int8 LOGISTIC and TANH: input_real_multiplier =
 * scale * 2^27 (4 integer bits), multiplier = round(frexp mantissa *
 * 2^31) without the renormalisation QuantizeMultiplier does, radius =
 * CalculateInputRadius(4, left_shift). */
/* false for an input scale below 2^-58: its shift would be beyond what
 * the requantization can do (TFLite's arithmetic is undefined there). */
static bool sigmoid_prepare(float in_scale, int32_t *mult, int *left_shift,
                            int32_t *radius) {
  double real = (double)in_scale * (double)(1 << 27);
  double q = frexp(real, left_shift);
  int64_t m = (int64_t)round(q * 2147483648.0);
  *mult = m >= INT64_C(2147483648) ? INT32_MIN : (int32_t)m; /* as x86 converts */
  *radius = calculate_input_radius(4, *left_shift);
  return *left_shift >= -31;
}

bool logistic_table(DType dt, float in_scale, int32_t in_zp, int rounding,
                    uint8_t table[256]) {
  if (dt != DT_INT8 || !(in_scale > 0.0f))
    return false;
  int32_t mult, radius;
  int shift;
  if (!sigmoid_prepare(in_scale, &mult, &shift, &radius))
    return false;
  for (int i = 0; i < 256; i++) {
    const int32_t x = lut_input(dt, i) - in_zp;
    int32_t y;
    if (x <= -radius) {
      y = -128;
    } else if (x >= radius) {
      y = 127;
    } else {
      const int32_t q4 = ta_requant(x, mult, shift, rounding);
      y = ta_clamp_i32(ta_rdbpot(fixed_logistic(q4), 23) - 128, -128, 127);
    }
    table[i] = (uint8_t)(int8_t)y;
  }
  return true;
}

bool tanh_table(DType dt, float in_scale, int32_t in_zp, int rounding, uint8_t table[256]) {
  if (dt != DT_INT8 || !(in_scale > 0.0f))
    return false;
  int32_t mult, radius;
  int shift;
  if (!sigmoid_prepare(in_scale, &mult, &shift, &radius))
    return false;
  for (int i = 0; i < 256; i++) {
    const int32_t x = lut_input(dt, i) - in_zp;
    int32_t y;
    if (x <= -radius) {
      y = -128;
    } else if (x >= radius) {
      y = 127;
    } else {
      const int32_t q4 = ta_requant(x, mult, shift, rounding);
      y = ta_clamp_i32(ta_rdbpot(fixed_tanh(q4), 24), -128, 127);
    }
    table[i] = (uint8_t)(int8_t)y;
  }
  return true;
}

/* TFLite's uint8 and int8 LOGISTIC and TANH (activations.cc,
 * PopulateLookupTable; TFLM has no uint8 kernel and computes int8 with
 * gemmlowp's fixed point, logistic_table and tanh_table above): the table
 * of the float function, each step in float as written there - dequantize,
 * transform, multiply by 1 / output scale, std::round, add the zero point,
 * truncate, clamp to the type. */
bool float_function_table(DType dt, bool tanh, float in_scale, int32_t in_zp, float out_scale,
                          int32_t out_zp, uint8_t table[256]) {
  if ((dt != DT_INT8 && dt != DT_UINT8) || !(in_scale > 0.0f) || !(out_scale > 0.0f))
    return false;
  int32_t lo, hi;
  dtype_range(dt, &lo, &hi);
  volatile float inverse_scale = 1 / out_scale;
  for (int i = 0; i < 256; i++) {
    const int32_t v = lut_input(dt, i);
    volatile float dequantized = in_scale * (float)(v - in_zp);
    volatile float transformed;
    if (tanh) {
      transformed = tanhf(dequantized);
    } else {
      volatile float e = expf(-dequantized);
      volatile float den = 1.0f + e;
      transformed = 1.0f / den;
    }
    volatile float scaled = transformed * inverse_scale;
    volatile float rescaled = roundf(scaled);
    volatile float shifted = rescaled + (float)out_zp;
    int32_t q = shifted >= 2147483648.0f ? INT32_MAX
                : shifted <= -2147483648.0f ? INT32_MIN : (int32_t)shifted;
    table[i] = (uint8_t)ta_clamp_i32(q, lo, hi);
  }
  return true;
}

/* ------------------------------------------- int16 LOGISTIC and TANH */

/* sigmoid(i / 24) in Q0.16, the table reference_integer_ops::Logistic
 * and Tanh interpolate for int16 (sigmoid_table_uint16 in TFLite's
 * kernels/internal/common.h, the same in TFLite Micro and CMSIS-NN).
 * Data, not a formula: the entries are not round(65536 sigmoid(i / 24))
 * (44 of them are 1 higher, the last is 65535), so they are kept as
 * published. */
static const uint16_t sigmoid_q16[256] = {
    32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498, 40149,
    40794, 41432, 42064, 42688, 43304, 43912, 44511, 45102, 45683, 46255, 46817, 47369,
    47911, 48443, 48964, 49475, 49975, 50464, 50942, 51409, 51865, 52311, 52745, 53169,
    53581, 53983, 54374, 54755, 55125, 55485, 55834, 56174, 56503, 56823, 57133, 57433,
    57724, 58007, 58280, 58544, 58800, 59048, 59288, 59519, 59743, 59959, 60168, 60370,
    60565, 60753, 60935, 61110, 61279, 61441, 61599, 61750, 61896, 62036, 62172, 62302,
    62428, 62549, 62666, 62778, 62886, 62990, 63090, 63186, 63279, 63368, 63454, 63536,
    63615, 63691, 63765, 63835, 63903, 63968, 64030, 64090, 64148, 64204, 64257, 64308,
    64357, 64405, 64450, 64494, 64536, 64576, 64614, 64652, 64687, 64721, 64754, 64786,
    64816, 64845, 64873, 64900, 64926, 64950, 64974, 64997, 65019, 65039, 65060, 65079,
    65097, 65115, 65132, 65149, 65164, 65179, 65194, 65208, 65221, 65234, 65246, 65258,
    65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360, 65367,
    65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415, 65420, 65425, 65429, 65433,
    65438, 65442, 65445, 65449, 65453, 65456, 65459, 65462, 65465, 65468, 65471, 65474,
    65476, 65479, 65481, 65483, 65485, 65488, 65489, 65491, 65493, 65495, 65497, 65498,
    65500, 65501, 65503, 65504, 65505, 65507, 65508, 65509, 65510, 65511, 65512, 65513,
    65514, 65515, 65516, 65517, 65517, 65518, 65519, 65520, 65520, 65521, 65522, 65522,
    65523, 65523, 65524, 65524, 65525, 65525, 65526, 65526, 65526, 65527, 65527, 65528,
    65528, 65528, 65529, 65529, 65529, 65529, 65530, 65530, 65530, 65530, 65531, 65531,
    65531, 65531, 65531, 65532, 65532, 65532, 65532, 65532, 65532, 65533, 65533, 65533,
    65533, 65533, 65533, 65533, 65533, 65534, 65534, 65534, 65534, 65534, 65534, 65534,
    65534, 65534, 65534, 65535};

const uint16_t *sigmoid_table_q16(void) { return sigmoid_q16; }

/* The int16 branch of TanhPrepare / LogisticPrepare (kInputIntegerBits 3;
 * TFLite and TFLite Micro alike).  A power-of-two input scale with
 * left shift 12 + log2(scale) = 0 (TANH: 0 or 1) leaves the multiplier 0,
 * which the kernel reads as 3 << shift, shift 0 (*pot set); any other
 * scale gets scale * 4096 * 3 doubled until above 32767 / 2 (at most 31
 * times), truncated.  false where the int32 arithmetic of the kernel
 * would overflow (multiplier above 65535) or the multiplier truncates to
 * 0. */
bool sigmoid_s16_params(float in_scale, bool tanh, int32_t *mult, int32_t *shift,
                        bool *pot) {
  int log2_scale;
  *pot = checked_log2f(in_scale, &log2_scale);
  int left = 12 + log2_scale;
  *pot = *pot && (left == 0 || (tanh && left == 1));
  if (*pot) {
    *mult = 3 << left;
    *shift = 0;
    return true;
  }
  double m = (double)in_scale * 4096.0 * 3.0;
  left = 0;
  while (m <= 32767.0 / 2.0 && left <= 30) {
    left++;
    m = m * 2.0;
  }
  if (!(m < 65536.0) || m < 1.0)
    return false;
  *mult = (int32_t)m;
  *shift = left;
  return true;
}

/* -------------------------------------------------------- int16 SOFTMAX */

/* gen_lut of kernels/internal/common.h for a 513-entry int16 table of
 * func on [lo, hi], output range [-1, 1] (scale 32768): entry i is the
 * sample at lo + i * step, less half the error the interpolation from i
 * to i + 1 makes at the midpoint (rounded); entry 512 is func(hi).  In
 * float with float functions (TFLite Micro, and TFLite's later LUTPopulate)
 * or in double (TFLite's earlier gen_lut, the one the oracle's TFLite
 * build has; see softmax_s16_luts()). */
static float exp_f(float x) { return expf(x); }
static float recip_f(float x) { return 1.0f / (1.0f + x); }
static double exp_d(double x) { return exp(x); }
static double recip_d(double x) { return 1.0 / (1.0 + x); }

static int16_t clamp_lut_f(float v) {
  return (int16_t)(v < -32768.0f ? -32768.0f : v > 32767.0f ? 32767.0f : v);
}

static void gen_lut_f(float (*func)(float), float lo, float hi, int16_t lut[513]) {
  const float step = (hi - lo) / 512;
  const float half_step = step / 2;
  const float inv = (float)(32767 - (-32768) + 1) / (1.0f - (-1.0f));
  for (int i = 0; i < 512; i++) {
    volatile float x = lo + (float)i * step;
    volatile float xm = x + half_step;
    volatile float xn = lo + (float)(i + 1) * step;
    volatile float val = func(x), val_mid = func(xm), val_next = func(xn);
    volatile float sample = roundf(val * inv);
    volatile float next = val_next * inv;
    volatile float interp = roundf((next + sample) / 2);
    volatile float mid = roundf(val_mid * inv);
    volatile float err = interp - mid;
    volatile float bias = roundf(err / 2);
    lut[i] = clamp_lut_f(sample - bias);
  }
  lut[512] = clamp_lut_f(roundf(func(hi) * inv));
}

static int16_t clamp_lut_d(double v) {
  return (int16_t)(v < -32768.0 ? -32768.0 : v > 32767.0 ? 32767.0 : v);
}

static void gen_lut_d(double (*func)(double), double lo, double hi, int16_t lut[513]) {
  const double step = (hi - lo) / 512;
  const double half_step = step / 2.0;
  for (int i = 0; i < 512; i++) {
    volatile double sample = round(func(lo + i * step) * 32768.0);
    volatile double interp =
        round((func(lo + (i + 1) * step) * 32768.0 + round(func(lo + i * step) * 32768.0)) /
              2.0);
    volatile double mid = round(func(lo + i * step + half_step) * 32768.0);
    volatile double err = interp - mid;
    volatile double bias = round(err / 2.0);
    lut[i] = clamp_lut_d(sample - bias);
  }
  lut[512] = clamp_lut_d(round(func(hi) * 32768.0));
}

void softmax_s16_luts(bool in_double, int16_t exp_lut[513], int16_t recip_lut[513]) {
  if (in_double) {
    gen_lut_d(exp_d, -10.0, 0.0, exp_lut);
    gen_lut_d(recip_d, 0.0, 1.0, recip_lut);
  } else {
    gen_lut_f(exp_f, -10.0f, 0.0f, exp_lut);
    gen_lut_f(recip_f, 0.0f, 1.0f, recip_lut);
  }
}

/* --------------------------------------------------------- HARD_SWISH */

/* gemmlowp's int16 SaturatingRoundingDoublingHighMul. */
static int16_t srdhm16(int16_t a, int16_t b) {
  if (a == b && a == INT16_MIN)
    return INT16_MAX;
  const int32_t ab = (int32_t)a * (int32_t)b;
  const int32_t nudge = ab >= 0 ? (1 << 14) : (1 - (1 << 14));
  return (int16_t)((ab + nudge) / (1 << 15));
}

/* reference_ops::SaturatingDoublingHighMul: truncates instead. */
static int16_t sdhm16(int16_t a, int16_t b) {
  if (a == b && a == INT16_MIN)
    return INT16_MAX;
  return (int16_t)(((int32_t)a * (int32_t)b) / (1 << 15));
}

/* gemmlowp's RoundingDivideByPOT on int16 (the mask is an int16 too). */
static int16_t rdbpot16(int16_t x, int e) {
  const int16_t mask = (int16_t)((INT64_C(1) << e) - 1);
  const int16_t remainder = (int16_t)(x & mask);
  const int16_t threshold = (int16_t)((mask >> 1) + (x < 0 ? 1 : 0));
  return (int16_t)((x >> e) + (remainder > threshold ? 1 : 0));
}

static int16_t sat_left_shift16(int16_t v, int amount) {
  int64_t r = (int64_t)v * ((int64_t)1 << amount);
  return (int16_t)(r > INT16_MAX ? INT16_MAX : r < INT16_MIN ? INT16_MIN : r);
}

/* DownScaleInt32ToInt16Multiplier. */
static int16_t downscale_multiplier(int32_t m) {
  if (m >= INT32_MAX - (1 << 15))
    return INT16_MAX;
  return (int16_t)((m + (1 << 15)) >> 16);
}

bool hard_swish_table(DType dt, float in_scale, int32_t in_zp, float out_scale,
                      int32_t out_zp, int rounding, uint8_t table[256]) {
  if (dt != DT_INT8 && dt != DT_UINT8)
    return false;
  /* HardSwishPrepare: the scales in float, the ratios widened. */
  const float hires_input_scale = (1.0f / 128.0f) * in_scale;
  const float reluish_scale = 3.0f / 32768.0f;
  int32_t out_m32, relu_m32, out_exp, relu_exp;
  if (!quantize_multiplier((double)(hires_input_scale / out_scale), rounding, &out_m32,
                           &out_exp) ||
      !quantize_multiplier((double)(hires_input_scale / reluish_scale), rounding, &relu_m32,
                           &relu_exp))
    return false;
  if (out_exp > 0)
    return false;
  const int16_t out_m = downscale_multiplier(out_m32);
  const int16_t relu_m = downscale_multiplier(relu_m32);
  int32_t lo, hi;
  dtype_range(dt, &lo, &hi);
  for (int i = 0; i < 256; i++) {
    const int16_t x = (int16_t)(lut_input(dt, i) - in_zp);
    const int16_t hires = (int16_t)(x * (1 << 7));
    const int16_t preshift_out = srdhm16(hires, out_m);
    int16_t reluish = hires;
    if (relu_exp > 0)
      reluish = sat_left_shift16(reluish, (int)relu_exp - 1);
    reluish = srdhm16(reluish, relu_m);
    if (relu_exp > 0)
      reluish = sat_left_shift16(reluish, 1);
    if (relu_exp < 0)
      reluish = rdbpot16(reluish, (int)-relu_exp);
    reluish = (int16_t)((reluish + (1 << 15)) >> 1);
    const int16_t preshift = sdhm16(reluish, preshift_out);
    int16_t y = rdbpot16(preshift, (int)-out_exp);
    y = (int16_t)(y + out_zp);
    table[i] = (uint8_t)ta_clamp_i32(y, lo, hi);
  }
  return true;
}

/* --------------------------------------------------------- LEAKY_RELU */

bool leaky_relu_table_ort(DType dt, float in_scale, int32_t in_zp, float alpha,
                          float out_scale, int32_t out_zp, uint8_t table[256]) {
  int32_t lo, hi;
  dtype_range(dt, &lo, &hi);
  if (!(out_scale > 0.0f) || !(out_scale < FLT_MAX))
    return false;
  for (int i = 0; i < 256; i++) {
    volatile float v = in_scale * (float)(lut_input(dt, i) - in_zp);
    volatile float y = v >= 0.0f ? v : alpha * v;
    volatile float q = y / out_scale;
    float c = q > (float)(lo - out_zp) ? q : (float)(lo - out_zp);
    c = c < (float)(hi - out_zp) ? c : (float)(hi - out_zp);
    table[i] = (uint8_t)(ta_round_even_f32(c) + out_zp);
  }
  return true;
}

bool leaky_relu_table(DType dt, float in_scale, int32_t in_zp, float alpha, float out_scale,
                      int32_t out_zp, int rounding, uint8_t table[256]) {
  if (dt != DT_INT8 && dt != DT_UINT8)
    return false;
  if (rounding == TA_ROUND_ORT)
    return leaky_relu_table_ort(dt, in_scale, in_zp, alpha, out_scale, out_zp, table);
  /* CalculateOpDataLeakyRelu: both ratios in float, then widened. */
  int32_t m_alpha, s_alpha, m_id, s_id;
  if (!quantize_multiplier((double)(in_scale * alpha / out_scale), rounding, &m_alpha,
                           &s_alpha) ||
      !quantize_multiplier((double)(in_scale / out_scale), rounding, &m_id, &s_id))
    return false;
  int32_t lo, hi;
  dtype_range(dt, &lo, &hi);
  for (int i = 0; i < 256; i++) {
    const int32_t x = lut_input(dt, i) - in_zp;
    const int32_t y = x >= 0 ? ta_requant(x, m_id, s_id, rounding)
                             : ta_requant(x, m_alpha, s_alpha, rounding);
    const int64_t z = (int64_t)y + out_zp; /* a saturated y may overflow int32 */
    table[i] = (uint8_t)(z < lo ? lo : z > hi ? hi : z);
  }
  return true;
}

/* ------------------------------------------------------ RELU family */

/* zero_point + round(f / scale), in float as TFLite, saturated to int32
 * (a tiny scale from an untrusted model makes the quotient huge). */
static int32_t quantize_saturating(float f, float scale, int32_t zero_point) {
  float r = roundf(f / scale);
  int64_t q = !(r > -2147483648.0f) ? INT32_MIN
              : r >= 2147483648.0f  ? INT32_MAX
                                    : (int64_t)r;
  q += zero_point;
  return q < INT32_MIN ? INT32_MIN : q > INT32_MAX ? INT32_MAX : (int32_t)q;
}

void relu_range(DType dt, float act_min, float act_max, float out_scale, int32_t out_zp,
                int32_t *qmin, int32_t *qmax) {
  int32_t lo, hi;
  dtype_range(dt, &lo, &hi);
  int32_t q = quantize_saturating(act_min, out_scale, out_zp);
  *qmin = q > lo ? q : lo;
  *qmax = hi;
  if (act_max != INFINITY) {
    q = quantize_saturating(act_max, out_scale, out_zp);
    *qmax = q < hi ? q : hi;
  }
}

bool relu_table(DType dt, float act_min, float act_max, float in_scale, int32_t in_zp,
                float out_scale, int32_t out_zp, int rounding, uint8_t table[256]) {
  if (dt != DT_INT8 && dt != DT_UINT8)
    return false;
  /* CalculateReluOpData. */
  int32_t mult, shift;
  if (!quantize_multiplier((double)in_scale / (double)out_scale, rounding, &mult, &shift))
    return false;
  int32_t qmin, qmax;
  relu_range(dt, act_min, act_max, out_scale, out_zp, &qmin, &qmax);
  for (int i = 0; i < 256; i++) {
    const int32_t x = lut_input(dt, i);
    const int64_t y = (int64_t)out_zp + ta_requant(x - in_zp, mult, shift, rounding);
    const int64_t z = y < qmin ? qmin : y;
    table[i] = (uint8_t)(z > qmax ? qmax : z); /* qmax wins over qmin */
  }
  return true;
}

int32_t relu6_six(DType dt, float in_scale, int32_t in_zp) {
  /* FloatToQuantizedType(6, scale, zero point), saturated to the type. */
  int32_t lo, hi;
  dtype_range(dt, &lo, &hi);
  return ta_clamp_i32(quantize_saturating(6.0f, in_scale, in_zp), lo, hi);
}

bool relu6_table_tflm(DType dt, float in_scale, int32_t in_zp, uint8_t table[256]) {
  if (dt != DT_INT8)
    return false;
  /* Relu6Prepare: zero = the input zero point, six =
   * FloatToQuantizedType(6, scale, zp); the output scale is not read. */
  const int32_t six = relu6_six(dt, in_scale, in_zp);
  const int32_t zero = in_zp;
  for (int i = 0; i < 256; i++) {
    const int32_t x = lut_input(dt, i);
    const int32_t y = x > six ? six : x < zero ? zero : x;
    table[i] = (uint8_t)y;
  }
  return true;
}

bool checked_log2f(float x, int *log2_result) {
  volatile float x_log2 = logf(x) * (1.0f / logf(2.0f));
  float rounded = roundf(x_log2);
  volatile float frac = x_log2 - rounded;
  *log2_result = (int)rounded;
  return fabsf(frac) < 1e-3f;
}

/* ------------------------------------------------------------- others */

int32_t nearest_neighbor(int32_t out_index, int32_t in_size, int32_t out_size,
                         bool align_corners, bool half_pixel_centers) {
  const float scale = (align_corners && out_size > 1)
                          ? (float)(in_size - 1) / (float)(out_size - 1)
                          : (float)in_size / (float)out_size;
  const float offset = half_pixel_centers ? 0.5f : 0.0f;
  const float v = ((float)out_index + offset) * scale;
  int32_t r = align_corners ? (int32_t)roundf(v) : (int32_t)floorf(v);
  if (r > in_size - 1)
    r = in_size - 1;
  if (half_pixel_centers && r < 0)
    r = 0;
  return r;
}

bool sub_params(float s1, int32_t zp1, float s2, int32_t zp2, float so, int32_t zpo,
                DType out_dt, Activation act, int rounding, ta_add_params *p) {
  if (out_dt == DT_UINT8) {
    /* TFLite's uint8 SUB rescales like its ADD (in double). */
    if (!add_params(s1, zp1, s2, zp2, so, zpo, DT_INT8, act, rounding, p))
      return false;
    return activation_range_quantized(act, DT_UINT8, so, zpo, &p->act_min, &p->act_max);
  }
  if (out_dt != DT_INT8 && out_dt != DT_INT16)
    return false;
  /* TFLM CalculateOpDataSub: twice the larger scale and the ratios in
   * float, then widened. */
  p->input1_offset = -zp1;
  p->input2_offset = -zp2;
  p->output_offset = zpo;
  p->left_shift = out_dt == DT_INT16 ? 15 : 20;
  p->rounding = rounding;
  const float twice_max = 2 * (s1 > s2 ? s1 : s2);
  const double real1 = (double)(s1 / twice_max);
  const double real2 = (double)(s2 / twice_max);
  const double real_out = (double)(twice_max / ((float)(1 << p->left_shift) * so));
  if (!quantize_multiplier_smaller_than_one_exp(real1, rounding, &p->input1_multiplier,
                                                &p->input1_shift) ||
      !quantize_multiplier_smaller_than_one_exp(real2, rounding, &p->input2_multiplier,
                                                &p->input2_shift) ||
      !quantize_multiplier_smaller_than_one_exp(real_out, rounding, &p->output_multiplier,
                                                &p->output_shift))
    return false;
  p->act_min_f32 = -FLT_MAX;
  p->act_max_f32 = FLT_MAX;
  return activation_range_quantized(act, out_dt, so, zpo, &p->act_min, &p->act_max);
}

bool mul_params(float s1, int32_t zp1, float s2, int32_t zp2, float so, int32_t zpo,
                DType out_dt, Activation act, bool float_scales, int rounding,
                ta_mul_params *p) {
  p->input1_offset = -zp1;
  p->input2_offset = -zp2;
  p->output_offset = zpo;
  p->rounding = rounding;
  p->act_min_f32 = -FLT_MAX;
  p->act_max_f32 = FLT_MAX;
  if (out_dt != DT_UINT8 && out_dt != DT_INT8 && out_dt != DT_INT16)
    return false;
  double real;
  if (float_scales || out_dt == DT_UINT8) {
    /* TFLite's mul.cc: the float product and quotient, widened. */
    volatile float f = s1 * s2;
    f = f / so;
    real = (double)f;
  } else {
    real = (double)s1 * (double)s2 / (double)so; /* TFLM: in double */
  }
  return quantize_multiplier(real, rounding, &p->multiplier, &p->shift) &&
         activation_range_quantized(act, out_dt, so, zpo, &p->act_min, &p->act_max);
}

bool mean_multiplier(float in_scale, float out_scale, int64_t count, int rounding,
                     int32_t *mult, int32_t *shift) {
  if (count < 1 || !quantize_multiplier((double)in_scale / (double)out_scale, rounding, mult,
                                        shift))
    return false;
  /* QuantizedMeanOrSum folds 1/count into the multiplier: shift by the
   * bit length of count minus one (at most 32 and 31 + shift), divide. */
  int s = 63;
  while (s > 0 && !((uint64_t)count >> s))
    s--;
  if (s > 32)
    s = 32;
  if (s > 31 + *shift)
    s = 31 + *shift;
  *mult = (int32_t)(((int64_t)*mult * ((int64_t)1 << s)) / count);
  *shift -= s;
  return true;
}
