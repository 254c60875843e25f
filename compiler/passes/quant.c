/* SPDX-License-Identifier: Apache-2.0 */
/*
 * quant.c - host-side quantization arithmetic: the parameters TFLite
 * Micro's kernels compute in their Prepare step, computed here with the
 * same float/double operations in the same order, so the kernels in
 * runtime/ receive exactly TFLM's numbers.
 *
 * Sources of the arithmetic (tensorflow/lite/kernels/internal/
 * quantization_util.cc, tensorflow/lite/kernels/kernel_util.cc,
 * tensorflow/lite/kernels/padding.h, and tflite-micro's kernels/<op>_common.cc)
 * are named at each function.  Nothing here allocates; functions that can
 * meet an unusable model return false and leave the reporting to the
 * caller (error_at()).
 */
#include "tinyaot.h"
#include "ta_fixedpoint.h"

#include <float.h>
#include <math.h>

/* QuantizeMultiplier (quantization_util.cc). */
bool quantize_multiplier(double real, int rounding, int32_t *mult, int32_t *shift) {
  *mult = 0;
  *shift = 0;
  if (isnan(real) || isinf(real))
    return false;
  if (rounding == TA_ROUND_SINGLE && real < 0.0) /* single rounding: positive only */
    return false;
  if (real == 0.0)
    return true;
  int e = 0;
  double q = frexp(real, &e);
  int64_t q_fixed = (int64_t)round(q * 2147483648.0); /* round half away */
  if (q_fixed == (INT64_C(1) << 31)) {
    q_fixed /= 2;
    e++;
  }
  if (e < -31) { /* flushes tiny multipliers to zero, as TFLite */
    e = 0;
    q_fixed = 0;
  }
  if (rounding == TA_ROUND_SINGLE && e > 30) {
    e = 30;
    q_fixed = (INT64_C(1) << 31) - 1;
  }
  if (e > 31) /* TFLite's x * (1 << shift) cannot be computed */
    return false;
  *mult = (int32_t)q_fixed;
  *shift = e;
  return true;
}

/* QuantizeMultiplierSmallerThanOneExp. */
bool quantize_multiplier_smaller_than_one_exp(double real, int rounding, int32_t *mult,
                                              int32_t *shift) {
  if (!(real > 0.0 && real < 1.0))
    return false;
  return quantize_multiplier(real, rounding, mult, shift) && *shift <= 0;
}

/* QuantizeMultiplierGreaterThanOne. */
bool quantize_multiplier_greater_than_one(double real, int rounding, int32_t *mult,
                                          int32_t *shift) {
  if (!(real > 1.0))
    return false;
  return quantize_multiplier(real, rounding, mult, shift) && *shift >= 0;
}

/* ONNX Runtime's output scale of QLinearConv / QLinearMatMul / QGemm
 * (ComputeOutputScale): in * filter / out in float32, left to right; the
 * multiplier holds its bits, the shift is 0 (ta_requant_ort()). */
bool ort_multiplier(float in_scale, float filter_scale, float out_scale, int32_t *mult,
                    int32_t *shift) {
  volatile float product = in_scale * filter_scale;
  volatile float scale = product / out_scale;
  if (!(scale > 0.0f) || !(scale < FLT_MAX))
    return false;
  union {
    float f;
    int32_t i;
  } u;
  u.f = scale;
  *mult = u.i;
  *shift = 0;
  return true;
}

/* PopulateConvolutionQuantizationParams (kernel_util.cc) and
 * CalculateOpDataFullyConnected's per-channel branch. */
bool conv_multiplier(float in_scale, float filter_scale, float out_scale, int rounding,
                     int32_t *mult, int32_t *shift) {
  if (rounding == TA_ROUND_ORT)
    return ort_multiplier(in_scale, filter_scale, out_scale, mult, shift);
  double real = (double)in_scale * (double)filter_scale / (double)out_scale;
  return quantize_multiplier(real, rounding, mult, shift);
}

/* GetQuantizedConvolutionMultipler (kernel_util.cc): the product of the
 * two scales is taken in float, then widened. */
bool fc_multiplier(float in_scale, float filter_scale, float out_scale, int rounding,
                   int32_t *mult, int32_t *shift) {
  if (rounding == TA_ROUND_ORT)
    return ort_multiplier(in_scale, filter_scale, out_scale, mult, shift);
  volatile float product = in_scale * filter_scale; /* float rounding */
  if (!(product >= 0.0f))
    return false;
  double real = (double)product / (double)out_scale;
  return quantize_multiplier(real, rounding, mult, shift);
}

