#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/ops/test_ops_onnx.sh - make test's share of the QDQ differential
# suite (the full sweep is make test-ops-onnx, mk/onnx.mk): one seeded
# case of every row of tools/gen_qdq.py, imported as integer ops and run
# by `tinyaot run --rounding onnxruntime`, byte for byte against ONNX
# Runtime (the oracle's onnxruntime-node, ../shared/oracle).
#
# Plain pass only (the sanitizers do not touch Node).  Needs Node, the
# oracle with its optional onnxruntime-node, and python3-onnx and
# python3-numpy; without them a loud skip, or a failure when
# TINYAOT_REQUIRE_SHARED=1.
. "$(dirname "$0")/../lib.sh"
[ "${TINYAOT_PASS:-plain}" = plain ] || exit 77
build=${TINYAOT_BUILD:-build}
need_shared
missing() {
  if [ "${TINYAOT_REQUIRE_SHARED:-}" = 1 ]; then
    echo "not ok - the QDQ suite has what it needs: $1 (TINYAOT_REQUIRE_SHARED=1)"
    exit 1
  fi
  echo "skip - QDQ SUITE NOT RUN: $1"
  exit 0
}
command -v node > /dev/null 2>&1 || missing "no node"
/usr/bin/python3 -c 'import onnx, numpy' 2> /dev/null || missing "no python3-onnx / python3-numpy"
home=${TFLITE_ORACLE_HOME:-${HOME:-/tmp}/.cache/tflite-oracle}
"$shared/oracle/tflite-oracle" --help > /dev/null 2>&1 || missing "the oracle does not install"
(cd "$home" && node -e "require('onnxruntime-node')" > /dev/null 2>&1) ||
  missing "no onnxruntime-node in $home (ONNXRUNTIME_NODE_INSTALL=skip npm install --no-save onnxruntime-node@1.30.0 there)"
/usr/bin/python3 tests/ops/run_qdq.py --build "$build" --shared "$shared" --seed 1 --count 1 \
  --no-default
