/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_detection_postprocess_u8 - TFLite_Detection_PostProcess on uint8
 * box encodings, class predictions and anchors: each dequantized with
 * its own scale and zero point into the scratch,
 *   x = (float)(q - zero_point) * scale   (one rounding, TFLite's
 *   Dequantizer and optimized_ops::Dequantize alike),
 * then ta_detection_postprocess_f32 on the floats (box_size 4: TFLite
 * dequantizes only a box's first four values).
 */
#include "ta_fpstrict.h"
#include "ta_kernels.h"

static ta_detection_params float_params(const ta_detection_params *p) {
  ta_detection_params f = *p;
  f.box_size = 4;
  return f;
}

/* The float boxes, anchors and scores, then the float kernel's scratch. */
static size_t dequantized_bytes(const ta_detection_params *p) {
  return (8 * (size_t)p->num_boxes +
          (size_t)p->num_boxes * (size_t)p->num_classes_with_background) * sizeof(float);
}

size_t ta_detection_postprocess_u8_scratch_size(const ta_detection_params *p) {
  ta_detection_params f = float_params(p);
  size_t inner = ta_detection_postprocess_f32_scratch_size(&f);
  return inner ? dequantized_bytes(p) + inner : 0;
}

TA_FP_STRICT
static float dequantize(uint8_t q, int32_t zero_point, float scale) {
  return (float)((int32_t)q - zero_point) * scale;
}

ta_status ta_detection_postprocess_u8(const ta_detection_params *p, const uint8_t *boxes,
                                      const uint8_t *scores, const uint8_t *anchors,
                                      float *out_boxes, float *out_classes,
                                      float *out_scores, float *out_count, void *scratch) {
  ta_detection_params f = float_params(p);
  if (!scratch || p->box_size < 4 || !ta_detection_postprocess_f32_scratch_size(&f))
    return TA_ERR_ARG;
  float *fboxes = (float *)scratch;
  float *fanchors = fboxes + 4 * (size_t)p->num_boxes;
  float *fscores = fanchors + 4 * (size_t)p->num_boxes;
  for (int32_t i = 0; i < p->num_boxes; i++)
    for (int32_t k = 0; k < 4; k++) {
      fboxes[4 * i + k] = dequantize(boxes[(size_t)i * (size_t)p->box_size + (size_t)k],
                                     p->boxes_zero_point, p->boxes_scale);
      fanchors[4 * i + k] = dequantize(anchors[4 * i + k], p->anchors_zero_point,
                                       p->anchors_scale);
    }
  size_t nscores = (size_t)p->num_boxes * (size_t)p->num_classes_with_background;
  for (size_t i = 0; i < nscores; i++)
    fscores[i] = dequantize(scores[i], p->scores_zero_point, p->scores_scale);
  return ta_detection_postprocess_f32(&f, fboxes, fscores, fanchors, out_boxes, out_classes,
                                      out_scores, out_count,
                                      (uint8_t *)scratch + dequantized_bytes(p));
}
