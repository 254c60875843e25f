#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/arm/test_arm_graphs_onnx.sh - random ONNX graphs
# (tools/gen_graphs_onnx.py, the ONNX miscompile hunter's generator) on
# Cortex-M4F at -O2 in QEMU, against ONNX Runtime (tests/arm/arm_graphs_onnx.py):
# float graphs within 1e-3 + 1e-3|x| per element (the host hunter's
# tolerance), QDQ graphs under --rounding onnxruntime byte for byte, each
# graph under one option combination (cycling through the default,
# --io-in-caller-buffers, --no-inplace --algo linear, --layout nhwc, --align 4
# with the memory schedule and no views, --algo search --no-overlap).
#
# $ARM_GRAPHS_ONNX graphs (default 3 in make test, two float and one QDQ,
# about 7 s; make check-arm runs 24) from seed $ARM_GRAPHS_ONNX_SEED
# (default 1).
# Plain pass only (exit 77 in the san pass).  A loud skip when the cross
# compiler, QEMU, python3-onnx or ONNX Runtime is missing (a failure with
# TINYAOT_REQUIRE_SHARED=1).
[ "${TINYAOT_PASS:-plain}" = san ] && exit 77

ARM_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$ARM_ROOT/tests/arm/lib.sh"
TINYAOT_BUILD=${TINYAOT_BUILD:-$ARM_ROOT/build}
TINYAOT=${TINYAOT:-$TINYAOT_BUILD/tinyaot}
ARM_WORK=${ARM_WORK:-$TINYAOT_BUILD/arm}/graphs-onnx
export TINYAOT TINYAOT_BUILD ARM_WORK ARM_ROOT

need_arm_tools "random ONNX graphs on Cortex-M"
if ! /usr/bin/python3 -c 'import onnx, numpy' 2> /dev/null; then
  if [ "${TINYAOT_REQUIRE_SHARED:-}" = 1 ]; then
    echo "not ok - python3-onnx and python3-numpy are installed for /usr/bin/python3 (TINYAOT_REQUIRE_SHARED=1)"
    exit 1
  fi
  echo "skip - PYTHON3-ONNX MISSING: no python3-onnx / python3-numpy for /usr/bin/python3 (random ONNX graphs on Cortex-M not run)"
  exit 0
fi
exec /usr/bin/python3 "$ARM_ROOT/tests/arm/arm_graphs_onnx.py" "${ARM_GRAPHS_ONNX:-3}" \
  "${ARM_GRAPHS_ONNX_SEED:-1}"