/* One bound of CalculateActivationRangeQuantizedImpl:
 * zero_point + (int32_t)TfLiteRound(f / scale), in float. */
static bool quantize_bound(float f, float scale, int32_t zero_point, int32_t *q) {
  volatile float ratio = f / scale;
  float r = roundf(ratio);
  if (!(r >= -2147483648.0f && r < 2147483648.0f))
    return false;
  int64_t v = (int64_t)zero_point + (int64_t)r;
  if (v < INT32_MIN || v > INT32_MAX)
    return false;
  *q = (int32_t)v;
  return true;
}

static int32_t max_i32(int32_t a, int32_t b) { return a > b ? a : b; }
static int32_t min_i32(int32_t a, int32_t b) { return a < b ? a : b; }

/* CalculateActivationRangeQuantized (kernel_util.cc). */
bool activation_range_quantized(Activation act, DType dt, float scale, int32_t zero_point,
                                int32_t *act_min, int32_t *act_max) {
  int32_t qmin, qmax, q;
  switch (dt) {
  case DT_INT8: qmin = -128; qmax = 127; break;
  case DT_UINT8: qmin = 0; qmax = 255; break;
  case DT_INT16: qmin = -32768; qmax = 32767; break;
  default: return false;
  }
  *act_min = qmin;
  *act_max = qmax;
  switch (act) {
  case ACT_NONE:
    return true;
  case ACT_RELU:
    if (!quantize_bound(0.0f, scale, zero_point, &q))
      return false;
    *act_min = max_i32(qmin, q);
    return true;
  case ACT_RELU6:
    if (!quantize_bound(0.0f, scale, zero_point, &q))
      return false;
    *act_min = max_i32(qmin, q);
    if (!quantize_bound(6.0f, scale, zero_point, &q))
      return false;
    *act_max = min_i32(qmax, q);
    return true;
  case ACT_RELU_N1_TO_1:
    if (!quantize_bound(-1.0f, scale, zero_point, &q))
      return false;
    *act_min = max_i32(qmin, q);
    if (!quantize_bound(1.0f, scale, zero_point, &q))
      return false;
    *act_max = min_i32(qmax, q);
    return true;
  default:
    return false;
  }
}

/* CalculateActivationRange<float> (kernel_util.h). */
bool activation_range_float(Activation act, float *act_min, float *act_max) {
  *act_min = -FLT_MAX;
  *act_max = FLT_MAX;
  switch (act) {
  case ACT_NONE: return true;
  case ACT_RELU: *act_min = 0.0f; return true;
  case ACT_RELU6: *act_min = 0.0f; *act_max = 6.0f; return true;
  case ACT_RELU_N1_TO_1: *act_min = -1.0f; *act_max = 1.0f; return true;
  default: return false;
  }
}

/* ComputeOutSize (padding.h), in 64 bits: a model's strides, dilations
 * and filter sizes are untrusted.  -1 when a size is not positive or the
 * result does not fit int32. */
int32_t compute_out_size(Padding pad, int32_t in, int32_t filter, int32_t stride,
                         int32_t dilation) {
  if (stride <= 0 || filter <= 0 || dilation <= 0 || in < 0)
    return -1;
  int64_t effective = (int64_t)(filter - 1) * dilation + 1;
  int64_t out = pad == PAD_SAME ? ((int64_t)in + stride - 1) / stride
                                : ((int64_t)in + stride - effective) / stride;
  return out < 0 || out > INT32_MAX ? -1 : (int32_t)out;
}

/* ComputePaddingWithOffset (padding.h), the leading half.  *out = -1
 * (which matches no tensor's shape, so the caller refuses the op) when
 * the sizes are not positive or a kernel's index arithmetic over this
 * axis - up to (out - 1) * stride + effective filter - could overflow
 * int32. */
