#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""tests/ops/run_qdq.py --build DIR --shared DIR [--seed N] [--count N] [--only ROWS]
                       [--no-default]

The QDQ differential suite: tools/gen_qdq.py writes seeded random QDQ
ONNX models into DIR/qdq; ONNX Runtime (the oracle in
SHARED/oracle, onnxruntime-node) runs each; `tinyaot run --rounding
onnxruntime` must give the same bytes.  The same model under the default
rounding (TFLite Micro's fixed-point requantization) is run too, and
the elements that differ from ONNX Runtime are counted, with the
largest difference, to state how far the default arithmetic is
(--no-default: not).  A single-op model must import as integer ops
only (`tinyaot inspect` shows no float32 tensor): the QDQ group fused.

Prints "ok - ..." / "not ok - ..." per case, then per OP:dtype row
"# ROW: N cases, E equal; default rounding: D of T outputs differ (max
M)".  Exit status 1 when any case fails.
"""
import os
import subprocess
import sys

import numpy as np

NP = {"int8": np.int8, "uint8": np.uint8, "float32": np.float32}


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout.decode(errors="replace")


def last_line(text):
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[-1] if lines else ""


def main(argv):
    build, shared, seed, count, only, default = "build", "../shared", 1, 5, None, True
    it = iter(argv)
    for a in it:
        if a == "--build":
            build = next(it)
        elif a == "--shared":
            shared = next(it)
        elif a == "--seed":
            seed = int(next(it))
        elif a == "--count":
            count = int(next(it))
        elif a == "--only":
            only = next(it)
        elif a == "--no-default":
            default = False
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    tinyaot = os.path.abspath(os.path.join(build, "tinyaot"))
    oracle = os.path.join(shared, "oracle", "tflite-oracle")
    work = os.path.abspath(os.path.join(build, "qdq"))
    gen = [sys.executable, os.path.join(root, "tools", "gen_qdq.py"), work, "--seed",
           str(seed), "--count", str(count)]
    if only:
        gen += ["--only", only]
    rc, out = run(gen)
    if rc:
        print("not ok - gen_qdq.py writes the QDQ models: %s" % last_line(out))
        return 1
    rows = {}
    order = []
    failed = 0
    with open(os.path.join(work, "cases.txt")) as f:
        cases = [l.split() for l in f if l.strip()]
    # ONNX Runtime, all cases in one Node process (tests/ops/ort_batch.mjs).
    home = os.environ.get("TFLITE_ORACLE_HOME") or os.path.join(
        os.environ.get("HOME") or "/tmp", ".cache", "tflite-oracle")
    rc, out = run([oracle, "--help"])  # installs the oracle into home once
    if rc:
        print("not ok - the oracle installs itself: %s" % last_line(out))
        return 1
    listing = os.path.join(work, "ort.list")
    with open(listing, "w") as f:
        for name, op, variant, nin, odt in cases:
            d = os.path.join(work, name)
            f.write(" ".join([os.path.join(d, "model.onnx"), os.path.join(d, "ort.bin")] +
                             [os.path.join(d, "in%d.bin" % i) for i in range(int(nin))]) + "\n")
            for stale in ("ort.bin", "ort.bin.err"):
                if os.path.exists(os.path.join(d, stale)):
                    os.remove(os.path.join(d, stale))
    rc, out = run(["node", os.path.join(root, "tests", "ops", "ort_batch.mjs"), "--home", home,
                   listing])
    if rc:
        print("not ok - ONNX Runtime runs the QDQ models: %s" % last_line(out))
        return 1
    for name, op, variant, nin, odt in cases:
        row = "%s:%s" % (op, variant)
        if row not in rows:
            rows[row] = [0, 0, 0, 0, 0]
            order.append(row)
        r = rows[row]
        r[0] += 1
        d = os.path.join(work, name)
        ins = []
        for i in range(int(nin)):
            ins += ["-i", os.path.join(d, "in%d.bin" % i)]
        ref = os.path.join(d, "ort.bin")
        if not os.path.exists(ref):
            err = os.path.join(d, "ort.bin.err")
            msg = open(err).read().strip() if os.path.exists(err) else "no output"
            print("not ok - ONNX Runtime runs %s: %s" % (name, msg))
            failed += 1
            continue
        if op != "Cnn" and not variant.endswith("_mixed"):
            # A single-op model imports as integer ops only: no float
            # tensor is left between the input and the output (a _mixed
            # one quantizes its float input 0 first).
            rc, out = run([tinyaot, "inspect", os.path.join(d, "model.onnx")])
            if rc or "float32" in out:
                print("not ok - %s imports as integer ops only: %s" %
                      (name, last_line(out) if rc else "a float32 tensor is left"))
                failed += 1
                continue
        got = os.path.join(d, "tinyaot.bin")
        rc, out = run([tinyaot, "run", os.path.join(d, "model.onnx")] + ins +
                      ["-o", got, "--rounding", "onnxruntime"])
        if rc:
            print("not ok - tinyaot runs %s: %s" % (name, last_line(out)))
            failed += 1
            continue
        a = np.fromfile(ref, dtype=NP[odt])
        b = np.fromfile(got, dtype=NP[odt])
        if a.shape == b.shape and a.tobytes() == b.tobytes():
            r[1] += 1
            print("ok - tinyaot --rounding onnxruntime gives ONNX Runtime's bytes on %s" % name)
        else:
            failed += 1
            if a.shape != b.shape:
                print("not ok - tinyaot --rounding onnxruntime gives ONNX Runtime's bytes on "
                      "%s: %d elements, expected %d" % (name, b.size, a.size))
            else:
                k = int(np.nonzero(a != b)[0][0])
                print("not ok - tinyaot --rounding onnxruntime gives ONNX Runtime's bytes on "
                      "%s: %d of %d differ, first at %d: expected %s, got %s" %
                      (name, int(np.sum(a != b)), a.size, k, a[k], b[k]))
        if not default:
            continue
        dflt = os.path.join(d, "default.bin")
        rc, out = run([tinyaot, "run", os.path.join(d, "model.onnx")] + ins + ["-o", dflt])
        if rc:
            print("not ok - tinyaot runs %s with the default rounding: %s" %
                  (name, last_line(out)))
            failed += 1
            continue
        c = np.fromfile(dflt, dtype=NP[odt])
        if c.shape == a.shape:
            diff = np.abs(c.astype(np.float64) - a.astype(np.float64))
            r[2] += int(np.sum(diff != 0))
            r[3] += a.size
            r[4] = max(r[4], float(diff.max()) if diff.size else 0)
    for row in order:
        n, eq, off, tot, mx = rows[row]
        if default:
            print("# %s: %d cases, %d equal; default rounding: %d of %d outputs differ "
                  "(max %g)" % (row, n, eq, off, tot, mx))
        else:
            print("# %s: %d cases, %d equal" % (row, n, eq))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
