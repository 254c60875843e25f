# SPDX-License-Identifier: Apache-2.0
# mk/bench-run.mk - RAM and instructions per inference on the host
# against TensorFlow Lite Micro's anchors (bench/run.sh; part of make
# bench).  Needs valgrind.  BENCH_MODELS picks a subset.
#
#   make bench-run   -> prints and writes $(BUILD)/bench/run.md

.PHONY: bench-run
BENCH_TARGETS += bench-run
bench-run: $(BUILD)/tinyaot
	@TINYAOT=$(abspath $(BUILD))/tinyaot TINYAOT_BUILD=$(abspath $(BUILD)) sh bench/run.sh
