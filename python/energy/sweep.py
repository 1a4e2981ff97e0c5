"""Make a sweep: one PTX per candidate launch configuration of every corpus kernel.

    /usr/bin/python3 -m energy.sweep --corpus tools/energy-bench/corpus \\
        --plugin build/lib/energy.so -o sweep [--arch sm_90] [--kernels a,b] \\
        [--max-configs-per-kernel N] [--repeat-fraction 0.2] [--seed S] [--small] [--tar]

For each kernel of corpus.json (docs/bench-format.md) this

1. compiles its source with the plugin three times (objectives energy, time and edp),
   each with -energy-report, to learn the candidate configurations (block shape and
   tunables; pruned ones are left out) and the config the plugin chooses per objective;
2. picks the configs to measure: all candidates, or an even subsample of at most
   --max-configs-per-kernel, always with the plugin's three choices, the default config
   (the kernel's default block, usually 256 threads, with default tunables), the largest
   block, and the plugin's occupancy-heuristic pick;
3. compiles one PTX per config with -energy-force-config (block, tunables, the grid
   the runner launches and its integer arguments, so that its model inputs describe the
   measured launch), whose
   report gives that config's model inputs and analytic prediction, plus (for kernels whose block shape
   the tunables do not fix) one plugin-free PTX for cuOccupancyMaxPotentialBlockSize;
4. evaluates the corpus expressions (grid, dynamic shared memory, buffer counts) per
   config, marks --repeat-fraction of the configs `repeat` and the default config as the
   drift `reference`, and writes OUTDIR/manifest.json and OUTDIR/ptx/.

The GPU runner tools/energy-bench measures the manifest. Compiles run at most --jobs (2)
at a time. --small uses each kernel's small_params (for tests without a GPU).
corpus.json may give a kernel a `workload` expression: the work items per launch the
plugin's cost model assumes (-energy-workload); without it the plugin uses the source's
ENERGY_WORKLOAD (or 2^24), and a launch whose grid differs is warned about.
"""

import argparse
import ast
import concurrent.futures
import copy
import datetime
import hashlib
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

CORPUS_FORMAT = "energy-corpus-v1"
MANIFEST_FORMAT = "energy-sweep-v1"
REPORT_FORMAT = "energy-report-v1"
OBJECTIVES = ("energy", "time", "edp")
TYPES = ("f16", "f32", "f64", "i32", "u32", "i64", "u8")
TAR_LIMIT = 64 * 2**20
# energy-bench's defaults: 2 s energy run, 0.5 s warm-up, set-up (a noisy run is
# measured once more).
SECONDS_PER_MEASUREMENT = 3.0
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_CLANG = "/usr/lib/llvm-19/bin/clang++"
DEFAULT_CUDA = "/usr/local/cuda"
# Block threads cuOccupancyMaxPotentialBlockSize may pick (multiples of a warp).
OCCUPANCY_BLOCKS = range(32, 1025, 32)


class SweepError(Exception):
    """A problem with the corpus, the plugin or a compile; str() is the message."""


# --- Expressions ------------------------------------------------------------------------

_BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Mod: "%"}
_FUNCTIONS = {"ceil": 1, "min": 2, "max": 2}
MAX_EXPRESSION = 400


