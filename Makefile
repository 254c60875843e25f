# SPDX-License-Identifier: Apache-2.0
# tinyaot - an ahead-of-time compiler from .tflite to C99.
#
#   make             build/tinyaot
#   make test        every test, once plain and once under ASan+UBSan;
#                    ends with one line "N passed, N failed"
#   make bench       memory, speed and size reports (bench/)
#   make fuzz        libFuzzer on the .tflite reader (clang), bounded time
#   make fuzz-compile libFuzzer on the whole compiler (mk/fuzz-compile.mk)
#
# Configuration by make variables: CC, CFLAGS, BUILD, SAN=1.
# Sources are found by wildcard: a new compiler/[*/]*.c, runtime/*/*.c or
# tests/*/test_*.c is built without editing this file.

CC      ?= cc
CFLAGS  ?= -O2 -g
BUILD   ?= build
WARN    := -Wall -Wextra -Werror
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

ifeq ($(SAN),1)
  CFLAGS := -O1 -g $(SANFLAGS)
  LDFLAGS += $(SANFLAGS)
endif

HOST_CFLAGS := -std=c11 $(WARN) $(CFLAGS) -Icompiler -Icompiler/passes -Iruntime/include -MMD -MP
RT_CFLAGS   := -std=c99 -pedantic $(WARN) $(CFLAGS) -Iruntime/include -MMD -MP
LDLIBS      += -lm

COMPILER_SRC := $(sort $(wildcard compiler/*.c compiler/*/*.c))
RUNTIME_SRC  := $(sort $(wildcard runtime/*/*.c))
TEST_SRC     := $(sort $(wildcard tests/*/test_*.c))

COMPILER_OBJ := $(COMPILER_SRC:%.c=$(BUILD)/%.o)
RUNTIME_OBJ  := $(RUNTIME_SRC:%.c=$(BUILD)/%.o)
LIB_OBJ      := $(filter-out $(BUILD)/compiler/main.o,$(COMPILER_OBJ)) $(RUNTIME_OBJ)
TEST_BIN     := $(patsubst tests/%.c,$(BUILD)/tests/%,$(TEST_SRC))

.PHONY: all test test-build bench fuzz clean
all: $(BUILD)/tinyaot

# Further targets live in mk/*.mk, one file per area (fuzz, bench, arm,
# ...).  They add to BENCH_TARGETS (run by make bench).
BENCH_TARGETS :=
-include $(sort $(wildcard mk/*.mk))

$(BUILD)/tinyaot: $(COMPILER_OBJ) $(RUNTIME_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/compiler/%.o: compiler/%.c
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) -c -o $@ $<

$(BUILD)/runtime/%.o: runtime/%.c
	@mkdir -p $(dir $@)
	$(CC) $(RT_CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/%.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) -Itests $(LDFLAGS) -o $@ $< $(LIB_OBJ) $(LDLIBS)

test-build: $(BUILD)/tinyaot $(TEST_BIN)

# make test: the plain build, then the sanitizer build (each on every
# core, TEST_JOBS), then the tests one after another, then one summary.
TEST_JOBS ?= $(shell nproc 2> /dev/null || echo 2)
test:
	@$(MAKE) --no-print-directory -j$(TEST_JOBS) test-build
	@$(MAKE) --no-print-directory -j$(TEST_JOBS) test-build SAN=1 BUILD=$(BUILD)/san
	@rm -f $(BUILD)/test-results.txt
	@sh tests/run.sh $(BUILD) "" $(BUILD)/test-results.txt
	@sh tests/run.sh $(BUILD)/san "$(SANFLAGS)" $(BUILD)/test-results.txt
	@sh tests/summary.sh $(BUILD)/test-results.txt

bench: $(BUILD)/tinyaot $(BENCH_TARGETS)

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
