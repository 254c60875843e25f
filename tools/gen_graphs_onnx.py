#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""tools/gen_graphs_onnx.py OUTDIR [--seed S] [--count N] [--nodes N] [--max-dim D]
                              [--kind float|qdq]

Writes seeded random valid ONNX graphs (opset 13) for the miscompile
hunter (tests/graphs/run_graphs_onnx.py): DAGs of 2 to 40 nodes built
from what the ONNX front end imports (doc/ir.md, doc/operators.md).
Graph i is drawn from the seed S + i alone, so any one graph can be
drawn again with --seed S+i --count 1.

Two kinds, every third graph QDQ:
  float  Conv (grouped and depthwise too), Gemm, MatMul, MaxPool,
         AveragePool, the global pools, BatchNormalization, Relu,
         LeakyRelu, Sigmoid, Tanh, Clip, HardSigmoid, Softmax, Add, Sub,
         Mul, Max, Min (residual, with a broadcast constant), Concat,
         Split, and the views Reshape, Transpose, Flatten, Squeeze,
         Unsqueeze; one or two float inputs.
  qdq    int8 or uint8 graphs as ONNX Runtime's static quantization
         writes them: Conv (per tensor; int8 also per channel), Gemm,
         MatMul, Add and Mul (folding a Relu), MaxPool, GlobalAveragePool
         (int8), Concat, Reshape, Transpose, Flatten, Squeeze and
         Unsqueeze between DequantizeLinear and QuantizeLinear nodes, a
         DequantizeLinear of their own for every consumer; integer
         inputs, or a float input and a QuantizeLinear; integer outputs,
         sometimes through a final DequantizeLinear.

