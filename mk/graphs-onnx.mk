# SPDX-License-Identifier: Apache-2.0
# mk/graphs-onnx.mk - the miscompile hunter for .onnx models: random ONNX
# graphs (tools/gen_graphs_onnx.py) through tinyaot under 16 option
# combinations, against ONNX Runtime (tests/graphs/run_graphs_onnx.py).
#
#   make fuzz-graphs-onnx FUZZ_SECONDS=N   new graphs (GRAPHS_COUNT per
#                    batch) until N seconds (default 600) have passed;
#                    each disagreement is minimised and saved under
#                    $(BUILD)/graph-findings-onnx/.
#   make test-graphs-onnx GRAPHS_COUNT=n   n graphs from GRAPHS_SEED
#                    (default 1) under all combinations, once.
#
# make test runs tests/graphs/test_graphs_onnx.sh (a seeded set, fewer runs).

.PHONY: fuzz-graphs-onnx test-graphs-onnx
fuzz-graphs-onnx: $(BUILD)/tinyaot
	@GRAPHS_JOBS=$(GRAPHS_JOBS) /usr/bin/python3 tests/graphs/run_graphs_onnx.py --build $(BUILD) \
	    --quiet --seed $(or $(GRAPHS_SEED),$(shell date +%s)000) --count $(GRAPHS_COUNT) \
	    --runs all --seconds $(or $(FUZZ_SECONDS),600) --save $(BUILD)/graph-findings-onnx

test-graphs-onnx: $(BUILD)/tinyaot
	@GRAPHS_JOBS=$(GRAPHS_JOBS) /usr/bin/python3 tests/graphs/run_graphs_onnx.py --build $(BUILD) \
	    --seed $(or $(GRAPHS_SEED),1) --count $(GRAPHS_COUNT) --runs all
