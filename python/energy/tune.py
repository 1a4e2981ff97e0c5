"""The tuning loop: the plugin proposes, measurements confirm.

    # replay: each measurement is looked up in a measured cache (no GPU)
    PYTHONPATH=python /usr/bin/python3 -m energy.tune --replay PROBLEM.json --cache FILE \\
        [--board NAME] [--plugin PATH | --predictions ROWS] --budget N --seed S --json OUT
    # on the GPU: the candidates of an energy.sweep manifest, measured by energy-bench
    PYTHONPATH=python /usr/bin/python3 -m energy.tune --manifest SWEEP/manifest.json \\
        --kernel NAME [--bench PATH] --budget N --seed S --json OUT
    # on the GPU: a kernel of your program, built per candidate and timed inside it
    PYTHONPATH=python /usr/bin/python3 -m energy.tune --program \\
        --build 'energy-cuda -DENERGY_TIME_LAUNCHES {force_config} app.cu -o app' \\
        --run './app' --kernel NAME --budget N --seed S --json OUT

Ranks every candidate with the plugin's prediction, measures the most promising,
corrects its prediction for this kernel from what it measured (energy.tune_search),
proposes the next, and stops at the budget or when no remaining candidate can beat the
best measured by more than the measurement noise. A configuration that fails (absent
from the replayed cache, failed in it, or failed on the GPU) is recorded and never
retried; no configuration is measured twice. After every measurement the state is
written (--state, default the --json file): the same command resumes an interrupted run
and measures only what is left. --force-config and --header write what the next build
consumes (docs/tune.md).
"""

import argparse
import copy
import hashlib
import json
import os
import subprocess
import sys
import types


from energy import (jsonl, kt_eval, measured_build, oracle, plugin_compile, tune_program,
                    tune_search, tuning_problem)
from energy.dataset import DatasetError
from energy.tuning_cache import REPO_ROOT, read_tuning_cache

FORMAT = "energy-tune-v1"
# The relative measurement noise of the stop rule: the largest difference between the two
# measurements of a config that energy-bench repeated on the H100 (2.2%; median 0.05%,
# 42 configs of data/h100-corpus-sweep/h100.jsonl).
DEFAULT_NOISE = 0.02
DEFAULT_BENCH = os.path.join(REPO_ROOT, "build", "bin", "energy-bench")


class TuneError(Exception):
    pass


# --- candidates -------------------------------------------------------------------

def replay_candidates(problem, cache, predictions_for):
    """Every configuration of the cache that satisfies the problem's restrictions,
    measured or failed there: [{"config", "key", "predicted_s"}], and {key: seconds}."""
    measured = kt_eval.measured_configurations(cache)
    params = cache.params
    times = dict(zip(measured["config"], measured["time_s"]))
    configs = [{p: row[p] for p in params} for row in measured.to_dict("records")]
    configs += [c for c in cache.failed_configs
                if kt_eval.config_key(c, params) not in times]
    configs = [c for c in configs if not problem.violated(c)]
    configs.sort(key=lambda c: kt_eval.config_key(c, params))
    candidates = [{"config": c, "key": kt_eval.config_key(c, params)} for c in configs]
    predictions_for(candidates)
    return candidates, times


def plugin_predictions(problem, board, plugin, cache_dir, jobs, log):
    """A function that fills each candidate's predicted_s by compiling it through the
    plugin (kt_eval's predictions, cached on disk)."""
    def fill(candidates):
        tools = plugin_compile.toolchain(plugin)
        nvcc = measured_build.nvcc_identity()

        # kt_eval.run's view of one (problem, board): its jobs, filled in predictions.
        evaluation = types.SimpleNamespace(
            problem=problem, board=board, predictions=[None] * len(candidates),
            jobs=lambda: [(i, c["config"]) for i, c in enumerate(candidates)])
        kt_eval.run([evaluation], tools, cache_dir, jobs, log, nvcc)
        for candidate, prediction in zip(candidates, evaluation.predictions):
            candidate["predicted_s"] = prediction["time_s"] if prediction["ok"] else None
        failed = [p["error"] for p in evaluation.predictions if not p["ok"]]
        if candidates and len(failed) == len(candidates):
            raise TuneError(f"the plugin predicted no candidate: {failed[0]}")
        if failed:
            log(f"tune: {len(failed)} of {len(candidates)} candidates not predicted (they "
                f"rank with the slowest predicted); first error: {failed[0]}")
    return fill