void compute_padding(Padding pad, int32_t in, int32_t filter, int32_t stride, int32_t dilation,
                     int32_t *out, int32_t *pad_before) {
  *out = compute_out_size(pad, in, filter, stride, dilation);
  *pad_before = 0;
  if (*out < 0)
    return;
  int64_t effective = (int64_t)(filter - 1) * dilation + 1;
  int64_t reach = (int64_t)(*out > 0 ? *out - 1 : 0) * stride + effective;
  if (reach > INT32_MAX) {
    *out = -1;
    return;
  }
  int64_t total = reach - in;
  *pad_before = total < 0 ? 0 : (int32_t)(total / 2);
}

/* PreprocessSoftmaxScaling and CalculateInputRadius
 * (quantization_util.cc), as tflite-micro's CalculateSoftmaxParams calls
 * them for int8 input (kScaledDiffIntegerBits = 5). */
bool softmax_params(float beta, float input_scale, int rounding, ta_softmax_params *p) {
  const int integer_bits = 5;
  double max_real = rounding == TA_ROUND_SINGLE ? (double)((INT64_C(1) << 30) - 1)
                                                : (double)((INT64_C(1) << 31) - 1);
  double real = (double)beta * (double)input_scale * (double)(1 << (31 - integer_bits));
  if (real > max_real)
    real = max_real;
  int32_t mult, shift;
  if (!quantize_multiplier_greater_than_one(real, rounding, &mult, &shift))
    return false;
  p->input_multiplier = mult;
  p->input_left_shift = shift;
  p->diff_min = -calculate_input_radius(integer_bits, shift);
  p->rounding = rounding;
  p->beta = beta;
  p->exp_table = NULL;
  return true;
}

/* CalculateInputRadius (quantization_util.cc), total_signed_bits 31.
 * The power of two is ldexp's, the same double for every shift TFLite
 * meets, and defined for any shift an untrusted scale gives; the result
 * saturates at INT32_MAX. */
int32_t calculate_input_radius(int integer_bits, int left_shift) {
  double max_rescaled = 1.0 * ((1 << integer_bits) - 1) *
                        ldexp(1.0, 31 - integer_bits - left_shift);
  double r = floor(max_rescaled);
  return r >= (double)INT32_MAX ? INT32_MAX : (int32_t)r;
}

/* tflite-micro CalculateOpDataAdd (add_common.cc). */
bool add_params(float s1, int32_t zp1, float s2, int32_t zp2, float so, int32_t zpo,
                DType out_dt, Activation act, int rounding, ta_add_params *p) {
  if (out_dt != DT_INT8 && out_dt != DT_INT16)
    return false;
  p->input1_offset = -zp1;
  p->input2_offset = -zp2;
  p->output_offset = zpo;
  p->left_shift = out_dt == DT_INT16 ? 15 : 20;
  p->rounding = rounding;
  double twice_max = 2 * (double)(s1 > s2 ? s1 : s2);
  double real1 = (double)s1 / twice_max;
  double real2 = (double)s2 / twice_max;
  double real_out = twice_max / ((double)(1 << p->left_shift) * (double)so);
  if (!quantize_multiplier_smaller_than_one_exp(real1, rounding, &p->input1_multiplier,
                                                &p->input1_shift) ||
      !quantize_multiplier_smaller_than_one_exp(real2, rounding, &p->input2_multiplier,
                                                &p->input2_shift) ||
      !quantize_multiplier_smaller_than_one_exp(real_out, rounding, &p->output_multiplier,
                                                &p->output_shift))
    return false;
  p->act_min_f32 = -FLT_MAX;
  p->act_max_f32 = FLT_MAX;
  p->table1 = p->table2 = NULL;
  return activation_range_quantized(act, out_dt, so, zpo, &p->act_min, &p->act_max);
}

void add_tables(const ta_add_params *p, int32_t t1[256], int32_t t2[256]) {
  for (int v = -128; v < 128; v++) {
    int32_t a = ta_wrap_shl(v + p->input1_offset, (int)p->left_shift);
    int32_t b = ta_wrap_shl(v + p->input2_offset, (int)p->left_shift);
    t1[(uint8_t)v] = ta_requant_le1(a, p->input1_multiplier, p->input1_shift, p->rounding);
    t2[(uint8_t)v] = ta_requant_le1(b, p->input2_multiplier, p->input2_shift, p->rounding);
  }
}

