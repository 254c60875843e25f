/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_circular_buffer_s8 - TFLite Micro's CIRCULAR_BUFFER custom op: the
 * last num_slots input frames, shifted by one frame per call, and a
 * stride in calls (cycles_max) between the calls that go on with the
 * rest of the graph; the others return TA_PENDING.  ta_kernels_rnn.h
 * states the arithmetic and the state's layout.
 */
#include "ta_kernels.h"

#define TA_CB_COUNT_BYTES 4

size_t ta_circular_buffer_s8_state_size(const ta_circular_buffer_params *p) {
  if (p->frame_bytes < 0 || p->num_slots < 1)
    return 0;
  return TA_CB_COUNT_BYTES + (size_t)p->frame_bytes * (size_t)p->num_slots;
}

ta_status ta_circular_buffer_s8(const ta_circular_buffer_params *p, const int8_t *in,
                                int8_t *out, void *state) {
  if (!state || p->frame_bytes < 0 || p->num_slots < 1 || p->cycles_max < 1)
    return TA_ERR_ARG;
  uint8_t *count_bytes = (uint8_t *)state;
  int8_t *frames = (int8_t *)state + TA_CB_COUNT_BYTES;
  const size_t frame = (size_t)p->frame_bytes;
  const size_t kept = frame * (size_t)(p->num_slots - 1);
  size_t i;
  /* Forward copy: the destination lies below the source. */
  for (i = 0; i < kept; i++)
    frames[i] = frames[i + frame];
  for (i = 0; i < frame; i++)
    frames[kept + i] = in[i];

  uint32_t count = (uint32_t)count_bytes[0] | (uint32_t)count_bytes[1] << 8 |
                   (uint32_t)count_bytes[2] << 16 | (uint32_t)count_bytes[3] << 24;
  count++;
  if (count < (uint32_t)p->cycles_max) {
    for (i = 0; i < TA_CB_COUNT_BYTES; i++)
      count_bytes[i] = (uint8_t)(count >> (8 * i));
    return TA_PENDING;
  }
  for (i = 0; i < TA_CB_COUNT_BYTES; i++)
    count_bytes[i] = 0;
  for (i = 0; i < kept + frame; i++)
    out[i] = frames[i];
  return TA_OK;
}
