#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/models/test_quant_onnx.sh - make test's share of make
# test-quant-onnx (mk/onnx.mk): ds_cnn_kws and fc_autoencoder_ad from
# ../shared/models/onnx quantized by tools/quantize_onnx.py, run on their
# golden inputs by ONNX Runtime and by `tinyaot run --rounding
# onnxruntime`, byte for byte (tests/models/run_quant_onnx.py).
#
# Plain pass only (the sanitizers do not touch Node).  Without Node, the
# oracle's onnxruntime-node or python3-onnx a loud skip, or a failure
# when TINYAOT_REQUIRE_SHARED=1.
. "$(dirname "$0")/../lib.sh"
[ "${TINYAOT_PASS:-plain}" = plain ] || exit 77
build=${TINYAOT_BUILD:-build}
need_shared
missing() {
  if [ "${TINYAOT_REQUIRE_SHARED:-}" = 1 ]; then
    echo "not ok - the quantized ONNX models have what they need: $1 (TINYAOT_REQUIRE_SHARED=1)"
    exit 1
  fi
  echo "skip - QUANTIZED ONNX MODELS NOT RUN: $1"
  exit 0
}
command -v node > /dev/null 2>&1 || missing "no node"
/usr/bin/python3 -c 'import onnx, numpy' 2> /dev/null || missing "no python3-onnx / python3-numpy"
home=${TFLITE_ORACLE_HOME:-${HOME:-/tmp}/.cache/tflite-oracle}
"$shared/oracle/tflite-oracle" --help > /dev/null 2>&1 || missing "the oracle does not install"
(cd "$home" && node -e "require('onnxruntime-node')" > /dev/null 2>&1) ||
  missing "no onnxruntime-node in $home"
/usr/bin/python3 tests/models/run_quant_onnx.py --build "$build" --shared "$shared" \
  ds_cnn_kws fc_autoencoder_ad
