/* SPDX-License-Identifier: Apache-2.0 */
/*
 * test_lower_detection.c - the lowering of TFLite_Detection_PostProcess
 * (compiler/passes/lower_detection.c) on models written in memory: the
 * kernel it picks and its parameters and scratch, the defaults of the
 * options TFLite makes optional, the refusals (each naming the op), and
 * a --custom-op for the name replacing the built-in kernel.
 */
#include "test.h"
#include "tinyaot.h"

#include "lower_helpers.h"
#include "ta_kernels.h"

/* One detection op: 8 anchors, 3 class columns; boxes/scores of dtype
 * (uint8: quantized), the options of e[0..ne), outputs of max_det slots. */
static TfwModel *det_model(int dtype, int score_dtype, const TfwFlexEntry *e, int ne,
                           int max_det) {
  TfwModel *m = tfw_new();
  int32_t db[3] = {1, 8, 4}, ds[3] = {1, 8, 3}, da[2] = {8, 4};
  int32_t dob[3] = {1, max_det, 4}, doc[2] = {1, max_det}, don[1] = {1};
  uint8_t anchors[8 * 4 * 4] = {0};
  int in[3], out[4];
  in[0] = tfw_tensor(m, "boxes", dtype, 3, db, 0);
  in[1] = tfw_tensor(m, "scores", score_dtype, 3, ds, 0);
  in[2] = tfw_const(m, "anchors", dtype, 2, da, anchors);
  if (dtype == TFW_UINT8) {
    tfw_quant1(m, in[0], 0.05f, 128);
    tfw_quant1(m, in[2], 0.01f, 0);
  }
  if (score_dtype == TFW_UINT8)
    tfw_quant1(m, in[1], 1.0f / 256, 0);
  out[0] = tfw_tensor(m, "ob", TFW_FLOAT32, 3, dob, 0);
  out[1] = tfw_tensor(m, "oc", TFW_FLOAT32, 2, doc, 0);
  out[2] = tfw_tensor(m, "os", TFW_FLOAT32, 2, doc, 0);
  out[3] = tfw_tensor(m, "on", TFW_FLOAT32, 1, don, 0);
  uint8_t *bytes;
  size_t n = tfw_flex_map(e, ne, &bytes);
  tfw_custom_op(m, "TFLite_Detection_PostProcess", bytes, n, 3, in, 4, out);
  free(bytes);
  tfw_inputs(m, 2, in);
  tfw_outputs(m, 4, out);
  return m;
}

static const TfwFlexEntry base[] = {
    {"max_detections", 'i', 3, 0},     {"max_classes_per_detection", 'i', 1, 0},
    {"nms_score_threshold", 'f', 0, 0.25f}, {"nms_iou_threshold", 'f', 0, 0.5f},
    {"num_classes", 'i', 2, 0},        {"y_scale", 'f', 0, 10.0f},
    {"x_scale", 'f', 0, 10.0f},        {"h_scale", 'f', 0, 5.0f},
    {"w_scale", 'f', 0, 5.0f},         {"use_regular_nms", 'b', 1, 0},
};
#define NBASE ((int)(sizeof base / sizeof *base))

static void expect_refusal(TfwModel *m, const char *text, const char *what) {
  Graph *g = lowered(m, TA_ROUND_DOUBLE);
  CHECK(!g && strstr(error_message, "op 0 (CUSTOM:TFLite_Detection_PostProcess): ") &&
            strstr(error_message, text),
        "%s is refused naming the op and \"%s\" (got: %s)", what, text, error_message);
}

int main(void) {
  Graph *g = lowered(det_model(TFW_FLOAT32, TFW_FLOAT32, base, NBASE, 3), TA_ROUND_DOUBLE);
  const Lowered *l = g ? op_lowered(&g->ops[0]) : NULL;
  const ConstObj *p = g ? find_const(g, 0, "params") : NULL;
  ta_detection_params want;
  memset(&want, 0, sizeof want);
  want.num_boxes = 8;
  want.box_size = 4;
  want.num_classes = 2;
  want.num_classes_with_background = 3;
  want.max_detections = 3;
  want.max_classes_per_detection = 1;
  want.detections_per_class = 100;
  want.use_regular_nms = 1;
  CHECK(l && l->kernel && !strcmp(l->kernel, "ta_detection_postprocess_f32") && p &&
            strstr(p->init, ".detections_per_class = 100") &&
            strstr(p->init, ".use_regular_nms = 1") &&
            strstr(p->init, ".score_threshold = 0.25f") &&
            g->ops[0].scratch_bytes == ta_detection_postprocess_f32_scratch_size(&want),
        "float inputs lower to ta_detection_postprocess_f32 with detections_per_class "
        "defaulting to 100 and the kernel's own scratch size (%zu bytes)",
        g ? g->ops[0].scratch_bytes : (size_t)0);

  g = lowered(det_model(TFW_UINT8, TFW_UINT8, base, NBASE - 1, 3), TA_ROUND_DOUBLE);
  l = g ? op_lowered(&g->ops[0]) : NULL;
  p = g ? find_const(g, 0, "params") : NULL;
  CHECK(l && l->kernel && !strcmp(l->kernel, "ta_detection_postprocess_u8") && p &&
            strstr(p->init, ".use_regular_nms = 0") &&
            strstr(p->init, ".boxes_zero_point = 128") &&
            strstr(p->init, ".scores_zero_point = 0") && strstr(p->init, ".anchors_scale = "),
        "uint8 inputs lower to ta_detection_postprocess_u8 with each input's scale and "
        "zero point, and use_regular_nms defaults to fast NMS");

  TfwFlexEntry e[NBASE];
  memcpy(e, base, sizeof e);
  e[3].f = 1.5f;
  expect_refusal(det_model(TFW_FLOAT32, TFW_FLOAT32, e, NBASE, 3),
                 "nms_iou_threshold is 1.5", "an IoU threshold above 1");
  expect_refusal(det_model(TFW_FLOAT32, TFW_FLOAT32, base + 1, NBASE - 1, 3),
                 "the option 'max_detections' is missing", "a missing max_detections");
  expect_refusal(det_model(TFW_FLOAT32, TFW_FLOAT32, base, NBASE, 4),
                 "has 16 values; TFLite writes 12", "outputs of another size");
  expect_refusal(det_model(TFW_FLOAT32, TFW_UINT8, base, NBASE, 3),
                 "supported: all float32 or all uint8", "float boxes with uint8 scores");
  memcpy(e, base, sizeof e);
  e[0].type = 'f';
  e[0].f = 3.0f;
  expect_refusal(det_model(TFW_FLOAT32, TFW_FLOAT32, e, NBASE, 3),
                 "the option 'max_detections' is not an integer", "a float max_detections");

  CustomKernel ck = {"TFLite_Detection_PostProcess", "my_detect", 64};
  LowerOptions o = {.rounding = TA_ROUND_DOUBLE, .custom = &ck, .ncustom = 1};
  TfwModel *m = det_model(TFW_FLOAT32, TFW_FLOAT32, base, NBASE, 3);
  g = compile_model(m, "test.tflite", &o);
  tfw_free(m);
  l = g ? op_lowered(&g->ops[0]) : NULL;
  CHECK(l && l->kernel && !strcmp(l->kernel, "my_detect") && l->user_kernel &&
            g->ops[0].scratch_bytes == 64,
        "--custom-op TFLite_Detection_PostProcess=my_detect replaces the built-in kernel");
  return test_exit();
}
