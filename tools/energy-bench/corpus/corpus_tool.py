#!/usr/bin/env python3
"""Checks corpus.json against docs/bench-format.md and writes the test cases
that host_check.cpp runs (kernels emulated on the CPU, see host_emulation.h).

  corpus_tool.py check [corpus.json]
      Validates every entry: fields and types, expressions (names, values for
      every candidate config at `params` and `small_params`), the kernel
      source (opted in, extern "C", tunables) and its reference file, and
      that each launch covers the ENERGY_WORKLOAD the plugin assumes (or,
      for ENERGY_GRID, launches the declared grid at every config).
  corpus_tool.py cases KERNEL --report R.json -o CASES [--set NAME=V ...]
      Writes a case file for KERNEL at small_params (NAME=V overrides a
      param): seeded inputs and every candidate config in the plugin's JSON
      report (-energy-report) except those pruned for resources, each with
      the dynamic shared memory the plugin's launch record gives it.
  corpus_tool.py cases KERNEL --blocks SHAPE,... -o CASES [--set NAME=V ...]
      The same at the named block shapes (96, 32x8) and the default tunables,
      with the dynamic shared memory corpus.json gives them: for showing
      that a kernel computes wrongly at a shape, whatever the plugin says.
  corpus_tool.py force-sweep KERNEL -o CASES [--jobs N] -- CLANG ARG...
      Compiles KERNEL's source with `CLANG ARG... -mllvm
      -energy-force-config=KERNEL:SHAPE` once per block shape of the
      plugin's search space (1-D: 32..1024 step 32; 2-D: the power-of-two
      shapes), at the default tunables. A shape is accepted when the compile
      succeeds with the forced candidate in its report, rejected when it fails
      with an error naming the kernel, the shape and a reason; anything else
      is an error. Prints each rejection and the accepted shapes, and writes
      a case file of the accepted ones (host_check then runs them all).
  corpus_tool.py host-source SOURCE -o FILE
      Writes SOURCE with each `extern __shared__ T name[];` replaced by
      ENERGY_HOST_EXTERN_SHARED(T, name), which host emulation can compile
      (put FILE's directory first on the include path).

Runs under /usr/bin/python3 (numpy from Debian). Errors: `error: ...`, exit 1.
"""
import argparse
import ast
import concurrent.futures
import itertools
import json
import os
import re
import subprocess
import sys
import tempfile
import zlib

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
TYPES = {"f16": np.float16, "f32": np.float32, "f64": np.float64,
         "i32": np.int32, "u32": np.uint32, "i64": np.int64, "u8": np.uint8}
ARG_TYPES = {"i32", "i64", "u32", "f32", "f64"}
MAX_GRID = (2**31 - 1, 65535, 65535)


class CorpusError(Exception):
    pass


