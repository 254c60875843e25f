/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Tests of the data-movement kernels' refusals and bounds (the
 * differential suite checks their values against TFLite): GATHER,
 * GATHER_ND and EMBEDDING_LOOKUP (also its hybrid form) with an index
 * outside the table must return TA_ERR_ARG, as TFLite Micro's kernels
 * fail there, and never write past their output; in range they copy the rows asked for.  Every
 * output sits between canary bytes.  Also BATCH_TO_SPACE_ND crops beyond
 * the input and SPACE_TO_BATCH_ND's zero-point padding of 16-bit
 * elements, hand-computed.  RESIZE_TAPS sums its taps (width first) and
 * refuses a tap outside the input.
 */
#include "test.h"
#include "ta_kernels.h"

#include <stdbool.h>
#include <string.h>

#define CANARY 0xA5

static bool canaries_hold(const unsigned char *buf, size_t before, size_t n, size_t after) {
  for (size_t k = 0; k < before; k++)
    if (buf[k] != CANARY)
      return false;
  for (size_t k = 0; k < after; k++)
    if (buf[before + n + k] != CANARY)
      return false;
  return true;
}

static void test_gather(void) {
  /* in: 4 rows of 3 int16; out: 3 picked rows. */
  int16_t in[12];
  for (int i = 0; i < 12; i++)
    in[i] = (int16_t)(100 + i);
  ta_gather_params p = {.batch = 1, .outer = 1, .axis_size = 4, .coords = 3,
                        .inner_bytes = 6, .index_bits = 32};
  unsigned char buf[16 + 18 + 16];
  memset(buf, CANARY, sizeof buf);
  int32_t idx[3] = {3, 0, 2};
  ta_status st = ta_gather_x8(&p, in, idx, buf + 16);
  int16_t got[9];
  memcpy(got, buf + 16, sizeof got);
  const int16_t want[9] = {109, 110, 111, 100, 101, 102, 106, 107, 108};
  int bad = -1;
  for (int i = 0; i < 9 && bad < 0; i++)
    if (got[i] != want[i])
      bad = i;
  CHECK(st == TA_OK && bad < 0 && canaries_hold(buf, 16, 18, 16),
        "GATHER copies the indexed rows and nothing else (first mismatch %d: expected %d, "
        "actual %d)", bad, bad >= 0 ? want[bad] : 0, bad >= 0 ? got[bad] : 0);
  int64_t idx64[3] = {1, 4, 0};
  memset(buf, CANARY, sizeof buf);
  p.index_bits = 64;
  st = ta_gather_x8(&p, in, idx64, buf + 16);
  CHECK(st == TA_ERR_ARG && canaries_hold(buf, 16, 18, 16),
        "GATHER with an int64 index past the table returns TA_ERR_ARG and stays inside its "
        "output");
  int32_t neg[3] = {0, -1, 1};
  p.index_bits = 32;
  CHECK(ta_gather_x8(&p, in, neg, buf + 16) == TA_ERR_ARG,
        "GATHER (and EMBEDDING_LOOKUP, the same kernel) refuses a negative index");
}

static void test_gather_nd(void) {
  /* params [2][3] int8, indices [2][2]: elements (1, 2) and (0, 1). */
  const int8_t in[6] = {1, 2, 3, 4, 5, 6};
  ta_gather_nd_params p = {.nslices = 2, .depth = 2, .slice_bytes = 1, .index_bits = 32,
                           .dims = {2, 3}, .stride = {3, 1}};
  unsigned char buf[8 + 2 + 8];
  memset(buf, CANARY, sizeof buf);
  int32_t idx[4] = {1, 2, 0, 1};
  ta_status st = ta_gather_nd_x8(&p, in, idx, buf + 8);
  CHECK(st == TA_OK && (int8_t)buf[8] == 6 && (int8_t)buf[9] == 2 &&
            canaries_hold(buf, 8, 2, 8),
        "GATHER_ND picks elements (1, 2) and (0, 1): 6 and 2 (got %d, %d)", (int8_t)buf[8],
        (int8_t)buf[9]);
  int32_t out_of_range[4] = {0, 3, 0, 0};
  CHECK(ta_gather_nd_x8(&p, in, out_of_range, buf + 8) == TA_ERR_ARG,
        "GATHER_ND with an index past its dimension returns TA_ERR_ARG");
}

static void test_space_batch(void) {
  /* SPACE_TO_BATCH_ND of int16 [1][1][3][1], block 1 x 2, padding 1
   * left: two batches of [1][2][1]: (pad, x1) and (x0, x2). */
  const int16_t in[3] = {10, 20, 30};
  ta_space_batch_params p = {.batch = 1, .in_h = 1, .in_w = 3, .out_h = 1, .out_w = 2,
                             .block_h = 1, .block_w = 2, .pad_top = 0, .pad_left = 1,
                             .row_bytes = 2, .elem_bytes = 2, .pad_value = 0xFFF6u};
  int16_t out[4];
  ta_status st = ta_space_to_batch_x8(&p, in, out);
  CHECK(st == TA_OK && out[0] == -10 && out[1] == 20 && out[2] == 10 && out[3] == 30,
        "SPACE_TO_BATCH_ND pads 16-bit elements with the zero point (-10): got %d %d %d %d",
        out[0], out[1], out[2], out[3]);
  ta_space_batch_params q = {.batch = 1, .in_h = 1, .in_w = 2, .out_h = 1, .out_w = 4,
                             .block_h = 1, .block_w = 2, .pad_left = 1, .row_bytes = 2,
                             .elem_bytes = 2};
  CHECK(ta_batch_to_space_x8(&q, out, out) == TA_ERR_ARG,
        "BATCH_TO_SPACE_ND refuses an output wider than the blocks minus the crop");
}

