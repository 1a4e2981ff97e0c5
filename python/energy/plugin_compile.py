"""Compile one tuning configuration through energy.so and read its prediction.

This is the device half of build/bin/energy-cuda (clang -O3 to PTX, with the plugin),
plus the tuner's view of the launch: the tunables as -D, the block and Kernel Tuner's
grid forced with -energy-force-config=KERNEL:BXxBYxBZ,grid=GXxGYxGZ. OpenCL sources
(Xgemm) compile with clang's OpenCL front end for nvptx64, their work-item functions
mapped to special registers by include/energy/opencl-compat/opencl-nvptx.h.

Results are cached on disk, keyed by the sources' and the plugin's contents and the
full command line, so a rerun compiles only what changed.
"""

import dataclasses
import hashlib
import json
import math
import os
import subprocess
import tempfile

from energy.tuning_cache import REPO_ROOT

LLVM_BIN = "/usr/lib/llvm-19/bin"
CUDA_PATH = "/usr/local/cuda"
CUDA_COMPAT = os.path.join(REPO_ROOT, "include", "energy", "cuda-compat")
OPENCL_COMPAT = os.path.join(REPO_ROOT, "include", "energy", "opencl-compat",
                             "opencl-nvptx.h")
COMPILE_TIMEOUT_S = 600
# Stand-ins for the per-run file names, so that the cache key is the same every run.
REPORT, OUTPUT = "@REPORT@", "@OUTPUT@"
CACHE_FORMAT = 4  # 3: predictions record the grid; 4: and the kept calls


class ToolchainError(Exception):
    """The plugin or compiler is missing or unusable: nothing can be evaluated."""


@dataclasses.dataclass
class Toolchain:
    plugin: str
    clang: str
    cuda_path: str
    has_gpu_option: bool      # the plugin knows -energy-gpu=<board>
    identity: str             # hash of plugin, compiler and compat headers

    def target_flags(self, board, arch):
        """The plugin's target: the board where the plugin has that option."""
        option = f"-energy-gpu={board}" if self.has_gpu_option else f"-energy-arch={arch}"
        return ["-mllvm", option]


