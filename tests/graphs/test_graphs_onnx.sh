#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/graphs/test_graphs_onnx.sh - make test's share of the ONNX
# miscompile hunter (tests/graphs/run_graphs_onnx.py; the long run is make
# fuzz-graphs-onnx): $TINYAOT_GRAPHS_ONNX_COUNT random ONNX graphs from
# seed 1 (default 40 in the plain pass, 12 in the sanitizer pass), each
# planned under all 16 option combinations; every 2nd (sanitizer pass:
# every 4th) also run under one --rounding onnxruntime combination
# against ONNX Runtime and, every third of those, three more.
build=${TINYAOT_BUILD:-build}
if [ "${TINYAOT_PASS:-plain}" = san ]; then
  count=${TINYAOT_GRAPHS_ONNX_COUNT:-12} every=4
else
  count=${TINYAOT_GRAPHS_ONNX_COUNT:-40} every=2
fi
exec /usr/bin/python3 tests/graphs/run_graphs_onnx.py --build "$build" --seed 1 \
  --count "$count" --runs some --run-every "$every" --quiet
