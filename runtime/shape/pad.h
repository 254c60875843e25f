/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pad.h - the PAD walk (private to runtime/shape/).
 *
 * Dimension by dimension, outermost first: `before` blocks of padding,
 * then each input slice (recursively), then `after` blocks; a block of
 * dimension d is the padded size of everything inside it.  Padding
 * elements hold the raw value p->value, truncated to the element size.
 * The output is written once, in address order, and the input read in
 * order: the compiler may place the output over the input's consumed
 * part (compiler/passes/lower_ops.c, lower_pad).
 */
#ifndef TA_PAD_H
#define TA_PAD_H

#include <string.h>

#include "ta_kernels.h"

static inline int ta_pad_ok(const ta_pad_params *p) {
  if (p->ndims < 1 || p->ndims > TA_MAX_WALK)
    return 0;
  for (int d = 0; d < p->ndims; d++)
    if (p->in_shape[d] < 0 || p->before[d] < 0 || p->after[d] < 0)
      return 0;
  return 1;
}

static inline void ta_pad_fill(unsigned char *dst, size_t count, const unsigned char *v,
                               size_t size) {
  if (size == 1) {
    memset(dst, v[0], count);
    return;
  }
  for (size_t i = 0; i < count; i++, dst += size)
    memcpy(dst, v, size);
}

/* Pads dimension d and those inside it, advancing *src and *dst. */
static void ta_pad_dim(const ta_pad_params *p, int d, const unsigned char **src,
                       unsigned char **dst, const unsigned char *v, size_t size) {
  size_t inner = 1; /* padded elements in one block of dimension d */
  for (int k = d + 1; k < p->ndims; k++)
    inner *= (size_t)(p->before[k] + p->in_shape[k] + p->after[k]);
  ta_pad_fill(*dst, (size_t)p->before[d] * inner, v, size);
  *dst += (size_t)p->before[d] * inner * size;
  if (d == p->ndims - 1) {
    size_t n = (size_t)p->in_shape[d] * size;
    memmove(*dst, *src, n); /* the output may overlap the input (the
                               memory plan's overlaps): as memcpy otherwise */
    *dst += n;
    *src += n;
  } else {
    for (int32_t i = 0; i < p->in_shape[d]; i++)
      ta_pad_dim(p, d + 1, src, dst, v, size);
  }
  ta_pad_fill(*dst, (size_t)p->after[d] * inner, v, size);
  *dst += (size_t)p->after[d] * inner * size;
}

static inline void ta_pad_run(const ta_pad_params *p, const void *in, void *out,
                              size_t size) {
  /* One element holding the value, in the machine's byte order. */
  unsigned char v[4];
  const uint8_t v8 = (uint8_t)p->value;
  const uint16_t v16 = (uint16_t)p->value;
  const uint32_t v32 = p->value;
  memcpy(v, size == 1 ? (const void *)&v8 : size == 2 ? (const void *)&v16 : (const void *)&v32,
         size);
  /* An unpadded innermost dimension joins the one outside it (a row of
   * NHWC pixels with the channels unpadded is one run), so each run is
   * one copy, not one per pixel. */
  ta_pad_params q = *p;
  while (q.ndims >= 2 && q.before[q.ndims - 1] == 0 && q.after[q.ndims - 1] == 0) {
    const int32_t n = q.in_shape[q.ndims - 1], d = q.ndims - 2;
    q.in_shape[d] *= n;
    q.before[d] *= n;
    q.after[d] *= n;
    q.ndims--;
  }
  const unsigned char *src = (const unsigned char *)in;
  unsigned char *dst = (unsigned char *)out;
  ta_pad_dim(&q, 0, &src, &dst, v, size);
}

#endif