# --- expressions (bench-format.md: integers, + - * / %, ceil(a / b), min, max)
def evaluate(expr, names):
    """Value of an expression; `/` is integer division, ceil(a / b) rounds up."""
    try:
        tree = ast.parse(str(expr).strip(), mode="eval").body
    except SyntaxError:
        raise CorpusError(f"'{expr}' is not an expression")

    def ev(n):
        if isinstance(n, ast.Constant) and type(n.value) is int:
            return n.value
        if isinstance(n, ast.Name):
            if n.id not in names:
                raise CorpusError(f"'{expr}': unknown name '{n.id}'")
            return names[n.id]
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub):
            return -ev(n.operand)
        if isinstance(n, ast.BinOp):
            a, b = ev(n.left), ev(n.right)
            ops = {ast.Add: lambda: a + b, ast.Sub: lambda: a - b,
                   ast.Mult: lambda: a * b, ast.LShift: lambda: a << b}
            if type(n.op) in ops:
                return ops[type(n.op)]()
            if isinstance(n.op, (ast.Div, ast.Mod)):
                if b == 0:
                    raise CorpusError(f"'{expr}': division by zero")
                return a // b if isinstance(n.op, ast.Div) else a % b
        if (isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                and not n.keywords):
            f, args = n.func.id, n.args
            if f == "ceil" and len(args) == 1:
                a = args[0]
                if isinstance(a, ast.BinOp) and isinstance(a.op, ast.Div):
                    num, den = ev(a.left), ev(a.right)
                    if den == 0:
                        raise CorpusError(f"'{expr}': division by zero")
                    return -(-num // den)
                return ev(a)
            if f in ("min", "max") and len(args) == 2:
                return (min if f == "min" else max)(ev(args[0]), ev(args[1]))
        raise CorpusError(f"'{expr}': unsupported syntax")

    return ev(tree)


# --- what a kernel source declares -------------------------------------------
class Source:
    TUNABLE = re.compile(r"ENERGY_TUNABLE(_PER_THREAD)?\(\s*(\w+)\s*,([^;]*)\)\s*;")
    KERNEL = re.compile(r"ENERGY_KERNEL(_BLOCK|_TUNABLE_BLOCK)?\(\s*(\w+)\s*(?:,([^)]*))?\)")
    WORKLOAD = re.compile(r"ENERGY_WORKLOAD\(\s*(\w+)\s*,(.*?)\)\s*;")
    GRID = re.compile(r"ENERGY_GRID\(\s*(\w+)\s*,(.*?),(.*?),(.*?)\)\s*;")

    def __init__(self, path):
        with open(path) as f:  # without comments, which may name anything
            self.text = re.sub(r"//[^\n]*|/\*.*?\*/", "", f.read(), flags=re.S)
        # tunables: name -> (default, per_thread, candidates)
        self.tunables = {}
        for per_thread, name, rest in self.TUNABLE.findall(self.text):
            values = [int(v) for v in rest.split(",")]
            self.tunables[name] = (values[0], bool(per_thread), values[1:])
        self.kernels = {}  # name -> tiled (TX, TY) or None
        for kind, name, rest in self.KERNEL.findall(self.text):
            args = [a.strip() for a in rest.split(",")] if rest else []
            self.kernels[name] = tuple(args) if kind == "_TUNABLE_BLOCK" else None
        self.workloads = {k: evaluate(e, {}) for k, e in self.WORKLOAD.findall(self.text)}
        self.grids = {k: [evaluate(e, {}) for e in dims]
                      for k, *dims in self.GRID.findall(self.text)}
        # The plugin searches 2-D blocks when any y index or size is read.
        self.two_d = bool(re.search(r"\b(threadIdx|blockIdx|blockDim)\.y\b", self.text))

    def assignments(self):
        names = list(self.tunables)
        for values in itertools.product(*(self.tunables[n][2] for n in names)):
            yield dict(zip(names, values))

    def block_shapes(self, kernel, assignment):
        """The plugin's candidate blocks (ConfigSpace.cpp freeBlockShapes)."""
        tiled = self.kernels[kernel]
        if tiled:
            return [(assignment[tiled[0]], assignment[tiled[1]], 1)]
        if not self.two_d:
            return [(x, 1, 1) for x in range(32, 1025, 32)]
        shapes = []
        y = 1
        while y <= 1024:
            x = 8
            while x * y <= 1024:
                if x * y % 32 == 0:
                    shapes.append((x, y, 1))
                x *= 2
            y *= 2
        return shapes

    def work_per_thread(self, assignment):
        w = 1
        for name, (_, per_thread, _) in self.tunables.items():
            if per_thread:
                w *= assignment[name]
        return w


def config_names(params, block, assignment):
    names = dict(params)
    names.update(BLOCK_X=block[0], BLOCK_Y=block[1], BLOCK_Z=block[2])
    names.update(assignment)
    return names


def parse_init(init):
    m = re.fullmatch(r"\s*(\w+)\s*(?:\((.*)\))?\s*", str(init))
    if not m:
        raise CorpusError(f"bad init '{init}'")
    kind = m.group(1)
    args = [a.strip() for a in m.group(2).split(",")] if m.group(2) else []
    arity = {"uniform": 2, "randint": 2, "zeros": 0, "csr_row_ptr": 1, "iota": 0}
    if kind not in arity or len(args) != arity[kind]:
        raise CorpusError(f"bad init '{init}'")
    return kind, [float(a) if kind == "uniform" else int(a) for a in args]


# --- check ---------------------------------------------------------------------
def check_kernel(k, corpus_dir):
    def need(cond, what):
        if not cond:
            raise CorpusError(what)

    for field in ("name", "source", "entry", "params", "grid", "dynamic_smem",
                  "buffers", "args", "tolerance", "small_params"):
        need(field in k, f"missing '{field}'")
    name = k["name"]
    need(k["entry"] == name, "entry must equal name (kernels are extern \"C\")")
    src_path = os.path.join(corpus_dir, k["source"])
    need(os.path.exists(src_path), f"no source {k['source']}")
    src = Source(src_path)
    need(name in src.kernels, f"{k['source']} has no ENERGY_KERNEL*({name})")
    need(len(src.kernels) == 1, f"{k['source']} opts in {len(src.kernels)} kernels")
    need('extern "C"' in src.text, f"{k['source']} has no extern \"C\" kernel")
    ref = os.path.join(corpus_dir, f"{name}_ref.cpp")
    need(os.path.exists(ref), f"no reference {name}_ref.cpp")
    with open(ref) as f:
        need(f"ENERGY_REFERENCE({name})" in f.read(),
             f"{name}_ref.cpp does not register ENERGY_REFERENCE({name})")
    need((name in src.workloads) != (name in src.grids),
         f"{k['source']} needs one of ENERGY_WORKLOAD({name}, ...) and "
         f"ENERGY_GRID({name}, ...)")

    for key in ("params", "small_params"):
        need(all(type(v) is int and v > 0 for v in k[key].values()),
             f"{key} must be positive integers")
    need(set(k["params"]) == set(k["small_params"]),
         "params and small_params must name the same sizes")
    need(set(k["tolerance"]) == {"rel", "abs"} and
         all(isinstance(v, (int, float)) and v >= 0 for v in k["tolerance"].values()),
         "tolerance needs rel and abs >= 0")

    buffers = {}
    for b in k["buffers"]:
        need(b.get("name") and b["name"] not in buffers, "buffer names must be unique")
        need(b.get("type") in TYPES, f"buffer '{b['name']}': bad type '{b.get('type')}'")
        kind, args = parse_init(b.get("init"))
        if kind == "csr_row_ptr":
            need(b["type"] == "i32", "csr_row_ptr needs an i32 buffer")
        for key in ("params", "small_params"):
            count = evaluate(b.get("count"), k[key])
            need(count > 0, f"buffer '{b['name']}': count {count} at {key}")
            if kind == "csr_row_ptr":
                need(any(count == k[key].get(p, -1) + 1 for p in k[key]),
                     f"buffer '{b['name']}': csr_row_ptr needs count rows + 1")
        buffers[b["name"]] = b
    need(any(b.get("output") for b in k["buffers"]), "no output buffer")

    used = set()
    for i, a in enumerate(k["args"]):
        keys = {"param", "value", "buffer"} & set(a)
        need(len(keys) == 1, f"argument {i}: needs exactly one of param, value, buffer")
        if "buffer" in a:
            need(a["buffer"] in buffers, f"argument {i}: unknown buffer '{a['buffer']}'")
            used.add(a["buffer"])
        else:
            need(a.get("type") in ARG_TYPES, f"argument {i}: bad type '{a.get('type')}'")
            if "param" in a:
                need(a["param"] in k["params"], f"argument {i}: unknown param '{a['param']}'")
    need(used == set(buffers), "every buffer must be passed to the kernel")
    need(len(k["grid"]) == 3, "grid needs three expressions")

    # Every candidate config: a valid grid, and a launch that covers the
    # workload the plugin assumes (threads x items per thread >= workload),
    # or the grid it assumes.
    workload = src.workloads.get(name)
    configs, coverage = 0, []
    for assignment in src.assignments():
        for block in src.block_shapes(name, assignment):
            if block[0] * block[1] * block[2] > 1024:
                continue
            configs += 1
            for key in ("params", "small_params"):
                names = config_names(k[key], block, assignment)
                grid = [evaluate(e, names) for e in k["grid"]]
                need(all(0 < g <= limit for g, limit in zip(grid, MAX_GRID)),
                     f"grid {grid} at {key}, block {block}, {assignment}")
                need(evaluate(k["dynamic_smem"], names) >= 0, "negative dynamic_smem")
                if key == "params" and workload is None:
                    need(grid == src.grids[name], f"grid {grid} at params, block {block}, "
                         f"{assignment} is not ENERGY_GRID({name}, {src.grids[name]})")
                elif key == "params":
                    threads = np.prod(grid, dtype=np.int64) * block[0] * block[1] * block[2]
                    coverage.append(threads * src.work_per_thread(assignment) / workload)
    tunables = ", ".join(f"{n}={'/'.join(map(str, c))}" for n, (_, _, c) in src.tunables.items())
    shape = "tiled" if src.kernels[name] else ("2-D" if src.two_d else "1-D")
    if workload is None:
        return (f"{name}: {configs} configs ({shape} blocks; {tunables}); "
                f"grid {'x'.join(map(str, src.grids[name]))} at every config")
    need(min(coverage) >= 1.0, f"a launch covers only {min(coverage):.2f} of "
         f"ENERGY_WORKLOAD({name}, {workload}): grid or workload is wrong")
    need(min(coverage) < 1.1, f"ENERGY_WORKLOAD({name}, {workload}) is "
         f"{min(coverage):.2f}x too small for params")
    return (f"{name}: {configs} configs ({shape} blocks; {tunables}); "
            f"threads x items / workload {min(coverage):.2f}..{max(coverage):.2f}")


def cmd_check(args):
    with open(args.corpus) as f:
        corpus = json.load(f)
    if corpus.get("format") != "energy-corpus-v1":
        raise CorpusError(f"{args.corpus}: format must be energy-corpus-v1")
    names = [k.get("name") for k in corpus["kernels"]]
    if len(set(names)) != len(names):
        raise CorpusError(f"{args.corpus}: kernel names must be unique")
    for k in corpus["kernels"]:
        try:
            print(check_kernel(k, os.path.dirname(os.path.abspath(args.corpus))))
        except CorpusError as e:
            raise CorpusError(f"{args.corpus}: kernel '{k.get('name')}': {e}")
    print(f"{args.corpus}: {len(names)} kernels ok")


# --- cases -----------------------------------------------------------------------
def initial_data(buffer, count, kernel, seed):
    kind, args = parse_init(buffer["init"])
    dtype = TYPES[buffer["type"]]
    rng = np.random.default_rng([seed, zlib.crc32(f"{kernel}/{buffer['name']}".encode())])
    if kind == "uniform":
        return rng.uniform(args[0], args[1], count).astype(dtype)
    if kind == "randint":
        return rng.integers(args[0], args[1], count).astype(dtype)
    if kind == "csr_row_ptr":
        return (np.arange(count, dtype=np.int64) * args[0]).astype(dtype)
    if kind == "iota":
        return np.arange(count).astype(dtype)
    return np.zeros(count, dtype=dtype)


def find_kernel(corpus_path, name):
    with open(corpus_path) as f:
        corpus = json.load(f)
    k = next((k for k in corpus["kernels"] if k["name"] == name), None)
    if k is None:
        raise CorpusError(f"{corpus_path}: no kernel '{name}'")
    return k


def case_params(k, overrides):
    """small_params with NAME=V overrides."""
    params = dict(k["small_params"])
    for s in overrides:
        key, _, value = s.partition("=")
        if key not in params or not value.isdigit():
            raise CorpusError(f"--set {s}: expected PARAM=integer")
        params[key] = int(value)
    return params


def report_configs(report_path, kernel):
    """(block, tunables, dynamic shared bytes) of every candidate in a plugin
    report (-energy-report) except those pruned for resources."""
    with open(report_path) as f:
        report = json.load(f)
    plan = next((p for p in report["kernels"] if p["kernel"] == kernel), None)
    if plan is None:
        raise CorpusError(f"{report_path}: no kernel '{kernel}'")
    configs = []
    for c in plan["candidates"]:
        if c.get("pruned") == "resources":
            continue
        if "dynamic_shared_bytes" not in c:
            raise CorpusError(f"{report_path}: candidate {config_id(c['block'], c['tunables'])} "
                              "has no dynamic_shared_bytes (a report from an older plugin?)")
        configs.append((c["block"], c["tunables"], c["dynamic_shared_bytes"]))
    return configs


def config_id(block, tunables):
    return ",".join(["x".join(map(str, block))] + [f"{n}={v}" for n, v in tunables.items()])


def parse_shape(text):
    """'96' or '32x8' (or '32x8x1') -> (x, y, z)."""
    if not re.fullmatch(r"[1-9][0-9]*(x[1-9][0-9]*){0,2}", text):
        raise CorpusError(f"'{text}' is not a block shape (X, XxY or XxYxZ)")
    dims = [int(d) for d in text.split("x")]
    return tuple(dims + [1] * (3 - len(dims)))


def write_cases(k, params, configs, output, seed):
    """A case file for host_check: seeded inputs and the configs
    (block, tunables, dynamic shared bytes), each with its grid at params."""
    if not configs:
        raise CorpusError(f"kernel '{k['name']}': no config to run")
    lines = ["energy-host-case 2", f"kernel {k['name']}"]
    lines += [f"param {n} {v}" for n, v in params.items()]
    lines.append(f"tolerance {k['tolerance']['rel']!r} {k['tolerance']['abs']!r}")
    blobs = []
    for b in k["buffers"]:
        count = evaluate(b["count"], params)
        lines.append(f"buffer {b['name']} {b['type']} {count} {int(bool(b.get('output')))}")
        blobs.append(initial_data(b, count, k["name"], seed).tobytes())
    for a in k["args"]:
        if "buffer" in a:
            lines.append(f"arg buffer {a['buffer']}")
        elif "param" in a:
            lines.append(f"arg param {a['type']} {params[a['param']]}")
        else:
            lines.append(f"arg value {a['type']} {a['value']!r}")
    for block, tunables, dynamic_shared in configs:
        grid = [evaluate(e, config_names(params, block, tunables)) for e in k["grid"]]
        lines.append(" ".join(map(str, ["config", config_id(block, tunables), *block, *grid,
                                        dynamic_shared, len(tunables),
                                        *itertools.chain(*tunables.items())])))
    lines.append("data")
    with open(output, "wb") as f:
        f.write(("\n".join(lines) + "\n").encode())
        for blob in blobs:
            f.write(blob)


def default_tunables(src):
    return {name: default for name, (default, _, _) in src.tunables.items()}


def cmd_cases(args):
    k = find_kernel(args.corpus, args.kernel)
    params = case_params(k, args.set)
    if args.report:
        configs = report_configs(args.report, args.kernel)
        if not configs:
            raise CorpusError(f"{args.report}: kernel '{args.kernel}' has no launchable candidate")
    else:
        # Shapes the caller names, at the default tunables, with the dynamic
        # shared memory corpus.json gives them.
        src = Source(os.path.join(os.path.dirname(os.path.abspath(args.corpus)), k["source"]))
        tunables = default_tunables(src)
        configs = []
        for text in args.blocks.split(","):
            block = parse_shape(text)
            names = config_names(params, block, tunables)
            configs.append((list(block), tunables, evaluate(k["dynamic_smem"], names)))
    write_cases(k, params, configs, args.output, args.seed)


# --- force-sweep -------------------------------------------------------------------
def format_shape(block):
    """The plugin's spelling of a block shape: 96, 32x8 (formatBlockShape)."""
    dims = list(block)
    while len(dims) > 1 and dims[-1] == 1:
        dims.pop()
    return "x".join(map(str, dims))


def force_shape(compile_cmd, kernel, source, block, tunables, workdir):
    """Compiles SOURCE with the kernel forced to BLOCK: ("accepted", config),
    ("rejected", reason), or a CorpusError when neither is clear."""
    shape = format_shape(block)
    report = os.path.join(workdir, f"{shape}.json")
    force = ",".join([f"{kernel}:{shape}"] + [f"{n}={v}" for n, v in tunables.items()])
    argv = compile_cmd + ["-mllvm", f"-energy-force-config={force}",
                          "-mllvm", f"-energy-report={report}", source, "-o", os.devnull]
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise CorpusError(f"kernel '{kernel}': forced block {shape}: cannot compile: {e}")
    if done.returncode == 0:
        configs = report_configs(report, kernel)
        match = [c for c in configs if tuple(c[0]) == tuple(block)]
        if len(configs) != 1 or not match:
            raise CorpusError(f"kernel '{kernel}': forced block {shape} compiled, but the "
                              f"report's candidates are {[format_shape(c[0]) for c in configs]}")
        return "accepted", match[0]
    # A rejection is an error naming the kernel and the shape, then a reason
    # ("forced block 96 is not correct for it: REASON" gives REASON).
    named = re.compile(rf"error: .*'{re.escape(kernel)}'.*?(?<![0-9x]){re.escape(shape)}"
                       rf"(?![0-9x])(?P<rest>.*)")
    for line in done.stderr.splitlines():
        m = named.search(line)
        reason = m and re.sub(r"^[^:]*:", "", m["rest"]).strip()
        if reason:
            return "rejected", reason
    tail = "\n".join(done.stderr.strip().splitlines()[-10:])
    raise CorpusError(f"kernel '{kernel}': forced block {shape}: the compile failed "
                      f"(exit {done.returncode}) without an error naming the shape and a "
                      f"reason:\n{tail}")


def cmd_force_sweep(args):
    compile_cmd = args.compile
    if not compile_cmd:
        raise CorpusError("force-sweep needs the compile command after --")
    k = find_kernel(args.corpus, args.kernel)
    source = os.path.join(os.path.dirname(os.path.abspath(args.corpus)), k["source"])
    src = Source(source)
    tunables = default_tunables(src)
    if src.kernels.get(args.kernel):
        raise CorpusError(f"kernel '{args.kernel}': its tunables fix its block; "
                          "there are no block shapes to force")
    shapes = [b for b in src.block_shapes(args.kernel, tunables) if b[0] * b[1] * b[2] <= 1024]
    with tempfile.TemporaryDirectory() as workdir, \
            concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        outcomes = list(pool.map(
            lambda b: force_shape(compile_cmd, args.kernel, source, b, tunables, workdir),
            shapes))
    accepted = [what for verdict, what in outcomes if verdict == "accepted"]
    for block, (verdict, what) in zip(shapes, outcomes):
        if verdict == "rejected":
            print(f"{args.kernel}: {format_shape(block)} rejected: {what}")
    print(f"{args.kernel}: {len(accepted)} of {len(shapes)} forced block shapes accepted: "
          + " ".join(format_shape(c[0]) for c in accepted))
    if not accepted:
        raise CorpusError(f"kernel '{args.kernel}': no forced block shape was accepted")
    write_cases(k, case_params(k, []), accepted, args.output, args.seed)


# --- host-source ------------------------------------------------------------------
EXTERN_SHARED = re.compile(r"\bextern\s+__shared__\s+([^;\[]*?)\s*\b([A-Za-z_]\w*)\s*\[\s*\]\s*;")


def cmd_host_source(args):
    with open(args.source) as f:
        text = f.read()
    rewritten, count = EXTERN_SHARED.subn(r"ENERGY_HOST_EXTERN_SHARED(\1, \2);", text)
    if "extern __shared__" in re.sub(r"//.*", "", rewritten):
        raise CorpusError(f"{args.source}: an `extern __shared__` declaration that is not "
                          "`extern __shared__ T name[];`")
    with open(args.output, "w") as f:
        f.write(rewritten)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("check")
    check.add_argument("corpus", nargs="?", default=os.path.join(HERE, "corpus.json"))
    cases = sub.add_parser("cases")
    cases.add_argument("kernel")
    configs = cases.add_mutually_exclusive_group(required=True)
    configs.add_argument("--report")
    configs.add_argument("--blocks", metavar="SHAPE,...")
    cases.add_argument("-o", "--output", required=True)
    cases.add_argument("--corpus", default=os.path.join(HERE, "corpus.json"))
    cases.add_argument("--set", action="append", default=[], metavar="NAME=V")
    cases.add_argument("--seed", type=int, default=1)
    sweep = sub.add_parser("force-sweep")
    sweep.add_argument("kernel")
    sweep.add_argument("-o", "--output", required=True)
    sweep.add_argument("--corpus", default=os.path.join(HERE, "corpus.json"))
    sweep.add_argument("--seed", type=int, default=1)
    sweep.add_argument("--jobs", type=int, default=2)
    host_source = sub.add_parser("host-source")
    host_source.add_argument("source")
    host_source.add_argument("-o", "--output", required=True)
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:cut])
    args.compile = argv[cut + 1:]
    commands = {"check": cmd_check, "cases": cmd_cases, "force-sweep": cmd_force_sweep,
                "host-source": cmd_host_source}
    try:
        commands[args.command](args)
    except (CorpusError, OSError, json.JSONDecodeError) as e:
        sys.stdout.flush()  # what it printed before the error comes first
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
