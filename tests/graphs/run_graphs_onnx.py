#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""tests/graphs/run_graphs_onnx.py - the miscompile hunter for .onnx
models: random valid ONNX graphs (tools/gen_graphs_onnx.py) through
tinyaot under many option combinations, against ONNX Runtime.

  /usr/bin/python3 tests/graphs/run_graphs_onnx.py [--build DIR] [--seed S]
      [--count N] [--runs some|all] [--run-every K] [--seconds T]
      [--save DIR] [--quiet] [--jobs J]

1. tools/gen_graphs_onnx.py draws N graphs (seeds S .. S+N-1): float
   graphs and QDQ int8/uint8 graphs.
2. ONNX Runtime (the oracle's onnxruntime-node, every graph optimization,
   so QDQ groups run fused as QLinearConv, QGemm, QLinearAdd ...) computes
   the expected outputs, all graphs of a batch in one Node process
   (tests/graphs/ort_graphs.mjs).  A graph ONNX Runtime refuses is a
   generator bug and fails.
3. Every graph is planned under every combination of COMBOS (`tinyaot
   plan`: the plan checker runs on each plan; a plan it rejects ends the
   compiler with an internal error, which fails here), then built and run
   (`tinyaot run`) under some of them.  4-D inputs and outputs are
   transposed to and from NHWC under --layout nhwc.
   - float graphs: every run against ONNX Runtime within 1e-3 absolute
     + 1e-3 relative (up to 40 float ops whose summation order differs
     from MLAS's), and bit-exactly against the graph's first run (memory
     and layout options must not change a byte);
   - QDQ graphs: the r* runs (--rounding onnxruntime) against ONNX
     Runtime, integer outputs bit-exactly, float outputs (a final
     DequantizeLinear) within 1e-6 absolute + 1e-6 relative; the d* runs
     (--rounding double) and s* runs (--rounding single), which reproduce
     TFLite Micro's and TFLite's arithmetic, for which no oracle runs,
     bit-exactly against the first run of their rounding.
   A graph tinyaot refuses (exit 1, "bad input") is a refusal: counted by
   its cause, never a pass, and not a disagreement.
   --runs some (the default): graph i runs when i is a multiple of
   --run-every K (default 1), under r<i/K mod 10>, and every third of
   those also under d0, s0 and one other d* or s*; --runs all: every
   graph under all 16.
4. --seconds T: batches of N graphs with new seeds until T seconds have
   passed.  Every disagreement is minimised (the graph cut down to the
   one disagreeing output, then to the earliest value that still
   disagrees, with only the nodes it depends on) and saved under --save
   DIR (default DIR/graph-findings-onnx) as <graph>-<combo>/: model.onnx,
   in*.bin, ref*.bin (ONNX Runtime's outputs), graph.txt and why.txt
   (the combination, the commands that reproduce it, what differs).

Prints one "ok - ..." / "not ok - ..." line per graph (--quiet: only the
failures and one summary line), then "#" lines: graphs, plans, runs,
disagreements, refusals by cause, graphs per hour.
"""
import os
import re
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import onnx
from onnx import helper, shape_inference

ROOT = os.getcwd()
sys.path.insert(0, os.path.join(ROOT, "tools"))
import gen_graphs_onnx  # noqa: E402

COMBOS = [
    ("r0", "--rounding onnxruntime"),
    ("r1", "--rounding onnxruntime --algo linear --schedule model"),
    ("r2", "--rounding onnxruntime --algo greedy-size --no-views"),
    ("r3", "--rounding onnxruntime --algo greedy-conflicts --no-inplace"),
    ("r4", "--rounding onnxruntime --algo search --schedule memory --io-in-caller-buffers"),
    ("r5", "--rounding onnxruntime --align 1 --io-in-caller-buffers --no-views --layout nhwc"),
    ("r6", "--rounding onnxruntime --pool fast:256 --pool slow --align 4 --no-overlap"),
    ("r7", "--rounding onnxruntime --no-views --no-inplace --algo linear --io-in-caller-buffers "
           "--layout nhwc"),
    ("r8", "--rounding onnxruntime --align 64 --schedule memory --algo greedy-conflicts "
           "--layout nhwc"),
    ("r9", "--rounding onnxruntime --pool a:1024 --pool b:2048 --pool c --no-inplace "
           "--schedule model"),
    ("d0", "--rounding double"),
    ("d1", "--rounding double --algo linear --no-views --no-inplace --layout nhwc"),
    ("d2", "--rounding double --algo search --io-in-caller-buffers --schedule memory"),
    ("s0", "--rounding single"),
    ("s1", "--rounding single --pool fast:512 --pool slow --align 8 --layout nhwc"),
    ("s2", "--rounding single --algo greedy-size --schedule model --align 1 --no-views "
           "--io-in-caller-buffers"),
]
FLAGS = dict(COMBOS)
DTYPES = {"f32": np.float32, "s8": np.int8, "u8": np.uint8}
ONNX_NP = {1: np.float32, 3: np.int8, 2: np.uint8}


def usage():
    sys.stderr.write("usage: run_graphs_onnx.py [--build DIR] [--seed S] [--count N] "
                     "[--runs some|all] [--run-every K] [--seconds T] [--save DIR] "
                     "[--quiet] [--jobs J]\n")
    sys.exit(2)


class Cfg:
    pass


def parse(argv):
    c = Cfg()
    c.build, c.seed, c.count, c.runs, c.every = "build", 1, 20, "some", 1
    c.seconds, c.save, c.quiet = 0, None, False
    c.jobs = int(os.environ.get("GRAPHS_JOBS", "2"))
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--quiet":
            c.quiet = True
        elif a in ("--build", "--seed", "--count", "--runs", "--run-every", "--seconds",
                   "--save", "--jobs") and i + 1 < len(argv):
            v = argv[i + 1]
            i += 1
            if a == "--build":
                c.build = v
            elif a == "--runs":
                if v not in ("some", "all"):
                    usage()
                c.runs = v
            elif a == "--save":
                c.save = v
            else:
                try:
                    n = int(v)
                except ValueError:
                    usage()
                setattr(c, {"--seed": "seed", "--count": "count", "--run-every": "every",
                            "--seconds": "seconds", "--jobs": "jobs"}[a], n)
        else:
            usage()
        i += 1
    c.build = os.path.abspath(c.build)
    c.save = os.path.abspath(c.save) if c.save else os.path.join(c.build, "graph-findings-onnx")
    c.tinyaot = os.environ.get("TINYAOT", os.path.join(c.build, "tinyaot"))
    c.shared = os.environ.get("TINYAOT_SHARED", os.path.join(ROOT, "..", "shared"))
    c.oracle_home = os.environ.get("TFLITE_ORACLE_HOME",
                                   os.path.join(os.environ.get("HOME", "/tmp"),
                                                ".cache", "tflite-oracle"))
    c.cflags = "-O0 " + os.environ.get("TINYAOT_CFLAGS", "")
    return c


# ---------------------------------------------------------------- ONNX Runtime

def ort_run(cfg, cases):
    """Expected outputs of CASES [(model, dir, [inputs])] into dir/ref<i>.bin,
    or dir/ref.err."""
    if not cases:
        return
    lst = os.path.join(os.path.dirname(cases[0][1]), "ort-list-%d.txt" % os.getpid())
    with open(lst, "w") as f:
        for model, d, ins in cases:
            for old in os.listdir(d):
                if old.startswith("ref"):
                    os.remove(os.path.join(d, old))
            f.write(" ".join([model, d] + ins) + "\n")
    p = subprocess.run(["node", os.path.join(ROOT, "tests", "graphs", "ort_graphs.mjs"),
                        "--home", cfg.oracle_home, lst], stdin=subprocess.DEVNULL,
                       capture_output=True, text=True)
    if p.returncode != 0:
        for _, d, _ in cases:
            if not os.path.exists(os.path.join(d, "ref0.bin")):
                with open(os.path.join(d, "ref.err"), "w") as f:
                    f.write("node exits %d: %s\n" % (p.returncode,
                                                     (p.stderr.strip().splitlines() or [""])[-1]))


# ---------------------------------------------------------------- one graph

class Graph:
    """A graph's folder, its I/O shapes and types, its kind."""

    def __init__(self, d, kind):
        self.dir = d
        self.kind = kind
        self.model_path = os.path.join(d, "model.onnx")
        m = onnx.load(self.model_path)
        init = {t.name for t in m.graph.initializer}

        def info(v):
            t = v.type.tensor_type
            return ([int(x.dim_value) for x in t.shape.dim], ONNX_NP[t.elem_type])
        self.ins = [info(v) for v in m.graph.input if v.name not in init]
        self.outs = [info(v) for v in m.graph.output]
        self.in_files = [os.path.join(d, "in%d.bin" % i) for i in range(len(self.ins))]


def to_nhwc(a, shape):
    return a.reshape(shape).transpose(0, 2, 3, 1) if len(shape) == 4 else a


def from_nhwc(a, shape):
    if len(shape) != 4:
        return a.reshape(shape)
    n, c, h, w = shape
    return a.reshape(n, h, w, c).transpose(0, 3, 1, 2)


def last_line(text):
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[-1] if lines else ""


def tinyaot_plan(cfg, g, combo):
    """None, or (kind, message): kind 'refused' (exit 1) or 'fail'."""
    p = subprocess.run([cfg.tinyaot, "plan", g.model_path] + FLAGS[combo].split(),
                       stdin=subprocess.DEVNULL, capture_output=True, text=True)
    if p.returncode == 0:
        return None
    msg = last_line(p.stderr + p.stdout)
    return ("refused" if p.returncode == 1 else "fail",
            "tinyaot plan exits %d: %s" % (p.returncode, msg))


def tinyaot_run(cfg, g, combo, tag):
    """(outputs as arrays in the model's layout, None) or (None, why)."""
    out = os.path.join(g.dir, "out-" + combo + tag)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    nhwc = "--layout nhwc" in FLAGS[combo]
    args = []
    for i, (shape, dt) in enumerate(g.ins):
        f = g.in_files[i]
        if nhwc and len(shape) == 4:
            f = os.path.join(out, "in%d.bin" % i)
            a = np.fromfile(g.in_files[i], dtype=dt)
            np.ascontiguousarray(to_nhwc(a, shape)).tofile(f)
        args += ["-i", f]
    for i in range(len(g.outs)):
        args += ["-o", os.path.join(out, "out%d.bin" % i)]
    p = subprocess.run([cfg.tinyaot, "run", g.model_path] + FLAGS[combo].split() +
                       ["--cflags", cfg.cflags] + args, stdin=subprocess.DEVNULL,
                       capture_output=True, text=True)
    if p.returncode != 0:
        return None, "tinyaot run exits %d: %s" % (p.returncode, last_line(p.stderr + p.stdout))
    res = []
    for i, (shape, dt) in enumerate(g.outs):
        a = np.fromfile(os.path.join(out, "out%d.bin" % i), dtype=dt)
        if a.size != int(np.prod(shape)):
            return None, "output %d has %d elements, not %d" % (i, a.size, int(np.prod(shape)))
        res.append(from_nhwc(a, shape) if nhwc else a.reshape(shape))
    return res, None


def refs(g):
    err = os.path.join(g.dir, "ref.err")
    if os.path.exists(err):
        return None, open(err).read().strip()
    res = []
    for i, (shape, dt) in enumerate(g.outs):
        f = os.path.join(g.dir, "ref%d.bin" % i)
        if not os.path.exists(f):
            return None, "no output %d from ONNX Runtime" % i
        res.append(np.fromfile(f, dtype=dt).reshape(shape))
    return res, None


def differ(got, want, atol, rtol):
    """None when GOT matches WANT, else what differs."""
    if got.dtype != np.float32:
        bad = np.flatnonzero(got.reshape(-1) != want.reshape(-1))
        if bad.size == 0:
            return None
        k = int(bad[0])
        return "%d of %d elements differ, first [%d]: %d, expected %d" % (
            bad.size, got.size, k, got.reshape(-1)[k], want.reshape(-1)[k])
    g, w = got.reshape(-1).astype(np.float64), want.reshape(-1).astype(np.float64)
    same_nan = np.isnan(g) & np.isnan(w)
    if atol == 0 and rtol == 0:
        bad = np.flatnonzero((got.reshape(-1).view(np.uint32) != want.reshape(-1).view(np.uint32))
                             & ~same_nan)
    else:
        with np.errstate(invalid="ignore"):
            ok = (np.abs(g - w) <= atol + rtol * np.abs(w)) | same_nan | (g == w)
        bad = np.flatnonzero(~ok)
    if bad.size == 0:
        return None
    k = int(bad[0])
    return "%d of %d elements differ, first [%d]: %.9g, expected %.9g (tolerance %g + %g|x|)" % (
        bad.size, got.size, k, g[k], w[k], atol, rtol)


def tolerance(g, out_index, combo):
    """(atol, rtol) against ONNX Runtime, or None: no ONNX Runtime check."""
    if g.kind == "float":
        return 1e-3, 1e-3
    if not combo.startswith("r"):
        return None
    return (1e-6, 1e-6) if g.outs[out_index][1] == np.float32 else (0, 0)


def check(cfg, g, combo, ref, base, tag=""):
    """None when the run under COMBO agrees, else (kind, why); kind:
    'fail' or 'refused'.  BASE: outputs to match bit-exactly, or None.
    Returns the outputs too."""
    got, why = tinyaot_run(cfg, g, combo, tag)
    if got is None:
        return ("fail", why), None
    for i, a in enumerate(got):
        tol = tolerance(g, i, combo)
        if tol is not None:
            d = differ(a, ref[i], *tol)
            if d:
                return ("fail", "output %d (%s) differs from ONNX Runtime: %s" % (i, a.dtype, d)), got
        if base is not None:
            d = differ(a, base[1][i], 0, 0)
            if d:
                return ("fail", "output %d (%s) differs from %s: %s" % (i, a.dtype, base[0], d)), got
    return None, got


def chosen(cfg, index):
    names = [c for c, _ in COMBOS]
    if cfg.runs == "all":
        return names
    if index % cfg.every:
        return []
    k = index // cfg.every
    out = ["r%d" % (k % 10)]
    if k % 3 == 0:
        others = ["d1", "d2", "s1", "s2"]
        out += ["d0", "s0", others[k // 3 % 4]]
    return out


def base_group(g, combo):
    """Runs compared bit-exactly with each other: a float graph's all; a
    QDQ graph's of one rounding."""
    return "all" if g.kind == "float" else combo[0]


def one_graph(cfg, g, index):
    """{'status': ok|fail|refused, 'why', 'combo', 'plans', 'runs'}."""
    r = {"status": "ok", "why": "", "combo": "", "plans": 0, "runs": 0}
    ref, err = refs(g)
    if ref is None:
        r.update(status="fail", why="ONNX Runtime runs the graph: " + err, combo="ort")
        return r
    for combo, _ in COMBOS:
        e = tinyaot_plan(cfg, g, combo)
        r["plans"] += 1
        if e:
            r.update(status=e[0], why=e[1], combo=combo)
            return r
    bases = {}
    for combo in chosen(cfg, index):
        grp = base_group(g, combo)
        e, got = check(cfg, g, combo, ref, bases.get(grp))
        r["runs"] += 1
        if e:
            r.update(status=e[0], why=e[1], combo=combo)
            return r
        bases.setdefault(grp, (combo, got))
    return r


# ---------------------------------------------------------------- minimising

def cut_model(model, outputs):
    """MODEL with OUTPUTS (value names) as its outputs and only the nodes,
    initializers and inputs they need; None if a name has no known type."""
    inferred = shape_inference.infer_shapes(model)
    vi = {v.name: v for v in list(inferred.graph.value_info) + list(inferred.graph.output) +
          list(inferred.graph.input)}
    if any(o not in vi for o in outputs):
        return None, None
    need = set(outputs)
    keep = []
    for n in reversed(model.graph.node):
        if any(o in need for o in n.output):
            keep.append(n)
            need.update(i for i in n.input if i)
    keep.reverse()
    g = model.graph
    ins = [i for i, v in enumerate(g.input) if v.name in need]
    graph = helper.make_graph(keep, g.name, [g.input[i] for i in ins],
                              [vi[o] for o in outputs],
                              [t for t in g.initializer if t.name in need])
    m = helper.make_model(graph, opset_imports=model.opset_import,
                          producer_name=model.producer_name)
    m.ir_version = model.ir_version
    return m, ins


def write_cut(g, model, ins, d):
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    onnx.save(model, os.path.join(d, "model.onnx"))
    for k, i in enumerate(ins):
        shutil.copy(g.in_files[i], os.path.join(d, "in%d.bin" % k))
    with open(os.path.join(d, "graph.txt"), "w") as f:
        for n in model.graph.node:
            f.write("%s %s -> %s\n" % (n.op_type, " ".join(n.input), " ".join(n.output)))
    return Graph(d, g.kind)


def still_fails(cfg, g, combo):
    """The disagreement on G under COMBO again (against the first run of
    its group, made here), or None."""
    ref, err = refs(g)
    if ref is None:
        return None
    base = None
    first = {"all": "r0", "r": "r0", "d": "d0", "s": "s0"}[base_group(g, combo)]
    if first != combo:
        e, got = check(cfg, g, first, ref, None, "-base")
        if e:
            return None
        base = (first, got)
    e, _ = check(cfg, g, combo, ref, base)
    return e[1] if e and e[0] == "fail" else None


def minimise(cfg, g, combo, why, name, work):
    model = onnx.load(g.model_path)
    m = re.match(r"output (\d+) ", why)
    cur, cur_why = g, why
    tries = []
    if m:
        out = model.graph.output[int(m.group(1))].name
        cm, ins = cut_model(model, [out])
        if cm is not None:
            tries.append([(cm, ins)])
            # Every value OUT depends on, earliest first.
            cands = []
            for n in cm.graph.node:
                for o in n.output:
                    if o != out:
                        c2, i2 = cut_model(model, [o])
                        if c2 is not None:
                            cands.append((c2, i2))
            tries.append(cands)
    for k, batch in enumerate(tries):
        gs = [write_cut(g, cm, ins, os.path.join(work, "min-%d-%d" % (k, j)))
              for j, (cm, ins) in enumerate(batch)]
        ort_run(cfg, [(x.model_path, x.dir, x.in_files) for x in gs])
        for x in gs:
            w = still_fails(cfg, x, combo)
            if w:
                cur, cur_why = x, w
                break
    dest = os.path.join(cfg.save, "%s-%s" % (name, combo))
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    for f in os.listdir(cur.dir):
        if f == "model.onnx" or f == "graph.txt" or re.match(r"(in|ref)\d+\.bin$", f):
            shutil.copy(os.path.join(cur.dir, f), dest)
    seed = name.split(".")[-1]
    ins = " ".join("-i %s/in%d.bin" % (dest, i) for i in range(len(cur.ins)))
    outs = " ".join("-o /tmp/out%d.bin" % i for i in range(len(cur.outs)))
    with open(os.path.join(dest, "why.txt"), "w") as f:
        f.write("graph: %s (%s), %d nodes after minimising\n" % (name, g.kind,
                                                                 len(onnx.load(cur.model_path).graph.node)))
        f.write("combination %s: %s\n" % (combo, FLAGS[combo]))
        f.write("regenerate: /usr/bin/python3 tools/gen_graphs_onnx.py OUTDIR --seed %s\n" % seed)
        f.write("run: %s run %s/model.onnx %s %s %s\n" % (cfg.tinyaot, dest, FLAGS[combo], ins, outs))
        f.write("reference: ref*.bin (ONNX Runtime); the oracle: %s/oracle/tflite-oracle "
                "%s/model.onnx %s ...\n" % (cfg.shared, dest, " ".join(
                    "%s/in%d.bin" % (dest, i) for i in range(len(cur.ins)))))
        f.write("(--layout nhwc: the 4-D inputs and outputs are NHWC)\n")
        f.write(cur_why + "\n")
    return dest, cur_why


# ---------------------------------------------------------------- batches

def cause(why):
    """A refusal's message without its names and numbers."""
    s = re.sub(r"^tinyaot plan exits \d+: ", "", why)
    s = re.sub(r"^[^:]*\.onnx: ", "", s)
    s = re.sub(r"'[^']*'|\"[^\"]*\"", "'.'", s)
    s = re.sub(r"\d+", "N", s)
    return s


def ort_missing(cfg, what):
    """None when the oracle, node and onnxruntime-node are there; else
    the exit status after saying what is missing: 1 (not ok) under
    TINYAOT_REQUIRE_SHARED=1, 0 (a loud skip: nothing of WHAT ran)."""
    oracle = os.path.join(cfg.shared, "oracle", "tflite-oracle")
    have_ort = os.path.isdir(os.path.join(cfg.oracle_home, "node_modules", "onnxruntime-node"))
    if os.path.exists(oracle) and shutil.which("node") and have_ort:
        return None
    why = ("node is not installed" if not shutil.which("node") else
           "no oracle at %s" % oracle if not os.path.exists(oracle) else
           "onnxruntime-node is not installed in %s" % cfg.oracle_home)
    if os.environ.get("TINYAOT_REQUIRE_SHARED") == "1":
        print("not ok - ONNX Runtime runs (%s; TINYAOT_REQUIRE_SHARED=1)" % why)
        return 1
    print("skip - ONNX RUNTIME MISSING: %s; %s" % (why, what))
    return 0


def main(argv):
    cfg = parse(argv)
    missing = ort_missing(cfg, "no random ONNX graph was run")
    if missing is not None:
        return missing
    tag = "%d-%d-%s-%d-%d" % (cfg.seed, cfg.count, cfg.runs, cfg.every, cfg.seconds)
    work = os.path.join(cfg.build, "graphs-onnx", tag)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    start = time.time()
    total = fails = plans = runs = refused = 0
    causes = {}
    seed = cfg.seed
    while True:
        bdir = os.path.join(work, "b%d" % seed)
        lines = []
        for s in range(seed, seed + cfg.count):
            gen = gen_graphs_onnx.Gen(s, 0, 8, None)
            model, ins, outs = gen.build()
            lines.append(gen_graphs_onnx.write(bdir, "graph.%d" % s, model, ins, outs, gen.kind))
        graphs = []
        for line in lines:
            f = line.split()
            graphs.append((f[0], int(f[5]), Graph(os.path.join(bdir, f[0]), f[1])))
        ort_run(cfg, [(g.model_path, g.dir, g.in_files) for _, _, g in graphs])
        with ThreadPoolExecutor(max(1, cfg.jobs)) as pool:
            results = list(pool.map(lambda t: one_graph(cfg, t[1][2], seed - cfg.seed + t[0]),
                                    enumerate(graphs)))
        for (name, nnodes, g), r in zip(graphs, results):
            total += 1
            plans += r["plans"]
            runs += r["runs"]
            what = "%s (%s, %d nodes)" % (name, g.kind, nnodes)
            if r["status"] == "refused":
                refused += 1
                c = cause(r["why"])
                causes[c] = causes.get(c, 0) + 1
                if not cfg.quiet:
                    print("# refused: %s: %s" % (what, r["why"]))
            elif r["status"] == "fail":
                fails += 1
                print("not ok - tinyaot agrees with ONNX Runtime on the random graph %s under "
                      "every option combination: %s: %s" % (what, r["combo"], r["why"]))
                if cfg.seconds > 0 and r["combo"] != "ort":
                    dest, w = minimise(cfg, g, r["combo"], r["why"], name, work)
                    print("# saved %s: %s" % (dest, w))
            elif not cfg.quiet:
                print("ok - tinyaot agrees with ONNX Runtime on the random graph %s under %d "
                      "plans and %d runs" % (what, r["plans"], r["runs"]))
            sys.stdout.flush()
        seed += cfg.count
        if cfg.seconds <= 0 or time.time() - start >= cfg.seconds:
            break
        shutil.rmtree(bdir, ignore_errors=True)
    el = max(1, int(time.time() - start))
    if cfg.quiet and fails == 0:
        print("ok - tinyaot agrees with ONNX Runtime on %d random ONNX graphs (seeds %d..%d)" % (
            total - refused, cfg.seed, seed - 1))
    print("# %d graphs, %d plans, %d runs (%d combinations planned per graph), %d disagreeing "
          "graphs, %d refused, %d s, %d graphs per hour" % (
              total, plans, runs, len(COMBOS), fails, refused, el, total * 3600 // el))
    for c, n in sorted(causes.items(), key=lambda kv: -kv[1]):
        print("# refused %d: %s" % (n, c))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