/* tflite-micro PrepareQuantizeReference: effective scale in double. */
bool requant_params(float in_scale, int32_t in_zp, float out_scale, int32_t out_zp,
                    int rounding, ta_requant_params *p) {
  double real = (double)in_scale / (double)out_scale;
  p->input_zero_point = in_zp;
  p->output_zero_point = out_zp;
  p->rounding = rounding;
  return quantize_multiplier(real, rounding, &p->multiplier, &p->shift);
}

void fold_bias_s8(const int8_t *filter, int32_t nout, int32_t per_out, const int32_t *bias,
                  int32_t input_offset, int32_t *out) {
  for (int32_t o = 0; o < nout; o++) {
    int64_t sum = 0;
    for (int32_t i = 0; i < per_out; i++)
      sum += filter[(size_t)o * (size_t)per_out + (size_t)i];
    int64_t v = (bias ? bias[o] : 0) + (int64_t)input_offset * sum;
    out[o] = (int32_t)(uint32_t)(uint64_t)v; /* wraps as the kernel's int32 sum */
  }
}

void fold_bias_depthwise_s8(const int8_t *filter, int32_t taps, int32_t nout,
                            const int32_t *bias, int32_t input_offset, int32_t *out) {
  for (int32_t o = 0; o < nout; o++) {
    int64_t sum = 0;
    for (int32_t t = 0; t < taps; t++)
      sum += filter[(size_t)t * (size_t)nout + (size_t)o];
    int64_t v = (bias ? bias[o] : 0) + (int64_t)input_offset * sum;
    out[o] = (int32_t)(uint32_t)(uint64_t)v;
  }
}

bool make_broadcast(const int32_t *shape1, int n1, const int32_t *shape2, int n2,
                    ta_bcast *b, int32_t *out_shape, int *out_ndims) {
  int n = n1 > n2 ? n1 : n2;
  if (n1 < 0 || n2 < 0 || n > TA_MAX_DIMS)
    return false;
  int32_t d1[TA_MAX_DIMS], d2[TA_MAX_DIMS], dout[TA_MAX_DIMS];
  int64_t st1[TA_MAX_DIMS], st2[TA_MAX_DIMS];
  for (int i = 0; i < n; i++) { /* align at the innermost dimension */
    d1[i] = i < n - n1 ? 1 : shape1[i - (n - n1)];
    d2[i] = i < n - n2 ? 1 : shape2[i - (n - n2)];
    if (d1[i] < 0 || d2[i] < 0 || (d1[i] != d2[i] && d1[i] != 1 && d2[i] != 1))
      return false;
    dout[i] = d1[i] == 1 ? d2[i] : d1[i];
  }
  int64_t s1 = 1, s2 = 1;
  for (int i = n - 1; i >= 0; i--) {
    st1[i] = d1[i] == 1 ? 0 : s1;
    st2[i] = d2[i] == 1 ? 0 : s2;
    s1 *= d1[i];
    s2 *= d2[i];
  }
  if (out_shape)
    for (int i = 0; i < n; i++)
      out_shape[i] = dout[i];
  if (out_ndims)
    *out_ndims = n;
  /* Drop size-1 output dimensions, merge a dimension into the previous
   * kept one when both inputs continue contiguously across them. */
  int k = 0;
  for (int i = 0; i < n; i++) {
    if (dout[i] == 1)
      continue;
    if (k > 0 && (int64_t)b->stride1[k - 1] == st1[i] * dout[i] &&
        (int64_t)b->stride2[k - 1] == st2[i] * dout[i]) {
      b->shape[k - 1] *= dout[i];
      b->stride1[k - 1] = (int32_t)st1[i];
      b->stride2[k - 1] = (int32_t)st2[i];
      continue;
    }
    b->shape[k] = dout[i];
    b->stride1[k] = (int32_t)st1[i];
    b->stride2[k] = (int32_t)st2[i];
    k++;
  }
  if (k == 0) {
    b->shape[0] = 1;
    b->stride1[0] = 0;
    b->stride2[0] = 0;
    k = 1;
  }
  b->ndims = k;
  return true;
}

void softmax_exp_table(const ta_softmax_params *p, int32_t table[256]) {
  for (int k = 0; k < 256; k++) {
    int32_t diff = -k;
    if (diff < p->diff_min) {
      table[k] = 0;
      continue;
    }
    int32_t scaled = ta_requant_ge1(diff, p->input_multiplier, p->input_left_shift, p->rounding);
    table[k] = ta_exp_on_negative_values_5(scaled);
  }
}
