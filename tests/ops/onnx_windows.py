#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""tests/ops/onnx_windows.py - seeded random float32 grouped Conv, 1-D to
3-D MaxPool / AveragePool (dilations, pads, ceil_mode, count_include_pad)
and grouped / dilated ConvTranspose models, run by ONNX Runtime (the
oracle, SHARED/oracle) and by `tinyaot run`; outputs must agree within
1e-4 of the reference's largest magnitude.  Also 2-D MaxPool of int8 and
uint8 (pads, strides, ceil_mode; values near the type's minimum, so that a
wrong padding value shows), which must be the same bytes.  Usage: onnx_windows.py BUILD
SHARED WORK [SEED] [COUNT]."""
import os, subprocess, sys
import numpy as np
import onnx
from onnx import helper, TensorProto, numpy_helper

build, shared, work = sys.argv[1:4]
seed = int(sys.argv[4]) if len(sys.argv) > 4 else 1
count = int(sys.argv[5]) if len(sys.argv) > 5 else 2
rng = np.random.default_rng(seed)

def model(node, x, inits, yshape_rank, et=TensorProto.FLOAT):
    g = helper.make_graph([node], "g",
        [helper.make_tensor_value_info("x", et, list(x.shape))],
        [helper.make_tensor_value_info("y", et, None)],
        [numpy_helper.from_array(v, k) for k, v in inits.items()])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 19)])

def grouped_conv():
    g = int(rng.integers(2, 4)); ci = g * int(rng.integers(1, 4)); co = g * int(rng.integers(1, 3))
    k = [int(rng.integers(1, 4)), int(rng.integers(1, 4))]
    x = rng.standard_normal((1, ci, int(rng.integers(5, 9)), int(rng.integers(5, 9)))).astype(np.float32)
    w = rng.standard_normal((co, ci // g) + tuple(k)).astype(np.float32)
    b = rng.standard_normal(co).astype(np.float32)
    n = helper.make_node("Conv", ["x", "w", "b"], ["y"], group=g, strides=[int(rng.integers(1, 3))] * 2,
                         pads=[int(rng.integers(0, k[0])), int(rng.integers(0, k[1]))] * 2)
    return "Conv_group%d" % g, model(n, x, {"w": w, "b": b}, 4), x

def pool():
    nsp = int(rng.integers(1, 4)); mx = bool(rng.integers(0, 2))
    k = [int(rng.integers(1, 4)) for _ in range(nsp)]
    d = [int(rng.integers(1, 3)) for _ in range(nsp)]
    p = [int(rng.integers(0, kk)) for kk in k] * 2
    x = rng.standard_normal((1, 2) + tuple(int(rng.integers(6, 9)) for _ in range(nsp))).astype(np.float32)
    attrs = dict(kernel_shape=k, pads=p, strides=[int(rng.integers(1, 3)) for _ in range(nsp)],
                 ceil_mode=int(rng.integers(0, 2)), dilations=d)
    if not mx:
        attrs["count_include_pad"] = int(rng.integers(0, 2))
    n = helper.make_node("MaxPool" if mx else "AveragePool", ["x"], ["y"], **attrs)
    return "%s_%dd" % ("MaxPool" if mx else "AveragePool", nsp), model(n, x, {}, nsp + 2), x

def int_maxpool():
    u8 = bool(rng.integers(0, 2))
    k = [int(rng.integers(2, 4)), int(rng.integers(1, 4))]  # the top row always padded
    lo = 0 if u8 else -128
    x = rng.integers(lo, lo + 40, (1, int(rng.integers(1, 4)), int(rng.integers(5, 9)),
                                   int(rng.integers(5, 9)))).astype(np.uint8 if u8 else np.int8)
    n = helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=k,
                         pads=[1, int(rng.integers(0, k[1]))] * 2,
                         strides=[int(rng.integers(1, 3)) for _ in k], ceil_mode=int(rng.integers(0, 2)))
    et = TensorProto.UINT8 if u8 else TensorProto.INT8
    return "MaxPool_2d_%s" % ("uint8" if u8 else "int8"), model(n, x, {}, 4, et), x

def conv_transpose():
    nsp = int(rng.integers(1, 4)); g = int(rng.integers(1, 3))
    ci = g * int(rng.integers(1, 3)); cog = int(rng.integers(1, 3))
    k = [int(rng.integers(1, 4)) for _ in range(nsp)]
    s = [int(rng.integers(1, 3)) for _ in range(nsp)]
    x = rng.standard_normal((1, ci) + tuple(int(rng.integers(2, 5)) for _ in range(nsp))).astype(np.float32)
    w = rng.standard_normal((ci, cog) + tuple(k)).astype(np.float32)
    b = rng.standard_normal(cog * g).astype(np.float32)
    n = helper.make_node("ConvTranspose", ["x", "w", "b"], ["y"], group=g, strides=s,
                         dilations=[int(rng.integers(1, 3)) for _ in range(nsp)],
                         pads=[int(rng.integers(0, kk)) for kk in k] * 2)
    return "ConvTranspose_%dd_group%d" % (nsp, g), model(n, x, {"w": w, "b": b}, nsp + 2), x

failed = 0
for case in range(count):
    for make in (grouped_conv, pool, conv_transpose, int_maxpool):
        name, m, x = make()
        d = os.path.join(work, "%s_%d_%d" % (name, seed, case))
        os.makedirs(d, exist_ok=True)
        onnx.save(m, os.path.join(d, "model.onnx"))
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
        a, b = np.fromfile(ref, dtype=x.dtype), np.fromfile(got, dtype=x.dtype)
        tol = 1e-4 * max(1.0, float(np.abs(a).max()) if a.size else 1.0) \
            if x.dtype == np.float32 else 0
        if a.shape != b.shape or not np.all(np.abs(a - b) <= tol):
            i = int(np.argmax(np.abs(a - b))) if a.shape == b.shape else -1
            print("not ok - tinyaot agrees with ONNX Runtime on %s: %s" % (d,
                  "sizes %d and %d" % (a.size, b.size) if i < 0 else
                  "index %d expected %r got %r" % (i, float(a[i]), float(b[i]))))
            failed += 1
        else:
            print("ok - tinyaot agrees with ONNX Runtime on %s (%d values)" % (name, a.size))
sys.exit(1 if failed else 0)