def row_predictions(rows_path, problem, board):
    """A function that keeps only the candidates that dataset rows (docs/dataset-format.md,
    e.g. kt_eval --rows) predict for this problem and board, with those predictions."""
    predicted = {}
    for _, row in jsonl.read_objects(rows_path):
        if row.get("problem", row.get("kernel")) == problem.name and row.get("gpu") == board:
            predicted[row["config"]] = row["analytic_time_s"]
    if not predicted:
        raise DatasetError(f"{rows_path}: no rows of problem '{problem.name}' on "
                           f"board '{board}'")

    def fill(candidates):
        kept = [c for c in candidates if c["key"] in predicted]
        candidates[:] = kept
        for c in candidates:
            c["predicted_s"] = predicted[c["key"]]
    return fill


def block_params(block):
    """A launch's block as parameters (the names Kernel Tuner gives them)."""
    return dict(zip(tuning_problem.BLOCK_SIZE_NAMES, block))


def manifest_candidates(manifest_path, kernel):
    """The configurations of one kernel of an energy.sweep manifest, with the plugin's
    predictions the sweep recorded."""
    manifest = jsonl.read_json(manifest_path)
    entry = next((k for k in manifest.get("kernels", []) if k.get("name") == kernel), None)
    if entry is None:
        names = ", ".join(k.get("name", "?") for k in manifest.get("kernels", []))
        raise DatasetError(f"{manifest_path}: no kernel '{kernel}' (kernels: {names})")
    candidates = [{"config": {**block_params(c["block"]), **c.get("tunables", {})},
                   "key": c["id"], "predicted_s": c.get("analytic_time_s"),
                   "manifest_config": c} for c in entry["configs"]]
    return manifest, entry, candidates


# --- measurements -----------------------------------------------------------------

def replay_measure(times):
    def measure(candidate):
        seconds = times.get(candidate["key"])
        if seconds is None:
            return None, "not measured in the cache, or failed there"
        return float(seconds), None
    return measure


def bench_measure(manifest_path, manifest, entry, bench, bench_args, workdir):
    """Measure one configuration with energy-bench: a manifest of that configuration
    alone, its row appended to WORKDIR/bench.jsonl (energy-bench's method: warm-up,
    repeats, spread re-measure; NVML energy, no silent fallback)."""
    base = os.path.dirname(os.path.abspath(manifest_path))
    rows_path = os.path.join(workdir, "bench.jsonl")

    def measure(candidate):
        config = copy.deepcopy(candidate["manifest_config"])
        ptx = config["ptx"]
        config.update(ptx=ptx if os.path.isabs(ptx) else os.path.join(base, ptx),
                      repeat=False, reference=True)
        one = {**{k: v for k, v in entry.items() if k not in ("configs", "baseline")},
               "configs": [config], "choices": {}}
        document = {**manifest, "kernels": [one]}
        folder = os.path.join(workdir, "one")
        os.makedirs(folder, exist_ok=True)
        plugin_compile.write_atomically(os.path.join(folder, "manifest.json"), document)
        argv = [bench, os.path.join(folder, "manifest.json"), "-o", rows_path,
                "--repeat-fraction", "0", "--drift-every", "0", *bench_args]
        try:
            done = subprocess.run(argv, capture_output=True, text=True)
        except OSError as e:
            raise TuneError(f"{bench}: cannot run: {e.strerror}") from None
        rows = [r for r in _read_rows(rows_path) if r.get("config") and
                oracle.config_id(r.get("kernel", ""), r["config"]) == config["id"]]
        if done.returncode != 0 and not rows:
            # The runner could not measure at all (no GPU, no NVML): not a failed config.
            raise TuneError(f"energy-bench failed: {plugin_compile.first_error(done.stderr)}")
        if not rows:
            return None, "energy-bench wrote no row"
        row = rows[-1]
        if row.get("status") != "ok":
            return None, row.get("error", row.get("status", "failed"))
        return float(row["time_s"]), None
    return measure


