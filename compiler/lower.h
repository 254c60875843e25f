/*
 * lower.h - what the lowering files share: the state of one op's
 * lowering (Lower), the helpers that build its Lowered record, and the
 * lowering functions defined outside lower.c.
 *
 * lower.c holds the table (lowerings[]: one function per op kind) and the
 * first ops; lower_rnn.c the stateful ops (LSTM, SVDF); lower_signal.c
 * the custom ops (the signal library, user-supplied kernels).
 *
 * Every helper that checks the model reports bad input with error_at()
 * naming the op; none returns on error.
 */
#ifndef LOWER_H
#define LOWER_H

#include "tinyaot.h"
#include "ta_kernels.h"

typedef struct Lower {
  Graph *g;
  Op *op;
  const LowerOptions *o;
  Lowered *l;
  int argcap, constcap;
} Lower;

typedef void LowerFn(Lower *L);

/* ---------------------------------------------- the record (lower.c) */

void add_arg(Lower *L, ArgKind kind, int index, int64_t value);
void arg_tensor(Lower *L, int t);
void arg_scratch(Lower *L);
int add_const(Lower *L, ConstObj c);
/* A parameter struct with initializer text `init`, passed as &obj when
 * `pass`. */
void const_struct(Lower *L, const char *name, const char *ctype, const char *init,
                  bool pass);
/* An int32 array (copied), passed when `pass`. */
void const_i32(Lower *L, const char *name, const int32_t *v, size_t n, bool pass);

/* ------------------------------------------------- checks (lower.c) */

Tensor *input(Lower *L, int k);          /* error when missing */
Tensor *optional_input(Lower *L, int k); /* NULL when left out */
Tensor *output(Lower *L, int k);
void need_arity(Lower *L, int nin, int nout);
const char *dtypes_str(Lower *L);
TA_NORETURN void unsupported_types(Lower *L);
void need_const(Lower *L, const Tensor *t, const char *role);
float scale_of(Lower *L, const Tensor *t); /* error when not quantized */
int32_t zp_of(const Tensor *t);
ta_dims dims4(Lower *L, const Tensor *t); /* rank <= 4, leading 1s */
int32_t elems32(const Tensor *t);
const char *short_type(DType dt); /* "s8", "u8", "s16", "f32" or NULL */

/* ------------------------------------------- initializers (lower.c) */

const char *flit(float f);   /* a float literal that reads back exactly */
const char *ilit(int64_t v);
const char *dims_init(ta_dims d);
const char *conv_init(const ta_conv_params *p);
const char *fc_init(const ta_fc_params *p);
const char *pool_init(const ta_pool_params *p);
const char *quant_init(int per_channel, int rounding);
const char *i32_list(const int32_t *v, int n);
const char *bcast_init(const ta_bcast *b);

/* Activation range of the output (quantized or float). */
void act_range(Lower *L, const Tensor *out, int32_t *lo, int32_t *hi, float *flo,
               float *fhi);

/* ------------------------------------------------------ lower_rnn.c */

/* The stateful ops: their state tensors are variables (persistent). */
LowerFn lower_lstm, lower_svdf;

/* ---------------------------------------------------- lower_signal.c */

/* CUSTOM: a --custom-op kernel, a signal library op, or refused. */
LowerFn lower_custom;

#endif
