# SPDX-License-Identifier: Apache-2.0
# mk/arm.mk - tinyaot's output on Cortex-M, emulated by QEMU.
#
#   make check-arm   build every model the compiler accepts for the
#                    targets in ARM_TARGETS and run every golden case under
#                    qemu-system-arm (tests/arm/test_arm.sh, also part of
#                    make test), the kernel tests on every target and
#                    without the assembly (tests/arm/test_arm_kernels.sh;
#                    make test runs three of them), random graphs against the host
#                    (tests/arm/test_arm_graphs.sh), and the ONNX models
#                    (every one with goldens, against ONNX Runtime within
#                    1e-4 relative error; QDQ models bit for bit against
#                    the host and ONNX Runtime: tests/arm/test_arm_onnx.sh
#                    with ARM_ONNX_ALL=1; make test runs its quick share at
#                    m4:-O2); ends "N passed, N failed, N skipped"
#   make bench-arm   flash (code / weights), RAM (workspace, persistent
#                    state, I/O buffers, stack high-water), instructions
#                    per inference and estimated Cortex-M4 cycles
#                    (tools/m4_cycles.c) for every model, Cortex-M4F at
#                    -O2 and -Os (bench/arm.sh; part of make bench)
#   make doc-arm-ops instructions, MACs, instructions per MAC and the
#                    SMLAD floor per op and per kernel of ARM_OPS_MODELS
#                    (kws_ref_model vww_96_int8) into doc/cortex-m-ops.md
#                    (bench/arm_ops_doc.sh; part of make bench)
#   make bench-arm-profile  instructions per op of ARM_PROFILE_MODELS through
#                    the generated code's --profile hook (bench/arm_profile.sh;
#                    part of make bench)
#
# Needs Debian's gcc-arm-none-eabi, libnewlib-arm-none-eabi and
# qemu-system-arm.  Variables: ARM_TARGETS (target:flags pairs, targets
# m4 m7 m33; bench-arm takes ARM_BENCH_TARGETS, default m4:-O2 m4:-Os),
# ARM_MODELS (a subset of the models), ARM_JOBS (models in parallel),
# ARM_TIMEOUT (seconds per QEMU run), ARM_CYCLES_MAX (bench-arm estimates
# the Cortex-M4 cycles of runs up to that many instructions).

ARM_TARGETS ?= m4:-O2 m4:-Os m7:-O2 m33:-O2
# The kernel tests (tests/arm/test_arm_kernels.sh) in check-arm: every
# target above and the C versions of the assembly (make test runs three).
ARM_KERNEL_TARGETS ?= $(ARM_TARGETS) m4:-O2,-DTA_NO_ASM
ARM_GRAPHS_ONNX ?= 24
ARM_ENV = TINYAOT=$(abspath $(BUILD))/tinyaot TINYAOT_BUILD=$(abspath $(BUILD)) \
          ARM_TARGETS="$(ARM_TARGETS)"

.PHONY: check-arm bench-arm
check-arm: $(BUILD)/tinyaot $(BUILD)/tools/gen_graphs
	@$(ARM_ENV) sh tests/arm/test_arm.sh > $(BUILD)/arm-check.txt; \
	 $(ARM_ENV) ARM_KERNEL_TARGETS="$(ARM_KERNEL_TARGETS)" sh tests/arm/test_arm_kernels.sh \
	   >> $(BUILD)/arm-check.txt; \
	 $(ARM_ENV) sh tests/arm/test_arm_graphs.sh >> $(BUILD)/arm-check.txt; \
	 $(ARM_ENV) ARM_ONNX_ALL=1 sh tests/arm/test_arm_onnx.sh >> $(BUILD)/arm-check.txt; \
	 $(ARM_ENV) ARM_GRAPHS_ONNX=$(ARM_GRAPHS_ONNX) sh tests/arm/test_arm_graphs_onnx.sh \
	   >> $(BUILD)/arm-check.txt; \
	 cat $(BUILD)/arm-check.txt; \
	 awk '/^ok /{p++} /^not ok /{f++} /^skip /{s++} \
	      END {printf "%d passed, %d failed, %d skipped\n", p, f, s; exit (f > 0 || p == 0)}' \
	     $(BUILD)/arm-check.txt

# The Cortex-M4 cycle estimator: QEMU's executed instructions priced with
# the Technical Reference Manual's timings (tests/arm/test_arm_cycles.sh).
$(BUILD)/tools/m4_cycles: tools/m4_cycles.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(WARN) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LDLIBS)
test-build: $(BUILD)/tools/m4_cycles

BENCH_TARGETS += bench-arm
bench-arm: $(BUILD)/tinyaot $(BUILD)/tools/m4_cycles
	@$(ARM_ENV) sh bench/arm.sh

# make bench-arm-profile: instructions per op on the Cortex-M4F for the
# models in ARM_PROFILE_MODELS (bench/arm_profile.sh: the generated code's
# own --profile hook, counting with the board's timer under QEMU -icount);
# each table also goes to $(BUILD)/arm-profile/MODEL/profile.tsv, ready
# for tinyaot report --profile-data.  Part of make bench.
ARM_PROFILE_MODELS ?= kws_ref_model
.PHONY: bench-arm-profile doc-arm-ops
BENCH_TARGETS += bench-arm-profile doc-arm-ops
doc-arm-ops: $(BUILD)/tinyaot
	@$(ARM_ENV) ARM_OPS_MODELS="$(ARM_OPS_MODELS)" sh bench/arm_ops_doc.sh
ARM_OPS_MODELS ?= kws_ref_model vww_96_int8
bench-arm-profile: $(BUILD)/tinyaot
	@for m in $(ARM_PROFILE_MODELS); do \
	   $(ARM_ENV) sh bench/arm_profile.sh $$m || exit 1; echo; \
	 done
