/* SPDX-License-Identifier: Apache-2.0 */
/*
 * ta_kernels_detection.h - TFLite_Detection_PostProcess, the custom op
 * that ends SSD detectors (TFLite's kernels/detection_postprocess.cc;
 * included by ta_kernels.h, lowered by compiler/passes/lower_detection.c).
 *
 * Inputs: box encodings [1][num_boxes][box_size] (box_size >= 4: y, x,
 * h, w, then values the op ignores), class predictions
 * [1][num_boxes][num_classes_with_background] (the first column is the
 * background when there is one more column than num_classes), anchors
 * [num_boxes][4] (ycenter, xcenter, h, w).  Outputs, all float:
 * boxes [max_detections * max_classes_per_detection][4] (ymin, xmin,
 * ymax, xmax), classes and scores [max_detections *
 * max_classes_per_detection], num_detections [1].
 *
 * Steps, as TFLite computes them:
 *  1. Decode every box against its anchor, in double, each result
 *     rounded to float (DecodeCenterSizeBoxes):
 *       yc = y / y_scale * ah + ay         xc = x / x_scale * aw + ax
 *       hh = 0.5 * exp(h / h_scale) * ah   hw = 0.5 * exp(w / w_scale) * aw
 *       box = {yc - hh, xc - hw, yc + hh, xc + hw}   (float)
 *     Any decoded box with ymin > ymax or xmin > xmax: TA_ERR_ARG
 *     (TFLite's ValidateBoxes fails the invocation).
 *  2. Single-class NMS over one score per box: keep the scores >=
 *     score_threshold, order them by decreasing score with a stable sort
 *     (ties: lower box first), then walk that order, selecting a box and
 *     dropping every later one whose IoU with it is > iou_threshold, until
 *     the limit.  IoU in float; 0 when either area is <= 0.
 *  3a. Fast NMS (use_regular_nms 0): per box, the top
 *     k = min(max_classes_per_detection, num_classes) classes
 *     (DecreasingPartialArgSort: k == 1 is the first maximum, otherwise
 *     std::partial_sort of libc++, reproduced step for step, since it
 *     decides the order of equal scores); NMS on each box's best score
 *     with limit max_detections; selected box i fills slots
 *     i * max_classes_per_detection + c, c < k; num_detections = the
 *     number of selected boxes.
 *  3b. Regular NMS: per class, NMS with limit detections_per_class; the
 *     selections (by decreasing score) are merged into the best ones so
 *     far, on equal scores the later class first, and the list is cut to
 *     max_detections; slots 0 .. max_detections - 1 get them in order,
 *     num_detections their count.
 *  Slots TFLite leaves unwritten (fast NMS beyond its detections;
 *  regular NMS beyond max_detections) are written 0, as regular NMS
 *  pads its own.
 *
 * ta_detection_postprocess_u8 dequantizes boxes, anchors and class
 * predictions first, each with its own scale and zero point:
 * (float)(q - zero_point) * scale, rounded once (TFLite's Dequantizer
 * and optimized_ops::Dequantize give the same float), then runs the
 * float kernel.
 *
 * scratch: <kernel>_scratch_size(p) bytes, 4-byte aligned.
 */
#ifndef TA_KERNELS_DETECTION_H
#define TA_KERNELS_DETECTION_H

typedef struct {
  int32_t num_boxes, box_size;
  int32_t num_classes, num_classes_with_background;
  int32_t max_detections, max_classes_per_detection, detections_per_class;
  int32_t use_regular_nms;
  float score_threshold, iou_threshold;
  float y_scale, x_scale, h_scale, w_scale;
  /* ta_detection_postprocess_u8 only */
  float boxes_scale, scores_scale, anchors_scale;
  int32_t boxes_zero_point, scores_zero_point, anchors_zero_point;
} ta_detection_params;

size_t ta_detection_postprocess_f32_scratch_size(const ta_detection_params *p);
ta_status ta_detection_postprocess_f32(const ta_detection_params *p, const float *boxes,
                                       const float *scores, const float *anchors,
                                       float *out_boxes, float *out_classes,
                                       float *out_scores, float *out_count, void *scratch);
size_t ta_detection_postprocess_u8_scratch_size(const ta_detection_params *p);
ta_status ta_detection_postprocess_u8(const ta_detection_params *p, const uint8_t *boxes,
                                      const uint8_t *scores, const uint8_t *anchors,
                                      float *out_boxes, float *out_classes,
                                      float *out_scores, float *out_count, void *scratch);

#endif
