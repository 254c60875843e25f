# SPDX-License-Identifier: Apache-2.0
# mk/ops.mk - single-op differential tests against TFLite, and the tools
# that write .tflite files (tools/).
#
#   make test-ops    every op x dtype row of tools/gen_ops.c, OPS_COUNT
#                    random cases each (default 10), run by TFLite (the
#                    oracle in $TINYAOT_SHARED/oracle) and by `tinyaot run
#                    --rounding R` (R: the rounding TFLite's kernel uses,
#                    gen_ops.c); one ok/not ok line per case, then
#                    cases run and cases equal per op x dtype.  Ops tinyaot
#                    does not support yet fail here.
#                    OPS="CONV_2D ADD:int8" picks rows; OPS_SEED=n other
#                    cases; OPS_JOBS=n cases in parallel (default 2).
#   make tiny-cnn    regenerate examples/tiny_cnn/ (model, input, and the
#                    oracle's reference output)
#
# make test runs tests/ops/test_ops.sh: the generator check (TFLite runs
# one model of every row) and tinyaot against TFLite on OPS_TEST_COUNT
# cases (default 1, per pass) of each OP:dtype listed in OPS_IN_TEST
# below.  OPS_IN_TEST is what tinyaot claims to compile exactly: when a
# kernel lands, add its OP:dtype words here in the same commit, once
# `make test-ops OPS="OP:dtype"` passes (`build/tools/gen_ops --list`
# prints every row; the dtype words are float32, int8, int16 = 16x8,
# int16_bias32 = 16x8 with an int32 bias, uint8, hybrid = float
# activations with int8 weights, and FROM_TO pairs for
# QUANTIZE/DEQUANTIZE/CAST, int32, bool and complex64 for the rows whose
# data are of those types).  A pair that
# tinyaot compiles but that still fails make test-ops stays out until it
# is fixed.
#
# TFLite's outputs are cached under $(BUILD)/oracle-cache (keyed by the
# model, input and oracle-mode bytes), so only new cases start Node.

OPS_SEED       ?= 1
OPS_COUNT      ?= 10
OPS_TEST_COUNT ?= 1
OPS            ?=
OPS_JOBS       ?= 2

# The element-wise math rows (tools/gen_ops_math.h) in make test: every
# integer and bool kernel family and one float kernel of each shape
# (unary, binary, row-wise, n-ary).  The other float rows (NEG, SQRT,
# SQUARE, EXP, LOG, SIN, COS, CEIL, FLOOR, ELU, the float and int32
# comparisons ...) are thin wrappers of the same loops; they pass
# make test-ops (10 of 10 each) and stay out of make test for its time.
OPS_IN_TEST_MATH ?= \
  ABS:int8 ABS:int16 RSQRT:int8 ELU:int8 ROUND:float32 RSQRT:float32 LOGICAL_NOT:bool \
  ZEROS_LIKE:int32 EQUAL:bool EQUAL:int8 NOT_EQUAL:int32 GREATER:float32 \
  GREATER_EQUAL:int8 LESS:int8 LESS_EQUAL:int8 LOGICAL_AND:bool \
  SQUARED_DIFFERENCE:int8 SQUARED_DIFFERENCE:int32 FLOOR_DIV:int32 \
  FLOOR_MOD:float32 PRELU:int8 SELECT:int8 SELECT_V2:float32 \
  LOG_SOFTMAX:float32 LOG_SOFTMAX:int8 ADD_N:float32 POW:int32 \
  ADD:int32 SUB:int32 MUL:int32

