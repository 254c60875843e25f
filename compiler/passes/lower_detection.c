/* SPDX-License-Identifier: Apache-2.0 */
/*
 * lower_detection.c - lowering of the custom op
 * TFLite_Detection_PostProcess (SSD box decoding and non-maximum
 * suppression) onto ta_detection_postprocess_f32 / _u8.
 *
 * Needs: the op's options as Op.attrs (the front end decoded its
 * FlexBuffers map).  Checks what TFLite's Prepare and Eval check, at
 * compile time where TFLite fails at run time (an IoU threshold outside
 * (0, 1], a limit that is not positive), and what its kernel takes for
 * granted (anchors for every box, outputs of the sizes it writes).
 * Types: TFLite's kernel takes float32 or uint8 box encodings (uint8:
 * the anchors uint8 too, each input dequantized with its own scale and
 * zero point) and float32 or uint8 class predictions; int8 is refused as
 * TFLite refuses it (a converter puts DEQUANTIZE in front).  The
 * kernel's scratch is what ta_detection_postprocess_*_scratch_size()
 * asks for.
 */
#include <math.h>
#include <string.h>

#include "lower.h"

/* An integer option; `def` when the key is absent and has_def. */
static int32_t det_int(Lower *L, const char *key, bool has_def, int32_t def, int32_t lo) {
  const Attr *a = op_attr(L->op, key);
  if (!a) {
    if (has_def)
      return def;
    error_at(L->g, L->op->index, "the option '%s' is missing", key);
  }
  if (a->kind != ATTR_INT)
    error_at(L->g, L->op->index, "the option '%s' is not an integer", key);
  if (a->i < lo || a->i > INT32_MAX / 16)
    error_at(L->g, L->op->index, "the option '%s' is %lld; expected %d to %d", key,
             (long long)a->i, (int)lo, (int)(INT32_MAX / 16));
  return (int32_t)a->i;
}

static float det_float(Lower *L, const char *key) {
  const Attr *a = op_attr(L->op, key);
  if (!a)
    error_at(L->g, L->op->index, "the option '%s' is missing", key);
  if (a->kind == ATTR_OTHER || !isfinite(a->f))
    error_at(L->g, L->op->index, "the option '%s' is not a finite number", key);
  return (float)a->f;
}

static void need_f32(Lower *L, const Tensor *t, const char *role) {
  if (t->dtype != DT_FLOAT32)
    error_at(L->g, L->op->index, "the %s (tensor %d) is %s; TFLite writes float32", role,
             t->index, dtype_name(t->dtype));
}

static void need_elems(Lower *L, const Tensor *t, int64_t n, const char *role) {
  if (tensor_elems(t) != n)
    error_at(L->g, L->op->index, "the %s (tensor %d) has %lld values; TFLite writes %lld",
             role, t->index, (long long)tensor_elems(t), (long long)n);
}

