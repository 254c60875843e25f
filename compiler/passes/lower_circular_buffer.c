/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lower_circular_buffer.c - lowering of TFLite Micro's custom op
 * CIRCULAR_BUFFER (kernels/circular_buffer.cc, circular_buffer_common.cc)
 * onto ta_circular_buffer_s8.
 *
 * Needs: the op's options as Op.attrs (the front end decoded the
 * FlexBuffers map).  Checks what TFLM's Prepare checks (one input, int8
 * in and out, input [1][1][W][D] and output [1][S][W][D]) and what its
 * kernel takes for granted (one quantization for both, a batch of 1,
 * which is all its Eval walks).  TFLM accepts int8 only; float32 and
 * everything else are refused.  The second output TFLM's Prepare allows
 * (a bool "valid" flag) is refused: no TFLM kernel writes it.
 *
 * cycles_max: the option's value when it is positive.  When it is 0,
 * negative or absent, TFLM's Prepare picks 1 or 2 from the output's
 * shape and a count of such ops it has prepared (a static counter, set
 * back to 0 whenever it picks 1): 1 when the output has 5, 13 or 25
 * slots, or when it is the fifth such op and its output is [.][.][2][96];
 * else 2.  This computes that count in model order, as TFLM's first
 * interpreter in a process does.
 *
 * Guarantees: the kernel's state (the frames and a count) is
 * Op.state_bytes, persistent and zeroed by <prefix>_reset() - TFLM's
 * state after Prepare; Lowered.pends is set: the kernel returns
 * TA_PENDING on the calls that are not due, the runner returns there,
 * and the schedule keeps every op on its side of this one (schedule.c).
 */
#include <string.h>

#include "lower.h"

static bool is_circular_buffer(const Op *op) {
  return op->kind == OP_CUSTOM && op->custom_name &&
         !strcmp(op->custom_name, "CIRCULAR_BUFFER");
}

/* The option as TFLM reads it: 0 when absent or not a number. */
static int64_t cycles_option(const Op *op) {
  const Attr *a = op_attr(op, "cycles_max");
  return a && a->kind == ATTR_INT ? a->i : 0;
}

/* TFLM's choice without a positive option (see the opening comment). */
static int32_t default_cycles(const Graph *g, const Op *self) {
  int count = 0;
  for (int j = 0; j <= self->index; j++) {
    const Op *op = &g->ops[j];
    if (!is_circular_buffer(op) || cycles_option(op) > 0 || op->noutputs < 1 ||
        op->outputs[0] < 0)
      continue;
    const Tensor *out = &g->tensors[op->outputs[0]];
    if (out->ndims != 4)
      continue; /* refused when that op is lowered */
    count++;
    bool one = out->dims[1] == 5 || out->dims[1] == 13 || out->dims[1] == 25 ||
               (count == 5 && out->dims[2] == 2 && out->dims[3] == 96);
    if (one)
      count = 0;
    if (j == self->index)
      return one ? 1 : 2;
  }
  unreachable();
}

static void check_options(Lower *L) {
  Op *op = L->op;
  if (op->ncustom_options > 0 && op->nattrs == 0)
    error_at(L->g, op->index, "the custom options (%zu bytes) are not a FlexBuffers map "
             "holding cycles_max", op->ncustom_options);
  for (int i = 0; i < op->nattrs; i++) {
    const Attr *a = &op->attrs[i];
    if (strcmp(a->key, "cycles_max"))
      error_at(L->g, op->index, "unknown option '%s' (TFLM reads cycles_max only, as the "
               "first entry of the map)", a->key);
    if (a->kind != ATTR_INT)
      error_at(L->g, op->index, "the option 'cycles_max' is not an integer");
    if (a->i < INT32_MIN || a->i > INT32_MAX)
      error_at(L->g, op->index, "the option 'cycles_max' is %lld; TFLM reads an int32",
               (long long)a->i);
  }
}

void lower_circular_buffer(Lower *L) {
  Op *op = L->op;
  if (op->noutputs == 2)
    error_at(L->g, op->index, "has a second output (the 'valid' flag TFLM's Prepare "
             "allows), which no TFLM kernel writes; only the buffer output is supported");
  need_arity(L, 1, 1);
  if (op->ninputs != 1)
    error_at(L->g, op->index, "has %d inputs, expected 1", op->ninputs);
  check_options(L);
  Tensor *in = input(L, 0), *out = output(L, 0);
  if (in->dtype != DT_INT8 || out->dtype != DT_INT8)
    error_at(L->g, op->index, "%s -> %s is not supported: TFLM's CIRCULAR_BUFFER takes "
             "int8 only", dtype_name(in->dtype), dtype_name(out->dtype));
  if (in->ndims != 4 || out->ndims != 4)
    error_at(L->g, op->index, "the input and output have ranks %d and %d; TFLM's kernel "
             "takes [1][1][W][D] -> [1][slots][W][D]", in->ndims, out->ndims);
  if (in->dims[0] != 1 || out->dims[0] != 1 || in->dims[1] != 1 ||
      in->dims[2] != out->dims[2] || in->dims[3] != out->dims[3] || out->dims[1] < 1)
    error_at(L->g, op->index, "input [%d][%d][%d][%d] and output [%d][%d][%d][%d] do not "
             "fit: TFLM's kernel takes [1][1][W][D] -> [1][slots][W][D]",
             (int)in->dims[0], (int)in->dims[1], (int)in->dims[2], (int)in->dims[3],
             (int)out->dims[0], (int)out->dims[1], (int)out->dims[2], (int)out->dims[3]);
  if (scale_of(L, in) != scale_of(L, out) || zp_of(in) != zp_of(out))
    error_at(L->g, op->index, "input (scale %g, zero point %d) and output (scale %g, zero "
             "point %d) must share one quantization: TFLM copies the bytes",
             (double)scale_of(L, in), (int)zp_of(in), (double)scale_of(L, out),
             (int)zp_of(out));

  ta_circular_buffer_params p = {0};
  p.frame_bytes = elems32(in);
  p.num_slots = out->dims[1];
  int64_t opt = cycles_option(op);
  p.cycles_max = opt > 0 ? (int32_t)opt : default_cycles(L->g, op);
  L->l->kernel = "ta_circular_buffer_s8";
  L->l->pends = true;
  op->state_bytes = ta_circular_buffer_s8_state_size(&p);
  if (!op->state_bytes)
    unreachable();
  const_struct(L, "params", "ta_circular_buffer_params",
               arena_printf("{.frame_bytes = %d, .num_slots = %d, .cycles_max = %d}",
                            (int)p.frame_bytes, (int)p.num_slots, (int)p.cycles_max),
               true);
  arg_tensor(L, in->index);
  arg_tensor(L, out->index);
  add_arg(L, ARG_STATE, -1, 0);
}