OPS_IN_TEST ?= \
  ADD:float32 ADD:int16 ADD:int8 ADD:uint8 \
  ARG_MAX:float32 ARG_MAX:int8 ARG_MAX:uint8 \
  AVERAGE_POOL_2D:float32 AVERAGE_POOL_2D:int16 AVERAGE_POOL_2D:int8 \
  AVERAGE_POOL_2D:uint8 \
  CAST:float32_int32 CAST:float32_int8 CAST:float32_uint8 \
  CAST:int16_float32 CAST:int32_float32 CAST:int32_int8 CAST:int8_float32 \
  CAST:int8_int32 CAST:int8_uint8 CAST:uint8_float32 CAST:uint8_int32 \
  CONCATENATION:float32 CONCATENATION:int16 CONCATENATION:int8 \
  CONCATENATION:uint8 \
  CONV_2D:float32 CONV_2D:hybrid CONV_2D:int16 CONV_2D:int16_bias32 \
  CONV_2D:int8 CONV_2D:int8_w4 CONV_2D:uint8 \
  DEPTHWISE_CONV_2D:float32 DEPTHWISE_CONV_2D:hybrid DEPTHWISE_CONV_2D:int16 \
  DEPTHWISE_CONV_2D:int8 DEPTHWISE_CONV_2D:int8_w4 \
  DEPTHWISE_CONV_2D:uint8 \
  DEQUANTIZE:float16_float32 DEQUANTIZE:int16_float32 DEQUANTIZE:int8_float32 \
  DEQUANTIZE:uint8_float32 \
  EXPAND_DIMS:float32 EXPAND_DIMS:int16 EXPAND_DIMS:int8 EXPAND_DIMS:uint8 \
  FULLY_CONNECTED:float32 FULLY_CONNECTED:hybrid FULLY_CONNECTED:int16 \
  FULLY_CONNECTED:int16_bias32 FULLY_CONNECTED:int8 FULLY_CONNECTED:int8_w4 \
  FULLY_CONNECTED:uint8 \
  HARD_SWISH:float32 HARD_SWISH:int8 HARD_SWISH:uint8 \
  LEAKY_RELU:float32 LEAKY_RELU:int16 LEAKY_RELU:int8 LEAKY_RELU:uint8 \
  LOGISTIC:float32 LOGISTIC:int16 LOGISTIC:int8 LOGISTIC:int8_ties LOGISTIC:uint8 \
  MAXIMUM:float32 MAXIMUM:int16 MAXIMUM:int8 MAXIMUM:uint8 \
  MAX_POOL_2D:float32 MAX_POOL_2D:int16 MAX_POOL_2D:int8 MAX_POOL_2D:uint8 \
  MEAN:float32 MEAN:int16 MEAN:int8 MEAN:uint8 \
  MINIMUM:float32 MINIMUM:int16 MINIMUM:int8 MINIMUM:uint8 \
  MUL:float32 MUL:int16 MUL:int8 MUL:uint8 \
  PACK:float32 PACK:int16 PACK:int8 PACK:uint8 \
  PAD:float32 PAD:int16 PAD:int8 PAD:uint8 \
  QUANTIZE:float32_int16 QUANTIZE:float32_int8 QUANTIZE:float32_uint8 \
  QUANTIZE:int16_int16 QUANTIZE:int16_int8 QUANTIZE:int8_int8 \
  QUANTIZE:int8_uint8 QUANTIZE:uint8_int8 \
  RELU:float32 RELU:int16 RELU:int8 RELU:uint8 \
  RELU6:float32 RELU6:int16 RELU6:int8 RELU6:uint8 \
  RESHAPE:float32 RESHAPE:int16 RESHAPE:int8 RESHAPE:uint8 \
  RESIZE_BILINEAR:float32 RESIZE_BILINEAR:int16 RESIZE_BILINEAR:int8 \
  RESIZE_BILINEAR:uint8 \
  RESIZE_NEAREST_NEIGHBOR:float32 RESIZE_NEAREST_NEIGHBOR:int16 \
  RESIZE_NEAREST_NEIGHBOR:int8 RESIZE_NEAREST_NEIGHBOR:uint8 \
  SOFTMAX:float32 SOFTMAX:int16 SOFTMAX:int8 SOFTMAX:int8_int16 SOFTMAX:uint8 \
  SPLIT:float32 SPLIT:int16 SPLIT:int8 SPLIT:uint8 \
  SPLIT_V:float32 SPLIT_V:int16 SPLIT_V:int8 SPLIT_V:uint8 \
  SQUEEZE:float32 SQUEEZE:int16 SQUEEZE:int8 SQUEEZE:uint8 \
  STRIDED_SLICE:float32 STRIDED_SLICE:int16 STRIDED_SLICE:int8 \
  STRIDED_SLICE:uint8 \
  SUB:float32 SUB:int16 SUB:int8 SUB:uint8 \
  TANH:float32 TANH:int16 TANH:int8 TANH:int8_ties TANH:uint8 \
  TRANSPOSE:float32 TRANSPOSE:int16 TRANSPOSE:int8 TRANSPOSE:uint8 \
  TRANSPOSE_CONV:float32 TRANSPOSE_CONV:int16 TRANSPOSE_CONV:int16_bias32 \
  TRANSPOSE_CONV:int8 TRANSPOSE_CONV:uint8 \
  UNPACK:float32 UNPACK:int16 UNPACK:int8 UNPACK:uint8 \
  SUM:float32 SUM:int8 SUM:int16 \
  REDUCE_MAX:float32 REDUCE_MAX:int8 REDUCE_MAX:int16 \
  REDUCE_MIN:float32 REDUCE_MIN:int8 REDUCE_MIN:int16 \
  GATHER:float32 GATHER:int8 GATHER:int16 \
  GATHER_ND:float32 GATHER_ND:int8 GATHER_ND:int16 \
  EMBEDDING_LOOKUP:float32 EMBEDDING_LOOKUP:int8 EMBEDDING_LOOKUP:hybrid \
  DEPTH_TO_SPACE:float32 DEPTH_TO_SPACE:int8 DEPTH_TO_SPACE:uint8 \
  SPACE_TO_DEPTH:float32 SPACE_TO_DEPTH:int8 SPACE_TO_DEPTH:uint8 \
  TILE:float32 TILE:int8 TILE:uint8 \
  BROADCAST_TO:float32 BROADCAST_TO:int8 BROADCAST_TO:int16 BROADCAST_TO:uint8 \
  REVERSE_V2:float32 REVERSE_V2:int8 REVERSE_V2:int16 REVERSE_V2:uint8 \
  SHAPE:float32 SHAPE:int8 SHAPE:int16 SHAPE:uint8 \
  SLICE:float32 SLICE:int8 \
  FILL:float32 FILL:int8 FILL:int16 \
  BROADCAST_ARGS:float32 BROADCAST_ARGS:int8 BROADCAST_ARGS:int16 BROADCAST_ARGS:uint8 \
  BATCH_MATMUL:float32 BATCH_MATMUL:int8 BATCH_MATMUL:int16 \
  SPACE_TO_BATCH_ND:float32 SPACE_TO_BATCH_ND:int8 SPACE_TO_BATCH_ND:uint8 \
  BATCH_TO_SPACE_ND:float32 BATCH_TO_SPACE_ND:int8 BATCH_TO_SPACE_ND:uint8 \
  MIRROR_PAD:float32 MIRROR_PAD:int8 MIRROR_PAD:uint8 \
  L2_POOL_2D:float32 L2_NORMALIZATION:float32 L2_NORMALIZATION:int8 CUMSUM:float32 \
  RFFT2D:float32 COMPLEX_ABS:complex64 \
  $(OPS_IN_TEST_MATH)

