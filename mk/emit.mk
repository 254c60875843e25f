# SPDX-License-Identifier: Apache-2.0
# mk/emit.mk - code generation: the runtime's text embedded in tinyaot.
#
# tinyaot compile copies the kernels a model uses into its output folder.
# So that the tool works from any directory, the runtime's sources are
# compiled into the binary: mk/embed-runtime.sh turns runtime/include/*.h
# and runtime/*/*.[ch] into $(BUILD)/gen/runtime_files.c (a table of
# {path, text}), linked into tinyaot and the tests.

EMBED_SRC := $(sort $(wildcard runtime/include/*.h runtime/*/*.h)) \
             $(filter-out runtime/include/%,$(sort $(wildcard runtime/*/*.c)))
EMBED_C   := $(BUILD)/gen/runtime_files.c
EMBED_OBJ := $(BUILD)/gen/runtime_files.o

COMPILER_OBJ += $(EMBED_OBJ)
LIB_OBJ      += $(EMBED_OBJ)

$(BUILD)/tinyaot: $(EMBED_OBJ)

$(EMBED_C): mk/embed-runtime.sh $(EMBED_SRC)
	@mkdir -p $(dir $@)
	sh mk/embed-runtime.sh $(EMBED_SRC) > $@.tmp && mv $@.tmp $@

$(EMBED_OBJ): $(EMBED_C)
	$(CC) $(HOST_CFLAGS) -c -o $@ $<