def _read_rows(path):
    if not os.path.exists(path):
        return []
    return [row for _, row in jsonl.read_objects(path)]


# --- the loop ---------------------------------------------------------------------

def candidates_digest(candidates):
    keys = json.dumps([c["key"] for c in candidates]).encode()
    return hashlib.sha256(keys).hexdigest()[:16]


def load_state(path, header):
    """The recorded steps of an earlier run of the same search, or []."""
    if not path or not os.path.exists(path):
        return []
    try:
        with open(path, encoding="utf-8") as f:
            state = json.load(f)
    except (OSError, ValueError) as e:
        raise TuneError(f"{path}: cannot read the state to resume: {e}") from None
    if state.get("format") != FORMAT:
        raise TuneError(f"{path}: not a state of energy.tune ({FORMAT})")
    for key, value in header.items():
        if state.get(key) != value:
            raise TuneError(f"{path}: made by another search ({key} {state.get(key)!r}, "
                            f"now {value!r}); remove it or name another --state")
    return state.get("steps", [])


def tune(candidates, strategy, measure, budget, seed, noise, recorded=(), save=None,
         use_stop_rule=True):
    """Run the loop; returns (steps, stop reason). `recorded` are the steps of an
    interrupted run: the search replays them instead of measuring again. save(steps) is
    called after every new measurement. Without use_stop_rule only the budget and the
    candidates left end the run (for evaluations)."""
    search = tune_search.make(strategy, candidates, seed, noise)
    memo = {s["key"]: s for s in recorded}
    index_of = {c["key"]: i for i, c in enumerate(candidates)}
    steps, reason, best = [], None, None
    while True:
        if len(steps) >= budget:
            reason = f"budget of {budget} measurements used"
            break
        reason = search.stop_reason() if use_stop_rule else None
        if reason:
            break
        index = search.propose()
        if index is None:
            reason = "no candidate left"
            break
        candidate = candidates[index]
        if candidate["key"] in memo:
            step = memo[candidate["key"]]
        else:
            # (seconds, why it failed[, the measurement's details for the step])
            seconds, error, *details = measure(candidate)
            step = {"key": candidate["key"], "config": candidate["config"],
                    "predicted_s": candidate.get("predicted_s"), "measured_s": seconds,
                    **(details[0] if details else {})}
            if error:
                step["failed"] = error
        if any(s["key"] == step["key"] for s in steps):
            raise TuneError(f"internal error: {step['key']} proposed twice")
        if step["measured_s"] is not None:
            best = step["measured_s"] if best is None else min(best, step["measured_s"])
        step["best_s"] = best
        steps.append(step)
        search.observe(index_of[step["key"]], step["measured_s"])
        if save and step["key"] not in memo:
            save(steps)
    return steps, reason


def best_step(steps):
    ok = [s for s in steps if s["measured_s"] is not None]
    return min(ok, key=lambda s: s["measured_s"]) if ok else None


# --- what the build consumes ------------------------------------------------------

def force_config_value(kernel, block, grid=None, tunables=None):
    """-energy-force-config's value (lib/Plugin/Plugin.cpp): KERNEL:BXxBYxBZ[,grid=...]
    [,NAME=V...]."""
    value = f"{kernel}:{'x'.join(str(int(b)) for b in block)}"
    if grid:
        value += f",grid={'x'.join(str(int(g)) for g in grid)}"
    for name, v in (tunables or {}).items():
        value += f",{name}={v}"
    return value


