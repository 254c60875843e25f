/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_strided_slice_x32 - any 32-bit element type; data movement only.
 *
 * STRIDED_SLICE and SLICE (reference_ops::StridedSlice): the output is
 * written in order, read from w->offset with the walk's (possibly
 * negative) steps.
 */
#include "ta_kernels.h"
#include "walk.h"

ta_status ta_strided_slice_x32(const ta_walk *w, const void *in, void *out) {
  if (!ta_walk_ok(w))
    return TA_ERR_ARG;
  ta_walk_copy(w, in, out, 4);
  return TA_OK;
}
