/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lower_legacy.c - the uint8 (legacy asymmetric quantization) variants
 * of CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, the pools, ADD and
 * SOFTMAX, which lower.c's lowerings hand over to when the types are not
 * theirs; and the hybrid CONV_2D and FULLY_CONNECTED (float
 * activations, int8 weights), with a message for the hybrid ops it does
 * not cover.
 *
 * TFLite Micro refuses uint8 models, so the arithmetic here is TFLite's
 * builtin uint8 kernels': per-tensor filter quantization with a zero
 * point, the multiplier of GetQuantizedConvolutionMultipler (the float
 * product of input and filter scale over the output scale, in double:
 * fc_multiplier()), and requantization with the rounding the compile
 * options choose (TFLite's own builds: --rounding single).
 */
#include "lower.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>


/* Float activations with int8 (or uint8) constant weights: TFLite's
 * "hybrid" (dynamic-range) kernels, which quantize the activations at
 * run time.  TFLite Micro has no such kernels either. */
static bool is_hybrid(const Tensor *in, const Tensor *filter) {
  return in->dtype == DT_FLOAT32 && (filter->dtype == DT_INT8 || filter->dtype == DT_UINT8);
}

static TA_NORETURN void refuse_hybrid(Lower *L) {
  error_at(L->g, L->op->index,
           "a hybrid op (%s): float activations with int8 weights are quantized at run "
           "time by TFLite's dynamic-range kernels; tinyaot implements CONV_2D's, "
           "DEPTHWISE_CONV_2D's and FULLY_CONNECTED's (int8 weights, float bias), TFLite "
           "Micro none; "
           "convert the model with "
           "full integer quantization (int8 activations, a representative dataset) or "
           "keep float weights",
           dtypes_str(L));
}

/* The uint8 requantization of a conv-like op: the per-tensor multiplier
 * from the float product of the input and filter scales, and the
 * filter's zero point. */
static void u8_filter_quant(Lower *L, const Tensor *in, const Tensor *filter,
                            const Tensor *out, int32_t *filter_zp) {
  if (filter->q.nscale != 1)
    error_at(L->g, L->op->index, "a uint8 filter must have one scale (it has %d)",
             filter->q.nscale);
  *filter_zp = zp_of(filter);
  int32_t mult, shift;
  if (!fc_multiplier(scale_of(L, in), filter->q.scale[0], scale_of(L, out), L->rounding,
                     &mult, &shift))
    error_at(L->g, L->op->index, "cannot represent the requantization scale");
  const_i32(L, "mult", &mult, 1, false);
  const_i32(L, "shift", &shift, 1, false);
  const_struct(L, "quant", "ta_quant", quant_init(0, L->rounding, 0), true);
}

static bool all_u8(const Tensor *in, const Tensor *filter, const Tensor *bias,
                   const Tensor *out) {
  return in->dtype == DT_UINT8 && filter->dtype == DT_UINT8 && out->dtype == DT_UINT8 &&
         (!bias || bias->dtype == DT_INT32);
}

/* ------------------------------------------------ CONV_2D, DEPTHWISE */

/* A hybrid CONV_2D that TFLite's EvalHybrid runs: int8 filter with one
 * scale and no zero point, float bias and output. */
static bool is_simple_hybrid_conv(const Tensor *filter, const Tensor *bias,
                                  const Tensor *out) {
  return filter->dtype == DT_INT8 && filter->q.nscale == 1 && zp_of(filter) == 0 &&
         out->dtype == DT_FLOAT32 && bias && bias->dtype == DT_FLOAT32;
}

/*
 * The hybrid DEPTHWISE_CONV_2D (TFLite's EvalHybridPerChannel): int8
 * filter with one scale per output channel (TFLite's Prepare insists)
 * and zero points 0 (the kernel ignores them), float bias and output;
 * the input quantized asymmetrically per batch, whatever the options.
 * lower_conv_legacy has checked the types and the shapes.
 */
static void lower_depthwise_hybrid(Lower *L, const Tensor *in, const Tensor *filter,
                                   const Tensor *bias, const Tensor *out, ta_dims di,
                                   ta_dims df, ta_dims dout, ta_conv_params p) {
  int nscale = filter->q.nscale;
  if (nscale != dout.c || (nscale > 1 && filter->q.axis != 3))
    error_at(L->g, L->op->index, "hybrid DEPTHWISE_CONV_2D: %d filter scales on axis %d; "
             "TFLite's hybrid kernel takes one per output channel (%d) on axis 3",
             nscale, filter->q.axis, (int)dout.c);
  for (int c = 0; c < nscale; c++)
    if (filter->q.zero_point && filter->q.zero_point[c] != 0)
      error_at(L->g, L->op->index, "hybrid DEPTHWISE_CONV_2D: filter zero point %" PRId64
               " (channel %d); TFLite's hybrid kernel ignores zero points, so tinyaot "
               "takes only symmetric filters", filter->q.zero_point[c], c);
  act_range(L, out, &p.act_min, &p.act_max, &p.act_min_f32, &p.act_max_f32);
  L->l->kernel = "ta_depthwise_conv2d_hybrid_f32";
  const_struct(L, "params", "ta_conv_params", conv_init(&p), true);
  const_array(L, "filter_scale", DT_FLOAT32, filter->q.scale, (size_t)nscale, false);
  add_arg(L, ARG_CONST, L->l->nconsts - 1, 0);
  conv_tensor_args(L, di, in, df, filter, bias, dout, out);
  arg_scratch(L);
  L->op->scratch_bytes = ta_depthwise_conv2d_hybrid_f32_scratch_size(&p, &di, &df, &dout);
  /* Overlap (doc/memory-plan.md 2c): TA_CONV_HYBRID_BATCHES
   * (runtime/conv/conv_hybrid.h) quantizes a whole image into the
   * scratch before it writes any output of that image and never reads
   * the float input of that image again: blocks of one image. */
  overlap_images(L, di, dout, 4);
}

void lower_conv_legacy(Lower *L, bool depthwise) {
  Tensor *in = input(L, 0), *filter = input(L, 1), *bias = optional_input(L, 2);
  Tensor *out = output(L, 0);
  bool hybrid = is_hybrid(in, filter);
  /* Several filter scales: TFLite's EvalHybridPerChannel. */
  bool per_channel = hybrid && filter->dtype == DT_INT8 && filter->q.nscale > 1 &&
                     out->dtype == DT_FLOAT32 && (!bias || bias->dtype == DT_FLOAT32);
  if (hybrid && depthwise &&
      (filter->dtype != DT_INT8 || out->dtype != DT_FLOAT32 ||
       (bias && bias->dtype != DT_FLOAT32)))
    refuse_hybrid(L);
  if (hybrid && !depthwise && !per_channel && !is_simple_hybrid_conv(filter, bias, out))
    refuse_hybrid(L);
  if (!hybrid && !all_u8(in, filter, bias, out))
    unsupported_types(L);
  need_conv_tensors(L, in, filter, bias, out);
  const Options *opt = &L->op->opt;
  ta_dims di = dims4(L, in), df = dims4(L, filter), dout = dims4(L, out);
  int32_t oh, ow;
  ta_conv_params p = conv_params_of(opt, di, df, &oh, &ow);
  if (oh != dout.h || ow != dout.w || di.n != dout.n)
    error_at(L->g, L->op->index, "output shape disagrees with the computed one");
  if (depthwise) {
    if (df.n != 1 || df.c != dout.c || di.c == 0 || dout.c % di.c)
      error_at(L->g, L->op->index, "the filter does not fit the channels");
    p.depth_multiplier = depth_multiplier_of(L, di.c, dout.c);
  } else if (df.n != dout.c || df.c != di.c) {
    error_at(L->g, L->op->index, "the filter does not fit the channels");
  }
  if (bias && tensor_elems(bias) != dout.c)
    error_at(L->g, L->op->index, "bias has %" PRId64 " values for %d channels",
             tensor_elems(bias), (int)dout.c);
  if (hybrid && depthwise) {
    lower_depthwise_hybrid(L, in, filter, bias, out, di, df, dout, p);
    return;
  }
  act_range(L, out, &p.act_min, &p.act_max, &p.act_min_f32, &p.act_max_f32);
  if (per_channel) {
    int nscale = filter->q.nscale;
    if (nscale != dout.c || filter->q.axis != 0)
      error_at(L->g, L->op->index, "hybrid CONV_2D: %d filter scales on axis %d; TFLite "
               "takes one, or one per output channel (%d) on axis 0", nscale,
               filter->q.axis, (int)dout.c);
    bool differ = false;
    for (int c = 0; c < nscale; c++) {
      if (filter->q.zero_point && filter->q.zero_point[c] != 0)
        error_at(L->g, L->op->index, "hybrid CONV_2D: filter zero point %" PRId64
                 " (channel %d); TFLite's hybrid kernels ignore zero points, so tinyaot "
                 "takes only symmetric filters", filter->q.zero_point[c], c);
      differ = differ || filter->q.scale[c] != filter->q.scale[0];
    }
    /* TFLite takes the per-channel kernel only when the scales differ;
     * with equal ones it runs EvalHybrid with the tensor's single scale,
     * which it reads as 0 when there are several. */
    if (!differ)
      error_at(L->g, L->op->index, "hybrid CONV_2D with %d equal filter scales: TFLite then "
               "runs its per-tensor hybrid kernel with a filter scale of 0 (it keeps no single "
               "scale for a tensor with several); store the filter with one scale", nscale);
  }
  if (hybrid) {
    L->l->kernel = per_channel ? "ta_conv2d_hybrid_per_channel_f32" : "ta_conv2d_hybrid_f32";
    const_struct(L, "params", "ta_conv_params", conv_init(&p), true);
    const_array(L, "filter_scale", DT_FLOAT32, filter->q.scale, (size_t)filter->q.nscale,
                false);
    add_arg(L, ARG_CONST, L->l->nconsts - 1, 0);
    conv_tensor_args(L, di, in, df, filter, bias, dout, out);
    arg_scratch(L);
    L->op->scratch_bytes =
        per_channel ? ta_conv2d_hybrid_per_channel_f32_scratch_size(&p, &di, &df, &dout)
                    : ta_conv2d_hybrid_f32_scratch_size(&p, &di, &df, &dout);
    overlap_images(L, di, dout, 4); /* as the hybrid depthwise above */
    return;
  }
  p.input_offset = -zp_of(in);
  p.output_offset = zp_of(out);

  L->l->kernel = depthwise ? "ta_depthwise_conv2d_u8" : "ta_conv2d_u8";
  const_struct(L, "params", "ta_conv_params", conv_init(&p), true);
  int32_t filter_zp;
  u8_filter_quant(L, in, filter, out, &filter_zp);
  add_arg(L, ARG_INT, -1, -filter_zp);
  conv_tensor_args(L, di, in, df, filter, bias, dout, out);
  /* Overlap (doc/memory-plan.md 2c), portable C on every target (no Arm
   * path).  ta_conv2d_u8 (TA_CONV2D_X8, conv_x8.h) walks the output
   * pixels in order and writes each output channel of a pixel as soon as
   * its sum over the window is done: own reads, blocks of 1.
   * ta_depthwise_conv2d_u8 walks the pixels in order and, per pixel,
   * blocks of 64 output channels, each block's window read before its
   * outputs are written: with depth multiplier 1 output channel c reads
   * only input channel c, so per channel it is the pixel walk with blocks
   * of 1 (by channel); with another multiplier a pixel's outputs are
   * written while its window is still read (own reads). */
  if (!depthwise || p.depth_multiplier != 1)
    overlap_windows_own(L, &p, di, df.h, df.w, dout, 1);
  else
    overlap_windows(L, &p, di, df.h, df.w, dout, 1, true, 1);
}

/* ---------------------------------------------------- FULLY_CONNECTED */

/*
 * The hybrid FULLY_CONNECTED (TFLite's EvalHybridDense): int8 weights
 * with one scale or one per output (axis 0) and zero points 0, float
 * bias and output.  The weights' row sums, which the asymmetric input
 * quantization needs, are computed here (TFLite computes them on the
 * first run).
 */
static void lower_fully_connected_hybrid(Lower *L, const ta_fc_params *fc) {
  Tensor *in = input(L, 0), *filter = input(L, 1), *bias = optional_input(L, 2);
  Tensor *out = output(L, 0);
  if (filter->dtype != DT_INT8 || out->dtype != DT_FLOAT32 ||
      (bias && bias->dtype != DT_FLOAT32))
    refuse_hybrid(L);
  int nscale = filter->q.nscale;
  if (nscale < 1)
    error_at(L->g, L->op->index, "hybrid FULLY_CONNECTED: the int8 weights have no scale");
  if (nscale > 1 && (nscale != fc->out_depth || filter->q.axis != 0))
    error_at(L->g, L->op->index, "hybrid FULLY_CONNECTED: %d weight scales on axis %d; "
             "TFLite takes one, or one per output (%d) on axis 0", nscale,
             filter->q.axis, (int)fc->out_depth);
  for (int c = 0; c < nscale; c++)
    if (filter->q.zero_point && filter->q.zero_point[c] != 0)
      error_at(L->g, L->op->index, "hybrid FULLY_CONNECTED: weight zero point %" PRId64
               " (channel %d); TFLite's hybrid kernel ignores zero points, so tinyaot "
               "takes only symmetric weights", filter->q.zero_point[c], c);
  bool asym = L->op->opt.asymmetric_quantize_inputs;
  if (nscale > 1 && !asym)
    error_at(L->g, L->op->index, "hybrid FULLY_CONNECTED with per-channel weight scales and "
             "symmetric input quantization: TFLite's portable kernel ignores the per-channel "
             "scales there and its SSE/NEON kernels apply them, so there is no one result to "
             "reproduce; convert with asymmetric_quantize_inputs (the converter's default), or "
             "with one weight scale, or with full integer quantization");
  ta_fc_params p = *fc;
  L->l->kernel = "ta_fully_connected_hybrid_f32";
  const_struct(L, "params", "ta_fc_params", fc_init(&p), true);
  const_array(L, "filter_scale", DT_FLOAT32, filter->q.scale, (size_t)nscale, false);
  if (asym) {
    int32_t *sums = arena_array((size_t)p.out_depth, sizeof(int32_t));
    const int8_t *w = (const int8_t *)filter->data;
    for (int32_t o = 0; o < p.out_depth; o++)
      for (int32_t i = 0; i < p.in_depth; i++)
        sums[o] += w[(size_t)o * p.in_depth + i];
    const_i32(L, "row_sums", sums, (size_t)p.out_depth, false);
  }
  const_struct(L, "hybrid", "ta_fc_hybrid_params",
               arena_printf("{.filter_scale = @filter_scale, .per_channel = %d,\n"
                            "    .asymmetric = %d, .row_sums = %s}",
                            nscale > 1, asym, asym ? "@row_sums" : "NULL"),
               true);
  arg_tensor(L, in->index);
  arg_tensor(L, filter->index);
  arg_optional(L, bias);
  arg_tensor(L, out->index);
  arg_scratch(L);
  L->op->scratch_bytes = (size_t)p.in_depth;
}

void lower_fully_connected_legacy(Lower *L) {
  Tensor *in = input(L, 0), *filter = input(L, 1), *bias = optional_input(L, 2);
  Tensor *out = output(L, 0);
  bool hybrid = is_hybrid(in, filter);
  if (hybrid && filter->dtype != DT_INT8)
    refuse_hybrid(L);
  if (!hybrid && !all_u8(in, filter, bias, out))
    unsupported_types(L);
  if (L->op->opt.weights_format != 0)
    error_at(L->g, L->op->index, "shuffled weights are not supported");
  need_const(L, filter, "filter");
  if (bias)
    need_const(L, bias, "bias");
  ta_fc_params p = fc_params_of(L, in, filter, out);
  if (bias && tensor_elems(bias) != p.out_depth)
    error_at(L->g, L->op->index, "bias size disagrees with the filter");
  act_range(L, out, &p.act_min, &p.act_max, &p.act_min_f32, &p.act_max_f32);
  if (hybrid) {
    lower_fully_connected_hybrid(L, &p);
    return;
  }
  p.input_offset = -zp_of(in);
  p.output_offset = zp_of(out);
  int32_t filter_zp = zp_of(filter);
  p.filter_offset = -filter_zp;
  L->l->kernel = "ta_fully_connected_u8";
  const_struct(L, "params", "ta_fc_params", fc_init(&p), true);
  u8_filter_quant(L, in, filter, out, &filter_zp);
  arg_tensor(L, in->index);
  arg_tensor(L, filter->index);
  arg_optional(L, bias);
  arg_tensor(L, out->index);
}

/* ---------------------------------------------------------------- ADD */

void lower_add_legacy(Lower *L) {
  Tensor *a = input(L, 0), *b = input(L, 1), *out = output(L, 0);
  if (a->dtype != DT_UINT8 || b->dtype != DT_UINT8 || out->dtype != DT_UINT8)
    unsupported_types(L);
  ta_bcast bc = broadcast_of(L, a, b, out);
  /* TFLite's uint8 ADD: the int8 rescaling (left shift 20, double
   * arithmetic), clamped to the uint8 activation range. */
  ta_add_params p = {0};
  Activation act = L->op->opt.activation;
  if (!add_params(scale_of(L, a), zp_of(a), scale_of(L, b), zp_of(b), scale_of(L, out),
                  zp_of(out), DT_INT8, act, L->rounding, &p) ||
      !activation_range_quantized(act, DT_UINT8, scale_of(L, out), zp_of(out), &p.act_min,
                                  &p.act_max))
    error_at(L->g, L->op->index, "cannot represent the rescaling of these scales");
  L->l->kernel = "ta_add_u8";
  const_struct(L, "params", "ta_add_params", add_init(&p, true, ""), true);
  const_struct(L, "shape", "ta_bcast", bcast_init(&bc), true);
  arg_tensor(L, a->index);
  arg_tensor(L, b->index);
  arg_tensor(L, out->index);
}

/* ------------------------------------------------------------ SOFTMAX */

/* uint8 SOFTMAX (both modes: TFLM has none), and int8 to int8 or int16
 * with --rounding single (lower_softmax() checked their output
 * quantization): TFLite's builtin kernel computes all three with
 * optimized_ops::Softmax and PopulateSoftmaxLookupTable's float table
 * (TFLM's int8 kernel is gemmlowp fixed point: with the oracle, 2 of 100
 * random int8 cases and 11 of 30 int8 -> int16 ones differ by 1 in some
 * element; the table matched all). */
void lower_softmax_legacy(Lower *L) {
  Tensor *in = input(L, 0), *out = output(L, 0);
  if (in->dtype == DT_INT8 && (out->dtype == DT_INT8 || out->dtype == DT_INT16)) {
    L->l->kernel = out->dtype == DT_INT8 ? "ta_softmax_table_s8" : "ta_softmax_table_s8_s16";
  } else if (in->dtype == DT_UINT8 && out->dtype == DT_UINT8) {
    L->l->kernel = "ta_softmax_u8";
    if (scale_of(L, out) != 1.0f / 256 || zp_of(out) != 0)
      error_at(L->g, L->op->index,
               "a uint8 SOFTMAX output must have scale 1/256 and zero point 0");
  } else {
    unsupported_types(L);
  }
  int32_t depth = in->dims[in->ndims - 1];
  if (depth < 1)
    error_at(L->g, L->op->index, "the last dimension is empty");
  /* PopulateSoftmaxLookupTable: table[255 - v] = expf(-scale * beta * v),
   * the product in float. */
  float table[256];
  const float scale = -scale_of(L, in) * L->op->opt.beta;
  for (int32_t v = 0; v <= 255; v++)
    table[255 - v] = expf(scale * (float)v);
  const_array(L, "table", DT_FLOAT32, table, 256, false);
  const_struct(L, "params", "ta_softmax_u8_params",
               arena_printf("{.outer = %d, .depth = %d, .output_scale = %s, .table = @table,\n"
                            "    .output_zero_point = %d}",
                            (int)(elems32(in) / depth), (int)depth, flit(scale_of(L, out)),
                            (int)zp_of(out)),
               true);
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
}