export TINYAOT_OPS_IN_TEST := $(strip $(OPS_IN_TEST))
export TINYAOT_OPS_TEST_COUNT := $(OPS_TEST_COUNT)

TOOLS_BIN := $(BUILD)/tools/gen_ops $(BUILD)/tools/gen_tiny_cnn $(BUILD)/tools/cmp_tensors \
             $(BUILD)/tools/gen_chain $(BUILD)/tools/gen_detection \
             $(BUILD)/tools/gen_composite $(BUILD)/tools/gen_control

$(BUILD)/tools/gen_ops $(BUILD)/tools/gen_tiny_cnn $(BUILD)/tools/gen_chain \
    $(BUILD)/tools/gen_detection $(BUILD)/tools/gen_composite \
    $(BUILD)/tools/gen_control: $(BUILD)/tools/%: tools/%.c \
    tools/tflite_writer.c tools/tflite_writer.h tools/rng.h tools/gen_ops_data.c tools/gen_ops_math.h
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(WARN) $(CFLAGS) -Itools $(LDFLAGS) -o $@ $< tools/tflite_writer.c $(LDLIBS)

$(BUILD)/tools/cmp_tensors: tools/cmp_tensors.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(WARN) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LDLIBS)

test-build: $(TOOLS_BIN)

.PHONY: test-ops tiny-cnn print-ops-in-test
test-ops: $(BUILD)/tinyaot $(TOOLS_BIN)
	@OPS_JOBS=$(OPS_JOBS) sh tests/ops/run_ops.sh --build $(BUILD) --seed $(OPS_SEED) --count $(OPS_COUNT) \
	    $(if $(strip $(OPS)),--only "$(strip $(OPS))") > $(BUILD)/ops-results.txt; \
	 rc=$$?; cat $(BUILD)/ops-results.txt; \
	 awk '/^ok /{p++} /^not ok /{f++} /^skip /{s++} \
	      END {printf "%d passed, %d failed, %d skipped\n", p, f, s}' $(BUILD)/ops-results.txt; \
	 exit $$rc

TINY_CNN := examples/tiny_cnn
tiny-cnn: $(BUILD)/tools/gen_tiny_cnn
	$(BUILD)/tools/gen_tiny_cnn $(TINY_CNN)
	$(TINYAOT_SHARED_DIR)/oracle/tflite-oracle --xnnpack off $(TINY_CNN)/tiny_cnn.tflite \
	    $(TINY_CNN)/input.bin $(TINY_CNN)/expected_output.bin

TINYAOT_SHARED_DIR = $(or $(TINYAOT_SHARED),../shared)

print-ops-in-test:
	@echo $(TINYAOT_OPS_IN_TEST)
