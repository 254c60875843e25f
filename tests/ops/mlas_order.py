#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""tests/ops/mlas_order.py --home ORACLE_HOME --work DIR

The float summation orders that ta_conv2d_ort_f32_s8
(runtime/conv/ta_conv2d_ort_f32_s8.c) follows for the QDQ groups ONNX
Runtime leaves in float32, checked bit for bit against ONNX Runtime's own
float kernels on random float models: a MatMul of one row (MLAS's
one-row kernel, products four at a time), a Gemm of one row with transB
(the transposed one-row kernel: eight lanes, reduced per block of four,
two and one rows), MatMul of several rows with K above and below MLAS's
slice (fused multiply-adds per K slice of mlas_stride_k()), a 3x3 Conv
(im2col order, K slices, the bias last) and a 3x3 depthwise Conv (one
filter per group: the one-row kernel).  The orders are written
here again in numpy, float32 step by step, as the kernel's comment states
them; the naive sequential order is checked to differ, so the check can
fail.  Prints "ok - ..." / "not ok - ..." lines; exit status 1 on a
failure.
"""
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

f = np.float32


def fma(x, y, z):
    # x * y is exact in float64; the sum rounds once there, then to float32
    # (a double rounding that differs from fmaf only in rare ties).
    return f(np.float64(x) * np.float64(y) + np.float64(z))


def stride_k(n, k):
    sn, sk = 128, 128
    if n >= k:
        while sk // 2 >= k:
            sn, sk = sn * 2, sk // 2
    else:
        while sn > 16 and sn // 2 >= n:
            sk, sn = sk * 2, sn // 2
    return sk


def m1(prods, c):
    """The one-row kernel over one slice: four products at a time."""
    k = 0
    while len(prods) - k >= 4:
        s = f(f(f(prods[k] + prods[k + 1]) + prods[k + 2]) + prods[k + 3])
        c, k = f(s + c), k + 4
    if len(prods) - k >= 2:
        c, k = f(f(prods[k] + prods[k + 1]) + c), k + 2
    if k < len(prods):
        c = f(prods[k] + c)
    return c


def m1t(prods, row, rows):
    """The transposed one-row kernel: eight lanes, reduced per block."""
    a = [f(0)] * 8
    for k, p in enumerate(prods):
        a[k % 8] = f(a[k % 8] + p)
    four = rows - rows % 4
    if row < four:
        return f(f(f(f(a[0] + a[1]) + a[2]) + a[3]) + f(f(f(a[4] + a[5]) + a[6]) + a[7]))
    if rows % 4 >= 2 and row < four + 2:
        return f(f(f(a[0] + a[2]) + f(a[4] + a[6])) + f(f(a[1] + a[3]) + f(a[5] + a[7])))
    return f(f(f(a[0] + a[1]) + f(a[2] + a[3])) + f(f(a[4] + a[5]) + f(a[6] + a[7])))


def sliced(w, x, n_cols):
    """The SGEMM kernel: per K slice fused multiply-adds from 0, added in turn."""
    sk, c = stride_k(n_cols, len(w)), f(0)
    for k0 in range(0, len(w), sk):
        s = f(0)
        for k in range(k0, min(len(w), k0 + sk)):
            s = fma(w[k], x[k], s)
        c = f(c + s)
    return c


def conv3x3_case(rng, work, name, C, H, W, O, depthwise):
    """A 3x3 Conv with padding 1 of C channels (O filters, or one per
    channel when depthwise) on H x W: (name, path, inputs, MLAS's result,
    a plain sum's)."""
    x = rng.standard_normal((1, C, H, W)).astype(np.float32)
    w = rng.standard_normal((O, 1 if depthwise else C, 3, 3)).astype(np.float32)
    bias = rng.standard_normal(O).astype(np.float32)
    path = os.path.join(work, name + ".onnx")
    model(path, [helper.make_node("Conv", ["x", "w", "b"], ["y"], kernel_shape=[3, 3], pads=[1, 1, 1, 1],
                                  group=C if depthwise else 1)],
          [vi("x", [1, C, H, W]), vi("w", list(w.shape))], [vi("y", [1, O, H, W])],
          [numpy_helper.from_array(bias, "b")])
    xp = np.pad(x[0], ((0, 0), (1, 1), (1, 1)))
    want = np.zeros((1, O, H, W), np.float32)
    naive = np.zeros((1, O, H, W), np.float32)
    for o in range(O):
        wk = w[o].reshape(-1)
        for i in range(H):
            for j in range(W):
                col = xp[o:o + 1] if depthwise else xp
                col = col[:, i:i + 3, j:j + 3].reshape(-1)
                s = m1([f(wk[k] * col[k]) for k in range(9)], f(0)) if depthwise else \
                    sliced(wk, col, H * W)
                want[0, o, i, j] = f(s + bias[o])
                naive[0, o, i, j] = f(np.float32(np.dot(wk.astype(np.float64), col)) + bias[o])
    return name, path, [x, w], want, naive


def model(path, nodes, inputs, outputs, inits):
    g = helper.make_graph(nodes, "mlas", inputs, outputs, inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 7
    onnx.save(m, path)


def vi(name, shape):
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)


def main(argv):
    home, work = argv[argv.index("--home") + 1], argv[argv.index("--work") + 1]
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    rng = np.random.default_rng(11)
    cases = []
    # MatMul: one row (M1), several rows with K sliced (N >= K) and not.
    for name, M, K, N in (("matmul_1x37x6", 1, 37, 6), ("matmul_2x300x400", 2, 300, 400),
                          ("matmul_3x300x5", 3, 300, 5)):
        a = rng.standard_normal((M, K)).astype(np.float32)
        b = rng.standard_normal((K, N)).astype(np.float32)
        path = os.path.join(work, name + ".onnx")
        model(path, [helper.make_node("MatMul", ["a", "b"], ["y"])], [vi("a", [M, K]), vi("b", [K, N])],
              [vi("y", [M, N])], [])
        want = np.zeros((M, N), np.float32)
        naive = np.zeros((M, N), np.float32)
        for r in range(M):
            for n in range(N):
                prods = [f(a[r, k] * b[k, n]) for k in range(K)]
                want[r, n] = m1(prods, f(0)) if M == 1 else sliced(a[r], b[:, n], N)
                naive[r, n] = np.float32(sum(np.float64(p) for p in prods))
        cases.append((name, path, [a, b], want, naive))
    # Gemm, one row, transB: the transposed one-row kernel, then + C.
    K, N = 37, 7
    a = rng.standard_normal((1, K)).astype(np.float32)
    b = rng.standard_normal((N, K)).astype(np.float32)
    c = rng.standard_normal(N).astype(np.float32)
    path = os.path.join(work, "gemm_1x37x7_tb.onnx")
    model(path, [helper.make_node("Gemm", ["a", "b", "c"], ["y"], transB=1)], [vi("a", [1, K]), vi("b", [N, K])],
          [vi("y", [1, N])], [numpy_helper.from_array(c, "c")])
    want = np.array([[f(m1t([f(a[0, k] * b[n, k]) for k in range(K)], n, N) + c[n]) for n in range(N)]],
                    np.float32)
    naive = np.array([[f(np.float32(sum(np.float64(a[0, k]) * b[n, k] for k in range(K))) + c[n])
                       for n in range(N)]], np.float32)
    cases.append(("gemm_1x37x7_tb", path, [a, b], want, naive))
    # Conv 3x3, pad 1: K = C*9 = 288 taps over 8 x 8 = 64 pixels, sliced;
    # depthwise 3x3 (group = channels): one filter per group, the one-row
    # kernel over its 9 taps.
    cases.append(conv3x3_case(rng, work, "conv_32x8x8_3x3", 32, 8, 8, 3, False))
    cases.append(conv3x3_case(rng, work, "depthwise_4x6x7_3x3", 4, 6, 7, 4, True))

    failed = 0
    for name, path, ins, want, naive in cases:
        files = []
        for i, arr in enumerate(ins):
            files.append(os.path.join(work, "%s_in%d.bin" % (name, i)))
            arr.tofile(files[-1])
        out = os.path.join(work, name + "_out")
        os.makedirs(out, exist_ok=True)
        p = subprocess.run(["node", os.path.join(root, "tools", "ort_tensors.mjs"), "--home", home, "--run",
                            path, out] + files, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if p.returncode:
            print("not ok - ONNX Runtime runs %s: %s" % (name, p.stdout.decode(errors="replace").strip()[-200:]))
            failed += 1
            continue
        got = np.fromfile(os.path.join(out, "0.bin"), dtype=np.float32).reshape(want.shape)
        same = int((got.view(np.uint32) == want.view(np.uint32)).sum())
        naive_same = int((got.view(np.uint32) == naive.view(np.uint32)).sum())
        if same == want.size and naive_same < want.size:
            print("ok - %s: MLAS's order gives ONNX Runtime's float bits on all %d outputs "
                  "(a plain sum on %d)" % (name, want.size, naive_same))
        else:
            print("not ok - %s: MLAS's order gives ONNX Runtime's float bits on %d of %d outputs "
                  "(a plain sum on %d)" % (name, same, want.size, naive_same))
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
