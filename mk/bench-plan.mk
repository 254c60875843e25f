# SPDX-License-Identifier: Apache-2.0
# mk/bench-plan.mk - the memory planner's benchmark.
#
#   make bench-plan   per shared model, as compile plans it (kernel
#                     scratch included): the workspace in model order,
#                     with ops in place, and with the memory-aware
#                     schedule too (the default), against TensorFlow Lite
#                     Micro's lower bound, planner head and arena_used
#                     (anchors.md), and our total RAM; then a synthetic
#                     5,000-op graph, which must plan in under one second
#                     (bench/bench_plan.c; part of make bench)
#
# Variables: TINYAOT_SHARED (default ../shared).

BENCH_TARGETS += bench-plan
.PHONY: bench-plan

# The embedded runtime's object is added to LIB_OBJ by mk/emit.mk, read
# after this file: name it here, or a clean tree links without it.
$(BUILD)/bench/bench_plan: bench/bench_plan.c $(LIB_OBJ) $(BUILD)/gen/runtime_files.o
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) -Itests -Itests/unit $(LDFLAGS) -o $@ $< $(LIB_OBJ) $(LDLIBS)

bench-plan: $(BUILD)/bench/bench_plan
	@$(BUILD)/bench/bench_plan $(or $(TINYAOT_SHARED),../shared)
