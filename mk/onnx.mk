# SPDX-License-Identifier: Apache-2.0
# make test-onnx-node - all 708 ONNX backend node tests of
# ../shared/onnx-node-tests through `tinyaot run` (tests/ops/test_onnx_node.c
# with TINYAOT_ONNX_NODE_ALL=1; make test runs every 8th).  Ends with the
# per-operator counts: tests, run, passed, refused, failed.

test-onnx-node: $(BUILD)/tinyaot $(BUILD)/tests/ops/test_onnx_node
	@TINYAOT=$(CURDIR)/$(BUILD)/tinyaot TINYAOT_BUILD=$(CURDIR)/$(BUILD) \
	  TINYAOT_SHARED=$(or $(TINYAOT_SHARED),$(CURDIR)/../shared) TINYAOT_ONNX_NODE_ALL=1 \
	  $(BUILD)/tests/ops/test_onnx_node > $(BUILD)/onnx-node.txt; rc=$$?; \
	  grep -E '^(not ok|# )' $(BUILD)/onnx-node.txt | grep -v '^# refused' ; \
	  echo "test-onnx-node: log in $(BUILD)/onnx-node.txt"; exit $$rc

.PHONY: test-onnx-node
