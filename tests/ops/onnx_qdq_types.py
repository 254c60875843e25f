#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""tests/ops/onnx_qdq_types.py - seeded QuantizeLinear -> DequantizeLinear
models through the float8 types (e4m3fn, e4m3fnuz, e5m2, e5m2fnuz;
saturate 1 and 0), uint16 (with a zero point) and blocked int8 / uint8
quantization, run by ONNX Runtime (the oracle) and by `tinyaot run`; the
outputs must be the same bytes (uint16 and blocked: the quantized values
too).  Each input holds signed
zeros, values far below the smallest float8, values beyond its largest,
infinities and a NaN, so rounding, saturation and the special values all
show.  ONNX Runtime's Node binding takes no float8 tensors, so the
quantized values are checked through their dequantized copy (exact: every
float8 value is a float32).  Float4 e2m1 is left to ONNX's node tests
(ONNX Runtime has no QuantizeLinear for it).  The Debian python3-onnx may
predate the float8 types, so their codes are written as numbers.
Usage: onnx_qdq_types.py BUILD SHARED WORK [SEED] [COUNT]."""
import os, subprocess, sys
import numpy as np
import onnx
from onnx import helper, TensorProto, numpy_helper

build, shared, work = sys.argv[1:4]
seed = int(sys.argv[4]) if len(sys.argv) > 4 else 1
count = int(sys.argv[5]) if len(sys.argv) > 5 else 1
rng = np.random.default_rng(seed)
TYPES = [("e4m3fn", 17), ("e4m3fnuz", 18), ("e5m2", 19), ("e5m2fnuz", 20), ("uint16", 4)]

def model(et, sat, scale, shape):
    zp = onnx.TensorProto()
    zp.name, zp.data_type = "zp", et
    zp.raw_data = bytes(1) if et != 4 else np.array(int(rng.integers(0, 65536)), np.uint16).tobytes()
    q = helper.make_node("QuantizeLinear", ["x", "s", "zp"], ["q"], **({"saturate": sat} if et != 4 else {}))
    dq = helper.make_node("DequantizeLinear", ["q", "s", "zp"], ["y"])
    outs = [helper.make_tensor_value_info("q", et, shape)] if et == 4 else []
    g = helper.make_graph([q, dq], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
                          outs + [helper.make_tensor_value_info("y", TensorProto.FLOAT, shape)],
                          [numpy_helper.from_array(np.array(scale, dtype=np.float32), "s"), zp])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 21)])
    m.ir_version = 10
    return m

failed = 0
for case in range(count):
    for name, et in TYPES:
        for sat in ((1, 0) if et != 4 else (1,)):
            shape = [4, 64]
            x = (rng.standard_normal(shape) * rng.choice([0.1, 10.0, 300.0] if et != 4 else
                                                         [1e3, 1e5])).astype(np.float32)
            if et != 4:
                x[0, :10] = [0.0, -0.0, 1e-12, -1e-12, np.inf, -np.inf, np.nan, 1e6, -1e6, 60000.0]
            else:  # halves (ties to even), both ends of the range, far beyond them
                x[0, :8] = [0.5, 1.5, 2.5, -0.5, 1e9, -1e9, 65535.0, -65536.0]
            scale = float(rng.uniform(0.05, 4.0))
            d = os.path.join(work, "%s_sat%d_%d_%d" % (name, sat, seed, case))
            os.makedirs(d, exist_ok=True)
            onnx.save(model(et, sat, scale, shape), os.path.join(d, "model.onnx"))
            x.tofile(os.path.join(d, "in0.bin"))
            ref, got = os.path.join(d, "ort.bin"), os.path.join(d, "tinyaot.bin")
            qref, qgot = [os.path.join(d, "ort_q.bin")] if et == 4 else [], \
                [os.path.join(d, "tinyaot_q.bin")] if et == 4 else []
            r = subprocess.run([os.path.join(shared, "oracle", "tflite-oracle"), os.path.join(d, "model.onnx"),
                                os.path.join(d, "in0.bin")] + qref + [ref], capture_output=True, text=True)
            if r.returncode:
                print("not ok - ONNX Runtime runs %s: %s" % (d, (r.stderr or r.stdout).strip()[-200:]))
                failed += 1
                continue
            r = subprocess.run([os.path.join(build, "tinyaot"), "run", os.path.join(d, "model.onnx"),
                                "-i", os.path.join(d, "in0.bin")] + sum([["-o", f] for f in qgot], []) +
                               ["-o", got], capture_output=True, text=True)
            if r.returncode:
                print("not ok - tinyaot runs %s: %s" % (d, (r.stderr or r.stdout).strip()[-200:]))
                failed += 1
                continue
            a = b"".join(open(f, "rb").read() for f in qref + [ref])
            b = b"".join(open(f, "rb").read() for f in qgot + [got])
            if a != b:
                i = next((k for k in range(0, min(len(a), len(b)), 4) if a[k:k + 4] != b[k:k + 4]), -1)
                print("not ok - %s saturate=%d QuantizeLinear/DequantizeLinear agrees with ONNX Runtime: "
                      "%d and %d bytes, first difference at element %d" % (name, sat, len(a), len(b), i // 4))
                failed += 1
            else:
                print("ok - %s saturate=%d QuantizeLinear/DequantizeLinear agrees with ONNX Runtime "
                      "(%d bytes, scale %.4g)" % (name, sat, len(a), scale))
# Blocked int8 and uint8 quantization (opset 21): blocks of 3 along an axis
# of 8 (the last block shorter), the quantized bytes compared too.
for case in range(count):
    for et, npdt in ((3, np.int8), (2, np.uint8)):
        axis, bs, shape = int(rng.integers(0, 2)), 3, [4, 8]
        sshape = list(shape)
        sshape[axis] = (shape[axis] + bs - 1) // bs
        scale = rng.uniform(0.01, 0.5, sshape).astype(np.float32)
        info = np.iinfo(npdt)
        zp = rng.integers(info.min // 2, info.max // 2 + 1, sshape).astype(npdt)
        x = (rng.standard_normal(shape) * 20).astype(np.float32)
        q = helper.make_node("QuantizeLinear", ["x", "s", "zp"], ["q"], axis=axis, block_size=bs)
        dq = helper.make_node("DequantizeLinear", ["q", "s", "zp"], ["y"], axis=axis, block_size=bs)
        g = helper.make_graph([q, dq], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
                              [helper.make_tensor_value_info("q", et, shape),
                               helper.make_tensor_value_info("y", TensorProto.FLOAT, shape)],
                              [numpy_helper.from_array(scale, "s"), numpy_helper.from_array(zp, "zp")])
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 21)])
        m.ir_version = 10
        d = os.path.join(work, "blocked_%s_axis%d_%d_%d" % (npdt.__name__, axis, seed, case))
        os.makedirs(d, exist_ok=True)
        onnx.save(m, os.path.join(d, "model.onnx"))
        x.tofile(os.path.join(d, "in0.bin"))
        ref = [os.path.join(d, "ort_q.bin"), os.path.join(d, "ort_y.bin")]
        got = [os.path.join(d, "tinyaot_q.bin"), os.path.join(d, "tinyaot_y.bin")]
        r = subprocess.run([os.path.join(shared, "oracle", "tflite-oracle"), os.path.join(d, "model.onnx"),
                            os.path.join(d, "in0.bin")] + ref, capture_output=True, text=True)
        if r.returncode:
            print("not ok - ONNX Runtime runs %s: %s" % (d, (r.stderr or r.stdout).strip()[-200:]))
            failed += 1
            continue
        r = subprocess.run([os.path.join(build, "tinyaot"), "run", os.path.join(d, "model.onnx"),
                            "-i", os.path.join(d, "in0.bin"), "-o", got[0], "-o", got[1]],
                           capture_output=True, text=True)
        if r.returncode:
            print("not ok - tinyaot runs %s: %s" % (d, (r.stderr or r.stdout).strip()[-200:]))
            failed += 1
            continue
        a = b"".join(open(f, "rb").read() for f in ref)
        b = b"".join(open(f, "rb").read() for f in got)
        ok = a == b
        print("%s - blocked %s quantization (axis %d, blocks of %d) agrees with ONNX Runtime (%d bytes)" %
              ("ok" if ok else "not ok", npdt.__name__, axis, bs, len(a)))
        failed += not ok
sys.exit(1 if failed else 0)