def write_force_config(path, value):
    """One line per kernel, the option as energy-cuda spells it; clang takes it as
    `-mllvm -energy-force-config=...` (docs/tune.md)."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(f"--energy-force-config={value}\n")


def write_header(path, sources, force_value, arch, plugin, defines=(), flags=()):
    """The choices header, written by the plugin itself (-energy-header) for the best
    configuration forced, from a device compile of the kernel's sources."""
    tools = plugin_compile.toolchain(plugin)
    *included, main = sources
    argv = [tools.clang, "-x", "cuda", f"--cuda-gpu-arch={arch}",
            f"--cuda-path={tools.cuda_path}", "-isystem", plugin_compile.CUDA_COMPAT,
            "-isystem", os.path.join(tools.cuda_path, "include", "cccl"),
            "-I", os.path.join(REPO_ROOT, "include"), "-std=c++17",
            "-Wno-unknown-cuda-version", "--cuda-device-only", "-O3", "-S",
            *[a for s in included for a in ("-include", s)], *defines, *flags,
            f"-fplugin={plugin}", f"-fpass-plugin={plugin}",
            "-mllvm", f"-energy-force-config={force_value}",
            "-mllvm", f"-energy-header={os.path.abspath(path)}", main, "-o", os.devnull]
    done = subprocess.run(argv, capture_output=True, text=True)
    if done.returncode != 0:
        raise TuneError(f"writing the header {path}: "
                        f"{plugin_compile.first_error(done.stderr)}")


# --- command line -----------------------------------------------------------------

