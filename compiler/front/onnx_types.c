/* SPDX-License-Identifier: Apache-2.0 */
/*
 * onnx_types.c - ONNX's small number types and the integer widths the
 * quantized kernels do not take as plain integers: which types only a
 * CAST converts (bfloat16, the float8s, float4e2m1, the sub-byte
 * integers) and Cast's attributes for them; int8, uint8 and int16
 * arithmetic, comparison and Clip through int32 (widen_i32).  The wide
 * types only the element-wise kernels take: wide_dtype() in
 * onnx_import.h.
 */
#include "onnx_import.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* ------------------------------------- ONNX's small types (Cast) */

/* bfloat16, the float8s, float4e2m1 and the sub-byte integers: types a
 * CAST converts to and from (runtime/cast/minifloat.h), nothing else. */
bool onnx_small_type(DType dt) {
  return dt == DT_BFLOAT16 || dt == DT_FLOAT8E4M3FN || dt == DT_FLOAT8E4M3FNUZ ||
         dt == DT_FLOAT8E5M2 || dt == DT_FLOAT8E5M2FNUZ || dt == DT_FLOAT8E8M0 ||
         dt == DT_FLOAT4E2M1 || dt == DT_INT4 || dt == DT_UINT4 || dt == DT_INT2 ||
         dt == DT_UINT2;
}

/* Cast's saturate (float8 targets; default 1) and round_mode (float8e8m0
 * targets: "up", the default, "down" or "nearest") onto the CAST op. */
void onnx_cast_attrs(Imp *m, Op *o, DType to) {
  bool float8 = to == DT_FLOAT8E4M3FN || to == DT_FLOAT8E4M3FNUZ || to == DT_FLOAT8E5M2 ||
                to == DT_FLOAT8E5M2FNUZ || to == DT_FLOAT8E8M0;
  int64_t sat = attr_i(m, "saturate", 1);
  if (sat != 0 && sat != 1)
    FAIL("saturate is %lld (0 or 1)", (long long)sat);
  o->opt.cast_no_saturate = float8 && sat == 0;
  const char *rm = attr_s(m, "round_mode", "up");
  if (!strcmp(rm, "up")) o->opt.cast_round_mode = 0;
  else if (!strcmp(rm, "down")) o->opt.cast_round_mode = 1;
  else if (!strcmp(rm, "nearest")) o->opt.cast_round_mode = 2;
  else FAIL("round_mode '%s' is not one of up, down, nearest", rm);
}

/* Cast's target type ("to"), or CastLike's (input 1's type). */
DType cast_target(Imp *m) {
  if (!strcmp(m->n->op_type, "CastLike"))
    return need_in(m, 1)->dt;
  DType dt;
  int64_t to = attr_i(m, "to", 0);
  if (!onnx_dtype((int)to, &dt))
    FAIL("Cast to data type %lld is not supported", (long long)to);
  return dt;
}

/* Add, Sub, Mul, Div of int8, uint8, int16 (whose kernels take quantized
 * values): in int32 and CAST back, which wraps around as ONNX's integer
 * arithmetic does (a - b as a + (-1) b; Div truncates toward zero). */
void small_int_binary(Imp *m, OpKind kind, int ta, int tb, int out) {
  ta = widen_i32(m, ta), tb = widen_i32(m, tb);
  if (kind == OP_SUB) {
    int64_t one[MAX_DIMS], dims[MAX_DIMS];
    for (int d = 0; d < T(m, tb)->ndims; d++)
      one[d] = 1, dims[d] = T(m, tb)->dims[d];
    int32_t minus1 = -1;
    int ng = new_tensor(m, "", DT_INT32, T(m, tb)->ndims, dims);
    int nins[2] = {tb, const_tensor(m, "", DT_INT32, T(m, tb)->ndims, one, &minus1)};
    add_op(m, OP_MUL, nins, 2, &ng, 1);
    tb = ng, kind = OP_ADD;
  }
  int64_t dims[MAX_DIMS];
  for (int d = 0; d < T(m, out)->ndims; d++)
    dims[d] = T(m, out)->dims[d];
  int w = new_tensor(m, "", DT_INT32, T(m, out)->ndims, dims);
  int ins[2] = {ta, tb};
  add_op(m, kind, ins, 2, &w, 1);
  cast_op(m, w, out, DT_INT32, T(m, out)->dtype);
}

/* Clip of int8, uint8, int16, int32: MAXIMUM then MINIMUM with constants
 * of the input's type (min > max gives max, as ONNX's). */
void import_clip_int(Imp *m, Val *x) {
  if (x->dt != DT_INT8 && x->dt != DT_UINT8 && x->dt != DT_INT16 && x->dt != DT_INT32)
    FAIL("'%s' is %s; Clip is imported for float32, int8, uint8, int16 and int32",
         x->name, dtype_name(x->dt));
  Val *bound[2] = {in(m, 1), in(m, 2)};
  int l = pref(x);
  int t = ir(m, x, l);
  int last = bound[1] ? 1 : bound[0] ? 0 : -1;
  if (last < 0) {
    bind(m, m->n->outputs[0], x);
    return;
  }
  for (int k = 0; k < 2; k++) {
    Val *b = bound[k];
    if (!b)
      continue;
    if (!b->data || val_elems(b) != 1 || b->dt != x->dt)
      FAIL("min and max must be constant scalars of the input's type");
    int64_t one[MAX_DIMS], dims[MAX_DIMS];
    for (int d = 0; d < T(m, t)->ndims; d++)
      one[d] = 1, dims[d] = T(m, t)->dims[d];
    int out = new_tensor(m, k == last ? m->n->outputs[0] : "", x->dt, T(m, t)->ndims, dims);
    int ins[2] = {t, const_tensor(m, "", x->dt, T(m, t)->ndims, one, b->data)};
    add_op(m, k == 0 ? OP_MAXIMUM : OP_MINIMUM, ins, 2, &out, 1);
    t = out;
  }
  Val *v = new_val(m, m->n->outputs[0], x->dt, x->ndims, x->dims);
  v->t[l] = t;
  bind(m, m->n->outputs[0], v);
}

/* IR tensor t widened to int32 by a CAST when it is int8, uint8 or int16
 * (whose comparison kernels compare quantized values); others as they
 * are. */
int widen_i32(Imp *m, int t) {
  DType dt = T(m, t)->dtype;
  if (dt != DT_INT8 && dt != DT_UINT8 && dt != DT_INT16)
    return t;
  int64_t dims[MAX_DIMS];
  for (int d = 0; d < T(m, t)->ndims; d++)
    dims[d] = T(m, t)->dims[d];
  int o = new_tensor(m, "", DT_INT32, T(m, t)->ndims, dims);
  cast_op(m, t, o, dt, DT_INT32);
  return o;
}