void lower_detection_postprocess(Lower *L) {
  Op *op = L->op;
  need_arity(L, 3, 4);
  Tensor *boxes = input(L, 0), *scores = input(L, 1), *anchors = input(L, 2);
  if (boxes->ndims != 3 || scores->ndims != 3 || anchors->ndims != 2)
    error_at(L->g, op->index, "box encodings, class predictions and anchors must have "
             "ranks 3, 3 and 2 (they have %d, %d and %d)", boxes->ndims, scores->ndims,
             anchors->ndims);
  ta_detection_params p = {0};
  p.num_boxes = boxes->dims[1];
  p.box_size = boxes->dims[2];
  p.num_classes_with_background = scores->dims[2];
  if (boxes->dims[0] != 1 || scores->dims[0] != 1)
    error_at(L->g, op->index, "only a batch of 1 is supported (TFLite's kernel has no other)");
  if (p.num_boxes < 1 || p.box_size < 4 || scores->dims[1] != p.num_boxes)
    error_at(L->g, op->index, "box encodings [1][%d][%d] and class predictions "
             "[1][%d][%d] do not fit: one box of at least 4 values and one row of "
             "scores per anchor", (int)p.num_boxes, (int)p.box_size, (int)scores->dims[1],
             (int)p.num_classes_with_background);
  if (anchors->dims[0] != p.num_boxes || anchors->dims[1] != 4)
    error_at(L->g, op->index, "the anchors are [%d][%d]; expected [%d][4]",
             (int)anchors->dims[0], (int)anchors->dims[1], (int)p.num_boxes);

  p.max_detections = det_int(L, "max_detections", false, 0, 1);
  p.max_classes_per_detection = det_int(L, "max_classes_per_detection", false, 0, 1);
  p.use_regular_nms = det_int(L, "use_regular_nms", true, 0, 0) != 0;
  /* detections_per_class: regular NMS only (TFLite ignores it otherwise). */
  p.detections_per_class =
      det_int(L, "detections_per_class", true, 100, p.use_regular_nms ? 1 : -INT32_MAX);
  p.num_classes = det_int(L, "num_classes", false, 0, 1);
  p.score_threshold = det_float(L, "nms_score_threshold");
  p.iou_threshold = det_float(L, "nms_iou_threshold");
  p.y_scale = det_float(L, "y_scale");
  p.x_scale = det_float(L, "x_scale");
  p.h_scale = det_float(L, "h_scale");
  p.w_scale = det_float(L, "w_scale");
  if (!(p.iou_threshold > 0.0f && p.iou_threshold <= 1.0f))
    error_at(L->g, op->index, "nms_iou_threshold is %g; TFLite requires (0, 1]",
             (double)p.iou_threshold);
  int32_t extra = p.num_classes_with_background - p.num_classes;
  if (extra != 0 && extra != 1)
    error_at(L->g, op->index, "num_classes is %d but the class predictions have %d "
             "columns (num_classes, or one more for the background)", (int)p.num_classes,
             (int)p.num_classes_with_background);
  int64_t slots = (int64_t)p.max_detections * p.max_classes_per_detection;
  if (slots > INT32_MAX / 4)
    error_at(L->g, op->index, "max_detections x max_classes_per_detection is too large");

  Tensor *ob = output(L, 0), *oc = output(L, 1), *os = output(L, 2), *on = output(L, 3);
  need_f32(L, ob, "detection boxes output");
  need_f32(L, oc, "detection classes output");
  need_f32(L, os, "detection scores output");
  need_f32(L, on, "num_detections output");
  need_elems(L, ob, slots * 4, "detection boxes output");
  need_elems(L, oc, slots, "detection classes output");
  need_elems(L, os, slots, "detection scores output");
  need_elems(L, on, 1, "num_detections output");

  bool u8 = boxes->dtype == DT_UINT8;
  if (boxes->dtype != DT_FLOAT32 && !u8)
    error_at(L->g, op->index, "box encodings of type %s are not supported: TFLite's kernel "
             "takes float32 or uint8", dtype_name(boxes->dtype));
  if (scores->dtype != boxes->dtype || anchors->dtype != boxes->dtype)
    error_at(L->g, op->index, "box encodings, class predictions and anchors are %s, %s and "
             "%s; supported: all float32 or all uint8", dtype_name(boxes->dtype),
             dtype_name(scores->dtype), dtype_name(anchors->dtype));
  if (u8) {
    p.boxes_scale = scale_of(L, boxes);
    p.boxes_zero_point = zp_of(boxes);
    p.scores_scale = scale_of(L, scores);
    p.scores_zero_point = zp_of(scores);
    p.anchors_scale = scale_of(L, anchors);
    p.anchors_zero_point = zp_of(anchors);
  }

  L->l->kernel = u8 ? "ta_detection_postprocess_u8" : "ta_detection_postprocess_f32";
  op->scratch_bytes = u8 ? ta_detection_postprocess_u8_scratch_size(&p)
                         : ta_detection_postprocess_f32_scratch_size(&p);
  if (!op->scratch_bytes)
    unreachable();
  if (op->scratch_bytes > (size_t)INT32_MAX)
    error_at(L->g, op->index, "needs %zu bytes of scratch (%d boxes); at most %d are "
             "supported", op->scratch_bytes, (int)p.num_boxes, (int)INT32_MAX);
  const char *q = u8 ? arena_printf(",\n    .boxes_scale = %s, .scores_scale = %s, "
                                    ".anchors_scale = %s,\n    .boxes_zero_point = %d, "
                                    ".scores_zero_point = %d, .anchors_zero_point = %d",
                                    flit(p.boxes_scale), flit(p.scores_scale),
                                    flit(p.anchors_scale), (int)p.boxes_zero_point,
                                    (int)p.scores_zero_point, (int)p.anchors_zero_point)
                     : "";
  const_struct(
      L, "params", "ta_detection_params",
      arena_printf("{.num_boxes = %d, .box_size = %d, .num_classes = %d,\n"
                   "    .num_classes_with_background = %d, .max_detections = %d,\n"
                   "    .max_classes_per_detection = %d, .detections_per_class = %d,\n"
                   "    .use_regular_nms = %d, .score_threshold = %s, .iou_threshold = %s,\n"
                   "    .y_scale = %s, .x_scale = %s, .h_scale = %s, .w_scale = %s%s}",
                   (int)p.num_boxes, (int)p.box_size, (int)p.num_classes,
                   (int)p.num_classes_with_background, (int)p.max_detections,
                   (int)p.max_classes_per_detection, (int)p.detections_per_class,
                   (int)p.use_regular_nms, flit(p.score_threshold), flit(p.iou_threshold),
                   flit(p.y_scale), flit(p.x_scale), flit(p.h_scale), flit(p.w_scale), q),
      true);
  arg_tensor(L, boxes->index);
  arg_tensor(L, scores->index);
  arg_tensor(L, anchors->index);
  arg_tensor(L, ob->index);
  arg_tensor(L, oc->index);
  arg_tensor(L, os->index);
  arg_tensor(L, on->index);
  arg_scratch(L);
}
