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
need_ort "QDQ suite"
/usr/bin/python3 tests/ops/run_qdq.py --build "$build" --shared "$shared" --seed 1 --count 1 \
  --no-default
