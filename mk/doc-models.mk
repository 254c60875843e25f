# SPDX-License-Identifier: Apache-2.0
# mk/doc-models.mk - doc/models.md, every shared model's RAM, flash and
# Cortex-M4F instructions in one table (bench/models_doc.sh; part of make
# bench).  It reads the rows make bench-arm measured ($(BUILD)/bench/arm.tsv,
# its Cortex-M4F -O2 target) rather than measuring again, so it runs after
# bench-arm.  tests/unit/test_models_doc.sh checks that the table names
# every shared model.
#
#   make doc-models   -> make bench-arm, then writes doc/models.md

.PHONY: doc-models
BENCH_TARGETS += doc-models
doc-models: bench-arm
	@TINYAOT=$(abspath $(BUILD))/tinyaot TINYAOT_BUILD=$(abspath $(BUILD)) sh bench/models_doc.sh
