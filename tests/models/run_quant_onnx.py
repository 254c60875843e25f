#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""tests/models/run_quant_onnx.py --build DIR --shared DIR [--report] MODEL ...

The shared float ONNX models quantized by tools/quantize_onnx.py
(calibrated on their three golden inputs), then run on those inputs by
ONNX Runtime (the oracle's onnxruntime-node, tests/ops/ort_batch.mjs) and
by `tinyaot run --rounding onnxruntime`: the outputs must be the same
bytes.  The default rounding's outputs are compared too, and the share
that differs is printed with the largest difference in output steps.
--report adds the RAM (workspace) and flash of the int8 model against
the float one (`tinyaot report --json`).

When a model's bytes differ, tools/bisect_quant_onnx.py runs on the
first golden input that shows it and must name the first QuantizeLinear
output that differs (printed as a "# ..." line).

Prints "ok - ..." / "not ok - ..." per model and "# ..." figures; exit
status 1 when any model fails.
"""
import json
import os
import subprocess
import sys

import numpy as np
import onnx
from onnx import numpy_helper


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout.decode(errors="replace")


def last_line(text):
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[-1] if lines else ""


def output_step(path):
    """The scale of the DequantizeLinear writing the model's output, or
    None when a float op writes it."""
    m = onnx.load(path)
    name = m.graph.output[0].name
    inits = {t.name: numpy_helper.to_array(t) for t in m.graph.initializer}
    for n in m.graph.node:
        if name in n.output and n.op_type == "DequantizeLinear":
            return float(inits[n.input[1]])
    return None


def report(tinyaot, model):
    rc, out = run([tinyaot, "report", model, "--json"])
    if rc:
        return None
    r = json.loads(out)
    return r["ram"]["workspace"], r["flash"]["total"]


def bisect(root, tinyaot, home, name, model, inp):
    """tools/bisect_quant_onnx.py on the first golden input whose outputs
    differ: it must name the first differing tensor.  Returns 1 when it
    does not."""
    rc, out = run([sys.executable, os.path.join(root, "tools", "bisect_quant_onnx.py"), model,
                   "-i", inp, "--tinyaot", tinyaot, "--home", home])
    first = [l for l in out.splitlines() if l.startswith("first difference:")]
    if rc == 1 and first:
        print("# %s: %s" % (name, first[0]))
        return 0
    print("not ok - tools/bisect_quant_onnx.py finds where the int8 %s parts from ONNX Runtime: "
          "%s" % (name, last_line(out)))
    return 1


def main(argv):
    build, shared, models, want_report = "build", "../shared", [], False
    it = iter(argv)
    for a in it:
        if a == "--build":
            build = next(it)
        elif a == "--shared":
            shared = next(it)
        elif a == "--report":
            want_report = True
        else:
            models.append(a)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    tinyaot = os.path.abspath(os.path.join(build, "tinyaot"))
    work = os.path.abspath(os.path.join(build, "quant-onnx"))
    os.makedirs(work, exist_ok=True)
    home = os.environ.get("TFLITE_ORACLE_HOME") or os.path.join(
        os.environ.get("HOME") or "/tmp", ".cache", "tflite-oracle")
    failed = 0
    for name in models:
        src = os.path.join(shared, "models", "onnx", name + ".onnx")
        gold = os.path.join(shared, "goldens", "onnx", name)
        cases = sorted(d for d in os.listdir(gold) if d.startswith("case"))
        ins = [os.path.join(gold, c, "input0.bin") for c in cases]
        q = os.path.join(work, name + ".onnx")
        cmd = [sys.executable, os.path.join(root, "tools", "quantize_onnx.py"), src, q,
               "--tinyaot", tinyaot]
        for i in ins:
            cmd += ["-i", i]
        rc, out = run(cmd)
        if rc:
            print("not ok - quantize_onnx.py quantizes %s: %s" % (name, last_line(out)))
            failed += 1
            continue
        listing = os.path.join(work, name + ".list")
        refs = [os.path.join(work, "%s.%s.ort.bin" % (name, c)) for c in cases]
        with open(listing, "w") as f:
            for i, r in zip(ins, refs):
                f.write("%s %s %s\n" % (q, r, i))
                if os.path.exists(r):
                    os.remove(r)
        rc, out = run(["node", os.path.join(root, "tests", "ops", "ort_batch.mjs"), "--home",
                       home, listing])
        missing = [r for r in refs if not os.path.exists(r)]
        if rc or missing:
            err = missing and os.path.exists(missing[0] + ".err") and \
                open(missing[0] + ".err").read().strip()
            print("not ok - ONNX Runtime runs the int8 %s: %s" % (name, err or last_line(out)))
            failed += 1
            continue
        step = output_step(q)
        results = {}
        for rounding in ("onnxruntime", "default"):
            gots = [os.path.join(work, "%s.%s.%s.bin" % (name, c, rounding)) for c in cases]
            cmd = [tinyaot, "run", q]
            for i in ins:
                cmd += ["-i", i]
            for g in gots:
                cmd += ["-o", g]
            if rounding != "default":
                cmd += ["--rounding", rounding]
            rc, out = run(cmd)
            if rc:
                print("not ok - tinyaot runs the int8 %s (%s rounding): %s" %
                      (name, rounding, last_line(out)))
                failed += 1
                break
            results[rounding] = gots
        if len(results) != 2:
            continue
        a = np.concatenate([np.fromfile(r, dtype=np.float32) for r in refs])
        b = np.concatenate([np.fromfile(g, dtype=np.float32) for g in results["onnxruntime"]])
        what = "tinyaot --rounding onnxruntime gives ONNX Runtime's bytes on the int8 %s " \
               "(%d golden inputs, %d outputs)" % (name, len(cases), a.size)
        if a.shape == b.shape and a.tobytes() == b.tobytes():
            print("ok - " + what)
        else:
            failed += 1
            if a.shape != b.shape:
                print("not ok - %s: %d outputs, expected %d" % (what, b.size, a.size))
            else:
                k = int(np.nonzero(a != b)[0][0])
                print("not ok - %s: %d differ, first at %d: expected %r, got %r" %
                      (what, int(np.sum(a != b)), k, float(a[k]), float(b[k])))
                failed += bisect(root, tinyaot, home, name, q, ins[k // (a.size // len(cases))])
        d = np.concatenate([np.fromfile(g, dtype=np.float32) for g in results["default"]])
        diff = np.abs(d.astype(np.float64) - a.astype(np.float64))
        lsb = "max %.3g" % diff.max() if step is None else "max %d LSB" % round(
            diff.max() / step)
        off1 = "" if step is None else ", %d by one LSB" % int(
            np.sum(np.round(diff / step) == 1))
        print("# %s: default rounding: %d of %d outputs differ from ONNX Runtime (%.1f%%%s), %s"
              % (name, int(np.sum(diff > 0)), a.size, 100.0 * np.sum(diff > 0) / a.size, off1,
                 lsb))
        if want_report:
            fr, qr = report(tinyaot, src), report(tinyaot, q)
            if fr and qr:
                print("# %s: workspace %d -> %d bytes, flash %d -> %d bytes (float -> int8)" %
                      (name, fr[0], qr[0], fr[1], qr[1]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
