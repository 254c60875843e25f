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
need_ort "window suite"
work=$(mktemp -d "${TMPDIR:-/tmp}/tinyaot-windows.XXXXXX")
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 tests/ops/onnx_windows.py "$build" "$shared" "$work" 1 2
