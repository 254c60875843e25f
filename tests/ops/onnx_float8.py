#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""tests/ops/onnx_float8.py - seeded QuantizeLinear -> DequantizeLinear
models through the float8 types (e4m3fn, e4m3fnuz, e5m2, e5m2fnuz;
saturate 1 and 0), run by ONNX Runtime (the oracle) and by `tinyaot run`;
the float32 outputs must be the same bytes.  Each input holds signed
zeros, values far below the smallest float8, values beyond its largest,
infinities and a NaN, so rounding, saturation and the special values all
show.  ONNX Runtime's Node binding takes no float8 tensors, so the
quantized values are checked through their dequantized copy (exact: every
float8 value is a float32).  Float4 e2m1 is left to ONNX's node tests
(ONNX Runtime has no QuantizeLinear for it).  The Debian python3-onnx may
predate the float8 types, so their codes are written as numbers.
Usage: onnx_float8.py BUILD SHARED WORK [SEED] [COUNT]."""
import os, subprocess, sys
import numpy as np
import onnx
from onnx import helper, TensorProto, numpy_helper

build, shared, work = sys.argv[1:4]
seed = int(sys.argv[4]) if len(sys.argv) > 4 else 1
count = int(sys.argv[5]) if len(sys.argv) > 5 else 1
rng = np.random.default_rng(seed)
TYPES = [("e4m3fn", 17), ("e4m3fnuz", 18), ("e5m2", 19), ("e5m2fnuz", 20)]

def model(et, sat, scale, shape):
    zp = onnx.TensorProto()
    zp.name, zp.data_type, zp.raw_data = "zp", et, bytes(1)
    q = helper.make_node("QuantizeLinear", ["x", "s", "zp"], ["q"], saturate=sat)
    dq = helper.make_node("DequantizeLinear", ["q", "s", "zp"], ["y"])
    g = helper.make_graph([q, dq], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, shape)],
                          [numpy_helper.from_array(np.array(scale, dtype=np.float32), "s"), zp])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 21)])
    m.ir_version = 10
    return m

failed = 0
for case in range(count):
    for name, et in TYPES:
        for sat in (1, 0):
            shape = [4, 64]
            x = (rng.standard_normal(shape) * rng.choice([0.1, 10.0, 300.0])).astype(np.float32)
            x[0, :10] = [0.0, -0.0, 1e-12, -1e-12, np.inf, -np.inf, np.nan, 1e6, -1e6, 60000.0]
            scale = float(rng.uniform(0.05, 4.0))
            d = os.path.join(work, "%s_sat%d_%d_%d" % (name, sat, seed, case))
            os.makedirs(d, exist_ok=True)
            onnx.save(model(et, sat, scale, shape), os.path.join(d, "model.onnx"))
            x.tofile(os.path.join(d, "in0.bin"))
            ref, got = os.path.join(d, "ort.bin"), os.path.join(d, "tinyaot.bin")
            r = subprocess.run([os.path.join(shared, "oracle", "tflite-oracle"), os.path.join(d, "model.onnx"),
                                os.path.join(d, "in0.bin"), ref], capture_output=True, text=True)
            if r.returncode:
                print("not ok - ONNX Runtime runs %s: %s" % (d, (r.stderr or r.stdout).strip()[-200:]))
                failed += 1
                continue
            r = subprocess.run([os.path.join(build, "tinyaot"), "run", os.path.join(d, "model.onnx"),
                                "-i", os.path.join(d, "in0.bin"), "-o", got], capture_output=True, text=True)
            if r.returncode:
                print("not ok - tinyaot runs %s: %s" % (d, (r.stderr or r.stdout).strip()[-200:]))
                failed += 1
                continue
            a, b = open(ref, "rb").read(), open(got, "rb").read()
            if a != b:
                i = next((k for k in range(0, min(len(a), len(b)), 4) if a[k:k + 4] != b[k:k + 4]), -1)
                print("not ok - float8 %s saturate=%d QuantizeLinear/DequantizeLinear agrees with ONNX Runtime: "
                      "%d and %d bytes, first difference at element %d" % (name, sat, len(a), len(b), i // 4))
                failed += 1
            else:
                print("ok - float8 %s saturate=%d QuantizeLinear/DequantizeLinear agrees with ONNX Runtime "
                      "(%d values, scale %.4g)" % (name, sat, len(a) // 4, scale))
sys.exit(1 if failed else 0)