def _c_div(a, b):
    """Integer division truncating toward zero, as in C."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def evaluate(text, names):
    """The integer value of a corpus expression (docs/bench-format.md).

    Integers, + - * / % (integer division and remainder, as in C), parentheses,
    ceil(a / b) (rounds the division up), min(a, b), max(a, b) and the given names.
    Anything else (floats, other calls, attributes, **, //, comparisons ...) is
    rejected: the text is parsed with ast and walked, never eval'ed. Raises ValueError.
    """
    if isinstance(text, bool):
        raise ValueError("not an expression")
    if isinstance(text, int):
        return text
    if not isinstance(text, str) or not text.strip():
        raise ValueError("not an expression")
    if len(text) > MAX_EXPRESSION:
        raise ValueError(f"longer than {MAX_EXPRESSION} characters")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError:
        raise ValueError("syntax error") from None
    return _eval_node(tree.body, names)


def _eval_node(node, names):
    if isinstance(node, ast.Constant):
        if isinstance(node.value, bool) or not isinstance(node.value, int):
            raise ValueError(f"'{node.value!r}' is not an integer")
        return node.value
    if isinstance(node, ast.Name):
        if node.id not in names:
            raise ValueError(f"unknown name '{node.id}'")
        return names[node.id]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        value = _eval_node(node.operand, names)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
        a, b = _eval_node(node.left, names), _eval_node(node.right, names)
        if isinstance(node.op, ast.Add):
            return a + b
        if isinstance(node.op, ast.Sub):
            return a - b
        if isinstance(node.op, ast.Mult):
            return a * b
        if b == 0:
            raise ValueError("division by zero")
        if isinstance(node.op, ast.Div):
            return _c_div(a, b)
        return a - b * _c_div(a, b)
    if isinstance(node, ast.Call):
        name = node.func.id if isinstance(node.func, ast.Name) else None
        if name not in _FUNCTIONS:
            raise ValueError("only ceil(), min() and max() may be called")
        if node.keywords or len(node.args) != _FUNCTIONS[name]:
            raise ValueError(f"{name}() takes {_FUNCTIONS[name]} argument(s)")
        if name == "ceil":
            arg = node.args[0]
            if isinstance(arg, ast.BinOp) and isinstance(arg.op, ast.Div):
                a, b = _eval_node(arg.left, names), _eval_node(arg.right, names)
                if b == 0:
                    raise ValueError("division by zero")
                return -(-a // b)  # Python's // floors: this rounds a / b up
            return _eval_node(arg, names)
        a, b = (_eval_node(arg, names) for arg in node.args)
        return min(a, b) if name == "min" else max(a, b)
    what = type(node).__name__
    if isinstance(node, ast.BinOp):
        what = {ast.FloorDiv: "//", ast.Pow: "**"}.get(type(node.op), type(node.op).__name__)
    raise ValueError(f"'{what}' is not allowed (integers, + - * / %, ceil, min, max, names)")


def _number(text):
    """A float literal of an init spec, possibly negative."""
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        raise ValueError(f"'{text.strip()}' is not a number") from None
    sign = 1
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        sign = -1 if isinstance(node.op, ast.USub) else 1
        node = node.operand
    if not isinstance(node, ast.Constant) or isinstance(node.value, bool) \
            or not isinstance(node.value, (int, float)):
        raise ValueError(f"'{text.strip()}' is not a number")
    return sign * node.value


def evaluate_init(text, names):
    """A buffer's init spec with its arguments evaluated, e.g. 'randint(0,4096)'."""
    if not isinstance(text, str):
        raise ValueError("init must be a string")
    m = re.fullmatch(r"\s*([a-z_]+)\s*(?:\((.*)\))?\s*", text)
    if not m:
        raise ValueError(f"init '{text}' is not NAME or NAME(ARGS)")
    name, args = m.group(1), m.group(2)
    parts = [] if args is None or not args.strip() else args.split(",")
    arity = {"uniform": 2, "randint": 2, "csr_row_ptr": 1, "zeros": 0, "iota": 0}
    if name not in arity:
        raise ValueError(f"unknown init '{text}' (expected uniform(lo,hi), randint(lo,hi), "
                         "zeros, csr_row_ptr(k) or iota)")
    if len(parts) != arity[name]:
        raise ValueError(f"init '{text}' takes {arity[name]} argument(s)")
    if name == "uniform":
        lo, hi = (_number(p) for p in parts)
        if not lo < hi:
            raise ValueError(f"init '{text}' needs lo < hi")
        return f"uniform({lo!r},{hi!r})"
    if not parts:
        return name
    values = [evaluate(p.strip(), names) for p in parts]
    if name == "randint" and not values[0] < values[1]:
        raise ValueError(f"init '{text}' needs lo < hi")
    return f"{name}({','.join(str(v) for v in values)})"


# --- Corpus -----------------------------------------------------------------------------

def _identifier(value):
    return isinstance(value, str) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", value)


def load_corpus(corpus_dir):
    """corpus.json's kernels, checked; source paths made absolute."""
    path = os.path.join(corpus_dir, "corpus.json")
    if not os.path.isdir(corpus_dir):
        raise SweepError(f"{corpus_dir}: no such corpus directory")
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except FileNotFoundError:
        raise SweepError(f"{path}: no corpus.json in the corpus directory") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise SweepError(f"{path}: cannot read: {e}") from None
    if not isinstance(doc, dict) or doc.get("format") != CORPUS_FORMAT:
        raise SweepError(f"{path}: format must be '{CORPUS_FORMAT}'")
    kernels = doc.get("kernels")
    if not isinstance(kernels, list) or not kernels:
        raise SweepError(f"{path}: 'kernels' must be a non-empty list")
    seen = set()
    out = []
    for k in kernels:
        name = k.get("name") if isinstance(k, dict) else None
        where = f"{path}: kernel '{name}'" if _identifier(name) else f"{path}: kernel"
        if not isinstance(k, dict) or not _identifier(name):
            raise SweepError(f"{where}: 'name' must be an identifier")
        if name in seen:
            raise SweepError(f"{where}: duplicate name")
        seen.add(name)
        k = copy.deepcopy(k)
        for key in ("source", "entry", "params", "grid", "buffers", "args", "tolerance"):
            if key not in k:
                raise SweepError(f"{where}: missing '{key}'")
        k["source"] = os.path.join(corpus_dir, k["source"])
        if not os.path.isfile(k["source"]):
            raise SweepError(f"{where}: source '{k['source']}' not found")
        for key in ("params", "small_params"):
            params = k.get(key, {})
            if not isinstance(params, dict) or not all(
                    _identifier(p) and isinstance(v, int) and not isinstance(v, bool)
                    for p, v in params.items()):
                raise SweepError(f"{where}: '{key}' must map names to integers")
        if not isinstance(k["grid"], list) or len(k["grid"]) != 3:
            raise SweepError(f"{where}: 'grid' must be a list of 3 expressions")
        _check_buffers(where, k)
        out.append(k)
    return path, out


def _check_buffers(where, k):
    buffers = k["buffers"]
    if not isinstance(buffers, list) or not buffers:
        raise SweepError(f"{where}: 'buffers' must be a non-empty list")
    names = set()
    for b in buffers:
        if not isinstance(b, dict) or not _identifier(b.get("name")):
            raise SweepError(f"{where}: each buffer needs a 'name'")
        if b["name"] in names:
            raise SweepError(f"{where}: duplicate buffer '{b['name']}'")
        names.add(b["name"])
        if b.get("type") not in TYPES:
            raise SweepError(f"{where}: buffer '{b['name']}': type '{b.get('type')}' is not "
                             f"one of {' '.join(TYPES)}")
        for key in ("count", "init"):
            if key not in b:
                raise SweepError(f"{where}: buffer '{b['name']}': missing '{key}'")
    if not any(b.get("output") for b in buffers):
        raise SweepError(f"{where}: no buffer has \"output\": true")
    if not isinstance(k["args"], list):
        raise SweepError(f"{where}: 'args' must be a list")
    for i, a in enumerate(k["args"]):
        kinds = [key for key in ("param", "value", "buffer") if isinstance(a, dict) and key in a]
        if len(kinds) != 1:
            raise SweepError(f"{where}: argument {i} needs exactly one of param, value, buffer")
        if kinds == ["buffer"] and a["buffer"] not in names:
            raise SweepError(f"{where}: argument {i} names unknown buffer '{a['buffer']}'")
        if kinds == ["param"] and a["param"] not in k["params"]:
            raise SweepError(f"{where}: argument {i} names unknown param '{a['param']}'")
        if kinds != ["buffer"] and a.get("type") not in TYPES:
            raise SweepError(f"{where}: argument {i}: type '{a.get('type')}' is not one of "
                             f"{' '.join(TYPES)}")


# --- Compiling --------------------------------------------------------------------------

class Toolchain:
    """clang-19 device-only compiles with the plugin, as test/lit.cfg.py's %cudaflags."""

    def __init__(self, plugin, clang, cuda_path, arch, include_dir):
        self.plugin, self.clang, self.arch = plugin, clang, arch
        self.flags = ["-x", "cuda", "--cuda-device-only", f"--cuda-gpu-arch={arch}",
                      f"--cuda-path={cuda_path}",
                      "-isystem", os.path.join(include_dir, "energy", "cuda-compat"),
                      "-I", include_dir, "-Wno-unknown-cuda-version", "-O3", "-S"]

    def command(self, source, output, mllvm=(), plugin=True):
        cmd = [self.clang] + self.flags
        if plugin:
            cmd += [f"-fplugin={self.plugin}", f"-fpass-plugin={self.plugin}"]
            for option in mllvm:
                cmd += ["-mllvm", option]
        return cmd + [source, "-o", output]

    def compile(self, what, source, output, mllvm=(), plugin=True):
        cmd = self.command(source, output, mllvm, plugin)
        try:
            done = subprocess.run(cmd, capture_output=True, text=True)
        except OSError as e:
            raise SweepError(f"{what}: cannot run {self.clang}: {e.strerror}") from None
        if done.returncode != 0:
            tail = "\n".join(done.stderr.strip().splitlines()[-15:])
            raise SweepError(f"{what}: compile failed (exit {done.returncode}):\n"
                             f"  {' '.join(cmd)}\n{tail}")


def _read_report(what, path, kernel):
    try:
        with open(path, encoding="utf-8") as f:
            report = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        raise SweepError(f"{what}: cannot read the plugin's report {path}: {e}") from None
    if report.get("format") != REPORT_FORMAT:
        raise SweepError(f"{what}: the plugin's report is not {REPORT_FORMAT}")
    for k in report.get("kernels", []):
        if k.get("kernel") == kernel:
            return report, k
    found = ", ".join(k.get("kernel", "?") for k in report.get("kernels", [])) or "none"
    raise SweepError(f"{what}: the plugin reports no kernel '{kernel}' (found: {found}); "
                     f"is it opted in with ENERGY_KERNEL({kernel})?")


def _run_all(jobs, tasks):
    """Runs the callables with at most `jobs` at a time; the first error wins."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(task) for task in tasks]
        try:
            for future in concurrent.futures.as_completed(futures):
                future.result()
        except BaseException:
            for future in futures:
                future.cancel()
            raise


# --- Configs ----------------------------------------------------------------------------

def config_name(block, tunables):
    """'b256.ITEMS=2', 'b16x16.TILE=16', 'b32x4x2': the dataset's `config`."""
    dims = list(block)
    while len(dims) > 1 and dims[-1] == 1:
        dims.pop()
    return "b" + "x".join(str(d) for d in dims) + "".join(
        f".{name}={value}" for name, value in tunables.items())


def force_option(kernel, block, tunables, grid=None, arguments=()):
    """The plugin option that applies this config; with the launch's grid and its integer
    arguments ((position from 1, value)), its model inputs describe that launch (the grid
    sets the workload, the arguments the loop bounds that read them)."""
    shape = "x".join(str(d) for d in block)
    launch = f",grid={'x'.join(str(g) for g in grid)}" if grid else ""
    launch += "".join(f",arg{n}={value}" for n, value in arguments)
    return f"-energy-force-config={kernel}:{shape}{launch}" + "".join(
        f",{name}={value}" for name, value in tunables.items())


INTEGER_TYPES = ("i32", "u32", "i64", "u8")


def integer_arguments(args, names):
    """(position from 1, value) of the kernel's non-negative integer arguments, each a
    param's value (from names) or a literal value."""
    out = []
    for position, a in enumerate(args, 1):
        if "buffer" in a or a.get("type") not in INTEGER_TYPES:
            continue
        value = names[a["param"]] if "param" in a else a["value"]
        if isinstance(value, int) and value >= 0:
            out.append((position, value))
    return out


def _config_of(entry, tunable_order):
    tunables = entry.get("tunables", {})
    return (tuple(entry["block"]), tuple((name, tunables[name]) for name in tunable_order))


def load_earlier_configs(path):
    """kernel -> its configs (block, ((tunable, value), ...)) in an earlier manifest, in
    its order; the tunables in the order the manifest lists them."""
    try:
        with open(path, encoding="utf-8") as f:
            manifest = json.load(f)
        return {k["name"]: [(tuple(c["block"]), tuple(c.get("tunables", {}).items()))
                            for c in k["configs"]]
                for k in manifest["kernels"]}
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise SweepError(f"{path}: not a sweep manifest ({e})") from None


def even_subsample(items, count):
    """`count` items spread evenly over the list, first and last included."""
    if count <= 0:
        return []
    if count >= len(items):
        return list(items)
    if count == 1:
        return [items[len(items) // 2]]
    picks = sorted({round(i * (len(items) - 1) / (count - 1)) for i in range(count)})
    return [items[i] for i in picks]


def choose_configs(candidates, required, cap):
    """Required configs first, then an even subsample of the others up to `cap` in all."""
    chosen = list(dict.fromkeys(required))
    rest = [c for c in candidates if c not in chosen]
    if cap is None:
        return chosen + rest
    return chosen + even_subsample(rest, cap - len(chosen))


# --- The sweep --------------------------------------------------------------------------

class Sweep:
    def __init__(self, args):
        self.args = args
        self.corpus_path, kernels = load_corpus(args.corpus)
        plugin = os.path.abspath(args.plugin)
        if not os.path.isfile(plugin):
            raise SweepError(f"{args.plugin}: plugin not found (build it: ninja -C build)")
        if not os.path.isfile(args.clang):
            raise SweepError(f"{args.clang}: clang++ 19 not found (--clang)")
        self.tools = Toolchain(plugin, args.clang, args.cuda_path, args.arch, args.include)
        if args.kernels:
            wanted = [k for k in args.kernels.split(",") if k]
            known = {k["name"] for k in kernels}
            unknown = [k for k in wanted if k not in known]
            if unknown:
                raise SweepError(f"{self.corpus_path}: no kernel named {', '.join(unknown)}")
            kernels = [k for k in kernels if k["name"] in wanted]
        self.kernels = kernels
        self.out = os.path.abspath(args.output)
        self.earlier = load_earlier_configs(args.configs_of) if args.configs_of else None

    @staticmethod
    def warn(text):
        print(f"warning: {text}", file=sys.stderr)

    def params(self, k):
        return dict(k.get("small_params") or k["params"]) if self.args.small else dict(k["params"])

    def expr(self, k, what, text, names):
        try:
            return evaluate(text, names)
        except ValueError as e:
            raise SweepError(f"{self.corpus_path}: kernel '{k['name']}': {what} "
                             f"'{text}': {e}") from None

    def workload_options(self, k):
        if "workload" not in k:
            return []
        items = self.expr(k, "workload", k["workload"], self.params(k))
        if items <= 0:
            raise SweepError(f"{self.corpus_path}: kernel '{k['name']}': workload must be "
                             f"positive, got {items}")
        return [f"-energy-workload={items}"]

    def run(self):
        self.prepare_output()
        with tempfile.TemporaryDirectory(prefix="energy-sweep-") as tmp:
            self.tmp = tmp
            plans = self.plan_kernels()
            entries = self.compile_configs(plans)
        manifest = self.manifest(plans, entries)
        tmp_path = os.path.join(self.out, "manifest.json.tmp")
        with open(tmp_path, "w", encoding="utf-8") as f:
            json.dump(manifest, f, indent=1)
            f.write("\n")
        os.replace(tmp_path, os.path.join(self.out, "manifest.json"))
        configs = sum(len(k["configs"]) for k in manifest["kernels"])
        repeats = sum(c["repeat"] for k in manifest["kernels"] for c in k["configs"])
        minutes = (configs + repeats) * SECONDS_PER_MEASUREMENT / 60
        lines = [f"wrote {os.path.join(self.args.output, 'manifest.json')}: "
                 f"{len(manifest['kernels'])} kernels, {configs} configs, "
                 f"{configs + repeats} measurements (about {minutes:.1f} min of GPU time)"]
        if self.args.tar:
            lines.append(self.write_tar())
        return lines

    def prepare_output(self):
        if os.path.exists(self.out):
            if not os.path.isdir(self.out):
                raise SweepError(f"{self.args.output}: exists and is not a directory")
            extra = set(os.listdir(self.out)) - {"manifest.json", "ptx", "manifest.json.tmp"}
            if extra:
                raise SweepError(f"{self.args.output}: exists and holds more than a sweep "
                                 f"({', '.join(sorted(extra))}); choose another -o")
            # A failed sweep leaves no manifest naming missing PTX.
            shutil.rmtree(os.path.join(self.out, "ptx"), ignore_errors=True)
            for name in ("manifest.json", "manifest.json.tmp"):
                if os.path.exists(os.path.join(self.out, name)):
                    os.remove(os.path.join(self.out, name))
        os.makedirs(os.path.join(self.out, "ptx"), exist_ok=True)

    def plan_kernels(self):
        """Reports for the three objectives, then the configs to measure per kernel."""
        tasks = []
        for k in self.kernels:
            for objective in OBJECTIVES:
                report = os.path.join(self.tmp, f"{k['name']}.{objective}.json")
                options = [f"-energy-objective={objective}", f"-energy-report={report}"]
                options += self.workload_options(k)
                tasks.append(lambda k=k, objective=objective, options=options:
                             self.tools.compile(f"kernel '{k['name']}' (objective {objective})",
                                                k["source"], os.devnull, options))
        _run_all(self.args.jobs, tasks)
        plans = []
        for k in self.kernels:
            plans.append(self.plan_kernel(k))
        return plans

    def plan_kernel(self, k):
        name = k["name"]
        reports = {}
        for objective in OBJECTIVES:
            path = os.path.join(self.tmp, f"{name}.{objective}.json")
            reports[objective] = _read_report(f"kernel '{name}'", path, name)
        report, entry = reports["energy"]
        if entry.get("ir_name") != k["entry"]:
            raise SweepError(f"{self.corpus_path}: kernel '{name}': its PTX entry is "
                             f"'{entry.get('ir_name')}', not '{k['entry']}' (declare the "
                             "kernel inside extern \"C\" { ... } so that entry == name)")
        if not entry.get("applied"):
            raise SweepError(f"kernel '{name}': the plugin does not tune it "
                             f"(opted in: {entry.get('opted_in')}, bounded by the user: "
                             f"{entry.get('user_bounded')})")
        order = [t["name"] for t in entry["tunables"]]
        candidates = [_config_of(c, order) for c in entry["candidates"] if "pruned" not in c]
        choices = {objective: _config_of(reports[objective][1]["choice"], order)
                   for objective in OBJECTIVES}
        baselines = entry["baselines"]
        default = _config_of(baselines["default"], order)
        occupancy = _config_of(baselines["occupancy_heuristic"], order)
        # A baseline the resources rule out is reported as pruned: it cannot launch.
        launchable = [config for config, key in ((default, "default"),
                                                 (occupancy, "occupancy_heuristic"))
                      if "pruned" not in baselines[key]]
        same_tunables = [c for c in candidates if c[1] == default[1]] or candidates
        largest = max(same_tunables, key=lambda c: (math.prod(c[0]), c[0]))
        required = list(choices.values()) + launchable + [largest]
        if self.earlier is not None:
            # Re-scoring a measured sweep: its configs, whatever this plugin lists,
            # chooses or prunes (they were measured; a forced config compiles).
            configs = [(block, tuple((t, dict(tunables)[t]) for t in order))
                       for block, tunables in self.earlier.get(name, [])]
        else:
            configs = choose_configs(candidates, required, self.args.max_configs_per_kernel)
        assignments = math.prod(len(t["candidates"]) for t in entry["tunables"])
        tiled = bool(order) and entry["candidates_total"] == assignments
        reference = default if default in launchable else choices["energy"]
        # Bad expressions fail here, before the per-config compiles.
        names = self.names(k, reference)
        for i, g in enumerate(k["grid"]):
            self.expr(k, f"grid[{i}]", g, names)
        self.expr(k, "dynamic_smem", k.get("dynamic_smem", "0"), names)
        self.buffers(k, names)
        return {"kernel": k, "report": report, "entry": entry, "order": order,
                "choices": choices, "default": default if default in launchable else None,
                "occupancy": occupancy if occupancy in launchable else None,
                "configs": configs, "tiled": tiled, "reference": reference}

    def names(self, k, config):
        block, tunables = config
        names = self.params(k)
        names.update(BLOCK_X=block[0], BLOCK_Y=block[1], BLOCK_Z=block[2])
        names.update(dict(tunables))
        return names

    def compile_configs(self, plans):
        tasks, slots = [], []
        for plan in plans:
            k = plan["kernel"]
            os.makedirs(os.path.join(self.out, "ptx", k["name"]), exist_ok=True)
            for config in plan["configs"]:
                block, tunables = config
                cid = f"{k['name']}/{config_name(block, dict(tunables))}"
                ptx = os.path.join(self.out, "ptx", cid + ".ptx")
                report = os.path.join(self.tmp, cid.replace("/", "__") + ".json")
                # The measured launch's grid (a bad one is reported in config_entry).
                names = self.names(k, config)
                grid = [self.expr(k, f"grid[{i}]", g, names) for i, g in enumerate(k["grid"])]
                options = [force_option(k["name"], block, dict(tunables),
                                        grid if all(g >= 1 for g in grid) else None,
                                        integer_arguments(k["args"], names)),
                           f"-energy-report={report}"] + self.workload_options(k)
                tasks.append(lambda k=k, cid=cid, ptx=ptx, options=options:
                             self.tools.compile(f"kernel '{k['name']}': config '{cid}'",
                                                k["source"], ptx, options))
                slots.append((plan, config, cid, report))
            if not plan["tiled"]:
                ptx = os.path.join(self.out, "ptx", k["name"], "baseline.ptx")
                tasks.append(lambda k=k, ptx=ptx: self.tools.compile(
                    f"kernel '{k['name']}': plugin-free baseline", k["source"], ptx,
                    plugin=False))
        _run_all(self.args.jobs, tasks)
        entries = {}
        for plan, config, cid, report in slots:
            entries[cid] = self.config_entry(plan, config, cid, report)
        return entries

    def config_entry(self, plan, config, cid, report_path):
        k = plan["kernel"]
        what = f"kernel '{k['name']}': config '{cid}'"
        report, entry = _read_report(what, report_path, k["name"])
        chosen = _config_of(entry["choice"], plan["order"])
        if chosen != config:
            raise SweepError(f"{what}: the plugin applied {chosen}, not the forced config")
        names = self.names(k, config)
        inputs = entry["choice_model_inputs"]
        input_names = report["model_input_names"]
        if len(inputs) != len(input_names) or not all(
                isinstance(v, (int, float)) and math.isfinite(v) for v in inputs):
            raise SweepError(f"{what}: the plugin's model inputs are not "
                             f"{len(input_names)} finite numbers")
        if entry.get("model", "").startswith("analytic"):
            analytic = (entry["choice"]["time_s"], entry["choice"]["energy_j"])
        elif "analytic_ln_time" in input_names and "analytic_ln_energy" in input_names:
            analytic = (math.exp(inputs[input_names.index("analytic_ln_time")]),
                        math.exp(inputs[input_names.index("analytic_ln_energy")]))
        else:
            analytic = (None, None)
        grid = [self.expr(k, f"grid[{i}]", g, names) for i, g in enumerate(k["grid"])]
        if any(g < 1 for g in grid):
            raise SweepError(f"{self.corpus_path}: kernel '{k['name']}': config '{cid}' has "
                             f"grid {grid}; every dimension must be positive")
        smem = self.expr(k, "dynamic_smem", k.get("dynamic_smem", "0"), names)
        if smem < 0:
            raise SweepError(f"{self.corpus_path}: kernel '{k['name']}': dynamic_smem of "
                             f"config '{cid}' is negative ({smem})")
        assumed = entry["choice"].get("grid_blocks")
        launched = math.prod(grid)
        # (--small launches are small on purpose: only real sizes are checked.)
        if assumed and not self.args.small and not plan.get("warned") \
                and not 0.5 <= launched / assumed <= 2:
            plan["warned"] = True
            self.warn(f"kernel '{k['name']}': config '{cid}' launches {launched} blocks but "
                      f"the plugin assumed {assumed} (work items {entry.get('work_items')}); "
                      "give the kernel a corpus.json 'workload' (or ENERGY_WORKLOAD) so that "
                      "the model inputs describe the measured launch")
        return {"id": cid, "ptx": f"ptx/{cid}.ptx", "block": list(config[0]), "grid": grid,
                "dynamic_smem": smem, "tunables": dict(config[1]),
                "model_inputs": inputs, "analytic_time_s": analytic[0],
                "analytic_energy_j": analytic[1], "repeat": False,
                "_buffers": self.buffers(k, names), "_input_names": input_names}

    def buffers(self, k, names):
        out = []
        for b in k["buffers"]:
            count = self.expr(k, f"buffer '{b['name']}' count", b["count"], names)
            if count < 1:
                raise SweepError(f"{self.corpus_path}: kernel '{k['name']}': buffer "
                                 f"'{b['name']}' has count {count}")
            try:
                init = evaluate_init(b["init"], names)
            except ValueError as e:
                raise SweepError(f"{self.corpus_path}: kernel '{k['name']}': buffer "
                                 f"'{b['name']}': {e}") from None
            out.append({"name": b["name"], "type": b["type"], "count": count, "init": init,
                        "output": bool(b.get("output", False))})
        return out

    def args_of(self, k):
        out = []
        for a in k["args"]:
            if "buffer" in a:
                out.append({"buffer": a["buffer"]})
            elif "param" in a:
                out.append({"param": a["param"], "type": a["type"]})
            else:
                out.append({"value": a["value"], "type": a["type"]})
        return out

    def manifest(self, plans, entries):
        input_names = None
        kernels = []
        for plan in plans:
            k = plan["kernel"]
            name = k["name"]
            # The choices and baselines are named even where they are not compiled
            # (--configs-of: the configs of an earlier sweep).
            named = [*plan["configs"], *plan["choices"].values(), plan["reference"],
                     plan["default"], plan["occupancy"]]
            ids = {c: f"{name}/{config_name(c[0], dict(c[1]))}" for c in named
                   if c is not None}
            configs = [entries[ids[c]] for c in plan["configs"]]
            compiled = {c["id"] for c in configs}
            for c in configs:
                if input_names is None:
                    input_names = c["_input_names"]
                elif c["_input_names"] != input_names:
                    raise SweepError(f"kernel '{name}': the plugin's model_input_names differ "
                                     "between compiles")
            reference = ids[plan["reference"]]
            if reference not in compiled:
                reference = configs[0]["id"]
            default_entry = entries[reference]
            self.mark_repeats(name, configs, [cid for cid in (ids[plan["choices"]["energy"]],
                                                              reference) if cid in compiled])
            for c in configs:
                c["reference"] = c["id"] == reference
                if c["_buffers"] != default_entry["_buffers"]:
                    c["buffers"] = c["_buffers"]
            kernel = {
                "name": name, "entry": k["entry"], "params": self.params(k),
                "buffers": default_entry["_buffers"], "args": self.args_of(k),
                "tolerance": k["tolerance"],
                "choices": {o: ids[c] for o, c in plan["choices"].items()},
                "baseline": self.baseline(plan, ids),
                "configs": [{key: v for key, v in c.items() if not key.startswith("_")}
                            for c in configs]}
            if "workload" in k:
                kernel["workload"] = self.expr(k, "workload", k["workload"], self.params(k))
            kernels.append(kernel)
            print(f"{name}: {plan['entry']['candidates_total']} candidates, "
                  f"{len(configs)} configs", file=sys.stderr)
        return {
            "format": MANIFEST_FORMAT,
            "arch": self.args.arch,
            "created": datetime.datetime.now(datetime.timezone.utc).strftime(
                "%Y-%m-%dT%H:%M:%SZ"),
            "plugin": self.plugin_description(),
            "corpus": os.path.relpath(self.corpus_path, os.getcwd()),
            "small": bool(self.args.small),
            "seed": self.args.seed,
            "model_input_names": input_names,
            "kernels": kernels,
        }

    def baseline(self, plan, ids):
        out = {}
        if plan["default"] is not None:
            out["default_config"] = ids[plan["default"]]
        if plan["occupancy"] is not None:
            out["occupancy_config"] = ids[plan["occupancy"]]
        if not plan["tiled"]:
            k = plan["kernel"]
            out["ptx"] = f"ptx/{k['name']}/baseline.ptx"
            default = plan["default"] or plan["reference"]
            table = []
            for threads in OCCUPANCY_BLOCKS:
                names = self.names(k, ((threads, 1, 1), default[1]))
                table.append([threads, self.expr(k, "dynamic_smem",
                                                 k.get("dynamic_smem", "0"), names)])
            out["dynamic_smem_by_threads"] = table
        return out

    def mark_repeats(self, name, configs, first):
        """--repeat-fraction of the configs, the plugin's choice and the default first."""
        count = math.ceil(self.args.repeat_fraction * len(configs))
        if count <= 0:
            return
        chosen = [cid for cid in dict.fromkeys(first)][:count]
        rest = sorted(c["id"] for c in configs if c["id"] not in chosen)
        rng = random.Random(f"{self.args.seed}/{name}")
        chosen += rng.sample(rest, min(len(rest), count - len(chosen)))
        for c in configs:
            c["repeat"] = c["id"] in chosen

    def plugin_description(self):
        version = "?"
        try:
            with open(os.path.join(REPO, "CMakeLists.txt"), encoding="utf-8") as f:
                m = re.search(r"project\(energy VERSION ([0-9.]+)", f.read())
                version = m.group(1) if m else version
        except OSError:
            pass
        with open(self.tools.plugin, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()[:12]
        return f"energy.so {version} (sha256 {digest})"

    def write_tar(self):
        path = self.out.rstrip("/") + ".tar.gz"
        with tarfile.open(path, "w:gz") as tar:
            tar.add(self.out, arcname=os.path.basename(self.out.rstrip("/")))
        size = os.path.getsize(path)
        if size >= TAR_LIMIT:
            raise SweepError(f"{path}: {size / 2**20:.1f} MiB, over the 64 MiB limit "
                             "(use --max-configs-per-kernel)")
        return f"wrote {path}: {size / 2**20:.2f} MiB"


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python3 -m energy.sweep",
        description="Compile one PTX per candidate config of every corpus kernel and "
                    "write the manifest the GPU runner (energy-bench) measures.")
    parser.add_argument("--corpus", required=True, help="folder with corpus.json")
    parser.add_argument("--plugin", default=os.environ.get(
        "ENERGY_PLUGIN", os.path.join(REPO, "build", "lib", "energy.so")),
        help="energy.so (default: $ENERGY_PLUGIN or build/lib/energy.so)")
    parser.add_argument("-o", "--output", required=True, metavar="OUTDIR",
                        help="folder for manifest.json and ptx/")
    parser.add_argument("--arch", default="sm_90", help="GPU architecture (default sm_90)")
    parser.add_argument("--kernels", help="comma-separated kernel names (default: all)")
    parser.add_argument("--max-configs-per-kernel", type=int, metavar="N",
                        help="measure at most N configs per kernel (plus required ones "
                             "beyond N): an even subsample of the candidates")
    parser.add_argument("--configs-of", metavar="MANIFEST",
                        help="compile the configs of this earlier manifest instead of a "
                             "subsample (to score its measurements with this plugin: "
                             "energy.oracle, energy.bench_rows)")
    parser.add_argument("--repeat-fraction", type=float, default=0.2,
                        help="fraction of each kernel's configs measured twice (default 0.2, as "
                             "energy-bench's --repeat-fraction)")
    parser.add_argument("--seed", type=int, default=0, help="random seed for repeats")
    parser.add_argument("--small", action="store_true",
                        help="use each kernel's small_params (tests, --check-references)")
    parser.add_argument("--tar", action="store_true", help="also write OUTDIR.tar.gz")
    parser.add_argument("--jobs", type=int, default=2, help="parallel compiles (default 2)")
    parser.add_argument("--clang", default=os.environ.get("ENERGY_CLANG", DEFAULT_CLANG),
                        help=f"clang++ 19 (default {DEFAULT_CLANG})")
    parser.add_argument("--cuda-path", default=DEFAULT_CUDA, help="CUDA root")
    parser.add_argument("--include", default=os.path.join(REPO, "include"),
                        help="folder with energy/energy.cuh (default: the repository's)")
    args = parser.parse_args(argv)
    if args.max_configs_per_kernel is not None and args.max_configs_per_kernel < 1:
        parser.error("--max-configs-per-kernel must be at least 1")
    if not 0 <= args.repeat_fraction <= 1:
        parser.error("--repeat-fraction must be between 0 and 1")
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    if not re.fullmatch(r"sm_[0-9]+[a-z]?", args.arch):
        parser.error(f"--arch '{args.arch}' is not sm_XX")
    try:
        lines = Sweep(args).run()
    except SweepError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    for line in lines:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
