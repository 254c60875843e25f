# SPDX-License-Identifier: Apache-2.0
# make fuzz-onnx - libFuzzer on the .onnx reader (protobuf.c, onnx.c and
# the importer, onnx_import.c and its onnx_*.c files, through read_onnx,
# then verify and print_inspect), with AddressSanitizer and
# UndefinedBehaviorSanitizer (the flags of mk/fuzz.mk).
#
#   make fuzz-onnx                  run for FUZZ_SECONDS (default 60)
#
# The corpus (build/fuzz-onnx-corpus) is seeded from the shared ONNX
# models up to FUZZ_ONNX_MAX bytes (raise it to seed the larger ones) and
# from the model of every ONNX node test (one small graph per operator,
# attribute and type the importer knows);
# findings go to build/fuzz-onnx-findings.  Ends with one line:
# executions, exec/s and the exit status.

FUZZ_ONNX_BIN     := $(BUILD)/fuzz/fuzz_onnx
FUZZ_ONNX_MAX     ?= 262144
FUZZ_ONNX_LIB_SRC := compiler/front/onnx.c $(wildcard compiler/front/onnx_*.c) compiler/front/protobuf.c \
                     compiler/verify.c compiler/control.c compiler/emit/print.c compiler/util.c compiler/passes/quant.c \
                     compiler/front/tflite.c compiler/front/flexbuf.c

$(FUZZ_ONNX_BIN): tests/fuzz/fuzz_onnx.c $(FUZZ_ONNX_LIB_SRC) compiler/tinyaot.h compiler/ops.h \
                  compiler/front/onnx.h compiler/front/onnx_import.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -Icompiler -Icompiler/passes -Iruntime/include -o $@ \
	  tests/fuzz/fuzz_onnx.c $(FUZZ_ONNX_LIB_SRC) -lm

fuzz-onnx: $(FUZZ_ONNX_BIN)
	@mkdir -p $(BUILD)/fuzz-onnx-corpus $(BUILD)/fuzz-onnx-findings
	@find $(FUZZ_SHARED)/models/onnx -name '*.onnx' -size -$(FUZZ_ONNX_MAX)c \
	  -exec cp -n {} $(BUILD)/fuzz-onnx-corpus/ \; 2>/dev/null || true
	@for d in $(FUZZ_SHARED)/onnx-node-tests/test_*; do \
	  [ -f "$$d/model.onnx" ] && cp -n "$$d/model.onnx" "$(BUILD)/fuzz-onnx-corpus/node-$${d##*/}.onnx"; \
	done 2>/dev/null || true
	@echo "fuzz-onnx: $$(ls $(BUILD)/fuzz-onnx-corpus | wc -l) corpus files, $(FUZZ_SECONDS) s"
	@$(FUZZ_ONNX_BIN) -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	  -artifact_prefix=$(BUILD)/fuzz-onnx-findings/ -max_len=$(FUZZ_ONNX_MAX) \
	  -rss_limit_mb=4096 $(BUILD)/fuzz-onnx-corpus > $(BUILD)/fuzz/onnx-log.txt 2>&1; rc=$$?; \
	  n=$$(sed -n 's/^stat::number_of_executed_units: *//p' $(BUILD)/fuzz/onnx-log.txt); \
	  r=$$(sed -n 's/^stat::average_exec_per_sec: *//p' $(BUILD)/fuzz/onnx-log.txt); \
	  grep -E '^(==[0-9]+==ERROR|SUMMARY|refusal without)' $(BUILD)/fuzz/onnx-log.txt | head -5; \
	  echo "fuzz-onnx: $${n:-?} executions, $${r:-?} exec/s, exit $$rc (log: $(BUILD)/fuzz/onnx-log.txt)"; \
	  exit $$rc

.PHONY: fuzz-onnx