def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="python3 -m energy.tune",
        description="Tune a kernel's launch configuration: the plugin ranks the "
                    "candidates, measurements (looked up in a cache with --replay, "
                    "energy-bench on the GPU, or your program run with --program) correct "
                    "the ranking per kernel.")
    where = parser.add_argument_group("replay (no GPU)")
    where.add_argument("--replay", metavar="PROBLEM.json",
                       help="a tuning problem in kt_eval's format (data/kernel-tuner/problems)")
    where.add_argument("--cache", metavar="FILE", help="one of its measured caches")
    where.add_argument("--board", help="the plugin's board (replay default: the cache's "
                                       "device in data/kernel-tuner/boards.json; --program: "
                                       "passed as --energy-gpu, default the plugin's)")
    where.add_argument("--plugin", default=kt_eval.DEFAULT_PLUGIN,
                       help="energy.so for the predictions (default: %(default)s)")
    where.add_argument("--predictions", metavar="ROWS",
                       help="take the predictions from dataset rows (kt_eval --rows) "
                            "instead of compiling; the candidates are their configurations")
    where.add_argument("--cache-dir", default=kt_eval.default_cache_dir(),
                       help="compiled predictions cache (default: %(default)s)")
    where.add_argument("-j", "--jobs", type=int, default=2, help="parallel compiles (default 2)")
    gpu = parser.add_argument_group("GPU (energy-bench)")
    gpu.add_argument("--manifest", metavar="FILE",
                     help="an energy.sweep manifest: the candidates and their PTX")
    gpu.add_argument("--kernel", help="the kernel to tune (the manifest's, or the program's)")
    gpu.add_argument("--bench", default=DEFAULT_BENCH, help="energy-bench (default: %(default)s)")
    gpu.add_argument("--bench-arg", action="append", default=[], metavar="ARG",
                     help="an option for energy-bench (repeatable), e.g. --bench-arg=--device=1")
    gpu.add_argument("--sources", nargs="+", metavar="FILE",
                     help="with --header: the kernel's sources (default: the corpus source "
                          "the manifest names)")
    program = parser.add_argument_group(
        "GPU (your program: built per candidate, the kernel timed inside it)")
    program.add_argument("--program", action="store_true",
                         help="tune --kernel inside the program --build makes and --run runs")
    program.add_argument("--build", metavar="CMD",
                         help="shell command that builds the program, with {force_config} "
                              "(energy-cuda options: the candidate's --energy-force-config) "
                              "or {force_file} (a file of them, one a line); build with "
                              "-DENERGY_TIME_LAUNCHES")
    program.add_argument("--run", metavar="CMD",
                         help="shell command that runs the program; it must launch the "
                              "kernel through ENERGY_LAUNCH at least --warmup + "
                              f"{tune_program.MIN_REPEATS} times")
    program.add_argument("--warmup", type=int, default=tune_program.DEFAULT_WARMUP,
                         metavar="N", help="launches dropped as warm-up (default %(default)s)")
    program.add_argument("--max-time-spread", type=float,
                         default=tune_program.DEFAULT_MAX_TIME_SPREAD, metavar="F",
                         help="run again once when the time per launch of the run's four "
                              "quarters spreads more than F (default %(default)s)")
    program.add_argument("--min-energy-seconds", type=float,
                         default=tune_program.DEFAULT_MIN_ENERGY_SECONDS, metavar="S",
                         help="report energy only when the timed launches last S seconds "
                              "(default %(default)s)")
    program.add_argument("--timeout", type=float, metavar="S",
                         help="a build or run past S seconds fails that configuration")
    parser.add_argument("--budget", type=int, required=True, metavar="N",
                        help="measure at most N configurations")
    parser.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    parser.add_argument("--strategy", choices=tune_search.STRATEGIES, default="guided",
                        help="guided (default), or the baselines random and annealing")
    parser.add_argument("--noise", type=float, default=DEFAULT_NOISE,
                        help="relative measurement noise of the stop rule "
                             "(default %(default)s)")
    parser.add_argument("--json", required=True, metavar="OUT", help="the result")
    parser.add_argument("--state", metavar="FILE",
                        help="state to resume from and write after each measurement "
                             "(default: OUT)")
    parser.add_argument("--force-config", metavar="FILE",
                        help="write the best configuration as an -energy-force-config line")
    parser.add_argument("--header", metavar="FILE",
                        help="write the choices header (the plugin's -energy-header) of the "
                             "best configuration")
    args = parser.parse_args(argv)
    if [bool(args.replay), bool(args.manifest), args.program].count(True) != 1:
        parser.error("give --replay PROBLEM.json --cache FILE, --manifest FILE --kernel NAME, "
                     "or --program --build CMD --run CMD --kernel NAME")
    if args.program and not (args.build and args.run and args.kernel):
        parser.error("--program needs --build CMD, --run CMD and --kernel NAME")
    if args.warmup < 0 or args.max_time_spread < 0 or args.min_energy_seconds < 0:
        parser.error("--warmup, --max-time-spread and --min-energy-seconds must be >= 0")
    if args.replay and not args.cache:
        parser.error("--replay needs --cache FILE")
    if args.manifest and not args.kernel:
        parser.error("--manifest needs --kernel NAME")
    if args.budget < 1 or args.jobs < 1:
        parser.error("--budget and -j must be at least 1")
    if not 0 <= args.noise < 1:
        parser.error("--noise must be >= 0 and < 1")
    return args


