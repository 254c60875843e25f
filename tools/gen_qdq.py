#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""tools/gen_qdq.py OUTDIR [--seed N] [--count N] [--only OP[:dtype],...] [--list]

Writes seeded random QDQ ONNX models, the form ONNX Runtime's static
quantization and PyTorch's exporter produce: every integer op is its
float op between DequantizeLinear (activations, int8 weights, int32
biases) and QuantizeLinear nodes.  One folder per case under OUTDIR,
with model.onnx and in0.bin (raw little-endian, the model's NCHW
layout), and OUTDIR/cases.txt: one line "NAME OP DTYPE NIN OUTDTYPE".

Rows (OP:dtype, dtype = the activations' type): Conv, DepthwiseConv
(Conv with group = channels), Gemm, MatMul, each per tensor and per
channel (_pc) for int8 and per tensor for uint8; Conv:int8_relu6, a
Conv followed by Clip(0, 6) whose bounds are Constant nodes written
between the Conv and the Clip, as PyTorch exports ReLU6; Add and Mul (two
activations of one shape, sometimes with a Relu; _mixed: input 0 float,
quantized in the model, so that ONNX Runtime leaves the group in float32,
and scales searched so that its float arithmetic and the fused op's
round some of the 256 x 256 input pairs differently (mixed_tie_case()));
MaxPool, Transpose, Reshape and
Concat between a DequantizeLinear and a QuantizeLinear of one scale;
GlobalAveragePool (int8); and
Cnn, a small
multi-layer network with float input and output (Quantize, Conv + Relu,
depthwise Conv, Conv, Gemm, Dequantize).

The QOperator rows write each integer op as one node instead:
QLinearConv (int8 per tensor, per channel (_pc), depthwise (_dw);
uint8 with int8 weights, and with uint8 weights of a random zero point
(_u8w)), QLinearMatMul (constant b; int8, int8_pc, uint8), and ONNX
Runtime's com.microsoft QLinearAdd and QLinearMul (one shape, or
broadcast (_bc): a scalar, a per-channel [C, 1, 1] or [1, C, 1, 1], a
row or a column against a 4-D tensor, either way round) and
QLinearGlobalAveragePool (int8, uint8, int8 with channels_last (_cl)),
QLinearLeakyRelu (int8, uint8), QLinearConcat along the channels
(int8, uint8; inputs of other scales than the output's);
QLinearAdd _tie: a per-channel A against every value in B, with
scales searched so that the order of the fused multiply-adds
(add_tie_case()) changes some outputs - ONNX Runtime's order along a
span where one input is a single value is then the only one that gives
its bytes.

Weights are drawn from [-64, 63]: ONNX Runtime's x86 kernels without
VNNI sum pairs of uint8 x int8 products in 16 bits (VPMADDUBSW), which
saturates for larger weights; that is why its quantizer offers
reduce_range, and 7-bit weights keep the reference exact on any x86.
Only Debian's python3-onnx and python3-numpy are used.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 13

ROWS = [
    "Conv:int8", "Conv:int8_pc", "Conv:uint8",
    "DepthwiseConv:int8", "DepthwiseConv:int8_pc", "DepthwiseConv:uint8",
    "Gemm:int8", "Gemm:int8_pc", "Gemm:uint8",
    "MatMul:int8", "MatMul:int8_pc", "MatMul:uint8",
    "Add:int8", "Add:uint8", "Mul:int8", "Mul:uint8",
    "MaxPool:int8", "MaxPool:uint8", "Transpose:int8", "Reshape:uint8",
    "Concat:int8", "Concat:uint8", "GlobalAveragePool:int8",
    "Cnn:int8",
    "Conv:int8_relu6",
    # The QOperator form (one node per integer op; QLinearAdd, QLinearMul
    # and QLinearGlobalAveragePool from ONNX Runtime's com.microsoft
    # domain).  New rows go last: a case's seed follows its row's index.
    "QLinearConv:int8", "QLinearConv:int8_pc", "QLinearConv:uint8", "QLinearConv:uint8_u8w",
    "QLinearConv:int8_dw", "QLinearMatMul:int8", "QLinearMatMul:int8_pc",
    "QLinearMatMul:uint8", "QLinearAdd:int8", "QLinearAdd:uint8", "QLinearAdd:int8_bc",
    "QLinearAdd:uint8_bc", "QLinearMul:int8", "QLinearMul:uint8", "QLinearMul:int8_bc",
    "QLinearMul:uint8_bc", "QLinearGlobalAveragePool:int8", "QLinearGlobalAveragePool:uint8",
    "QLinearGlobalAveragePool:int8_cl", "QLinearAdd:int8_tie", "QLinearAdd:uint8_tie",
    "QLinearLeakyRelu:int8", "QLinearLeakyRelu:uint8", "QLinearConcat:int8",
    "QLinearConcat:uint8",
    "Add:int8_mixed", "Mul:int8_mixed",
]

NP = {"int8": np.int8, "uint8": np.uint8}
TP = {"int8": TensorProto.INT8, "uint8": TensorProto.UINT8}


class Builder:
    def __init__(self, rng, name):
        self.rng = rng
        self.nodes = []
        self.inits = []
        self.n = 0
        self.name = name

    def fresh(self, base):
        self.n += 1
        return "%s_%d" % (base, self.n)

    def const(self, base, arr):
        name = self.fresh(base)
        self.inits.append(numpy_helper.from_array(arr, name))
        return name

    def node(self, op, ins, nout=1, **attrs):
        outs = [self.fresh(op.lower()) for _ in range(nout)]
        self.nodes.append(helper.make_node(op, ins, outs, name=self.fresh(op), **attrs))
        return outs[0] if nout == 1 else outs

    def qparams(self, scale, zp, dt):
        return (self.const("scale", np.array(scale, dtype=np.float32)),
                self.const("zp", np.array(zp, dtype=NP[dt])))

    def dq(self, x, scale, zp, dt, axis=None):
        s, z = self.qparams(scale, zp, dt)
        if axis is None:
            return self.node("DequantizeLinear", [x, s, z])
        return self.node("DequantizeLinear", [x, s, z], axis=axis)

    def q(self, x, scale, zp, dt):
        s, z = self.qparams(scale, zp, dt)
        return self.node("QuantizeLinear", [x, s, z])


def act_q(rng, dt):
    """A random activation scale and zero point."""
    scale = float(np.float32(rng.uniform(0.005, 0.05)))
    zp = int(rng.integers(-20, 21)) if dt == "int8" else int(rng.integers(100, 156))
    return scale, zp


def weights(rng, shape):
    return rng.integers(-64, 64, size=shape).astype(np.int8)


def w_scales(rng, n, per_channel):
    if per_channel:
        return rng.uniform(0.002, 0.02, size=n).astype(np.float32)
    return np.float32(rng.uniform(0.002, 0.02))


def out_q(rng, dt, in_scale, w_scale_mean, taps, relu=False):
    """An output scale that keeps most results inside the range."""
    spread = in_scale * w_scale_mean * 64 * 40 * np.sqrt(taps) / 127.0
    scale = float(np.float32(spread * rng.uniform(0.5, 1.5)))
    lo = -128 if dt == "int8" else 0
    if relu:
        return scale, lo  # as ONNX Runtime's quantizer writes it: Relu folded
    zp = int(rng.integers(-10, 11)) + (0 if dt == "int8" else 128)
    return scale, zp


def conv_layer(b, x, cin, cout, k, dt, xq, per_channel, depthwise=False, stride=1, pad=0,
               relu=False):
    """DQ(x) -> Conv(DQ(w), DQ(bias)) [-> Relu] -> Q; returns (y, yq).
    relu "relu6": Clip(0, 6) with its bounds in Constant nodes after the
    Conv."""
    rng = b.rng
    group = cin if depthwise else 1
    wshape = (cout, 1 if depthwise else cin, k, k)
    w = weights(rng, wshape)
    ws = w_scales(rng, cout, per_channel)
    bs = (xq[0] * ws).astype(np.float32) if per_channel else np.float32(xq[0] * ws)
    bias = rng.integers(-3000, 3001, size=cout).astype(np.int32)
    xd = b.dq(x, xq[0], xq[1], dt)
    wz = np.zeros(cout, dtype=np.int8) if per_channel else np.int8(0)
    wname = b.const("w", w)
    ws_name = b.const("w_scale", ws)
    wz_name = b.const("w_zp", wz)
    if per_channel:
        wd = b.node("DequantizeLinear", [wname, ws_name, wz_name], axis=0)
    else:
        wd = b.node("DequantizeLinear", [wname, ws_name, wz_name])
    bname = b.const("b", bias)
    bs_name = b.const("b_scale", bs)
    bz_name = b.const("b_zp", np.zeros(cout, dtype=np.int32) if per_channel else np.int32(0))
    if per_channel:
        bd = b.node("DequantizeLinear", [bname, bs_name, bz_name], axis=0)
    else:
        bd = b.node("DequantizeLinear", [bname, bs_name, bz_name])
    y = b.node("Conv", [xd, wd, bd], kernel_shape=[k, k], strides=[stride, stride],
               pads=[pad] * 4, group=group)
    if relu == "relu6":
        lo, hi = (b.node("Constant", [], value=numpy_helper.from_array(np.array(v, np.float32)))
                  for v in (0.0, 6.0))
        y = b.node("Clip", [y, lo, hi])
    elif relu:
        y = b.node("Relu", [y])
    taps = k * k * (1 if depthwise else cin)
    yq = out_q(rng, dt, xq[0], float(np.mean(ws)), taps, relu)
    return b.q(y, yq[0], yq[1], dt), yq


def fc_layer(b, x, k, n, dt, xq, per_channel, gemm, rank=2):
    rng = b.rng
    w = weights(rng, (n, k) if gemm else (k, n))
    ws = w_scales(rng, n, per_channel)
    xd = b.dq(x, xq[0], xq[1], dt)
    wname = b.const("w", w)
    ws_name = b.const("w_scale", ws)
    wz_name = b.const("w_zp", np.zeros(n, dtype=np.int8) if per_channel else np.int8(0))
    axis = 0 if gemm else 1
    if per_channel:
        wd = b.node("DequantizeLinear", [wname, ws_name, wz_name], axis=axis)
    else:
        wd = b.node("DequantizeLinear", [wname, ws_name, wz_name])
    if gemm:
        bias = rng.integers(-3000, 3001, size=n).astype(np.int32)
        bs = (xq[0] * ws).astype(np.float32) if per_channel else np.float32(xq[0] * ws)
        bname = b.const("b", bias)
        bs_name = b.const("b_scale", bs)
        bz_name = b.const("b_zp", np.zeros(n, dtype=np.int32) if per_channel else np.int32(0))
        if per_channel:
            bd = b.node("DequantizeLinear", [bname, bs_name, bz_name], axis=0)
        else:
            bd = b.node("DequantizeLinear", [bname, bs_name, bz_name])
        y = b.node("Gemm", [xd, wd, bd], transB=1)
    else:
        y = b.node("MatMul", [xd, wd])
    yq = out_q(rng, dt, xq[0], float(np.mean(ws)), k)
    return b.q(y, yq[0], yq[1], dt), yq


def rand_act(rng, dt, shape):
    if dt == "int8":
        return rng.integers(-128, 128, size=shape).astype(np.int8)
    return rng.integers(0, 256, size=shape).astype(np.uint8)


def bcast_shapes(rng):
    """Two shapes that broadcast: one operand a scalar, a [C, 1, 1] or
    [1, C, 1, 1] per-channel tensor, a row, or a column, either way round."""
    n, c, h, w = 1, int(rng.integers(1, 7)), int(rng.integers(1, 7)), int(rng.integers(2, 9))
    full = [n, c, h, w]
    other = [[1], [], [c, 1, 1], [1, c, 1, 1], [w], [1, 1, h, 1], [h, w]][int(rng.integers(0, 7))]
    return (full, other) if rng.integers(0, 2) else (other, full)


def f32(v):
    return np.float32(v)


def fma32(x, y, z):
    """fmaf: x * y is exact in float64; the sum rounds there, then to float32."""
    return (np.float64(x) * np.float64(y) + np.float64(z)).astype(np.float32)


def add_tie_case(rng, dt):
    """QLinearAdd operands where the order of the two fused multiply-adds
    matters: along a span where input A is a single value s, ONNX
    Runtime swaps the operands and folds s into the fixed term first
    (for a single-valued B both orders are one).  Searches scales and
    zero points until some (B value, s) pairs round differently in the
    two orders, then returns (xq, x1q, yq, the [1, C, 1, 1] tensor A of
    the s values found, B [1, C, 16, 16] holding every value in each
    channel)."""
    lo, hi = (-128, 127) if dt == "int8" else (0, 255)
    v = np.arange(lo, hi + 1, dtype=np.float32)
    for _ in range(400):
        xq, x1q = act_q(rng, dt), act_q(rng, dt)
        yq = (float(f32(max(xq[0], x1q[0]) * rng.uniform(0.8, 2.0))),
              int(rng.integers(-10, 11)) + (0 if dt == "int8" else 128))
        r1, r2 = f32(f32(xq[0]) / f32(yq[0])), f32(f32(x1q[0]) / f32(yq[0]))
        fixed = f32(f32(yq[1]) - f32(f32(r1 * f32(xq[1])) + f32(r2 * f32(x1q[1]))))
        found = []
        for sv in rng.permutation(np.arange(lo, hi + 1)):
            sv = f32(sv)
            general = fma32(sv, r1, fma32(v, r2, fixed))
            swapped = fma32(v, r2, fma32(sv, r1, fixed))
            if np.any(np.clip(np.rint(general), lo, hi) != np.clip(np.rint(swapped), lo, hi)):
                found.append(int(sv))
                if len(found) == 4:
                    break
        if found:
            c = len(found)
            full = np.stack([rng.permutation(np.arange(lo, hi + 1)) for _ in range(c)])
            full = full.reshape(1, c, 16, 16).astype(NP[dt])
            return xq, x1q, yq, np.array(found, dtype=NP[dt]).reshape(1, c, 1, 1), full
    raise SystemExit("gen_qdq: no QLinearAdd rounding difference found")


def mixed_tie_case(rng, op):
    """Scales and zero points for an int8 Add or Mul group that ONNX
    Runtime computes in float32 (DequantizeLinear, the float op,
    QuantizeLinear) where that float arithmetic and QLinearAdd's or
    QLinearMul's (the fused group's) round some input pair differently:
    searched over every pair of input values.  Returns (xq, x1q, yq)."""
    v = np.arange(-128, 128, dtype=np.float32)
    a, c = v[:, None], v[None, :]
    for _ in range(400):
        xq, x1q = act_q(rng, "int8"), act_q(rng, "int8")
        big = max(xq[0], x1q[0]) if op == "Add" else xq[0] * x1q[0] * 60
        yq = (float(f32(big * rng.uniform(0.8, 2.0))), int(rng.integers(-10, 11)))
        fa = f32(a - f32(xq[1])) * f32(xq[0])
        fc = f32(c - f32(x1q[1])) * f32(x1q[0])
        fv = (fa * fc if op == "Mul" else fa + fc) / f32(yq[0])
        float_q = np.clip(np.rint(np.clip(fv, -128 - yq[1], 127 - yq[1])) + yq[1], -128, 127)
        if op == "Add":
            r1, r2 = f32(f32(xq[0]) / f32(yq[0])), f32(f32(x1q[0]) / f32(yq[0]))
            fixed = f32(f32(yq[1]) - fma32(r1, f32(xq[1]), f32(r2 * f32(x1q[1]))))
            t = fma32(a, r1, fma32(c, r2, fixed))
        else:
            ratio = f32(f32(f32(xq[0]) * f32(x1q[0])) / f32(yq[0]))
            prod = ((a - xq[1]) * (c - x1q[1])).astype(np.float32)
            t = f32(prod * ratio) + f32(yq[1])
        fused_q = np.clip(np.rint(t), -128, 127)
        if np.any(float_q != fused_q):
            return xq, x1q, yq
    raise SystemExit("gen_qdq: no %s float/fused rounding difference found" % op)


def make_qop(op, variant, seed):
    """(model, [inputs], output dtype) of one QOperator case."""
    rng = np.random.default_rng(seed)
    dt = "uint8" if variant.startswith("uint8") else "int8"
    pc = variant.endswith("_pc")
    b = Builder(rng, op)
    xq = act_q(rng, dt)
    domain = "com.microsoft" if op in ("QLinearAdd", "QLinearMul", "QLinearGlobalAveragePool",
                                       "QLinearLeakyRelu", "QLinearConcat") else ""
    s = lambda v: b.const("scale", np.array(v, dtype=np.float32))
    z = lambda v, t=dt: b.const("zp", np.array(v, dtype=NP[t]))
    shapes = []
    ins = []
    if op == "QLinearConv":
        dw = variant.endswith("_dw")
        cin = int(rng.integers(1, 9))
        cout = cin * int(rng.integers(1, 3)) if dw else int(rng.integers(1, 9))
        k = int(rng.choice([1, 3, 5]))
        h, w = int(rng.integers(k, 12)), int(rng.integers(k, 12))
        stride = int(rng.integers(1, 3))
        pad = int(rng.integers(0, k // 2 + 1))
        wshape = (cout, 1 if dw else cin, k, k)
        if variant.endswith("_u8w"):
            wzp = int(rng.integers(100, 156))
            wt = (weights(rng, wshape).astype(np.int32) + wzp).astype(np.uint8)
            wz = np.uint8(wzp)
        else:
            wt = weights(rng, wshape)
            wz = np.zeros(cout, dtype=np.int8) if pc else np.int8(0)
        ws = w_scales(rng, cout, pc)
        bias = rng.integers(-3000, 3001, size=cout).astype(np.int32)
        taps = k * k * (1 if dw else cin)
        yq = out_q(rng, dt, xq[0], float(np.mean(ws)), taps)
        shapes = [[1, cin, h, w]]
        oshape = [1, cout, (h + 2 * pad - k) // stride + 1, (w + 2 * pad - k) // stride + 1]
        b.nodes.append(helper.make_node(
            "QLinearConv", ["x", s(xq[0]), z(xq[1]), b.const("w", wt), b.const("w_scale", ws),
                            b.const("w_zp", wz), s(yq[0]), z(yq[1]), b.const("b", bias)],
            ["y"], kernel_shape=[k, k], strides=[stride, stride], pads=[pad] * 4,
            group=cin if dw else 1))
    elif op == "QLinearMatMul":
        k, n = int(rng.integers(1, 40)), int(rng.integers(1, 20))
        m = int(rng.integers(1, 4))
        shape = [m, k] if rng.integers(0, 2) else [2, m, k]
        wt = weights(rng, (k, n))
        ws = w_scales(rng, n, pc)
        wz = np.zeros(n, dtype=np.int8) if pc else np.int8(0)
        yq = out_q(rng, dt, xq[0], float(np.mean(ws)), k)
        shapes = [shape]
        oshape = shape[:-1] + [n]
        b.nodes.append(helper.make_node(
            "QLinearMatMul", ["x", s(xq[0]), z(xq[1]), b.const("w", wt), b.const("w_scale", ws),
                              b.const("w_zp", wz), s(yq[0]), z(yq[1])], ["y"]))
    elif op == "QLinearAdd" and variant.endswith("_tie"):
        xq, x1q, yq, one, full = add_tie_case(rng, dt)
        ins = [one, full]
        shapes = [list(a.shape) for a in ins]
        oshape = list(full.shape)
        b.nodes.append(helper.make_node(
            op, ["x", s(xq[0]), z(xq[1]), "x1", s(x1q[0]), z(x1q[1]), s(yq[0]), z(yq[1])],
            ["y"], domain=domain))
    elif op in ("QLinearAdd", "QLinearMul"):
        if variant.endswith("_bc"):
            sa, sb = bcast_shapes(rng)
        else:
            sa = [1, int(rng.integers(1, 9)), int(rng.integers(1, 9)), int(rng.integers(1, 9))]
            if rng.integers(0, 2):
                sa = [int(rng.integers(1, 5)), int(rng.integers(1, 40))]
            sb = sa
        x1q = act_q(rng, dt)
        big = max(xq[0], x1q[0]) if op == "QLinearAdd" else xq[0] * x1q[0] * 60
        yq = (float(np.float32(big * rng.uniform(0.8, 2.0))),
              int(rng.integers(-10, 11)) + (0 if dt == "int8" else 128))
        shapes = [sa, sb]
        oshape = list(np.broadcast_shapes(tuple(sa), tuple(sb)))
        b.nodes.append(helper.make_node(
            op, ["x", s(xq[0]), z(xq[1]), "x1", s(x1q[0]), z(x1q[1]), s(yq[0]), z(yq[1])],
            ["y"], domain=domain))
    elif op == "QLinearGlobalAveragePool":
        cl = variant.endswith("_cl")
        c, h, w = int(rng.integers(1, 9)), int(rng.integers(1, 12)), int(rng.integers(1, 12))
        shapes = [[1, h, w, c] if cl else [1, c, h, w]]
        oshape = [1, 1, 1, c] if cl else [1, c, 1, 1]
        yq = (float(np.float32(xq[0] * rng.uniform(0.3, 1.2))),
              int(rng.integers(-10, 11)) + (0 if dt == "int8" else 128))
        b.nodes.append(helper.make_node(
            op, ["x", s(xq[0]), z(xq[1]), s(yq[0]), z(yq[1])], ["y"], domain=domain,
            channels_last=1 if cl else 0))
    elif op == "QLinearLeakyRelu":
        shapes = [[1, int(rng.integers(1, 9)), int(rng.integers(1, 9)), int(rng.integers(1, 9))]]
        oshape = shapes[0]
        yq = (float(f32(xq[0] * rng.uniform(0.3, 1.2))),
              int(rng.integers(-10, 11)) + (0 if dt == "int8" else 128))
        b.nodes.append(helper.make_node(
            op, ["x", s(xq[0]), z(xq[1]), s(yq[0]), z(yq[1])], ["y"], domain=domain,
            alpha=float(f32(rng.uniform(0.01, 0.3)))))
    elif op == "QLinearConcat":
        c, h, w = int(rng.integers(1, 5)), int(rng.integers(1, 8)), int(rng.integers(1, 8))
        c1 = int(rng.integers(1, 5))
        shapes = [[1, c, h, w], [1, c1, h, w]]
        oshape = [1, c + c1, h, w]
        x1q = act_q(rng, dt) if rng.integers(0, 4) else xq  # sometimes one copies
        yq = act_q(rng, dt)
        b.nodes.append(helper.make_node(
            op, [s(yq[0]), z(yq[1]), "x", s(xq[0]), z(xq[1]), "x1", s(x1q[0]), z(x1q[1])],
            ["y"], domain=domain, axis=1))
    else:
        raise SystemExit("gen_qdq: unknown op %s" % op)
    names = ["x", "x1"]
    inputs = [helper.make_tensor_value_info(names[i], TP[dt], sh) for i, sh in enumerate(shapes)]
    graph = helper.make_graph(
        b.nodes, "qop_" + op, inputs, [helper.make_tensor_value_info("y", TP[dt], oshape)],
        b.inits)
    opsets = [helper.make_opsetid("", OPSET)]
    if domain:
        opsets.append(helper.make_opsetid(domain, 1))
    model = helper.make_model(graph, opset_imports=opsets, producer_name="tinyaot gen_qdq")
    model.ir_version = 7
    if not ins:
        ins = [rand_act(rng, dt, sh) for sh in shapes]
    return model, ins, dt


def make_case(op, variant, seed):
    """(model, [inputs], output dtype) of one case."""
    if op.startswith("QLinear"):
        return make_qop(op, variant, seed)
    rng = np.random.default_rng(seed)
    dt = "uint8" if variant.startswith("uint8") else "int8"
    pc = variant.endswith("_pc")
    b = Builder(rng, op)
    xq = act_q(rng, dt)
    if op in ("Conv", "DepthwiseConv"):
        dw = op == "DepthwiseConv"
        cin = int(rng.integers(1, 9))
        cout = cin * int(rng.integers(1, 3)) if dw else int(rng.integers(1, 9))
        k = int(rng.choice([1, 3, 5]))
        h, w = int(rng.integers(k, 12)), int(rng.integers(k, 12))
        stride = int(rng.integers(1, 3))
        pad = int(rng.integers(0, k // 2 + 1))
        relu = "relu6" if variant.endswith("relu6") else bool(rng.integers(0, 2))
        shape = [1, cin, h, w]
        oshape = [1, cout, (h + 2 * pad - k) // stride + 1, (w + 2 * pad - k) // stride + 1]
        y, _ = conv_layer(b, "x", cin, cout, k, dt, xq, pc, dw, stride, pad, relu)
    elif op in ("Gemm", "MatMul"):
        k, n = int(rng.integers(1, 40)), int(rng.integers(1, 20))
        m = int(rng.integers(1, 4))
        shape = [m, k] if op == "Gemm" or rng.integers(0, 2) else [2, m, k]
        oshape = shape[:-1] + [n]
        y, _ = fc_layer(b, "x", k, n, dt, xq, pc, op == "Gemm")
    elif op in ("Add", "Mul"):
        shape = [1, int(rng.integers(1, 9)), int(rng.integers(1, 9)), int(rng.integers(1, 9))]
        if rng.integers(0, 2):
            shape = [int(rng.integers(1, 5)), int(rng.integers(1, 40))]
        mixed = variant.endswith("_mixed")
        x1q = act_q(rng, dt)
        if mixed:
            # Every pair of input values, at scales where the float group
            # and the fused op's arithmetic round some pair differently.
            xq, x1q, yq_mixed = mixed_tie_case(rng, op)
            shape = [1, 1, 256, 256]
        oshape = shape
        # _mixed: x is float and quantized in the model (a QuantizeLinear
        # ONNX Runtime turns into uint8), x1 an int8 input (left int8), so
        # ONNX Runtime computes the group in float32.
        a = b.dq(b.q("x", xq[0], xq[1], dt) if mixed else "x", xq[0], xq[1], dt)
        c = b.dq("x1", x1q[0], x1q[1], dt)
        y = b.node(op, [a, c])
        relu = bool(rng.integers(0, 2)) and not mixed
        if relu:
            y = b.node("Relu", [y])
        big = max(xq[0], x1q[0]) if op == "Add" else xq[0] * x1q[0] * 60
        yq = (float(np.float32(big * rng.uniform(0.8, 2.0))),
              (-128 if dt == "int8" else 0) if relu else int(rng.integers(-10, 11)) +
              (0 if dt == "int8" else 128))
        if mixed:
            yq = yq_mixed
        y = b.q(y, yq[0], yq[1], dt)
        extra = [rand_act(rng, dt, shape)]
        if mixed:
            extra = [np.tile(np.arange(-128, 128, dtype=np.int8), (256, 1)).reshape(shape)]
    elif op in ("MaxPool", "Transpose", "Reshape", "Concat"):
        c, h, w = int(rng.integers(1, 7)), int(rng.integers(2, 10)), int(rng.integers(2, 10))
        shape = [1, c, h, w]
        xd = b.dq("x", xq[0], xq[1], dt)
        extra = []
        if op == "MaxPool":
            k = int(rng.integers(1, 4))
            k = min(k, h, w)
            s_ = int(rng.integers(1, 3))
            p_ = int(rng.integers(0, 2)) if k > 1 else 0
            y = b.node("MaxPool", [xd], kernel_shape=[k, k], strides=[s_, s_], pads=[p_] * 4)
            oshape = [1, c, (h + 2 * p_ - k) // s_ + 1, (w + 2 * p_ - k) // s_ + 1]
        elif op == "Transpose":
            perm = [int(v) for v in rng.permutation(4)]
            y = b.node("Transpose", [xd], perm=perm)
            oshape = [shape[v] for v in perm]
        elif op == "Reshape":
            oshape = [1, c * h, w]
            y = b.node("Reshape", [xd, b.const("shape", np.array(oshape, dtype=np.int64))])
        else:
            c1 = int(rng.integers(1, 5))
            extra = [rand_act(rng, dt, [1, c1, h, w])]
            x1d = b.dq("x1", xq[0], xq[1], dt)
            y = b.node("Concat", [xd, x1d], axis=1)
            oshape = [1, c + c1, h, w]
            shape1 = [1, c1, h, w]
        y = b.q(y, xq[0], xq[1], dt)
    elif op == "GlobalAveragePool":
        c, h, w = int(rng.integers(1, 9)), int(rng.integers(1, 12)), int(rng.integers(1, 12))
        shape, oshape = [1, c, h, w], [1, c, 1, 1]
        y = b.node("GlobalAveragePool", [b.dq("x", xq[0], xq[1], dt)])
        yq = (float(np.float32(xq[0] * rng.uniform(0.3, 1.2))), int(rng.integers(-10, 11)))
        y = b.q(y, yq[0], yq[1], dt)
    elif op == "Cnn":
        return make_cnn(rng)
    else:
        raise SystemExit("gen_qdq: unknown op %s" % op)
    b.nodes[-1].output[0] = "y"
    x_float = op in ("Add", "Mul") and variant.endswith("_mixed")
    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT if x_float else TP[dt], shape)]
    if op in ("Add", "Mul"):
        inputs.append(helper.make_tensor_value_info("x1", TP[dt], shape))
    if op == "Concat":
        inputs.append(helper.make_tensor_value_info("x1", TP[dt], shape1))
    graph = helper.make_graph(
        b.nodes, "qdq_" + op, inputs,
        [helper.make_tensor_value_info("y", TP[dt], oshape)], b.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)],
                              producer_name="tinyaot gen_qdq")
    model.ir_version = 7
    ins = [rand_act(rng, dt, shape)]
    if x_float:
        # Each value of input 0 once per row, as the float its quantization
        # gives back: (q - zp) * scale.
        q0 = np.repeat(np.arange(-128, 128, dtype=np.float32), 256).reshape(shape)
        ins = [((q0 - np.float32(xq[1])) * np.float32(xq[0])).astype(np.float32)]
    if op in ("Add", "Mul", "Concat"):
        ins += extra
    return model, ins, dt


def make_cnn(rng):
    """float [1, 3, 12, 12] -> Q -> Conv 3x3 + Relu -> depthwise 3x3 s2 + Relu ->
    Conv 1x1 -> Flatten -> Gemm -> DQ -> float [1, 10]."""
    dt = "int8"
    b = Builder(rng, "cnn")
    xq = (float(np.float32(1 / 64)), 0)
    x = b.q("x", xq[0], xq[1], dt)
    y, yq = conv_layer(b, x, 3, 8, 3, dt, xq, True, pad=1, relu=True)
    y, yq = conv_layer(b, y, 8, 8, 3, dt, yq, True, depthwise=True, stride=2, pad=1,
                       relu=True)
    y, yq = conv_layer(b, y, 8, 6, 1, dt, yq, False)
    yd = b.dq(y, yq[0], yq[1], dt)
    f = b.node("Flatten", [yd], axis=1)
    f = b.q(f, yq[0], yq[1], dt)
    y, yq = fc_layer(b, f, 6 * 6 * 6, 10, dt, yq, True, True)
    out = b.dq(y, yq[0], yq[1], dt)
    b.nodes[-1].output[0] = "y"
    del out
    graph = helper.make_graph(
        b.nodes, "qdq_cnn",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 12, 12])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 10])], b.inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)],
                              producer_name="tinyaot gen_qdq")
    model.ir_version = 7
    inp = rng.uniform(-2, 2, size=(1, 3, 12, 12)).astype(np.float32)
    return model, [inp], "float32"


