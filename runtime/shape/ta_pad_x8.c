/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_pad_x8 - PAD and PADV2 for any 8-bit element type
 * (reference_ops::PadImpl): the input surrounded by p->value.
 */
#include "ta_kernels.h"
#include "pad.h"

ta_status ta_pad_x8(const ta_pad_params *p, const void *in, void *out) {
  if (!ta_pad_ok(p))
    return TA_ERR_ARG;
  ta_pad_run(p, in, out, 1);
  return TA_OK;
}
