#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""tools/bisect_quant_onnx.py MODEL.onnx -i IN.bin ... [--tinyaot PATH] [--home DIR]
                              [--work DIR] [--rounding R] [--all]

Where tinyaot and ONNX Runtime first part ways on a QDQ model: the
first QuantizeLinear output (in graph order) whose bytes differ, with
its first differing element.

Cutting the model at a QuantizeLinear would change what ONNX Runtime
runs (a Q whose output is a graph output is left int8, so the group
before it no longer fuses), so the tensors come from the graph ONNX
Runtime really runs: its optimized model (tools/ort_tensors.mjs
--optimize), every tensor of it made a graph output, run with the
optimizations off.  Each QuantizeLinear output of MODEL, run through
`tinyaot run --rounding R` (default onnxruntime) with all of them as
--probe outputs (graph outputs of their own would change which groups
ONNX Runtime, and so tinyaot, leaves in float32), is matched to the
optimized graph's tensor of as many elements that agrees best with it,
read back from ONNX Runtime's forms (uint8 for an int8 tensor it
converted: the value plus 128; NHWC for an NCHW one).

--all goes on past the first difference: one line per tensor that
differs.  A tensor whose closest candidate differs in most elements is
taken to have no counterpart (ONNX Runtime dropped it) and is listed as
a "# ..." line.  Also lists the QDQ groups ONNX Runtime does not fuse (a float
op of the optimized graph between DequantizeLinear and QuantizeLinear):
ONNX Runtime computes those in float32.  Prints one line per finding; exit
status 0 when every tensor agrees, 1 when one differs, 2 on a usage or
run error.  Needs python3-onnx, numpy, Node and the oracle's
onnxruntime-node (tests/lib.sh need_ort).
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import helper

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NP = {1: np.float32, 2: np.uint8, 3: np.int8, 6: np.int32}
ORT_NP = {"float32": np.float32, "uint8": np.uint8, "int8": np.int8, "int32": np.int32,
          "int16": np.int16, "uint16": np.uint16, "int64": np.int64, "bool": np.uint8}


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       stdin=subprocess.DEVNULL)
    if p.returncode:
        out = p.stdout.decode(errors="replace").strip().splitlines()
        why = [l for l in out if "Error" in l] or out[-1:] or [str(p.returncode)]
        sys.stderr.write("bisect_quant_onnx: %s failed: %s\n" %
                         (" ".join(os.path.basename(c) for c in cmd[:3]), why[0].strip()))
        sys.exit(2)


def ort_tensors(home, model, ins, work):
    """{name: array} of every tensor of the graph ONNX Runtime runs."""
    helper_js = os.path.join(ROOT, "tools", "ort_tensors.mjs")
    opt = os.path.join(work, "ort_optimized.onnx")
    run(["node", helper_js, "--home", home, "--optimize", model, opt])
    m = onnx.load(opt)
    have = {o.name for o in m.graph.output}
    for n in m.graph.node:
        for o in n.output:
            if o and o not in have:
                m.graph.output.append(helper.ValueInfoProto(name=o))
                have.add(o)
    wide = os.path.join(work, "ort_all.onnx")
    onnx.save(m, wide)
    outdir = os.path.join(work, "ort")
    os.makedirs(outdir, exist_ok=True)
    run(["node", helper_js, "--home", home, "--run", wide, outdir] + ins)
    got = {}
    for k, o in enumerate(json.load(open(os.path.join(outdir, "outputs.json")))):
        dt = ORT_NP.get(o["type"])
        if dt is not None:
            got[o["name"]] = np.fromfile(os.path.join(outdir, "%d.bin" % k),
                                         dtype=dt).reshape(o["dims"])
    return m, got


def float_islands(opt):
    """Float ops of the optimized graph that read a DequantizeLinear and
    whose output a QuantizeLinear reads: QDQ groups left unfused."""
    prod = {o: n for n in opt.graph.node for o in n.output}
    readers = {}
    for n in opt.graph.node:
        for x in n.input:
            readers.setdefault(x, []).append(n)
    out = []
    for n in opt.graph.node:
        if n.op_type in ("QuantizeLinear", "DequantizeLinear", "Transpose") or not n.output:
            continue
        dq_in = any(prod.get(x) is not None and prod[x].op_type == "DequantizeLinear"
                    and prod[x].input[0] not in {t.name for t in opt.graph.initializer}
                    for x in n.input)
        q_out = any(r.op_type == "QuantizeLinear" for r in readers.get(n.output[0], []))
        if dq_in and q_out:
            out.append("%s %s" % (n.op_type, n.name))
    return out


