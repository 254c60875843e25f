#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""tools/quantize_onnx.py IN.onnx OUT.onnx --tinyaot PATH -i CALIB.bin ... [--uint8]

A static QDQ quantizer for float32 ONNX models, modelled on what ONNX
Runtime's static quantizer (QDQ format) writes:

- BatchNormalization after a Gemm or Conv with constant weights is folded
  into them first (as ONNX Runtime's pre-processing does).
- Activation ranges come from calibration: the float model, with every
  value to be quantized made a graph output, runs through `tinyaot run` on the
  calibration inputs (raw float32 files, one per run; `-i` repeatable);
  min/max over all runs, widened to contain 0.  Activations are int8
  (--uint8: uint8), asymmetric: scale = (max - min) / 255, zero point =
  round(qmin - min / scale).
- Weights are int8, symmetric, per output channel, with reduce_range
  (7-bit, [-64, 64]): scale = max|w| / 64.  ONNX Runtime's x86 kernels sum
  pairs of uint8 x int8 products in 16 bits (VPMADDUBSW), which saturates
  with full 8-bit weights; 7-bit weights keep every sum in range.
- Biases are int32 with scale = input scale x weight scale.
- Conv, ConvTranspose (group 1), Gemm and MatMul (constant weights, an
  optional Relu or Clip following them folded into their output), Add
  and Mul of two activations of one shape, and GlobalAveragePool get
  their inputs read through DequantizeLinear and their output through
  QuantizeLinear.  ConvTranspose's weights are quantized per output
  channel (axis 1) as ONNX Runtime's quantizer does; left float between
  a DequantizeLinear and a QuantizeLinear, ONNX Runtime would quantize
  them itself (per tensor) when it loads the model.
  MaxPool, Reshape, Flatten, Transpose, Squeeze, Unsqueeze and Concat
  share one scale between their inputs and output (the pair around them
  then only moves integers).  Every other op stays a float island
  between DequantizeLinear and QuantizeLinear; a Softmax's output is
  quantized with the fixed scale 1/256 (zero point -128 for int8, 0 for
  uint8), as ONNX Runtime's quantizer does.

Only python3-onnx and python3-numpy are used.
"""
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

FUSED = {"Conv", "ConvTranspose", "Gemm", "MatMul", "Add", "Mul", "GlobalAveragePool"}
SHARED = {"MaxPool", "Reshape", "Flatten", "Transpose", "Squeeze", "Unsqueeze", "Concat"}
ACTS = {"Relu", "Clip"}


def consumers(graph, name):
    return [n for n in graph.node if name in n.input]


def inits(graph):
    return {t.name: t for t in graph.initializer}


def const_of(graph, name):
    t = inits(graph).get(name)
    if t is not None:
        return numpy_helper.to_array(t)
    for n in graph.node:
        if n.op_type == "Constant" and n.output[0] == name:
            for a in n.attribute:
                if a.name == "value":
                    return numpy_helper.to_array(a.t)
    return None


def set_init(graph, name, arr):
    for k, t in enumerate(graph.initializer):
        if t.name == name:
            graph.initializer[k].CopyFrom(numpy_helper.from_array(arr, name))
            return
    graph.initializer.append(numpy_helper.from_array(arr, name))


def fold_batchnorm(graph):
    """BatchNormalization reading a Gemm(transB=1) or Conv output that
    nothing else reads: its affine map folded into the weights and bias."""
    for bn in list(graph.node):
        if bn.op_type != "BatchNormalization" or len(bn.output) != 1:
            continue
        prod = [n for n in graph.node if bn.input[0] in n.output]
        if len(prod) != 1 or len(consumers(graph, bn.input[0])) != 1:
            continue
        p = prod[0]
        tb = any(a.name == "transB" and a.i == 1 for a in p.attribute)
        if not (p.op_type == "Conv" or (p.op_type == "Gemm" and tb)):
            continue
        w = const_of(graph, p.input[1])
        g, beta, mean, var = (const_of(graph, x) for x in bn.input[1:5])
        if w is None or any(v is None for v in (g, beta, mean, var)):
            continue
        eps = next((a.f for a in bn.attribute if a.name == "epsilon"), 1e-5)
        a = g.astype(np.float64) / np.sqrt(var.astype(np.float64) + eps)
        b = const_of(graph, p.input[2]) if len(p.input) > 2 and p.input[2] else None
        b = np.zeros(w.shape[0]) if b is None else b.astype(np.float64)
        shape = (-1,) + (1,) * (w.ndim - 1)
        w2 = (w.astype(np.float64) * a.reshape(shape)).astype(np.float32)
        b2 = ((b - mean) * a + beta).astype(np.float32)
        wname, bname = p.output[0] + "_bn_w", p.output[0] + "_bn_b"
        set_init(graph, wname, w2)
        set_init(graph, bname, b2)
        del p.input[1:]
        p.input.extend([wname, bname])
        p.output[0] = bn.output[0]
        graph.node.remove(bn)


def float_activations(model):
    """Names of the float32 values the nodes compute from the inputs."""
    g = model.graph
    known = set(inits(g))
    for n in g.node:
        if n.op_type == "Constant":
            known.update(n.output)
    inferred = onnx.shape_inference.infer_shapes(model)
    types = {}
    for vi in list(inferred.graph.value_info) + list(g.input) + list(g.output):
        types[vi.name] = vi.type.tensor_type.elem_type
    live = {i.name for i in g.input if i.name not in known}
    out = [i.name for i in g.input if i.name not in known]
    for n in g.node:
        if n.op_type == "Shape" or not any(x in live for x in n.input):
            continue
        for o in n.output:
            if o:
                live.add(o)
                if types.get(o) == TensorProto.FLOAT:
                    out.append(o)
    return out


def calibrate(model, names, tinyaot, calib, work):
    """min/max of each value in names over the calibration inputs."""
    m = onnx.ModelProto()
    m.CopyFrom(model)
    del m.graph.output[:]
    for nm in names:
        m.graph.output.append(helper.make_tensor_value_info(nm, TensorProto.FLOAT, None))
    path = os.path.join(work, "calib.onnx")
    onnx.save(m, path)
    lo = {nm: 0.0 for nm in names}
    hi = {nm: 0.0 for nm in names}
    for c, inp in enumerate(calib):
        outs = [os.path.join(work, "c%d_%d.bin" % (c, k)) for k in range(len(names))]
        cmd = [tinyaot, "run", path, "-i", inp]
        for o in outs:
            cmd += ["-o", o]
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if p.returncode:
            raise SystemExit("quantize_onnx: calibration run failed: %s" %
                             p.stdout.decode(errors="replace").strip().splitlines()[-1:])
        for nm, o in zip(names, outs):
            v = np.fromfile(o, dtype=np.float32)
            lo[nm] = min(lo[nm], float(v.min()))
            hi[nm] = max(hi[nm], float(v.max()))
    return lo, hi


def act_qparams(lo, hi, dt):
    qmin, qmax = (-128, 127) if dt == "int8" else (0, 255)
    lo, hi = min(lo, 0.0), max(hi, 0.0)
    if hi == lo:
        return np.float32(1.0), qmin if lo == 0 else 0
    scale = np.float32((hi - lo) / (qmax - qmin))
    zp = int(np.clip(round(qmin - lo / float(scale)), qmin, qmax))
    return scale, zp


class Find:
    def __init__(self):
        self.p = {}

    def root(self, x):
        self.p.setdefault(x, x)
        while self.p[x] != x:
            x = self.p[x]
        return x

    def union(self, a, b):
        self.p[self.root(a)] = self.root(b)


def quantize(model, tinyaot, calib, dt):
    g = model.graph
    fold_batchnorm(g)
    acts = float_activations(model)
    actset = set(acts)
    nodes = list(g.node)
    # Decide which nodes are integer ops and which values they quantize.
    folded_act = {}  # output of a fused op -> the Relu/Clip reading it
    qnodes = []
    softmax_out = set()  # float islands whose output is quantized too
    for n in nodes:
        if n.op_type in FUSED:
            if n.op_type in ("Conv", "ConvTranspose", "Gemm", "MatMul"):
                w = const_of(g, n.input[1])
                conv = n.op_type in ("Conv", "ConvTranspose")
                if w is None or (conv and w.ndim != 4) or (not conv and w.ndim != 2):
                    continue
                if n.op_type == "ConvTranspose" and any(a.name == "group" and a.i != 1
                                                        for a in n.attribute):
                    continue
                if n.op_type == "Gemm" and any(
                        (a.name == "transA" and a.i) or (a.name in ("alpha", "beta") and a.f != 1)
                        for a in n.attribute):
                    continue
            elif n.op_type in ("Add", "Mul"):
                if not all(x in actset for x in n.input):
                    continue
                if len(set(x for x in n.input)) != 2:
                    continue
            qnodes.append(n)
            cs = consumers(g, n.output[0])
            if n.op_type in ("Conv", "ConvTranspose", "Gemm", "MatMul", "Add", "Mul") and \
                    len(cs) == 1 and \
                    cs[0].op_type in ACTS and n.output[0] not in [o.name for o in g.output]:
                folded_act[n.output[0]] = cs[0]
        elif n.op_type in SHARED and n.input[0] in actset:
            qnodes.append(n)
        elif n.op_type == "Softmax":
            softmax_out.add(n.output[0])
    # The values to quantize: inputs and outputs of the integer ops.
    share = Find()
    qvals = []
    for n in qnodes:
        ins = [x for x in n.input if x in actset]
        if n.op_type not in SHARED:
            ins = ins[:2] if n.op_type in ("Add", "Mul") else ins[:1]
        outs = [n.output[0]]
        if n.output[0] in folded_act:
            outs = [folded_act[n.output[0]].output[0]]
        if n.op_type in SHARED:
            for x in ins + outs:
                share.union(x, n.output[0])
        qvals += ins + outs
    qvals = list(dict.fromkeys(qvals + sorted(softmax_out)))
    # Only the values that get quantized are calibrated: an op left in
    # float may write values tinyaot cannot make graph outputs (an LSTM's
    # Y_c).
    with tempfile.TemporaryDirectory() as work:
        lo, hi = calibrate(model, qvals, tinyaot, calib, work)
    glo, ghi = {}, {}
    for v in qvals:
        r = share.root(v)
        glo[r] = min(glo.get(r, 0.0), lo[v])
        ghi[r] = max(ghi.get(r, 0.0), hi[v])
    qp = {v: act_qparams(glo[share.root(v)], ghi[share.root(v)], dt) for v in qvals}
    for v in softmax_out:  # [0, 1] in steps of 1/256, as ONNX Runtime's quantizer fixes it
        qp[v] = (np.float32(1 / 256), -128 if dt == "int8" else 0)
    new_nodes, new_inits = [], []
    npdt = np.int8 if dt == "int8" else np.uint8
    outputs = {o.name for o in g.output}
    rename = {}

    def qdq_pair(v):
        """Q and DQ after value v; returns the DQ output's name."""
        s, z = qp[v]
        sn, zn = v + "_scale", v + "_zp"
        new_inits.append(numpy_helper.from_array(np.array(s, dtype=np.float32), sn))
        new_inits.append(numpy_helper.from_array(np.array(z, dtype=npdt), zn))
        src = v + "_float" if v in outputs else v
        dq = v if v in outputs else v + "_dq"
        return src, [helper.make_node("QuantizeLinear", [src, sn, zn], [v + "_q"],
                                      name=v + "_Q"),
                     helper.make_node("DequantizeLinear", [v + "_q", sn, zn], [dq],
                                      name=v + "_DQ")], dq

    pairs = {}
    for v in qvals:
        src, ns, dq = qdq_pair(v)
        pairs[v] = (src, ns)
        rename[v] = dq
    for i in g.input:
        if i.name in pairs:
            new_nodes += pairs[i.name][1]
    qset = {id(n) for n in qnodes}
    for n in nodes:
        for k, x in enumerate(n.input):
            if x in rename and x not in outputs:
                n.input[k] = rename[x]
        if id(n) in qset and n.op_type in ("Conv", "ConvTranspose", "Gemm", "MatMul"):
            quantize_weights(g, n, qp[n.input[0].rsplit("_dq", 1)[0]
                                      if n.input[0].endswith("_dq") else n.input[0]][0],
                             new_inits, new_nodes)
        for k, o in enumerate(n.output):
            if o in pairs and o in outputs:
                n.output[k] = pairs[o][0]
        new_nodes.append(n)
        for o in list(n.output):
            base = o[:-6] if o.endswith("_float") else o
            if base in pairs:
                new_nodes += pairs[base][1]
    del g.node[:]
    g.node.extend(new_nodes)
    g.initializer.extend(new_inits)
    used = {x for n in g.node for x in n.input}
    keep = [t for t in g.initializer if t.name in used]
    del g.initializer[:]
    g.initializer.extend(keep)
    del g.value_info[:]
    return model


def quantize_weights(g, n, in_scale, new_inits, new_nodes):
    """Conv/Gemm/MatMul weights as per-channel int8 (7-bit) and the bias
    as int32, each read through a DequantizeLinear."""
    w = const_of(g, n.input[1]).astype(np.float32)
    tb = any(a.name == "transB" and a.i for a in n.attribute)
    # The output channels: ConvTranspose's weights are [in, out, kh, kw].
    axis = 0 if n.op_type == "Conv" or (n.op_type == "Gemm" and tb) else 1
    red = tuple(d for d in range(w.ndim) if d != axis)
    amax = np.max(np.abs(w), axis=red).astype(np.float64)
    ws = np.where(amax > 0, amax / 64.0, 1.0).astype(np.float32)
    shape = [1] * w.ndim
    shape[axis] = -1
    wq = np.clip(np.round(w / ws.reshape(shape)), -64, 64).astype(np.int8)
    base = n.name or n.output[0]
    names = [base + s for s in ("_wq", "_wscale", "_wzp")]
    new_inits.append(numpy_helper.from_array(wq, names[0]))
    new_inits.append(numpy_helper.from_array(ws, names[1]))
    new_inits.append(numpy_helper.from_array(np.zeros(ws.shape, np.int8), names[2]))
    new_nodes.append(helper.make_node("DequantizeLinear", names, [base + "_w"], axis=axis,
                                      name=base + "_wDQ"))
    n.input[1] = base + "_w"
    if len(n.input) > 2 and n.input[2]:
        b = const_of(g, n.input[2]).astype(np.float32)
        bs = (np.float32(in_scale) * ws).astype(np.float32)
        bq = np.round(b.astype(np.float64) / bs.astype(np.float64)).astype(np.int32)
        bn = [base + s for s in ("_bq", "_bscale", "_bzp")]
        new_inits.append(numpy_helper.from_array(bq, bn[0]))
        new_inits.append(numpy_helper.from_array(bs, bn[1]))
        new_inits.append(numpy_helper.from_array(np.zeros(bs.shape, np.int32), bn[2]))
        new_nodes.append(helper.make_node("DequantizeLinear", bn, [base + "_b"], axis=0,
                                          name=base + "_bDQ"))
        n.input[2] = base + "_b"


def main(argv):
    src = dst = tinyaot = None
    calib, dt = [], "int8"
    it = iter(argv)
    for a in it:
        if a == "--tinyaot":
            tinyaot = next(it)
        elif a == "-i":
            calib.append(next(it))
        elif a == "--uint8":
            dt = "uint8"
        elif src is None:
            src = a
        else:
            dst = a
    if not (src and dst and tinyaot and calib):
        sys.stderr.write(__doc__)
        return 2
    model = onnx.load(src)
    quantize(model, tinyaot, calib, dt)
    model.producer_name = "tinyaot quantize_onnx"
    onnx.checker.check_model(model)
    onnx.save(model, dst)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
