/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_add_s8 - int8 ADD with broadcasting.
 *
 * Matches tflite::reference_integer_ops::AddFunc, applied element-wise
 * (Add) or over a broadcast (BroadcastAdd6DSlow); the arithmetic is
 * add_s8.h's, one row of the broadcast walk at a time.
 * ta_add_double_s8 runs only the usual case without tables (double
 * rounding, right shifts: ta_add_double_ok()) in 32-bit instructions,
 * ta_add_table_s8 only the usual case with them (ta_add_table_ok());
 * the compiler calls those for such ADDs, so that a program links only
 * the paths its ADDs take.
 */
#include "add_s8.h"
#include "bcast.h"

/* v saturated to int8 (SSAT on a core with the DSP extension). */
TA_INLINE int32_t sat8(int32_t v) {
#if defined(TA_DSP)
  return ta_ssat(v, 8);
#else
  return v < -128 ? -128 : v > 127 ? 127 : v;
#endif
}

/* The tables' usual case in 32-bit instructions (ta_add_table_s8): the
 * parameters of ta_add_s8_fast_ok() bound each table entry (an input
 * term) by 2^29 in magnitude, so the sum s has -2^31 <= 2s < 2^31,
 * SRDHM(s, m) is SMMULR(2s, m) with |q| <= 2^30, and
 * RoundingDivideByPOT(q, e) + out_off is (q + c32 - [q < 0]) >> e with
 * c32 = 2^(e-1) + out_off 2^e.  Whether p takes it (|c32| < 2^30, so
 * nothing wraps); *c32 then. */
static int tab32_ok(const ta_add_params *p, int32_t *c32) {
  if (ta_add_s8_check(p) != TA_OK || !ta_add_s8_tabled(p) || !ta_add_s8_fast_ok(p))
    return 0;
  const int e = (int)-p->output_shift;
  const int64_t c = ((int64_t)1 << (e - 1)) + (int64_t)p->output_offset * ((int64_t)1 << e);
  *c32 = (int32_t)c;
  return c > -((int64_t)1 << 30) && c < ((int64_t)1 << 30);
}

/* out[i] = in1[i * s1] + in2[i * s2], i < n, in that form; full: the
 * clamp is int8's whole range (no fused activation), one saturation. */
TA_INLINE void tab32_row(const ta_add_s8_tab *c, int32_t c32, const int8_t *x1, size_t s1,
                         const int8_t *x2, size_t s2, int8_t *out, int32_t n, int full) {
  const int32_t *t1 = c->t1, *t2 = c->t2;
  const int32_t m = c->m, e = c->e, lo = c->lo, hi = c->hi;
  for (int8_t *end = out + n; out < end; x1 += s1, x2 += s2) {
    const int32_t sum2 = (int32_t)((uint32_t)(t1[(uint8_t)*x1] + t2[(uint8_t)*x2]) << 1);
    const int32_t q = ta_add_hmul(sum2, m);
    const int32_t v = (int32_t)((uint32_t)q + (uint32_t)c32 - ((uint32_t)q >> 31)) >> e;
    *out++ = (int8_t)(full ? sat8(v) : v < lo ? lo : v > hi ? hi : v);
  }
}

/* A contiguous row, out of line: its loop gets the registers to itself. */
static TA_NOINLINE void tab32_contig(const ta_add_s8_tab *c, int32_t c32, const int8_t *x1,
                                     const int8_t *x2, int8_t *out, int32_t n) {
  if (c->lo == -128 && c->hi == 127)
    tab32_row(c, c32, x1, 1, x2, 1, out, n, 1);
  else
    tab32_row(c, c32, x1, 1, x2, 1, out, n, 0);
}

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

int ta_add_table_ok(const ta_add_params *p) {
  int32_t c32;
  return tab32_ok(p, &c32);
}

/* With the tables, the usual case only (ta_add_table_ok()), in 32-bit
 * instructions; TA_ERR_ARG otherwise. */
ta_status ta_add_table_s8(const ta_add_params *p, const ta_bcast *shape, const int8_t *in1,
                          const int8_t *in2, int8_t *out) {
  int32_t c32;
  if (!ta_bcast_ok(shape) || !tab32_ok(p, &c32))
    return TA_ERR_ARG;
  const ta_add_s8_tab t = ta_add_s8_tab_make(p);
#define ROW(x1, s1, x2, s2, o, n)                                                        \
  do {                                                                                   \
    if ((s1) == 1 && (s2) == 1)                                                          \
      tab32_contig(&t, c32, x1, x2, o, n);                                               \
    else                                                                                 \
      tab32_row(&t, c32, x1, s1, x2, s2, o, n, 0);                                       \
  } while (0)
  TA_BCAST_ROWS(shape, in1, in2, out, ROW);
#undef ROW
  return TA_OK;
}