def main(argv):
    out, seed, count, only = None, 1, 5, None
    it = iter(argv)
    for a in it:
        if a == "--seed":
            seed = int(next(it))
        elif a == "--count":
            count = int(next(it))
        elif a == "--only":
            only = next(it).replace(",", " ").split()
        elif a == "--list":
            print("\n".join(ROWS))
            return 0
        else:
            out = a
    if not out:
        sys.stderr.write(__doc__)
        return 2
    os.makedirs(out, exist_ok=True)
    lines = []
    for row in ROWS:
        op, variant = row.split(":")
        if only and row not in only and op not in only:
            continue
        for c in range(count if op != "Cnn" else max(1, count // 5)):
            name = "%s_%s_%d" % (op, variant, c)
            case_seed = seed * 1000003 + ROWS.index(row) * 1009 + c
            model, ins, odt = make_case(op, variant, case_seed)
            if not op.startswith("QLinear"):
                onnx.checker.check_model(model)  # it knows no com.microsoft node
            d = os.path.join(out, name)
            os.makedirs(d, exist_ok=True)
            onnx.save(model, os.path.join(d, "model.onnx"))
            for i, arr in enumerate(ins):
                arr.tofile(os.path.join(d, "in%d.bin" % i))
            lines.append("%s %s %s %d %s" % (name, op, variant, len(ins), odt))
    with open(os.path.join(out, "cases.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