def tinyaot_tensors(tinyaot, model, ins, rounding, work):
    """[(name, array)] of every QuantizeLinear output of model, in graph
    order, as tinyaot computes them."""
    m = onnx.load(model)
    inferred = onnx.shape_inference.infer_shapes(m, data_prop=True)
    shapes = {}
    for vi in list(inferred.graph.value_info) + list(inferred.graph.output):
        t = vi.type.tensor_type
        shapes[vi.name] = (t.elem_type, [d.dim_value for d in t.shape.dim])
    qs = [n.output[0] for n in m.graph.node
          if n.op_type == "QuantizeLinear" and n.output[0] in shapes]
    names = [o.name for o in m.graph.output]
    probes = [q for q in qs if q not in names]
    names += probes
    outs = [os.path.join(work, "t%d.bin" % k) for k in range(len(names))]
    cmd = [tinyaot, "run", model]
    for i in ins:
        cmd += ["-i", i]
    for o in outs:
        cmd += ["-o", o]
    for q in probes:
        cmd += ["--probe", q]
    if rounding != "default":
        cmd += ["--rounding", rounding]
    run(cmd)
    got = []
    for q in qs:
        et, dims = shapes[q]
        a = np.fromfile(outs[names.index(q)], dtype=NP[et])
        # Shape inference leaves some shapes of a model exported without
        # constant folding unknown or empty: keep those flat.
        known = dims and all(d > 0 for d in dims) and int(np.prod(dims)) == a.size
        got.append((q, a.reshape(dims) if known else a))
    return got


def ort_views(t, want):
    """t (an ONNX Runtime tensor) read as the tensor want: int8 from a
    converted uint8, and NCHW from NHWC too when the shapes allow (both
    when they are alike: 48 channels of 48 x 48)."""
    if t.size != want.size or t.dtype.itemsize != 1 or want.dtype.itemsize != 1:
        return []
    v = t
    if t.dtype != want.dtype:
        v = (t.astype(np.int16) + (-128 if t.dtype == np.uint8 else 128)).astype(want.dtype)
    views = []
    if v.shape == want.shape:
        views.append(v)
    if v.ndim == 4 and want.ndim == 4 and v.shape == (want.shape[0],) + want.shape[2:] + \
            (want.shape[1],):
        views.append(v.transpose(0, 3, 1, 2))
    if not views and (v.ndim != 4 or want.ndim != 4):
        views.append(v.reshape(want.shape))
    return views


def main(argv):
    model, ins, tinyaot, work, rounding, every = None, [], None, None, "onnxruntime", False
    home = os.environ.get("TFLITE_ORACLE_HOME") or os.path.join(
        os.environ.get("HOME") or "/tmp", ".cache", "tflite-oracle")
    it = iter(argv)
    for a in it:
        if a == "-i":
            ins.append(next(it))
        elif a == "--tinyaot":
            tinyaot = next(it)
        elif a == "--home":
            home = next(it)
        elif a == "--work":
            work = next(it)
        elif a == "--rounding":
            rounding = next(it)
        elif a == "--all":
            every = True
        elif model is None:
            model = a
        else:
            sys.stderr.write(__doc__)
            return 2
    if not model or not ins:
        sys.stderr.write(__doc__)
        return 2
    tinyaot = tinyaot or os.path.join(ROOT, "build", "tinyaot")
    with tempfile.TemporaryDirectory() as tmp:
        work = work or tmp
        os.makedirs(work, exist_ok=True)
        opt, ref = ort_tensors(home, model, ins, work)
        ours = tinyaot_tensors(tinyaot, model, ins, rounding, work)
    for f in float_islands(opt):
        print("# ONNX Runtime runs in float32 (unfused QDQ group): %s" % f)
    differ = unmatched = 0
    for name, a in ours:
        best = None
        for rname, t in ref.items():
            for v in ort_views(t, a):
                bad = int(np.sum(v != a))
                if best is None or bad < best[0]:
                    best = (bad, rname, v)
        if best is None:
            print("# %s: no tensor of ONNX Runtime's graph has its %d elements" % (name, a.size))
            unmatched += 1
            continue
        bad, rname, v = best
        if bad == 0:
            continue
        if 2 * bad > a.size:
            # Most elements off: rather another tensor of as many elements
            # than this one's counterpart (ONNX Runtime dropped the
            # QuantizeLinear around a Reshape, say).
            print("# %s: no tensor of ONNX Runtime's graph matches it (the closest, %s, "
                  "differs in %d of %d elements)" % (name, rname, bad, a.size))
            unmatched += 1
            continue
        k = int(np.nonzero(v.reshape(-1) != a.reshape(-1))[0][0])
        where = np.unravel_index(k, a.shape)
        print("%s: %s (ONNX Runtime's %s), %d of %d elements, first at %d %s: "
              "ONNX Runtime %d, tinyaot %d" % ("differs" if differ else "first difference", name,
                                               rname, bad, a.size, k, list(map(int, where)),
                                               int(v.reshape(-1)[k]), int(a.reshape(-1)[k])))
        differ += 1
        if not every:
            return 1
    if differ:
        return 1
    print("every QuantizeLinear output agrees (%d tensors%s)" %
          (len(ours) - unmatched, "; %d without a counterpart" % unmatched if unmatched else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