def toolchain(plugin, clang=os.path.join(LLVM_BIN, "clang++"), cuda_path=CUDA_PATH,
              opt=os.path.join(LLVM_BIN, "opt")):
    for path, what in ((plugin, "plugin"), (clang, "clang++"), (opt, "opt")):
        if not os.path.isfile(path):
            raise ToolchainError(f"{path}: {what} not found")
    try:
        helped = subprocess.run([opt, f"-load-pass-plugin={plugin}", "--help"],
                                capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise ToolchainError(f"{opt}: cannot run: {e}") from None
    if helped.returncode != 0:
        raise ToolchainError(f"{plugin}: opt cannot load it: {helped.stderr.strip()}")
    identity = hashlib.sha256()
    for path in (plugin, OPENCL_COMPAT, *sorted(_files_under(CUDA_COMPAT))):
        identity.update(file_hash(path).encode())
    stat = os.stat(os.path.realpath(clang))
    identity.update(f"{os.path.realpath(clang)}:{stat.st_mtime_ns}:{stat.st_size}".encode())
    return Toolchain(plugin=plugin, clang=clang, cuda_path=cuda_path,
                     has_gpu_option="-energy-gpu=" in helped.stdout,
                     identity=identity.hexdigest())


def compile_command(tools, problem, config, board, arch, resources=None):
    """clang's argv for one configuration, with REPORT and OUTPUT as file names.

    resources: the force-config fields stating the measured build's registers and spills
    (energy.measured_build.force_suffix), or None for the plugin's own ptxas run.
    """
    block, grid = problem.block(config), problem.grid(config)
    defines = [f"-D{name}={value}" for name, value in config.items()]
    force = f"{problem.kernel}:{'x'.join(map(str, block))},grid={'x'.join(map(str, grid))}"
    if resources:
        force += "," + resources
    plugin = [f"-fplugin={tools.plugin}", f"-fpass-plugin={tools.plugin}",
              "-mllvm", f"-energy-report={REPORT}", "-mllvm", "-energy-objective=time",
              "-mllvm", f"-energy-force-config={force}", *tools.target_flags(board, arch)]
    if problem.default_extent:
        plugin += ["-mllvm", f"-energy-default-extent={problem.default_extent}"]
    *included, main = problem.sources
    if problem.language == "opencl":
        front = ["-x", "cl", "-cl-std=CL1.2", "-target", "nvptx64-nvidia-cuda",
                 f"-march={arch}", "-Xclang", "-finclude-default-header",
                 "-include", OPENCL_COMPAT]
    else:
        front = ["-x", "cuda", f"--cuda-gpu-arch={arch}", f"--cuda-path={tools.cuda_path}",
                 "-isystem", CUDA_COMPAT, "-isystem",
                 os.path.join(tools.cuda_path, "include", "cccl"), "-std=c++17",
                 "-Wno-unknown-cuda-version", "--cuda-device-only"]
    for source in included:
        front += ["-include", source]
    return [tools.clang, *front, "-O3", "-S", *defines, *problem.flags, *plugin,
            main, "-o", OUTPUT]


def predict(tools, problem, config, board, arch, cache_dir, resources=None):
    """The plugin's prediction for one configuration, from the cache when it is there.

    Returns {"ok": True, "time_s", "energy_j", "occupancy", "block", "grid_blocks", "grid",
    "features", "model_inputs", "kept_calls"} or {"ok": False, "error": "..."};
    model_inputs maps the cost models' input names to this launch's values, in the models'
    column order; kept_calls names the functions clang's build still calls.
    """
    command = compile_command(tools, problem, config, board, arch, resources)
    result = cached(cache_dir, [CACHE_FORMAT, tools.identity,
                                [file_hash(s) for s in problem.sources], command],
                    lambda: _run(command, problem, config))
    if result is not None:
        return result
    return {"ok": False, "error": f"compile timed out after {COMPILE_TIMEOUT_S} s"}


def cached(cache_dir, key, compute):
    """compute()'s result, kept as JSON under cache_dir by a hash of `key` (a JSON value)
    and read from there when present; a None result (a timeout) is returned, not kept."""
    digest = hashlib.sha256(json.dumps(key).encode()).hexdigest()
    entry = os.path.join(cache_dir, digest[:2], digest + ".json")
    try:
        with open(entry, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        pass
    result = compute()
    if result is not None:
        write_atomically(entry, result)
    return result


def _run(command, problem, config):
    """The compile's result, or None when it timed out (not worth caching)."""
    with tempfile.TemporaryDirectory(prefix="energy-kt-") as tmp:
        report = os.path.join(tmp, "report.json")
        output = os.path.join(tmp, "out.s")
        argv = [a.replace(REPORT, report).replace(OUTPUT, output) for a in command]
        try:
            done = subprocess.run(argv, capture_output=True, text=True,
                                  timeout=COMPILE_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            return None
        if done.returncode != 0:
            return {"ok": False, "error": first_error(done.stderr)}
        try:
            with open(report, encoding="utf-8") as f:
                return _prediction(json.load(f), problem, config)
        except (OSError, ValueError) as e:
            return {"ok": False, "error": f"no readable report: {e}"}


def _prediction(report, problem, config):
    forced = [k for k in report.get("kernels", []) if k.get("objective") == "forced"]
    if len(forced) != 1:
        skipped = [s["reason"] for s in report.get("skipped", [])]
        why = "; ".join(skipped) or f"{len(forced)} forced kernels in the report"
        return {"ok": False, "error": f"no prediction for {problem.kernel}: {why}"}
    choice = forced[0]["choice"]
    # The evaluation is only meaningful for the launch the tuner measured.
    block, blocks = problem.block(config), math.prod(problem.grid(config))
    if choice.get("block") != block or choice.get("grid_blocks") != blocks:
        return {"ok": False, "error": f"the plugin predicted block {choice.get('block')} "
                                      f"x {choice.get('grid_blocks')} blocks, the tuner "
                                      f"launched {block} x {blocks}"}
    if "time_s" not in choice:
        return {"ok": False, "error": f"forced configuration pruned: {choice.get('pruned')}"}
    names, values = report.get("model_input_names", []), forced[0].get("choice_model_inputs", [])
    if len(names) != len(values):
        return {"ok": False, "error": f"the report has {len(values)} model inputs for "
                                      f"{len(names)} names"}
    return {"ok": True, "time_s": choice["time_s"], "energy_j": choice["energy_j"],
            "occupancy": choice["occupancy"], "block": choice["block"],
            "grid_blocks": choice["grid_blocks"], "grid": list(problem.grid(config)),
            "features": forced[0].get("features", {}),
            "model_inputs": dict(zip(names, values)),
            # Functions clang's build still calls; the prediction inlined them.
            "kept_calls": [c["callee"] for c in forced[0].get("kept_calls", [])]}


def first_error(stderr):
    lines = stderr.strip().splitlines()
    errors = [line for line in lines if "error" in line]
    return (errors or lines or ["failed without a message"])[0].strip()


def write_atomically(path, value):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with tempfile.NamedTemporaryFile("w", dir=os.path.dirname(path), delete=False,
                                     suffix=".tmp", encoding="utf-8") as f:
        json.dump(value, f)
    os.replace(f.name, path)


def _files_under(folder):
    for root, _, names in os.walk(folder):
        for name in names:
            yield os.path.join(root, name)


def file_hash(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()
