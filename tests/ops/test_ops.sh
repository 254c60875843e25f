#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/ops/test_ops.sh - make test's share of the single-op tests
# (the full sweep is make test-ops; see mk/ops.mk and run_ops.sh).
#
# 1. The generator: TFLite runs one generated model of every op x dtype
#    row (seed 1).  A model TFLite refuses is a bug in tools/gen_ops.c.
# 2. tinyaot matches TFLite on $TINYAOT_OPS_TEST_COUNT cases (default 1)
#    of every OP:dtype in $TINYAOT_OPS_IN_TEST, which make exports from
#    OPS_IN_TEST in mk/ops.mk: the ops tinyaot claims to support.
#
# TFLite's outputs are cached (run_ops.sh), so the sanitizer pass and
# later runs do not start Node again.
build=${TINYAOT_BUILD:-build}
rc=0
sh tests/ops/run_ops.sh --build "$build" --seed 1 --count 1 --oracle-only --quiet || rc=1

if [ -z "${TINYAOT_OPS_IN_TEST+set}" ]; then
  TINYAOT_OPS_IN_TEST=$(make -s --no-print-directory print-ops-in-test)
fi
if [ -z "$TINYAOT_OPS_IN_TEST" ]; then
  echo "skip - OPS_IN_TEST in mk/ops.mk lists no op yet: tinyaot is not run on single-op models"
  exit $rc
fi
sh tests/ops/run_ops.sh --build "$build" --seed 1 --count "${TINYAOT_OPS_TEST_COUNT:-1}" \
  --only "$TINYAOT_OPS_IN_TEST" || rc=1
exit $rc