def main(argv=None):
    args = parse_args(argv)

    def log(message):
        print(message, file=sys.stderr, flush=True)

    try:
        extra = {}
        if args.replay:
            problem = tuning_problem.load(args.replay)
            cache = read_tuning_cache(args.cache)
            boards = kt_eval.load_boards()
            board = args.board or (boards.get(cache.device_name) or {}).get("board")
            if board is None:
                raise TuneError(f"{args.cache}: no board for device '{cache.device_name}' "
                                f"in {kt_eval.BOARDS}; give --board")
            arch = next((b["arch"] for b in boards.values() if b["board"] == board), None)
            fill = (row_predictions(args.predictions, problem, board) if args.predictions
                    else plugin_predictions(problem, {"board": board, "arch": arch},
                                            args.plugin, args.cache_dir, args.jobs, log))
            candidates, times = replay_candidates(problem, cache, fill)
            measure = replay_measure(times)
            source = {"problem": os.path.relpath(problem.spec, REPO_ROOT),
                      "cache": os.path.relpath(cache.path, REPO_ROOT), "board": board}
            # The best of the whole cache, whatever the candidates are.
            extra["cache_best_s"] = float(min(times.values()))
            kernel, sources = problem.kernel, problem.sources
        elif args.program:
            tune_program.check_build_command(args.build)
            workdir = os.path.splitext(os.path.abspath(args.state or args.json))[0] + ".program"
            os.makedirs(workdir, exist_ok=True)
            gpu_options = [f"--energy-gpu={args.board}"] if args.board else []
            build_command = args.build
            candidates, report = tune_program.report_candidates(
                build_command, args.kernel, workdir, args.timeout, gpu_options)
            measure = tune_program.program_measure(
                build_command, args.run, args.kernel, workdir, args.warmup,
                args.max_time_spread, args.min_energy_seconds, args.timeout, gpu_options)
            source = {"build": args.build, "run": args.run, "kernel": args.kernel,
                      "workdir": workdir, **report}
            kernel, sources = args.kernel, None
        else:
            manifest, entry, candidates = manifest_candidates(args.manifest, args.kernel)
            workdir = os.path.splitext(os.path.abspath(args.state or args.json))[0] + ".bench"
            os.makedirs(workdir, exist_ok=True)
            measure = bench_measure(args.manifest, manifest, entry, args.bench,
                                    args.bench_arg, workdir)
            source = {"manifest": os.path.abspath(args.manifest), "kernel": args.kernel,
                      "bench_rows": os.path.join(workdir, "bench.jsonl")}
            kernel, arch = args.kernel, manifest.get("arch")
            sources = args.sources or [entry[k] for k in ("source",) if k in entry]
        if not candidates:
            raise TuneError("no candidate configuration")
        header = {"format": FORMAT, "strategy": args.strategy, "seed": args.seed,
                  "noise": args.noise, "candidates_digest": candidates_digest(candidates)}
        state_path = args.state or args.json
        recorded = load_state(state_path, header)
        document = {**header, "source": source, "candidates": len(candidates),
                    "budget": args.budget}

        def save(steps, reason=None):
            out = {**document, **extra, "steps": steps}
            if reason:
                out["stopped"] = reason
            for path in {state_path, args.json}:
                plugin_compile.write_atomically(os.path.abspath(path), jsonl.plain(out))

        steps, reason = tune(candidates, args.strategy, measure, args.budget, args.seed,
                             args.noise, recorded, save)
        best = best_step(steps)
        document["best"] = best and {"config": best["config"], "measured_s": best["measured_s"]}
        save(steps, reason)
        log(f"tune: {len(steps)} measurement(s), {sum('failed' in s for s in steps)} failed; "
            f"stopped: {reason}")
        if best is None:
            raise TuneError("no configuration was measured successfully")
        log(f"tune: best {best['key']}: {best['measured_s']:.6g} s"
            + (f" (cache best {extra['cache_best_s']:.6g} s)" if extra.get("cache_best_s")
               else ""))
        if args.program:
            # The program is left built with the best (the plugin writing the header).
            tune_program.build_best(build_command, best["key"], workdir, args.timeout,
                                    args.header, gpu_options)
            if args.force_config:
                write_force_config(args.force_config, best["key"])
        elif args.force_config or args.header:
            value = build_force_value(args, kernel, best, candidates, problem=
                                      problem if args.replay else None)
            if args.force_config:
                write_force_config(args.force_config, value)
            if args.header:
                if not sources:
                    raise TuneError("--header needs the kernel's --sources")
                write_header(args.header, sources, value, arch, args.plugin)
    except (TuneError, DatasetError, plugin_compile.ToolchainError,
            tune_program.ProgramError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


def build_force_value(args, kernel, best, candidates, problem=None):
    """The -energy-force-config value of the best configuration."""
    if problem is not None:
        block_names = set(problem.block_size_names)
        tunables = {k: v for k, v in best["config"].items() if k not in block_names}
        return force_config_value(kernel, problem.block(best["config"]),
                                  problem.grid(best["config"]), tunables)
    config = next(c for c in candidates if c["key"] == best["key"])["manifest_config"]
    return force_config_value(kernel, config["block"], config.get("grid"),
                              config.get("tunables"))


if __name__ == "__main__":
    sys.exit(main())
