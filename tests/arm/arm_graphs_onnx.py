#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""tests/arm/arm_graphs_onnx.py - random ONNX graphs (tools/gen_graphs_onnx.py,
the ONNX miscompile hunter's generator) on Cortex-M4F in QEMU, against
ONNX Runtime.  Run by tests/arm/test_arm_graphs_onnx.sh, which documents
the environment.

  /usr/bin/python3 tests/arm/arm_graphs_onnx.py COUNT SEED

Graphs SEED .. SEED+COUNT-1, each compiled under one option combination
(OPTIONS below, float and QDQ graphs cycling through them each on their
own; the Cortex-M runner takes one workspace, so no pools), built for Cortex-M4F at -O2 and run under QEMU
(tests/arm/lib.sh); its outputs are compared with ONNX Runtime's (the
oracle's onnxruntime-node, every graph optimization):
  float graphs  within 1e-3 absolute + 1e-3 relative per element, the
                tolerance of the host hunter (tests/graphs/run_graphs_onnx.py:
                up to 40 float ops whose summation order differs from
                MLAS's);
  QDQ graphs    compiled with --rounding onnxruntime: every output byte
                for byte, a final DequantizeLinear's float32 included.
A graph tinyaot refuses (exit 1) is counted as refused, never a pass.
Then the comparison must be able to fail: one byte of the first float and
the first QDQ graph's QEMU output flipped is reported.
"""
import os
import shutil
import subprocess
import sys
import time

import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tools"))
sys.path.insert(0, os.path.join(ROOT, "tests", "graphs"))
os.chdir(ROOT)
import gen_graphs_onnx  # noqa: E402
import run_graphs_onnx as hunter  # noqa: E402

# Options by graph index; QDQ graphs add --rounding onnxruntime.
OPTIONS = ["", "--io-in-caller-buffers", "--no-inplace --algo linear", "--layout nhwc",
           "--align 4 --schedule memory --no-views", "--algo search --no-overlap"]
LIB = os.path.join(ROOT, "tests", "arm", "lib.sh")


def lib(*args):
    """Runs a tests/arm/lib.sh function; its exit status."""
    return subprocess.run(["sh", LIB] + list(args), stdin=subprocess.DEVNULL).returncode


def tail(path):
    try:
        lines = [l for l in open(path, errors="replace").read().splitlines() if l.strip()]
    except OSError:
        return ""
    return lines[-1] if lines else ""


def tolerance(g, i):
    if g.kind == "float":
        return 1e-3, 1e-3
    return 0, 0


def qemu_outputs(g, d, nhwc):
    res = []
    for i, (shape, dt) in enumerate(g.outs):
        a = np.fromfile(os.path.join(d, "output%d.bin" % i), dtype=dt)
        if a.size != int(np.prod(shape)):
            return None, "output %d has %d elements, not %d" % (i, a.size, int(np.prod(shape)))
        res.append(hunter.from_nhwc(a, shape) if nhwc else a.reshape(shape))
    return res, None


def compare(g, got, ref):
    """None, or what differs (differ() of the host hunter)."""
    for i, a in enumerate(got):
        d = hunter.differ(a, ref[i], *tolerance(g, i))
        if d:
            return "output %d (%s) differs from ONNX Runtime: %s" % (i, a.dtype, d)
    return None


def one(cfg, g, name, k, work):
    """(status, line, qemu folder, nhwc): status ok, fail or refused."""
    opts = OPTIONS[k % len(OPTIONS)]
    if g.kind != "float":
        opts = ("--rounding onnxruntime " + opts).strip()
    nhwc = "--layout nhwc" in opts
    label = "the random ONNX graph %s (%s, %s)" % (name, g.kind, opts or "default options")
    d = os.path.join(work, name)
    ref, err = hunter.refs(g)
    if ref is None:
        return "fail", "not ok - ONNX Runtime runs %s: %s" % (label, err), None, nhwc
    gen = os.path.join(d, "gen")
    shutil.rmtree(gen, ignore_errors=True)
    p = subprocess.run([cfg.tinyaot, "compile", g.model_path, "-o", gen, "--prefix", "net"] +
                       opts.split(), stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if p.returncode == 1:
        return "refused", "# refused: %s: %s" % (label, hunter.last_line(p.stderr)), None, nhwc
    if p.returncode != 0:
        return "fail", "not ok - tinyaot compiles %s: exit %d, %s" % (
            label, p.returncode, hunter.last_line(p.stderr)), None, nhwc
    case = os.path.join(d, "case0")
    shutil.rmtree(case, ignore_errors=True)
    os.makedirs(case)
    ins = []
    for i, (shape, dt) in enumerate(g.ins):
        a = np.fromfile(g.in_files[i], dtype=dt)
        if nhwc:
            a = np.ascontiguousarray(hunter.to_nhwc(a, shape))
        a.tofile(os.path.join(case, "input%d.bin" % i))
        ins.append(str(a.nbytes))
    outs = [str(int(np.prod(s)) * np.dtype(dt).itemsize) for s, dt in g.outs]
    b = os.path.join(d, "m4")
    if lib("arm_build", gen, b, "m4", "-O2", ",".join(ins), ",".join(outs)) != 0:
        msg = ""
        for line in open(os.path.join(b, "build.log"), errors="replace"):
            if "error" in line.lower():
                msg = line.strip()
                break
        return "fail", "not ok - %s builds for Cortex-M4F -O2: %s" % (label, msg), None, nhwc
    q = os.path.join(b, "case0")
    rc = lib("arm_run", os.path.join(b, "runner.elf"), "m4", case, q)
    if rc != 0:
        return "fail", "not ok - %s runs on Cortex-M4F in QEMU: exit %d, %s" % (
            label, rc, tail(os.path.join(q, "run.log"))), None, nhwc
    got, why = qemu_outputs(g, q, nhwc)
    why = why or compare(g, got, ref)
    if why:
        return "fail", "not ok - %s on Cortex-M4F -O2 agrees with ONNX Runtime: %s" % (
            label, why), q, nhwc
    how = "within 1e-3 + 1e-3|x|" if g.kind == "float" else "byte for byte"
    return "ok", "ok - %s on Cortex-M4F -O2 agrees with ONNX Runtime %s" % (label, how), q, nhwc


def main(argv):
    count, seed = int(argv[0]), int(argv[1])
    cfg = hunter.parse([])
    missing = hunter.ort_missing(cfg, "no random ONNX graph was run on Cortex-M")
    if missing is not None:
        return missing
    work = os.environ["ARM_WORK"]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    start = time.time()
    graphs = []
    for s in range(seed, seed + count):
        gen = gen_graphs_onnx.Gen(s, 0, 8, None)
        model, ins, outs = gen.build()
        line = gen_graphs_onnx.write(os.path.join(work, "cases"), "graph.%d" % s, model, ins,
                                     outs, gen.kind)
        name = line.split()[0]
        graphs.append((name, hunter.Graph(os.path.join(work, "cases", name), gen.kind)))
    hunter.ort_run(cfg, [(g.model_path, g.dir, g.in_files) for _, g in graphs])
    rc = 0
    counts = {"ok": 0, "fail": 0, "refused": 0}
    probes = {}
    seen = {}
    for name, g in graphs:
        k = seen[g.kind] = seen.get(g.kind, -1) + 1
        status, line, q, nhwc = one(cfg, g, name, k, work)
        counts[status] += 1
        print(line)
        sys.stdout.flush()
        if status == "fail":
            rc = 1
        if status == "ok" and g.kind not in probes:
            probes[g.kind] = (name, g, q, nhwc)
    # The comparison must be able to fail: one flipped byte is reported.
    for kind, (name, g, q, nhwc) in sorted(probes.items()):
        f = os.path.join(q, "output0.bin")
        data = bytearray(open(f, "rb").read())
        data[-1] ^= 0x41
        open(f, "wb").write(data)
        got, why = qemu_outputs(g, q, nhwc)
        why = why or compare(g, got, hunter.refs(g)[0])
        if why:
            print("ok - a wrong byte in the Cortex-M output of %s (%s) is reported" % (name, kind))
        else:
            print("not ok - a wrong byte in the Cortex-M output of %s (%s) is reported" % (
                name, kind))
            rc = 1
    print("# %d random ONNX graphs on Cortex-M4F: %d agree, %d disagree, %d refused, %d s" % (
        count, counts["ok"], counts["fail"], counts["refused"], int(time.time() - start)))
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
