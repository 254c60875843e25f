#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/models/test_quant_onnx.sh - make test's share of make
# test-quant-onnx (mk/onnx.mk): ds_cnn_kws, fc_autoencoder_ad,
# lstm_mnist (its LSTM stays float) and tiny_unet_64 (ONNX Runtime leaves
# five of its Conv groups in float32, and one sum of case0 lands where
# only MLAS's float order gives its byte: 80 outputs differ otherwise;
# mobilenet_v2_035_96 costs 14 s more and its ReLU6 fusion has the QDQ
# row Conv:int8_relu6) from
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
need_ort "quantized ONNX models"
/usr/bin/python3 tests/models/run_quant_onnx.py --build "$build" --shared "$shared" \
  ds_cnn_kws fc_autoencoder_ad lstm_mnist tiny_unet_64
