/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_add_s8 - int8 ADD with broadcasting.
 *
 * Matches tflite::reference_integer_ops::AddFunc, applied element-wise
 * (Add) or over a broadcast (BroadcastAdd6DSlow); the arithmetic is
 * add_s8.h's, one row of the broadcast walk at a time.
 * ta_add_double_s8 runs only the usual case without tables (double
 * rounding, right shifts: ta_add_double_ok()) in 32-bit instructions;
 * the compiler calls it for such an ADD too small for the tables, so
 * that a program links the one path its ADDs take.
 */
#include "add_s8.h"
#include "bcast.h"

ta_status ta_add_s8(const ta_add_params *p, const ta_bcast *shape,
                    const int8_t *in1, const int8_t *in2, int8_t *out) {
  if (!ta_bcast_ok(shape))
    return TA_ERR_ARG;
  const ta_status st = ta_add_s8_check(p);
  if (st != TA_OK)
    return st;
  const int nd = shape->ndims;
  const int32_t n = shape->shape[nd - 1];
  const size_t s1 = (size_t)shape->stride1[nd - 1], s2 = (size_t)shape->stride2[nd - 1];
  const size_t rows = ta_bcast_rows(shape);
  int32_t idx[TA_MAX_DIMS] = {0};
  size_t o1 = 0, o2 = 0;
  if (ta_add_s8_tabled(p)) { /* the usual case: only its constants */
    const ta_add_s8_tab t = ta_add_s8_tab_make(p);
    for (size_t r = 0; r < rows; r++, out += n) {
      ta_add_s8_tab_row(&t, in1 + o1, s1, in2 + o2, s2, out, n);
      ta_bcast_next(shape, idx, &o1, &o2);
    }
    return TA_OK;
  }
  const ta_add_s8_consts c = ta_add_s8_prepare(p);
  for (size_t r = 0; r < rows; r++, out += n) {
    ta_add_s8_row(&c, in1 + o1, s1, in2 + o2, s2, out, n);
    ta_bcast_next(shape, idx, &o1, &o2);
  }
  return TA_OK;
}

int ta_add_double_ok(const ta_add_params *p) { return ta_add_s8_fast_ok(p); }

/* Without tables, the usual arithmetic only (add_s8.h's 32-bit form);
 * TA_ERR_ARG for parameters ta_add_double_ok() refuses. */
ta_status ta_add_double_s8(const ta_add_params *p, const ta_bcast *shape, const int8_t *in1,
                           const int8_t *in2, int8_t *out) {
  if (!ta_bcast_ok(shape) || !ta_add_s8_fast_ok(p))
    return TA_ERR_ARG;
  const ta_add_s8_fast f = ta_add_s8_fast_make(p);
#define ROW(x1, s1, x2, s2, o, n) ta_add_s8_fast_row(&f, x1, s1, x2, s2, o, n, 0)
  TA_BCAST_ROWS(shape, in1, in2, out, ROW);
#undef ROW
  return TA_OK;
}
