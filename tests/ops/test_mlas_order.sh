#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/ops/test_mlas_order.sh - the float summation orders of ONNX
# Runtime's MLAS kernels that --rounding onnxruntime reproduces for the
# QDQ groups ONNX Runtime leaves in float32 (ta_conv2d_ort_f32_s8), bit
# for bit against ONNX Runtime's float MatMul, Gemm and Conv
# (tests/ops/mlas_order.py).  Plain pass only (the sanitizers do not
# touch Node); without Node, the oracle's onnxruntime-node or
# python3-onnx a loud skip, or a failure when TINYAOT_REQUIRE_SHARED=1.
. "$(dirname "$0")/../lib.sh"
[ "${TINYAOT_PASS:-plain}" = plain ] || exit 77
need_shared
need_ort "MLAS order check"
work=$(mktemp -d /tmp/tinyaot-mlas-XXXXXX)
/usr/bin/python3 tests/ops/mlas_order.py --home "$home" --work "$work"
rc=$?
rm -rf "$work"
exit $rc
