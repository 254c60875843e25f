#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/ops/test_onnx_windows.sh - seeded grouped Conv, 1-D to 3-D pools
# and ConvTranspose models (tests/ops/onnx_windows.py) through ONNX
# Runtime (the oracle) and `tinyaot run`, floats within 1e-4 of the
# largest reference magnitude.  Plain pass only; needs Node, the oracle
# with onnxruntime-node, python3-onnx and python3-numpy (a loud skip
# without them, a failure when TINYAOT_REQUIRE_SHARED=1).
. "$(dirname "$0")/../lib.sh"
[ "${TINYAOT_PASS:-plain}" = plain ] || exit 77
build=${TINYAOT_BUILD:-build}
need_shared
missing() {
  if [ "${TINYAOT_REQUIRE_SHARED:-}" = 1 ]; then
    echo "not ok - the window suite has what it needs: $1 (TINYAOT_REQUIRE_SHARED=1)"
    exit 1
  fi
  echo "skip - WINDOW SUITE NOT RUN: $1"
  exit 0
}
command -v node > /dev/null 2>&1 || missing "no node"
/usr/bin/python3 -c 'import onnx, numpy' 2> /dev/null || missing "no python3-onnx / python3-numpy"
home=${TFLITE_ORACLE_HOME:-${HOME:-/tmp}/.cache/tflite-oracle}
"$shared/oracle/tflite-oracle" --help > /dev/null 2>&1 || missing "the oracle does not install"
(cd "$home" && node -e "require('onnxruntime-node')" > /dev/null 2>&1) ||
  missing "no onnxruntime-node in $home (ONNXRUNTIME_NODE_INSTALL=skip npm install --no-save onnxruntime-node@1.30.0 there)"
work=$(mktemp -d "${TMPDIR:-/tmp}/tinyaot-windows.XXXXXX")
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 tests/ops/onnx_windows.py "$build" "$shared" "$work" 1 2
