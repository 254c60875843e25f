# SPDX-License-Identifier: Apache-2.0
# make fuzz - libFuzzer on the .tflite reader (read_tflite + verify +
# print_inspect), with AddressSanitizer and UndefinedBehaviorSanitizer.
#
#   make fuzz                  run for FUZZ_SECONDS (default 60)
#   make fuzz FUZZ_SECONDS=600 FUZZ_JOBS=2
#
# The corpus (build/fuzz-corpus) is seeded from the shared models up to
# FUZZ_SEED_MAX bytes; findings go to build/fuzz-findings.  Ends with one
# line: executions, seconds and executions per second.

FUZZ_CC       ?= clang
FUZZ_SECONDS  ?= 60
FUZZ_SEED_MAX ?= 65536
FUZZ_SHARED   ?= $(or $(TINYAOT_SHARED),../shared)
FUZZ_FLAGS    := -std=c11 -O1 -g -fsanitize=fuzzer,address,undefined \
                 -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_BIN      := $(BUILD)/fuzz/fuzz_tflite
FUZZ_LIB_SRC  := compiler/front/tflite.c compiler/front/flexbuf.c compiler/verify.c compiler/control.c compiler/emit/print.c compiler/util.c

$(FUZZ_BIN): tests/fuzz/fuzz_tflite.c $(FUZZ_LIB_SRC) compiler/tinyaot.h compiler/ops.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -Icompiler -Icompiler/passes -Iruntime/include -o $@ \
	  tests/fuzz/fuzz_tflite.c $(FUZZ_LIB_SRC) -lm

fuzz: $(FUZZ_BIN)
	@mkdir -p $(BUILD)/fuzz-corpus $(BUILD)/fuzz-findings
	@find $(FUZZ_SHARED)/models -name '*.tflite' -size -$(FUZZ_SEED_MAX)c \
	  -exec cp -n {} $(BUILD)/fuzz-corpus/ \; 2>/dev/null || true
	@echo "fuzz: $$(ls $(BUILD)/fuzz-corpus | wc -l) corpus files, $(FUZZ_SECONDS) s"
	@$(FUZZ_BIN) -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	  -artifact_prefix=$(BUILD)/fuzz-findings/ -max_len=$(FUZZ_SEED_MAX) \
	  $(BUILD)/fuzz-corpus > $(BUILD)/fuzz/log.txt 2>&1; rc=$$?; \
	  n=$$(sed -n 's/^stat::number_of_executed_units: *//p' $(BUILD)/fuzz/log.txt); \
	  r=$$(sed -n 's/^stat::average_exec_per_sec: *//p' $(BUILD)/fuzz/log.txt); \
	  grep -E '^(==[0-9]+==ERROR|SUMMARY|refusal without)' $(BUILD)/fuzz/log.txt | head -5; \
	  echo "fuzz: $${n:-?} executions, $${r:-?} exec/s, exit $$rc (log: $(BUILD)/fuzz/log.txt)"; \
	  exit $$rc
