/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lower_data.c - lowerings of the reductions and data-movement ops of
 * TensorFlow Lite Micro's wider set: SUM, REDUCE_MAX, REDUCE_MIN, GATHER,
 * GATHER_ND, EMBEDDING_LOOKUP, TILE, BROADCAST_TO, REVERSE_V2,
 * DEPTH_TO_SPACE, SPACE_TO_DEPTH (one function per op kind, listed in
 * lower.c's table).  Same contract as lower.c: pick the kernel, compute
 * on the host everything that does not depend on the input, report what
 * no kernel handles with error_at().
 *
 * Ops that only move elements by a pattern the shapes fix (TILE,
 * BROADCAST_TO, REVERSE_V2, DEPTH_TO_SPACE, SPACE_TO_DEPTH) become one
 * walk over the input in output order - the kernel TRANSPOSE uses
 * (ta_transpose_x8/x16/x32): each output element is the input element at
 * a fixed offset, and a walk with a stride of 0 repeats, a negative
 * stride reverses, a permuted stride rearranges.  Reductions reuse the
 * walks of MEAN (reduce_walks()).
 */
#include "lower.h"

#include <inttypes.h>
#include <string.h>

/* ------------------------------------------------------------ reductions */

/* SUM, REDUCE_MAX, REDUCE_MIN: input, constant axes, output of the same
 * dtype; the walks of MEAN. */
static ta_mean_params reduction(Lower *L, Tensor **in, Tensor **out) {
  need_arity(L, 2, 1);
  *in = input(L, 0);
  *out = output(L, 0);
  if ((*in)->dtype != (*out)->dtype)
    unsupported_types(L);
  return reduce_walks(L, *in, input(L, 1), *out);
}

/*
 * SUM as TFLite's builtin kernel (the oracle's build) computes it, which
 * is not TFLite Micro's arithmetic:
 *  - int8 with input and output quantization differing: QuantizedMeanOrSum
 *    in float (ta_sum_float_s8), scale = input_scale / output_scale and
 *    bias = -input_zero_point * scale * count as float products, the
 *    result not clamped;
 *  - int8 or int16 with one quantization: EvalGeneric, the raw values
 *    summed in the type (ta_sum_raw_*);
 *  - int16 with two quantizations: TFLite refuses it (reduce.cc checks
 *    the scales), and so does tinyaot under --rounding single.
 */
static void sum_tflite(Lower *L, const Tensor *in, const Tensor *out, ta_mean_params *p) {
  if (same_quant(in, out)) {
    L->l->kernel = in->dtype == DT_INT8 ? "ta_sum_raw_s8" : "ta_sum_raw_s16";
    return;
  }
  if (in->dtype != DT_INT8)
    error_at(L->g, L->op->index,
             "TFLite's int16 SUM needs equal input and output quantization "
             "(--rounding single); TFLite Micro's arithmetic (the default) has no such limit");
  if (p->count > INT32_MAX / 256)
    error_at(L->g, L->op->index,
             "sums %d values per output: the int32 sum may overflow", (int)p->count);
  volatile float scale = scale_of(L, in) / scale_of(L, out);
  volatile float zs = (float)-zp_of(in) * scale;
  volatile float bias = zs * (float)p->count;
  p->scale = scale;
  p->bias = bias;
  p->output_zero_point = zp_of(out);
  L->l->kernel = "ta_sum_float_s8";
}

/*
 * SUM.  float32: ta_sum_f32 (ReduceGeneric, in order from 0.0f).  int8
 * and int16: TFLite Micro's EvalSumHelper, QuantizedMeanOrSum with
 * compute_sum true - ta_mean_s8/s16 with the multiplier of
 * QuantizeMultiplier(input_scale / output_scale), 1/count not folded in:
 *   out = clamp(MBQM(sum - input_zero_point * count, mult, shift) + output_zp)
 * TFLite's builtin kernel differs (sum_tflite(), --rounding single).
 */
void lower_sum(Lower *L) {
  Tensor *in, *out;
  ta_mean_params p = reduction(L, &in, &out);
  if (in->dtype == DT_FLOAT32) {
    L->l->kernel = "ta_sum_f32";
  } else if ((in->dtype == DT_INT8 || in->dtype == DT_INT16) && tflite_arithmetic(L)) {
    sum_tflite(L, in, out, &p);
  } else if (in->dtype == DT_INT8 || in->dtype == DT_INT16) {
    /* |input - zero point| < 256 (int8) or 65536 (int16): the int32 sum
     * cannot overflow below these counts. */
    if (p.count > INT32_MAX / (in->dtype == DT_INT16 ? 65536 : 256))
      error_at(L->g, L->op->index,
               "sums %d values per output: the int32 sum may overflow", (int)p.count);
    L->l->kernel = in->dtype == DT_INT8 ? "ta_mean_s8" : "ta_mean_s16";
    p.rounding = L->rounding;
    p.input_zero_point = zp_of(in);
    p.output_zero_point = zp_of(out);
    if (!quantize_multiplier((double)scale_of(L, in) / (double)scale_of(L, out),
                             L->rounding, &p.multiplier, &p.shift))
      error_at(L->g, L->op->index, "cannot represent the rescaling");
  } else {
    unsupported_types(L);
  }
  const_struct(L, "params", "ta_mean_params", mean_init(&p), true);
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
}

/* REDUCE_MAX, REDUCE_MIN (name "max" or "min"): float32, and int8 (TFLite
 * Micro) and int16 (TFLite) with the input's quantization on the output,
 * which TFLM's EvalMaxHelper/EvalMinHelper require. */
static void lower_reduce_extreme(Lower *L, const char *name) {
  Tensor *in, *out;
  ta_mean_params p = reduction(L, &in, &out);
  if (in->dtype != DT_FLOAT32 && in->dtype != DT_INT8 && in->dtype != DT_INT16)
    unsupported_types(L);
  if (is_quantized_type(in->dtype) && !same_quant(in, out))
    error_at(L->g, L->op->index,
             "input and output quantization differ (TFLite Micro requires them equal)");
  L->l->kernel = arena_printf("ta_reduce_%s_%s", name, short_type(in->dtype));
  const_struct(L, "params", "ta_mean_params", mean_init(&p), true);
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
}

void lower_reduce_max(Lower *L) { lower_reduce_extreme(L, "max"); }
void lower_reduce_min(Lower *L) { lower_reduce_extreme(L, "min"); }
