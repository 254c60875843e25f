# SPDX-License-Identifier: Apache-2.0
# mk/graphs.mk - the miscompile hunter: random multi-op graphs
# (tools/gen_graphs.c) through tinyaot under many option combinations,
# against TFLite and against each other (tests/graphs/run_graphs.sh).
#
#   make fuzz-graphs FUZZ_SECONDS=N   new graphs (GRAPHS_COUNT per batch,
#                    default 20, from GRAPHS_SEED, default a seed from the
#                    clock) under all 16 combinations until N seconds
#                    (default 600) have passed; each disagreement is
#                    minimised and saved under $(BUILD)/graph-findings/.
#                    GRAPHS_KIND=int16 (int8, float, mixed, uint8): graphs
#                    of that kind only (default: every kind drawn).
#   make test-graphs GRAPHS_COUNT=n   n graphs from GRAPHS_SEED (default
#                    1) under all combinations, once.
#
# make test runs tests/graphs/test_graphs.sh (a seeded set, fewer runs per
# graph).

GRAPHS_COUNT ?= 20
GRAPHS_JOBS  ?= 2

$(BUILD)/tools/gen_graphs: tools/gen_graphs.c tools/rng.h tools/tflite_writer.c tools/tflite_writer.h
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(WARN) $(CFLAGS) -Itools $(LDFLAGS) -o $@ $< tools/tflite_writer.c $(LDLIBS)

test-build: $(BUILD)/tools/gen_graphs

.PHONY: fuzz-graphs test-graphs
fuzz-graphs: $(BUILD)/tinyaot $(BUILD)/tools/gen_graphs $(BUILD)/tools/cmp_tensors
	@GRAPHS_JOBS=$(GRAPHS_JOBS) sh tests/graphs/run_graphs.sh --build $(BUILD) --quiet \
	    --seed $(or $(GRAPHS_SEED),$(shell date +%s)000) --count $(GRAPHS_COUNT) --runs all \
	    --seconds $(or $(FUZZ_SECONDS),600) --save $(BUILD)/graph-findings \
	    $(if $(GRAPHS_KIND),--kind $(GRAPHS_KIND))

test-graphs: $(BUILD)/tinyaot $(BUILD)/tools/gen_graphs $(BUILD)/tools/cmp_tensors
	@GRAPHS_JOBS=$(GRAPHS_JOBS) sh tests/graphs/run_graphs.sh --build $(BUILD) \
	    --seed $(or $(GRAPHS_SEED),1) --count $(GRAPHS_COUNT) --runs all \
	    $(if $(GRAPHS_KIND),--kind $(GRAPHS_KIND))
