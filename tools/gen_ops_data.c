/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_ops_data.c - the generators of the data-movement and reduction
 * rows of tools/gen_ops.c (SUM, REDUCE_MAX, REDUCE_MIN, GATHER, ...).
 * Not compiled alone: gen_ops.c includes it before its table, so these
 * generators use its helpers (Case, the random draws, input_q, output_q,
 * const_vec ...) and DATA_ROWS adds their rows to the table.  Each row
 * names the dtypes TensorFlow Lite Micro's kernel accepts for the op
 * (and TFLite's builtin kernel, which the oracle runs, accepts too).
 */

static void gen_sum(Case *c, int v) { (void)v; gen_reducer(c, TFW_OP_SUM); }
static void gen_reduce_max(Case *c, int v) { (void)v; gen_reducer(c, TFW_OP_REDUCE_MAX); }
static void gen_reduce_min(Case *c, int v) { (void)v; gen_reducer(c, TFW_OP_REDUCE_MIN); }

#define DATA_ROWS                                                          \
  {"SUM", "float32", gen_sum, K_F32, 0}, {"SUM", "int8", gen_sum, K_I8, 0}, \
      {"SUM", "int16", gen_sum, K_I16, 0},                                 \
      {"REDUCE_MAX", "float32", gen_reduce_max, K_F32, 0},                 \
      {"REDUCE_MAX", "int8", gen_reduce_max, K_I8, 0},                     \
      {"REDUCE_MAX", "int16", gen_reduce_max, K_I16, 0},                   \
      {"REDUCE_MIN", "float32", gen_reduce_min, K_F32, 0},                 \
      {"REDUCE_MIN", "int8", gen_reduce_min, K_I8, 0},                     \
      {"REDUCE_MIN", "int16", gen_reduce_min, K_I16, 0},
