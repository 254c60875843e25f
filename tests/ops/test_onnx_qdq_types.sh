#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/ops/test_onnx_qdq_types.sh - seeded float8, uint16 and blocked
# QuantizeLinear -> DequantizeLinear models (tests/ops/onnx_qdq_types.py) through ONNX Runtime
# (the oracle) and `tinyaot run`, the same bytes.  Plain pass only; needs Node, the oracle
# with onnxruntime-node, python3-onnx and python3-numpy (a loud skip
# without them, a failure when TINYAOT_REQUIRE_SHARED=1).
. "$(dirname "$0")/../lib.sh"
[ "${TINYAOT_PASS:-plain}" = plain ] || exit 77
build=${TINYAOT_BUILD:-build}
need_shared
need_ort "float8 and uint16 suite"
work=$(mktemp -d "${TMPDIR:-/tmp}/tinyaot-qdq-types.XXXXXX")
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 tests/ops/onnx_qdq_types.py "$build" "$shared" "$work" 1 1
