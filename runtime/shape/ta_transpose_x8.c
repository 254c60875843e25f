/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_transpose_x8 - any 8-bit element type; data movement only.
 *
 * TRANSPOSE (reference_ops::Transpose): the output is written in order,
 * each element read through the walk of the permuted input strides.
 */
#include "ta_kernels.h"
#include "walk.h"

ta_status ta_transpose_x8(const ta_walk *w, const void *in, void *out) {
  if (!ta_walk_ok(w))
    return TA_ERR_ARG;
  ta_walk_copy(w, in, out, 1);
  return TA_OK;
}
