# SPDX-License-Identifier: Apache-2.0
# mk/kernels.mk - kernel benchmarks.
#
#   make bench-kernels   instructions (callgrind) of every int8 CONV_2D,
#                        DEPTHWISE_CONV_2D, FULLY_CONNECTED, pool, ADD and
#                        SOFTMAX op of a few shared models, run on TFLM's
#                        case0 tensors: our kernels as a compiler emits them
#                        (fast), their reference forms (plain), and ref.h's
#                        transliteration of TFLite's reference loops (ref).
#                        KERNEL_BENCH_MODELS picks the models.

KERNEL_BENCH_MODELS ?= kws_ref_model person_detect_int8 vww_96_int8 resnet8_int8 micro_speech_int8
BENCH_TARGETS += bench-kernels
SHARED_DIR ?= $(if $(TINYAOT_SHARED),$(TINYAOT_SHARED),../shared)

$(BUILD)/bench_kernels: tests/kernels/bench_kernels.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(HOST_CFLAGS) -Itests $(LDFLAGS) -o $@ $< $(LIB_OBJ) $(LDLIBS)

.PHONY: bench-kernels
bench-kernels: $(BUILD)/bench_kernels
	@printf '%-28s %14s %14s %14s\n' model fast plain ref
	@for m in $(KERNEL_BENCH_MODELS); do \
	  line="$$m"; \
	  for mode in fast plain ref; do \
	    n=$$(valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect=bench_run \
	         $(BUILD)/bench_kernels $(SHARED_DIR)/models/$$m.tflite $(SHARED_DIR)/goldens/$$m $$mode 2>&1 \
	         | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'); \
	    line="$$line $$n"; \
	  done; \
	  printf '%-28s %14s %14s %14s\n' $$line; \
	done