Every value nothing consumes is a graph output (and now and then a
consumed one too), so a graph has one to several outputs.  Weights are
scaled by 1 / sqrt(fan-in) (float) or drawn from [-64, 63] (QDQ: see
tools/gen_qdq.py on ONNX Runtime's 16-bit pair sums).

--nodes N: stop at N nodes (default: a random count from 2 to 40);
--max-dim D: spatial sizes and features up to D (default 8).

One folder per graph under OUTDIR: model.onnx, in0.bin ... (raw
little-endian, the model's own layout), graph.txt (the nodes); and
OUTDIR/manifest.txt, one line per graph:
  NAME KIND NIN NOUT OUTDTYPES NNODES
(OUTDTYPES: comma-separated f32, s8, u8).  Only Debian's python3-onnx
and python3-numpy are used.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 13
NP = {"int8": np.int8, "uint8": np.uint8}
TP = {"float": TensorProto.FLOAT, "int8": TensorProto.INT8, "uint8": TensorProto.UINT8}
SHORT = {"float": "f32", "int8": "s8", "uint8": "u8"}


class Val:
    """A value of the graph: its shape and type, and (QDQ) its
    quantization."""

    def __init__(self, name, shape, dt="float", q=None):
        self.name = name
        self.shape = list(shape)
        self.dt = dt
        self.q = q  # (scale, zero point) of an integer value
        self.uses = 0


class Gen:
    def __init__(self, seed, nodes, max_dim, kind):
        self.rng = np.random.default_rng(seed)
        self.seed = seed
        rng = self.rng
        self.target = nodes if nodes else int(rng.integers(2, 41))
        self.max_dim = max_dim
        self.kind = kind if kind else ("qdq" if seed % 3 == 2 else "float")
        self.dt = "int8" if rng.random() < 0.6 else "uint8"
        self.nodes = []
        self.inits = []
        self.inputs = []  # (Val, data)
        self.vals = []
        self.n = 0

    # ---- plumbing
    def fresh(self, base):
        self.n += 1
        return "%s_%d" % (base, self.n)

    def const(self, base, arr):
        name = self.fresh(base)
        self.inits.append(numpy_helper.from_array(np.asarray(arr), name))
        return name

    def node(self, op, ins, nout=1, **attrs):
        outs = [self.fresh(op.lower()) for _ in range(nout)]
        self.nodes.append(helper.make_node(op, ins, outs, name=self.fresh(op), **attrs))
        return outs[0] if nout == 1 else outs

    def use(self, v):
        v.uses += 1
        return v.name

    def add_val(self, name, shape, dt="float", q=None):
        v = Val(name, shape, dt, q)
        self.vals.append(v)
        return v

    def pick(self, pred=None):
        """A value, the recent ones likelier."""
        c = [v for v in self.vals if pred is None or pred(v)]
        if not c:
            return None
        if self.rng.random() < 0.75:
            unused = [v for v in c if v.uses == 0]
            return unused[-1] if unused else c[-1]
        w = np.array([1.0 + 3.0 * (i >= len(c) - 3) for i in range(len(c))])
        return c[int(self.rng.choice(len(c), p=w / w.sum()))]

    def dim(self, lo=1):
        return int(self.rng.integers(lo, self.max_dim + 1))

    def new_input(self, shape=None):
        rng = self.rng
        if shape is None:
            if rng.random() < 0.7:
                shape = [1, int(rng.integers(1, 9)), self.dim(), self.dim()]
            else:
                shape = [int(rng.integers(1, 4)), self.dim()]
        name = "in%d" % len(self.inputs)
        if self.kind == "float":
            data = rng.standard_normal(shape).astype(np.float32)
            v = Val(name, shape)
        elif rng.random() < 0.25:
            # A float input and its QuantizeLinear.
            q = act_q(rng, self.dt)
            data = (rng.uniform(-130, 130, size=shape) * q[0]).astype(np.float32)
            v = Val(name, shape)
            self.inputs.append((v, data))
            s, z = self.qparams(q)
            y = self.node("QuantizeLinear", [name, s, z])
            return self.add_val(y, shape, self.dt, q)
        else:
            q = act_q(rng, self.dt)
            if self.dt == "int8":
                data = rng.integers(-128, 128, size=shape).astype(np.int8)
            else:
                data = rng.integers(0, 256, size=shape).astype(np.uint8)
            v = Val(name, shape, self.dt, q)
        self.inputs.append((v, data))
        self.vals.append(v)
        return v

    # ---- float ops
    def weight(self, shape, fan_in):
        return (self.rng.standard_normal(shape) / np.sqrt(max(fan_in, 1))).astype(np.float32)

    def f_conv(self, x):
        rng = self.rng
        n, c, h, w = x.shape
        k = int(rng.choice([1, 3])) if min(h, w) >= 3 else 1
        s = int(rng.choice([1, 1, 2]))
        p = int(rng.integers(0, k // 2 + 1))
        r = rng.random()
        if r < 0.2:
            group, cout = c, c * int(rng.integers(1, 3))  # depthwise
        elif r < 0.3 and c % 2 == 0 and c > 2:
            group, cout = 2, 2 * int(rng.integers(1, 4))  # grouped
        else:
            group, cout = 1, int(rng.integers(1, 9))
        wname = self.const("w", self.weight([cout, c // group, k, k], c // group * k * k))
        ins = [self.use(x), wname]
        if rng.random() < 0.7:
            ins.append(self.const("b", self.weight([cout], 4)))
        attrs = dict(kernel_shape=[k, k], strides=[s, s], group=group)
        if rng.random() < 0.2 and k == 3:
            attrs["auto_pad"] = "SAME_UPPER"
            oh, ow = -(-h // s), -(-w // s)
        else:
            attrs["pads"] = [p] * 4
            oh, ow = (h + 2 * p - k) // s + 1, (w + 2 * p - k) // s + 1
        y = self.node("Conv", ins, **attrs)
        return self.add_val(y, [n, cout, oh, ow])

    def f_pool(self, x):
        rng = self.rng
        n, c, h, w = x.shape
        r = rng.random()
        if r < 0.25:
            op = "GlobalAveragePool" if rng.random() < 0.6 else "GlobalMaxPool"
            return self.add_val(self.node(op, [self.use(x)]), [n, c, 1, 1])
        op = "MaxPool" if r < 0.65 else "AveragePool"
        k = int(rng.integers(1, min(3, h, w) + 1))
        s = int(rng.integers(1, 3))
        p = int(rng.integers(0, k // 2 + 1)) if k > 1 else 0
        attrs = dict(kernel_shape=[k, k], strides=[s, s], pads=[p] * 4)
        if op == "AveragePool":
            attrs["count_include_pad"] = int(rng.integers(0, 2))
        y = self.node(op, [self.use(x)], **attrs)
        return self.add_val(y, [n, c, (h + 2 * p - k) // s + 1, (w + 2 * p - k) // s + 1])

    def f_bn(self, x):
        c = x.shape[1]
        rng = self.rng
        ins = [self.use(x), self.const("bn_s", rng.uniform(0.5, 1.5, c).astype(np.float32)),
               self.const("bn_b", rng.uniform(-0.5, 0.5, c).astype(np.float32)),
               self.const("bn_m", rng.uniform(-0.5, 0.5, c).astype(np.float32)),
               self.const("bn_v", rng.uniform(0.5, 2.0, c).astype(np.float32))]
        return self.add_val(self.node("BatchNormalization", ins, epsilon=1e-5), x.shape)

    def f_unary(self, x):
        rng = self.rng
        op = str(rng.choice(["Relu", "Relu", "LeakyRelu", "Sigmoid", "Tanh", "Clip",
                             "HardSigmoid", "Softmax"]))
        if op == "Clip":
            lo = self.const("lo", np.float32(rng.choice([0.0, -1.0, -0.5])))
            hi = self.const("hi", np.float32(rng.choice([6.0, 1.0, 0.5])))
            y = self.node("Clip", [self.use(x), lo, hi])
        elif op == "LeakyRelu":
            y = self.node(op, [self.use(x)], alpha=float(np.float32(rng.uniform(0.01, 0.3))))
        elif op == "Softmax":
            y = self.node(op, [self.use(x)], axis=-1)
        else:
            y = self.node(op, [self.use(x)])
        return self.add_val(y, x.shape)

    def f_binary(self, x):
        rng = self.rng
        op = str(rng.choice(["Add", "Add", "Add", "Mul", "Sub", "Max", "Min"]))
        other = self.pick(lambda v: v is not x and v.shape == x.shape and v.dt == "float")
        if other is None or rng.random() < 0.3:
            if len(x.shape) == 4 and rng.random() < 0.5:
                cshape = [x.shape[1], 1, 1]
            elif rng.random() < 0.5:
                cshape = [x.shape[-1]]
            else:
                cshape = []
            cst = self.const("k", rng.uniform(0.5, 1.5, cshape).astype(np.float32)
                             * np.float32(rng.choice([1, -1])))
            ins = [self.use(x), cst] if rng.random() < 0.7 else [cst, self.use(x)]
        else:
            ins = [self.use(x), self.use(other)]
        return self.add_val(self.node(op, ins), x.shape)

    def f_gemm(self, x):
        rng = self.rng
        if len(x.shape) != 2:
            x = self.f_flatten(x)
        b, k = x.shape
        n = int(rng.integers(1, 17))
        if rng.random() < 0.5:
            tb = int(rng.integers(0, 2))
            w = self.const("w", self.weight([n, k] if tb else [k, n], k))
            ins = [self.use(x), w]
            if rng.random() < 0.7:
                ins.append(self.const("b", self.weight([n], 4)))
            y = self.node("Gemm", ins, transB=tb)
        else:
            y = self.node("MatMul", [self.use(x), self.const("w", self.weight([k, n], k))])
        return self.add_val(y, [b, n])

    def f_matmul_nd(self, x):
        k = x.shape[-1]
        n = int(self.rng.integers(1, 9))
        y = self.node("MatMul", [self.use(x), self.const("w", self.weight([k, n], k))])
        return self.add_val(y, x.shape[:-1] + [n])

    def f_flatten(self, x):
        axis = 1
        a = int(np.prod(x.shape[:axis]))
        return self.add_val(self.node("Flatten", [self.use(x)], axis=axis),
                            [a, int(np.prod(x.shape[axis:]))])

    def f_reshape(self, x):
        rng = self.rng
        total = int(np.prod(x.shape))
        dims = []
        left = total
        for _ in range(int(rng.integers(1, 4))):
            divs = [d for d in range(1, left + 1) if left % d == 0]
            d = int(rng.choice(divs))
            dims.append(d)
            left //= d
        dims.append(left)
        if len(x.shape) == 4 and rng.random() < 0.5:
            dims = [x.shape[0], x.shape[1], x.shape[2] * x.shape[3]]
        shape = list(dims)
        sh = list(dims)
        if rng.random() < 0.3:
            sh[int(rng.integers(0, len(sh)))] = -1
        y = self.node("Reshape", [self.use(x), self.const("shape", np.array(sh, np.int64))])
        return self.add_val(y, shape)

    def f_transpose(self, x):
        perm = [int(i) for i in self.rng.permutation(len(x.shape))]
        y = self.node("Transpose", [self.use(x)], perm=perm)
        return self.add_val(y, [x.shape[p] for p in perm])

    def f_squeeze(self, x):
        ones = [i for i, d in enumerate(x.shape) if d == 1]
        if ones and len(x.shape) > 1 and self.rng.random() < 0.6:
            a = int(self.rng.choice(ones))
            y = self.node("Squeeze", [self.use(x), self.const("axes", np.array([a], np.int64))])
            return self.add_val(y, x.shape[:a] + x.shape[a + 1:])
        if len(x.shape) >= 4:
            return None
        a = int(self.rng.integers(0, len(x.shape) + 1))
        y = self.node("Unsqueeze", [self.use(x), self.const("axes", np.array([a], np.int64))])
        return self.add_val(y, x.shape[:a] + [1] + x.shape[a:])

    def f_concat(self, x):
        rng = self.rng
        r = len(x.shape)
        axis = int(rng.integers(0, r))
        same = lambda v: (v.dt == x.dt and len(v.shape) == r and v.q == x.q and
                          all(v.shape[i] == x.shape[i] for i in range(r) if i != axis))
        parts = [x]
        for _ in range(int(rng.integers(1, 3))):
            o = self.pick(same)
            parts.append(o if o is not None else x)
        rng.shuffle(parts)
        y = self.node("Concat", [self.use(p) for p in parts],
                      axis=axis if rng.random() < 0.7 else axis - r)
        shape = list(x.shape)
        shape[axis] = sum(p.shape[axis] for p in parts)
        return self.add_val(y, shape)

    def f_split(self, x):
        rng = self.rng
        axes = [i for i, d in enumerate(x.shape) if d >= 2]
        if not axes:
            return None
        axis = int(rng.choice(axes))
        d = x.shape[axis]
        nparts = int(rng.integers(2, min(d, 3) + 1))
        cuts = sorted(int(c) for c in rng.choice(np.arange(1, d), nparts - 1, replace=False))
        sizes = [b - a for a, b in zip([0] + cuts, cuts + [d])]
        ys = self.node("Split", [self.use(x), self.const("split", np.array(sizes, np.int64))],
                       nout=nparts, axis=axis)
        last = None
        for y, s in zip(ys, sizes):
            shape = list(x.shape)
            shape[axis] = s
            last = self.add_val(y, shape)
        return last

    def float_step(self):
        rng = self.rng
        if rng.random() < 0.05 and len(self.inputs) < 2:
            self.new_input()
            return
        x = self.pick()
        four = len(x.shape) == 4
        ops = [self.f_unary, self.f_binary, self.f_binary, self.f_reshape, self.f_transpose,
               self.f_squeeze, self.f_concat, self.f_split, self.f_gemm]
        if four:
            ops += [self.f_conv, self.f_conv, self.f_conv, self.f_pool, self.f_pool, self.f_bn,
                    self.f_flatten]
        elif len(x.shape) >= 2:
            ops += [self.f_matmul_nd]
        for _ in range(4):
            op = ops[int(rng.integers(0, len(ops)))]
            if op in (self.f_conv, self.f_pool, self.f_bn) and x.shape[0] != 1:
                continue
            if op(x) is not None:
                return

    # ---- QDQ ops
    def qparams(self, q):
        return (self.const("scale", np.float32(q[0])), self.const("zp", NP[self.dt](q[1])))

    def dq(self, x):
        s, z = self.qparams(x.q)
        return self.node("DequantizeLinear", [self.use(x), s, z])

    def q(self, y, q):
        s, z = self.qparams(q)
        return self.node("QuantizeLinear", [y, s, z])

    def q_conv(self, x):
        rng = self.rng
        n, c, h, w = x.shape
        dt = self.dt
        k = int(rng.choice([1, 3])) if min(h, w) >= 3 else 1
        s = int(rng.choice([1, 1, 2]))
        p = int(rng.integers(0, k // 2 + 1))
        dw = rng.random() < 0.3 and c > 1
        cout = c * int(rng.integers(1, 3)) if dw else int(rng.integers(1, 9))
        pc = dt == "int8" and rng.random() < 0.5
        relu = rng.random() < 0.4
        wv = rng.integers(-64, 64, size=(cout, 1 if dw else c, k, k)).astype(np.int8)
        ws = (rng.uniform(0.002, 0.02, size=cout).astype(np.float32) if pc
              else np.float32(rng.uniform(0.002, 0.02)))
        xd = self.dq(x)
        wd = self.node("DequantizeLinear", [self.const("w", wv), self.const("w_scale", ws),
                                            self.const("w_zp", np.zeros(cout, np.int8) if pc
                                                       else np.int8(0))],
                       **({"axis": 0} if pc else {}))
        ins = [xd, wd]
        if rng.random() < 0.8:
            bs = (np.float32(x.q[0]) * ws).astype(np.float32)
            bd = self.node("DequantizeLinear",
                           [self.const("b", rng.integers(-3000, 3001, size=cout).astype(np.int32)),
                            self.const("b_scale", bs),
                            self.const("b_zp", np.zeros(cout, np.int32) if pc else np.int32(0))],
                           **({"axis": 0} if pc else {}))
            ins.append(bd)
        y = self.node("Conv", ins, kernel_shape=[k, k], strides=[s, s], pads=[p] * 4,
                      group=c if dw else 1)
        if relu:
            y = self.node("Relu", [y])
        taps = k * k * (1 if dw else c)
        yq = out_q(rng, dt, x.q[0], float(np.mean(ws)), taps, relu)
        return self.add_val(self.q(y, yq), [n, cout, (h + 2 * p - k) // s + 1,
                                            (w + 2 * p - k) // s + 1], dt, yq)

    def q_fc(self, x):
        rng = self.rng
        dt = self.dt
        if len(x.shape) != 2:
            x = self.q_view(x, "Flatten")
        b, k = x.shape
        nout = int(rng.integers(1, 17))
        gemm = rng.random() < 0.5
        pc = dt == "int8" and rng.random() < 0.5
        wv = rng.integers(-64, 64, size=(nout, k) if gemm else (k, nout)).astype(np.int8)
        ws = (rng.uniform(0.002, 0.02, size=nout).astype(np.float32) if pc
              else np.float32(rng.uniform(0.002, 0.02)))
        xd = self.dq(x)
        wd = self.node("DequantizeLinear", [self.const("w", wv), self.const("w_scale", ws),
                                            self.const("w_zp", np.zeros(nout, np.int8) if pc
                                                       else np.int8(0))],
                       **({"axis": 0 if gemm else 1} if pc else {}))
        if gemm:
            bs = (np.float32(x.q[0]) * ws).astype(np.float32)
            bd = self.node("DequantizeLinear",
                           [self.const("b", rng.integers(-3000, 3001, size=nout).astype(np.int32)),
                            self.const("b_scale", bs),
                            self.const("b_zp", np.zeros(nout, np.int32) if pc else np.int32(0))],
                           **({"axis": 0} if pc else {}))
            y = self.node("Gemm", [xd, wd, bd], transB=1)
        else:
            y = self.node("MatMul", [xd, wd])
        yq = out_q(rng, dt, x.q[0], float(np.mean(ws)), k)
        return self.add_val(self.q(y, yq), [b, nout], dt, yq)

    def q_binary(self, x):
        rng = self.rng
        other = self.pick(lambda v: v is not x and v.shape == x.shape and v.dt == self.dt)
        if other is None:
            other = x
        op = "Add" if rng.random() < 0.65 else "Mul"
        y = self.node(op, [self.dq(x), self.dq(other)])
        relu = rng.random() < 0.3
        if relu:
            y = self.node("Relu", [y])
        if op == "Add":
            scale = (x.q[0] + other.q[0]) * rng.uniform(0.6, 1.2)
        else:
            scale = x.q[0] * other.q[0] * 128 * rng.uniform(0.3, 1.0)
        lo = -128 if self.dt == "int8" else 0
        zp = lo if relu else int(rng.integers(-10, 11)) + (0 if self.dt == "int8" else 128)
        yq = (float(np.float32(scale)), zp)
        return self.add_val(self.q(y, yq), x.shape, self.dt, yq)

    def q_view(self, x, op=None):
        """Ops ONNX Runtime drops the DQ/Q pair around (same quantization)."""
        rng = self.rng
        if op is None:
            ops = ["Reshape", "Transpose", "Flatten", "Squeeze"]
            if len(x.shape) == 4:
                ops += ["MaxPool", "MaxPool", "GlobalAveragePool" if self.dt == "int8"
                        else "MaxPool"]
            op = str(rng.choice(ops))
        xd = self.dq(x)
        q = x.q
        if op == "Reshape":
            total = int(np.prod(x.shape))
            divs = [d for d in range(1, total + 1) if total % d == 0]
            a = int(rng.choice(divs))
            shape = [a, total // a] if rng.random() < 0.5 else [1, a, total // a]
            y = self.node("Reshape", [xd, self.const("shape", np.array(shape, np.int64))])
        elif op == "Transpose":
            perm = [int(i) for i in rng.permutation(len(x.shape))]
            y = self.node("Transpose", [xd], perm=perm)
            shape = [x.shape[p] for p in perm]
        elif op == "Flatten":
            y = self.node("Flatten", [xd], axis=1)
            shape = [x.shape[0], int(np.prod(x.shape[1:]))]
        elif op == "Squeeze":
            ones = [i for i, d in enumerate(x.shape) if d == 1]
            if ones and len(x.shape) > 1:
                a = int(rng.choice(ones))
                y = self.node("Squeeze", [xd, self.const("axes", np.array([a], np.int64))])
                shape = x.shape[:a] + x.shape[a + 1:]
            else:
                a = int(rng.integers(0, len(x.shape) + 1))
                y = self.node("Unsqueeze", [xd, self.const("axes", np.array([a], np.int64))])
                shape = x.shape[:a] + [1] + x.shape[a:]
        elif op == "MaxPool":
            n, c, h, w = x.shape
            k = int(rng.integers(1, min(3, h, w) + 1))
            s = int(rng.integers(1, 3))
            p = int(rng.integers(0, k // 2 + 1)) if k > 1 else 0
            y = self.node("MaxPool", [xd], kernel_shape=[k, k], strides=[s, s], pads=[p] * 4)
            shape = [n, c, (h + 2 * p - k) // s + 1, (w + 2 * p - k) // s + 1]
        else:  # GlobalAveragePool: a new scale
            y = self.node("GlobalAveragePool", [xd])
            shape = x.shape[:2] + [1, 1]
            q = (float(np.float32(x.q[0] * rng.uniform(0.5, 1.5))), int(rng.integers(-10, 11)))
        return self.add_val(self.q(y, q), shape, self.dt, q)

    def q_concat(self, x):
        """Concat; inputs of other scales make a float Concat between
        the DequantizeLinear and QuantizeLinear nodes."""
        rng = self.rng
        r = len(x.shape)
        axis = int(rng.integers(0, r))
        fits = lambda v: (v.dt == self.dt and len(v.shape) == r and
                          all(v.shape[i] == x.shape[i] for i in range(r) if i != axis))
        parts = [x]
        for _ in range(int(rng.integers(1, 3))):
            o = self.pick(fits)
            parts.append(o if o is not None else x)
        shape = list(x.shape)
        shape[axis] = sum(p.shape[axis] for p in parts)
        y = self.node("Concat", [self.dq(p) for p in parts], axis=axis)
        same = all(p.q == x.q for p in parts)
        q = x.q if same or rng.random() < 0.5 else act_q(rng, self.dt)
        return self.add_val(self.q(y, q), shape, self.dt, q)

    def qdq_step(self):
        rng = self.rng
        if rng.random() < 0.05 and len(self.inputs) < 2:
            self.new_input()
            return
        x = self.pick(lambda v: v.dt == self.dt)
        ops = [self.q_fc, self.q_binary, self.q_binary, self.q_view, self.q_concat]
        if len(x.shape) == 4 and x.shape[0] == 1:
            ops += [self.q_conv] * 4 + [self.q_view]
        ops[int(rng.integers(0, len(ops)))](x)

    def join(self, vals):
        """Two of VALS into one: an Add of two of one shape, else a Concat
        of both flattened to rows."""
        for a in vals:
            for b in vals:
                if a is not b and a.shape == b.shape:
                    return self.add_val(self.node("Add", [self.use(a), self.use(b)]), a.shape)
        a, b = vals[0], vals[1]
        rows = []
        for v in (a, b):
            y = self.node("Reshape", [self.use(v), self.const("shape", np.array([1, -1], np.int64))])
            rows.append(y)
        n = int(np.prod(a.shape)) + int(np.prod(b.shape))
        return self.add_val(self.node("Concat", rows, axis=1), [1, n])

    # ---- the graph
    def build(self):
        self.new_input()
        # Float graphs stop early: joining the loose ends adds nodes.
        stop = self.target if self.kind == "qdq" else max(2, self.target * 2 // 3)
        while len(self.nodes) < stop:
            if self.kind == "float":
                self.float_step()
            else:
                self.qdq_step()
        dangling = lambda: [v for v in self.vals
                            if v.uses == 0 and v not in [i for i, _ in self.inputs]]
        while self.kind == "float" and len(dangling()) > 4:
            self.join(dangling())
        outs = dangling()
        used = [v for v in self.vals if v.uses > 0 and v.name not in [i.name for i, _ in self.inputs]]
        if used and self.rng.random() < 0.2:
            outs.append(used[int(self.rng.integers(0, len(used)))])
        if not outs:
            outs = [self.vals[-1]]
        outputs = []
        for v in outs:
            if self.kind == "qdq" and v.dt != "float" and self.rng.random() < 0.25:
                y = self.dq(v)
                v = Val(y, v.shape)
            outputs.append(v)
        # Inputs nothing reads are left out.
        read = {i for n in self.nodes for i in n.input}
        ins = [(v, d) for v, d in self.inputs if v.name in read or v in outputs]
        graph = helper.make_graph(
            self.nodes, "g%d" % self.seed,
            [helper.make_tensor_value_info(v.name, TP[v.dt], v.shape) for v, _ in ins],
            [helper.make_tensor_value_info(v.name, TP[v.dt], v.shape) for v in outputs],
            self.inits)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)],
                                  producer_name="gen_graphs_onnx")
        model.ir_version = 7
        onnx.checker.check_model(model)
        return model, [d for _, d in ins], outputs


def act_q(rng, dt):
    scale = float(np.float32(rng.uniform(0.005, 0.05)))
    zp = int(rng.integers(-20, 21)) if dt == "int8" else int(rng.integers(100, 156))
    return scale, zp


def out_q(rng, dt, in_scale, w_scale_mean, taps, relu=False):
    spread = in_scale * w_scale_mean * 64 * 40 * np.sqrt(taps) / 127.0
    scale = float(np.float32(spread * rng.uniform(0.5, 1.5)))
    lo = -128 if dt == "int8" else 0
    if relu:
        return scale, lo
    return scale, int(rng.integers(-10, 11)) + (0 if dt == "int8" else 128)


def write(outdir, name, model, inputs, outputs, kind):
    d = os.path.join(outdir, name)
    os.makedirs(d, exist_ok=True)
    onnx.save(model, os.path.join(d, "model.onnx"))
    for i, a in enumerate(inputs):
        a.tofile(os.path.join(d, "in%d.bin" % i))
    with open(os.path.join(d, "graph.txt"), "w") as f:
        for n in model.graph.node:
            f.write("%s %s -> %s\n" % (n.op_type, " ".join(n.input), " ".join(n.output)))
    return "%s %s %d %d %s %d" % (name, kind, len(inputs), len(outputs),
                                  ",".join(SHORT[v.dt] for v in outputs), len(model.graph.node))


def main(argv):
    outdir = None
    seed, count, nodes, max_dim, kind = 1, 1, 0, 8, None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--seed", "--count", "--nodes", "--max-dim", "--kind") and i + 1 < len(argv):
            v = argv[i + 1]
            i += 1
            if a == "--kind":
                kind = v
            else:
                n = int(v)
                seed, count, nodes, max_dim = {"--seed": (n, count, nodes, max_dim),
                                               "--count": (seed, n, nodes, max_dim),
                                               "--nodes": (seed, count, n, max_dim),
                                               "--max-dim": (seed, count, nodes, n)}[a]
        elif a.startswith("-") or outdir:
            sys.stderr.write(__doc__)
            return 2
        else:
            outdir = a
        i += 1
    if not outdir or kind not in (None, "float", "qdq"):
        sys.stderr.write(__doc__)
        return 2
    os.makedirs(outdir, exist_ok=True)
    lines = []
    for s in range(seed, seed + count):
        g = Gen(s, nodes, max_dim, kind)
        model, ins, outs = g.build()
        lines.append(write(outdir, "graph.%d" % s, model, ins, outs, g.kind))
    with open(os.path.join(outdir, "manifest.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