static void test_lookup_hybrid(void) {
  /* value: 3 rows of 2 int8, scale 0.25; ids {2, 0}: hand-computed. */
  const int8_t v[6] = {1, -2, 3, 100, 27, -128};
  ta_embedding_hybrid_params p = {.rows = 3, .cols = 2, .nids = 2, .scale = 0.25f};
  unsigned char buf[16 + 16 + 16];
  memset(buf, CANARY, sizeof buf);
  int32_t ids[2] = {2, 0};
  ta_status st = ta_embedding_lookup_s8_f32(&p, v, ids, (float *)(void *)(buf + 16));
  float got[4];
  memcpy(got, buf + 16, sizeof got);
  CHECK(st == TA_OK && got[0] == 6.75f && got[1] == -32.0f && got[2] == 0.25f &&
            got[3] == -0.5f && canaries_hold(buf, 16, 16, 16),
        "hybrid EMBEDDING_LOOKUP dequantizes rows 2 and 0: 6.75 -32 0.25 -0.5 (got %g %g %g "
        "%g)", (double)got[0], (double)got[1], (double)got[2], (double)got[3]);
  int32_t bad[2] = {1, 3};
  memset(buf, CANARY, sizeof buf);
  st = ta_embedding_lookup_s8_f32(&p, v, bad, (float *)(void *)(buf + 16));
  CHECK(st == TA_ERR_ARG && canaries_hold(buf, 16, 16, 16),
        "hybrid EMBEDDING_LOOKUP with an id past the table returns TA_ERR_ARG and stays "
        "inside its output");
  int32_t neg[2] = {-1, 0};
  CHECK(ta_embedding_lookup_s8_f32(&p, v, neg, (float *)(void *)(buf + 16)) == TA_ERR_ARG,
        "hybrid EMBEDDING_LOOKUP refuses a negative id");
}

/* A 1x2x3x1 image to 1x1x2x1: row 0.25 * r0 + 0.75 * r1, columns
 * {0, 2} with {0.5, 0.5} and {1} with {1, 0}. */
static void test_resize_taps(void) {
  const float in[6] = {1, 2, 4, 8, 16, 32};
  const int32_t yi[2] = {0, 1}, xi[4] = {0, 2, 1, 1};
  const float yw[2] = {0.25f, 0.75f}, xw[4] = {0.5f, 0.5f, 1.0f, 0.0f};
  ta_resize_taps_params p = {1, 2, 3, 1, 1, 2, 2, 2, 0.0f};
  float out[2 + 2];
  memset(out, CANARY, sizeof out);
  ta_status st = ta_resize_taps_f32(&p, in, yi, yw, xi, xw, out + 1);
  /* (0.25 * (1 + 4) / 2 + 0.75 * (8 + 32) / 2 = 15.625; 0.25 * 2 + 0.75 * 16 = 12.5 */
  CHECK(st == TA_OK && out[1] == 15.625f && out[2] == 12.5f &&
            canaries_hold((const unsigned char *)out, 4, 8, 4),
        "RESIZE_TAPS weighs rows and columns as its tables say (got %g, %g)", (double)out[1],
        (double)out[2]);
  const int32_t bad[4] = {0, 3, 1, 1};
  CHECK(ta_resize_taps_f32(&p, in, yi, yw, bad, xw, out + 1) == TA_ERR_ARG,
        "RESIZE_TAPS refuses a column tap outside the input");
  /* Column 1 outside a crop (indices -1): the extrapolation value. */
  const int32_t crop[4] = {0, 2, -1, -1};
  p.extrapolation = 10.0f;
  memset(out, CANARY, sizeof out);
  st = ta_resize_taps_f32(&p, in, yi, yw, crop, xw, out + 1);
  CHECK(st == TA_OK && out[1] == 15.625f && out[2] == 10.0f &&
            canaries_hold((const unsigned char *)out, 4, 8, 4),
        "RESIZE_TAPS gives the extrapolation value 10 outside the crop (got %g, %g)",
        (double)out[1], (double)out[2]);
  const int32_t half[4] = {0, 2, -1, 1};
  CHECK(ta_resize_taps_f32(&p, in, yi, yw, half, xw, out + 1) == TA_ERR_ARG,
        "RESIZE_TAPS refuses a table row that is only partly outside the crop");
}

int main(void) {
  test_gather();
  test_gather_nd();
  test_lookup_hybrid();
  test_space_batch();
  test_resize_taps();
  return test_exit();
}
