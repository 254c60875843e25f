# SPDX-License-Identifier: Apache-2.0
# make fuzz-compile - libFuzzer on the whole compiler (read, verify,
# passes, lower, plan, emit), with AddressSanitizer and
# UndefinedBehaviorSanitizer and a structure-aware mutator
# (tests/fuzz/mutate.h).
#
#   make fuzz-compile                          FUZZ_SECONDS (default 60)
#   make fuzz-compile FUZZ_SECONDS=600
#
# The corpus (build/fuzz-compile-corpus) is seeded from the shared models
# up to FUZZ_COMPILE_SEED_MAX bytes; findings (crashes, sanitizer reports,
# die() reached, refusals without a proper message) go to
# build/fuzz-compile-findings.  Ends with one line: executions, exec/s.
# Replay one finding: build/fuzz/fuzz_compile FILE.

FUZZ_COMPILE_SEED_MAX ?= 131072
FUZZ_COMPILE_BIN      := $(BUILD)/fuzz/fuzz_compile
FUZZ_COMPILE_OBJ      := $(BUILD)/fuzz/compile-obj
FUZZ_COMPILE_LIB      := $(patsubst %.c,$(FUZZ_COMPILE_OBJ)/%.o,\
                           $(filter-out compiler/main.c,$(COMPILER_SRC)) \
                           $(RUNTIME_SRC)) \
                         $(FUZZ_COMPILE_OBJ)/gen/runtime_files.o
FUZZ_COMPILE_CFLAGS   := -O1 -g -fsanitize=fuzzer-no-link,address,undefined \
                         -fno-sanitize-recover=undefined -fno-omit-frame-pointer

.PHONY: fuzz-compile

$(FUZZ_COMPILE_OBJ)/compiler/%.o: compiler/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -std=c11 $(WARN) $(FUZZ_COMPILE_CFLAGS) -Icompiler -Icompiler/passes -Iruntime/include -MMD -MP -c -o $@ $<

$(FUZZ_COMPILE_OBJ)/runtime/%.o: runtime/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -std=c99 $(WARN) $(FUZZ_COMPILE_CFLAGS) -Iruntime/include -MMD -MP -c -o $@ $<

$(FUZZ_COMPILE_OBJ)/gen/runtime_files.o: $(EMBED_C)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -std=c11 $(FUZZ_COMPILE_CFLAGS) -Icompiler -Icompiler/passes -Iruntime/include -c -o $@ $<

$(FUZZ_COMPILE_BIN): tests/fuzz/fuzz_compile.c tests/fuzz/mutate.h $(FUZZ_COMPILE_LIB)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -std=c11 $(FUZZ_COMPILE_CFLAGS) -fsanitize=fuzzer -Icompiler -Icompiler/passes -Iruntime/include \
	  -Itests -o $@ tests/fuzz/fuzz_compile.c $(FUZZ_COMPILE_LIB) -lm

fuzz-compile: $(FUZZ_COMPILE_BIN)
	@mkdir -p $(BUILD)/fuzz-compile-corpus $(BUILD)/fuzz-compile-findings
	@find $(FUZZ_SHARED)/models -name '*.tflite' -size -$(FUZZ_COMPILE_SEED_MAX)c \
	  -exec cp -n {} $(BUILD)/fuzz-compile-corpus/ \; 2>/dev/null || true
	@echo "fuzz-compile: $$(ls $(BUILD)/fuzz-compile-corpus | wc -l) corpus files, $(FUZZ_SECONDS) s"
	@$(FUZZ_COMPILE_BIN) -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	  -artifact_prefix=$(BUILD)/fuzz-compile-findings/ -max_len=$(FUZZ_COMPILE_SEED_MAX) \
	  -timeout=20 -rss_limit_mb=4096 \
	  $(BUILD)/fuzz-compile-corpus > $(BUILD)/fuzz/compile-log.txt 2>&1; rc=$$?; \
	  n=$$(sed -n 's/^stat::number_of_executed_units: *//p' $(BUILD)/fuzz/compile-log.txt | awk '{s+=$$1} END {print s}'); \
	  r=$$(sed -n 's/^stat::average_exec_per_sec: *//p' $(BUILD)/fuzz/compile-log.txt | awk '{s+=$$1} END {print s}'); \
	  grep -E '^(==[0-9]+==ERROR|SUMMARY|die\(\) reached|refusal without)' $(BUILD)/fuzz/compile-log.txt | head -5; \
	  echo "fuzz-compile: $${n:-?} executions, $${r:-?} exec/s, exit $$rc (log: $(BUILD)/fuzz/compile-log.txt)"; \
	  exit $$rc

-include $(shell find $(FUZZ_COMPILE_OBJ) -name '*.d' 2>/dev/null)
