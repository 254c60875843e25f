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

# make test-ops-onnx - the QDQ differential suite (tests/ops/run_qdq.py):
# QDQ_COUNT seeded models (default 10) of every row of tools/gen_qdq.py,
# ONNX Runtime against `tinyaot run --rounding onnxruntime` byte for byte,
# and how many outputs the default rounding changes.  make test runs one
# case per row (tests/ops/test_ops_onnx.sh).  QDQ_ONLY="Conv Gemm:int8"
# picks rows, QDQ_SEED other cases.
QDQ_COUNT ?= 10
QDQ_SEED  ?= 1
QDQ_ONLY  ?=
test-ops-onnx: $(BUILD)/tinyaot
	@/usr/bin/python3 tests/ops/run_qdq.py --build $(BUILD) \
	  --shared $(or $(TINYAOT_SHARED),$(CURDIR)/../shared) --seed $(QDQ_SEED) --count $(QDQ_COUNT) \
	  $(if $(strip $(QDQ_ONLY)),--only "$(strip $(QDQ_ONLY))") > $(BUILD)/qdq-results.txt; rc=$$?; \
	  grep -E '^(not ok|# )' $(BUILD)/qdq-results.txt; \
	  echo "test-ops-onnx: log in $(BUILD)/qdq-results.txt"; exit $$rc

.PHONY: test-ops-onnx

# make test-quant-onnx - the 8 shared float ONNX models quantized to int8
# QDQ by tools/quantize_onnx.py, ONNX Runtime against `tinyaot run
# --rounding onnxruntime` byte for byte on the golden inputs, the default
# rounding's share of differing outputs, and RAM/flash float -> int8;
# for a model that differs, tools/bisect_quant_onnx.py names the first
# differing tensor (tests/models/run_quant_onnx.py; make test runs three
# models, tests/models/test_quant_onnx.sh).
QUANT_ONNX_MODELS ?= ds_cnn_kws fc_autoencoder_ad lstm_mnist mobilenet_v2_035_96 \
  mobilenet_v3_small_96 shape_chain_cnn_nofold squeezenet1_1_96 tiny_unet_64
test-quant-onnx: $(BUILD)/tinyaot
	@nice /usr/bin/python3 tests/models/run_quant_onnx.py --build $(BUILD) --report \
	  --shared $(or $(TINYAOT_SHARED),$(CURDIR)/../shared) $(QUANT_ONNX_MODELS)

.PHONY: test-quant-onnx
